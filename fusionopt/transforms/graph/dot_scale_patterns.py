"""Push constant scales into the constant operand of a `graph.dot` (MIGraphX `find_mul_dot`,
`find_dot_mul`), so the scale costs nothing at run time and the dot can join a chain.

- `mul(dot(a, b), s)`: a scalar `s` goes into whichever operand is constant (b first); a
  per-column `s` (varies along N only) scales the columns of a constant `b`; a per-row `s`
  (varies along M only) scales the rows of a constant `a`.
- `dot(mul(z, s), c)`: a scalar or per-column-of-`z` `s` (varies along K only) scales the
  rows of a constant `c`; `dot(c, mul(z, s))`: a scalar or per-row-of-`z` `s` scales the
  columns of `c`.
`s` is a constant or a broadcast of one whose batch dims are not split (stored size 1 there).
The rewritten mul or dot operand must have no other user, and the scaled constant must fit
the `max-const-bytes` budget. Exact up to the rounding of the folded product; in f16/bf16 the
folded product must be exact (graph-reassociate-dots' numerics policy).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from fusionopt.diagnostics import emit_remark
from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import element_of, shape_of
from fusionopt.graph_numpy import evaluate_graph_op
from fusionopt.transforms.graph.dot_chain_ir import constant_op, materialise
from fusionopt.transforms.graph.dot_chain_numerics import exact_in, is_low_precision
from fusionopt.transforms.graph.dot_chain_read import has_one_use, stored_constant
from fusionopt.transforms.graph.graph_ir import OpBuilder


def scale_kind(scale: np.ndarray) -> str | None:
    """"scalar", "column" (varies along the last dim only), "row" (the row dim only) or None."""
    if any(d != 1 for d in scale.shape[:-2]):
        return None
    rows, cols = scale.shape[-2:]
    if rows == 1 and cols == 1:
        return "scalar"
    if rows == 1:
        return "column"
    return "row" if cols == 1 else None


def multiply_stored(a: np.ndarray, b: np.ndarray, element: Attribute) -> np.ndarray:
    """Elementwise a * b of two stored constants, rounded as `graph.mul` on `element`."""
    shape = np.broadcast_shapes(a.shape, b.shape)
    a, b = np.broadcast_to(a, shape), np.broadcast_to(b, shape)
    mul = graph.MulOp(constant_op(a, element).result, constant_op(b, element).result)
    return evaluate_graph_op(mul, [a, b])


def _product_f64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a.astype(np.float64) * b.astype(np.float64)


@dataclass
class ScaleRewrite:
    """Shared by both patterns: scale one constant dot operand and rebuild the dot."""

    max_const_bytes: int

    def scaled_operand(self, builder: OpBuilder, operand: SSAValue, scale: np.ndarray) -> SSAValue | None:
        stored = stored_constant(operand)
        if stored is None:
            return None
        element = element_of(operand)
        product = multiply_stored(stored, scale, element)
        if product.size * element.compile_time_size > self.max_const_bytes:
            return None
        if is_low_precision(element) and not exact_in(_product_f64(stored, scale), element):
            return None  # f16/bf16: only an exact folded scale keeps one rounding (pass docstring)
        return materialise(builder, product, shape_of(operand), element)

    def replace(self, rewriter: PatternRewriter, op: Operation, lhs: SSAValue, rhs: SSAValue, what: str) -> None:
        emit_remark(op, f"folded {what} into the constant dot operand")
        rewriter.replace(op, [graph.DotOp(lhs, rhs)])


def _split_scale(mul: graph.MulOp, other: SSAValue) -> np.ndarray | None:
    """The stored scale of `mul` when its non-`other` operand is constant."""
    scale_value = mul.rhs if mul.lhs == other else mul.lhs
    return stored_constant(scale_value)


class PushScaleIntoDot(RewritePattern):
    """mul(dot(a, b), s) -> dot(a * s, b) or dot(a, b * s) (see module doc)."""

    def __init__(self, max_const_bytes: int):
        self.rewrite = ScaleRewrite(max_const_bytes)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.MulOp, rewriter: PatternRewriter) -> None:
        for dot_value in (op.lhs, op.rhs):
            dot = dot_value.owner
            if not isinstance(dot, graph.DotOp) or not has_one_use(dot_value):
                continue
            scale = _split_scale(op, dot_value)
            kind = scale_kind(scale) if scale is not None else None
            if kind is None:
                continue
            builder = OpBuilder(op, rewriter)
            sides = {"scalar": ("rhs", "lhs"), "column": ("rhs",), "row": ("lhs",)}[kind]
            for side in sides:
                target = dot.rhs if side == "rhs" else dot.lhs
                scaled = self.rewrite.scaled_operand(builder, target, scale)  # type: ignore[arg-type]
                if scaled is not None:
                    lhs, rhs = (dot.lhs, scaled) if side == "rhs" else (scaled, dot.rhs)
                    self.rewrite.replace(rewriter, op, lhs, rhs, f"a {kind} scale")
                    return


class PushScaleThroughDotOperand(RewritePattern):
    """dot(mul(z, s), c) -> dot(z, s^T * c); dot(c, mul(z, s)) -> dot(c * s^T, z)."""

    def __init__(self, max_const_bytes: int):
        self.rewrite = ScaleRewrite(max_const_bytes)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.DotOp, rewriter: PatternRewriter) -> None:
        # (mul operand, constant operand, scale kind that lines up with the contraction dim)
        for mul_value, const_value, along_k in ((op.lhs, op.rhs, "column"), (op.rhs, op.lhs, "row")):
            mul = mul_value.owner
            if not isinstance(mul, graph.MulOp) or not has_one_use(mul_value):
                continue
            for z in (mul.lhs, mul.rhs):
                scale = _split_scale(mul, z)
                if scale is None or stored_constant(z) is not None:
                    continue
                kind = scale_kind(scale)
                if kind not in ("scalar", along_k):
                    continue
                builder = OpBuilder(op, rewriter)
                scaled = self.rewrite.scaled_operand(builder, const_value, np.swapaxes(scale, -1, -2))
                if scaled is None:
                    continue
                lhs, rhs = (z, scaled) if mul_value is op.lhs else (scaled, z)
                self.rewrite.replace(rewriter, op, lhs, rhs, f"a {kind} scale of the activation")
                return
