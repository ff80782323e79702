"""`graph-fold-conv-affine` and `graph-horizontal-fuse-convs`: equivalence on random and
adversarial inputs (float64 reference of the input program), the small CNN blocks of
`test/data/onnx` (support/cnn_onnx_models.py) through `graph-to-dispatch` against onnxruntime,
and their dispatch counts. The lit tests check the IR forms in detail."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, iree_available, run_vmfb
from fusionopt import pass_statistics
from fusionopt.pass_statistics import PassStatistics
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, run_module
from support import cnn_onnx_models as models

DATA = Path(__file__).resolve().parents[3] / "data" / "onnx"
FOLDED = ("conv_bn_relu", "conv_affine")


def imported(name: str, args: bool = False) -> str:
    return print_module(import_onnx(DATA / models.file_name(name, args)))


def op_count(module, name: str) -> int:
    return sum(1 for op in module.walk() if op.name == name)


def test_committed_models_match_the_generator():
    for name, build in models.MODELS.items():
        for args in (False, True):
            path = DATA / models.file_name(name, args)
            assert build(args).SerializeToString() == path.read_bytes(), f"regenerate {path.name}"


# ---- graph-fold-conv-affine ---------------------------------------------------------------


@pytest.mark.parametrize("name", FOLDED)
def test_affine_folds_into_constant_weights(name):
    before = imported(name)
    after = assert_pass_preserves_semantics(before, "graph-propagate-constants,graph-fold-conv-affine")
    assert op_count(after, "graph.mul") == 0
    # One bias add per conv remains; the relu stays.
    assert (op_count(after, "graph.conv"), op_count(after, "graph.add"), op_count(after, "graph.relu")) == (1, 1, 1)


def test_batchnorm_with_tiny_variance_keeps_precision():
    """conv_bn_relu's channel 3 has var 1e-9 next to eps 1e-5 (scale ~ 316x) and channel 5 a
    mean of 50: folded weights and bias, rounded once, stay within 1e-5 of the float64 run."""
    after = assert_pass_preserves_semantics(imported("conv_bn_relu"),
                                            "graph-propagate-constants,graph-fold-conv-affine", rtol=1e-5)
    assert op_count(after, "graph.mul") == 0


@pytest.mark.parametrize("name", FOLDED)
def test_argument_weights_keep_the_affine(name):
    after = apply_pipeline(imported(name, args=True), "graph-simplify")
    assert op_count(after, "graph.mul") >= 1  # nothing to fold into: the scale stays elementwise


def _statistics(text: str, pipeline: str) -> dict[str, int]:
    stats = PassStatistics()
    with pass_statistics.collecting(pipeline, stats):
        apply_pipeline(text, pipeline)
    return stats.runs[0][1]


def test_statistics_count_each_rewrite():
    # conv + bias, * BN scale, + BN shift: one scale folded, one shift folded into the bias.
    folded = _statistics(imported("conv_bn_relu"), "graph-fold-conv-affine")
    assert folded == {"scales folded into conv weights": 1, "shifts folded into conv bias": 1}
    batched = _statistics(imported("inception"), "graph-horizontal-fuse-convs")
    assert batched == {"convs batched": 3, "batched convs formed": 1}


# ---- graph-horizontal-fuse-convs ----------------------------------------------------------


def test_inception_siblings_become_one_conv():
    before = imported("inception")
    after = assert_pass_preserves_semantics(before, "graph-simplify,graph-horizontal-fuse-convs")
    # 3 sibling 1x1 convs -> 1; the 3x3, 5x5 and pool-branch 1x1 stay: 6 -> 4.
    assert op_count(after, "graph.conv") == 4
    assert op_count(after, "graph.relu") == 4


def test_argument_weights_are_not_concatenated_by_default():
    after = apply_pipeline(imported("inception", args=True), "graph-simplify,graph-horizontal-fuse-convs")
    assert op_count(after, "graph.conv") == 6
    runtime = assert_pass_preserves_semantics(imported("inception", args=True),
                                              "graph-horizontal-fuse-convs{allow-runtime-concat=true}")
    assert op_count(runtime, "graph.conv") == 4


# ---- the blocks against onnxruntime, through graph-to-dispatch ----------------------------

# Dispatch regions of graph-to-dispatch; the inception block's three sibling 1x1 convs are one;
# squeeze-excite: conv+relu, pool, 1x1 conv+relu, 1x1 conv+hardsigmoid, the scale (a conv
# dispatch cannot replicate its result over the pixels, see form-dispatch-regions). With the
# convs and the pool channels last (linalg-conv-channels-last) each block also transposes its
# image (inception: twice, for the batched 1x1 conv and for the pool branch), and inception
# transposes the two lanes its 3x3 and 5x5 convs read (channel slices of the batched conv's
# NCHW result, which the concat of the lanes needs).
DISPATCHES = {"conv_bn_relu": 2, "conv_affine": 2, "inception": 9, "squeeze_excite": 6}
# With weights as arguments, one filter transpose per conv more (inception's 1x1 convs are not
# batched: its BatchNorm is not folded).
DISPATCHES_ARGS = {"conv_bn_relu": 3, "conv_affine": 3, "inception": 17, "squeeze_excite": 7}


def _inputs(path: Path, family: str, seed: int = 0) -> dict[str, np.ndarray]:
    import onnx

    graph = onnx.load(str(path)).graph
    rng = np.random.default_rng(seed)
    values = {}
    for index, info in enumerate(graph.input):
        shape = [d.dim_value for d in info.type.tensor_type.shape.dim]
        if index == 0:
            image = rng.standard_normal(shape).astype(np.float32)
            values[info.name] = {"normal": image, "constant": np.full(shape, 0.5, np.float32),
                                 "offset": image + np.float32(100)}[family]
        else:  # weights: like the initializers of the inline file (positive variances)
            values[info.name] = np.abs(0.3 * rng.standard_normal(shape)).astype(np.float32) + 0.5
    return values


@pytest.mark.parametrize("family", ["normal", "constant", "offset"])
@pytest.mark.parametrize("args", [False, True], ids=["inline", "args"])
@pytest.mark.parametrize("name", list(models.MODELS))
def test_block_agrees_with_onnxruntime(name, args, family):
    ort = pytest.importorskip("onnxruntime")
    path = DATA / models.file_name(name, args)
    inputs = _inputs(path, family)
    expected = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, inputs)
    flow = apply_pipeline(imported(name, args), "graph-to-dispatch")
    assert op_count(flow, "flow.dispatch.region") == (DISPATCHES_ARGS if args else DISPATCHES)[name]
    (actual,) = run_module(flow, list(inputs.values()))
    scale = float(np.max(np.abs(expected[0])))
    assert float(np.max(np.abs(actual - expected[0]))) <= 1e-4 * scale


F16_BN = """func.func @main(%x: tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16> {
  %w = arith.constant dense<[[[[0.5, -0.25], [1.0, 0.125]]], [[[2.0, 1.5], [-1.0, 0.75]]], [[[0.01, 0.02], [0.03, -0.04]]], [[[1.0, 1.0], [1.0, 1.0]]]]> : tensor<4x1x2x2xf16>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [1, 1, 0, 0] group = 4 : (tensor<1x4x6x6xf16>, tensor<4x1x2x2xf16>) -> tensor<1x4x6x6xf16>
  %s = arith.constant dense<[3.0, 0.1, 1.0e-3, 300.0]> : tensor<4xf16>
  %sb = graph.broadcast %s dims = [1] : tensor<4xf16> -> tensor<1x4x6x6xf16>
  %m = graph.mul %y, %sb : tensor<1x4x6x6xf16>
  %t = arith.constant dense<[-1.0, 0.5, 2.0, 1000.0]> : tensor<4xf16>
  %tb = graph.broadcast %t dims = [1] : tensor<4xf16> -> tensor<1x4x6x6xf16>
  %r = graph.add %m, %tb : tensor<1x4x6x6xf16>
  func.return %r : tensor<1x4x6x6xf16>
}
"""


def test_f16_scale_that_would_flush_weights_is_refused():
    """f16 depthwise conv: 0.01 * 1e-3 is below f16's smallest normal, so the scale stays a
    mul (the unfolded program keeps its precision) and the shift after it stays too."""
    after = assert_pass_preserves_semantics(F16_BN, "graph-fold-conv-affine", rtol=2e-2)
    assert op_count(after, "graph.mul") == 1 and op_count(after, "graph.add") == 1


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile, iree.runtime) not installed")
@pytest.mark.parametrize("name", ["inception", "squeeze_excite"])
def test_iree_builds_our_dispatches(name, tmp_path):
    """IREE builds graph-to-dispatch's output of the blocks with batched and folded convs (and
    the squeeze-excite scale IREE's CPU codegen once failed on) and computes onnxruntime's
    numbers."""
    ort = pytest.importorskip("onnxruntime")
    path = DATA / models.file_name(name, False)
    inputs = _inputs(path, "normal")
    expected = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, inputs)[0]
    source = tmp_path / "ours.mlir"
    source.write_text(print_module(apply_pipeline(imported(name), "graph-to-dispatch")))
    vmfb = compile_vmfb(source, tmp_path / "ours.vmfb", cpu_flags())
    actual = run_vmfb(vmfb, list(inputs.values()), "main_graph")[0]
    assert float(np.max(np.abs(actual - expected))) <= 1e-4 * float(np.max(np.abs(expected)))
