"""Convolutions channels last on llvm-cpu: `linalg-conv-channels-last` against the NCHW forms.

    python bench/channels_last_forms.py [--shapes all|NAME,...] [--rounds R] [--iterations N]

One module per (shape, variant): a conv or depthwise conv of the corpus CNNs as torch-mlir
writes it (the unpadded NCHW image, its `tensor.pad`, the bias broadcast into the init, the conv,
a ReLU; image, FCHW/CHW filter and bias all function arguments, f32, batch 1), built:
- `iree`: as given, IREE's default flags and formation;
- `ours`: through `fusion-opt -p dispatch-creation` (NHWC op between transposes, the filter
  transposed on every call, the result written back NCHW: a single block pays every transpose
  a network of convs mostly avoids);
- `nchw`: `dispatch-creation` without `linalg-conv-channels-last` (the im2col, matmul and
  rank-3 depthwise forms);
- `aa`: a second copy of `nchw`: aa / nchw is the run's noise.
Variants are interleaved round by round in a seeded shuffled order; ms per call of a round,
median (min) over rounds; ratios of medians (mins). Every variant must compute IREE's numbers.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from iree_bench_build import _dispatch_creation  # noqa: E402
from strided_conv_forms import _relu, _t, interleaved_rounds  # noqa: E402

from fusionopt.iree_tools import compile_vmfb, run_vmfb, save_inputs, target_flags  # noqa: E402

FUNCTION = "main_graph"
PIPELINES = {"iree": "", "ours": "dispatch-creation", "nchw": None, "aa": None}


@dataclass(frozen=True)
class Shape:
    name: str
    c: int  # input channels (= filters for a depthwise conv)
    f: int  # filters
    oh: int  # output height = width
    k: int = 3
    s: int = 1
    depthwise: bool = False

    @property
    def h(self) -> int:  # the unpadded input's height = width
        return self.oh * self.s

    @property
    def filter_shape(self) -> tuple[int, ...]:
        return (self.c, self.k, self.k) if self.depthwise else (self.f, self.c, self.k, self.k)


SHAPES = {sh.name: sh for sh in (
    Shape("resnet_mini_16x32", 16, 16, 32), Shape("resnet_mini_32x16", 32, 32, 16),
    Shape("resnet_mini_64x8", 64, 64, 8), Shape("resnet18_64x16", 64, 64, 16),
    Shape("resnet18_128x8", 128, 128, 8), Shape("resnet18_256x4", 256, 256, 4),
    Shape("squeezenet_16to64_15", 16, 64, 15), Shape("squeezenet_32to128_7", 32, 128, 7),
    Shape("inception_8x16_5x5", 8, 8, 16, k=5), Shape("strided_16to32", 16, 32, 16, s=2),
    Shape("strided_32to64", 32, 64, 8, s=2), Shape("resnet18_stem_7x7", 3, 64, 32, k=7, s=2),
    Shape("pointwise_32to64_16", 32, 64, 16, k=1), Shape("pointwise_64to16_15", 64, 16, 15, k=1),
    Shape("pointwise_128to128_4", 128, 128, 4, k=1), Shape("pointwise_336to56_2", 336, 56, 2, k=1),
    Shape("depthwise_16x16", 16, 16, 16, depthwise=True), Shape("depthwise_64x8", 64, 64, 8, depthwise=True),
    Shape("depthwise_96x8_s2", 96, 96, 8, s=2, depthwise=True),
    Shape("depthwise_576x2_5x5_s2", 576, 576, 2, k=5, s=2, depthwise=True),
)}


def module_text(sh: Shape) -> str:
    p, hp = sh.k // 2, sh.h + 2 * (sh.k // 2)
    out = (1, sh.f, sh.oh, sh.oh)
    op = "depthwise_conv_2d_nchw_chw" if sh.depthwise else "conv_2d_nchw_fchw"
    return (
        f"func.func @{FUNCTION}(%x0: {_t(1, sh.c, sh.h, sh.h)}, %w: {_t(*sh.filter_shape)}, %b: {_t(sh.f)})"
        f" -> {_t(*out)} {{\n  %zp = arith.constant 0.0 : f32\n"
        f"  %x = tensor.pad %x0 low[0, 0, {p}, {p}] high[0, 0, {p}, {p}] {{\n"
        f"  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):\n    tensor.yield %zp : f32\n"
        f"  }} : {_t(1, sh.c, sh.h, sh.h)} to {_t(1, sh.c, hp, hp)}\n"
        f"  %be = tensor.empty() : {_t(*out)}\n"
        f"  %init = linalg.broadcast ins(%b : {_t(sh.f)}) outs(%be : {_t(*out)}) dimensions = [0, 2, 3]\n"
        f"  %y = linalg.{op} {{dilations = dense<1> : vector<2xi64>, strides = dense<{sh.s}> : vector<2xi64>}}"
        f" ins(%x, %w : {_t(1, sh.c, hp, hp)}, {_t(*sh.filter_shape)}) outs(%init : {_t(*out)}) -> {_t(*out)}\n"
        + _relu("y", out, "r") + f"  return %r : {_t(*out)}\n}}\n")


def build(sh: Shape, variant: str, work: Path) -> Path:
    pipeline = PIPELINES[variant]
    text = module_text(sh)
    if pipeline is None:
        pipeline = _dispatch_creation(linalg_conv_channels_last="")
    if pipeline:
        text = subprocess.run(["fusion-opt", "-p", pipeline], input=text, capture_output=True, text=True,
                              check=True).stdout
    src = work / f"{sh.name}.{variant}.mlir"
    src.write_text(text)
    return compile_vmfb(src, work / f"{sh.name}.{variant}.vmfb", target_flags("llvm-cpu"))


def inputs(sh: Shape) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.standard_normal((1, sh.c, sh.h, sh.h), dtype=np.float32),
            (0.1 * rng.standard_normal(sh.filter_shape)).astype(np.float32),
            rng.standard_normal(sh.f, dtype=np.float32)]


def check_agreement(sh: Shape, vmfbs: dict[str, Path]) -> None:
    """Every variant computes IREE's conv (to f32 rounding of a reordered sum)."""
    args = inputs(sh)
    ref = run_vmfb(vmfbs["iree"], args, FUNCTION)[0]
    for variant, vmfb in vmfbs.items():
        diff = float(np.max(np.abs(run_vmfb(vmfb, args, FUNCTION)[0] - ref)))
        if diff > 1e-4 * float(np.max(np.abs(ref))):
            raise SystemExit(f"{sh.name}: {variant} disagrees with iree (max abs diff {diff:.3e})")


def run_shape(sh: Shape, rounds: int, iterations: int, work: Path) -> dict[str, list[float]]:
    variants = list(PIPELINES)
    vmfbs = {v: build(sh, v, work) for v in variants}
    check_agreement(sh, vmfbs)
    return interleaved_rounds(vmfbs, save_inputs(inputs(sh), work / f"{sh.name}.inputs"), rounds, iterations)


def ratio(times: dict[str, list[float]], a: str, b: str) -> str:
    return (f"{statistics.median(times[a]) / statistics.median(times[b]):.2f}x "
            f"({min(times[a]) / min(times[b]):.2f}x)")


def report(sh: Shape, times: dict[str, list[float]]) -> str:
    kind = "dw " if sh.depthwise else ""
    cells = [f"{statistics.median(times[v]) * 1000:.1f} ({min(times[v]) * 1000:.1f})" for v in PIPELINES]
    ratios = [ratio(times, "ours", "nchw"), ratio(times, "ours", "iree"), ratio(times, "aa", "nchw")]
    return (f"| {sh.name} | {kind}{sh.c}->{sh.f} {sh.k}x{sh.k}/{sh.s} {sh.oh}x{sh.oh} | "
            + " | ".join(cells + ratios) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="all")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=50)
    args = parser.parse_args(argv)
    shapes = list(SHAPES.values()) if args.shapes == "all" else [SHAPES[n] for n in args.shapes.split(",")]
    print("us per call, median (min) over rounds; ratios of medians (mins)")
    print("| shape | conv | " + " | ".join(PIPELINES) + " | ours / nchw | ours / iree | aa / nchw |")
    print("|---|---|" + "---:|" * (len(PIPELINES) + 3))
    with tempfile.TemporaryDirectory() as tmp:
        for sh in shapes:
            print(report(sh, run_shape(sh, args.rounds, args.iterations, Path(tmp))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
