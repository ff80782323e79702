"""`--verify-diagnostics`: check emitted diagnostics against `// expected-*` annotations (MLIR).

    // expected-error {{text}}          a diagnostic on this line whose message contains `text`
    // expected-warning@+1 {{text}}     ... on the next line (`@-2`: two lines up)
    // expected-remark@above {{text}}   ... on the previous line (`@below`: next line)
    // expected-note@unknown {{text}}   ... with no source location

Severities: error, warning, remark, note. Every expectation must be met by a diagnostic of that
severity on that line, and every emitted diagnostic must be expected; mismatches are reported
as MLIR does (`expected error "..." was not produced`, `unexpected error: ...`).
Location-less notes attached to an error (extra context) are not required to be expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fusionopt.diagnostics import Diagnostic, SourceLoc

_EXPECTED = re.compile(
    r"expected-(error|warning|remark|note)\s*(?:@([+-]\d+|above|below|unknown))?\s*\{\{(.*)\}\}"
)


@dataclass
class Expectation:
    severity: str
    text: str
    line: int | None  # None: the diagnostic must have no location (`@unknown`)
    annotation: SourceLoc
    matched: bool = False

    def accepts(self, diag: Diagnostic, filename: str) -> bool:
        if self.matched or diag.severity != self.severity or self.text not in diag.message:
            return False
        if self.line is None:
            return diag.location is None
        loc = diag.location
        return loc is not None and loc.file == filename and loc.line == self.line


def parse_expectations(text: str, filename: str, line_offset: int = 0) -> list[Expectation]:
    """Annotations in `text` (a whole file or one `// -----` chunk starting at `line_offset`)."""
    expectations: list[Expectation] = []
    for index, line in enumerate(text.split("\n")):
        if "expected-" not in line:
            continue  # cheap filter: most lines have no annotation
        lineno = index + 1 + line_offset
        for match in _EXPECTED.finditer(line):
            severity, offset, body = match.groups()
            annotation = SourceLoc(filename, lineno, match.start() + 1)
            expectations.append(Expectation(severity, body, _target_line(lineno, offset), annotation))
    return expectations


def _target_line(lineno: int, offset: str | None) -> int | None:
    if offset is None:
        return lineno
    if offset == "unknown":
        return None
    if offset == "above":
        return lineno - 1
    if offset == "below":
        return lineno + 1
    return lineno + int(offset)


def _flatten(diags: list[Diagnostic]) -> list[Diagnostic]:
    flat: list[Diagnostic] = []
    for diag in diags:
        flat.append(Diagnostic(diag.severity, diag.message, diag.location))
        flat.extend(note for note in _flatten(diag.notes) if note.location is not None)
    return flat


def check_diagnostics(
    expectations: list[Expectation], diagnostics: list[Diagnostic], filename: str
) -> list[Diagnostic]:
    """The errors describing every mismatch (empty when the diagnostics are exactly as expected)."""
    problems: list[Diagnostic] = []
    for diag in _flatten(diagnostics):
        match = next((e for e in expectations if e.accepts(diag, filename)), None)
        if match is not None:
            match.matched = True
        else:
            problems.append(
                Diagnostic("error", f"unexpected {diag.severity}: {diag.message}", diag.location)
            )
    for expectation in expectations:
        if not expectation.matched:
            message = f'expected {expectation.severity} "{expectation.text}" was not produced'
            problems.append(Diagnostic("error", message, expectation.annotation))
    return problems
