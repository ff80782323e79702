"""A located xDSL parser: every parsed op gets `loc("file":line:col)`, errors become `FusionError`.

xDSL's parser leaves ops at `loc(unknown)` and reports an undefined SSA value at the end of the
file. `LocatingParser` extends it (no patching of xDSL):

* `parse_operation` attaches a `FileLineColLoc` for the op's first token. Line numbers are counted
  incrementally (ops are parsed in source order), and the line/column `IntAttr`s are cached, so
  the overhead is a few percent of parsing time.
* `resolve_operand` remembers the first use of every forward-referenced name, so an undefined
  value is reported where it is used.
* A number literal that does not fit its type (`arith.constant 300 : i8`, `[99999999999999999999]`
  in an i64 array) is MLIR's "integer constant out of range for attribute" (or, where a float
  is still packed by xDSL, "floating point value too large for attribute") at the literal: xDSL
  fails packing it (struct.error, OverflowError, a ValueError from `get_normalized_value`).
  Decimal floats past their type's range are +-inf, as in MLIR (`dialects/float_literals.py`).
* The regions of an `IsolatedFromAbove` op (`func.func`) get a fresh SSA scope, as in MLIR: a
  value of another function is "use of undeclared SSA value name" at the use (xDSL would resolve
  it against a later function and fail verification later, or crash on the unresolved value).
* `parse_module_located` turns every failure (ParseError, VerifyException raised while building
  attributes, and parser crashes on malformed input) into a `FusionError` with file:line:col.
"""

from __future__ import annotations

import re
import struct
from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Block, Operation
from xdsl.traits import IsolatedFromAbove
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.parser.generic_parser import ParserState

from fusionopt.constraint_messages import explain_parse_failure
from fusionopt.diagnostics import Diagnostic, FusionError, SourceLoc, location_of, note_wrapped_exception
from fusionopt.dialects.dense import CompactDenseParserMixin  # splats stay one element
from fusionopt.dialects.float_literals import FloatLiteralParserMixin  # 1e5 : f16 is inf
from fusionopt.safe_lexer import SafeLexer

_UNDEFINED_VALUES_PREFIX = "values used but not defined"


class PriorUseMismatch(ParseError):
    """An operand used with another type than where it was defined or first used: MLIR's
    wording, and a note at that earlier place."""

    def __init__(self, span: Span, msg: str, prior: SourceLoc | None):
        super().__init__(span, msg)
        self.prior = prior


class LocatingParser(CompactDenseParserMixin, FloatLiteralParserMixin, Parser):
    """xDSL's `Parser` that records source locations; `line_offset` shifts reported lines
    (a `--split-input-file` chunk reports lines of the whole file)."""

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0):
        super().__init__(ctx, "", name)
        # Re-point the parser at our lexer (same tokens, no catastrophic backtracking).
        self._parser_state = ParserState(SafeLexer(Input(text, name)))
        self.file_name = name
        self.line_offset = line_offset
        self._text = text
        self._file_attr = StringAttr(name)
        self._int_attrs: dict[int, IntAttr] = {}
        self._counted_pos = 0
        self._counted_line = 1 + line_offset
        self.first_use: dict[str, Span] = {}
        self._op_types: list[type[Operation] | None] = []  # ops being parsed, innermost last

    # -- locations ------------------------------------------------------------------------

    def _int_attr(self, value: int) -> IntAttr:
        attr = self._int_attrs.get(value)
        if attr is None:
            attr = self._int_attrs[value] = IntAttr(value)
        return attr

    def line_col(self, pos: int) -> tuple[int, int]:
        """1-based (line, col) of `pos`; amortised O(distance from the previous query)."""
        text = self._text
        if pos >= self._counted_pos:
            self._counted_line += text.count("\n", self._counted_pos, pos)
        else:
            self._counted_line = 1 + self.line_offset + text.count("\n", 0, pos)
        self._counted_pos = pos
        return self._counted_line, pos - text.rfind("\n", 0, pos)

    def source_loc(self, pos: int) -> SourceLoc:
        line, col = self.line_col(pos)
        return SourceLoc(self.file_name, line, col)

    def loc_attr(self, pos: int) -> FileLineColLoc:
        line, col = self.line_col(pos)
        return _new_file_line_col_loc(self._file_attr, self._int_attr(line), self._int_attr(col))

    # -- parser hooks -----------------------------------------------------------------------

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        # Computed before parsing so line counting only moves forward through nested regions.
        loc = self.loc_attr(start)
        self._op_types.append(self._op_type_at(start))
        try:
            op = super().parse_operation()
        except ParseError:
            raise
        except FusionError:
            raise
        except (OverflowError, struct.error, ValueError) as exc:
            literal = _out_of_range_literal(exc, self._text, start, self._current_token.span.start)
            if literal is None:
                self._wrap_parse_failure(exc, start)
            message, (lo, hi) = literal
            self.raise_error(message, lo, hi)
        except Exception as exc:  # noqa: BLE001 - any failure while parsing is a user error here
            if (literal := _out_of_range_literal(exc, self._text, start, self._current_token.span.start)) is not None:
                self.raise_error(literal[0], *literal[1])
            self._wrap_parse_failure(exc, start)
        finally:
            self._op_types.pop()
        if isinstance(op.location, UnknownLoc):
            op.location = loc
        return op

    def _wrap_parse_failure(self, exc: Exception, start: int) -> NoReturn:
        """Attribute verifiers (VerifyException) and xDSL parser crashes on malformed input:
        reported at the op rather than as a traceback (a crash is recorded as masked)."""
        note_wrapped_exception(exc)  # an IndexError here is a bug behind a clean message
        message = _describe(exc)
        op_type = self._op_type_at(start)
        op_text = self._text[start : self._current_token.span.start].split("\n")[0]
        message = explain_parse_failure(op_type, message, self.ctx, op_text) or message
        self.raise_error(message, start, max(self._current_token.span.start, start + 1))

    def parse_optional_region(self, arguments=None):  # type: ignore[override]
        op_type = self._op_types[-1] if self._op_types else None
        if op_type is None or not op_type.has_trait(IsolatedFromAbove) or self._current_token.text != "{":
            # A forward reference from outside must not resolve to a value defined inside the
            # region (xDSL lets it: the value then dangles once the region's scope closes).
            pending = set(self.forward_ssa_references)
            region = super().parse_optional_region(arguments)
            for name in pending:
                if name not in self.forward_ssa_references and name not in self.ssa_values and name in self.first_use:
                    raise ParseError(self.first_use[name], f"use of undeclared SSA value name '%{name}'")
            return region
        # MLIR: nothing defined outside an isolated region is visible inside it.
        outer = self.ssa_values, self.forward_ssa_references, self.first_use
        self.ssa_values, self.forward_ssa_references, self.first_use = {}, {}, {}
        try:
            region = super().parse_optional_region(arguments)
            if self.forward_ssa_references:
                name = next(iter(self.forward_ssa_references))
                span = self.first_use.get(name)
                message = f"use of undeclared SSA value name '%{name}'"
                if span is None:
                    self.raise_error(message)
                raise ParseError(span, message)
            return region
        finally:
            self.ssa_values, self.forward_ssa_references, self.first_use = outer

    def _check_block_name(self) -> None:
        """xDSL 0.74 names a block after its label and raises a ValueError for a name it cannot
        keep (one starting with a digit); report such a label at its place instead."""
        token = self._current_token
        if token.kind == MLIRTokenKind.CARET_IDENT:
            name = token.text[1:]
            if not Block.is_valid_name(name) and not Block.is_default_block_name(name):
                what = "names of digits only are not supported, use ^bbN" if name.isdigit() else "invalid block name"
                self.raise_error(f"block '^{name}': {what}", token.span.start, token.span.end)

    def parse_optional_successor(self):  # type: ignore[override]
        self._check_block_name()
        return super().parse_optional_successor()

    def _parse_block(self):  # type: ignore[override]
        """xDSL 0.74 does not record where a forward-referenced block is defined, so defining it
        a second time crashed (KeyError) instead of reporting the re-declaration: record it."""
        self._check_block_name()
        token = self._current_token
        block = super()._parse_block()
        if token.kind == MLIRTokenKind.CARET_IDENT:
            self.blocks[token.text[1:]] = (block, token.span)
        return block

    def _op_type_at(self, start: int) -> type[Operation] | None:
        """The op class named by the operation text at `start` (`%r = name ...`, `"name"(...)`)."""
        match = _OP_NAME.match(self._text, start)
        if match is None:
            return None
        name = match.group(1) or match.group(2)
        return self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)

    def _get_op_by_name(self, name: str) -> type[Operation]:
        op_type = self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)
        if op_type is not None:
            return op_type
        # Point at the op name (just consumed), with MLIR's wording.
        end = self._current_token.span.start
        start = max(self._text.rfind(name, 0, end), 0)
        if start > 0 and self._text[start - 1] == '"':  # generic form: point at the quote
            start -= 1
        dialect = name.split(".")[0]
        if "." in name and dialect not in self.ctx.registered_dialect_names:
            message = f"dialect '{dialect}' not found for custom op '{name}'"
        else:
            message = f"custom op '{name}' is unknown"
        self.raise_error(message, start, start + len(name))

    def _parse_alias_def(self):
        # MLIR lets an alias be a typed attribute (IREE prints
        # `#device = #hal.device.target<...> : !hal.device`); xDSL stops before the `:`.
        # The type adds nothing an unregistered attribute could use, so it is parsed and dropped.
        super()._parse_alias_def()
        if self.parse_optional_punctuation(":") is not None:
            self.parse_type()

    def resolve_operand(self, operand: UnresolvedOperand, type):  # type: ignore[override]
        name = operand.operand_name
        if name not in self.ssa_values and name not in self.first_use:
            self.first_use[name] = operand.span
        prior = self._prior_type_and_loc(operand)
        if prior is not None and prior[0] != type:
            raise PriorUseMismatch(operand.span, f"use of value '%{name}' expects different type than prior "
                                   f"uses: '{type}' vs '{prior[0]}'", prior[1])
        return super().resolve_operand(operand, type)

    def _prior_type_and_loc(self, operand: UnresolvedOperand):
        """(type, where) of the value `operand` names, as defined or first used before; None
        when it is new. `where` is the defining op, or the first use of a forward reference."""
        name, index = operand.operand_name, operand.index
        if name in self.ssa_values:
            values = self.ssa_values[name]
            if index >= len(values):
                return None
            owner = values[index].owner
            return values[index].type, location_of(owner) if isinstance(owner, Operation) else None
        forward = self.forward_ssa_references.get(name, {}).get(index)
        if forward is None or name not in self.first_use:
            return None
        return forward.type, self.source_loc(self.first_use[name].start)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        if self._current_token.kind == MLIRTokenKind.EOF:
            # Like mlir-opt, an empty input (or a `// -----` chunk of comments) is an empty module.
            module = ModuleOp([])
            module.location = self.loc_attr(0)
            return module
        try:
            module = super().parse_module(allow_implicit_module)
        except ParseError as err:
            if err.msg.startswith(_UNDEFINED_VALUES_PREFIX) and self.forward_ssa_references:
                name = next(iter(self.forward_ssa_references))
                span = self.first_use.get(name, err.span)
                raise ParseError(span, f"use of undeclared SSA value name '%{name}'") from None
            raise
        if isinstance(module.location, UnknownLoc):
            module.location = self.loc_attr(0)
        return module

    # -- error conversion ------------------------------------------------------------------------

    def to_fusion_error(self, err: ParseError) -> FusionError:
        span_input = err.span.input
        if span_input.content is self._text or span_input.name == self.file_name:
            loc = self.source_loc(err.span.start)
        else:  # a nested parser over other text (e.g. an attribute string): no reliable position
            loc = self.source_loc(self._current_token.span.start)
        message = _clean_message(err.msg)
        if isinstance(err, PriorUseMismatch) and err.prior is not None:
            return FusionError(message, loc, [Diagnostic("note", "prior use here", err.prior)])
        return self._unbalanced_brace_error(message, err.span.start) or FusionError(message, loc)

    def _unbalanced_brace_error(self, message: str, pos: int) -> FusionError | None:
        """xDSL's "in block definition" at the end of the input (a region never closed) and
        "Could not parse entire input" at a `}` (one closed too many), in MLIR's terms: at the
        last token, with a note at the `{` left open."""
        text = self._text
        end = len(text.rstrip())
        if message.endswith("in block definition") and pos >= end:
            unclosed = _unclosed_braces(text)
            notes = [Diagnostic("note", "this '{' is never closed", self.source_loc(unclosed[-1]))] if unclosed else []
            return FusionError("expected '}' to close the region before the end of the input",
                               self.source_loc(end), notes)
        if message.startswith("Could not parse entire input") and text[pos : pos + 1] == "}":
            return FusionError("unexpected '}': no region is open here", self.source_loc(pos))
        return None


def _loc_of_span(span: Span, name: str, line_offset: int) -> SourceLoc:
    where = span.get_location()
    return SourceLoc(name, where.line + line_offset, where.col)


def _new_file_line_col_loc(file: StringAttr, line: IntAttr, col: IntAttr) -> FileLineColLoc:
    """`FileLineColLoc(file, line, col)` without re-running its verifier: the parameters are
    already verified attributes of the right kinds, and this runs once per parsed op."""
    loc = FileLineColLoc.__new__(FileLineColLoc)
    object.__setattr__(loc, "filename", file)
    object.__setattr__(loc, "line", line)
    object.__setattr__(loc, "column", col)
    return loc


_OP_NAME = re.compile(r'(?:[%#][^=]*=\s*)?(?:"([^"]+)"|([A-Za-z_][\w$.]*))')


def _describe(exc: Exception) -> str:
    text = str(exc).strip().split("\n")[0] or type(exc).__name__
    if type(exc).__name__ in ("VerifyException", "DiagnosticException", "DialectLoadError"):
        return text
    return f"invalid operation ({type(exc).__name__}: {text})"


def _unclosed_braces(text: str) -> list[int]:
    """Offsets of the `{` left open at the end of `text` (strings and `//` comments skipped)."""
    stack: list[int] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "/" and text.startswith("//", i):
            newline = text.find("\n", i)
            i = n if newline < 0 else newline
        elif c == "{":
            stack.append(i)
        elif c == "}" and stack:
            stack.pop()
        i += 1
    return stack


_NUMBER_LITERAL = re.compile(r"(?<![\w#%@^.$])-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)")


def _out_of_range_literal(exc: Exception, text: str, start: int, end: int):
    """(MLIR's message, span) for the literal that made xDSL fail packing a constant; None when
    `exc` is not such a failure or no literal is found in the op's text so far."""
    reason = str(exc)
    if not isinstance(exc, OverflowError | struct.error | ValueError) and type(exc).__name__ != "VerifyException":
        return None  # any other failure (e.g. a dialect that failed to load) is not a literal's
    if isinstance(exc, ValueError) or type(exc).__name__ == "VerifyException":
        if not ("out of range" in reason and "Integer value" in reason):
            return None
    if isinstance(exc, OverflowError) and not ("too large" in reason or "too big" in reason):
        return None
    is_float = "float" in reason and "int too big" not in reason
    best = None
    integer_for_float = None  # `arith.constant -99999 : f16`: MLIR rejects any decimal integer here
    for match in _NUMBER_LITERAL.finditer(text, start, max(end, start)):
        token = match.group()
        hexadecimal = "0x" in token
        if is_float != (not hexadecimal and any(c in token for c in ".eE")) and not hexadecimal:
            if is_float and integer_for_float is None:
                integer_for_float = match.span()
            continue
        try:
            magnitude = abs(int(token, 16) if hexadecimal else float(token))
        except ValueError:
            continue
        if best is None or magnitude > best[0]:
            best = (magnitude, match.span(), hexadecimal)
    if best is None:
        if integer_for_float is not None:
            return "unexpected decimal integer literal for a floating point value", integer_for_float
        return None
    _, span, hexadecimal = best
    if hexadecimal and "int too big to convert" in reason:  # a float's bit pattern (`0x... : f32`)
        message = "hexadecimal constant out of range for type"
    elif is_float:
        message = "floating point value too large for attribute"
    else:
        message = "integer constant out of range for attribute"
    return message, span


def _clean_message(msg: str) -> str:
    # xDSL sometimes embeds a full context printout in messages; keep the first line.
    return msg.strip().split("\n")[0]


def parse_module_located(
    ctx: Context, text: str, name: str, line_offset: int = 0
) -> ModuleOp:
    """Parse `text` into a module with located ops, or raise `FusionError`."""
    try:
        parser = LocatingParser(ctx, text, name, line_offset)
    except ParseError as err:  # the constructor lexes the first token
        raise FusionError(_clean_message(err.msg), _loc_of_span(err.span, name, line_offset))
    try:
        return parser.parse_module()
    except ParseError as err:
        raise parser.to_fusion_error(err) from None
    except RecursionError:
        raise FusionError("input is nested too deeply", parser.source_loc(parser.pos)) from None

