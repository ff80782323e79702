"""`--verify-diagnostics`: check emitted diagnostics against `// expected-*` annotations (MLIR).

    // expected-error {{text}}          a diagnostic on this line whose message contains `text`
    // expected-warning@+1 {{text}}     ... on the next line (`@-2`: two lines up)
    // expected-remark@above {{text}}   ... on the previous line (`@below`: next line)
    // expected-note@unknown {{text}}   ... with no source location
    // expected-error-re {{op @{{.*}} returns}}  `-re`: `{{...}}` inside the text are regexes

`@above`/`@below` skip lines that themselves hold annotations, as in MLIR, so a stack of
`@below` annotations all point at the op under them. One annotation per line (MLIR's rule). Severities: error, warning, remark, note. Every expectation must be met by a diagnostic of that
severity on that line, and every emitted diagnostic must be expected; mismatches are reported
as MLIR does (`expected error "..." was not produced`, `unexpected error: ...`).
Location-less notes attached to an error (extra context) are not required to be expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fusionopt.diagnostics import Diagnostic, FusionError, SourceLoc

_EXPECTED = re.compile(
    r"expected-(error|warning|remark|note)(-re)?\s*(?:@([+-]\d+|above|below|unknown))?\s*"
    r"\{\{(.*)\}\}\s*$"  # as in MLIR: the text runs to the last `}}`, which ends the line
)
_REGEX_PART = re.compile(r"\{\{(.*?)\}\}")


@dataclass
class Expectation:
    severity: str
    text: str
    line: int | None  # None: the diagnostic must have no location (`@unknown`)
    annotation: SourceLoc
    matched: bool = False
    pattern: re.Pattern[str] | None = None  # `expected-*-re`: the text as a regex

    def matches_text(self, message: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message

    def accepts(self, diag: Diagnostic, filename: str) -> bool:
        if self.matched or diag.severity != self.severity:
            return False
        return self.matches_place(diag, filename) and self.matches_text(diag.message)

    def matches_place(self, diag: Diagnostic, filename: str) -> bool:
        if self.line is None:
            return diag.location is None
        loc = diag.location
        return loc is not None and loc.file == filename and loc.line == self.line


def parse_expectations(text: str, filename: str, line_offset: int = 0) -> list[Expectation]:
    """Annotations in `text` (a whole file or one `// -----` chunk starting at `line_offset`).

    Follows MLIR's `computeExpectedDiags`: a line holding an annotation is a "designator line";
    `@above` means the last line before it that is not one (the first line if none), `@below`
    the next such line (the last line if none)."""
    expectations: list[Expectation] = []
    lines = text.split("\n")
    last_plain, waiting_below = 0, []  # 0-based index; expectations waiting for a plain line
    for index, line in enumerate(lines):
        match = _EXPECTED.search(line) if "expected-" in line else None
        if match is None:
            for expectation in waiting_below:
                expectation.line = index + 1 + line_offset
            waiting_below, last_plain = [], index
            continue
        severity, is_regex, offset, body = match.groups()
        annotation = SourceLoc(filename, index + 1 + line_offset, match.start() + 1)
        pattern = _compile_regex_text(body, annotation) if is_regex else None
        target = _target_index(offset, index, last_plain, len(lines))
        line_no = None if target is None else target + 1 + line_offset
        expectation = Expectation(severity, body, line_no, annotation, pattern=pattern)
        if offset == "below":
            waiting_below.append(expectation)
        expectations.append(expectation)
    return expectations


def _target_index(offset: str | None, index: int, last_plain: int, line_count: int) -> int | None:
    """0-based target line of an annotation on line `index` (`@below` is fixed up later)."""
    if offset is None:
        return index
    if offset == "unknown":
        return None
    if offset == "above":
        return last_plain
    if offset == "below":
        return line_count - 1  # dangling `@below`: the last line, as in MLIR
    return index + int(offset)


def _compile_regex_text(body: str, annotation: SourceLoc) -> re.Pattern[str]:
    """`expected-*-re` text: literal except `{{...}}` groups, which are regexes (as in MLIR)."""
    parts, last = [], 0
    for group in _REGEX_PART.finditer(body):
        parts.append(re.escape(body[last : group.start()]))
        parts.append(f"(?:{group.group(1)})")
        last = group.end()
    parts.append(re.escape(body[last:]))
    try:
        return re.compile("".join(parts))
    except re.error as err:
        raise FusionError(f"invalid regex in expected diagnostic: {err}", annotation) from None


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
            problems.append(Diagnostic("error", _mismatch(diag, expectations, filename), diag.location))
    for expectation in expectations:
        if not expectation.matched:
            message = f'expected {expectation.severity} "{expectation.text}" was not produced'
            problems.append(Diagnostic("error", message, expectation.annotation))
    return problems


def _mismatch(diag: Diagnostic, expectations: list[Expectation], filename: str) -> str:
    """Why `diag` is unexpected; names the expected severity on a near miss (as MLIR does)."""
    for expectation in expectations:
        if expectation.severity == diag.severity:
            continue  # same severity: a second diagnostic for a one-time expectation
        if expectation.matches_place(diag, filename) and expectation.matches_text(diag.message):
            return (
                f"'{diag.severity}' diagnostic emitted when expecting a '{expectation.severity}'"
                f": {diag.message}"
            )
    return f"unexpected {diag.severity}: {diag.message}"
