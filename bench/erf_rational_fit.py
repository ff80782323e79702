"""Fits the rational function `linalg-rational-erf` computes erf with, and prints its
coefficients and its error against float64 erf when evaluated in float32 as the pass writes it.

    python bench/erf_rational_fit.py [--clamp 3.9] [--numerator 7] [--denominator 4]

erf(x) ~ x * P(x^2) / Q(x^2) on [0, clamp], Q(0) = 1 (erf is odd: one fit serves both signs).
Iterated linear least squares (Sanathanan-Koerner: each step divides the residual by the last
Q) on Chebyshev-spaced points, then Lawson reweighting toward the minimax error. The float64
fit error is printed beside the float32 evaluation's (clamp, Horner FMAs in x^2, one division,
the result clamped to [-1, 1]), which rounding dominates near erf = 1. Why: the coefficients in
`fusionopt/transforms/linalg/linalg_rational_erf.py` come from here (bench/RESULTS.md,
"GELU's erf as one rational function").
"""

from __future__ import annotations

import argparse
import math

import numpy as np

POINTS = 4000
ITERATIONS = 60
REWEIGHT_FROM = 10

erf64 = np.vectorize(math.erf, otypes=[np.float64])


def fit(clamp: float, numerator: int, denominator: int) -> tuple[np.ndarray, np.ndarray, float]:
    """(P's coefficients, Q's with Q(0) = 1, the float64 fit's largest error) in powers of x^2."""
    x = clamp * (1 - np.cos(np.linspace(0, np.pi, POINTS))) / 2
    t, f = x * x, erf64(x)
    denominator_values, weights = np.ones_like(x), np.ones_like(x)
    for step in range(ITERATIONS):
        columns = np.hstack([x[:, None] * t[:, None] ** np.arange(numerator),
                             -f[:, None] * t[:, None] ** np.arange(1, denominator + 1)])
        scale = np.sqrt(weights) / denominator_values
        solution, *_ = np.linalg.lstsq(columns * scale[:, None], f * scale, rcond=None)
        p, q = solution[:numerator], np.concatenate([[1.0], solution[numerator:]])
        denominator_values = np.polyval(q[::-1], t)
        error = x * np.polyval(p[::-1], t) / denominator_values - f
        if step >= REWEIGHT_FROM:
            weights = weights * np.sqrt(np.abs(error))
            weights /= weights.sum()
    return p, q, float(np.abs(error).max())


def evaluate_f32(x: np.ndarray, p: np.ndarray, q: np.ndarray, clamp: float) -> np.ndarray:
    """The pass's float32 arithmetic (each FMA rounded once, as `math.fma`)."""
    f32 = np.float32
    x = np.clip(x.astype(f32), f32(-clamp), f32(clamp))
    t = (x * x).astype(f32)

    def horner(coefficients: np.ndarray) -> np.ndarray:
        acc = np.full_like(x, f32(coefficients[-1]))
        for c in coefficients[-2::-1]:
            acc = (acc.astype(np.float64) * t + np.float64(f32(c))).astype(f32)
        return acc
    return np.clip(((x * horner(p)).astype(f32) / horner(q)).astype(f32), f32(-1), f32(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clamp", type=float, default=3.9)
    parser.add_argument("--numerator", type=int, default=7)
    parser.add_argument("--denominator", type=int, default=4)
    args = parser.parse_args(argv)
    p, q, fit_error = fit(args.clamp, args.numerator, args.denominator)
    grid = np.linspace(-6, 6, 2_000_001).astype(np.float32)
    error = np.abs(evaluate_f32(grid, p, q, args.clamp) - erf64(grid.astype(np.float64)))
    print("NUMERATOR =", tuple(float(c) for c in p))
    print("DENOMINATOR =", tuple(float(c) for c in q))
    print(f"float64 fit error {fit_error:.2e}; float32 evaluation on [-6, 6]: largest error "
          f"{error.max():.2e} at x = {grid[error.argmax()]:.4f}, mean {error.mean():.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
