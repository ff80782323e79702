"""float64 reference runs, the judge against them, and the harness on adversarial families."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from fusionopt.interpreter import compute_float64, family_inputs, find_entry, run_function
from fusionopt.interpreter.compare import (
    IDENTICAL,
    NO_WORSE,
    NOISE_CAP,
    WITHIN_REFERENCE,
    diff_results,
    judge_against_reference,
)
from fusionopt.interpreter.input_families import largest_float, nudged
from fusionopt.interpreter.values import element_dtype, float64_mode
from fusionopt.ir_io import parse_module
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, assert_same_semantics

RUN_DIR = Path(__file__).resolve().parents[1] / "lit" / "run"
TWO_PASS = (RUN_DIR / "variance-two-pass.mlir").read_text()
TEXTBOOK = (RUN_DIR / "Inputs" / "variance-textbook.mlir").read_text()

SUM = """
func.func @f(%x: tensor<3xf32>) -> tensor<f32> {
  %z = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.reduce ins(%x : tensor<3xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}
"""

DOT = """
func.func @f(%x: tensor<1x64xf32>, %w: tensor<64x1xf32>) -> tensor<1x1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %r = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x1xf32>) outs(%i : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}
"""

CONV = """
func.func @f(%x: tensor<1x64x1x1xf32>, %w: tensor<1x64x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x1xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x64x1x1xf32>, tensor<1x64x1x1xf32>) outs(%i : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %r : tensor<1x1x1x1xf32>
}
"""

GRAPH_DOT = """
func.func @f(%x: tensor<1x64xf32>, %w: tensor<64x1xf32>) -> tensor<1x1xf32> {
  %r = graph.dot %x, %w : (tensor<1x64xf32>, tensor<64x1xf32>) -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}
"""

CONSTANTS = """
func.func @f() -> (f32, tensor<2xf32>, tensor<2xbf16>, i32, tensor<2xf32>) {
  %a = arith.constant 0.1 : f32
  %b = arith.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %c = arith.constant dense<[0.1, 3.0]> : tensor<2xbf16>
  %i = arith.bitcast %a : f32 to i32
  %g = graph.add %b, %b : tensor<2xf32>
  return %a, %b, %c, %i, %g : f32, tensor<2xf32>, tensor<2xbf16>, i32, tensor<2xf32>
}
"""


def test_float64_mode_sums_exactly_where_f32_cancels() -> None:
    module = parse_module(SUM, "<sum>")
    x = [np.array([1e8, 1, -1e8], np.float32)]
    (f32,) = run_function(module, x)
    (f64,) = run_function(module, x, float64=True)
    assert (f32.dtype, float(f32)) == (np.float32, 0.0) and (f64.dtype, float(f64)) == (np.float64, 1.0)


def test_float64_textbook_variance_is_the_exact_value() -> None:
    module = parse_module(TEXTBOOK, "<textbook>")
    (x,) = family_inputs(find_entry(module), "offset")
    exact = 1 / np.sqrt(x.astype(np.float64).var(axis=1) + np.float64(np.float32(1e-5)))
    (f64,) = run_function(module, [x], float64=True)
    (f32,) = run_function(module, [x])
    np.testing.assert_allclose(f64, exact, rtol=1e-6)
    assert not np.allclose(f32, exact, rtol=1e-2, equal_nan=False)


def _overflowing_terms(positives: int, negatives: int, interleaved: bool) -> np.ndarray:
    signs = [1.0, -1.0] * negatives + [1.0] * (positives - negatives) if interleaved else \
        [1.0] * positives + [-1.0] * negatives
    return np.float32(3e38) * np.float32(signs)


@pytest.mark.parametrize("interleaved", (True, False))
def test_f32_contractions_that_overflow_give_one_value_whatever_the_order(interleaved: bool) -> None:
    # 32 terms of +3e38 and 32 of -3e38 sum to exactly 0; in f32, summed in order with the
    # signs alternating they stay finite, while 16-lane partial sums (BLAS) or the positives
    # first overflow to NaN or inf. Every order of a matmul, a conv and a graph.dot gives 0
    # (the order differs between a conv's einsum and its matmul form, and by CPU), and two
    # more positives (exactly 6e38) give +inf, not NaN
    ones = np.ones(64, np.float32)
    for text, shapes in ((DOT, ((1, 64), (64, 1))), (CONV, ((1, 64, 1, 1), (1, 64, 1, 1))), (GRAPH_DOT, ((1, 64), (64, 1)))):
        module = parse_module(text, "<contraction>")
        (zero,) = run_function(module, [_overflowing_terms(32, 32, interleaved).reshape(shapes[0]), ones.reshape(shapes[1])])
        assert zero.dtype == np.float32 and float(zero.reshape(())) == 0.0
        (over,) = run_function(module, [_overflowing_terms(33, 31, interleaved).reshape(shapes[0]), ones.reshape(shapes[1])])
        assert np.isposinf(over.reshape(()))


def test_judge_takes_the_reference_in_the_results_type() -> None:
    # an f64 reference of 1e60 is +inf in f32: NaN there is no cancellation (max(x, 0) of an
    # f32 sum that overflowed to -inf gave the input program 0) and is not judged
    beyond = _judge(np.float32([np.nan, 1.0]), np.float32([0.0, 1.0]), np.array([1e60, 1.0]))
    assert beyond.ok and "out of the type's range not judged" in beyond.describe()
    # ... a finite value where the input program and the reference overflow still fails
    assert not _judge(np.float32([3.0, 1.0]), np.float32([np.inf, 1.0]), np.array([1e60, 1.0])).ok
    # ... and within the range, NaN where the input program is finite fails as before
    assert not _judge(np.float32([np.nan, 1.0]), np.float32([0.0, 1.0]), np.array([1e30, 1.0])).ok


def test_constants_are_decoded_in_their_declared_type_then_widened() -> None:
    module = parse_module(CONSTANTS, "<constants>")
    a, b, c, i, g = run_function(module, [], float64=True)
    assert a.dtype == b.dtype == c.dtype == g.dtype == np.float64
    assert float(a) == float(np.float32(0.1)) and b.tolist() == [float(np.float32(0.1)), float(np.float32(0.2))]
    assert c[0] == 0.10009765625  # 0.1 rounded to bf16
    assert int(i) == int(np.float32(0.1).view(np.int32)) and np.array_equal(g, 2 * b)
    assert [r.dtype for r in run_function(module, [])][:2] == [np.float32, np.float32]


def test_compute_float64_is_scoped() -> None:
    f32 = parse_module(SUM, "<sum>").body.block.first_op.function_type.inputs.data[0]
    assert not float64_mode() and element_dtype(f32) == np.float32
    with compute_float64():
        assert float64_mode() and element_dtype(f32) == np.float64
    assert element_dtype(f32) == np.float32


def _judge(actual, baseline, reference, rtol=1e-4):
    (verdict,) = judge_against_reference([np.asarray(actual)], [np.asarray(baseline)], [np.asarray(reference)], rtol)
    return verdict


def test_judge_names_the_criterion_and_tolerances() -> None:
    ref = np.array([1.0, 1e-9, -2.0])
    close = _judge(ref.astype(np.float32) * np.float32(1 + 1e-6), ref.astype(np.float32), ref)
    assert close.ok and close.criterion == WITHIN_REFERENCE and close.atol == pytest.approx(2e-4)
    assert "within tolerance of the f64 reference" in close.describe() and "rtol=1.0e-04" in close.describe()
    # ill-conditioned: the input program is itself 1e-2 off; a rewrite 2e-2 off is no worse (4x)
    worse_input = _judge(ref + 2e-2, ref + 1e-2, ref)
    assert worse_input.ok and worse_input.criterion == NO_WORSE and NO_WORSE in worse_input.describe()
    assert not _judge(ref + 1e-1, ref + 1e-2, ref).ok


def test_judge_fails_on_new_nan_and_shapes_and_skips_undefined_references() -> None:
    bad = _judge([np.nan, 1.0], [0.5, 1.0], [0.5, 1.0])
    assert not bad.ok and "NaN/inf at 1 position(s) where the input program is finite" in bad.describe()
    assert not _judge(np.ones(3), np.ones(2), np.ones(2)).ok
    undefined = _judge([-np.inf, 1.0], [np.nan, 1.0], [np.nan, 1.0])
    assert undefined.ok and "reference is NaN/inf or out of the type's range not judged" in undefined.describe()
    assert not _judge([3.0, 1.0], [np.inf, 1.0], [np.inf, 1.0]).ok  # finite where both are infinite
    assert _judge([np.int32(3)], [np.int32(3)], [np.int32(3)]).ok and not _judge([4], [3], [3]).ok
    exact = judge_against_reference([np.float32([1.0])], [np.float32([1.0])], [np.array([1.0 + 1e-9])], rtol=0)
    assert exact[0].ok and exact[0].criterion == IDENTICAL


def test_diff_results_says_which_tolerance_held() -> None:
    (by_abs,) = diff_results([np.array([1e-3])], [np.array([2e-3])], rtol=1e-4, atol=1e-2)
    assert by_abs.ok and "ok by abs (rtol=1.0e-04 atol=1.0e-02)" in by_abs.describe()
    (by_rel,) = diff_results([np.array([1.0])], [np.array([1.0])], rtol=1e-4, atol=1e-5)
    assert "ok by rel" in by_rel.describe()


@dataclass(frozen=True)
class TextbookVariance(ModulePass):
    """Replaces the two-pass variance program by E[x^2] - E[x]^2 (the real bug, on purpose)."""

    name = "test-textbook-variance"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        block = op.body.block
        for old in list(block.ops):
            block.erase_op(old)
        for new in list(parse_module(TEXTBOOK, "<textbook>").body.block.ops):
            new.detach()
            block.add_op(new)


def test_harness_catches_cancellation_only_adversarial_inputs_expose() -> None:
    assert_pass_preserves_semantics(TWO_PASS, [TextbookVariance()], families=("random",))
    with pytest.raises(AssertionError, match=r"input family 'offset' \(seed 0\)(.|\n)*NaN/inf at"):
        assert_pass_preserves_semantics(TWO_PASS, [TextbookVariance()])


# Two dots over one input with constant weights, as a program drew them, and the same after
# horizontal fusion (one 4x6 dot, then column slices): on the constant family the 4x1 dot
# cancels to exactly 0 in numpy's 4x1 order and to -2^-30 in its 4x6 order (found by
# `property_run.py --seed 13`).
TWO_DOTS = """
func.func @f(%a: tensor<4x4xf32>) -> (tensor<4x5xf32>, tensor<4x1xf32>) {
  %v = arith.constant dense<-0.25> : tensor<4x5xf32>
  %w = arith.constant dense<[[-1.75], [-1.75], [2.0], [1.5]]> : tensor<4x1xf32>
  %x = graph.dot %a, %v : (tensor<4x4xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %y = graph.dot %a, %w : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %x, %y : tensor<4x5xf32>, tensor<4x1xf32>
}
"""


def test_nudged_inputs_move_each_nonzero_float_one_ulp() -> None:
    x = np.array([0.01, 0.0, -3.0, np.inf, np.nan, 1e-30], np.float32)
    ids = np.array([0, 5], np.int64)
    moved, same_ids, scalar = nudged([x, ids, np.float32(2.0)], seed=3)
    gaps = np.abs(moved[:3].astype(np.float64) - x[:3])
    ulps = np.spacing(np.abs(x[:3]))
    assert gaps[0] in (ulps[0], np.spacing(np.nextafter(x[0], np.float32(0)))) and gaps[2] > 0
    assert moved[1] == 0 and np.isposinf(moved[3]) and np.isnan(moved[4]) and moved[5] != x[5]
    assert same_ids is ids and scalar != np.float32(2.0) and np.asarray(scalar).shape == ()
    assert largest_float([x, ids]) == 3.0
    top = np.array([np.finfo(np.float16).max, -np.finfo(np.float16).max], np.float16)
    for seed in range(4):  # the largest values move inward, never to infinity
        assert np.all(np.isfinite(nudged([top], seed)[0])) and np.all(nudged([top], seed)[0] != top)


def test_rounding_noise_of_the_input_program_admits_reordered_sums() -> None:
    before = parse_module(TWO_DOTS, "<two dots>")
    after = apply_pipeline(TWO_DOTS, "graph-horizontal-fuse-dots")
    assert sum(op.name == "graph.dot" for op in after.walk()) == 1, "the dots must be one"
    inputs = family_inputs(find_entry(before), "constant")
    baseline, actual = run_function(before, inputs), run_function(after, inputs)
    reference = run_function(before, inputs, float64=True)
    assert not np.any(baseline[1]) and not np.any(reference[1]) and np.any(actual[1]), \
        "the fused dot no longer rounds differently: this test lost its case"
    (_, strict) = judge_against_reference(actual, baseline, reference)
    assert not strict.ok  # exact 0 demanded: the old judgement
    noise = run_function(before, nudged(inputs), find_entry(before))
    (_, judged) = judge_against_reference(actual, baseline, reference, nudged=noise, noise_scale=largest_float(inputs))
    assert judged.ok and judged.criterion == NO_WORSE and 0 < judged.baseline_abs <= NOISE_CAP * 0.01
    assert_same_semantics(before, after, "horizontal fusion")


def test_noise_from_a_flipped_choice_is_not_rounding_noise() -> None:
    """A nudge that moves a result by the size of the data (an argmax between tied inputs
    choosing another row) does not widen the judgement: a wrong result still fails; noise
    below NOISE_CAP of the inputs' scale does."""
    zeros = np.zeros(2)
    rounded, noise = np.float32([1e-6, 0.0]), np.float32([2e-6, 0.0])
    (verdict,) = judge_against_reference([rounded], [zeros.astype(np.float32)], [zeros], nudged=[noise], noise_scale=1.0)
    assert verdict.ok and verdict.criterion == NO_WORSE
    (strict,) = judge_against_reference([rounded], [zeros.astype(np.float32)], [zeros])
    assert not strict.ok
    flipped = np.float32([0.5, 0.0])
    (wrong,) = judge_against_reference([rounded], [zeros.astype(np.float32)], [zeros], nudged=[flipped], noise_scale=1.0)
    assert not wrong.ok and wrong.baseline_abs == 0.0
