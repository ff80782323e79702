"""fusionopt.matmul_numerics: every form of a matmul sums in one order where that order decides
overflow, so a rewrite that only transposes or regroups a contraction never looks like it turned
inf/NaN into a finite number (a property-run finding: a transpose folded into a matmul)."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.matmul_numerics import matmul

BIG = np.finfo(np.float64).max / 1.5


def test_transposed_forms_agree_where_partial_sums_overflow():
    a = np.array([[BIG, BIG, -BIG]])  # (BIG + BIG) - BIG overflows; BIG + (BIG - BIG) does not
    b = np.ones((3, 1))
    direct = matmul(a, b)
    transposed = matmul(b.T, a.T).T
    assert np.isinf(direct[0, 0]) and direct[0, 0] > 0  # increasing k: (BIG + BIG) = inf, then - BIG
    np.testing.assert_array_equal(direct, transposed)


def test_batched_sequential_sum_matches_a_loop_nest():
    rng = np.random.default_rng(0)
    a = rng.choice([BIG, -BIG, 1.0], size=(2, 3, 5))
    b = rng.choice([1.0, -1.0, 0.5], size=(5, 4))
    expected = np.zeros((2, 3, 4))
    with np.errstate(all="ignore"):
        for k in range(5):
            expected += a[:, :, k, None] * b[None, k, :]
    np.testing.assert_array_equal(matmul(a, b), expected)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_ordinary_values_take_blas(dtype):
    rng = np.random.default_rng(1)
    a, b = rng.integers(-3, 3, (4, 6)).astype(dtype), rng.integers(-3, 3, (6, 5)).astype(dtype)
    np.testing.assert_array_equal(matmul(a, b), np.matmul(a, b))
