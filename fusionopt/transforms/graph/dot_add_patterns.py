"""Distribute a constant dot operand over a constant add (MIGraphX `find_dot_add`,
`simplify_dot_add`), for `graph-reassociate-dots`:

    dot(x + C1, C2) -> dot(x, C2) + (C1 . C2)      dot(C2, x + C1) -> dot(C2, x) + (C2 . C1)

Matching is MIGraphX's: the dot's other operand `C2` is a constant (or a broadcast of one), the
add has exactly one user (this dot), one add operand is a constant `C1` (or a broadcast of one)
and the other is not; the side of `C2` is kept. The constant product is folded right away
(`matmul_stored`: rounded as `fusion-run` rounds the same dot), kept small when `C1` is a
broadcast (a row bias `b[K]` gives the row `b . C2` of `[N]`, broadcast again).

Where it pays (the `fusion-stats` measure; MIGraphX rewrites unconditionally):
- the add moves from the dot's input `[M, K]` to its output `[M, N]`, where it is the dot's
  epilogue. The rewrite is made when the run-time FLOPs do not grow (`M*N <= M*K`). With
  more adds (`N > K`) it is made only when `x` is a function argument: then `x + C1` is a
  kernel of its own (a producer of a matmul's input never fuses into its dispatch, and there
  is no producer for the add to fuse into), which the rewrite removes, provided the folded
  constant the epilogue reads is no bigger than what that kernel moved (`x` and `C1` read,
  the sum written): a row bias `b[K]` qualifies (its product is a row of `[N]`), a full
  `[M, K]` constant with `N > 3K` does not. When `x` comes from another op, the add is that
  op's epilogue already and moving it would only add FLOPs (the chain DP's verdict too);
- never when the folded product would exceed `max-const-bytes`.
Numerics: exact in exact arithmetic; in floating point `x + C1` is rounded before the dot and
`x . C2` and `C1 . C2` are rounded apart, so the result differs in the last bits (when `x`
nearly cancels `C1` both forms lose the same absolute precision, `|x|` times the unit
roundoff). That is accepted for f32/f64 and is exact for i32/i64 (wrap-around arithmetic is a
ring); f16/bf16 are left alone, where the separately rounded products lose visibly more.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type, Float64Type
from xdsl.ir import BlockArgument, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from fusionopt.diagnostics import emit_remark
from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import element_of, is_int, shape_of
from fusionopt.transforms.graph.dot_chain_ir import materialise, matmul_stored
from fusionopt.transforms.graph.dot_chain_read import stored_constant
from fusionopt.transforms.graph.graph_ir import OpBuilder


def distributes_exactly_enough(value: SSAValue) -> bool:
    """f32 / f64 (rounding moves by ulps) and i32 / i64 (exact); not f16 / bf16."""
    element = element_of(value)
    return isinstance(element, (Float32Type, Float64Type)) or is_int(element)


@dataclass(frozen=True)
class AddOperand:
    """The add feeding the dot: `x + c1` with `c1` constant-like and `x` not."""

    add: graph.AddOp
    x: SSAValue
    c1: SSAValue


def constant_add(value: SSAValue) -> AddOperand | None:
    add = value.owner
    if not isinstance(add, graph.AddOp) or not value.has_one_use():
        return None
    for x, c1 in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
        if stored_constant(c1) is not None and stored_constant(x) is None:
            return AddOperand(add, x, c1)
    return None


class DistributeConstantOverAdd(RewritePattern):
    """dot(x + C1, C2) -> dot(x, C2) + C1.C2 (either side; see the module doc for when)."""

    def __init__(self, max_const_bytes: int):
        self.max_const_bytes = max_const_bytes

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.DotOp, rewriter: PatternRewriter) -> None:
        if not distributes_exactly_enough(op.result):
            return
        for add_value, c2, add_on_left in ((op.lhs, op.rhs, True), (op.rhs, op.lhs, False)):
            matched = constant_add(add_value)
            c2_stored = stored_constant(c2)
            if matched is None or c2_stored is None:
                continue
            c1_stored = stored_constant(matched.c1)
            assert c1_stored is not None
            element = element_of(op.result)
            k = shape_of(op.lhs)[-1]
            if add_on_left:
                product = matmul_stored(c1_stored, c2_stored, k, element)
            else:
                product = matmul_stored(c2_stored, c1_stored, k, element)
            product_bytes = product.size * element.compile_time_size
            if product_bytes > self.max_const_bytes:
                continue
            if not pays_off(matched, c1_stored.size, product.size, op):
                continue
            builder = OpBuilder(op, rewriter)
            folded = materialise(builder, product, shape_of(op.result), element)
            lhs, rhs = (matched.x, c2) if add_on_left else (c2, matched.x)
            dot = builder.add(graph.DotOp(lhs, rhs))
            emit_remark(op, f"distributed the constant dot operand over a constant add "
                            f"(add on {_shape(matched.add.result)} -> {_shape(op.result)})")
            rewriter.replace(op, [graph.AddOp(dot, folded)])
            return


def pays_off(matched: AddOperand, c1_size: int, product_size: int, dot: graph.DotOp) -> bool:
    """No more run-time adds; or, when the add is a kernel of its own today (`x` is a function
    argument, so there is no producer to fuse into), an epilogue whose constant read is at
    most what that kernel moved (read `x` and `C1`, write `x + C1`), in elements."""
    input_side = math.prod(shape_of(matched.add.result))
    if math.prod(shape_of(dot.result)) <= input_side:
        return True
    if not isinstance(matched.x, BlockArgument):
        return False  # the add is some producer's epilogue already: only FLOPs would change
    return product_size <= 2 * input_side + c1_size


def _shape(value: SSAValue) -> str:
    return "[" + ", ".join(str(d) for d in shape_of(value)) + "]"


def distribute_patterns(max_const_bytes: int) -> list[RewritePattern]:
    return [DistributeConstantOverAdd(max_const_bytes)]

