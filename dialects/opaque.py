"""Attributes and types whose contents fusionopt keeps as text: IREE's encodings, HAL targets,
flow parameters. They must round-trip exactly so `iree-opt` reads our output, but no pass
looks inside them, so modelling every parameter would be dead weight.

    #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>
    !hal.buffer_view

`opaque_attribute("iree_encoding.encoding")` makes the class: its one parameter is the text
from the outer `<` to its `>` (empty when there is none; `<>` stays `<>`, which IREE
requires for some attributes), printed back unchanged. xDSL's own
`UnregisteredAttr` does the same but only in a context that accepts every unknown name,
which would hide typos in every other dialect.
"""

from __future__ import annotations

import re
from io import StringIO

from xdsl.dialects.builtin import NoneAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind


class OpaqueAttribute(ParametrizedAttribute):
    """Base of the text-only attributes; `body` is the `<...>` text, brackets included."""

    body: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[StringAttr]:
        if parser._current_token.kind != MLIRTokenKind.LESS:  # noqa: SLF001 - no public peek
            return [StringAttr("")]
        # xDSL's raw scan of a dialect symbol body (MLIR's parseDialectSymbolBody): balanced
        # brackets and string literals, the text kept byte for byte.
        body = parser._parse_dialect_symbol_body()  # noqa: SLF001
        return [StringAttr(f"<{_expand_aliases(body, parser.attribute_aliases)}>")]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(self.body.data)


_ALIAS_USE = re.compile(r'"(?:[^"\\]|\\.)*"|([#!][A-Za-z_][\w$]*)(?![\w$.])')


def _expand_aliases(body: str, aliases: dict[str, Attribute]) -> str:
    """`body` with each use of a file alias (`[#exec_target]`) replaced by the attribute it
    names: the aliases are not printed back, so a kept reference would dangle. Names with a
    dot are dialect attributes, text in quotes is left alone."""
    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None or name not in aliases:
            return match.group(0)
        return _attribute_text(aliases[name])
    return _ALIAS_USE.sub(replace, body)


def _attribute_text(attribute: Attribute) -> str:
    stream = StringIO()
    Printer(stream=stream).print_attribute(attribute)
    return stream.getvalue()


class TypedOpaqueAttribute(OpaqueAttribute):
    """An opaque attribute that may carry a type, `#d.a<...> : tensor<8xf16>` (MLIR's typed
    attributes, e.g. IREE's parameter references); `type` is `none` when absent."""

    type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        body = super().parse_parameters(parser)
        typed = parser.parse_type() if parser.parse_optional_punctuation(":") else NoneAttr()
        return [*body, typed]

    def print_parameters(self, printer: Printer) -> None:
        super().print_parameters(printer)
        if not isinstance(self.type, NoneAttr):
            printer.print_string(" : ")
            printer.print_attribute(self.type)


def opaque_attribute(name: str, is_type: bool = False, typed: bool = False) -> type[OpaqueAttribute]:
    """A registered text-only attribute (or type, `!name`) called `name`; `typed`: it may be
    followed by `: type`, which it keeps."""
    base = TypedOpaqueAttribute if typed else OpaqueAttribute
    bases = (base, TypeAttribute) if is_type else (base,)
    fields = {"body": StringAttr, "type": Attribute} if typed else {"body": StringAttr}
    class_name = "".join(part.capitalize() for part in name.replace(".", "_").split("_"))
    cls = type(class_name + ("Type" if is_type else "Attr"), bases, {"name": name, "__annotations__": fields})
    return irdl_attr_definition(cls)
