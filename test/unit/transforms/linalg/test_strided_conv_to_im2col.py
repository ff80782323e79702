"""`linalg-strided-conv-to-im2col`: strided k x k convs as patch gather + flat contraction
compute what the named conv computes (bias + ReLU epilogue, padded input, strides, dilations,
fill init), on random and adversarial inputs against a float64 run of the input program; the
pass fires where it should only (stride 1 unless `stride-one=false`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.interpreter import family_inputs
from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_agrees
from support.lit_cases import LIT_TRANSFORMS, lit_functions

DATA = Path(__file__).resolve().parents[3] / "data"

PASS = "linalg-strided-conv-to-im2col"
# case -> named convs rewritten with stride-one=false and =true (the default)
REWRITTEN = {"strided_bias_relu": (1, 1), "stem_padded_dilated": (1, 1), "not_rewritten": (0, 1)}


def count_convs(module) -> int:
    return sum(op.name == "linalg.conv_2d_nchw_fchw" for op in module.walk())


@pytest.mark.parametrize("im2col_op", [False, True])
@pytest.mark.parametrize("stride_one", [False, True])
@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_im2col_computes_the_same(name: str, stride_one: bool, im2col_op: bool):
    """Both forms: the gather (im2col-op=false) and, for these few-filter convs, the op."""
    text = lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-strided-conv-to-im2col.mlir")[name]
    before = count_convs(apply_pipeline(text, "cse"))
    spec = f"{PASS}{{stride-one={str(stride_one).lower()} im2col-op={str(im2col_op).lower()}}}"
    after = assert_pass_preserves_semantics(text, spec)
    assert before - count_convs(after) == REWRITTEN[name][stride_one]


# --- few-filter convs as IREE's im2col op, computed in the matmul's dispatch -----------------

OP_LIT = LIT_TRANSFORMS / "linalg" / "linalg-strided-conv-to-im2col-op.mlir"
OP_FUSED = f"{PASS},form-dispatch-regions"
# case -> im2col ops written (few-filter convs only)
IM2COL_OPS = {"few_filters": 1, "gather_form": 0}


def count_ops(module, name: str) -> int:
    return sum(op.name == name for op in module.walk())


@pytest.mark.parametrize("pipeline", [PASS, OP_FUSED])
@pytest.mark.parametrize("name", sorted(IM2COL_OPS))
def test_im2col_op_form_computes_the_same(name: str, pipeline: str):
    after = assert_pass_preserves_semantics(lit_functions(OP_LIT)[name], pipeline)
    assert count_ops(after, "iree_linalg_ext.im2col") == IM2COL_OPS[name]
    assert count_ops(after, "linalg.conv_2d_nchw_fchw") == 0


# the fewest-dispatch options: case -> (im2col ops, convs left, pads left)
FEWEST_OPTIONS = (f"{PASS}{{gathers=strided im2col-op-max-filters=1024 im2col-op-max-taps=4608 "
                  "im2col-op-pixel-multiple=64 absorb-argument-pads=true}")
FEWEST_FORMS = {"few_filters": (1, 0, 0), "gather_form": (2, 0, 0), "stride_one_gathers": (1, 1, 0),
                "argument_pad": (1, 0, 0), "pads_kept": (2, 0, 2), "pool_pad": (1, 0, 1),
                "pixel_multiple": (1, 1, 0)}
POOL_OPTIONS = f"{PASS}{{absorb-pool-pads=true}}"
POOL_FORMS = {"pool_pad": (1, 0, 0), "pads_kept": (2, 0, 2), "argument_pad": (1, 0, 1)}


@pytest.mark.parametrize("name", sorted(FEWEST_FORMS))
def test_fewest_options_compute_the_same(name: str):
    """Raised im2col-op bounds, gathers for strided convs only, argument pads as the op's input
    padding: the same values on random and adversarial inputs."""
    after = assert_pass_preserves_semantics(lit_functions(OP_LIT)[name], FEWEST_OPTIONS)
    counts = tuple(count_ops(after, n) for n in ("iree_linalg_ext.im2col", "linalg.conv_2d_nchw_fchw", "tensor.pad"))
    assert counts == FEWEST_FORMS[name]


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_fused_conv_and_agrees(tmp_path: Path):
    """The pad copy and one dispatch for the conv, computing what IREE's own build computes."""
    text = lit_functions(OP_LIT)["few_filters"]
    ours, reference = tmp_path / "ours.mlir", tmp_path / "reference.mlir"
    ours.write_text(print_module(apply_pipeline(text, f"{OP_FUSED},cse,canonicalize")))
    reference.write_text(print_module(parse_module(text)))
    names = flow_dispatch_names(ours, cpu_flags("generic"))
    assert len(names) == 2 and sum("slow_memcpy" in n for n in names) == 1
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(s).astype(np.float32) for s in ((1, 3, 8, 8), (8, 3, 3, 3))]
    got = run_vmfb(compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic")), inputs, "few_filters")
    want = run_vmfb(compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("generic")), inputs, "few_filters")
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(POOL_FORMS))
def test_pool_pads_absorbed_compute_the_same(name: str):
    """A max pool's result's pad as the im2col op's input padding (an argument's stays)."""
    after = assert_pass_preserves_semantics(lit_functions(OP_LIT)[name], POOL_OPTIONS)
    counts = tuple(count_ops(after, n) for n in ("iree_linalg_ext.im2col", "linalg.conv_2d_nchw_fchw", "tensor.pad"))
    assert counts == POOL_FORMS[name]


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_pool_pad_absorbed_and_agrees(tmp_path: Path):
    """The pool's region and the conv's (the pad its im2col op's input padding): two
    dispatches, no copy, the values of IREE's own build on random and adversarial inputs (not
    `extreme`: its sums of +-3e38 overflow to inf - inf in one summation order and not in
    another; the interpreter test above judges that family against float64)."""
    text = lit_functions(OP_LIT)["pool_pad"]
    ours, reference = tmp_path / "ours.mlir", tmp_path / "reference.mlir"
    ours.write_text(print_module(apply_pipeline(text, f"{PASS}{{absorb-pool-pads=true}},form-dispatch-regions,cse")))
    reference.write_text(print_module(parse_module(text)))
    names = flow_dispatch_names(ours, cpu_flags("generic"))
    assert len(names) == 2 and not any("slow_memcpy" in n for n in names)
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic"))
    ref_vmfb = compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("generic"))
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in ("random", "constant", "offset", "zeros", "mask"):
        inputs = family_inputs(func, family, seed=1)
        for got, want in zip(run_vmfb(ours_vmfb, inputs, "pool_pad"), run_vmfb(ref_vmfb, inputs, "pool_pad"), strict=True):
            assert_agrees(got, want, family)


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_224_stem_as_one_dispatch_and_agrees(tmp_path: Path):
    """A 224x224 stem (112x112 = 196 x 64 output pixels) under the fewest options: one dispatch,
    the image's pad the op's input padding, IREE's own count; the values of IREE's own build on
    random and adversarial images."""
    source = DATA / "stem_conv_224.mlir"
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(source.read_text(), f"{FEWEST_OPTIONS},form-dispatch-regions,cse")))
    assert len(flow_dispatch_names(ours, cpu_flags("generic"))) == 1
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic"))
    ref_vmfb = compile_vmfb(source, tmp_path / "ref.vmfb", cpu_flags("generic"))
    func = next(op for op in parse_module(source.read_text()).walk() if op.name == "func.func")
    for family in ("random", "offset", "zeros"):
        inputs = family_inputs(func, family, seed=1)
        for got, want in zip(run_vmfb(ours_vmfb, inputs, "stem"), run_vmfb(ref_vmfb, inputs, "stem"), strict=True):
            assert_agrees(got, want, family)
