"""With `form-dispatch-regions{pads-into-gathers=true}` (opt-in), a conv's low pad read by its
im2col patch gather is formed into the gather's dispatch (`dispatch/padded_gathers.py`): the regions compute what the input program computes (random and
adversarial inputs against a float64 run), no top-level pad is left for IREE to copy, and IREE
builds the regions, computes the same numbers as its own formation and makes no `slow_memcpy`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-padded-gather.mlir"
IM2COL_LIT = LIT_TRANSFORMS / "linalg" / "linalg-strided-conv-to-im2col.mlir"
GATHERS = "form-dispatch-regions{pads-into-gathers=true}"
# dispatch-creation with the option, and with the gather form for every strided conv (the
# few-filter convs of these cases would otherwise get the im2col op, which reads no pad copy)
# and for the stride-1 3x3 conv (`linalg-conv-channels-last` would take its 8x8 output NHWC)
DISPATCH_CREATION = (
    PIPELINES["dispatch-creation"].spec.replace("form-dispatch-regions", GATHERS)
    .replace("linalg-conv-channels-last,", "")
    .replace("linalg-strided-conv-to-im2col", "linalg-strided-conv-to-im2col{im2col-op=false}")
)
IREE_MISSING = "IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed"

# A residual-style block: 3x3 conv + ReLU (a region of ours), its result padded and read by a
# strided 3x3 conv (im2col), the pad's source also read by a 1x1 shortcut.
PRODUCER_THEN_STRIDED = """
func.func @main(%x: tensor<1x4x8x8xf32>, %w1: tensor<4x4x3x3xf32>, %w2: tensor<8x4x3x3xf32>,
                %ws: tensor<8x4x1x1xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %e1 = tensor.empty() : tensor<1x4x8x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1 : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%f1 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x4x8x8xf32>) outs(%e1 : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  %rp = tensor.pad %r1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %e2 = tensor.empty() : tensor<1x8x4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%rp, %w2 : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%f2 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %cs = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%r1, %ws : tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) outs(%f2 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %c2, %cs : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}"""

# case -> (pads, pads left at top level after dispatch-creation)
CASES = {
    # both 3x3 convs take the gather form (stride-one, default), so both pads join a gather
    "producer_then_strided": (PRODUCER_THEN_STRIDED, 2, 0),
    # 3 output columns: IREE 3.13 cannot build the pad in the gather's region, it stays a copy
    "stem_padded_dilated": (lit_functions(IM2COL_LIT)["stem_padded_dilated"], 1, 1),
    "strided_bias_relu": (lit_functions(IM2COL_LIT)["strided_bias_relu"], 0, 0),  # no pad at all
}


def top_level_pads(module) -> int:
    return sum(op.name == "tensor.pad" and not isinstance(op.parent_op(), DispatchRegionOp) for op in module.walk())


@pytest.mark.parametrize("name", sorted(lit_functions(LIT)))
def test_formation_computes_the_same(name: str):
    assert_pass_preserves_semantics(lit_functions(LIT)[name], GATHERS)


def test_only_the_gathered_pad_moves():
    cases = lit_functions(LIT)
    assert top_level_pads(apply_pipeline(cases["pad_into_gather"], GATHERS)) == 0
    assert top_level_pads(apply_pipeline(cases["pad_into_gather"], "form-dispatch-regions")) == 1  # default
    assert top_level_pads(apply_pipeline(cases["pad_read_twice"], GATHERS)) == 1
    assert top_level_pads(apply_pipeline(cases["not_a_gather"], GATHERS)) == 2
    assert top_level_pads(apply_pipeline(cases["odd_width"], GATHERS)) == 1


@pytest.mark.parametrize("name", sorted(CASES))
def test_dispatch_creation_leaves_no_pad_before_a_gather(name: str):
    text, pads, left = CASES[name]
    after = assert_pass_preserves_semantics(text, DISPATCH_CREATION)
    assert sum(op.name == "tensor.pad" for op in after.walk()) == pads
    assert top_level_pads(after) == left


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
@pytest.mark.parametrize("name", sorted(CASES))
def test_iree_builds_the_padded_gather_and_agrees(name: str, tmp_path: Path):
    text, _, left = CASES[name]
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(text, DISPATCH_CREATION)))
    reference = tmp_path / "reference.mlir"  # IREE's own formation of the input program
    reference.write_text(print_module(parse_module(text)))
    names = flow_dispatch_names(ours, cpu_flags("generic"))
    assert sum("slow_memcpy" in n for n in names) == left  # one copy per top-level pad only
    [func] = [op for op in parse_module(text).walk() if op.name == "func.func"]
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(arg.type.get_shape()).astype(np.float32) for arg in func.body.block.args]
    entry = func.sym_name.data
    got = run_vmfb(compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic")), inputs, entry)
    want = run_vmfb(compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("generic")), inputs, entry)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


# --- opt-in: stride-1 k x k convs whose result only a pad reads, formed by IREE -------------

KXK_LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-padded-kxk.mlir"
KXK = "form-dispatch-regions{padded-kxk-min-pixels=1}"


@pytest.mark.parametrize("name", sorted(lit_functions(KXK_LIT)))
def test_padded_kxk_handover_computes_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(KXK_LIT)[name], KXK)
    bare_convs = [
        op for op in after.walk()
        if op.name == "linalg.conv_2d_nchw_fchw" and not isinstance(op.parent_op(), DispatchRegionOp)
    ]
    assert len(bare_convs) == (1 if name == "padded_3x3" else 0)


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
def test_iree_writes_the_pad_of_a_handed_over_kxk_conv(tmp_path: Path):
    text = lit_functions(KXK_LIT)["padded_3x3"]
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(text, f"linalg-fold-unit-reshapes,{KXK},cse,canonicalize")))
    reference = tmp_path / "reference.mlir"
    reference.write_text(print_module(parse_module(text)))
    names = flow_dispatch_names(ours, cpu_flags("generic"))
    assert len(names) == 2 and not any("slow_memcpy" in n for n in names)
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(s).astype(np.float32) for s in ((1, 8, 6, 6), (8, 8, 3, 3), (8, 8, 3, 3))]
    got = run_vmfb(compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic")), inputs, "padded_3x3")
    want = run_vmfb(compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("generic")), inputs, "padded_3x3")
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)
