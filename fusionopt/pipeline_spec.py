"""Pass-pipeline strings in both xDSL and MLIR syntax, with MLIR-style errors.

    pipeline  ::= element (`,` element)*          (blanks allowed around `,` `(` `)`)
    element   ::= anchor `(` pipeline? `)`        anchor: builtin.module, func.func, any, util.func
                | name options?                   a registered pass or a named pipeline
    options   ::= `{` (key (`=` value (`,` value)*)?)* `}`   (options separated by blanks)

So `-p 'cse, canonicalize{max-iterations=3}'` and
`--pass-pipeline='builtin.module(func.func(cse),dce)'` both work. Every pass runs on the whole
module (our passes are module passes), so anchors only group. Named pipelines
(`fusionopt.registry.PIPELINES`) expand in place and take no options. Errors are `FusionError`s
located in the pipeline text (`<pass-pipeline>:1:COL`), with a close-match suggestion for
unknown names.

Why not xDSL's parser: `xdsl.utils.arg_spec.parse_pipeline` (what `xdsl.passes.PassPipeline`
uses) reads only the flat `name{key=value ...},name` form: MLIR's nested
`builtin.module(func.func(...))` syntax is an "Unknown token" there, it has no named pipelines,
and its errors point at a token but not at the option or pass they belong to. This module keeps
its own reader for exactly that (anchors, named-pipeline expansion, located errors naming the
pass and option); everything after parsing is xDSL's: passes are built with xDSL's `ArgSpec` and
`ModulePass.from_spec`, and option values are typed with xDSL's `isa` (`_fits` only runs that
check early so the error can name the option). `_convert_literal` reads values as xDSL's
lexer does, except that exponent floats (`1e-3`) are numbers here (xDSL lexes them as words).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec
from xdsl.utils.hints import isa

from fusionopt.diagnostics import FusionError, SourceLoc, register_source

ANCHORS = frozenset({"builtin.module", "func.func", "any", "util.func"})
PIPELINE_SOURCE = "<pass-pipeline>"

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_VALUE = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s,{}()"]+')


@dataclass(frozen=True)
class PassRequest:
    """One pass occurrence in a pipeline: its name, raw options and where it was written."""

    name: str
    options: dict[str, tuple[str, ...]]
    location: SourceLoc
    option_locations: dict[str, SourceLoc]


class _Reader:
    """A cursor over a pipeline string that reports errors at the cursor."""

    def __init__(self, text: str, source: str):
        self.text, self.source, self.pos = text, source, 0
        register_source(source, text)

    def loc(self, pos: int | None = None) -> SourceLoc:
        return SourceLoc(self.source, 1, (self.pos if pos is None else pos) + 1)

    def error(self, message: str, pos: int | None = None) -> FusionError:
        return FusionError(message, self.loc(pos))

    def skip_blanks(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def accept(self, char: str) -> bool:
        self.skip_blanks()
        if self.peek() == char:
            self.pos += 1
            return True
        return False

    def expect(self, char: str, what: str) -> None:
        if not self.accept(char):
            found = repr(self.peek()) if self.peek() else "end of pipeline"
            raise self.error(f"expected {what}, found {found}")

    def match(self, pattern: re.Pattern[str]) -> tuple[str, int] | None:
        self.skip_blanks()
        found = pattern.match(self.text, self.pos)
        if found is None:
            return None
        start, self.pos = self.pos, found.end()
        return found.group(0), start


def parse_pipeline(
    text: str,
    pipelines: Mapping[str, Any] | None = None,
    source: str = PIPELINE_SOURCE,
    _expanding: tuple[str, ...] = (),
) -> list[PassRequest]:
    """Flatten a pipeline string into pass requests, expanding named pipelines."""
    reader = _Reader(text, source)
    requests: list[PassRequest] = []
    reader.skip_blanks()
    if reader.peek():
        _parse_elements(reader, requests, pipelines or {}, _expanding, closing=None)
    return requests


def _parse_elements(reader, requests, pipelines, expanding, closing: str | None) -> None:
    while True:
        _parse_element(reader, requests, pipelines, expanding)
        if reader.accept(","):
            continue
        reader.skip_blanks()
        if closing is not None and reader.peek() == closing:
            return
        if not reader.peek() and closing is None:
            return
        expected = "',' or ')'" if closing else "',' or end of pipeline"
        found = repr(reader.peek()) if reader.peek() else "end of pipeline"
        raise reader.error(f"expected {expected}, found {found}")


def _parse_element(reader: _Reader, requests, pipelines, expanding) -> None:
    named = reader.match(_NAME)
    if named is None:
        found = repr(reader.peek()) if reader.peek() else "end of pipeline"
        raise reader.error(f"expected a pass name, found {found}")
    name, start = named
    if reader.accept("("):
        if name not in ANCHORS:
            raise reader.error(
                f"unknown pass anchor '{name}'; expected one of {', '.join(sorted(ANCHORS))}", start
            )
        if not reader.accept(")"):
            _parse_elements(reader, requests, pipelines, expanding, closing=")")
            reader.expect(")", "')'")
        return
    options, option_locs = _parse_options(reader) if _at_brace(reader) else ({}, {})
    if name in pipelines:
        if options:
            raise reader.error(f"pipeline '{name}' takes no options", start)
        if name in expanding:
            raise reader.error(f"pipeline '{name}' refers to itself", start)
        spec = pipelines[name].spec
        requests.extend(parse_pipeline(spec, pipelines, f"<pipeline {name}>", (*expanding, name)))
        return
    requests.append(PassRequest(name, options, reader.loc(start), option_locs))


def _at_brace(reader: _Reader) -> bool:
    return reader.peek() == "{"  # options must follow the name directly, as in MLIR


def _parse_options(reader: _Reader) -> tuple[dict[str, tuple[str, ...]], dict[str, SourceLoc]]:
    reader.pos += 1  # '{'
    options: dict[str, tuple[str, ...]] = {}
    locations: dict[str, SourceLoc] = {}
    while not reader.accept("}"):
        key = reader.match(_NAME)
        if key is None:
            found = repr(reader.peek()) if reader.peek() else "end of pipeline"
            raise reader.error(f"expected an option name or '}}', found {found}")
        name, start = key
        values: list[str] = []
        if reader.accept("="):
            values.append(_parse_value(reader))
            while reader.accept(","):
                values.append(_parse_value(reader))
        if name in options:
            raise reader.error(f"option '{name}' given twice", start)
        options[name], locations[name] = tuple(values), reader.loc(start)
    return options, locations


def _parse_value(reader: _Reader) -> str:
    value = reader.match(_VALUE)
    if value is None:
        raise reader.error("expected an option value")
    return value[0]


# ---------------------------------------------------------------------------------------------
# Turning requests into pass instances.


def build_passes(
    requests: list[PassRequest], available: Mapping[str, Callable[[], type[ModulePass]]]
) -> list[ModulePass]:
    return [instantiate(request, available) for request in requests]


def instantiate(
    request: PassRequest, available: Mapping[str, Callable[[], type[ModulePass]]]
) -> ModulePass:
    if request.name not in available:
        raise FusionError(unknown_pass_message(request.name, available), request.location)
    pass_cls = available[request.name]()
    fields = {f.name: f for f in dataclasses.fields(pass_cls) if f.init and f.name != "name"}
    hints = get_type_hints(pass_cls)
    converted: dict[str, tuple[Any, ...]] = {}
    for key, raw in request.options.items():
        field_name = key.replace("-", "_")
        loc = request.option_locations.get(key, request.location)
        if field_name not in fields:
            known = ", ".join(f.replace("_", "-") for f in fields) or "none"
            raise FusionError(
                f"unknown option '{key}' for pass '{request.name}' (options: {known})", loc
            )
        values = _coerce(raw, hints[field_name])
        if values is None:
            raise FusionError(
                f"invalid value '{','.join(raw)}' for option '{key}' of pass '{request.name}':"
                f" expected {_type_name(hints[field_name])}",
                loc,
            )
        converted[field_name] = values
    try:
        return pass_cls.from_spec(ArgSpec(request.name, converted))
    except ValueError as err:  # e.g. a required option is missing
        raise FusionError(f"pass '{request.name}': {err}", request.location) from None


def unknown_pass_message(name: str, available: Mapping[str, object]) -> str:
    message = f"unknown pass '{name}'"
    close = difflib.get_close_matches(name, list(available), n=1)
    if close:
        message += f"; did you mean '{close[0]}'?"
    return message


def _convert_literal(text: str) -> str | int | float | bool:
    """Option literals as xDSL's spec parser reads them: quoted string, bool, int, float, word."""
    if text.startswith('"'):
        return bytes(text[1:-1], "utf-8").decode("unicode_escape")
    if text in ("true", "false"):
        return text == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _coerce(raw: tuple[str, ...], dest: Any) -> tuple[Any, ...] | None:
    """Typed option values, widening where a user would expect it (`3` for a float option,
    `1x2` or `42` for a string option); None when they do not fit the option's type.
    A bare bool option (`{aggressive}`) means true, as in MLIR (llvm::cl)."""
    if not raw and dest is bool:
        return (True,)
    values = tuple(_convert_literal(v) for v in raw)
    candidates = (
        values,
        tuple(float(v) if type(v) is int else v for v in values),
        tuple(v[1:-1] if v.startswith('"') else v for v in raw),
    )
    return next((c for c in candidates if _fits(c, dest)), None)


def _fits(values: tuple[Any, ...], dest: Any) -> bool:
    """The check `ArgSpecConvertible.from_spec` applies, done here so we can name the option."""
    if not values:
        return get_origin(dest) in (Union, UnionType) and NoneType in get_args(dest)
    if len(values) == 1 and _isa_scalar(values[0], dest):
        return True
    return isa(values, dest)


def _isa_scalar(value: Any, dest: Any) -> bool:
    if isinstance(value, bool) and dest in (int, float):
        return False  # `true` is not a number
    if isinstance(value, int) and not isinstance(value, bool) and dest is float:
        return False
    return isa(value, dest)


def _type_name(dest: Any) -> str:
    return getattr(dest, "__name__", None) or str(dest).replace("typing.", "")
