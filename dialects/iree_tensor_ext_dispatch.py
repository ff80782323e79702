"""The tensors a `flow.dispatch.workgroups` body sees: `!iree_tensor_ext.dispatch.tensor<
access:tensor<...>>` bindings, read with `dispatch.tensor.load` and written with
`dispatch.tensor.store` (IREE 3.13's syntax).

    %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, %i], sizes = [4, 8], strides = [1, 1]
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x8xf32>>{%n} -> tensor<4x8xf32>
    iree_tensor_ext.dispatch.tensor.store %t, %out, offsets = [0, 0], sizes = [4, 8], strides = [1, 1]
        : tensor<4x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x8xf32>>

Offsets, sizes and strides mix constants and index values, as in `tensor.extract_slice`. The
result of a load may drop unit dimensions of the slice (rank-reducing), as IREE allows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, IntegerAttr, StringAttr, TensorType, i64
from xdsl.dialects.utils import parse_dynamic_index_list_without_types, print_dynamic_index_list
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.dynamic_dims import dynamic_count, parse_optional_dims, print_typed

ACCESS_KINDS = ("readonly", "writeonly", "readwrite")


@irdl_attr_definition
class DispatchTensorType(ParametrizedAttribute, TypeAttribute):
    """`!iree_tensor_ext.dispatch.tensor<access:tensor<...>>`."""

    name = "iree_tensor_ext.dispatch.tensor"
    access: StringAttr
    tensor: TensorType

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        pos = parser.pos
        access = parser.parse_identifier()
        if access not in ACCESS_KINDS:
            parser.raise_error(f"expected one of {', '.join(ACCESS_KINDS)}", pos, parser.pos)
        parser.parse_punctuation(":")
        tensor = parser.parse_type()
        if not isinstance(tensor, TensorType):
            parser.raise_error("expected a tensor type")
        parser.parse_punctuation(">")
        return [StringAttr(access), tensor]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.access.data}:")
        printer.print_attribute(self.tensor)
        printer.print_string(">")


def _slice_props(parser: Parser) -> tuple[list, dict[str, Attribute]]:
    """`, offsets = [...], sizes = [...], strides = [...]`: (values, properties)."""
    values, props = [], {}
    for key in ("offsets", "sizes", "strides"):
        parser.parse_punctuation(",")
        parser.parse_keyword(key)
        parser.parse_punctuation("=")
        dynamic, static = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        values.append([parser.resolve_operand(v, IndexType()) for v in dynamic])
        props[f"static_{key}"] = DenseArrayBase.from_list(i64, static)
    return values, props


class _SliceAccess(IRDLOperation):
    """What load and store share: the binding's dims and the offsets/sizes/strides lists."""

    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase)
    static_sizes = prop_def(DenseArrayBase)
    static_strides = prop_def(DenseArrayBase)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def _print_slice(self, printer: Printer) -> None:
        for key in ("offsets", "sizes", "strides"):
            printer.print_string(f", {key} = ")
            print_dynamic_index_list(printer, DYNAMIC_INDEX, getattr(self, key), getattr(self, f"static_{key}").get_values())

    def _verify_slice(self, binding: DispatchTensorType, binding_dims: Sequence[SSAValue], tensor: TensorType) -> None:
        if len(binding_dims) != dynamic_count(binding.tensor):
            raise VerifyException(f"{len(binding_dims)} binding dims for {dynamic_count(binding.tensor)} dynamic dimensions of {binding.tensor}")
        lists = [getattr(self, f"static_{k}").get_values() for k in ("offsets", "sizes", "strides")]
        rank = binding.tensor.get_num_dims()
        for key, values in zip(("offsets", "sizes", "strides"), lists):
            if len(values) != rank:
                raise VerifyException(f"expected {rank} {key}, got {len(values)}")
            if sum(1 for v in values if v == DYNAMIC_INDEX) != len(getattr(self, key)):
                raise VerifyException(f"{key}: the number of values does not match the `?` entries")
        sizes = [s for s in lists[1] if s != 1]
        shape = [d for d in tensor.get_shape() if d != 1]
        if DYNAMIC_INDEX not in lists[1] and DYNAMIC_INDEX not in tensor.get_shape() and math.prod(lists[1]) != math.prod(tensor.get_shape()):
            raise VerifyException(f"sizes {list(lists[1])} do not match {tensor}")
        if len(shape) > len(sizes) + sum(1 for s in lists[1] if s == DYNAMIC_INDEX):
            raise VerifyException(f"{tensor} has more dimensions than the slice")


@irdl_op_definition
class DispatchTensorLoadOp(_SliceAccess):
    """`iree_tensor_ext.dispatch.tensor.load`: a slice of a readable binding."""

    name = "iree_tensor_ext.dispatch.tensor.load"
    source = operand_def(DispatchTensorType)
    source_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    def verify_(self) -> None:
        if self.source.type.access.data == "writeonly":
            raise VerifyException("cannot load from a writeonly binding")
        self._verify_slice(self.source.type, self.source_dims, self.result.type)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        self._print_slice(printer)
        printer.print_string(" : ")
        print_typed(printer, self.source.type, self.source_dims)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source_name = parser.parse_unresolved_operand()
        (offsets, sizes, strides), props = _slice_props(parser)
        parser.parse_punctuation(":")
        source = parser.resolve_operand(source_name, parser.parse_type())
        dims = parse_optional_dims(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(operands=[source, dims, offsets, sizes, strides], result_types=[result_type], properties=props)
        op.attributes |= parser.parse_optional_attr_dict()
        return op


@irdl_op_definition
class DispatchTensorStoreOp(_SliceAccess):
    """`iree_tensor_ext.dispatch.tensor.store`: writes a tensor into a slice of a binding."""

    name = "iree_tensor_ext.dispatch.tensor.store"
    value = operand_def(TensorType)
    target = operand_def(DispatchTensorType)
    target_dims = var_operand_def(IndexType)

    def verify_(self) -> None:
        if self.target.type.access.data == "readonly":
            raise VerifyException("cannot store into a readonly binding")
        self._verify_slice(self.target.type, self.target_dims, self.value.type)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        self._print_slice(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        print_typed(printer, self.target.type, self.target_dims)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value_name = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target_name = parser.parse_unresolved_operand()
        (offsets, sizes, strides), props = _slice_props(parser)
        parser.parse_punctuation(":")
        value = parser.resolve_operand(value_name, parser.parse_type())
        parser.parse_punctuation("->")
        target = parser.resolve_operand(target_name, parser.parse_type())
        dims = parse_optional_dims(parser)
        op = cls(operands=[value, target, dims, offsets, sizes, strides], properties=props)
        op.attributes |= parser.parse_optional_attr_dict()
        return op


@irdl_op_definition
class DispatchWorkloadOrdinalOp(IRDLOperation):
    """`%v = iree_tensor_ext.dispatch.workload.ordinal %arg, 2 : index`: marks a dispatch body
    value as the workload entry with that position; its value is the operand's."""

    name = "iree_tensor_ext.dispatch.workload.ordinal"
    operand = operand_def(IndexType)
    ordinal = prop_def(IntegerAttr)
    result = result_def(IndexType)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", {self.ordinal.value.data} : ")
        printer.print_attribute(self.result.type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ordinal = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(operands=[parser.resolve_operand(name, t)], result_types=[t],
                 properties={"ordinal": IntegerAttr(ordinal, IndexType())})
        op.attributes |= parser.parse_optional_attr_dict()
        return op


DISPATCH_TENSOR_OPS = [DispatchTensorLoadOp, DispatchTensorStoreOp, DispatchWorkloadOrdinalOp]
