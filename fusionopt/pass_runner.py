"""Running a pass list with MLIR-like instrumentation: IR dumps, verification, timing.

`run_passes` applies each pass to the module, then (unless disabled) verifies it if the pass
changed it: the whole module after the first pass, afterwards the ops the pass may have made
invalid (`IRSnapshot.ops_to_verify`). With `defer_verification` (`fusion-opt`'s default) it
verifies the result once, after the last pass, and only when that or a pass fails does it run the
pipeline again from a fresh copy of the input (`reload`), verifying after every pass, so that the
error still names the pass that broke the IR. Verifying after every pass as it runs cost a third
of the front end on a 224x224 CNN (shufflenet_v2_x1_0: 0.57 of 1.86 s, 16 verifications and 42
snapshots); the result, and every diagnostic of a failing run, are the same either way. What a
deferred run cannot see is invalid IR that a later pass happens to remove: pass tests that must
catch that ask for `--verify-each`. IR dumps go to stderr headed
`// -----// IR Dump After cse //----- //` as in `mlir-opt`. Errors:
* `FusionError` raised by a pass, or a failed verification after it: a user error (exit 1);
* xDSL's `DiagnosticException` (e.g. `PassFailedException`): a user error at the module;
* any other exception: `InternalError` (exit 2), a bug in the pass.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TextIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from fusionopt import pass_statistics
from fusionopt.pass_statistics import PassStatistics
from fusionopt.diagnostics import Diagnostic, FusionError, capture_diagnostics, location_of
from fusionopt.ir_io import print_module, verify_module, verify_ops
from fusionopt.ir_snapshot import IRSnapshot, take_snapshot
from fusionopt.progress import Progress


class InternalError(Exception):
    """A pass crashed: a compiler bug, not a user error."""

    def __init__(self, pass_name: str, cause: BaseException):
        super().__init__(f"pass '{pass_name}' crashed: {type(cause).__name__}: {cause}")
        self.pass_name = pass_name
        self.cause = cause


@dataclass
class PassTimer:
    """Accumulates wall time per named phase, in first-seen order (like `-mlir-timing`)."""

    times: dict[str, float] = field(default_factory=dict[str, float])

    def add(self, name: str, seconds: float) -> None:
        self.times[name] = self.times.get(name, 0.0) + seconds

    def report(self) -> str:
        total = sum(self.times.values()) or 1e-12
        bar = "===" + "-" * 73 + "==="
        lines = [
            bar,
            "Execution time report".center(79).rstrip(),
            bar,
            f"  Total Execution Time: {total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]
        for name, seconds in self.times.items():
            lines.append(f"  {seconds:8.4f} ({100 * seconds / total:5.1f}%)  {name}")
        lines.append(f"  {total:8.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"


@dataclass
class RunOptions:
    verify: bool = True
    print_before: frozenset[str] = frozenset()
    print_after: frozenset[str] = frozenset()
    print_after_all: bool = False
    print_before_all: bool = False
    generic: bool = False
    debuginfo: bool = False
    timer: PassTimer | None = None
    dump_stream: TextIO | None = None
    statistics: PassStatistics | None = None  # `--mlir-pass-statistics`: counters per pass
    elide_elements_if_larger: int | None = None  # for the IR dumps
    progress: TextIO | None = None  # a terminal for the progress line (None: off; see Progress)
    defer_verification: bool = False  # with verify: once at the end, replayed on failure (module doc)


def _dump(module: ModuleOp, when: str, pass_name: str, options: RunOptions) -> None:
    stream = options.dump_stream or sys.stderr
    stream.write(f"// -----// IR Dump {when} {pass_name} //----- //\n")
    stream.write(print_module(module, options.generic, options.debuginfo, options.elide_elements_if_larger))
    stream.write("\n")


def run_passes(passes: list[ModulePass], ctx: Context, module: ModuleOp, options: RunOptions,
               reload: Callable[[], ModuleOp] | None = None) -> None:
    """Run `passes` on `module` (module docstring); `reload` makes a fresh copy of the input,
    for the replay of a deferred verification's failure (without it, verification is not
    deferred)."""
    if not (options.verify and options.defer_verification and reload is not None):
        _run_in_order(passes, ctx, module, options)
        return
    try:
        _run_in_order(passes, ctx, module, replace(options, verify=False))
        if passes:
            _verify_after(passes[-1].name, module, options.timer)
    except (FusionError, InternalError):
        with capture_diagnostics():  # the replay's remarks and warnings: the first run's again
            _run_in_order(passes, ctx, reload(), RunOptions(verify=True))  # raises the failure, named
        raise  # the replay passed: report the deferred run's own error


def _run_in_order(passes: list[ModulePass], ctx: Context, module: ModuleOp, options: RunOptions) -> None:
    progress = Progress(options.progress, len(passes))
    try:
        verified: IRSnapshot | None = None  # the module as last verified
        for index, module_pass in enumerate(passes):
            progress.step(index, module_pass.name)
            verified = _run_one(module_pass, ctx, module, options, verified)
    finally:
        progress.done()


def _run_one(
    module_pass: ModulePass, ctx: Context, module: ModuleOp, options: RunOptions, verified: IRSnapshot | None
) -> IRSnapshot | None:
    """Apply one pass; verify unless it left the module as last verified (MLIR skips the
    verifier after a pass that preserved all analyses). Returns the module's snapshot."""
    name = module_pass.name
    if options.print_before_all or name in options.print_before:
        _dump(module, "Before", name, options)
    start = time.perf_counter()
    with pass_statistics.collecting(name, options.statistics):
        _apply(module_pass, ctx, module)
    if options.timer is not None:
        options.timer.add(name, time.perf_counter() - start)
    snapshot = verify_if_changed(name, module, options, verified) if options.verify else None
    if options.print_after_all or name in options.print_after:
        _dump(module, "After", name, options)
    return snapshot


def _apply(module_pass: ModulePass, ctx: Context, module: ModuleOp) -> None:
    try:
        module_pass.apply(ctx, module)
    except FusionError:
        raise
    except DiagnosticException as err:  # xDSL's way for a pass to fail on bad input
        message = str(err).strip().split("\n")[0] or type(err).__name__
        raise FusionError(f"pass '{module_pass.name}' failed: {message}", location_of(module))
    except RecursionError as err:
        raise InternalError(module_pass.name, err) from err
    except Exception as err:  # noqa: BLE001 - anything else is a bug in the pass
        raise InternalError(module_pass.name, err) from err


def verify_if_changed(
    pass_name: str, module: ModuleOp, options: RunOptions, verified: IRSnapshot | None
) -> IRSnapshot:
    """Verify what `pass_name` may have made invalid since the module matched `verified`
    (None: all of it); returns the module's snapshot now."""
    start = time.perf_counter()
    snapshot = take_snapshot(module)
    if options.timer is not None:  # the snapshot is part of the verifier's cost
        options.timer.add("(verifier)", time.perf_counter() - start)
    if not snapshot.same_as(verified):
        _verify_after(pass_name, module, options.timer, snapshot, verified)
    return snapshot


def _verify_after(
    pass_name: str,
    module: ModuleOp,
    timer: PassTimer | None,
    snapshot: IRSnapshot | None = None,
    verified: IRSnapshot | None = None,
) -> None:
    """Verify the module: all of it, or, given the snapshots now and when it last verified,
    the ops that may have changed since."""
    start = time.perf_counter()
    try:
        ops = snapshot.ops_to_verify(verified) if snapshot is not None and verified is not None else None
        if ops is None:
            verify_module(module)
        else:
            verify_ops(module, ops)
    except FusionError as err:
        note = Diagnostic("note", f"the IR does not verify after pass '{pass_name}'")
        raise FusionError(err.message, err.location, [*err.notes, note]) from None
    finally:
        if timer is not None:
            timer.add("(verifier)", time.perf_counter() - start)
