"""Attention's Q . K^T in the operand layouts IREE's CPU codegen may get, timed side by side.

    python bench/attention_layouts.py [--heads 2] [--seq 64] [--dim 64] [--rounds 15] [--iterations 300]

Four single-contraction functions, one module, compiled for llvm-cpu (`--iree-llvmcpu-target-cpu=host`)
and timed with `iree-benchmark-module --device=local-sync` interleaved round by round (seeded
shuffle); `ours_strided_aa` is a second call of the first form: its ratio is the noise.
- `ours_strided`: Q [seq, heads, dim] and K [keys, heads, dim] read through maps, what
  `linalg-fold-transpose-into-matmul` leaves (K "NT": the reduction dim innermost);
- `headmajor_nt`: Q and K as contiguous [heads, seq, dim] copies (still NT);
- `headmajor_nn`: `linalg.batch_matmul` on Q [heads, seq, dim] and K^T [heads, dim, keys] (IREE's form);
- `strided_q_kt`: Q read through the map, K^T [heads, dim, keys] (`linalg-transpose-nt-operands`).
Prints median (min) us per call and the ratio to `ours_strided`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fusionopt.iree_tools import benchmark_vmfb, compile_vmfb, save_inputs, target_flags  # noqa: E402

PAYLOAD = """^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32"""
ITERS = '["parallel", "parallel", "parallel", "reduction"]'
# name -> (Q layout, K layout, Q map, K map); layouts name the dims: h heads, s/t seq, d dim.
FORMS = {
    "ours_strided": ("shd", "thd", "(d1, d0, d3)", "(d2, d0, d3)"),
    "headmajor_nt": ("hsd", "htd", "(d0, d1, d3)", "(d0, d2, d3)"),
    "headmajor_nn": ("hsd", "hdt", "(d0, d1, d3)", "(d0, d3, d2)"),
    "strided_q_kt": ("shd", "hdt", "(d1, d0, d3)", "(d0, d3, d2)"),
}


def shape(layout: str, h: int, s: int, d: int) -> list[int]:
    return [{"h": h, "s": s, "t": s, "d": d}[c] for c in layout]


def tensor(dims: list[int]) -> str:
    return "tensor<" + "x".join(map(str, dims)) + "xf32>"


def function(name: str, h: int, s: int, d: int) -> str:
    ql, kl, qm, km = FORMS[name]
    q, k, out = tensor(shape(ql, h, s, d)), tensor(shape(kl, h, s, d)), tensor([h, s, s])
    m = "affine_map<(d0, d1, d2, d3) -> {}>"
    return f"""func.func @{name}(%q: {q}, %k: {k}) -> {out} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {out}
  %f = linalg.fill ins(%z : f32) outs(%e : {out}) -> {out}
  %r = linalg.generic {{indexing_maps = [{m.format(qm)}, {m.format(km)}, {m.format('(d0, d1, d2)')}], iterator_types = {ITERS}}} ins(%q, %k : {q}, {k}) outs(%f : {out}) {{
  {PAYLOAD}
  }} -> {out}
  return %r : {out}
}}"""


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--heads", type=int, default=2)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--iterations", type=int, default=300)
    args = p.parse_args(argv)
    h, s, d = args.heads, args.seq, args.dim
    work = Path(tempfile.mkdtemp(prefix="attention_layouts_"))
    source = work / "forms.mlir"
    source.write_text("\n".join(function(n, h, s, d) for n in FORMS))
    vmfb = compile_vmfb(source, work / "forms.vmfb", target_flags("llvm-cpu"))
    rng = np.random.default_rng(0)
    inputs = {n: save_inputs([rng.standard_normal(shape(lay, h, s, d), dtype=np.float32) for lay in FORMS[n][:2]], work / n)
              for n in FORMS}
    runs = [*FORMS, "ours_strided_aa"]
    times: dict[str, list[float]] = {r: [] for r in runs}
    order = random.Random(0)
    for _ in range(args.rounds):
        order.shuffle(runs)
        for run in runs:
            fn = run.removesuffix("_aa")
            times[run].append(1000 * benchmark_vmfb(vmfb, inputs[fn], fn, args.iterations, device="local-sync").ms_per_call)
    base = statistics.median(times["ours_strided"])
    print(f"heads {h}, seq {s}, dim {d}: us per call, median (min) of {args.rounds} interleaved rounds")
    print("| form | median us | min us | / ours_strided |\n|---|---:|---:|---:|")
    for run in [*FORMS, "ours_strided_aa"]:
        med = statistics.median(times[run])
        print(f"| {run} | {med:.2f} | {min(times[run]):.2f} | {med / base:.2f}x |")


if __name__ == "__main__":
    main()
