"""MLIR's wording for an operand or result of the wrong type.

xDSL reports a type that fails an op's operand constraint as `Unexpected attribute f32`; MLIR
says `'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'`. `explain`
finds the first operand (then result) whose constraint rejects the type and words it MLIR's
way; the constraint's description follows MLIR's type-constraint summaries where one applies
(signless-integer-like, floating-point-like, ...), else lists the accepted kinds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerType, TensorType, VectorType
from xdsl.ir import Attribute
from xdsl.irdl.constraints import VerificationContext
from xdsl.irdl.constraints import AnyOf, BaseAttr, ParamAttrConstraint

UNEXPECTED = re.compile(r"^Unexpected attribute (.+)$")
# xDSL's verifier: "operand 'lhs' at position 0 does not verify:" (details on the next lines)
NOT_VERIFIED = re.compile(r"^(?:'[^']+' op )?(operand|result) '[^']*' at position \d+ does not verify")


def _element_constraint(constr):
    """The per-value constraint inside xDSL's range/variable wrappers."""
    for _ in range(8):
        inner = getattr(constr, "constraint", None) or getattr(constr, "constr", None)
        if inner is None or isinstance(constr, (AnyOf, BaseAttr, ParamAttrConstraint)):
            return constr
        constr = inner
    return constr


def _bases(constr) -> list[type] | None:
    """Attribute classes a constraint accepts at top level (containers as their class)."""
    constr = _element_constraint(constr)
    if isinstance(constr, BaseAttr):
        return [constr.attr]
    if isinstance(constr, ParamAttrConstraint):
        return [constr.base_attr]
    if isinstance(constr, AnyOf):
        found: list[type] = []
        for option in constr.attr_constrs:
            bases = _bases(option)
            if bases is None:
                return None
            found += bases
        return found
    return None


def _is_float_class(cls: type) -> bool:
    return "Float" in cls.__name__  # Float16Type, Float32Type, BFloat16Type, ...


def describe_constraint(constr) -> str | None:
    """MLIR's summary of a type constraint, e.g. `signless-integer-like`."""
    bases = _bases(constr)
    if not bases:
        return None
    scalars = [b for b in bases if b not in (VectorType, TensorType)]
    containers = len(scalars) != len(bases)
    suffix = "-like" if containers else ""
    if scalars and all(b in (IntegerType, IndexType) for b in scalars):
        return "signless-integer" + suffix if IndexType in scalars or containers else "integer"
    if scalars and all(_is_float_class(b) for b in scalars):
        return "floating-point" + suffix
    names = sorted({getattr(b, "name", b.__name__) for b in bases})
    return "one of " + ", ".join(names)


def _rejects(constr, attr: Attribute) -> bool:
    try:
        _element_constraint(constr).verify(attr, VerificationContext())
    except Exception:  # noqa: BLE001 - any failure means "rejected"
        return True
    return False


def explain_types(
    op_name: str, op_def, operand_types: Sequence[Attribute] | None,
    result_types: Sequence[Attribute] | None, bad: Attribute | None = None,
) -> str | None:
    """`'NAME' op operand #I must be KIND, but got 'TYPE'` for the first value whose constraint
    rejects its type (with `bad` only: the first operand/result def that rejects `bad`)."""
    for kind, defs, types in (("operand", op_def.operands, operand_types),
                              ("result", op_def.results, result_types)):
        for index, (_, value_def) in enumerate(defs):
            if types is not None:
                if len(types) != len(defs) or index >= len(types):
                    break
                candidate = types[index]
            elif bad is not None:
                candidate = bad
            else:
                continue
            if _rejects(value_def.constr, candidate):
                what = describe_constraint(value_def.constr)
                if what is None:
                    return None
                return f"'{op_name}' op {kind} #{index} must be {what}, but got '{candidate}'"
    return None


def explain_op(op, message: str) -> str | None:
    """A better message for a verified op whose xDSL message is `Unexpected attribute ...`."""
    first = message.strip().split("\n")[0]
    if not (UNEXPECTED.match(first) or NOT_VERIFIED.match(first)):
        return None
    try:
        op_def = type(op).get_irdl_definition()
    except Exception:  # noqa: BLE001 - not an IRDL op
        return None
    return explain_types(op.name, op_def, [v.type for v in op.operands], [r.type for r in op.results])


def explain_parse_failure(op_type, message: str, ctx, op_text: str = "") -> str | None:
    """At parse time only the rejected type's text is known (`Unexpected attribute f32`, the
    element type when the value is a tensor); `op_text`, the op's source so far, supplies the
    whole type written after its last `:` when that type contains the rejected one."""
    match = UNEXPECTED.match(message.strip())
    if not match or op_type is None:
        return None
    from xdsl.parser import Parser

    try:
        bad = Parser(ctx, match.group(1)).parse_attribute()
        op_def = op_type.get_irdl_definition()
    except Exception:  # noqa: BLE001 - give up: keep xDSL's message
        return None
    written = op_text.rsplit(":", 1)[-1].strip() if ":" in op_text else ""
    if written and match.group(1) in written:
        try:
            bad = Parser(ctx, written).parse_attribute()
        except Exception:  # noqa: BLE001 - keep the element type
            pass
    return explain_types(op_type.name, op_def, None, None, bad)
