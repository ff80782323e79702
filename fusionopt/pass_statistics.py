"""Pass statistics (MLIR's `--mlir-pass-statistics`): passes count what they did.

A pass bumps a named counter wherever it does something worth counting:

    from fusionopt import pass_statistics
    pass_statistics.count("regions formed", len(regions))

The counter belongs to the pass that is running: the driver wraps each pass in
`collecting(pass_name)`. Outside a collection (a pass applied from Python, a test) `count` does
nothing, so passes never need to know whether statistics were asked for. `format_report`
prints the collected counters like MLIR's pass statistics block:

    ===-------------------------------------------------------------------------===
                             ... Pass statistics report ...
    ===-------------------------------------------------------------------------===
    form-dispatch-regions
      (regions formed) : 3
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass
class PassStatistics:
    """Counters per pass, in the order the passes ran (a pass run twice is listed twice)."""

    runs: list[tuple[str, dict[str, int]]] = field(default_factory=list)

    def format_report(self) -> str:
        bar = "===" + "-" * 73 + "==="
        lines = [bar, "... Pass statistics report ...".center(79).rstrip(), bar]
        for pass_name, counters in self.runs:
            lines.append(pass_name)
            width = max((len(name) for name in counters), default=0)
            for name, value in counters.items():
                lines.append(f"  ({name}){' ' * (width - len(name))} : {value}")
        return "\n".join(lines) + "\n"


_CURRENT: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "fusionopt_pass_statistics", default=None
)


def count(name: str, amount: int = 1) -> None:
    """Add `amount` to the running pass's counter `name` (no-op when nobody collects)."""
    counters = _CURRENT.get()
    if counters is not None:
        counters[name] = counters.get(name, 0) + amount


@contextlib.contextmanager
def collecting(pass_name: str, statistics: PassStatistics | None) -> Iterator[None]:
    """Counters bumped while the body runs are recorded for `pass_name` in `statistics`
    (None: nothing is recorded)."""
    if statistics is None:
        yield
        return
    counters: dict[str, int] = {}
    statistics.runs.append((pass_name, counters))
    token = _CURRENT.set(counters)
    try:
        yield
    finally:
        _CURRENT.reset(token)
