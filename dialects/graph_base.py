"""Shared pieces of the `graph` dialect: element-type sets, shape helpers, base classes.

Verification is split in two on purpose: IRDL checks the *structure* (operand counts, that
types are tensors, property kinds) and every op adds `verify_semantics` with messages written
for users ("graph.add: operand shapes must be identical ..."). `graph_op_definition` runs the
semantic check *before* IRDL's variable-constraint check whenever the structure is sound, because
IRDL's message for a shape mismatch ("expected from variable 'T'") does not say what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    VarOperandDef,
    VerificationContext,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)
INT_WIDTHS = (32, 64)
ELEMENT_TYPES_TEXT = "f16, bf16, f32, f64, i1, i32, i64"

I64ArrayConstr = DenseArrayBase.constr(i64)


def is_float(t: Attribute) -> bool:
    return isinstance(t, FLOAT_TYPES)


def is_int(t: Attribute) -> bool:
    """i32 / i64 (signless integers used as signed, like MLIR's `arith.*si` ops)."""
    return isinstance(t, IntegerType) and t.width.data in INT_WIDTHS


def is_bool(t: Attribute) -> bool:
    return t == i1


def is_supported_element(t: Attribute) -> bool:
    return is_float(t) or is_int(t) or is_bool(t)


def shape_of(value: SSAValue | Attribute) -> tuple[int, ...]:
    t = value.type if isinstance(value, SSAValue) else value
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def element_of(value: SSAValue | Attribute) -> Attribute:
    t = value.type if isinstance(value, SSAValue) else value
    assert isinstance(t, TensorType)
    return t.get_element_type()


def tensor(shape: Sequence[int], element: Attribute) -> TensorType:
    return TensorType(element, list(shape))


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(int(value), i64)


def fail(op: IRDLOperation, message: str) -> None:
    """Raise a verifier error; the driver prefixes it with `file:line:col: error: '<op>' op`."""
    raise VerifyException(message)


def check_static(op: IRDLOperation, t: Attribute, what: str) -> None:
    assert isinstance(t, TensorType)
    if any(d < 0 for d in t.get_shape()):
        fail(op, f"{what} must have a static shape, got {t}")
    if not is_supported_element(t.get_element_type()):
        fail(op, f"{what} element type must be one of {ELEMENT_TYPES_TEXT}, got {t.get_element_type()}")


def check_axes_in_range(op: IRDLOperation, name: str, axes: Sequence[int], rank: int) -> None:
    for a in axes:
        if not 0 <= a < rank:
            fail(op, f"{name} entry {a} is out of range for rank {rank}")
    if len(set(axes)) != len(axes):
        fail(op, f"{name} {list(axes)} contains duplicates")


def check_result_shape(op: IRDLOperation, expected: Sequence[int]) -> None:
    actual = shape_of(op.results[0])
    if tuple(actual) != tuple(expected):
        fail(op, f"result shape {list(actual)} does not match the expected shape {list(expected)}")


def check_result_element(op: IRDLOperation, expected: Attribute) -> None:
    actual = element_of(op.results[0])
    if actual != expected:
        fail(op, f"result element type {actual} must be {expected}")


def _structure_is_sound(op: IRDLOperation) -> bool:
    """Counts, tensor types and property kinds match the definition (so accessors are safe)."""
    op_def = type(op).get_irdl_definition()
    variadic = any(isinstance(d, VarOperandDef) for _, d in op_def.operands)
    if not variadic and len(op.operands) != len(op_def.operands):
        return False
    if len(op.results) != len(op_def.results):
        return False
    if not all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        return False
    for name, prop in op_def.properties.items():
        if name not in op.properties:
            return False
        try:
            prop.constr.verify(op.properties[name], VerificationContext())
        except VerifyException:
            return False
    return True


def graph_op_definition(cls):
    """`irdl_op_definition` whose verifier gives the op's own message first (see module doc)."""
    cls = irdl_op_definition(cls)
    op_def = cls.get_irdl_definition()

    def verify_(self: IRDLOperation) -> None:
        if _structure_is_sound(self):
            for i, v in enumerate(self.operands):
                check_static(self, v.type, f"operand {i}")
            check_static(self, self.results[0].type, "the result")
            self.verify_semantics()
        op_def.verify(self)

    cls.verify_ = verify_
    return cls


# Who supplies the graph ops' canonicalization patterns: installed by whoever assembles the
# compiler (`fusionopt.registry` installs the graph passes' patterns), so the dialect never
# imports the transforms that rewrite it (MLIR keeps the patterns with the dialect; here they
# live with the passes that share them, and the dependency points one way).
_canonicalization_provider: Callable[[type[Operation]], tuple[RewritePattern, ...]] | None = None


def set_canonicalization_provider(provider: Callable[[type[Operation]], tuple[RewritePattern, ...]]) -> None:
    global _canonicalization_provider
    _canonicalization_provider = provider


class GraphCanonicalization(HasCanonicalizationPatternsTrait):
    """Hooks graph ops into upstream `canonicalize` through the installed provider (none
    installed: no patterns, as for an op without canonicalizers)."""

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        return _canonicalization_provider(op) if _canonicalization_provider is not None else ()

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()


class GraphOp(IRDLOperation):
    """Common parent of every graph op: one `result`, no side effects."""

    def verify_semantics(self) -> None:  # overridden per op
        pass


def _check_element_kind(op: IRDLOperation, allowed: str) -> None:
    element = element_of(op.results[0])
    ok = {"float": is_float(element), "numeric": is_float(element) or is_int(element),
          "any": True}[allowed]
    if not ok:
        kind = "a float type (f16, bf16, f32, f64)" if allowed == "float" else "a float or i32/i64"
        fail(op, f"element type must be {kind}, got {element}")


class ElementwiseBinaryOp(GraphOp):
    """`%r = graph.<op> %lhs, %rhs : T` — identical shapes, no implicit broadcasting."""

    T: ClassVar = VarConstraint("T", base(TensorType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure(), GraphCanonicalization())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"
    ELEMENT_KIND: ClassVar[str] = "numeric"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[SSAValue.get(lhs).type])

    def verify_semantics(self) -> None:
        lt, rt, res = self.lhs.type, self.rhs.type, self.result.type
        if lt != rt or lt != res:
            fail(self, "operand and result types must be identical (no implicit broadcasting), "
                 f"got {lt}, {rt} -> {res}")
        _check_element_kind(self, self.ELEMENT_KIND)


class ElementwiseUnaryOp(GraphOp):
    """`%r = graph.<op> %input : T`."""

    T: ClassVar = VarConstraint("T", base(TensorType))
    input = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($result)"
    ELEMENT_KIND: ClassVar[str] = "float"

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[SSAValue.get(input).type])

    def verify_semantics(self) -> None:
        if self.input.type != self.result.type:
            fail(self, f"operand and result types must be identical, got {self.input.type} -> "
                 f"{self.result.type}")
        _check_element_kind(self, self.ELEMENT_KIND)


class CompareOp(GraphOp):
    """`%m = graph.<cmp> %lhs, %rhs : T -> tensor<...xi1>`."""

    T: ClassVar = VarConstraint("T", base(TensorType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        shape = shape_of(SSAValue.get(lhs))
        super().__init__(operands=[lhs, rhs], result_types=[tensor(shape, i1)])

    def verify_semantics(self) -> None:
        if self.lhs.type != self.rhs.type:
            fail(self, f"operand types must be identical, got {self.lhs.type} and {self.rhs.type}")
        check_result_shape(self, shape_of(self.lhs))
        check_result_element(self, i1)


class ReduceOp(GraphOp):
    """`%r = graph.reduce_<kind> %input axes = [..] : T -> T'` — reduced dims are kept as 1."""

    input = operand_def(TensorType)
    axes = prop_def(I64ArrayConstr)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$input `axes` `=` $axes attr-dict `:` type($input) `->` type($result)"

    def __init__(self, input: SSAValue, axes: Sequence[int]):
        in_type = SSAValue.get(input).type
        shape = [1 if i in set(axes) else d for i, d in enumerate(shape_of(in_type))]
        super().__init__(operands=[input], properties={"axes": i64_array(axes)},
                         result_types=[tensor(shape, element_of(in_type))])

    @property
    def axes_values(self) -> tuple[int, ...]:
        return self.axes.get_values()

    def verify_semantics(self) -> None:
        shape = shape_of(self.input)
        check_axes_in_range(self, "axes", self.axes_values, len(shape))
        check_result_element(self, element_of(self.input))
        if not (is_float(element_of(self.input)) or is_int(element_of(self.input))):
            fail(self, f"element type must be a float or i32/i64, got {element_of(self.input)}")
        check_result_shape(self, [1 if i in self.axes_values else d for i, d in enumerate(shape)])

