"""A one-line progress indicator for long runs, on a terminal only.

Long pipelines, big imports and interpreter runs of whole models take seconds to minutes; a line
that says what is running tells the user the tool is alive. It appears only once a run has taken
PROGRESS_AFTER seconds, only on a terminal (`progress_stream()`: never in pipes, files or
tests, where it would be noise), and is erased when the run ends.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """`[k/n] label  t s` rewritten in place on `stream` (None: off)."""

    PROGRESS_AFTER = 2.0
    MIN_INTERVAL = 0.1  # redraw at most this often: an interpreter step can take microseconds

    def __init__(self, stream: TextIO | None, total: int):
        self.stream, self.total = stream, total
        self.start = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def step(self, index: int, label: str) -> None:
        if self.stream is None:
            return
        now = time.perf_counter()
        if now - self.start < self.PROGRESS_AFTER or (self.shown and now - self.last < self.MIN_INTERVAL):
            return
        self.stream.write(f"\r\033[K[{index + 1}/{self.total}] {label}  {now - self.start:.1f} s")
        self.stream.flush()
        self.shown, self.last = True, now

    def done(self) -> None:
        if self.shown and self.stream is not None:
            self.stream.write("\r\033[K")
            self.stream.flush()


def progress_stream() -> TextIO | None:
    """stderr when it is a terminal (the only place a progress line belongs), else None."""
    return sys.stderr if sys.stderr.isatty() else None
