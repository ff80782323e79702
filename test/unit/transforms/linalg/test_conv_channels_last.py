"""`linalg-conv-channels-last`: convs as NHWC/HWCF convs between transposes
(and strided, 1x1, depthwise convs and max pools in their NHWC forms) compute what the NCHW ops
compute (pads, -inf pads, bias broadcast and fill inits, ReLU, residual adds, an activation
shared by a conv and an add), on random and adversarial inputs against a float64
run of the input program, alone and through elementwise fusion and region formation; the pass
fires where it should only; IREE builds the regions, writes the pads in the conv's dispatch and
computes what its own build of the input computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-conv-channels-last"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-conv-channels-last.mlir"
# case -> window ops rewritten by default and with min-pixels=1 max-filter-elements=100000
REWRITTEN = {"residual_block": (2, 2), "shared_activation": (2, 2), "window_kinds": (4, 4), "constant_filter": (1, 1),
             "small_1x1": (0, 1), "shared_fill": (1, 1), "not_rewritten": (0, 2), "large_constant_1x1": (1, 3),
             "large_constant_3x3": (1, 2),
             "dilated_windows": (2, 2), "batched": (2, 2)}
CHANNELS_LAST_OPS = ("linalg.conv_2d_nhwc_hwcf", "linalg.depthwise_conv_2d_nhwc_hwc", "linalg.pooling_nhwc_max")
ALL = f"{PASS}{{min-pixels=1 min-pixels-1x1=1 max-filter-elements=100000}}"
FORMED = "linalg-fuse-elementwise{aggressive=false},form-dispatch-regions"


def count_ops(module, *names: str) -> int:
    return sum(op.name in names for op in module.walk())


@pytest.mark.parametrize("everything", [False, True])
@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_channels_last_computes_the_same(name: str, everything: bool):
    text = lit_functions(LIT)[name]
    after = assert_pass_preserves_semantics(text, ALL if everything else PASS)
    assert count_ops(after, *CHANNELS_LAST_OPS) == REWRITTEN[name][everything]


# case -> grouped convs left (groups of 16 filters go channels last, groups of 4 stay)
GROUPED_LEFT = {"grouped_block": 0, "narrow_groups": 1}


@pytest.mark.parametrize("name", sorted(GROUPED_LEFT))
def test_grouped_convs_channels_last_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS)
    assert count_ops(after, "linalg.conv_2d_ngchw_gfchw") == GROUPED_LEFT[name]


def test_grouped_block_regions_compute_the_same_with_no_transpose_between_the_convs():
    """Through the CPU pipeline: the 1x1 conv, the gather and the group-batched matmul in
    their regions, the activations NHWC between them (the only NCHW read is the result's)."""
    after = assert_pass_preserves_semantics(lit_functions(LIT)["grouped_block"], "dispatch-creation-llvm-cpu")
    assert count_ops(after, "linalg.conv_2d_ngchw_gfchw") == 0
    reads = [str(m) for op in after.walk() if op.name == "linalg.generic" for m in op.indexing_maps.data]
    nchw_reads = [m for m in reads if "(d0, d1, d2, d3) -> (d0, d3, d1, d2)" in m or "-> (d0, d2, d3, d1)" in m]
    assert len(nchw_reads) <= 2, nchw_reads  # the image's transpose in, the result's out


def large_constant_1x1(seed: int) -> str:
    """A 1x1 conv over a random constant filter past max-filter-elements (257 x 256), with bias
    and ReLU: the inline-weights form of a MobileNet 7x7-stage expansion."""
    w = np.random.default_rng(seed).standard_normal((257, 256, 1, 1)).astype(np.float32) / 16
    return f"""func.func @f(%x: tensor<1x256x4x4xf32>, %b: tensor<257xf32>) -> tensor<1x257x4x4xf32> {{
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<"0x{w.tobytes().hex().upper()}"> : tensor<257x256x1x1xf32>
  %e = tensor.empty() : tensor<1x257x4x4xf32>
  %init = linalg.generic {{indexing_maps = [affine_map<(n, f, h, w) -> (f)>, affine_map<(n, f, h, w) -> (n, f, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%b : tensor<257xf32>) outs(%e : tensor<1x257x4x4xf32>) {{
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }} -> tensor<1x257x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<1x256x4x4xf32>, tensor<257x256x1x1xf32>) outs(%init : tensor<1x257x4x4xf32>) -> tensor<1x257x4x4xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (n, f, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%c : tensor<1x257x4x4xf32>) outs(%e : tensor<1x257x4x4xf32>) {{
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  }} -> tensor<1x257x4x4xf32>
  func.return %r : tensor<1x257x4x4xf32>
}}
"""


def test_large_constant_1x1_filter_goes_channels_last_and_computes_the_same():
    """Inline weights: the filter-size limit is for filters transposed on every call, so a
    constant one past it still goes channels last, exactly (random and adversarial inputs)."""
    after = assert_pass_preserves_semantics(large_constant_1x1(0), PASS)
    assert count_ops(after, "linalg.conv_2d_nhwc_hwcf") == 1
    assert count_ops(after, "linalg.conv_2d_nchw_fchw") == 0


NT = f"{PASS}{{min-pixels-1x1=1 nt-1x1-max-pixels=63}}"


@pytest.mark.parametrize("name", ["small_1x1", "window_kinds"])
def test_1x1_reading_its_filter_in_place_computes_the_same(name: str):
    """Opt-in: 1x1 convs under 64 pixels as a channels-last contraction over the F x C filter
    (window_kinds' 16x16-pixel 1x1 conv keeps the transposed filter)."""
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], NT)
    transposed_1x1 = [op for op in after.walk() if op.name == "linalg.conv_2d_nhwc_hwcf"
                      and tuple(op.operands[1].type.get_shape()[:2]) == (1, 1)]
    assert (count_ops(after, "tensor.collapse_shape"), len(transposed_1x1)) == {"small_1x1": (1, 0), "window_kinds": (0, 1)}[name]


# case -> (padded stores in conv regions, pads left as copies) after formation
PADS = {"residual_block": (1, 1), "shared_activation": (0, 2)}


@pytest.mark.parametrize("name", sorted(PADS))
def test_regions_compute_the_same_and_write_their_pads(name: str):
    """Through fusion and formation: the first conv's region writes the second conv's padded
    input where the pad is the ReLU's only reader (a residual add reading it too keeps the
    copy: IREE 3.13 computed wrong values when the add read the padded buffer's interior)."""
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], f"{PASS},{FORMED}")
    assert count_ops(after, "linalg.conv_2d_nhwc_hwcf") == 2
    pads = tuple(count_ops(after, f"tensor.{name}") for name in ("insert_slice", "pad"))
    assert pads == PADS[name]


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_channels_last_block_and_agrees(tmp_path: Path):
    """IREE keeps our regions (one dispatch per region and pad copy) and computes what its own
    build of the NCHW block computes, on random and constant images."""
    text = lit_functions(LIT)["residual_block"]
    ours, reference = tmp_path / "ours.mlir", tmp_path / "reference.mlir"
    formed = apply_pipeline(text, f"{PASS},{FORMED},cse,canonicalize")
    ours.write_text(print_module(formed))
    reference.write_text(print_module(parse_module(text)))
    names = flow_dispatch_names(ours, cpu_flags("generic"))
    assert len(names) == count_ops(formed, "flow.dispatch.region") + count_ops(formed, "tensor.pad")
    rng = np.random.default_rng(0)
    shapes = ((1, 8, 8, 8), (8, 8, 3, 3), (8, 8, 3, 3), (8,))
    families = {
        "random": [rng.standard_normal(s).astype(np.float32) for s in shapes],
        "offset": [(1000.5 + rng.standard_normal(s)).astype(np.float32) for s in shapes],
    }
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic"))
    reference_vmfb = compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("generic"))
    for inputs in families.values():
        got = run_vmfb(ours_vmfb, inputs, "residual_block")[0]
        want = run_vmfb(reference_vmfb, inputs, "residual_block")[0]
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * float(np.abs(want).max()))
