"""The torch-mlir CNNs (`../shared/models/cnn/*`) through `dispatch-creation` build with IREE and
compute what IREE's own build of the original file computes (regression for IREE 3.13's
low-padding `tensor.pad` miscompile in pre-formed regions: such pads stay outside our regions,
where IREE writes them itself), and every conv, or the matmul or rank-3 generic it became (a 1x1
or strided conv as a matmul, a depthwise conv as a rank-3 generic), is the root of a region of
ours, except the padded 1x1 convs left to IREE's own formation (which then writes their pads in
their dispatches: `common/iree_padded_producers.py`; stride-1 k x k convs only a pad reads
would be left to IREE too, but `linalg-strided-conv-to-im2col` makes them matmuls first)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt.corpus import CORPUS_MISSING, model_file
from fusionopt.iree_tools import compile_vmfb, cpu_flags, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.iree_padded_producers import is_iree_padded_1x1, is_iree_padded_kxk
from fusionopt.ir_io import parse_file, print_module

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
from iree_bench_inputs import model_inputs  # noqa: E402

# model -> (contraction generics: 1x1 and k x k convs as matmuls, depthwise convs as rank-3
# generics; convs left to IREE: padded 1x1 convs). With `linalg-conv-channels-last` every conv
# of resnet_mini is an NHWC named op in our regions; mobilenet_mini keeps 7 matmuls (its 1x1
# convs at 2x2 pixels, under `min-pixels-1x1`) and leaves no conv to IREE.
MATMULS = {"cnn/resnet_mini": (0, 0), "cnn/mobilenet_mini": (7, 0)}
MODELS = tuple(MATMULS)
# well-conditioned families (with unit-variance weights "ids-edge" makes mobilenet's f32 output
# differ from its f64 value by 65% in every build, IREE's default included)
FAMILIES = ("random", "constant", "offset", "zeros")


def is_conv(op) -> bool:
    return op.name.startswith(("linalg.conv_2d", "linalg.depthwise_conv_2d"))


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile, iree.runtime) not installed")
@pytest.mark.parametrize("model", MODELS)
def test_cnn_dispatch_creation_agrees_with_iree_default(model, tmp_path):
    source = model_file(model, "args.linalg.mlir")
    if not source.is_file():
        pytest.skip(CORPUS_MISSING)
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(parse_file(str(source)), "dispatch-creation")))
    flags = cpu_flags()
    formed = apply_pipeline(parse_file(str(ours)), "cse")
    source_convs = sum(is_conv(op) for op in parse_file(str(source)).walk())
    convs = [op for op in formed.walk() if is_conv(op)]
    # the convs `linalg-conv-1x1-to-matmul`, `linalg-strided-conv-to-im2col` and
    # `linalg-depthwise-conv-drop-batch` rewrote
    matmuls = [op for op in formed.walk() if op.name == "linalg.generic" and du.is_contraction(op)]
    bare = [op for op in convs + matmuls if op.parent_op().name != "flow.dispatch.region"]
    assert (len(matmuls), len(bare)) == MATMULS[model]
    assert len(convs) + len(matmuls) == source_convs
    assert all(is_iree_padded_1x1(op) or is_iree_padded_kxk(op, 1) for op in bare), "a conv outside our regions"
    default_vmfb = compile_vmfb(source, tmp_path / "default.vmfb", flags)
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", flags)
    for family in FAMILIES:
        inputs = model_inputs(model, family, 0)
        want = run_vmfb(default_vmfb, inputs, "main_graph")[0]
        got = run_vmfb(ours_vmfb, inputs, "main_graph")[0]
        assert np.array_equal(np.isfinite(want), np.isfinite(got)), family
        finite = np.isfinite(want)  # resnet_mini overflows on "offset" in every build
        if not finite.any():
            continue
        scale = max(float(np.abs(want[finite]).max()), 1e-30)
        assert float(np.abs(got[finite] - want[finite]).max()) <= 1e-4 * scale, family
