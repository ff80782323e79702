"""Comparing two runs' results: per-result max abs / max rel difference and a verdict.

A result matches when shapes agree and every element satisfies
`|a - b| <= atol + rtol * |b|` (numpy's `allclose` rule, `b` the reference), with NaN equal
to NaN at the same position and infinities required to match exactly. The reported relative
difference is `|a - b| / max(|a|, |b|)` (at most 2), the reported absolute one `|a - b|`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-5


@dataclass(frozen=True)
class ResultDiff:
    index: int
    max_abs: float
    max_rel: float
    ok: bool
    note: str = ""

    def describe(self) -> str:
        verdict = "ok" if self.ok else "MISMATCH"
        extra = f" ({self.note})" if self.note else ""
        return f"result{self.index}: max_abs_diff={self.max_abs:.3e} max_rel_diff={self.max_rel:.3e} {verdict}{extra}"


def diff_result(index: int, actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> ResultDiff:
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return ResultDiff(index, float("inf"), float("inf"), False, f"shape {list(actual.shape)} vs {list(expected.shape)}")
    a, b = actual.astype(np.float64), expected.astype(np.float64)
    both_nan = np.isnan(a) & np.isnan(b)
    same_inf = np.isinf(a) & (a == b)
    abs_diff = np.where(both_nan | same_inf, 0.0, np.abs(a - b))
    abs_diff = np.where(np.isnan(abs_diff), np.inf, abs_diff)  # NaN on one side only
    # relative to the larger magnitude, so near-zero references do not produce huge ratios
    scale = np.maximum(np.abs(a), np.abs(b))
    rel_diff = np.where(abs_diff == 0, 0.0, abs_diff / np.where(scale > 0, scale, 1.0))
    ok = bool(np.all(abs_diff <= atol + rtol * np.abs(np.where(np.isfinite(b), b, 0))))
    max_abs = float(abs_diff.max()) if abs_diff.size else 0.0
    max_rel = float(rel_diff.max()) if rel_diff.size else 0.0
    return ResultDiff(index, max_abs, max_rel, ok)


def diff_results(
    actual: Sequence[np.ndarray], expected: Sequence[np.ndarray], rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL
) -> list[ResultDiff]:
    """One `ResultDiff` per result; a different result count is one failing entry."""
    if len(actual) != len(expected):
        return [ResultDiff(0, float("inf"), float("inf"), False, f"{len(actual)} results vs {len(expected)}")]
    return [diff_result(i, a, b, rtol, atol) for i, (a, b) in enumerate(zip(actual, expected))]
