"""MLIR-style diagnostics: `file:line:col: error: message`, the source line and a caret.

* `FusionError` is the exception for every *user* error (bad input, bad pipeline, failed
  verification). `err.location` is a `SourceLoc` (or None), `err.format()` the MLIR-style text.
* Passes report non-fatal findings at an op with `emit_remark(op, msg)` / `emit_warning(op, msg)`
  (and fatal ones with `raise op_error(op, msg)`). Diagnostics go to the innermost handler installed
  with `capture_diagnostics()` (used by `--verify-diagnostics`), else straight to stderr.
* A user error made from an exception that is not a user-error type (an `IndexError` inside an
  xDSL verifier, say) is a bug hidden behind a clean message: `note_wrapped_exception(exc)`
  records it (for `recording_wrapped_exceptions()`, which the fuzzer uses to count them) and
  `FusionError.internal_cause` names its type.
* Source text is looked up in a registry filled by the parser (`register_source`), so a caret can
  be drawn under the op even after passes rewrote the IR.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation

SEVERITIES = ("error", "warning", "remark", "note")


@dataclass(frozen=True)
class SourceLoc:
    """A 1-based line/column position in a named source."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Diagnostic:
    severity: str
    message: str
    location: SourceLoc | None = None
    notes: list[Diagnostic] = field(default_factory=list["Diagnostic"])

    def format(self, with_source: bool = True) -> str:
        head = f"{self.severity}: {self.message}"
        if self.location is not None:
            head = f"{self.location}: {head}"
        lines = [head]
        if with_source and self.location is not None:
            lines.extend(_source_excerpt(self.location))
        text = "\n".join(lines)
        for note in self.notes:
            text += "\n" + note.format(with_source)
        return text


class FusionError(Exception):
    """A user-facing error: the driver prints `format()` and exits with code 1."""

    def __init__(
        self,
        message: str,
        location: SourceLoc | None = None,
        notes: list[Diagnostic] | None = None,
        internal_cause: BaseException | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.location = location
        self.notes = notes or []
        # The type name of a non-user exception this error was made from (see module doc).
        self.internal_cause = note_wrapped_exception(internal_cause)

    @property
    def diagnostic(self) -> Diagnostic:
        return Diagnostic("error", self.message, self.location, list(self.notes))

    def format(self) -> str:
        return self.diagnostic.format()

    def __str__(self) -> str:
        return self.format()


# ---------------------------------------------------------------------------------------------
# Exceptions wrapped into user errors.

# Exception types that mean "the input is wrong" when xDSL raises them while parsing or verifying.
USER_ERROR_TYPES = frozenset({"VerifyException", "ParseError", "DiagnosticException", "PassFailedException",
                              "FusionError"})
_WRAPPED_RECORDERS: list[list[str]] = []


def is_internal_exception(exc: BaseException | None) -> bool:
    return exc is not None and type(exc).__name__ not in USER_ERROR_TYPES


class DialectLoadError(RuntimeError):
    """A dialect module failed to import: a bug in fusionopt, reported with its real cause
    rather than as whatever error the half-parsed op would produce."""

    def __init__(self, what: str, module: str, cause: BaseException):
        first = str(cause).strip().split("\n")[0]
        super().__init__(f"internal error: '{what}' failed to load ({module}: {type(cause).__name__}: {first})")


def note_wrapped_exception(exc: BaseException | None) -> str | None:
    """Record that `exc` is being turned into a user error; returns its type name when it is
    an internal exception (IndexError, KeyError, ...), else None (and records nothing)."""
    if not is_internal_exception(exc):
        return None
    name = f"{type(exc).__module__}.{type(exc).__qualname__}".removeprefix("builtins.")
    if _WRAPPED_RECORDERS:
        text = str(exc).strip()
        where = _raise_site(exc)
        entry = f"{name}: {text.splitlines()[0] if text else ''}" + (f" [at {where}]" if where else "")
        for recorder in _WRAPPED_RECORDERS:
            recorder.append(entry)
    return name


def _raise_site(exc: BaseException) -> str:
    """`package/file.py:LINE` of the frame that raised `exc`."""
    tb = exc.__traceback__
    if tb is None:
        return ""
    while tb.tb_next is not None:
        tb = tb.tb_next
    path = tb.tb_frame.f_code.co_filename.replace("\\", "/")
    for marker in ("/site-packages/", "/fusionopt/", "/dialects/"):
        if marker in path:
            path = path.rsplit(marker, 1)[0].rsplit("/", 1)[-1] + marker + path.rsplit(marker, 1)[1]
            break
    return f"{path.rsplit('site-packages/', 1)[-1]}:{tb.tb_lineno}"


@contextmanager
def recording_wrapped_exceptions() -> Iterator[list[str]]:
    """Collect `TYPE: message` of every internal exception wrapped into a user error inside."""
    recorded: list[str] = []
    _WRAPPED_RECORDERS.append(recorded)
    try:
        yield recorded
    finally:
        _WRAPPED_RECORDERS.remove(recorded)


# ---------------------------------------------------------------------------------------------
# Source registry: file name -> full text, for carets.

_SOURCES: dict[str, str] = {}
# name -> offset of each line's first character, found once per source: a model with inline
# weights is a text of 100+ MB, which splitting into lines for every remark took 0.15 s.
_LINE_STARTS: dict[str, list[int]] = {}


def register_source(name: str, text: str) -> None:
    _SOURCES[name] = text
    _LINE_STARTS.pop(name, None)


def _line_starts(name: str, text: str) -> list[int]:
    if name not in _LINE_STARTS:
        starts, at = [0], text.find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = text.find("\n", at + 1)
        _LINE_STARTS[name] = starts
    return _LINE_STARTS[name]


def _source_excerpt(loc: SourceLoc) -> list[str]:
    text = _SOURCES.get(loc.file)
    if text is None or loc.line < 1:
        return []
    starts = _line_starts(loc.file, text)
    if loc.line > len(starts):
        return []
    start = starts[loc.line - 1]
    end = text.find("\n", start)
    line = text[start:] if end < 0 else text[start:end]
    return [line.rstrip("\r"), " " * max(loc.col - 1, 0) + "^"]


# ---------------------------------------------------------------------------------------------
# Locations of ops.


def source_loc_of_attr(loc: Attribute | None) -> SourceLoc | None:
    """The first file:line:col inside a location attribute (NameLoc/FusedLoc/CallSiteLoc wrap it)."""
    if isinstance(loc, FileLineColLoc):
        return SourceLoc(loc.filename.data, loc.line.data, loc.column.data)
    if isinstance(loc, NameLoc):
        return source_loc_of_attr(loc.location)
    if isinstance(loc, CallSiteLoc):
        return source_loc_of_attr(loc.callee)
    if isinstance(loc, FusedLoc):
        for inner in loc.locations.data:  # type: ignore[union-attr]
            if (found := source_loc_of_attr(inner)) is not None:
                return found
    return None


def location_of(op: Operation | None) -> SourceLoc | None:
    """The op's own source location, else the nearest enclosing op's (ops built by passes
    often have no location; pointing at their parent is more useful than nothing)."""
    while op is not None:
        if (loc := source_loc_of_attr(op.location)) is not None:
            return loc
        op = op.parent_op()
    return None


# ---------------------------------------------------------------------------------------------
# Emission.

DiagnosticHandler = Callable[[Diagnostic], None]


def _print_to_stderr(diag: Diagnostic) -> None:
    print(diag.format(), file=sys.stderr)


_HANDLERS: list[DiagnosticHandler] = []


def emit(diag: Diagnostic) -> None:
    """Deliver a diagnostic to the innermost handler (stderr when none is installed)."""
    (_HANDLERS[-1] if _HANDLERS else _print_to_stderr)(diag)


@contextmanager
def capture_diagnostics(handler: DiagnosticHandler | None = None) -> Iterator[list[Diagnostic]]:
    """Collect every diagnostic emitted inside the block (optionally also forwarding it)."""
    collected: list[Diagnostic] = []

    def collect(diag: Diagnostic) -> None:
        collected.append(diag)
        if handler is not None:
            handler(diag)

    _HANDLERS.append(collect)
    try:
        yield collected
    finally:
        _HANDLERS.remove(collect)


def emit_at(op: Operation | None, severity: str, message: str) -> Diagnostic:
    assert severity in SEVERITIES, severity
    diag = Diagnostic(severity, message, location_of(op))
    emit(diag)
    return diag


def emit_remark(op: Operation | None, message: str) -> Diagnostic:
    """Report an informational finding at `op` (`file:line:col: remark: message`)."""
    return emit_at(op, "remark", message)


def emit_warning(op: Operation | None, message: str) -> Diagnostic:
    return emit_at(op, "warning", message)


def emit_note(op: Operation | None, message: str) -> Diagnostic:
    return emit_at(op, "note", message)


def op_error(op: Operation | None, message: str) -> FusionError:
    """An error at `op`, for passes to `raise` when the input cannot be handled."""
    return FusionError(message, location_of(op))
