"""Winograd's tile products (16 x tiles x C times a constant 16 x C x F transformed filter, as
`linalg-conv-winograd` writes them) built by `dispatch-creation-llvm-cpu` with the weight packed
in panels (`linalg-pack-matmul-weights`) and without (IREE's own tile for the batch matmul),
timed interleaved with an A/A copy; prints ms per call and the ratio. Three products in a row,
each over its own weight, as a ResNet stage has them: at 7 x 7 outputs their 48 MB of weights
pass L3, as in the model.

    python bench/winograd_products.py [--shapes 16x512,49x256,196x128,32x512] [--rounds 5]
                                      [--iterations 20] [--threads 1]

A shape is tiles x channels (filters = channels): ResNet's 7 x 7 (16 tiles), 14 x 14 (49) and
28 x 28 (196) stages, and the 7 x 7 stage at batch 2 (32). Why: the measured claim of
`linalg_pack_matmul_weights` for batch matmuls (bench/RESULTS.md, "Winograd's tile products over
packed weights").
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "test"))

from iree_bench_timing import comparison_row, pass_builds, shape_sweep_arguments, timed_shape  # noqa: E402


PIPELINE = "dispatch-creation-llvm-cpu"
SHAPES = "16x512,49x256,196x128,32x512"
PRODUCTS = 3
TAPS = 16


def sizes(shape: str) -> tuple[int, int]:
    """(tiles, channels) of a `--shapes` entry."""
    tiles, channels = (int(n) for n in shape.split("x"))
    return tiles, channels


def hex_constant(array: np.ndarray) -> str:
    dims = "x".join(str(d) for d in array.shape)
    return f'arith.constant dense<"0x{array.astype(np.float32).tobytes().hex().upper()}"> : tensor<{dims}xf32>'


def products_chain(tiles: int, channels: int, seed: int = 0) -> str:
    """`PRODUCTS` batch matmuls in a row, [16, tiles, C] x a constant [16, C, C] each."""
    rng = np.random.default_rng(seed)
    t = f"tensor<{TAPS}x{tiles}x{channels}xf32>"
    lines = [f"func.func @main_graph(%x0: {t}) -> {t} {{", "  %z = arith.constant 0.0 : f32"]
    for i in range(PRODUCTS):
        weight = rng.standard_normal((TAPS, channels, channels)) / np.sqrt(channels)
        lines += [f"  %u{i} = {hex_constant(weight)}",
                  f"  %e{i} = tensor.empty() : {t}",
                  f"  %f{i} = linalg.fill ins(%z : f32) outs(%e{i} : {t}) -> {t}",
                  f"  %x{i + 1} = linalg.batch_matmul ins(%x{i}, %u{i} : {t}, tensor<{TAPS}x{channels}x{channels}xf32>) "
                  f"outs(%f{i} : {t}) -> {t}"]
    lines += [f"  func.return %x{PRODUCTS} : {t}", "}"]
    return "\n".join(lines)


def builds(shape: str, folder: Path) -> dict[str, Path]:
    """variant -> vmfb of the chain at `shape`: `packed`, `unpacked`, `aa` (unpacked again)."""
    return pass_builds(products_chain(*sizes(shape)), PIPELINE, "linalg-pack-matmul-weights", folder, shape,
                       ("unpacked", "packed"))


def main(argv: list[str] | None = None) -> int:
    args = shape_sweep_arguments(argv, __doc__.splitlines()[0], SHAPES, 20)
    print("| tiles x channels | unpacked | packed | packed / unpacked | A/A |")
    print("|---|---:|---:|---:|---:|")
    rng = np.random.default_rng(1)
    for shape in args.shapes.split(","):
        tiles, channels = sizes(shape)
        image = rng.standard_normal((TAPS, tiles, channels), dtype=np.float32)
        med, low = timed_shape(builds, shape, [image], args)
        print(comparison_row(shape, med, low, ("unpacked", "packed"), "packed", "unpacked", 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
