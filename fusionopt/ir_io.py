"""Reading and writing IR text: the one entry point every tool and test uses.

`parse_module` returns a verified `builtin.module` whose ops carry `file:line:col` locations;
user errors (syntax, unknown ops, undefined values, verifier failures) raise `FusionError`
(see fusionopt/diagnostics.py) carrying that location. `verify_module` verifies a module and
reports the innermost failing op's location.
"""

from __future__ import annotations

import gc
import sys

from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.printer import Printer

from fusionopt.diagnostics import FusionError, location_of, register_source
from fusionopt.locations import parse_module_located
from fusionopt.registry import make_context


def parse_module(
    text: str,
    filename: str = "<stdin>",
    ctx: Context | None = None,
    *,
    verify: bool = True,
    line_offset: int = 0,
) -> ModuleOp:
    """Parse (and by default verify) `text`; `line_offset` is for chunks of a bigger file
    whose full text the caller registered with `register_source`."""
    ctx = ctx or make_context()
    if line_offset == 0:
        register_source(filename, text)
    module = _without_gc(parse_module_located, ctx, text, filename, line_offset)
    if verify:
        verify_module(module)
    return module


def _without_gc(fn, *args):
    """Run `fn` with the cyclic GC paused: parsing allocates millions of short-lived objects
    that hold no cycles worth collecting, and GC passes cost ~13% of parse time (measured on
    a 20k-op module, bench/parse_print.py)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return fn(*args)
    finally:
        if was_enabled:
            gc.enable()


def read_source(path: str | Path) -> tuple[str, str]:
    """(text, name) of an input file, `-` meaning stdin; unreadable input is a `FusionError`
    worded like fusion-opt's and mlir-opt's (`could not open input file ...`)."""
    if str(path) == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(encoding="utf-8"), str(path)
    except (OSError, UnicodeDecodeError) as err:
        raise FusionError(f"could not open input file '{path}': {_os_reason(err)}") from None


def parse_file(path: str | Path, ctx: Context | None = None) -> ModuleOp:
    """Parse and verify a file (`-`: stdin)."""
    text, name = read_source(path)
    return parse_module(text, name, ctx)


def print_module(module: ModuleOp, generic: bool = False, debuginfo: bool = False) -> str:
    out = StringIO()
    MlirPrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo).print_op(module)
    out.write("\n")
    return out.getvalue()


class MlirPrinter(Printer):
    """xDSL's printer, but `builtin.module` prints as `module`, as MLIR tools print it, so
    our output diffs cleanly against `mlir-opt`/`iree-opt` (both spellings parse everywhere)."""

    def print_op(self, op: Operation) -> None:
        if not isinstance(op, ModuleOp) or self.print_generic_format:
            return super().print_op(op)
        self.enter_scope()  # a module is isolated from above: fresh SSA names inside
        self.print_string("module")
        op.print(self)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)
        self.exit_scope()


def verify_module(module: Operation) -> None:
    """`module.verify()`, but a failure becomes a `FusionError` at the failing op."""
    try:
        module.verify()
    except Exception as err:  # noqa: BLE001 - xDSL raises several exception types on bad IR
        op, message = _find_failing_op(module)
        if op is None:  # the fast path failed but the per-op walk did not: report as is
            op, message = module, _first_line(err)
        # MLIR's form is "'name' op message"; some xDSL messages already start with the name.
        message = message.removeprefix(f"'{op.name}' op ").removeprefix(f"'{op.name}' ")
        raise FusionError(f"'{op.name}' op {message}", location_of(op)) from None


def _find_failing_op(op: Operation) -> tuple[Operation | None, str]:
    """Innermost op whose own verification fails (children are checked first)."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                found, message = _find_failing_op(child)
                if found is not None:
                    return found, message
    try:
        op.verify(verify_nested_ops=False)
        for region in op.regions:  # the block-level checks skipped above (e.g. empty blocks)
            for block in region.blocks:
                if not block.ops:
                    block.verify()
    except Exception as err:  # noqa: BLE001
        return op, _first_line(err)
    return None, ""


_VERIFY_PREFIX = "Operation does not verify: "


def _first_line(err: BaseException) -> str:
    text = str(err).strip().split("\n")[0] or type(err).__name__
    return text.removeprefix(_VERIFY_PREFIX)


def _os_reason(err: BaseException) -> str:
    return getattr(err, "strerror", None) or str(err)
