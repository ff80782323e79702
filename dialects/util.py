"""IREE's `util` dialect as IREE 3.13 prints it: functions, calls, globals and the barrier.

IREE's own tests and `iree-compile --compile-to=input` output are written with `util.func`, not
`func.func`; fusionopt's passes treat both alike through `is_function` / `functions_with_body`
(the one predicate every pass and tool uses to find function bodies).

    util.global private mutable @state = dense<0.0> : tensor<4xf32>
    util.func public @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %g = util.global.load @state : tensor<4xf32>
      %b = util.optimization_barrier %a : tensor<4xf32>
      %c = util.call @g(%b) : (tensor<4xf32>) -> tensor<4xf32>
      util.global.store %c, @state : tensor<4xf32>
      util.return %c : tensor<4xf32>
    }
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.opaque import opaque_attribute

_FUNC_RESERVED = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
_INHERENT_IN_ATTR_DICT = ("inlining_policy",)


class _UtilFuncCallable(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, UtilFuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, UtilFuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, UtilFuncOp)
        return op.function_type.outputs.data


@irdl_op_definition
class UtilFuncOp(IRDLOperation):
    """`util.func`: `func.func`'s fields and syntax; an empty body is a declaration."""

    name = "util.func"
    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    # IREE's extras: which result reuses which operand's storage (-1: none) and whether the
    # inliner may inline it (`#util.inline.never`); kept, never interpreted.
    tied_operands = opt_prop_def(ArrayAttr)
    inlining_policy = opt_prop_def(Attribute)
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), _UtilFuncCallable())

    def __init__(
        self,
        name: str,
        function_type: FunctionType,
        region: Region | None = None,
        visibility: str | None = None,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
    ):
        region = region if region is not None else Region(Block(arg_types=function_type.inputs))
        super().__init__(
            regions=[region],
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "sym_visibility": StringAttr(visibility) if visibility else None,
                "arg_attrs": arg_attrs,
                "res_attrs": res_attrs,
            },
        )

    def verify_(self) -> None:
        if self.body.blocks and self.function_type.inputs.data != self.body.blocks.first.arg_types:
            raise VerifyException("entry block arguments must have the function's input types")

    @classmethod
    def parse(cls, parser: Parser) -> UtilFuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=_FUNC_RESERVED
        )
        op = cls(name, FunctionType.from_lists(inputs, outputs), region,
                 visibility.data if visibility else None, arg_attrs, res_attrs)
        if extra is not None:
            op.attributes |= extra.data
        for name in _INHERENT_IN_ATTR_DICT:  # IREE's custom form spells these in `attributes {}`
            if name in op.attributes:
                op.properties[name] = op.attributes.pop(name)
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility:
            printer.print_string(f" {self.sym_visibility.data}")
        inherent = {n: self.properties[n] for n in _INHERENT_IN_ATTR_DICT if n in self.properties}
        print_func_op_like(
            printer, self.sym_name, self.function_type, self.body, inherent | self.attributes,
            arg_attrs=self.arg_attrs, res_attrs=self.res_attrs, reserved_attr_names=_FUNC_RESERVED,
        )


FUNCTION_OPS = (FuncOp, UtilFuncOp)
RETURN_OPS = frozenset({"func.return", "util.return"})


def is_function(op: Operation) -> bool:
    """`func.func` or `util.func`: what passes and tools treat as a function."""
    return isinstance(op, FUNCTION_OPS)


def functions_with_body(root: Operation) -> list[FuncOp | UtilFuncOp]:
    """Every function under `root` (itself included) that has a body, in walk order."""
    return [op for op in root.walk() if isinstance(op, FUNCTION_OPS) and op.body.blocks]


@irdl_op_definition
class UtilReturnOp(IRDLOperation):
    """`util.return`: returns from a `util.func` or ends a `util.initializer`."""

    name = "util.return"
    operands_ = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(UtilFuncOp, InitializerOp)))  # defined below
    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        parent = self.parent_op()
        expected = parent.function_type.outputs.data if isinstance(parent, UtilFuncOp) else ()
        if tuple(self.operands_.types) != tuple(expected):
            raise VerifyException(
                f"returns {len(self.operands_)} values of types ({', '.join(map(str, self.operands_.types))})"
                f" but the function returns ({', '.join(map(str, expected))})"
            )


@irdl_op_definition
class UtilCallOp(IRDLOperation):
    """`util.call @callee(%args) : (types) -> types`; `tied_operands` (IREE's storage reuse
    marks, printed only in the generic form) is kept as is."""

    name = "util.call"
    arguments = var_operand_def()
    callee = prop_def(FlatSymbolRefAttrConstr)
    tied_operands = opt_prop_def(ArrayAttr)
    res = var_result_def()

    def __init__(self, callee: str, arguments: Sequence[SSAValue], result_types: Sequence[Attribute]):
        super().__init__(operands=[arguments], result_types=[result_types],
                         properties={"callee": SymbolRefAttr(callee)})

    @classmethod
    def parse(cls, parser: Parser) -> UtilCallOp:
        callee = parser.parse_symbol_name()
        args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        if len(ftype.inputs) != len(args):
            parser.raise_error(f"{len(args)} arguments but {len(ftype.inputs)} argument types")
        op = cls(callee.data, [parser.resolve_operand(a, t) for a, t in zip(args, ftype.inputs)], ftype.outputs.data)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.arguments.types, self.res.types)

    def verify_(self) -> None:
        target = SymbolTable.lookup_symbol(self, self.callee)
        if target is None:
            raise VerifyException(f"'{self.callee}' does not reference a symbol in the module")
        if not is_function(target):
            raise VerifyException(f"'{self.callee}' does not reference a function")
        ftype = target.function_type
        if tuple(ftype.inputs.data) != tuple(self.arguments.types) or tuple(ftype.outputs.data) != tuple(self.res.types):
            raise VerifyException(f"call types do not match the callee's type {ftype}")


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """`util.optimization_barrier %a, %b : ta, tb`: its results are its operands, opaque to
    the compiler (nothing folds or fuses across it)."""

    name = "util.optimization_barrier"
    operands_ = var_operand_def()
    results_ = var_result_def()

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[values], result_types=[[v.type for v in values]])

    def verify_(self) -> None:
        if tuple(self.operands_.types) != tuple(self.results_.types):
            raise VerifyException("results must have the operands' types")

    @classmethod
    def parse(cls, parser: Parser) -> OptimizationBarrierOp:
        values = parser.parse_optional_unresolved_operand()
        operands = [] if values is None else [values]
        while operands and parser.parse_optional_punctuation(","):
            operands.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        types = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(operands):
            parser.raise_error(f"{len(operands)} operands but {len(types)} types")
        op = cls([parser.resolve_operand(v, t) for v, t in zip(operands, types)])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        if self.operands_:
            printer.print_string(" ")
            printer.print_list(self.operands_, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        if self.operands_:
            printer.print_string(" : ")
            printer.print_list(self.operands_.types, printer.print_attribute)


from fusionopt.dialects.util_globals import GlobalLoadOp, GlobalOp, GlobalStoreOp, InitializerOp  # noqa: E402

Util = Dialect(
    "util",
    [UtilFuncOp, UtilReturnOp, UtilCallOp, InitializerOp, GlobalOp, GlobalLoadOp, GlobalStoreOp,
     OptimizationBarrierOp],
    # `#util.preprocessing_pipeline<"...">` names a pass pipeline IREE runs on a function
    # before dispatch creation; kept as text like the inlining policies.
    [opaque_attribute(f"util.{name}") for name in ("inline.never", "inline.always", "preprocessing_pipeline")],
)
