"""`dispatch-unit-dim-reads`: reading an operand without its constant-0 unit dims changes no value
(interpreter, every input family); the llvm-cpu pipeline leaves no such read in a region of a
Whisper-like 1-D conv stem (conv + GELU, a GroupNorm over the conv's rows as wav2vec2's), and
IREE builds what it forms and computes what a float64 run of the input does, on random inputs
within 1e-4, on adversarial ones no further from it than onnxruntime (`offset` included: the
convs channels last sum the GroupNorm's variance in f64, `rows_channels_last.widen_frame_sums`).
graph-to-dispatch-cuda runs the pass too: Mamba's causal depthwise conv builds for sm_80 with it
and not without.

The lit cases are the `// -----` functions of test/lit/transforms/dispatch/dispatch-unit-dim-reads.mlir.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.block_onnx_builder import BlockBuilder
from support.iree_pairs import assert_agrees, assert_cuda_rule_needed, cuda_pipeline_without
from support.lit_cases import lit_functions
from support.onnx_family_runs import family_runs, gelu, worst_error

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "dispatch" / "dispatch-unit-dim-reads.mlir"
PASS = "dispatch-unit-dim-reads"
PIPELINE = "graph-to-dispatch-llvm-cpu"
# A read through a constant 0 in a region's generic: `-> (..., 0, ...)` in an indexing map.
ZERO_READ = re.compile(r"affine_map<\([^)]*\) -> \([^)]*\b0\b[^)]*\)>")


@pytest.mark.parametrize("name, reshapes", [("conv1d_epilogue", 2), ("conv_epilogue_in_region", 0)])
def test_rank_reduced_reads_preserve_values(name, reshapes):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS, seeds=(0, 1))
    assert sum(op.name == "flow.tensor.reshape" for op in after.walk()) == reshapes
    assert not ZERO_READ.search(print_module(after))


def test_collapse_of_an_outside_value_is_read_as_a_reshape_and_preserves_values():
    """The collapse of the region's argument becomes one reshape before the region; the one of a
    value the region computes keeps its constant-0 read."""
    after = assert_pass_preserves_semantics(lit_functions(LIT)["collapse_of_an_outside_value"], PASS, seeds=(0, 1))
    assert sum(op.name == "flow.tensor.reshape" for op in after.walk()) == 1
    assert sum(op.name == "tensor.collapse_shape" for op in after.walk()) == 1
    assert len(ZERO_READ.findall(print_module(after))) == 1


def conv1d_stem(channels: int = 160, width: int = 96) -> onnx.ModelProto:
    """Whisper's stem (conv k3 + GELU, conv k3 stride 2 + GELU) with wav2vec2's GroupNorm (one
    group a channel, as InstanceNormalization) after the first conv, 8 input channels. The CPU
    pipeline computes both convs channels last as patch matmuls (`linalg-conv1d-channels-last`)."""
    rng = np.random.default_rng(0)
    weights = {"w1": 0.2 * rng.standard_normal((channels, 8, 3)), "b1": rng.standard_normal(channels),
               "w2": 0.2 * rng.standard_normal((channels, channels, 3)), "b2": rng.standard_normal(channels),
               "gamma": 1 + 0.1 * rng.standard_normal(channels), "beta": rng.standard_normal(channels),
               "sqrt2": np.float32(np.sqrt(2)), "one": np.float32(1), "half": np.float32(0.5)}
    inits = [numpy_helper.from_array(np.asarray(v, np.float32), k) for k, v in weights.items()]
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1]),
             helper.make_node("InstanceNormalization", ["c1", "gamma", "beta"], ["n1"], epsilon=1e-5)]
    gelu(nodes, "n1", "g1")
    nodes.append(helper.make_node("Conv", ["g1", "w2", "b2"], ["c2"], pads=[1, 1], strides=[2]))
    gelu(nodes, "c2", "y")
    graph = helper.make_graph(nodes, "conv1d_stem", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, width])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, width // 2])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def regions_of(module) -> list[str]:
    return [print_module(op) for op in module.walk() if op.name == "flow.dispatch.region"]


def test_cpu_pipeline_leaves_no_constant_zero_reads_in_a_conv1d_stem():
    """The GroupNorm's scale and shift ([C, 1]) and the first conv's [1, C, 1, W] result read
    without their unit dims; the second conv's GELU in its patch matmul's region (read through
    the matmul's result, not a [1, 1, W, C] view of it): its erf there as `linalg-rational-erf`
    writes it, FMAs over a division."""
    for channels in (16, 160):
        formed = print_module(apply_pipeline(import_onnx(conv1d_stem(channels)), PIPELINE))
        assert "flow.dispatch.region" in formed
        assert not ZERO_READ.search(formed), ZERO_READ.search(formed)
    regions = regions_of(apply_pipeline(import_onnx(conv1d_stem(160)), PIPELINE))
    assert any(r.count("math.fma") >= 10 and "arith.divf" in r and '"reduction"' in r for r in regions)


@pytest.fixture(scope="module", params=[64, 160])
def conv1d_stem_runs(request, tmp_path_factory):
    """(float64 reference, ours, onnxruntime's) per family, for the stem at 64 or 160 channels x
    3000 frames."""
    pytest.importorskip("onnxruntime")

    def no_zero_reads(formed: str) -> None:
        assert not ZERO_READ.search(formed)

    return family_runs(conv1d_stem(request.param, width=3000), PIPELINE, tmp_path_factory.mktemp("stem"), seed=2,
                       check_formed=no_zero_reads)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_the_conv1d_stem_and_agrees_with_float64(conv1d_stem_runs):
    reference, ours, _ = conv1d_stem_runs["random"]
    assert_agrees(ours, np.asarray(reference, np.float32), "random")


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("family", FAMILIES)
def test_iree_build_is_as_close_to_float64_as_onnxruntime(conv1d_stem_runs, family):
    """A near-constant row (`constant`, `zeros`) makes the normalisation divide rounding noise by a
    tiny deviation, where no f32 run is within 1e-4 of float64 (onnxruntime 3e-3 off on
    `constant`; ours, its means in f64, 5e-5): the bar is onnxruntime's own error, or a few f32
    ulps (1e-6) of the largest value. On `offset` (1000.5 + 0.01 N(0, 1)) the zero-padded edge
    frames normalise to ~60, so the variance's error shows: summed in f32 one channel at a time
    (the convs channels last) the edge came out 3e-3 from float64 against onnxruntime's 6e-4.
    On `extreme` both are 35.7 off at the same element (float64 35.58, onnxruntime -0.1558254,
    ours -0.15582542: one ulp of a 0.16 output apart, the two erfs rounding differently), so the
    few ulps are allowed on top of onnxruntime's error too."""
    reference, ours, theirs = conv1d_stem_runs[family]
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(reference), err_msg=family)
    ulps = 1e-6 * float(np.abs(reference[np.isfinite(reference)]).max(initial=0.0))
    assert worst_error(ours, reference) <= worst_error(theirs, reference) + ulps


def mamba_causal_conv(channels: int = 512, tokens: int = 64) -> str:
    """Mamba's causal depthwise 1-D conv (kernel 4, padded 3 on both sides, the first `tokens`
    outputs kept) with its bias, then SiLU: the conv's [C, 1, W] result read at (c, 0, w)."""
    b = BlockBuilder(3)
    x = b.node("Relu", [b.input("x", [1, channels, tokens])])
    w, bias = b.weight((channels, 1, 4), 0.5), b.weight((channels,), 0.1)
    y = b.node("Conv", [x, w, bias], kernel_shape=[4], pads=[3, 3], group=channels)
    y = b.silu(b.slice(y, 2, 0, tokens))
    return print_module(import_onnx(b.block_model(y, [1, channels, tokens], args=False)))


@pytest.mark.skipif(not iree_available(), reason="iree-compile absent")
def test_cuda_pipeline_reads_the_causal_conv_without_its_unit_dim(tmp_path: Path):
    """IREE's sm_80 codegen fails on the conv region whose epilogue reads the constant-0 form
    ("failed to apply fusion + hoisting patterns"); graph-to-dispatch-cuda reads it rank-reduced
    and builds (no GPU needed)."""
    graph = mamba_causal_conv()
    assert not ZERO_READ.search(print_module(apply_pipeline(graph, "graph-to-dispatch-cuda")))
    without = cuda_pipeline_without("canonicalize,dispatch-unit-dim-reads{windowed-regions-only=true}", "canonicalize")
    assert_cuda_rule_needed(graph, "graph-to-dispatch-cuda", without, tmp_path,
                            "failed to apply fusion + hoisting patterns")
