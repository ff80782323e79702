"""Unit tests of `--verify-diagnostics` matching (fusionopt.verify_diagnostics)."""

from __future__ import annotations

from fusionopt.diagnostics import Diagnostic, SourceLoc
from fusionopt.verify_diagnostics import check_diagnostics, parse_expectations

TEXT = """\
%0 = a  // expected-error {{on this line}}
// expected-warning@+2 {{two below}}
// expected-remark@above {{line one}}
%1 = b
// expected-note@unknown {{nowhere}}
// expected-error@-5 {{out of file}}
"""


def test_annotation_forms_and_target_lines():
    found = [(e.severity, e.text, e.line) for e in parse_expectations(TEXT, "f.mlir", 10)]
    assert found == [
        ("error", "on this line", 11),
        ("warning", "two below", 14),
        ("remark", "line one", 11),  # MLIR: `@above` skips designator lines (2 and 1 -> first)
        ("note", "nowhere", None),
        ("error", "out of file", 11),
    ]


def test_annotation_location_is_the_comment():
    (first, *_rest) = parse_expectations(TEXT, "f.mlir")
    assert first.annotation == SourceLoc("f.mlir", 1, 12)


def loc(line: int, file: str = "f.mlir") -> SourceLoc:
    return SourceLoc(file, line, 1)


def test_all_expectations_met():
    expectations = parse_expectations(TEXT, "f.mlir")
    diags = [
        Diagnostic("error", "x on this line y", loc(1)),
        Diagnostic("warning", "two below", loc(4)),
        Diagnostic("remark", "line one!", loc(1)),  # `@above` on line 3: lines 1-2 hold annotations
        Diagnostic("note", "nowhere", None),
        Diagnostic("error", "out of file", loc(1)),
    ]
    assert check_diagnostics(expectations, diags, "f.mlir") == []


def test_mismatches_are_reported_mlir_style():
    expectations = parse_expectations("%0 // expected-error {{boom}}\n", "f.mlir")
    diags = [
        Diagnostic("warning", "boom", loc(1)),  # wrong severity
        Diagnostic("error", "boom", loc(1, "other.mlir")),  # wrong file
    ]
    problems = [p.format(with_source=False) for p in check_diagnostics(expectations, diags, "f.mlir")]
    assert problems == [
        "f.mlir:1:1: error: 'warning' diagnostic emitted when expecting a 'error': boom",  # near miss
        "other.mlir:1:1: error: unexpected error: boom",
        'f.mlir:1:7: error: expected error "boom" was not produced',
    ]


def test_one_diagnostic_meets_one_expectation():
    text = "x // expected-remark {{r}}\n"
    expectations = parse_expectations(text, "f.mlir")
    diags = [Diagnostic("remark", "r", loc(1)), Diagnostic("remark", "r", loc(1))]
    problems = check_diagnostics(expectations, diags, "f.mlir")
    assert [p.message for p in problems] == ["unexpected remark: r"]


def test_located_notes_must_be_expected_but_context_notes_need_not():
    error = Diagnostic("error", "bad", loc(1), [Diagnostic("note", "context", None)])
    expectations = parse_expectations("x // expected-error {{bad}}\n", "f.mlir")
    assert check_diagnostics(expectations, [error], "f.mlir") == []
    error.notes.append(Diagnostic("note", "see here", loc(1)))
    expectations = parse_expectations("x // expected-error {{bad}}\n", "f.mlir")
    problems = check_diagnostics(expectations, [error], "f.mlir")
    assert [p.message for p in problems] == ["unexpected note: see here"]
