"""Command-line interface of `fusion-opt`: the argument parser and `--list-passes`.

Flag names follow `mlir-opt`/`iree-opt` (`--pass-pipeline`, `--print-ir-after-all`,
`--mlir-print-debuginfo`, ...) and keep xDSL's short forms (`-p`, `-o`).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Mapping

from xdsl.passes import ModulePass, get_pass_option_infos


QUOTE = "'"


class UsageError(Exception):
    """A malformed command line (reported as `fusion-opt: error: ...`, exit code 1)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message)


def _pass_names(value: str) -> frozenset[str]:
    return frozenset(name.strip() for name in value.split(",") if name.strip())


def build_arg_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fusion-opt",
        description="fusionopt modular optimizer driver (MLIR-style, built on xDSL)",
    )
    add = parser.add_argument
    add("input_file", nargs="?", default="-", help="input file, or '-' for stdin (default)")
    add("-o", "--output-file", help="output file (written only when the run succeeds)")
    add("-p", "--passes", action="append", default=[],
        help="pass pipeline, xDSL syntax: 'cse,canonicalize{opt=1}' (named pipelines allowed)")
    add("--pass-pipeline", action="append", default=[],
        help="pass pipeline, MLIR syntax: 'builtin.module(cse,func.func(dce))'")
    add("--list-passes", action="store_true", help="list passes and pipelines with options")
    add("--split-input-file", action="store_true",
        help="process each chunk separated by '// -----' independently")
    add("--verify-diagnostics", action="store_true",
        help="check diagnostics against '// expected-error {{...}}' annotations")
    add("--allow-unregistered-dialect", action="store_true",
        help="accept operations of unregistered dialects")
    add("--disable-verify", action="store_true",
        help="do not verify the IR after parsing and after every pass")
    add("--print-op-generic", "--mlir-print-op-generic", action="store_true",
        dest="print_op_generic", help="print operations in generic form")
    add("--mlir-print-debuginfo", "--print-debuginfo", action="store_true",
        dest="print_debuginfo", help="print source locations (loc(...))")
    add("--print-ir-after-all", action="store_true", help="print the IR after every pass (stderr)")
    add("--print-ir-before-all", action="store_true", help="print the IR before every pass (stderr)")
    add("--print-ir-after", type=_pass_names, default=frozenset(), metavar="PASS[,PASS]",
        help="print the IR after the named passes (stderr)")
    add("--print-ir-before", type=_pass_names, default=frozenset(), metavar="PASS[,PASS]",
        help="print the IR before the named passes (stderr)")
    add("--time-passes", "--mlir-timing", action="store_true", dest="time_passes",
        help="print a table of the time spent in parsing, each pass, and printing (stderr)")
    return parser


# ---------------------------------------------------------------------------------------------
# --list-passes


# Upstream xDSL passes without a docstring.
_UPSTREAM_SUMMARIES = {
    "cse": "Eliminate common subexpressions (pure ops with equal operands and attributes).",
    "dce": "Remove operations without uses and without side effects.",
}


def pass_summary(pass_cls: type) -> str:
    """First paragraph of the class docstring, on one line (a summary sentence may wrap);
    dataclasses invent `Name(field, ...)` when the docstring is missing."""
    doc = (pass_cls.__doc__ or "").strip()
    if not doc or doc.startswith(f"{pass_cls.__name__}("):
        return _UPSTREAM_SUMMARIES.get(getattr(pass_cls, "name", ""), "(no description)")
    return " ".join(doc.split("\n\n")[0].split())


def _option_lines(pass_cls: type[ModulePass]) -> list[str]:
    lines = []
    for info in get_pass_option_infos(pass_cls):
        field = next(f for f in dataclasses.fields(pass_cls) if f.name == info.name)
        if not field.init:
            continue
        default = "" if info.default_value is None else f" = {info.default_value}"
        option = info.name.replace("_", "-")
        lines.append(f"      {option}: {info.expected_type.strip(QUOTE)}{default}")
    return lines


def format_pass_list(
    passes: Mapping[str, Callable[[], type[ModulePass]]], pipelines: Mapping[str, object]
) -> str:
    width = max((len(n) for n in (*passes, *pipelines)), default=0) + 2
    lines = ["Passes:"]
    for name in sorted(passes):
        try:
            pass_cls = passes[name]()
        except Exception as err:  # noqa: BLE001 - one broken pass must not hide the others
            lines.append(f"  {name:<{width}}(failed to load: {type(err).__name__}: {err})")
            continue
        lines.append(f"  {name:<{width}}{pass_summary(pass_cls)}")
        lines.extend(_option_lines(pass_cls))
    lines.append("Pipelines:")
    for name in sorted(pipelines):
        pipeline = pipelines[name]
        lines.append(f"  {name:<{width}}{getattr(pipeline, 'summary', '')}")
        lines.append(f"      = {getattr(pipeline, 'spec', '')}")
    return "\n".join(lines) + "\n"
