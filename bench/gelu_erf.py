"""An exact GELU's erf as IREE lowers it and as `linalg-rational-erf` writes it: ConvNeXt's
expanding layers (a [pixels, C] x constant [C, 4C] matmul, bias, GELU), built by
`dispatch-creation-llvm-cpu` with and without the pass and timed interleaved with an A/A copy;
prints ms per call and the ratio. `--accuracy` builds one erf over a float32 grid both ways
and prints each one's largest error against float64 erf.

    python bench/gelu_erf.py [--shapes 3136x96,784x192,196x384,49x768] [--rounds 5]
                             [--iterations 20] [--threads 1] [--accuracy]

A shape is pixels x channels: convnext_tiny's four stages at 224x224 (56x56 ... 7x7 pixels).
Why: the measured claim of `linalg_rational_erf` (bench/RESULTS.md, "GELU's erf as one
rational function").
"""

from __future__ import annotations

import math
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "test"))

from iree_bench_timing import comparison_row, pass_builds, shape_sweep_arguments, timed_shape  # noqa: E402
from winograd_products import hex_constant  # noqa: E402

from fusionopt.iree_tools import run_vmfb  # noqa: E402

PIPELINE = "dispatch-creation-llvm-cpu"
PASS = "linalg-rational-erf"
SHAPES = "3136x96,784x192,196x384,49x768"
LABELS = ("iree", "rational")
GRID = 1 << 20
ERF_BODY = """  ^bb0(%a: f32, %o: f32):
    %r = math.erf %a : f32
    linalg.yield %r : f32"""
GELU_BODY = """  ^bb0(%a: f32, %b: f32, %o: f32):
    %half = arith.constant 5.000000e-01 : f32
    %sqrt2 = arith.constant 1.41421354 : f32
    %one = arith.constant 1.000000e+00 : f32
    %v = arith.addf %a, %b : f32
    %u = arith.divf %v, %sqrt2 : f32
    %r = math.erf %u : f32
    %s = arith.addf %r, %one : f32
    %h = arith.mulf %half, %s : f32
    %g = arith.mulf %v, %h : f32
    linalg.yield %g : f32"""


def sizes(shape: str) -> tuple[int, int]:
    pixels, channels = (int(n) for n in shape.split("x"))
    return pixels, channels


def expanding_layer(pixels: int, channels: int, seed: int = 0) -> str:
    """[pixels, C] x a constant [C, 4C] weight, a constant bias, exact GELU."""
    rng = np.random.default_rng(seed)
    width = 4 * channels
    out = f"tensor<{pixels}x{width}xf32>"
    weight = rng.standard_normal((channels, width)) / np.sqrt(channels)
    maps = "[affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]"
    return "\n".join([
        f"func.func @main_graph(%x: tensor<{pixels}x{channels}xf32>) -> {out} {{",
        "  %z = arith.constant 0.0 : f32",
        f"  %w = {hex_constant(weight)}",
        f"  %bias = {hex_constant(rng.standard_normal(width) * 0.1)}",
        f"  %e = tensor.empty() : {out}",
        f"  %f = linalg.fill ins(%z : f32) outs(%e : {out}) -> {out}",
        f"  %m = linalg.matmul ins(%x, %w : tensor<{pixels}x{channels}xf32>, tensor<{channels}x{width}xf32>) "
        f"outs(%f : {out}) -> {out}",
        f"  %g = linalg.generic {{indexing_maps = {maps}, iterator_types = [\"parallel\", \"parallel\"]}} "
        f"ins(%m, %bias : {out}, tensor<{width}xf32>) outs(%e : {out}) {{",
        GELU_BODY, f"  }} -> {out}", f"  func.return %g : {out}", "}"])


def erf_only(count: int) -> str:
    t = f"tensor<{count}xf32>"
    return "\n".join([
        f"func.func @main_graph(%x: {t}) -> {t} {{", f"  %e = tensor.empty() : {t}",
        "  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], "
        f"iterator_types = [\"parallel\"]}} ins(%x : {t}) outs(%e : {t}) {{",
        ERF_BODY, f"  }} -> {t}", f"  func.return %r : {t}", "}"])


def builds(shape: str, folder: Path) -> dict[str, Path]:
    """`iree` (IREE's erf), `rational` (this pass's) and `aa` vmfbs of the layer at `shape`."""
    return pass_builds(expanding_layer(*sizes(shape)), PIPELINE, PASS, folder, shape, LABELS)


def accuracy() -> None:
    """Each build's largest |erf - float64 erf| over a float32 grid on [-6, 6] with the specials."""
    grid = np.concatenate([np.linspace(-6, 6, GRID - 6, dtype=np.float32),
                           np.array([0.0, -0.0, 4.0, -4.0, np.inf, -np.inf], np.float32)])
    reference = np.vectorize(math.erf, otypes=[np.float64])(grid.astype(np.float64))
    with tempfile.TemporaryDirectory() as name:
        vmfbs = pass_builds(erf_only(grid.size), PIPELINE, PASS, Path(name), "erf", LABELS)
        for variant in LABELS:
            (got,) = run_vmfb(vmfbs[variant], [grid], "main_graph")
            error = np.abs(got.astype(np.float64) - reference)
            print(f"| {variant} | {error.max():.2e} at x = {grid[error.argmax()]:.4f} | {error.mean():.2e} | "
                  f"{got[-6:].tolist()} |")


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if "--accuracy" in argv:
        print("| erf | largest error (where) | mean error | at 0, -0, 4, -4, inf, -inf |")
        print("|---|---:|---:|---|")
        accuracy()
        return 0
    args = shape_sweep_arguments(argv, __doc__.splitlines()[0], SHAPES, 20)
    print("| pixels x channels | IREE's erf | rational erf | rational / IREE's | A/A |")
    print("|---|---:|---:|---:|---:|")
    rng = np.random.default_rng(1)
    for shape in args.shapes.split(","):
        image = rng.standard_normal(sizes(shape), dtype=np.float32)
        med, low = timed_shape(builds, shape, [image], args)
        print(comparison_row(shape, med, low, LABELS, "rational", "iree", 3))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
