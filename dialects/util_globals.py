"""`util` globals: `util.global`, `util.global.load` / `util.global.store` and the
`util.initializer` that sets immutable globals once (dialects/util.py holds the rest of the
dialect and builds it).

    util.global private mutable @state = dense<0.0> : tensor<4xf32>
    %g = util.global.load @state : tensor<4xf32>
    util.global.store %g, @state : tensor<4xf32>
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    FlatSymbolRefAttrConstr,
    FunctionType,
    NoneAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TypedAttribute,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.opaque import TypedOpaqueAttribute


@irdl_op_definition
class InitializerOp(IRDLOperation):
    """`util.initializer { ... util.return }`: runs once at module load (stores globals)."""

    name = "util.initializer"
    body = region_def()
    function_type = prop_def(FunctionType, FunctionType.from_lists([], []))  # always () -> ()
    traits = traits_def(IsolatedFromAbove())

    @classmethod
    def parse(cls, parser: Parser) -> InitializerOp:
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(regions=[parser.parse_region()], properties={"function_type": FunctionType.from_lists([], [])})
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body)


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """`util.global [visibility] [mutable] @name [attrs] (: type)? (= value)?`."""

    name = "util.global"
    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(TypeAttribute)
    is_mutable = opt_prop_def(UnitAttr)
    initial_value = opt_prop_def(Attribute)
    traits = traits_def(SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        visibility = parser.parse_optional_visibility_keyword()
        mutable = parser.parse_optional_keyword("mutable") is not None
        name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict()
        type_ = parser.parse_type() if parser.parse_optional_punctuation(":") else None
        value = parser.parse_attribute() if parser.parse_optional_punctuation("=") else None
        if type_ is None:
            type_ = _initial_value_type(value)
            if type_ is None:
                parser.raise_error("util.global needs a type: `: type` or a typed initial value")
        props: dict[str, Attribute | None] = {
            "sym_name": name, "sym_visibility": visibility, "type": type_,
            "is_mutable": UnitAttr() if mutable else None, "initial_value": value,
        }
        op = cls(properties=props)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility:
            printer.print_string(f" {self.sym_visibility.data}")
        if self.is_mutable:
            printer.print_string(" mutable")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_op_attributes(self.attributes)
        value = self.initial_value
        if value is None or _initial_value_type(value) != self.type:
            printer.print_string(" : ")
            printer.print_attribute(self.type)
        if value is not None:
            printer.print_string(" = ")
            printer.print_attribute(value)


def _initial_value_type(value: Attribute | None) -> Attribute | None:
    """The type an initial value carries: a typed builtin attribute's, or the `: type` of a
    typed opaque one (`#hal.device.target<...> : !hal.device`); None when it has none."""
    if isinstance(value, TypedAttribute):
        return value.get_type()
    if isinstance(value, TypedOpaqueAttribute) and not isinstance(value.type, NoneAttr):
        return value.type
    return None


def _lookup_global(op: Operation, symbol: SymbolRefAttr, value_type: Attribute) -> GlobalOp:
    target = SymbolTable.lookup_symbol(op, symbol)
    if not isinstance(target, GlobalOp):
        raise VerifyException(f"'{symbol}' does not reference a util.global")
    if target.type != value_type:
        raise VerifyException(f"global {symbol} is {target.type}, not {value_type}")
    return target


@irdl_op_definition
class GlobalLoadOp(IRDLOperation):
    """`util.global.load [immutable] @name : type`."""

    name = "util.global.load"
    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")
    is_immutable = opt_prop_def(UnitAttr)
    result = result_def()
    assembly_format = "(`immutable` $is_immutable^)? $global attr-dict `:` type($result)"

    def verify_(self) -> None:
        target = _lookup_global(self, self.global_, self.result.type)
        if self.is_immutable and target.is_mutable:
            raise VerifyException(f"global {self.global_} is mutable but the load is marked immutable")


@irdl_op_definition
class GlobalStoreOp(IRDLOperation):
    """`util.global.store %value, @name : type`."""

    name = "util.global.store"
    value = operand_def()
    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")
    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    def verify_(self) -> None:
        target = _lookup_global(self, self.global_, self.value.type)
        inside_initializer = any(isinstance(p, InitializerOp) for p in _ancestors(self))
        if not target.is_mutable and not inside_initializer:
            raise VerifyException(f"global {self.global_} is not mutable; only a util.initializer may store it")


def _ancestors(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()
