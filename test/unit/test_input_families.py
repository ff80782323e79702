"""Input families: each family's documented values, per dtype, and `random` unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.interpreter import FAMILIES, family_inputs, family_values, find_entry, random_inputs
from fusionopt.interpreter.values import BF16
from fusionopt.ir_io import parse_module

SIGNATURE = """
func.func @f(%x: tensor<6x8xf32>, %h: tensor<5xf16>, %b: tensor<3x4xbf16>, %ids: tensor<2x6xi64>,
             %m: tensor<4xi1>, %s: f32, %k: i32) -> tensor<6x8xf32> {
  return %x : tensor<6x8xf32>
}
"""
DTYPES = [np.dtype(np.float32), np.dtype(np.float16), BF16, np.dtype(np.int64), np.dtype(np.bool_),
          np.dtype(np.float32), np.dtype(np.int32)]


@pytest.fixture(scope="module")
def entry():
    return find_entry(parse_module(SIGNATURE, "<families>"))


def test_family_names_are_the_published_tuple() -> None:
    assert FAMILIES == ("random", "constant", "offset", "zeros", "extreme", "mask", "ids-edge")


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_gives_declared_shapes_and_dtypes(entry, family) -> None:
    values = family_inputs(entry, family, seed=3)
    assert [np.asarray(v).dtype for v in values] == DTYPES
    assert [np.shape(v) for v in values] == [(6, 8), (5,), (3, 4), (2, 6), (4,), (), ()]
    assert family_inputs(entry, family, seed=3)[0].tobytes() == values[0].tobytes()  # deterministic


def test_random_is_bit_identical_to_the_historic_random_inputs(entry) -> None:
    rng = np.random.default_rng(7)
    expected = [rng.standard_normal(size=(6, 8)).astype(np.float32), rng.standard_normal(size=(5,)).astype(np.float16),
                rng.standard_normal(size=(3, 4)).astype(BF16), rng.integers(0, 16, size=(2, 6)).astype(np.int64),
                rng.integers(0, 2, size=(4,)).astype(np.bool_)]
    for got, want in zip(random_inputs(entry, seed=7), expected):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    for got, want in zip(family_inputs(entry, "random", seed=7), random_inputs(entry, seed=7)):
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def test_constant_zeros_and_offset(entry) -> None:
    x, h, b, ids, m, s, k = family_inputs(entry, "constant", int_range=(3, 9))
    assert np.all(x == np.float32(0.01)) and np.all(h == np.float16(0.01)) and s == np.float32(0.01)
    assert np.all(ids == 3) and k == 3 and np.all(m)
    x, _, _, ids, m, _, _ = family_inputs(entry, "zeros", int_range=(3, 9))
    assert not np.any(x) and np.all(ids == 3) and not np.any(m)
    x = family_inputs(entry, "offset")[0].astype(np.float64)
    assert abs(x.mean() - 1000.5) < 0.01 and 0 < x.std() < 0.05


def test_extreme_reaches_both_ends_of_each_float_type(entry) -> None:
    for dtype, top in ((np.float32, 1e30), (np.float16, 1e3), (BF16, 1e30), (np.float64, 1e250)):
        value = family_values((256,), dtype, "extreme", np.random.default_rng(0))
        mags = np.abs(value.astype(np.float64))
        assert value.dtype == dtype and np.all(np.isfinite(mags))
        assert mags.max() > top and mags[mags > 0].min() < 1 / top and np.any(value < 0) and np.any(value > 0)
    ids = family_inputs(entry, "extreme", int_range=(0, 1024))[3]
    assert ids.ravel().tolist() == [0, 1023] * 6


def test_mask_rows_have_a_minus_inf_and_an_unmasked_element() -> None:
    x = family_values((64, 16), np.float32, "mask", np.random.default_rng(0))
    assert np.all(np.any(x == -np.inf, axis=-1)) and np.all(np.any(np.isfinite(x) & (x > -1e29), axis=-1))
    assert 0.2 < np.mean(x == -np.inf) < 0.4 and 0.05 < np.mean(x == np.float32(-1e30)) < 0.2
    h = family_values((8, 8), np.float16, "mask", np.random.default_rng(0))
    assert np.any(h == np.float16(-65504))  # -1e30 does not fit in f16: its most negative finite value
    assert np.array_equal(family_values((5, 1), np.float32, "mask", np.random.default_rng(1)),
                          family_values((5, 1), np.float32, "random", np.random.default_rng(1)))


def test_ids_edge_and_per_argument_int_ranges(entry) -> None:
    values = family_inputs(entry, "ids-edge", int_ranges=[None, None, None, (0, 1024), None, None, (0, 2)])
    assert values[3].ravel().tolist() == [0, 1023] * 6 and values[6] == 0
    assert values[4].tolist() == [False, True, False, True]
    ids = family_inputs(entry, "random", int_range=(5, 6), int_ranges=[None, None, None, (100, 101)])[3]
    assert np.all(ids == 100)


def test_unknown_family_is_a_value_error(entry) -> None:
    with pytest.raises(ValueError, match="unknown input family 'huge'.*random, constant"):
        family_inputs(entry, "huge")
