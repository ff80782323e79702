"""ResNet's 3x3 convs (pad, conv, bias, ReLU over a constant filter; two in a row, so the first
one's epilogue stays channels last as in a model) built by `dispatch-creation-llvm-cpu` with
Winograd F(2x2, 3x3) (`linalg-conv-winograd`) and without (the direct conv with its CPU tile),
timed interleaved with an A/A copy; prints ms per call, the ratio, and each build's largest
error against a float64 run, relative to the largest output (random and 1000.5 + N(0, 1)
images).

    python bench/winograd_convs.py [--shapes 64x56,128x28,256x14,512x7,...] [--rounds 5]
                                   [--iterations 10] [--threads 1]

A shape is channels x output size (filters = channels), or channels x filters x output size
(DenseNet's 128 -> 32), after `N@` for a batch of N images (`2@64x56`). Why: the measured claim of
`linalg_conv_winograd` (bench/RESULTS.md, "ResNet's 3x3 convs as Winograd F(2x2, 3x3)").
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "test"))

from iree_bench_timing import comparison_row, medians_and_minimums, pass_builds, shape_sweep_arguments, timed_rounds  # noqa: E402
from support.dense_conv_blocks import dense_conv_block, dense_conv_f64  # noqa: E402

from fusionopt.iree_tools import run_vmfb, save_inputs  # noqa: E402

PIPELINE = "dispatch-creation-llvm-cpu"
SHAPES = "64x56,128x28,256x14,512x7"
LAYERS = 2


def sizes(shape: str) -> tuple[int, int, int]:
    """(channels, filters, output size) of a `--shapes` entry."""
    numbers = [int(n) for n in shape.split("@")[-1].split("x")]
    return (numbers[0], numbers[0], numbers[1]) if len(numbers) == 2 else tuple(numbers)  # type: ignore[return-value]


def batch(shape: str) -> int:
    return int(shape.split("@")[0]) if "@" in shape else 1


def builds(shape: str, folder: Path) -> dict[str, Path]:
    """variant -> vmfb of the two convs at `shape`: `direct`, `winograd`, `aa` (direct again)."""
    channels, filters, size = sizes(shape)
    text = dense_conv_block(channels, filters, size, name="main_graph", layers=LAYERS, batch=batch(shape))
    return pass_builds(text, PIPELINE, "linalg-conv-winograd", folder, shape.replace("@", "b"), ("direct", "winograd"))


def errors(shape: str, vmfbs: dict[str, Path]) -> str:
    """Each build's largest error against float64, relative to the largest output: random, then
    offset images."""
    channels, filters, size = sizes(shape)
    rng = np.random.default_rng(1)
    image_shape = (batch(shape), channels, size, size)
    images = [rng.standard_normal(image_shape), 1000.5 + rng.standard_normal(image_shape)]
    cells = []
    for variant in ("direct", "winograd"):
        worst = []
        for image in images:
            x = image.astype(np.float32)
            want = dense_conv_f64(x, channels, filters, layers=LAYERS)
            got = run_vmfb(vmfbs[variant], [x], "main_graph")[0]
            worst.append(float(np.abs(got - want).max() / np.abs(want).max()))
        cells.append(" / ".join(f"{e:.1e}" for e in worst))
    return " | ".join(cells)


def row(shape: str, image: np.ndarray, args) -> str:
    """The table row of one shape: its builds (made once) timed, then their errors."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        vmfbs = builds(shape, folder)
        times = timed_rounds(vmfbs, save_inputs([image], folder), args.rounds, args.iterations, threads=args.threads)
        med, low = medians_and_minimums(times)
        timed = comparison_row(shape, med, low, ("direct", "winograd"), "winograd", "direct", 3)
        return f"{timed} {errors(shape, vmfbs)} |"


def main(argv: list[str] | None = None) -> int:
    args = shape_sweep_arguments(argv, __doc__.splitlines()[0], SHAPES, 10)
    print("| channels (x filters) x size | direct | winograd | winograd / direct | A/A | error direct (random / offset) "
          "| error winograd |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    rng = np.random.default_rng(0)
    for shape in args.shapes.split(","):
        channels, _, size = sizes(shape)
        print(row(shape, rng.standard_normal((batch(shape), channels, size, size), dtype=np.float32), args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
