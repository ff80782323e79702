"""What the four tools share on the command line: the argument parser and the exit codes.

Exit codes (every tool: fusion-opt, fusion-run, fusion-stats, fusion-translate):
* 0 success;
* 1 user error: a bad command line (usage line + message, "did you mean" for a misspelt
  flag), unreadable or invalid input, failed verification, a failed `--compare`, an
  unwritable output;
* 2 internal error: a crash in the tool or a pass (traceback, "please report").
"""

from __future__ import annotations

import argparse
import difflib
import gc
import os
import re
import sys
import traceback
from collections.abc import Callable

from fusionopt.diagnostics import FusionError

EXIT_OK, EXIT_USER_ERROR, EXIT_INTERNAL_ERROR = 0, 1, 2


class UsageError(Exception):
    """A malformed command line (reported as `TOOL: error: ...` after the usage line, exit 1)."""

    def __init__(self, message: str, usage: str = ""):
        super().__init__(message)
        self.usage = usage


class ToolArgumentParser(argparse.ArgumentParser):
    """argparse, but errors raise `UsageError` (exit 1, not argparse's 2) and a misspelt flag
    gets a "did you mean" from the parser's own flags."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(self._with_suggestions(message), self.format_usage().rstrip())

    def option_names(self) -> list[str]:
        return [name for action in self._actions for name in action.option_strings]

    def _with_suggestions(self, message: str) -> str:
        match = re.match(r"unrecognized arguments: (.*)", message)
        if not match:
            return message
        hints = []
        for word in match.group(1).split():
            if not word.startswith("-"):
                continue
            flag = word.split("=", 1)[0]
            close = difflib.get_close_matches(flag, self.option_names(), n=1, cutoff=0.6)
            if close:
                hints.append(f"'{flag}'; did you mean '{close[0]}'?")
        if hints:
            message += "\n" + "\n".join(f"note: unknown flag {hint}" for hint in hints)
        return message


def report_usage_error(prog: str, err: UsageError, stderr=None) -> int:
    stream = stderr or sys.stderr
    if err.usage:
        stream.write(err.usage + "\n")
    stream.write(f"{prog}: error: {err}\n")
    return EXIT_USER_ERROR


def report_internal_error(prog: str, message: str, cause: BaseException, stderr=None) -> int:
    stream = stderr or sys.stderr
    stream.write(f"{prog}: internal error: {message}\n")
    stream.write("".join(traceback.format_exception(cause)))
    stream.write("Please report this as a fusionopt bug, with the command line above.\n")
    return EXIT_INTERNAL_ERROR


def run_tool(prog: str, body: Callable[[], int]) -> int:
    """Run a tool's body with the shared exit-code convention (module docstring)."""
    try:
        return body()
    except UsageError as err:
        return report_usage_error(prog, err)
    except FusionError as err:
        sys.stderr.write(err.format() + "\n")
        return EXIT_USER_ERROR
    except BrokenPipeError:  # `TOOL ... | head`: not a bug
        return EXIT_USER_ERROR
    except SystemExit:
        raise
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # noqa: BLE001 - a bug in the tool is an internal error
        return report_internal_error(prog, f"{type(err).__name__}: {err}", err)


YOUNG_COLLECTION_OBJECTS = 100_000  # Python's default: 700


def collect_cycles_rarely() -> None:
    """Tune Python's cycle collector for one compiler run (console entry points only, once
    their imports are done): the objects that exist now (modules, dialects) leave every future
    collection (`gc.freeze`), and a young collection waits for 100k new container objects.
    Why: IR is reference cycles (an op, its operands' uses, its block, its parent), so with the
    default threshold the collector walks the live IR every few hundred objects built: 0.1-0.15 s
    of shufflenet_v2_x1_0's ~1.5 s in `fusion-opt`, 1.2 s of convnext_tiny's 4.9 s, with the
    same peak memory (bench/RESULTS.md, "Front end: the cycle collector"). Cycles are still
    collected, only less often."""
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_OBJECTS, 50, 100)


def exit_process(code: int) -> None:
    """End a tool's process with `code` without tearing down the interpreter: freeing the
    module's objects one by one takes a quarter of a second on a 2000-op model with tens of
    MB of weights (LLVM's tools likewise skip freeing at exit, clang's -disable-free). Only
    for the console entry points: the standard streams are flushed first, and a failing
    flush (a closed pipe) takes Python's ordinary exit."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)
