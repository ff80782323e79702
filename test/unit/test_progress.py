"""The progress line of long runs (fusionopt.progress): pass pipelines, ONNX import and
interpreter runs show it on a terminal once they have taken a while, erase it at the end, and
never write it to pipes or files."""

from __future__ import annotations

import io

from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

from fusionopt.ir_io import parse_module
from fusionopt.pass_runner import RunOptions, run_passes
from fusionopt.progress import Progress, progress_stream
from fusionopt.registry import make_context

TEXT = "func.func @f(%a: f32) -> f32 {\n  %b = arith.addf %a, %a : f32\n  func.return %b : f32\n}\n"


def test_progress_names_each_pass_after_the_delay_and_erases_itself(monkeypatch):
    monkeypatch.setattr(Progress, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(Progress, "MIN_INTERVAL", 0.0)
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


def test_interpreter_and_onnx_import_report_progress_and_erase_it(monkeypatch):
    from pathlib import Path

    from fusionopt.importers.onnx_import import import_onnx
    from fusionopt.interpreter import find_entry, random_inputs, run_function

    monkeypatch.setattr(Progress, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(Progress, "MIN_INTERVAL", 0.0)
    root = Path(__file__).resolve().parents[2]
    module = parse_module((root / "examples" / "mlp_towers.mlir").read_text(), "mlp_towers.mlir")
    entry = find_entry(module)
    stream = io.StringIO()
    run_function(module, random_inputs(entry), entry, progress=stream)
    assert "graph.dot" in stream.getvalue() and stream.getvalue().endswith("\r\033[K")
    stream = io.StringIO()
    import_onnx(root / "test" / "data" / "onnx" / "cnn_block.onnx", progress=stream)
    assert "] Conv " in stream.getvalue() and stream.getvalue().endswith("\r\033[K")
