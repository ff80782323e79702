"""Parse MIGraphX's printed program text into plain records (`parse_migraphx`).

The grammar is `migraphx.lark` (shipped beside this module); lark's LALR parser with its
contextual lexer reads it, so each token class (names, attribute values, dims) is only tried
where it may appear. This module only turns the parse tree into `Program` / `Instruction`
records with source positions; `migraphx_import` gives them meaning.

Syntax errors are `MigraphxImportError`s located at the offending token:
`model.txt:3:17: error: unexpected ')' (expected one of: ...)`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib import resources

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark import Tree

from fusionopt.diagnostics import FusionError, SourceLoc

ELIDED = "..."  # `@literal{ ... }`: a literal of more than 10 elements, values not printed


class MigraphxImportError(FusionError):
    """A MIGraphX program text the importer cannot read or translate."""


@dataclass(frozen=True)
class Shape:
    """`TYPE, {lens}, {strides}`: the type name as printed (`float_type`), lens and strides."""

    type_name: str
    lens: tuple[int, ...]
    strides: tuple[int, ...]


@dataclass
class Instruction:
    name: str
    op: str
    loc: SourceLoc  # of the op name: errors about the instruction point there
    attrs: dict[str, object] = field(default_factory=dict)
    literal: list[str] | str | None = None  # values as printed, ELIDED, or None (no literal)
    operands: list[tuple[str, SourceLoc]] = field(default_factory=list)
    submodules: list[str] = field(default_factory=list)
    shape: Shape | None = None
    shape_error: str | None = None  # why the printed result shape is unusable (tuple, dynamic)


@dataclass
class Program:
    """Modules in print order; text without a `module:` header is one module named ''."""

    modules: dict[str, list[Instruction]]


@functools.cache
def _parser() -> Lark:
    grammar = resources.files("fusionopt.importers").joinpath("migraphx.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def parse_migraphx(text: str, filename: str) -> Program:
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(err, text, filename) from None
    return _ProgramBuilder(filename).build(tree)


def _syntax_error(err: UnexpectedInput, text: str, filename: str) -> MigraphxImportError:
    loc = SourceLoc(filename, err.line if err.line > 0 else 1, err.column if err.column > 0 else 1)
    if isinstance(err, UnexpectedToken):
        found = "end of file" if err.token.type == "$END" else _quoted_token(err.token)
        expected = sorted(_describe_terminal(t) for t in err.accepts or err.expected)
        hint = f" (expected {', '.join(expected[:6])})" if expected else ""
        return MigraphxImportError(f"unexpected {found}{hint}", loc)
    if isinstance(err, UnexpectedCharacters):
        return MigraphxImportError(f"unexpected character '{text[err.pos_in_stream]}'", loc)
    return MigraphxImportError(f"syntax error: {err}", loc)


def _quoted_token(token: Token) -> str:
    return "end of line" if token.type == "_NL" else f"'{token}'"


_TERMINAL_NAMES = {
    "VALUE_NAME": "an instruction name", "OP_NAME": "an operation name", "SCALAR": "a value",
    "VALUE_REF": "an operand name", "TYPE_NAME": "a type name", "INT": "an integer",
    "MODULE_KW": "'module:'", "_NL": "end of line", "STRING": "a string", "$END": "end of file",
    "MODULE_NAME": "a module name", "ELLIPSIS": "'...'",
}
_PUNCTUATION = {"LSQB": "[", "RSQB": "]", "LPAR": "(", "RPAR": ")", "LBRACE": "{", "RBRACE": "}",
                "COMMA": ",", "EQUAL": "=", "__ANON_0": "->"}


def _describe_terminal(name: str) -> str:
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    if name in _PUNCTUATION:
        return f"'{_PUNCTUATION[name]}'"
    return name.lower().strip("_")


_INT = re.compile(r"[+-]?[0-9]+")


def attribute_scalar(text: str) -> object:
    """An attribute value as printed: an int, a float, a bool or the string itself."""
    if _INT.fullmatch(text):
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    try:
        return float(text)
    except ValueError:
        return text


class _Values(Transformer):
    """Attribute values and shapes to Python values (ranges to lists)."""

    def range(self, items):
        return [_scalar_or_value(i) for i in items]

    def op_value(self, items):
        return {"op": str(items[0]), **items[1]}

    def attributes(self, items):
        attrs: dict[str, object] = {}
        last = None
        for item in items:
            if item[0] == "attr":
                last = str(item[1])
                attrs[last] = item[2]
            elif last is not None:  # `shape=float_type, {2}, {1}`: continues the last value
                previous = attrs[last]
                attrs[last] = (previous if isinstance(previous, tuple) else (previous,)) + (item[1],)
        return attrs

    def attribute(self, items):
        return ("attr", items[0], _scalar_or_value(items[1]) if len(items) > 1 else "")

    def continuation(self, items):
        return ("more", _scalar_or_value(items[0]))

    def dims(self, items):
        return tuple(int(t) for t in items)

    def tensor_shape(self, items):
        return Shape(str(items[0]), items[1], items[2])

    def tuple_shape(self, items):
        return ("unsupported", "a tuple shape")

    def dynamic_shape(self, items):
        return ("unsupported", "a dynamic shape")


def _scalar_or_value(item):
    return attribute_scalar(str(item)) if isinstance(item, Token) else item


class _ProgramBuilder:
    def __init__(self, filename: str):
        self.filename = filename

    def loc(self, token: Token) -> SourceLoc:
        return SourceLoc(self.filename, token.line, token.column)

    def build(self, tree: Tree) -> Program:
        modules: dict[str, list[Instruction]] = {}
        current = ""
        for item in tree.children:
            if item.data == "header":
                current = _unquote(str(item.children[1]))
                modules.setdefault(current, [])
            else:
                modules.setdefault(current, []).append(self.instruction(item))
        return Program(modules)

    def instruction(self, tree: Tree) -> Instruction:
        name, operation, *rest = tree.children
        op_token = operation.children[0]
        ins = Instruction(str(name), str(op_token), self.loc(op_token))
        for part in operation.children[1:]:
            if part.data == "attributes":
                ins.attrs = _Values().transform(part)
            else:  # literal
                values = [str(t) for t in part.children]
                ins.literal = ELIDED if values == [ELIDED] else values
        for part in rest:
            self._instruction_part(ins, part)
        return ins

    def _instruction_part(self, ins: Instruction, part: Tree) -> None:
        if part.data == "operands":
            ins.operands = [(str(t), self.loc(t)) for t in part.children]
        elif part.data == "submodules":
            ins.submodules = [str(t) for t in part.children]
        elif part.data == "result":
            shape = _Values().transform(part.children[0])
            if isinstance(shape, Shape):
                ins.shape = shape
            else:
                ins.shape_error = shape[1]


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"')
