"""`linalg.generic` with multi-result custom form, and `linalg.map` (MLIR syntax).

xDSL 0.74's `GenericOp.parse` reads the trailing result types as one attribute, so the
multi-result custom form `} -> (tensor<..>, tensor<..>)` that `mlir-opt` prints fails to parse.
We re-declare the op (a decorated xDSL op can only be subclassed by re-declaring its fields)
and override only `parse`; printing, verification and accessors stay xDSL's.

`linalg.map` follows current MLIR (the one in IREE 3.13): the mapper block takes one argument
per input *and* one for the init, and the op prints in short form `linalg.map { arith.addf }`
whenever the body is a single op applied to the input arguments in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    ShapedType,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.subclass_verify import own_checks


def parse_operand_group(parser: Parser, keyword: str) -> Sequence[SSAValue]:
    """Parse an optional `keyword(%a, %b : T1, T2)` group (linalg's `ins`/`outs`)."""
    pos = parser.pos
    if not parser.parse_optional_characters(keyword):
        return ()
    parser.parse_punctuation("(")
    names: list[UnresolvedOperand] = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(names, types, pos)


def print_operand_group(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
    if not values:
        return
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def parse_optional_arrow_types(parser: Parser) -> Sequence[Attribute]:
    """`-> T` or `-> (T1, T2)` (MLIR's optional arrow type list), or nothing."""
    if not parser.parse_optional_punctuation("->"):
        return ()
    types = parser.parse_optional_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
    return types if types is not None else [parser.parse_type()]


def _iterator_type(parser: Parser, attr: Attribute) -> IteratorTypeAttr:
    if isinstance(attr, IteratorTypeAttr):
        return attr
    if isinstance(attr, StringAttr) and attr.data in {t.value for t in IteratorType}:
        return IteratorTypeAttr(IteratorType(attr.data))
    parser.raise_error(f"unknown iterator type {attr}")



def _parse_trait(parser: Parser) -> dict[str, Attribute]:
    """The generic's attribute dictionary, written inline or as an alias (`linalg.generic
    #trait ins(...)`, with `#trait = {indexing_maps = ..., iterator_types = ...}` above)."""
    if parser._current_token.text.startswith("#"):
        attr = parser.parse_attribute()
        if not isinstance(attr, DictionaryAttr):
            parser.raise_error(f"expected a dictionary attribute for linalg.generic, got {attr}")
        return dict(attr.data)
    return parser.parse_optional_attr_dict()


_XDSL_GENERIC_CHECKS = own_checks(xlinalg.GenericOp)


@irdl_op_definition
class GenericOp(xlinalg.GenericOp):
    """xDSL's `linalg.generic`, parsing MLIR's multi-result custom form too."""

    name = "linalg.generic"

    inputs = var_operand_def()
    outputs = var_operand_def(ShapedType)
    res = var_result_def(TensorType)
    body = region_def("single_block")
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[IteratorTypeAttr])
    doc = opt_prop_def(StringAttr)
    library_call = opt_prop_def(StringAttr)

    def verify_(self) -> None:
        # xDSL's structural checks alone: its `GenericOp.verify_` would check the IRDL
        # definition again after this class's own wrapper has.
        _XDSL_GENERIC_CHECKS(self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        attrs = _parse_trait(parser)
        maps = attrs.pop("indexing_maps", None)
        iterators = attrs.pop("iterator_types", None)
        if not isinstance(maps, ArrayAttr) or not isinstance(iterators, ArrayAttr):
            parser.raise_error(
                "expected 'indexing_maps' and 'iterator_types' in linalg.generic", pos, parser.pos
            )
        doc = attrs.pop("doc", None)
        library_call = attrs.pop("library_call", None)
        # MLIR's shared structured-op syntax allows a second dictionary before `ins`.
        attrs |= parser.parse_optional_attr_dict()
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        extra: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            extra = parser.expect(parser.parse_optional_attr_dict, "expected attribute dict")
        body = parser.parse_region()
        result_types = parse_optional_arrow_types(parser)
        generic = cls(
            ins,
            outs,
            body,
            cast(ArrayAttr[AffineMapAttr], maps),
            [_iterator_type(parser, it) for it in iterators.data],
            result_types,
            cast(StringAttr | None, doc),
            cast(StringAttr | None, library_call),
        )
        generic.attributes |= attrs | extra
        return generic


@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: elementwise `init[i] = body(inputs[0][i], ..., init[i])`."""

    name = "linalg.map"

    inputs = var_operand_def(ShapedType)
    init = operand_def(ShapedType)
    result = var_result_def(TensorType)
    mapper = region_def("single_block")

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init: SSAValue,
        mapper: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        result_types = [init.type] if isinstance(init.type, TensorType) else []
        super().__init__(
            operands=[inputs, init],
            result_types=[result_types],
            regions=[mapper],
            attributes=attributes,
        )

    def verify_(self) -> None:
        block = self.mapper.block
        if len(block.args) != len(self.inputs) + 1:
            raise VerifyException(
                "expects number of operands to match the arity of mapper, but got: "
                f"{len(self.inputs) + 1} and {len(block.args)}"
            )
        init_type = cast(ShapedType, self.init.type)
        for index, value in enumerate(self.inputs):
            if cast(ShapedType, value.type).get_shape() != init_type.get_shape():
                raise VerifyException(f"expected input #{index} to have the init's shape")
        for arg, value in zip(block.args, (*self.inputs, self.init), strict=True):
            if arg.type != cast(ShapedType, value.type).get_element_type():
                raise VerifyException("expected mapper arguments of the operands' element types")

    def short_form_payload(self) -> Operation | None:
        """The single payload op if the body is `%r = op(%in0, .., %inN); yield %r`."""
        ops = list(self.mapper.block.ops)
        if len(ops) != 2 or not isinstance(ops[1], xlinalg.YieldOp):
            return None
        payload = ops[0]
        input_args = self.mapper.block.args[: len(self.inputs)]
        if (
            payload.regions
            or len(payload.results) != 1
            or tuple(payload.operands) != tuple(input_args)
            or tuple(ops[1].operands) != (payload.results[0],)
        ):
            return None
        return payload

    def print(self, printer: Printer):
        payload = self.short_form_payload()
        if payload is not None:
            _print_short_form(printer, payload)
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", [self.init])
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        if payload is None:
            printer.print_string(" (")
            printer.print_list(self.mapper.block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.mapper, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        short_form = _parse_short_form(parser)
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        if len(outs) != 1:
            parser.raise_error("linalg.map expects exactly one 'outs' operand")
        attrs = parser.parse_optional_attr_dict()
        for index, value in enumerate((*ins, outs[0])):
            # the mapper's arguments are the operands' element types
            if not isinstance(value.type, ShapedType):
                parser.raise_error(f"'linalg.map' op operand #{index} must be a tensor or memref, "
                                   f"but got '{value.type}'", pos, parser.pos)
        element_types = [cast(ShapedType, v.type).get_element_type() for v in (*ins, outs[0])]
        if short_form is not None:
            mapper = _short_form_region(parser, short_form, element_types)
        else:
            args = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
            )
            mapper = parser.parse_region(args)
        return cls(ins, outs[0], mapper, attrs)


def _print_short_form(printer: Printer, payload: Operation) -> None:
    """`{ arith.addf {fastmath = ..} }`: default fastmath flags are elided, as MLIR does."""
    attrs = {**payload.properties, **payload.attributes}
    if attrs.get("fastmath") == FastMathFlagsAttr("none"):
        del attrs["fastmath"]
    printer.print_string(" { " + payload.name)
    if attrs:
        printer.print_op_attributes(attrs)
    printer.print_string(" }")


def _parse_short_form(parser: Parser) -> tuple[str, dict[str, Attribute]] | None:
    if not parser.parse_optional_punctuation("{"):
        return None
    name = parser.parse_identifier()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")
    return name, attrs


def _short_form_region(
    parser: Parser, short_form: tuple[str, dict[str, Attribute]], element_types: list[Attribute]
) -> Region:
    name, attrs = short_form
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None:
        parser.raise_error(f"unknown payload operation '{name}' in linalg.map")
    block = Block(arg_types=element_types)
    prop_names = set(op_type.get_irdl_definition().properties) if issubclass(
        op_type, IRDLOperation
    ) else set()
    payload = op_type.create(
        operands=block.args[:-1],
        result_types=[element_types[-1]],
        properties={k: v for k, v in attrs.items() if k in prop_names},
        attributes={k: v for k, v in attrs.items() if k not in prop_names},
    )
    block.add_ops([payload, xlinalg.YieldOp(payload.results[0])])
    return Region(block)

