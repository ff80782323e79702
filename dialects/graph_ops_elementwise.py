"""Elementwise `graph` ops: binary arithmetic, unary math, compares, `where`, `convert`.

Element-type rules (checked by the verifiers):
- add/sub/mul/div/max/min: float or i32/i64; pow: float only.
- neg/abs/relu: float or i32/i64; every other unary op (exp, log, sin, ...): float only.
- compares: any supported element type, result i1 of the same shape.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import VarConstraint, base, operand_def, result_def, traits_def
from xdsl.traits import Pure

from fusionopt.dialects.graph_base import (
    CompareOp,
    ElementwiseBinaryOp,
    ElementwiseUnaryOp,
    GraphOp,
    element_of,
    fail,
    graph_op_definition,
    shape_of,
    tensor,
)


@graph_op_definition
class AddOp(ElementwiseBinaryOp):
    name = "graph.add"


@graph_op_definition
class SubOp(ElementwiseBinaryOp):
    name = "graph.sub"


@graph_op_definition
class MulOp(ElementwiseBinaryOp):
    name = "graph.mul"


@graph_op_definition
class DivOp(ElementwiseBinaryOp):
    """Float division; on integers it truncates toward zero (like `arith.divsi`)."""

    name = "graph.div"


@graph_op_definition
class MaxOp(ElementwiseBinaryOp):
    name = "graph.max"


@graph_op_definition
class MinOp(ElementwiseBinaryOp):
    name = "graph.min"


@graph_op_definition
class RemOp(ElementwiseBinaryOp):
    """The remainder of the division truncated toward zero: it has the dividend's sign (C's
    `fmod`; `arith.remf`, on integers `arith.remsi`). An integer remainder by zero is 0 here and
    in the interpreter, undefined once compiled (as `arith.remsi`'s is)."""

    name = "graph.rem"


@graph_op_definition
class PowOp(ElementwiseBinaryOp):
    name = "graph.pow"
    ELEMENT_KIND: ClassVar[str] = "float"


@graph_op_definition
class NegOp(ElementwiseUnaryOp):
    name = "graph.neg"
    ELEMENT_KIND: ClassVar[str] = "numeric"


@graph_op_definition
class AbsOp(ElementwiseUnaryOp):
    name = "graph.abs"
    ELEMENT_KIND: ClassVar[str] = "numeric"


@graph_op_definition
class ReluOp(ElementwiseUnaryOp):
    name = "graph.relu"
    ELEMENT_KIND: ClassVar[str] = "numeric"


@graph_op_definition
class ExpOp(ElementwiseUnaryOp):
    name = "graph.exp"


@graph_op_definition
class Exp2Op(ElementwiseUnaryOp):
    name = "graph.exp2"


@graph_op_definition
class LogOp(ElementwiseUnaryOp):
    name = "graph.log"


@graph_op_definition
class Log1pOp(ElementwiseUnaryOp):
    """log(1 + x), exact for |x| below float epsilon (Softplus's tail)."""

    name = "graph.log1p"


@graph_op_definition
class Expm1Op(ElementwiseUnaryOp):
    """exp(x) - 1 without the cancellation near 0 (ELU's, SELU's and CELU's negative side)."""

    name = "graph.expm1"


@graph_op_definition
class RoundOp(ElementwiseUnaryOp):
    """Round half to even (ONNX Round; QuantizeLinear's rounding): `math.roundeven`."""

    name = "graph.round"


@graph_op_definition
class FloorOp(ElementwiseUnaryOp):
    name = "graph.floor"


@graph_op_definition
class CeilOp(ElementwiseUnaryOp):
    name = "graph.ceil"


@graph_op_definition
class SqrtOp(ElementwiseUnaryOp):
    name = "graph.sqrt"


@graph_op_definition
class RsqrtOp(ElementwiseUnaryOp):
    name = "graph.rsqrt"


@graph_op_definition
class RecipOp(ElementwiseUnaryOp):
    name = "graph.recip"


@graph_op_definition
class SinOp(ElementwiseUnaryOp):
    name = "graph.sin"


@graph_op_definition
class CosOp(ElementwiseUnaryOp):
    name = "graph.cos"


@graph_op_definition
class TanhOp(ElementwiseUnaryOp):
    name = "graph.tanh"


@graph_op_definition
class SigmoidOp(ElementwiseUnaryOp):
    name = "graph.sigmoid"


@graph_op_definition
class ErfOp(ElementwiseUnaryOp):
    name = "graph.erf"


@graph_op_definition
class GreaterOp(CompareOp):
    name = "graph.greater"


@graph_op_definition
class EqualOp(CompareOp):
    name = "graph.equal"


@graph_op_definition
class LessOp(CompareOp):
    name = "graph.less"


@graph_op_definition
class WhereOp(GraphOp):
    """`%r = graph.where %cond, %lhs, %rhs : tensor<..xi1>, T` — cond ? lhs : rhs."""

    name = "graph.where"
    T: ClassVar = VarConstraint("T", base(TensorType))
    cond = operand_def(TensorType)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($result)"

    def __init__(self, cond: SSAValue, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[cond, lhs, rhs], result_types=[SSAValue.get(lhs).type])

    def verify_semantics(self) -> None:
        if element_of(self.cond) != i1:
            fail(self, f"condition must have element type i1, got {self.cond.type}")
        if self.lhs.type != self.rhs.type or self.lhs.type != self.result.type:
            fail(self, "value operands and result must have identical types, got "
                 f"{self.lhs.type}, {self.rhs.type} -> {self.result.type}")
        if shape_of(self.cond) != shape_of(self.lhs):
            fail(self, f"condition shape {list(shape_of(self.cond))} must equal the value shape "
                 f"{list(shape_of(self.lhs))} (no implicit broadcasting)")


@graph_op_definition
class ConvertOp(GraphOp):
    """`%r = graph.convert %a : tensor<4xf32> -> tensor<4xf16>` — element type cast."""

    name = "graph.convert"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"

    def __init__(self, input: SSAValue, to: Attribute):
        """`to` is either the result tensor type or just its element type."""
        if not isinstance(to, TensorType):
            to = tensor(shape_of(SSAValue.get(input)), to)
        super().__init__(operands=[input], result_types=[to])

    def verify_semantics(self) -> None:
        if shape_of(self.input) != shape_of(self.result):
            fail(self, f"operand shape {list(shape_of(self.input))} and result shape "
                 f"{list(shape_of(self.result))} must be equal")


BINARY_OPS = (AddOp, SubOp, MulOp, DivOp, RemOp, MaxOp, MinOp, PowOp)
UNARY_OPS = (NegOp, AbsOp, ExpOp, Exp2Op, Expm1Op, LogOp, Log1pOp, RoundOp, FloorOp, CeilOp, SqrtOp, RsqrtOp, RecipOp, SinOp, CosOp,
             TanhOp, SigmoidOp, ReluOp, ErfOp)
COMPARE_OPS = (GreaterOp, EqualOp, LessOp)
