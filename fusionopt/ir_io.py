"""Reading and writing IR text: the one entry point every tool and test uses.

`parse_module` returns a verified `builtin.module`; user errors raise `FusionError`
(see fusionopt/diagnostics.py) carrying a `file:line:col` location.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from fusionopt.registry import make_context


def parse_module(text: str, filename: str = "<stdin>", ctx: Context | None = None) -> ModuleOp:
    ctx = ctx or make_context()
    module = Parser(ctx, text, name=filename).parse_module()
    module.verify()
    return module


def parse_file(path: str | Path, ctx: Context | None = None) -> ModuleOp:
    path = Path(path)
    return parse_module(path.read_text(), str(path), ctx)


def print_module(module: ModuleOp, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    out.write("\n")
    return out.getvalue()
