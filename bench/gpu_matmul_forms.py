"""One CUDA module of transformer projections at 64 tokens, each in two forms, for per-kernel
GPU timing (bench/RESULTS.md, "IREE runtime: CUDA (H100)").

    python bench/gpu_matmul_forms.py --out DIR     # DIR/forms.mlir, DIR/forms.vmfb (sm_80)
    # on the GPU machine, per function F of FORMS (bench/gpu_dispatch_times.sh's second form):
    bash bench/gpu_dispatch_times.sh --module DIR/forms.vmfb --function F --out NCU \
        --input=1x64xKxf32=0.5 --input=KxNxf32=0.25 --input=Nxf32=1

Functions `<shape>_bmm` (what torch-mlir and `dispatch-creation` give IREE: a batch_matmul over
[1, 64, K] reading the [K, N] weight through its map, + bias) and `<shape>_mm` (the rows
collapsed to a 2-D linalg.matmul, + bias), for minilm_l6's shapes (K, N): proj (384, 384),
ffn1 (384, 1536), ffn2 (1536, 384). IREE forms the dispatches itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fusionopt.iree_tools import compile_vmfb, cuda_flags  # noqa: E402

M = 64
SHAPES = {"proj": (384, 384), "ffn1": (384, 1536), "ffn2": (1536, 384)}
FORMS = [f"{shape}_{form}" for shape in SHAPES for form in ("bmm", "mm")]

BIAS = """linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}} ins(%m, %b : {t}, tensor<{n}xf32>) outs(%e : {t}) {{
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    }} -> {t}"""


def _bias(rank: int, n: int, t: str) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    maps = f"{ident}, affine_map<({dims}) -> (d{rank - 1})>, {ident}"
    return BIAS.format(maps=maps, iters=", ".join(['"parallel"'] * rank), n=n, t=t)


def bmm(name: str, k: int, n: int) -> str:
    t = f"tensor<1x{M}x{n}xf32>"
    maps = ("affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, "
            "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>")
    return f"""
  func.func @{name}_bmm(%x: tensor<1x{M}x{k}xf32>, %w: tensor<{k}x{n}xf32>, %b: tensor<{n}xf32>) -> {t} {{
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : {t}
    %f = linalg.fill ins(%c0 : f32) outs(%e : {t}) -> {t}
    %m = linalg.batch_matmul indexing_maps = [{maps}] ins(%x, %w : tensor<1x{M}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : {t}) -> {t}
    %r = {_bias(3, n, t)}
    return %r : {t}
  }}"""


def mm(name: str, k: int, n: int) -> str:
    t, t3 = f"tensor<{M}x{n}xf32>", f"tensor<1x{M}x{n}xf32>"
    return f"""
  func.func @{name}_mm(%x: tensor<1x{M}x{k}xf32>, %w: tensor<{k}x{n}xf32>, %b: tensor<{n}xf32>) -> {t3} {{
    %c0 = arith.constant 0.0 : f32
    %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x{M}x{k}xf32> into tensor<{M}x{k}xf32>
    %e = tensor.empty() : {t}
    %f = linalg.fill ins(%c0 : f32) outs(%e : {t}) -> {t}
    %m = linalg.matmul ins(%x2, %w : tensor<{M}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : {t}) -> {t}
    %r = {_bias(2, n, t)}
    %r3 = tensor.expand_shape %r [[0, 1], [2]] output_shape [1, {M}, {n}] : {t} into {t3}
    return %r3 : {t3}
  }}"""


def forms_module() -> str:
    return "module {" + "".join(f(name, k, n) for name, (k, n) in SHAPES.items() for f in (bmm, mm)) + "\n}\n"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    source = args.out / "forms.mlir"
    source.write_text(forms_module())
    compile_vmfb(source, args.out / "forms.vmfb", cuda_flags())
    print(f"{args.out / 'forms.vmfb'}: functions {', '.join(FORMS)}")


if __name__ == "__main__":
    main()
