"""A pool's input pad as IREE's copy dispatch vs inside the pool's dispatch.

    python bench/pool_pad_forms.py [--rounds 11] [--iterations 200]

Each shape is one NCHW pool of a padded input, compiled for llvm-cpu (`--iree-llvmcpu-target-cpu=
host`) two ways: `iree`, the linalg as given (IREE's own formation: the pad a `slow_memcpy`
dispatch, then the pool), and `pad_in_region`, one `flow.dispatch.region` holding the pad and the
pool (`form-dispatch-regions{pads-into-pools}`). Timed with `iree-benchmark-module
--device=local-sync`, interleaved round by round (seeded shuffle), `iree_aa` a second run of
`iree` (the noise); the two forms' outputs are checked bit-equal first. Prints median us per call
and the ratio to `iree`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fusionopt.iree_tools import compile_vmfb, run_vmfb, save_inputs, target_flags  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iree_runtime import timed_rounds  # noqa: E402

FUNCTION = "main_graph"


@dataclass(frozen=True)
class PoolShape:
    kind: str  # max or sum
    channels: int
    pixels: int  # input height = width
    window: int
    stride: int
    low: int
    high: int
    output: int = 0  # output height = width, when smaller than the padded input allows


    @property
    def name(self) -> str:
        return (f"{self.kind}_{self.channels}x{self.pixels}x{self.pixels}_k{self.window}s{self.stride}"
                f"_pad{self.low}{self.high}")

    @property
    def padded(self) -> int:
        return self.pixels + self.low + self.high

    @property
    def out(self) -> int:
        return self.output or (self.padded - self.window) // self.stride + 1


SHAPES = (
    PoolShape("max", 56, 8, 3, 1, 1, 2, output=8),  # inception_mini's second pool branch (torch-mlir's ceil-mode form)
    PoolShape("max", 128, 8, 3, 1, 1, 1),
    PoolShape("max", 64, 14, 3, 1, 1, 1),
    PoolShape("max", 64, 16, 3, 1, 1, 1),
    PoolShape("sum", 64, 14, 3, 1, 1, 1),
    PoolShape("sum", 64, 28, 3, 1, 1, 1),
    PoolShape("max", 192, 28, 3, 1, 1, 1),
    PoolShape("max", 32, 32, 3, 1, 1, 1),
    PoolShape("max", 64, 56, 3, 2, 1, 1),
    PoolShape("max", 64, 112, 3, 2, 1, 1),
)


def module(shape: PoolShape, in_region: bool) -> str:
    c, p, o = shape.channels, shape.padded, shape.out
    image, padded, result = (f"tensor<1x{c}x{n}x{n}xf32>" for n in (shape.pixels, p, o))
    neutral = "0xFF800000" if shape.kind == "max" else "0.0"
    ops = f"""      %p = tensor.pad %x low[0, 0, {shape.low}, {shape.low}] high[0, 0, {shape.high}, {shape.high}] {{
      ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
        tensor.yield %neutral : f32
      }} : {image} to {padded}
      %e = tensor.empty() : {result}
      %f = linalg.fill ins(%neutral : f32) outs(%e : {result}) -> {result}
      %k = tensor.empty() : tensor<{shape.window}x{shape.window}xf32>
      %r = linalg.pooling_nchw_{shape.kind} {{dilations = dense<1> : vector<2xi64>, strides = dense<{shape.stride}> : vector<2xi64>}} ins(%p, %k : {padded}, tensor<{shape.window}x{shape.window}xf32>) outs(%f : {result}) -> {result}"""
    body = (f"    %y = flow.dispatch.region -> ({result}) {{\n{ops}\n      flow.return %r : {result}\n    }}\n"
            f"    return %y : {result}") if in_region else f"{ops}\n    return %r : {result}"
    return (f"func.func @{FUNCTION}(%x: {image}) -> {result} {{\n    %neutral = arith.constant {neutral} : f32\n"
            f"{body}\n}}\n")


def build(shape: PoolShape, work: Path) -> dict[str, Path]:
    vmfbs = {}
    for form, in_region in (("iree", False), ("pad_in_region", True)):
        source = work / f"{shape.name}.{form}.mlir"
        source.write_text(module(shape, in_region))
        vmfbs[form] = compile_vmfb(source, work / f"{shape.name}.{form}.vmfb", target_flags("llvm-cpu"))
    return vmfbs


def check_bit_equal(vmfbs: dict[str, Path], image: np.ndarray) -> None:
    want = run_vmfb(vmfbs["iree"], [image], FUNCTION)[0]
    got = run_vmfb(vmfbs["pad_in_region"], [image], FUNCTION)[0]
    np.testing.assert_array_equal(got, want)


def time_shape(shape: PoolShape, work: Path, rounds: int, iterations: int) -> dict[str, list[float]]:
    vmfbs = build(shape, work)
    image = np.random.default_rng(0).standard_normal((1, shape.channels, shape.pixels, shape.pixels), dtype=np.float32)
    check_bit_equal(vmfbs, image)
    files = save_inputs([image], work / f"{shape.name}.inputs")
    runs = {**vmfbs, "iree_aa": vmfbs["iree"]}
    return {name: [1000 * ms for ms in times] for name, times in timed_rounds(runs, files, rounds, iterations).items()}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--iterations", type=int, default=200)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="pool_pad_forms_"))
    print(f"us per call, median of {args.rounds} interleaved rounds; ratio to iree (copy + pool)")
    print("| pool | output | iree us | pad_in_region | iree_aa |\n|---|---:|---:|---:|---:|")
    for shape in SHAPES:
        times = time_shape(shape, work, args.rounds, args.iterations)
        base = statistics.median(times["iree"])
        ratios = [f"{statistics.median(times[n]) / base:.2f}x" for n in ("pad_in_region", "iree_aa")]
        print(f"| {shape.name} | {shape.out}x{shape.out} | {base:.1f} | {' | '.join(ratios)} |")


if __name__ == "__main__":
    main()
