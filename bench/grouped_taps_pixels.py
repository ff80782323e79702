"""Single grouped 3x3 convs (pad, conv, ReLU; constant filters) built by
`graph-to-dispatch-llvm-cpu`'s linalg stages two ways: with the padded image's spare groups
(`grouped_conv_taps.spare_groups`: pixels of 512-byte multiples spread over the L1 sets) and
without, timed interleaved with an A/A copy; prints ms per call and the ratio.

    python bench/grouped_taps_pixels.py [--shapes 32x16x28x2,32x16x14x1,...] [--rounds 5]
                                        [--iterations 20] [--threads 1]

A shape is groups x channels a group x input size x stride (ResNeXt50's by default). Why: the
measured claim of `spare_groups` (bench/RESULTS.md, "Grouped convs' pixels off the 4 KB stride").
The build without is this process's pipeline with `spare_groups` returning 0 (bench code only).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from unittest import mock

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "test"))

from iree_bench_timing import comparison_row, shape_sweep_arguments, timed_shape  # noqa: E402
from support.grouped_conv_blocks import grouped_block  # noqa: E402

from fusionopt import registry  # noqa: E402
from fusionopt.ir_io import print_module  # noqa: E402
from fusionopt.iree_tools import compile_vmfb, target_flags  # noqa: E402
from fusionopt.testing import apply_pipeline  # noqa: E402
from fusionopt.transforms.linalg import grouped_conv_channels_last  # noqa: E402

PIPELINE = "dispatch-creation-llvm-cpu"
SHAPES = "32x16x28x2,32x16x14x1,32x32x14x2,32x32x7x1,32x8x56x2,32x8x28x1,8x16x28x1"


def builds(shape: str, folder: Path) -> dict[str, Path]:
    """variant -> vmfb of the block at `shape`: `without`, `spare-groups`, `aa`."""
    groups, width, size, stride = (int(n) for n in shape.split("x"))
    text = grouped_block(groups, size, stride, width=width, name="main_graph")
    flags = [*target_flags("llvm-cpu"), *registry.iree_flags_of(PIPELINE)]
    vmfbs = {}
    for name, spare in (("without", lambda *shape: 0), ("spare-groups", None)):
        with mock.patch.object(grouped_conv_channels_last, "spare_groups", spare or grouped_conv_channels_last.spare_groups):
            module = apply_pipeline(text, PIPELINE)
        source = folder / f"{shape}.{name}.mlir"
        source.write_text(print_module(module))
        vmfbs[name] = compile_vmfb(source, source.with_suffix(".vmfb"), flags)
    vmfbs["aa"] = Path(shutil.copyfile(vmfbs["without"], folder / f"{shape}.aa.vmfb"))
    return vmfbs


def main(argv: list[str] | None = None) -> int:
    args = shape_sweep_arguments(argv, __doc__.splitlines()[0], SHAPES, 20)
    print("| groups x width x size x stride | spare groups | without | with / without | A/A |")
    print("|---|---:|---:|---:|---:|")
    rng = np.random.default_rng(0)
    for shape in args.shapes.split(","):
        groups, width, size, stride = (int(n) for n in shape.split("x"))
        image = rng.standard_normal((1, groups * width, size, size), dtype=np.float32)
        med, low = timed_shape(builds, shape, [image], args)
        spare = grouped_conv_channels_last.spare_groups(groups, width, (3, 3), stride, 1)
        print(comparison_row(f"{shape} ({spare} spare)", med, low, ("spare-groups", "without"),
                             "spare-groups", "without", 3))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
