"""`linalg-sink-reshapes` and `linalg-generalize-grouped-convs`: the rewritten lit cases compute
what the input computes (random and adversarial inputs, float64 reference) and are counted; at
real sizes the regions `dispatch-creation` forms from the two forms IREE 3.13 could not build
(a matmul whose rows an expand splits before its bias; a grouped conv collapsed before bias +
ReLU, 56x56; a depthwise conv + ReLU6 over a batch of 2 or a dynamic batch, 112x112) now build
with `iree-compile` and compute what IREE's own formation computes."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt import pass_statistics
from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.ir_io import parse_module, print_module
from support.iree_pairs import assert_agrees, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

SINK = LIT_TRANSFORMS / "linalg" / "linalg-sink-reshapes.mlir"
GENERALIZE = LIT_TRANSFORMS / "linalg" / "linalg-generalize-grouped-convs.mlir"
SUNK = {"matmul_rows_split": 1, "grouped_conv_collapse": 1, "partial_group_read": 0, "unit_and_elementwise_sources": 0,
        "two_roots_two_layouts": 0, "unit_batch_gate": 1, "collapse_read_transposed": 1, "two_roots_collapsed_alike": 1,
        "grouped_matmul_split_then_merged": 2, "argument_split_then_merged": 0, "residual_of_two_layouts": 1}
GENERALIZED = {"grouped_conv": ("grouped convs generalized", 1), "plain_convs": ("grouped convs generalized", 0),
               "batched_depthwise": ("batched depthwise convs generalized", 1),
               "dynamic_batch_depthwise": ("batched depthwise convs generalized", 1),
               "conv_3d": ("3-D convs generalized", 2)}


def _counted(text: str, pipeline: str, counter: str, families=FAMILIES) -> int:
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting(pipeline, stats):
        assert_pass_preserves_semantics(text, pipeline, families=families)
    return dict(stats.runs[0][1]).get(counter, 0) if stats.runs else 0


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(SINK)) == sorted(SUNK)
    assert sorted(lit_functions(GENERALIZE)) == sorted(GENERALIZED)


@pytest.mark.parametrize("name", sorted(SUNK))
def test_sinking_computes_the_same_and_is_counted(name: str):
    text = lit_functions(SINK)[name]
    assert _counted(text, "linalg-sink-reshapes", "reshapes sunk below an elementwise consumer") == SUNK[name]


@pytest.mark.parametrize("name", sorted(GENERALIZED))
def test_generalizing_computes_the_same_and_is_counted(name: str):
    """Not on `extreme` inputs: the conv's products of +-3e38 values overflow f32, and the
    generic sums them in another order than the named op's evaluation (inf - inf = NaN in one,
    not in the other); contractions are reassociated under the fast-math contract (finite
    values), as IREE's own generalization does."""
    text = lit_functions(GENERALIZE)[name]
    finite = tuple(f for f in FAMILIES if f != "extreme")
    counter, count = GENERALIZED[name]
    assert _counted(text, "linalg-generalize-grouped-convs", counter, finite) == count


def _grouped_conv_relu(groups: int, per_group: int, size: int) -> str:
    c = groups * per_group
    x, w = f"1x{groups}x{per_group}x{size + 2}x{size + 2}xf32", f"{groups}x{per_group}x{per_group}x3x3xf32"
    grouped, out = f"1x{groups}x{per_group}x{size}x{size}xf32", f"1x{c}x{size}x{size}xf32"
    m4 = "affine_map<(d0, d1, d2, d3) -> "
    return f"""func.func @main(%x: tensor<{x}>, %w: tensor<{w}>, %b: tensor<{c}xf32>) -> tensor<{out}> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{grouped}>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{grouped}>) -> tensor<{grouped}>
  %c = linalg.conv_2d_ngchw_gfchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<{x}>, tensor<{w}>) outs(%f : tensor<{grouped}>) -> tensor<{grouped}>
  %v = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<{grouped}> into tensor<{out}>
  %e2 = tensor.empty() : tensor<{out}>
  %g = linalg.generic {{indexing_maps = [{m4}(d0, d1, d2, d3)>, {m4}(d1)>, {m4}(d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%v, %b : tensor<{out}>, tensor<{c}xf32>) outs(%e2 : tensor<{out}>) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  }} -> tensor<{out}>
  func.return %g : tensor<{out}>
}}
"""


def _depthwise_relu6(batch: int | str, channels: int, size: int) -> str:
    """mobilenet_v2's first depthwise conv and its ReLU6 over `batch` images (`?`: dynamic)."""
    x, out = f"{batch}x{channels}x{size + 2}x{size + 2}xf32", f"{batch}x{channels}x{size}x{size}xf32"
    dims = "(%n)" if batch == "?" else "()"
    m4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    return f"""func.func @main(%x: tensor<{x}>, %w: tensor<{channels}x3x3xf32>) -> tensor<{out}> {{
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %n = tensor.dim %x, %c0 : tensor<{x}>
  %e = tensor.empty{dims} : tensor<{out}>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{out}>) -> tensor<{out}>
  %c = linalg.depthwise_conv_2d_nchw_chw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<{x}>, tensor<{channels}x3x3xf32>) outs(%f : tensor<{out}>) -> tensor<{out}>
  %g = linalg.generic {{indexing_maps = [{m4}, {m4}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%c : tensor<{out}>) outs(%e : tensor<{out}>) {{
  ^bb0(%i: f32, %o: f32):
    %r = arith.maximumf %i, %z : f32
    %s = arith.minimumf %r, %six : f32
    linalg.yield %s : f32
  }} -> tensor<{out}>
  func.return %g : tensor<{out}>
}}
"""


def _matmul_rows_split_bias(rows: int, k: int, n: int) -> str:
    side = int(rows ** 0.5)
    m4 = "affine_map<(d0, d1, d2, d3) -> "
    out = f"1x{side}x{side}x{n}xf32"
    return f"""func.func @main(%a: tensor<{rows}x{k}xf32>, %w: tensor<{k}x{n}xf32>, %b: tensor<{n}xf32>) -> tensor<{out}> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{rows}x{n}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{rows}x{n}xf32>) -> tensor<{rows}x{n}xf32>
  %m = linalg.matmul ins(%a, %w : tensor<{rows}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : tensor<{rows}x{n}xf32>) -> tensor<{rows}x{n}xf32>
  %x = tensor.expand_shape %m [[0, 1, 2], [3]] output_shape [1, {side}, {side}, {n}] : tensor<{rows}x{n}xf32> into tensor<{out}>
  %e2 = tensor.empty() : tensor<{out}>
  %g = linalg.generic {{indexing_maps = [{m4}(d0, d1, d2, d3)>, {m4}(d3)>, {m4}(d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%x, %b : tensor<{out}>, tensor<{n}xf32>) outs(%e2 : tensor<{out}>) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  }} -> tensor<{out}>
  func.return %g : tensor<{out}>
}}
"""


def _grouped_matmul_epilogue(groups: int, size: int, width: int = 16) -> str:
    """RegNetX's grouped 3x3 conv as `linalg-conv-channels-last` writes it (the im2col op over the
    padded H x W x G x C image, the group-batched matmul), its P x G x F result split and merged
    into N x H x W x (G*F) for the bias and ReLU (lit case `grouped_matmul_split_then_merged`)."""
    text = lit_functions(SINK)["grouped_matmul_split_then_merged"].replace("@grouped_matmul_split_then_merged", "@main")
    pixels, taps, channels, padded = size * size, 9 * width, groups * width, size + 2
    for small, real in (("4x4x2x4x", f"{padded}x{padded}x{groups}x{width}x"), ("2x36x4x", f"{groups}x{taps}x{width}x"),
                        ("2x4x36x", f"{groups}x{pixels}x{taps}x"), ("4x2x4x", f"{pixels}x{groups}x{width}x"),
                        ("1x2x2x2x4x", f"1x{size}x{size}x{groups}x{width}x"), ("1x2x2x8x", f"1x{size}x{size}x{channels}x"),
                        ("<8xf32>", f"<{channels}xf32>"), ("[[2], [2, 2], [3, 3, 4]]", f"[[{groups}], [{size}, {size}], [3, 3, {width}]]"),
                        ("output_shape [1, 2, 2, 2, 4]", f"output_shape [1, {size}, {size}, {groups}, {width}]")):
        text = text.replace(small, real)
    return text


REAL_SIZES = {
    "resnext_grouped_3x3_56": lambda: _grouped_conv_relu(32, 4, 56),
    "convnext_linear_56": lambda: _matmul_rows_split_bias(56 * 56, 96, 384),
    "lraspp_gated_1x1_14": lambda: lit_functions(SINK)["unit_batch_gate"].replace("@unit_batch_gate", "@main"),
    "mobilenet_v2_depthwise_batch2_112": lambda: _depthwise_relu6(2, 32, 112),
}


def _grouped_conv_bias_relu(image: np.ndarray, weights: np.ndarray, bias: np.ndarray, size: int) -> np.ndarray:
    """float64 reference of `_grouped_matmul_epilogue`: a 3x3 conv per group, bias, ReLU."""
    groups, width = image.shape[2], weights.shape[2]
    taps = weights.astype(np.float64).reshape(groups, 3, 3, -1, width)  # g, kh, kw, c, f
    out = np.zeros((size, size, groups, width))
    for kh in range(3):
        for kw in range(3):
            out += np.einsum("hwgc,gcf->hwgf", image[kh:kh + size, kw:kw + size].astype(np.float64), taps[:, kh, kw])
    return np.maximum(out.reshape(1, size, size, groups * width) + bias, 0)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
def test_grouped_matmul_epilogue_builds_as_one_dispatch_at_real_size(tmp_path):
    """RegNetX's 7x7 stage: the im2col op, the matmul and the bias + ReLU in one region, which
    IREE builds and which computes the conv. (IREE's own formation gives the lone im2col op a
    dispatch it cannot build, so the reference is numpy's.)"""
    groups, size = 25, 7
    ours = print_module(apply_pipeline(parse_module(_grouped_matmul_epilogue(groups, size)), "dispatch-creation-llvm-cpu"))
    assert ours.count("flow.dispatch.region") == 1
    assert f"flow.dispatch.region -> (tensor<{size * size}x{groups}x16xf32>)" in ours
    vmfbs = build_llvm_cpu({"ours": ours}, tmp_path)
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((size + 2, size + 2, groups, 16)).astype(np.float32),
              (rng.standard_normal((groups, 144, 16)) * 0.1).astype(np.float32),
              rng.standard_normal(groups * 16).astype(np.float32)]
    [got] = run_vmfb(vmfbs["ours"], inputs, "main")
    assert_agrees(got, _grouped_conv_bias_relu(*inputs, size), "random", rtol=1e-4)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
def test_dynamic_batch_depthwise_region_builds_and_agrees_with_iree(tmp_path):
    """At a dynamic batch the named depthwise conv + ReLU6 region asked IREE for 7 MB of stack."""
    text = _depthwise_relu6("?", 32, 112)
    ours = print_module(apply_pipeline(parse_module(text), "dispatch-creation-llvm-cpu"))
    assert "flow.dispatch.region" in ours and "linalg.depthwise_conv_2d_nchw_chw" not in ours
    vmfbs = build_llvm_cpu({"ours": ours, "iree": text}, tmp_path)
    rng = np.random.default_rng(1)
    inputs = [rng.standard_normal((3, 32, 114, 114)).astype(np.float32),
              rng.standard_normal((32, 3, 3)).astype(np.float32)]
    [got], [want] = run_vmfb(vmfbs["ours"], inputs, "main"), run_vmfb(vmfbs["iree"], inputs, "main")
    assert got.shape == (3, 32, 112, 112)
    assert_agrees(got, want, "random", rtol=1e-4)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
@pytest.mark.parametrize("name", sorted(REAL_SIZES))
def test_regions_build_at_real_sizes_and_agree_with_iree(name: str, tmp_path):
    text = REAL_SIZES[name]()
    ours = print_module(apply_pipeline(parse_module(text), "dispatch-creation-llvm-cpu"))
    assert "flow.dispatch.region" in ours
    vmfbs = build_llvm_cpu({"ours": ours, "iree": text}, tmp_path)  # raises IreeError if IREE cannot
    [func] = [op for op in parse_module(text).walk() if op.name == "func.func"]
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(arg.type.get_shape()).astype(np.float32) for arg in func.body.block.args]
    [got], [want] = run_vmfb(vmfbs["ours"], inputs, "main"), run_vmfb(vmfbs["iree"], inputs, "main")
    assert_agrees(got, want, "random", rtol=1e-4)


def test_a_refused_move_leaves_no_user_behind():
    """The move of the two-roots case is refused after the reshape of the other root was built:
    that reshape must not stay a (detached) user of the root, or the root's region would return
    its raw result for it (resnet18's last block did)."""
    module = apply_pipeline(lit_functions(SINK)["two_roots_two_layouts"], "linalg-sink-reshapes")
    attached = set(module.walk())
    for op in module.walk():
        for result in op.results:
            assert all(use.operation in attached for use in result.uses), f"{op.name} has a user outside the module"
