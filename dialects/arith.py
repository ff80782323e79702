"""The `arith` dialect fusionopt parses: xDSL 0.74's ops, with the casts made shape-aware and
the upstream ops it lacks added, in MLIR's syntax.

- Casts (`extf`, `truncf`, `extsi`, `extui`, `trunci`, `sitofp`, `uitofp`, `fptosi`, `fptoui`,
  `index_cast`) take tensors and vectors as MLIR does (`arith.sitofp %t : tensor<4xi32> to
  tensor<4xf32>`): xDSL accepts scalars only. They are plain subclasses of xDSL's classes (same
  name and syntax, `isinstance` still holds) whose verifier checks the element kinds, widths
  and that both sides have the same shape.
- `arith.cmpi` / `arith.cmpf` on tensors and vectors give i1 of the operands' shape (xDSL's
  result is always a scalar i1).
- Added: `arith.remf` (the remainder of a float division, sign of the dividend, C's fmod) and
  `arith.index_castui` (index casts that zero-extend).
"""

from __future__ import annotations

from xdsl.dialects import arith as xdsl_arith
from xdsl.dialects.arith import FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerAttr, IntegerType, ShapedType, TensorType, VectorType
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.subclass_verify import verify_counts

_INT, _FLOAT, _INDEX = "integer", "float", "index"


def _kind(t: Attribute) -> str | None:
    if isinstance(t, IndexType):
        return _INDEX
    if isinstance(t, IntegerType):
        return _INT
    return _FLOAT if isinstance(t, AnyFloat) else None


def _element(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, ShapedType) else t


def _check_shapes(op: IRDLOperation, source: Attribute, result: Attribute) -> None:
    same_kind = type(source) is type(result) or not (isinstance(source, ShapedType) or isinstance(result, ShapedType))
    if not same_kind or (isinstance(source, ShapedType) and source.get_shape() != result.get_shape()):
        raise VerifyException(f"'{op.name}' op operand type {source} and result type {result} are not cast compatible")


# op -> (source kinds, result kinds, width rule: "grow", "shrink" or None)
_CASTS = {
    xdsl_arith.ExtFOp: ({_FLOAT}, {_FLOAT}, "grow"), xdsl_arith.TruncFOp: ({_FLOAT}, {_FLOAT}, "shrink"),
    xdsl_arith.ExtSIOp: ({_INT}, {_INT}, "grow"), xdsl_arith.ExtUIOp: ({_INT}, {_INT}, "grow"),
    xdsl_arith.TruncIOp: ({_INT}, {_INT}, "shrink"),
    xdsl_arith.SIToFPOp: ({_INT}, {_FLOAT}, None), xdsl_arith.UIToFPOp: ({_INT}, {_FLOAT}, None),
    xdsl_arith.FPToSIOp: ({_FLOAT}, {_INT}, None), xdsl_arith.FPToUIOp: ({_FLOAT}, {_INT}, None),
    xdsl_arith.IndexCastOp: ({_INT, _INDEX}, {_INT, _INDEX}, None),
}


def _width(t: Attribute) -> int:
    return t.bitwidth if isinstance(t, AnyFloat) else t.width.data


def _verify_cast(op: IRDLOperation, rule: tuple[set[str], set[str], str | None]) -> None:
    verify_counts(op, 1, 1)  # the definition's own check would reject tensor operands
    sources, results, widths = rule
    source, result = op.operands[0].type, op.results[0].type
    _check_shapes(op, source, result)
    src, res = _element(source), _element(result)
    if _kind(src) not in sources or _kind(res) not in results:
        raise VerifyException(f"'{op.name}' op cannot cast {source} to {result}")
    if _INDEX in sources and (_kind(src) == _INDEX) == (_kind(res) == _INDEX):
        raise VerifyException(f"'{op.name}' op casts between index and an integer type, not {source} to {result}")
    if widths == "grow" and not _width(res) > _width(src):
        raise VerifyException(f"'{op.name}' op result type {res} must be wider than operand type {src}")
    if widths == "shrink" and not _width(res) < _width(src):
        raise VerifyException(f"'{op.name}' op result type {res} must be narrower than operand type {src}")


def _parse_cast(cls, parser: Parser) -> IRDLOperation:
    """`%x attr-dict : T to U`, parsed without xDSL's scalar-only operand constraints (the
    declarative parser checks them; `_verify_cast` checks MLIR's rules instead)."""
    operand = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    source = parser.parse_type()
    parser.parse_keyword("to")
    result = parser.parse_type()
    return cls.create(operands=[parser.resolve_operand(operand, source)], result_types=[result], attributes=attrs)


def _shape_aware(op: type[IRDLOperation], rule) -> type[IRDLOperation]:
    body = {"verify_": lambda self: _verify_cast(self, rule), "parse": classmethod(_parse_cast),
            "__module__": __name__, "__doc__": op.__doc__}
    return type(op.__name__, (op,), body)


CASTS = {op: _shape_aware(op, rule) for op, rule in _CASTS.items()}


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    name = "arith.remf"
    traits = traits_def(Pure())


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`arith.index_castui`: like index_cast, but narrower integers are zero-extended."""

    name = "arith.index_castui"
    input = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def verify_(self) -> None:
        _verify_cast(self, ({_INT, _INDEX}, {_INT, _INDEX}, None))




def i1_like(t: Attribute) -> Attribute:
    """The comparison result for operands of type `t`: i1, or i1 in the same shaped container."""
    i1 = IntegerType(1)
    if isinstance(t, TensorType):
        return TensorType(i1, t.get_shape())
    if isinstance(t, VectorType):
        return VectorType(i1, t.get_shape(), t.scalable_dims)
    return i1


def _shaped_compare(base: type[IRDLOperation], operands_constr: object, **extra: object) -> type[IRDLOperation]:
    """`base` (xDSL's cmpi/cmpf, whose result is always a scalar i1) with MLIR's result type:
    i1 shaped like the operands (`arith.cmpi slt, %a, %b : tensor<8xi64>` gives
    tensor<8xi1>). A subclass, so `isinstance(op, xdsl CmpiOp)` still holds."""

    def __init__(self, operand1, operand2, *args):
        probe = base(operand1, operand2, *args)  # xDSL's own predicate (and fastmath) handling
        props, attrs = dict(probe.properties), dict(probe.attributes)
        probe.drop_all_references()
        lhs, rhs = SSAValue.get(operand1), SSAValue.get(operand2)
        IRDLOperation.__init__(
            self, operands=[lhs, rhs], result_types=[i1_like(lhs.type)], properties=props, attributes=attrs
        )

    def verify_(self) -> None:
        expected = i1_like(self.lhs.type)
        if self.result.type != expected:
            raise VerifyException(f"'{self.name}' op result type must be {expected}, got {self.result.type}")

    body = {
        "name": base.name,
        "predicate": prop_def(IntegerAttr),
        "lhs": operand_def(operands_constr),
        "rhs": operand_def(operands_constr),
        "result": result_def(),
        "traits": traits_def(Pure()),
        **extra,
        "__init__": __init__,
        "verify_": verify_,
        "__module__": __name__,
        "__doc__": base.__doc__,
    }
    return irdl_op_definition(type(base.__name__, (base,), body))


CmpiOp = _shaped_compare(xdsl_arith.CmpiOp, xdsl_arith.signlessIntegerLike)
CmpfOp = _shaped_compare(
    xdsl_arith.CmpfOp, xdsl_arith.floatingPointLike,
    fastmath=prop_def(xdsl_arith.FastMathFlagsAttr, default_value=xdsl_arith.FastMathFlagsAttr("none")),
)

_COMPARES = {xdsl_arith.CmpiOp: CmpiOp, xdsl_arith.CmpfOp: CmpfOp}

Arith = Dialect(
    "arith",
    [CASTS.get(op, _COMPARES.get(op, op)) for op in xdsl_arith.Arith.operations] + [RemFOp, IndexCastUIOp],
    list(xdsl_arith.Arith.attributes),
)
