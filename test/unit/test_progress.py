"""The progress line of long pass pipelines (fusionopt.pass_runner.Progress): shown on a
terminal once a run has taken a while, erased at the end, never written to pipes or files."""

from __future__ import annotations

import io

from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

from fusionopt.ir_io import parse_module
from fusionopt.pass_runner import Progress, RunOptions, progress_stream, run_passes
from fusionopt.registry import make_context

TEXT = "func.func @f(%a: f32) -> f32 {\n  %b = arith.addf %a, %a : f32\n  func.return %b : f32\n}\n"


def test_progress_names_each_pass_after_the_delay_and_erases_itself(monkeypatch):
    monkeypatch.setattr(Progress, "PROGRESS_AFTER", 0.0)
    stream = io.StringIO()
    run_passes([CommonSubexpressionElimination(), CanonicalizePass()], make_context(), parse_module(TEXT, "<t>"), RunOptions(progress=stream))
    text = stream.getvalue()
    assert "[1/2] cse" in text and "[2/2] canonicalize" in text
    assert text.endswith("\r\033[K")  # the line is cleared when the run ends


def test_quick_runs_show_nothing():
    stream = io.StringIO()
    run_passes([CommonSubexpressionElimination()], make_context(), parse_module(TEXT, "<t>"), RunOptions(progress=stream))
    assert stream.getvalue() == ""


def test_no_progress_when_stderr_is_not_a_terminal():
    assert progress_stream() is None  # pytest captures stderr: not a tty
