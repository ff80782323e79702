"""Single dispatches with and without packed weights: 1x1 convs over constant filters and matmuls
over constant weights, each with its epilogue, through `dispatch-creation-llvm-cpu` as it is and
without `linalg-pack-conv-filters` / `linalg-pack-matmul-weights`, built for llvm-cpu (host) and
timed interleaved on one thread; prints ms per call (median and min over rounds) and the ratio.

    python bench/packed_weights.py [--shapes conv:7x7x1024x2048,matmul:49x3072x768] [--rounds 5]
                                   [--iterations 20]

Shapes: `conv:HxWxCxF` (NHWC 1x1 conv, stride 1, + bias + ReLU) and `matmul:MxKxN` (+ bias +
GELU-like tanh). Defaults: the 1x1 convs of ResNeXt50 and MobileNetV2 and ConvNeXt-tiny's MLP
matmuls at 224x224 (1x1 convs from fewer than 32 channels are not packed: both builds would be
the same). Both modules of a shape are first checked to agree (random inputs).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from iree_bench_timing import timed_rounds  # noqa: E402
from support.cpu_pipeline_cases import dense  # noqa: E402

from fusionopt.ir_io import print_module  # noqa: E402
from fusionopt.iree_tools import compile_vmfb, cpu_flags, run_vmfb, save_inputs  # noqa: E402
from fusionopt.registry import PIPELINES  # noqa: E402
from fusionopt.testing import apply_pipeline  # noqa: E402

PIPELINE = "dispatch-creation-llvm-cpu"
PACKING = ("linalg-pack-conv-filters", "linalg-pack-matmul-weights")
DEFAULT_SHAPES = ("conv:7x7x1024x2048,conv:14x14x1024x512,conv:28x28x512x256,conv:56x56x256x128,"
                  "conv:14x14x64x384,conv:7x7x160x960,"
                  "matmul:49x3072x768,matmul:49x768x3072,matmul:3136x384x96,matmul:784x192x768,"
                  "matmul:197x384x1536")


def conv_program(h: int, w: int, c: int, f: int, rng: np.random.Generator) -> tuple[str, list[tuple[int, ...]]]:
    weight, bias = rng.standard_normal((1, 1, c, f)) * 0.05, rng.standard_normal(f) * 0.1
    t = f"tensor<1x{h}x{w}x{f}xf32>"
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    return f"""func.func @main_graph(%x: tensor<1x{h}x{w}x{c}xf32>) -> {t} {{
  %z = arith.constant 0.0 : f32
  %w = arith.constant {dense(weight)} : tensor<1x1x{c}x{f}xf32>
  %b = arith.constant {dense(bias)} : tensor<{f}xf32>
  %e = tensor.empty() : {t}
  %i = linalg.broadcast ins(%b : tensor<{f}xf32>) outs(%e : {t}) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<1x{h}x{w}x{c}xf32>, tensor<1x1x{c}x{f}xf32>) outs(%i : {t}) -> {t}
  %r = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%c : {t}) outs(%e : {t}) {{
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  }} -> {t}
  func.return %r : {t}
}}
""", [(1, h, w, c)]


def matmul_program(m: int, k: int, n: int, rng: np.random.Generator) -> tuple[str, list[tuple[int, ...]]]:
    weight, bias = rng.standard_normal((k, n)) * 0.05, rng.standard_normal(n) * 0.1
    t = f"tensor<{m}x{n}xf32>"
    return f"""func.func @main_graph(%a: tensor<{m}x{k}xf32>) -> {t} {{
  %z = arith.constant 0.0 : f32
  %w = arith.constant {dense(weight)} : tensor<{k}x{n}xf32>
  %b = arith.constant {dense(bias)} : tensor<{n}xf32>
  %e = tensor.empty() : {t}
  %f = linalg.fill ins(%z : f32) outs(%e : {t}) -> {t}
  %p = linalg.matmul ins(%a, %w : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : {t}) -> {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%p, %b : {t}, tensor<{n}xf32>) outs(%e : {t}) {{
  ^bb0(%v: f32, %u: f32, %o: f32):
    %s = arith.addf %v, %u : f32
    %g = math.tanh %s : f32
    linalg.yield %g : f32
  }} -> {t}
  func.return %r : {t}
}}
""", [(m, k)]


def program(shape: str, rng: np.random.Generator) -> tuple[str, list[tuple[int, ...]]]:
    kind, sizes = shape.split(":")
    dims = [int(d) for d in sizes.split("x")]
    return conv_program(*dims, rng) if kind == "conv" else matmul_program(*dims, rng)


def unpacked_pipeline() -> str:
    return ",".join(p for p in PIPELINES[PIPELINE].spec.split(",") if p not in PACKING)


def build_pair(shape: str, work: Path) -> tuple[dict[str, Path], list[Path]]:
    """The packed and unpacked modules of one shape, checked to agree; their input files."""
    rng = np.random.default_rng(0)
    text, input_shapes = program(shape, rng)
    vmfbs = {}
    for variant, pipeline in (("unpacked", unpacked_pipeline()), ("packed", PIPELINE)):
        source = work / f"{variant}.mlir"
        source.write_text(print_module(apply_pipeline(text, pipeline)))
        vmfbs[variant] = compile_vmfb(source, work / f"{variant}.vmfb", cpu_flags("host"))
    inputs = [rng.standard_normal(s).astype(np.float32) for s in input_shapes]
    outputs = {v: run_vmfb(path, inputs, "main_graph")[0] for v, path in vmfbs.items()}
    error = np.abs(outputs["packed"] - outputs["unpacked"]).max() / max(np.abs(outputs["unpacked"]).max(), 1e-30)
    if not error <= 1e-5:
        raise SystemExit(f"{shape}: packed and unpacked disagree (relative error {error:.2e})")
    return vmfbs, save_inputs(inputs, work)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shapes", default=DEFAULT_SHAPES)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args(argv)
    print("| shape | unpacked ms, median (min) | packed ms, median (min) | packed / unpacked |")
    print("|---|---:|---:|---:|")
    for shape in args.shapes.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            vmfbs, inputs = build_pair(shape, Path(tmp))
            times = timed_rounds(vmfbs, inputs, args.rounds, args.iterations)
        med = {v: statistics.median(t) for v, t in times.items()}
        low = {v: min(t) for v, t in times.items()}
        print(f"| {shape} | {med['unpacked']:.3f} ({low['unpacked']:.3f}) | {med['packed']:.3f} ({low['packed']:.3f}) "
              f"| **{med['packed'] / med['unpacked']:.2f}x** ({low['packed'] / low['unpacked']:.2f}x) |", flush=True)


if __name__ == "__main__":
    main()
