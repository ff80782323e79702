"""`linalg-conv1d-channels-last` and `linalg-conv1d-patches`: 1-D convs computed channels last,
as patch copies and matmuls, compute what the NCHW convs do (interpreter, every input family,
against the input program); the llvm-cpu pipeline takes a wav2vec2-style feature encoder at its
real length (16000 samples, seven convs, a GroupNorm after the first) to channels-last patch
matmuls that IREE builds, and the build agrees with a float64 run of the input on every family
no less well than onnxruntime does.

The lit cases are the `// -----` functions of test/lit/transforms/linalg/linalg-conv1d-channels-last.mlir
and linalg-conv1d-patches.mlir.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.rows_channels_last import is_rows_transpose
from support.lit_cases import lit_functions
from support.onnx_family_runs import family_runs, gelu, worst_error

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "linalg"
CHANNELS_LAST = lit_functions(LIT / "linalg-conv1d-channels-last.mlir")
PATCHES = lit_functions(LIT / "linalg-conv1d-patches.mlir")
PIPELINE = "graph-to-dispatch-llvm-cpu"


@pytest.mark.parametrize("passes", ["linalg-conv1d-channels-last", "linalg-conv1d-channels-last,linalg-conv1d-patches"])
def test_conv_chain_channels_last_preserves_values(passes):
    after = assert_pass_preserves_semantics(CHANNELS_LAST["conv1d_chain"], passes, seeds=(0, 1))
    names = {op.name for op in after.walk()}
    assert "linalg.conv_2d_nchw_fchw" not in names
    assert ("linalg.matmul" in names) == passes.endswith("patches")


@pytest.mark.parametrize("passes", ["linalg-conv1d-channels-last", "linalg-conv1d-channels-last,linalg-conv1d-patches"])
def test_reflect_pad_between_convs_moves_channels_last_and_preserves_values(passes):
    """The pad's concat of frame slices computes channels last (a concat along dim 1): the two
    swaps left are the input's and the result's."""
    after = assert_pass_preserves_semantics(CHANNELS_LAST["reflect_pad_between_convs"], passes, seeds=(0, 1))
    assert sum(is_rows_transpose(op) for op in after.walk()) == 2
    assert [op.dim.value.data for op in after.walk() if op.name == "tensor.concat"] == [1]


def test_reflect_pad_between_convs_through_the_cpu_pipeline_preserves_values():
    after = assert_pass_preserves_semantics(CHANNELS_LAST["reflect_pad_between_convs"], "dispatch-creation-llvm-cpu", seeds=(0, 1))
    assert not any(op.name == "linalg.conv_2d_nchw_fchw" for op in after.walk())


@pytest.mark.parametrize("passes", ["linalg-conv1d-channels-last", "dispatch-creation-llvm-cpu"])
def test_pointwise_conv_between_transposes_preserves_values(passes):
    """A 1 x 1 window too (SqueezeBERT's dense layers): channels last, no NCHW conv is left."""
    after = assert_pass_preserves_semantics(CHANNELS_LAST["pointwise_between_transposes"], passes, seeds=(0, 1))
    assert not any(op.name == "linalg.conv_2d_nchw_fchw" for op in after.walk())


@pytest.mark.parametrize("name", ["row_conv", "dilated_image_row"])
def test_patch_matmuls_preserve_values(name):
    after = assert_pass_preserves_semantics(PATCHES[name], "linalg-conv1d-patches", seeds=(0, 1))
    assert not any(op.name == "linalg.conv_2d_nhwc_hwcf" for op in after.walk())


# wav2vec2's feature encoder: (kernel, stride) of its seven convs, no bias, GELU after each and
# a GroupNorm of one group a channel after the first.
WAV2VEC2_CONVS = ((10, 5), (3, 2), (3, 2), (3, 2), (3, 2), (2, 2), (2, 2))


def feature_encoder(channels: int = 128, samples: int = 16000):
    """wav2vec2's feature encoder over `samples` of audio at `channels` channels (512 in the
    model; fewer here to build quickly: the same shapes of work at each frame count)."""
    rng = np.random.default_rng(0)
    weights = {"gamma": 1 + 0.1 * rng.standard_normal(channels), "beta": rng.standard_normal(channels),
               "sqrt2": np.float32(np.sqrt(2)), "one": np.float32(1), "half": np.float32(0.5)}
    nodes, source, width = [], "x", samples
    for i, (kernel, stride) in enumerate(WAV2VEC2_CONVS):
        inputs = 1 if i == 0 else channels
        weights[f"w{i}"] = rng.standard_normal((channels, inputs, kernel)) / np.sqrt(inputs * kernel)
        nodes.append(helper.make_node("Conv", [source, f"w{i}"], [f"c{i}"], strides=[stride]))
        conv = f"c{i}"
        if i == 0:
            nodes.append(helper.make_node("InstanceNormalization", [conv, "gamma", "beta"], ["n0"], epsilon=1e-5))
            conv = "n0"
        gelu(nodes, conv, f"g{i}")
        source, width = f"g{i}", (width - kernel) // stride + 1
    inits = [numpy_helper.from_array(np.asarray(v, np.float32), k) for k, v in weights.items()]
    graph = helper.make_graph(nodes, "feature_encoder", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, samples])],
                              [helper.make_tensor_value_info(source, TensorProto.FLOAT, [1, channels, width])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def test_cpu_pipeline_makes_the_feature_encoder_patch_matmuls():
    """Every conv leaves: seven patch matmuls, their weights packed ([F/P, K, P] operands), and the
    six patch copies over 128 channels with CPU tiles; no conv is left."""
    formed = apply_pipeline(import_onnx(feature_encoder()), PIPELINE)
    assert not any(op.name.startswith("linalg.conv_2d") for op in formed.walk())
    tiled = [op for op in formed.walk() if op.name == "linalg.generic" and "compilation_info" in op.attributes]
    packed = [op for op in tiled if du.is_contraction(op) and len(op.operands[1].type.get_shape()) == 3]
    copies = [op for op in tiled if du.is_elementwise_linalg(op) and len(op.operands) == 2]
    assert (len(packed), len(copies)) == (len(WAV2VEC2_CONVS), len(WAV2VEC2_CONVS) - 1)


@pytest.fixture(scope="module")
def encoder_runs(tmp_path_factory):
    """(float64 reference, ours, onnxruntime's) per family for the feature encoder at 16000
    samples, built by IREE from the llvm-cpu pipeline's regions."""
    pytest.importorskip("onnxruntime")
    return family_runs(feature_encoder(), PIPELINE, tmp_path_factory.mktemp("encoder"), seed=3)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("family", FAMILIES)
def test_iree_build_of_the_feature_encoder_is_as_close_to_float64_as_onnxruntime(encoder_runs, family):
    """The bar is onnxruntime's own error on the family, or 2e-6 of the largest value (~30 f32
    ulps: seven chained convs of up to 384 products each and a normalisation; on `random`
    onnxruntime is 6.7e-8 off at a scale of 0.106, the NCW form 1.01e-7, this one 1.08e-7; on
    `offset` onnxruntime 6.3e-3, this one 5.2e-4; on `extreme` all overflow alike, 0.17 off)."""
    reference, ours, theirs = encoder_runs[family]
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(reference), err_msg=family)
    ulps = 2e-6 * float(np.abs(reference[np.isfinite(reference)]).max(initial=0.0))
    assert worst_error(ours, reference) <= max(worst_error(theirs, reference), ulps), family


# A HiFi-GAN residual block: (kernel, dilation) of its stride-1 convs, a LeakyReLU before each
# and the block's input added after every second.
HIFIGAN_CONVS = ((3, 1), (3, 3), (5, 5), (5, 1))


def residual_block(channels: int = 32, frames: int = 1024):
    """HiFi-GAN's dilated residual convs over `frames` frames (a multiple of 8: IREE's conv
    kernel keeps them; the undilated one in two workgroups of 512 frames,
    `dispatch-conv-kxk-cpu-tiles`) and a last conv over frames - 4 (not a multiple: patches)."""
    rng = np.random.default_rng(1)
    weights, nodes, source = {}, [], "x"
    for i, (kernel, dilation) in enumerate(HIFIGAN_CONVS):
        weights[f"w{i}"] = rng.standard_normal((channels, channels, kernel)) / np.sqrt(channels * kernel)
        weights[f"b{i}"] = 0.1 * rng.standard_normal(channels)
        pad = dilation * (kernel - 1) // 2 if i < 3 else 0
        nodes += [helper.make_node("LeakyRelu", [source], [f"a{i}"], alpha=0.1),
                  helper.make_node("Conv", [f"a{i}", f"w{i}", f"b{i}"], [f"c{i}"], dilations=[dilation], pads=[pad, pad])]
        source = f"c{i}"
        if i == 1:
            nodes.append(helper.make_node("Add", [source, "x"], ["r1"]))
            source = "r1"
    inits = [numpy_helper.from_array(np.asarray(v, np.float32), k) for k, v in weights.items()]
    graph = helper.make_graph(nodes, "residual_block", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, frames])],
                              [helper.make_tensor_value_info(source, TensorProto.FLOAT, [1, channels, frames - 4])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def test_cpu_pipeline_keeps_stride_one_convs_over_whole_pixel_tiles():
    """The three convs over 1024 frames stay IREE's channels-last conv; the one over 1020 frames
    is a patch matmul."""
    formed = apply_pipeline(import_onnx(residual_block()), PIPELINE)
    convs = [op for op in formed.walk() if op.name == "linalg.conv_2d_nhwc_hwcf"]
    assert sorted(op.results[0].type.get_shape()[2] for op in convs) == [1024, 1024, 1024]
    configs = [str(op.attributes["compilation_info"]) for op in convs if "compilation_info" in op.attributes]
    assert len(configs) == 1 and "distribution = [0, 1, 512, 32, 0, 0, 0]" in configs[0]
    assert sum(op.name == "linalg.matmul" or (du.is_contraction(op) and op.name == "linalg.generic") for op in formed.walk()) == 1


@pytest.fixture(scope="module")
def block_runs(tmp_path_factory):
    pytest.importorskip("onnxruntime")
    return family_runs(residual_block(), PIPELINE, tmp_path_factory.mktemp("block"), seed=5)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("family", FAMILIES)
def test_iree_build_of_the_residual_block_is_as_close_to_float64_as_onnxruntime(block_runs, family):
    """The bar as the feature encoder's: onnxruntime's own error, or 2e-6 of the largest value."""
    reference, ours, theirs = block_runs[family]
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(reference), err_msg=family)
    ulps = 2e-6 * float(np.abs(reference[np.isfinite(reference)]).max(initial=0.0))
    assert worst_error(ours, reference) <= max(worst_error(theirs, reference), ulps), family
