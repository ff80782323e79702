"""`flow.tensor.constant` (and `flow.tensor.bitcast`, built as iree_tensor_ext's bitcast), including constants loaded from a parameter archive
(`#flow.parameter.named<"scope"::"key">`, kept as opaque text, see dialects/opaque.py).
(A region's `count(...)` computations are `iree_tensor_ext` ops in IREE 3.13.)

    %w = flow.tensor.constant #flow.parameter.named<"model"::"w"> : tensor<1280xf16>
    %c = flow.tensor.constant dense<1.0> : tensor<4xf32>
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, NoneAttr, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.iree_tensor_ext import bitcast_op
from fusionopt.dialects.opaque import TypedOpaqueAttribute, opaque_attribute

FLOW_ATTRIBUTES = [opaque_attribute("flow.parameter.named", typed=True)]


def _own_type(value: Attribute) -> Attribute | None:
    """The type a constant's value spells itself (`dense<..> : T`, `#flow.parameter.named<..> : T`)."""
    if isinstance(value, DenseIntOrFPElementsAttr):
        return value.type
    if isinstance(value, TypedOpaqueAttribute) and not isinstance(value.type, NoneAttr):
        return value.type
    return None


@irdl_op_definition
class TensorConstantOp(IRDLOperation):
    """`flow.tensor.constant VALUE : TYPE`; a dense value carries its own type."""

    name = "flow.tensor.constant"
    value = prop_def(Attribute)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        value_type = _own_type(self.value)
        if value_type is not None and value_type != self.result.type:
            raise VerifyException(f"value type {value_type} differs from result type {self.result.type}")

    @classmethod
    def parse(cls, parser: Parser) -> TensorConstantOp:
        value = parser.parse_attribute()
        result_type = _own_type(value)
        if result_type is None:
            parser.parse_punctuation(":")
            result_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls(properties={"value": value}, result_types=[result_type])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.value)
        if _own_type(self.value) is None:
            printer.print_string(" : ")
            printer.print_attribute(self.result.type)
        printer.print_op_attributes(self.attributes)


# `flow.tensor.bitcast %t : T{dims} -> U{dims}`: iree_tensor_ext.bitcast at flow level (the same
# bytes read as another element type, or as a packed encoding such as `packed_storage`).
TensorBitCastOp = bitcast_op("flow.tensor.bitcast", "TensorBitCastOp")

FLOW_EXTRA_OPS = [TensorConstantOp, TensorBitCastOp]
