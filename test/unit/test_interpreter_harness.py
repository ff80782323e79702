"""`fusionopt.testing`: the equivalence harness must accept correct rewrites and catch wrong ones."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, TensorType, f32, f64
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, random_inputs, run_module
from fusionopt.interpreter import find_entry

PROGRAM = """
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  %1 = arith.addf %a, %b : tensor<4xf32>
  %2 = arith.mulf %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
"""


class _AddToSub(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddfOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, arith.SubfOp(op.lhs, op.rhs))


@dataclass(frozen=True)
class WrongPass(ModulePass):
    """A deliberately wrong rewrite (addf -> subf) to prove the harness catches bugs."""

    name = "test-wrong"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_AddToSub()).rewrite_module(op)


def test_correct_pipeline_passes_and_returns_rewritten_module() -> None:
    after = assert_pass_preserves_semantics(PROGRAM, "cse,canonicalize")
    assert sum(1 for op in after.walk() if op.name == "arith.addf") == 1


def test_wrong_pass_is_caught() -> None:
    with pytest.raises(AssertionError, match="changed the results"):
        assert_pass_preserves_semantics(PROGRAM, [WrongPass()])


def test_unknown_pass_is_an_error() -> None:
    with pytest.raises(Exception, match="no-such-pass"):
        apply_pipeline(PROGRAM, "no-such-pass")


def test_run_module_and_random_inputs() -> None:
    entry = find_entry(apply_pipeline(PROGRAM, []))
    inputs = random_inputs(entry, seed=5)
    assert [x.dtype for x in inputs] == [np.float32, np.float32]
    assert np.array_equal(inputs[0], random_inputs(entry, seed=5)[0])
    (out,) = run_module(PROGRAM, inputs)
    np.testing.assert_allclose(out, (inputs[0] + inputs[1]) ** 2, rtol=1e-6)


SOFTMAX = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant dense<-3.0e38> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%ninf : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %s = arith.subf %in, %mx : f32
    %v = math.exp %s : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%zero : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %d = arith.divf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
"""


def test_named_pipeline_with_dispatch_regions_preserves_softmax() -> None:
    """Integration: the `dispatch-creation` pipeline's flow.dispatch.regions execute too."""
    after = assert_pass_preserves_semantics(SOFTMAX, "dispatch-creation")
    assert any(op.name == "flow.dispatch.region" for op in after.walk())


class _AddfToF64(RewritePattern):
    """Gives the first addf an f64 result its users do not expect: invalid IR."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddfOp, rewriter: PatternRewriter) -> None:
        if op.result.type == TensorType(f32, [4]):
            wrong = arith.AddfOp.create(operands=[op.lhs, op.rhs], result_types=[TensorType(f64, [4])],
                                        properties=dict(op.properties))
            rewriter.replace_op(op, wrong)


@dataclass(frozen=True)
class BreakingPass(ModulePass):
    name = "test-breaking"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_AddfToF64(), apply_recursively=False).rewrite_module(op)


@pytest.mark.parametrize("before", [[], [CommonSubexpressionElimination()]], ids=["first-pass", "after-a-verified-change"])
def test_a_pass_that_breaks_the_ir_is_named(before) -> None:
    # After a pass that verified, only what the next pass changed is verified (`--verify-each`):
    # the broken op's users are among it.
    with pytest.raises(AssertionError, match="fails to verify after pass 'test-breaking'"):
        apply_pipeline(PROGRAM, [*before, BreakingPass()])


def test_each_call_on_one_text_gets_its_own_module() -> None:
    # Texts are parsed once and cloned: a pipeline's changes must not reach the next caller.
    first = apply_pipeline(PROGRAM, [WrongPass()])
    second = apply_pipeline(PROGRAM, [])
    assert [op.name for op in first.walk()].count("arith.subf") == 2
    assert [op.name for op in second.walk()].count("arith.subf") == 0
    assert [op.name for op in second.walk()].count("arith.addf") == 2
