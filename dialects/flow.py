"""The `flow` dialect: IREE's dispatch-region and tensor data-movement ops, text-compatible.

Fusion results are expressed as `flow.dispatch.region`s so `iree-opt` can read what we print and
we can read IREE's own flow IR. Custom and generic forms follow IREE 3.13 exactly, including
the operand segments IREE uses for dynamic dimensions (`source_dims`, `result_dims`, ...), a
region's workload `[...]`, its results' dynamic dims `tensor<?xf32>{%d}` and its `count(...)`
workgroup-count region (whose ops are in iree_tensor_ext.py; flow.tensor.constant is in
flow_constant.py).

    %r:2 = flow.dispatch.region -> (tensor<4x8xf32>, tensor<32xf32>) {
      ...
      flow.return %a, %b : tensor<4x8xf32>, tensor<32xf32>
    }
    %s = flow.tensor.slice %src[%c0, %c1 for %c2, %c3] : tensor<4x8xf32> -> tensor<2x3xf32>
    %u = flow.tensor.update %upd, %dst[%c0, %c1] : tensor<2x3xf32> -> %dst as tensor<4x8xf32>
    %t = flow.tensor.reshape %u : tensor<4x8xf32> -> tensor<32xf32>
    %p = flow.tensor.splat %v : tensor<4x8xf32>
    %e = flow.tensor.empty : tensor<4x8xf32>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import IndexType, TensorType
from xdsl.ir import Attribute, Dialect, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.dynamic_dims import dynamic_count, parse_optional_dims, print_typed
from fusionopt.dialects.flow_constant import FLOW_ATTRIBUTES, FLOW_EXTRA_OPS
from fusionopt.dialects.flow_workgroups import FLOW_WORKGROUPS_OPS, DispatchWorkgroupsOp, parse_count_region, parse_optional_workload, print_count_region

_SEGMENTS = (AttrSizedOperandSegments(as_property=True),)


def _num_elements(tensor_type: Attribute) -> int:
    assert isinstance(tensor_type, TensorType)
    return tensor_type.element_count()


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`flow.return`: yields a dispatch region's results (nothing in a `flow.dispatch.workgroups`
    body, whose results are stored to bindings; the workgroup count in a `count` region)."""

    name = "flow.return"
    values = var_operand_def()
    assembly_format = "attr-dict ($values^ `:` type($values))?"
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(DispatchRegionOp, DispatchWorkgroupsOp), Pure()))

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


@irdl_op_definition
class DispatchRegionOp(IRDLOperation):
    """`flow.dispatch.region`: one future kernel; its body may capture values from above."""

    name = "flow.dispatch.region"
    result_dims = var_operand_def(IndexType)
    workload = var_operand_def(IndexType)
    result = var_result_def(TensorType)
    body = region_def("single_block")
    workgroup_count = region_def()
    irdl_options = _SEGMENTS
    traits = traits_def(SingleBlockImplicitTerminator(ReturnOp))

    def __init__(
        self,
        result_types: Sequence[Attribute],
        body: Region,
        result_dims: Sequence[SSAValue] = (),
        workload: Sequence[SSAValue] = (),
        workgroup_count: Region | None = None,
    ):
        super().__init__(
            operands=[result_dims, workload],
            result_types=[result_types],
            regions=[body, workgroup_count or Region()],
        )

    @property
    def terminator(self) -> ReturnOp:
        last = self.body.block.last_op
        assert isinstance(last, ReturnOp)
        return last

    # IREE's form: `[workload]` (optional), result types each with `{dims}` for its dynamic
    # dimensions, attributes, the body, then an optional `count(%b: index) -> (...) {...}`.
    def print(self, printer: Printer) -> None:
        if self.workload:
            printer.print_string("[")
            printer.print_list(self.workload, printer.print_operand)
            printer.print_string("]")
        printer.print_string(" -> (")
        dims = iter(self.result_dims)
        printer.print_list(self.result_types, lambda t: _print_shaped_type(printer, t, dims))
        printer.print_string(")")
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body)
        if self.workgroup_count.blocks:
            print_count_region(printer, self.workgroup_count)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        workload = parse_optional_workload(parser)
        parser.parse_punctuation("->")
        typed = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: _parse_shaped_type(parser))
        attributes = parser.parse_optional_attr_dict_with_keyword()
        start = parser._current_token.span.start
        body = parser.parse_region()
        if len(body.blocks) != 1:  # `body.block` below would raise ValueError
            parser.raise_error(f"'{cls.name}' op expects a region with one block, got {len(body.blocks)}", start,
                               start + 1)
        if body.block.last_op is None or not isinstance(body.block.last_op, ReturnOp):
            body.block.add_op(ReturnOp())
        count = parse_count_region(parser)
        op = cls([t for t, _ in typed], body, [d for _, ds in typed for d in ds], workload, count)
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def verify_(self) -> None:
        dynamic = sum(dynamic_count(t) for t in self.result_types)
        if len(self.result_dims) != dynamic:
            raise VerifyException(f"{len(self.result_dims)} result dims given for {dynamic} dynamic result dimensions")
        returned = tuple(v.type for v in self.terminator.values)
        if returned != tuple(self.result_types):
            raise VerifyException(
                "flow.return types must match the flow.dispatch.region result types"
            )


def _print_shaped_type(printer: Printer, t: Attribute, dims) -> None:
    print_typed(printer, t, [next(dims) for _ in range(dynamic_count(t))])


def _parse_shaped_type(parser: Parser) -> tuple[Attribute, list[SSAValue]]:
    """`type` or `type{%d0, %d1}` (the values of its dynamic dimensions)."""
    return parser.parse_type(), parse_optional_dims(parser)


@irdl_op_definition
class TensorSliceOp(IRDLOperation):
    """`flow.tensor.slice`: the sub-tensor at `start_indices` with sizes `lengths`."""

    name = "flow.tensor.slice"
    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)
    irdl_options = _SEGMENTS
    assembly_format = (
        "$source `[` $start_indices `for` $lengths `]` `:` type($source)"
        " (`{` $source_dims^ `}`)? `->` type($result) (`{` $result_dims^ `}`)?"
        " attr-dict-with-keyword"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        start_indices: Sequence[SSAValue],
        lengths: Sequence[SSAValue],
        result_type: Attribute,
    ):
        super().__init__(
            operands=[source, [], start_indices, lengths, []], result_types=[result_type]
        )

    def verify_(self) -> None:
        rank = len(self.source.type.get_shape())
        if len(self.start_indices) != rank or len(self.lengths) != rank:
            raise VerifyException(f"expected {rank} start indices and lengths")


@irdl_op_definition
class TensorUpdateOp(IRDLOperation):
    """`flow.tensor.update`: `target` with `update` written at `start_indices` (tied result)."""

    name = "flow.tensor.update"
    target = operand_def(TensorType)
    target_dims = var_operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    update = operand_def(TensorType)
    update_dims = var_operand_def(IndexType)
    result = result_def(TensorType)
    irdl_options = _SEGMENTS
    traits = traits_def(Pure())

    def __init__(self, update: SSAValue, target: SSAValue, start_indices: Sequence[SSAValue]):
        super().__init__(
            operands=[target, [], start_indices, update, []], result_types=[target.type]
        )

    def verify_(self) -> None:
        rank = len(self.target.type.get_shape())
        if len(self.start_indices) != rank:
            raise VerifyException(f"expected {rank} start indices")
        if self.result.type != self.target.type:
            raise VerifyException("result type must equal the target type")
        if self.update.type.get_element_type() != self.target.type.get_element_type():
            raise VerifyException("update and target element types differ")

    # IREE prints the tied result as `-> %target as type`, which the declarative format cannot
    # express (an operand used twice), hence custom parse/print.
    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.update)
        printer.print_string(", ")
        printer.print_ssa_value(self.target)
        printer.print_string("[")
        printer.print_list(self.start_indices, printer.print_ssa_value)
        printer.print_string("] : ")
        printer.print_attribute(self.update.type)
        printer.print_string(" -> ")
        printer.print_ssa_value(self.target)
        printer.print_string(" as ")
        printer.print_attribute(self.result.type)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        update_name = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target_name = parser.parse_unresolved_operand()
        index_names = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        update_type = parser.parse_type()
        parser.parse_punctuation("->")
        tied_pos = parser.pos
        tied_name = parser.parse_unresolved_operand()
        tied, target = (tied_name.operand_name, tied_name.index), (
            target_name.operand_name,
            target_name.index,
        )
        if tied != target:
            parser.raise_error("the result must be tied to the target operand", tied_pos)
        parser.parse_keyword("as")
        result_type = parser.parse_type()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(
            parser.resolve_operand(update_name, update_type),
            parser.resolve_operand(target_name, result_type),
            [parser.resolve_operand(n, IndexType()) for n in index_names],
        )
        if attributes is not None:
            op.attributes |= attributes.data
        return op


@irdl_op_definition
class TensorReshapeOp(IRDLOperation):
    """`flow.tensor.reshape`: the same elements in a new (static) shape."""

    name = "flow.tensor.reshape"
    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)
    irdl_options = _SEGMENTS
    assembly_format = (
        "$source `:` type($source) (`{` $source_dims^ `}`)? `->` type($result)"
        " (`{` $result_dims^ `}`)? attr-dict-with-keyword"
    )
    traits = traits_def(Pure())

    def __init__(self, source: SSAValue, result_type: Attribute):
        super().__init__(operands=[source, [], []], result_types=[result_type])

    def verify_(self) -> None:
        for t, dims, what in ((self.source.type, self.source_dims, "source"), (self.result.type, self.result_dims, "result")):
            dynamic = sum(1 for d in t.get_shape() if d < 0)
            if len(dims) != dynamic:
                raise VerifyException(f"{len(dims)} {what} dims for {dynamic} dynamic dimensions of {t}")
        static = all(d >= 0 for t in (self.source.type, self.result.type) for d in t.get_shape())
        if static and _num_elements(self.source.type) != _num_elements(self.result.type):
            raise VerifyException("reshape must preserve the number of elements")


@irdl_op_definition
class TensorSplatOp(IRDLOperation):
    """`flow.tensor.splat`: a tensor with every element equal to the scalar `value`."""

    name = "flow.tensor.splat"
    value = operand_def()
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    # The value's type is the result's element type, which the declarative format cannot infer.
    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value_name = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        pos = parser.pos
        result_type = parser.parse_type()
        if not isinstance(result_type, TensorType):
            parser.raise_error("expected a tensor type", pos, parser.pos)
        value = parser.resolve_operand(value_name, result_type.get_element_type())
        op = cls(value, result_type)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def __init__(self, value: SSAValue, result_type: Attribute):
        super().__init__(operands=[value, []], result_types=[result_type])

    def verify_(self) -> None:
        if self.value.type != self.result.type.get_element_type():
            raise VerifyException("splat value type must be the result element type")


@irdl_op_definition
class TensorEmptyOp(IRDLOperation):
    """`flow.tensor.empty`: a tensor with undefined contents, allocated per call.

    Unlike a top-level `tensor.empty`, which IREE 3.13 hoists into a global that every call
    then copies (its own transfer command buffer), this is a fresh transient buffer."""

    name = "flow.tensor.empty"
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)
    assembly_format = "`:` type($result) (`{` $result_dims^ `}`)? attr-dict-with-keyword"
    traits = traits_def(Pure())

    def __init__(self, result_type: Attribute, result_dims: Sequence[SSAValue] = ()):
        super().__init__(operands=[list(result_dims)], result_types=[result_type])

    def verify_(self) -> None:
        dynamic = sum(1 for d in self.result.type.get_shape() if d < 0)
        if len(self.result_dims) != dynamic:
            raise VerifyException(f"{len(self.result_dims)} result dims for {dynamic} dynamic dimensions")


Flow = Dialect(
    "flow",
    [
        DispatchRegionOp, ReturnOp, TensorSliceOp, TensorUpdateOp, TensorReshapeOp, TensorSplatOp, TensorEmptyOp,
        *FLOW_EXTRA_OPS, *FLOW_WORKGROUPS_OPS,
    ],
    FLOW_ATTRIBUTES,
)
