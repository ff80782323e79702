"""The source line and caret a diagnostic prints (`fusionopt.diagnostics._source_excerpt`): any
line of a registered source, the first and the last (with or without a final newline, CRLF line
ends), none past the end, and a re-registered source read afresh."""

from __future__ import annotations

import pytest

from fusionopt.diagnostics import SourceLoc, _source_excerpt, register_source

TEXT = "first line\r\n  second = op\nthird"


@pytest.mark.parametrize(("line", "col", "expected"), [
    (1, 1, ["first line", "^"]),
    (2, 3, ["  second = op", "  ^"]),
    (3, 5, ["third", "    ^"]),
    (4, 1, []),
    (0, 1, []),
])
def test_excerpt_of_each_line(line: int, col: int, expected: list[str]):
    register_source("excerpt.mlir", TEXT)
    assert _source_excerpt(SourceLoc("excerpt.mlir", line, col)) == expected


def test_a_final_newline_ends_with_an_empty_line_and_a_new_text_is_read_afresh():
    register_source("excerpt.mlir", TEXT + "\n")
    assert _source_excerpt(SourceLoc("excerpt.mlir", 4, 1)) == ["", "^"]
    register_source("excerpt.mlir", "other\nlines")
    assert _source_excerpt(SourceLoc("excerpt.mlir", 2, 2)) == ["lines", " ^"]
    assert _source_excerpt(SourceLoc("unregistered.mlir", 1, 1)) == []
