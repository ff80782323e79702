"""Comparing runs' results: two judges, each saying which criterion held and at what tolerance.

`diff_results(actual, expected, rtol, atol)` -- two runs in the same precision (numpy's
`allclose` rule, `b` the expected side): a result matches when shapes agree and every element
satisfies `|a - b| <= atol + rtol * |b|`, NaN equal to NaN at the same position, infinities
matching exactly. `describe()` says whether the relative term alone ("rel"), the absolute term
alone ("abs") or only their sum ("abs+rel") covered the largest differences, with both
tolerances, so a max_rel_diff far above rtol never sits next to a bare "ok".

`judge_against_reference(actual, baseline, reference, rtol)` -- the rewrite judged against the
truth: `actual` is the transformed program in its own precision, `baseline` the input program
in its own precision and `reference` the input program run in float64 (see `values.py`). Each
result passes by one of two criteria:

  (a) "within tolerance of the f64 reference": `|actual - ref| <= rtol*|ref| + atol` everywhere,
      with `atol = atol_scale * max|ref|` over the finite reference entries (atol_scale defaults
      to rtol), so near-zero entries of a large result do not demand impossible relative accuracy;
  (b) "no worse than the input program's own error": `max|actual - ref| <= 4 * max|baseline -
      ref| + atol` -- on ill-conditioned inputs the input program is itself far from the truth,
      and a rewrite may reorder rounding but not add more than a small factor of error. The
      input program's error is the larger of its run on the inputs and, when given (`nudged`),
      its run on the same inputs each one ulp off (`input_families.nudged`): a sum that cancels
      to exactly 0 in the input program's order is ~1 ulp of its terms off in another order,
      and the nudged run shows that noise where the plain run was exact by luck. A rewrite
      that cancels (E[x^2] - E[x]^2) is orders of magnitude beyond it and still fails. The
      nudged run's error counts only up to `NOISE_CAP` (2^-16) times the result's scale
      (`noise_scale`: the largest finite input or input-program value): a nudge that flips a
      discrete choice (an argmax between tied values, then a gather of another row) moves a
      result by the size of the data, which is not rounding noise, and is then ignored.

The reference is taken in the results' type: a value beyond its finite range is the infinity
the type holds there. It fails regardless when shapes differ, and when `actual` is NaN or
infinite where `baseline` and the reference are finite (a rewrite that cancels
catastrophically, e.g. a variance as E[x^2] - E[x]^2 on constant rows), or finite where both
the input program and the reference are NaN/inf. Only that is asked where the reference is
NaN/inf (no value in exact arithmetic, or beyond every finite value: which special value comes
out depends on evaluation order), and nothing where the input program itself overflowed
(non-finite, the reference finite). Integer and i1 results must equal the input program or
the reference exactly, and `rtol=0` means "bit-identical to the input program".

The relative differences reported are `|a - b| / max(|a|, |b|)` (at most 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-5
NO_WORSE_FACTOR = 4.0
NOISE_CAP = 2.0 ** -16

WITHIN_REFERENCE = "within tolerance of the f64 reference"
NO_WORSE = "no worse than the input program's own error vs the f64 reference"
IDENTICAL = "identical to the input program"
EXACT_INTEGERS = "integers equal"


@dataclass(frozen=True)
class ResultDiff:
    index: int
    max_abs: float
    max_rel: float
    ok: bool
    note: str = ""
    rtol: float = float("nan")
    atol: float = float("nan")
    criterion: str = ""  # "rel", "abs" or "abs+rel": which allclose term covered the differences

    def describe(self) -> str:
        verdict = f"ok by {self.criterion}" if self.ok and self.criterion else ("ok" if self.ok else "MISMATCH")
        tols = f" (rtol={self.rtol:.1e} atol={self.atol:.1e})" if self.rtol == self.rtol else ""
        extra = f" ({self.note})" if self.note else ""
        return (f"result{self.index}: max_abs_diff={self.max_abs:.3e} max_rel_diff={self.max_rel:.3e} "
                f"{verdict}{tols}{extra}")


def _as_f64_pair(actual: np.ndarray, expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(actual).astype(np.float64), np.asarray(expected).astype(np.float64)


def _abs_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a - b| with NaN == NaN and equal infinities counting 0, any other non-finite gap inf.

    Only for the figures we report (max_abs_diff, max_rel_diff): the pass/fail tests are
    `np.isclose`, which has no per-element distance with these NaN/inf rules to report."""
    same = (np.isnan(a) & np.isnan(b)) | (np.isinf(a) & (a == b))
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: decided by `same` / below
        diff = np.where(same, 0.0, np.abs(a - b))
    return np.where(np.isnan(diff), np.inf, diff)


def _rel_diff(abs_diff: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    scale = np.maximum(np.abs(a), np.abs(b))  # the larger magnitude: near-zero b stays bounded
    scale = np.where(np.isfinite(scale) & (scale > 0), scale, 1.0)
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(abs_diff == 0, 0.0, abs_diff / scale)


def _max(x: np.ndarray) -> float:
    return float(x.max()) if x.size else 0.0


def diff_result(index: int, actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> ResultDiff:
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return ResultDiff(index, float("inf"), float("inf"), False, f"shape {list(actual.shape)} vs {list(expected.shape)}",
                          rtol, atol)
    a, b = _as_f64_pair(actual, expected)
    abs_diff = _abs_diff(a, b)

    def close(r: float, t: float) -> bool:  # numpy's rule, NaN == NaN at the same position
        return bool(np.all(np.isclose(a, b, rtol=r, atol=t, equal_nan=True)))

    ok = close(rtol, atol)
    criterion = ""
    if ok:
        criterion = "rel" if close(rtol, 0.0) else "abs" if close(0.0, atol) else "abs+rel"
    return ResultDiff(index, _max(abs_diff), _max(_rel_diff(abs_diff, a, b)), ok, "", rtol, atol, criterion)


def diff_results(
    actual: Sequence[np.ndarray], expected: Sequence[np.ndarray], rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL
) -> list[ResultDiff]:
    """One `ResultDiff` per result; a different result count is one failing entry."""
    if len(actual) != len(expected):
        return [ResultDiff(0, float("inf"), float("inf"), False, f"{len(actual)} results vs {len(expected)}", rtol, atol)]
    return [diff_result(i, a, b, rtol, atol) for i, (a, b) in enumerate(zip(actual, expected))]


@dataclass(frozen=True)
class Verdict:
    """One result judged against the f64 reference: which criterion held, with its figures."""

    index: int
    ok: bool
    criterion: str  # WITHIN_REFERENCE, NO_WORSE, IDENTICAL or EXACT_INTEGERS; "" when failed
    max_abs: float  # max |actual - reference| over the judged positions
    max_rel: float
    baseline_abs: float  # max |baseline - reference|: the input program's own error
    rtol: float
    atol: float
    note: str = ""  # why it failed, or which positions were not judged

    def describe(self) -> str:
        figures = (f"max_abs_err={self.max_abs:.3e} max_rel_err={self.max_rel:.3e} "
                   f"(input program's own max_abs_err={self.baseline_abs:.3e})")
        bound = NO_WORSE_FACTOR * self.baseline_abs + self.atol
        tols = (f"rtol={self.rtol:.1e} atol={self.atol:.3e}, "
                f"no-worse bound {NO_WORSE_FACTOR:g}*{self.baseline_abs:.3e}+atol={bound:.3e}")
        extra = f" [{self.note}]" if self.note else ""
        if self.ok:
            return f"result{self.index}: ok, {self.criterion}: {figures}; {tols}{extra}"
        return f"result{self.index}: FAILED: {figures}; {tols}{extra}"


def _first(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0]) if mask.ndim else ()


def _new_nonfinite_note(a: np.ndarray, b: np.ndarray, r: np.ndarray) -> str:
    """Non-empty when `actual` is NaN/inf where the input program is finite and the reference
    has a value in the results' type (`r`: `_in_type`); there the rewrite cancelled."""
    bad = ~np.isfinite(a) & np.isfinite(b) & np.isfinite(r)
    if not np.any(bad):
        return ""
    at = _first(bad)
    return (f"NaN/inf at {int(bad.sum())} position(s) where the input program is finite; first at "
            f"{list(at)}: actual={a[at]:.6g} input={b[at]:.6g} f64 reference={r[at]:.6g}")


def _judged_positions(b: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, str]:
    """Where the values are judged (a finite reference the input program also reaches), and a
    note on the rest. A NaN reference (inf - inf, 0 * inf) has no value even in exact
    arithmetic, and a +-inf one exceeds every finite value of the type (an infinite input, or an
    f64 overflow that f64 programs share with their reference): which special value comes out
    there depends on evaluation order, e.g. of a reassociated dot chain over masked or extreme
    inputs, so there the rewrite need only be non-finite too (`_finite_where_infinite_note`).
    Positions where only the input program overflowed are its own error, not the rewrite's."""
    undefined = ~np.isfinite(r)  # `r` in the results' type (`_in_type`)
    overflowed = ~np.isfinite(b) & np.isfinite(r)
    parts = [f"{int(m.sum())} position(s) {why} not judged" for m, why in (
        (undefined, "where the f64 reference is NaN/inf or out of the type's range"), (overflowed, "where the input program itself overflowed"))
        if np.any(m)]
    return ~(undefined | overflowed), "; ".join(parts)


def _finite_where_infinite_note(a: np.ndarray, b: np.ndarray, r: np.ndarray) -> str:
    """Non-empty when `actual` is finite where the reference (`r`: `_in_type`) and the input
    program are not."""
    bad = np.isfinite(a) & ~np.isfinite(r) & ~np.isfinite(b)
    if not np.any(bad):
        return ""
    at = _first(bad)
    return (f"finite at {int(bad.sum())} position(s) where the input program and the f64 reference are not; "
            f"first at {list(at)}: actual={a[at]:.6g} input={b[at]:.6g} f64 reference={r[at]:.6g}")


def _exact_verdict(index: int, actual: np.ndarray, baseline: np.ndarray, reference: np.ndarray,
                   criterion: str, rtol: float) -> Verdict:
    """Integer/i1 results (equal to the input program or the reference), or rtol=0 (identical)."""
    a, b = _as_f64_pair(actual, baseline)
    diff = _abs_diff(a, b)
    ok = not np.any(diff)
    if not ok and criterion == EXACT_INTEGERS:
        ok = np.array_equal(np.asarray(actual), np.asarray(reference))
    note = "" if ok else f"{int((diff != 0).sum())} element(s) differ from the input program ({criterion} required)"
    return Verdict(index, bool(ok), criterion if ok else "", _max(diff), _max(_rel_diff(diff, a, b)), 0.0, rtol, 0.0, note)


def _in_type(reference: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The f64 reference as float64, with values beyond `dtype`'s finite range as the infinity
    the type holds there: no program in that type can return them, so they are judged as an
    infinite reference is (`_judged_positions`)."""
    r = reference.astype(np.float64)
    if np.dtype(dtype).kind != "f":
        return r
    limit = float(np.finfo(dtype).max)
    return np.where(np.isfinite(r) & (np.abs(r) > limit), np.copysign(np.inf, r), r)


def judge_result(index: int, actual: np.ndarray, baseline: np.ndarray, reference: np.ndarray,
                 rtol: float = DEFAULT_RTOL, atol_scale: float | None = None,
                 nudged: np.ndarray | None = None, noise_scale: float = 0.0) -> Verdict:
    """One result judged by criterion (a), else (b) (see module doc)."""
    actual, baseline, reference = np.asarray(actual), np.asarray(baseline), np.asarray(reference)
    if not actual.shape == baseline.shape == reference.shape:
        shapes = f"shape {list(actual.shape)} vs input program {list(baseline.shape)}"
        return Verdict(index, False, "", float("inf"), float("inf"), 0.0, rtol, 0.0, shapes)
    if baseline.dtype.kind in "biu":
        return _exact_verdict(index, actual, baseline, reference, EXACT_INTEGERS, rtol)
    if rtol == 0:
        return _exact_verdict(index, actual, baseline, reference, IDENTICAL, rtol)
    a, b = _as_f64_pair(actual, baseline)
    r = _in_type(reference, baseline.dtype)
    finite_ref = np.abs(r[np.isfinite(r)])
    atol = (rtol if atol_scale is None else atol_scale) * _max(finite_ref)
    judged, skip_note = _judged_positions(b, r)
    err, base_err = _abs_diff(a, r)[judged], _abs_diff(b, r)[judged]
    max_abs, max_rel = _max(err), _max(_rel_diff(err, a[judged], r[judged]))
    base_abs = max(_max(base_err), _nudged_error(nudged, r, judged, noise_scale, b))
    note = _new_nonfinite_note(a, b, r) or _finite_where_infinite_note(a, b, r)
    if note:
        return Verdict(index, False, "", max_abs, max_rel, base_abs, rtol, atol, "; ".join(filter(None, [note, skip_note])))
    # Judged positions hold finite values on both sides (see `_judged_positions` and the
    # non-finite notes above), so numpy's rule is criterion (a) exactly.
    if np.all(np.isclose(a[judged], r[judged], rtol=rtol, atol=atol)):
        criterion = WITHIN_REFERENCE
    elif max_abs <= NO_WORSE_FACTOR * base_abs + atol:
        criterion = NO_WORSE
    else:
        return Verdict(index, False, "", max_abs, max_rel, base_abs, rtol, atol,
                       "; ".join(filter(None, ["neither criterion holds", skip_note])))
    return Verdict(index, True, criterion, max_abs, max_rel, base_abs, rtol, atol, skip_note)


def _nudged_error(nudged: np.ndarray | None, r: np.ndarray, judged: np.ndarray, noise_scale: float,
                  b: np.ndarray) -> float:
    """max |nudged - ref| over the judged positions where the nudged run is finite: the input
    program's rounding noise (module doc, criterion (b)); 0 without a nudged run or when it
    exceeds NOISE_CAP times the larger of `noise_scale` and the input program's largest value."""
    if nudged is None or np.asarray(nudged).shape != r.shape:
        return 0.0
    n = np.asarray(nudged).astype(np.float64)
    where = judged & np.isfinite(n)
    noise = _max(np.abs(n[where] - r[where]))
    scale = max(noise_scale, _max(np.abs(b[np.isfinite(b)])))
    return noise if noise <= NOISE_CAP * scale else 0.0


def judge_against_reference(
    actual: Sequence[np.ndarray], baseline: Sequence[np.ndarray], reference: Sequence[np.ndarray],
    rtol: float = DEFAULT_RTOL, atol_scale: float | None = None,
    nudged: Sequence[np.ndarray] | None = None, noise_scale: float = 0.0,
) -> list[Verdict]:
    """One `Verdict` per result (see module doc); a different result count is one failure.
    `nudged`: the input program's results on its inputs one ulp off, `noise_scale`: the
    largest finite float input (criterion (b))."""
    if not len(actual) == len(baseline) == len(reference):
        note = f"{len(actual)} results vs {len(baseline)} in the input program"
        return [Verdict(0, False, "", float("inf"), float("inf"), 0.0, rtol, 0.0, note)]
    extra = list(nudged) if nudged is not None and len(nudged) == len(baseline) else [None] * len(baseline)
    return [judge_result(i, a, b, r, rtol, atol_scale, n, noise_scale)
            for i, (a, b, r, n) in enumerate(zip(actual, baseline, reference, extra))]
