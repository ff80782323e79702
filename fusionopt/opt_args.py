"""Command-line interface of `fusion-opt`: the argument parser and `--list-passes`.

Flag names follow `mlir-opt`/`iree-opt` (`--pass-pipeline`, `--print-ir-after-all`,
`--mlir-print-debuginfo`, ...) and keep xDSL's short forms (`-p`, `-o`).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Mapping

from xdsl.passes import ModulePass, get_pass_option_infos

from fusionopt.cli import ToolArgumentParser, UsageError

__all__ = ["UsageError", "build_arg_parser", "parse_command_line", "format_pass_list", "pass_summary", "pass_options"]


QUOTE = "'"


def _pass_names(value: str) -> frozenset[str]:
    return frozenset(name.strip() for name in value.split(",") if name.strip())


def _bool_value(value: str) -> bool:
    """llvm::cl's spellings of a boolean flag's value (`--verify-each=false`)."""
    lowered = value.lower()
    if lowered in ("true", "1", "on", "yes"):
        return True
    if lowered in ("false", "0", "off", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got '{value}'")


_BOOL_FLAGS = ("--verify-each",)  # llvm::cl style: --flag, --flag=true, --flag=false


def normalize_argv(argv: list[str]) -> list[str]:
    """`--verify-each=false` -> `--no-verify-each` (argparse has no `--flag=BOOL`)."""
    result = []
    for word in argv:
        name, sep, value = word.partition("=")
        if sep and name in _BOOL_FLAGS:
            try:
                word = name if _bool_value(value) else "--no-" + name[2:]
            except argparse.ArgumentTypeError as err:
                raise UsageError(f"argument {name}: {err}") from None
        result.append(word)
    return result


def parse_command_line(argv: list[str]) -> argparse.Namespace:
    parser = build_arg_parser()
    try:
        words = normalize_argv(argv)
    except UsageError as err:
        raise UsageError(str(err), parser.format_usage().rstrip()) from None
    return parser.parse_args(words)


def _non_negative(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got '{value}'")
    return number


def build_arg_parser() -> argparse.ArgumentParser:
    parser = ToolArgumentParser(
        prog="fusion-opt",
        description="fusionopt modular optimizer driver (MLIR-style, built on xDSL)",
    )
    add = parser.add_argument
    add("input_file", nargs="?", default="-",
        help="input file, or '-' for stdin (default); a MODEL.onnx is imported first, as "
             "fusion-translate --import-onnx does (inline weights)")
    add("--dim", action="append", default=[], dest="dims", metavar="NAME=N",
        help="with a MODEL.onnx input: pin its symbolic dim NAME to N before import (repeatable)")
    add("-o", "--output-file", help="output file (written only when the run succeeds)")
    add("-p", "--passes", action="append", default=[],
        help="pass pipeline, xDSL syntax: 'cse,linalg-fuse-elementwise{aggressive=true}' "
             "(named pipelines allowed)")
    add("--pass-pipeline", action="append", default=[],
        help="pass pipeline, MLIR syntax: 'builtin.module(cse,func.func(dce))'")
    add("--list-passes", action="store_true", help="list passes and pipelines with options")
    add("--print-iree-flags", action="store_true",
        help="print the iree-compile flags the pipeline's output is built with (one line; empty "
             "when it needs none) and exit")
    add("--split-input-file", action="store_true",
        help="process each chunk separated by '// -----' independently")
    add("--verify-diagnostics", action="store_true",
        help="check diagnostics against '// expected-error {{...}}' annotations")
    add("--allow-unregistered-dialect", action="store_true",
        help="accept operations of unregistered dialects")
    add("--disable-verify", action="store_true",
        help="do not verify the IR after parsing and after every pass")
    add("--verify-each", action="store_true", default=None,
        help="verify the IR after every pass as it runs (pass tests). Default: verify the "
             "result once and, only if that or a pass fails, run the passes again verifying "
             "after each, so the error names the pass that broke the IR; --verify-each=false: "
             "no verification after passes")
    add("--no-verify-each", action="store_false", dest="verify_each", help=argparse.SUPPRESS)
    add("--print-op-generic", "--mlir-print-op-generic", action="store_true",
        dest="print_op_generic", help="print operations in generic form")
    add("--mlir-print-debuginfo", "--print-debuginfo", action="store_true",
        dest="print_debuginfo", help="print source locations (loc(...))")
    # Our spellings and MLIR's (`iree-opt` accepts only the --mlir-* ones).
    add("--print-ir-after-all", "--mlir-print-ir-after-all", action="store_true",
        dest="print_ir_after_all", help="print the IR after every pass (stderr)")
    add("--print-ir-before-all", "--mlir-print-ir-before-all", action="store_true",
        dest="print_ir_before_all", help="print the IR before every pass (stderr)")
    add("--print-ir-after", "--mlir-print-ir-after", type=_pass_names, default=frozenset(),
        dest="print_ir_after", metavar="PASS[,PASS]", help="print the IR after the named passes (stderr)")
    add("--print-ir-before", "--mlir-print-ir-before", type=_pass_names, default=frozenset(),
        dest="print_ir_before", metavar="PASS[,PASS]", help="print the IR before the named passes (stderr)")
    add("--mlir-elide-elementsattrs-if-larger", type=_non_negative, metavar="N",
        dest="elide_elements_if_larger",
        help="print non-splat dense constants of more than N elements as "
             "'dense_resource<__elided__>' (as MLIR does; the values are lost)")
    add("--mlir-pass-statistics", "--pass-statistics", action="store_true", dest="pass_statistics",
        help="print what each pass did (regions formed, ops fused, dots batched, ...) to stderr")
    add("--show-dialects", action="store_true", help="list the registered dialects and exit")
    add("--version", action="store_true", help="print the fusionopt and xDSL versions and exit")
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


def pass_options(pass_cls: type[ModulePass]) -> list[tuple[str, str, str | None]]:
    """The options a pipeline may set: (name as spelt in a pipeline, type, default or None)."""
    options = []
    for info in get_pass_option_infos(pass_cls):
        field = next(f for f in dataclasses.fields(pass_cls) if f.name == info.name)
        if field.init:
            options.append((info.name.replace("_", "-"), info.expected_type.strip(QUOTE), info.default_value))
    return options


def _option_lines(pass_cls: type[ModulePass]) -> list[str]:
    return [f"      {option}: {kind}{'' if default is None else f' = {default}'}"
            for option, kind, default in pass_options(pass_cls)]


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
