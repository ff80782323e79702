"""Small builders shared by the `convert-graph-to-linalg` patterns.

`BodyBuilder` appends scalar ops to a `linalg.generic` body; `build_generic` assembles a
generic from inputs, affine maps and a body callback; `zero_filled` makes the zero `linalg.fill`
init that contractions and sums accumulate into.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    Float16Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap

from fusionopt.dialects.linalg import GenericOp


class BodyBuilder:
    """Appends ops to a block; `add` returns the op's (single) result."""

    def __init__(self, block: Block):
        self.block = block

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def constant(self, value: float | int, element: Attribute) -> SSAValue:
        return self.add(arith.ConstantOp(scalar_attr(value, element)))


def scalar_attr(value: float | int, element: Attribute) -> Attribute:
    if isinstance(element, IndexType):
        return IntegerAttr(int(value), element)
    if isinstance(element, IntegerType):
        if element.width.data == 1:
            return IntegerAttr(int(bool(value)), element)
        return IntegerAttr(int(value), element)
    return FloatAttr(float(value), element)  # type: ignore[arg-type]


def is_low_precision_float(element: Attribute) -> bool:
    return isinstance(element, (Float16Type, BFloat16Type))


def compute_type(element: Attribute) -> Attribute:
    """f16/bf16 compute in f32 and round once (the graph dialect's numeric rule)."""
    return f32 if is_low_precision_float(element) else element


def tensor_type(value: SSAValue) -> TensorType:
    assert isinstance(value.type, TensorType)
    return value.type


def build_generic(
    inputs: Sequence[SSAValue],
    input_maps: Sequence[AffineMap],
    init: SSAValue,
    output_map: AffineMap,
    iterators: Sequence[str],
    body: Callable[[BodyBuilder, Sequence[SSAValue]], SSAValue],
) -> GenericOp:
    """A one-result `linalg.generic`; `body(builder, [*input args, out arg])` yields the value."""
    out_type = tensor_type(init)
    block = Block(arg_types=[tensor_type(v).element_type for v in inputs] + [out_type.element_type])
    builder = BodyBuilder(block)
    block.add_op(YieldOp(body(builder, block.args)))
    return GenericOp(
        inputs=list(inputs),
        outputs=[init],
        body=Region(block),
        indexing_maps=[AffineMapAttr(m) for m in (*input_maps, output_map)],
        iterator_types=[IteratorTypeAttr(IteratorType(name)) for name in iterators],
        result_types=[out_type],
    )


def empty(shape: Sequence[int], element: Attribute) -> tensor.EmptyOp:
    return tensor.EmptyOp([], TensorType(element, list(shape)))


def filled(shape: Sequence[int], element: Attribute, value: float | int) -> list[Operation]:
    """`tensor.empty` + `linalg.fill` with `value`: the init of a contraction or reduction."""
    init = empty(shape, element)
    scalar = arith.ConstantOp(scalar_attr(value, element))
    fill = FillOp([scalar.result], [init.tensor], [init.tensor.type])
    return [init, scalar, fill]


def identity(rank: int) -> AffineMap:
    return AffineMap.identity(rank)
