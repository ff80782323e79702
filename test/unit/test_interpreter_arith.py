"""arith/math semantics in the numpy interpreter: hand-computed cases incl. NaN and int division."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.testing import run_module


def run(text: str, *inputs) -> list[np.ndarray]:
    return run_module(text, [np.asarray(x) for x in inputs])


def binary(op: str, elem: str, a, b, result_elem: str | None = None, extra: str = "") -> np.ndarray:
    n = len(a)
    r = result_elem or elem
    text = f"""
    func.func @f(%a: tensor<{n}x{elem}>, %b: tensor<{n}x{elem}>) -> tensor<{n}x{r}> {{
      %0 = {op} {extra}%a, %b : tensor<{n}x{elem}>
      return %0 : tensor<{n}x{r}>
    }}"""
    dtype = {"f32": np.float32, "i32": np.int32, "f16": np.float16, "i1": np.bool_}[elem]
    return run(text, np.array(a, dtype), np.array(b, dtype))[0]


SIGNED = ([7, -7, 7, -7], [2, 2, -2, -2])


@pytest.mark.parametrize(
    "op, expected",
    [
        ("arith.divsi", [3, -3, -3, 3]),  # truncates toward zero
        ("arith.floordivsi", [3, -4, -4, 3]),
        ("arith.ceildivsi", [4, -3, -3, 4]),
        ("arith.remsi", [1, -1, 1, -1]),  # sign of the dividend
    ],
)
def test_signed_integer_division(op: str, expected: list[int]) -> None:
    assert binary(op, "i32", *SIGNED).tolist() == expected


def test_unsigned_division_reinterprets_bits() -> None:
    # -7 as u32 is 4294967289; / 2 = 2147483644, % 2 = 1
    assert binary("arith.divui", "i32", [-7], [2]).tolist() == [2147483644]
    assert binary("arith.remui", "i32", [-7], [2]).tolist() == [1]


def test_float_division_by_zero_is_ieee() -> None:
    out = binary("arith.divf", "f32", [1.0, -1.0, 0.0], [0.0, 0.0, 0.0])
    assert out[0] == np.inf and out[1] == -np.inf and np.isnan(out[2])


@pytest.mark.parametrize(
    "pred, expected",  # lhs = [NaN, 1, 2], rhs = [1, 2, 2]
    [
        ("olt", [False, True, False]),
        ("ult", [True, True, False]),
        ("oeq", [False, False, True]),
        ("ueq", [True, False, True]),
        ("one", [False, True, False]),
        ("une", [True, True, False]),
        ("ord", [False, True, True]),
        ("uno", [True, False, False]),
        ("oge", [False, False, True]),
        ("uge", [True, False, True]),
    ],
)
def test_cmpf_ordered_and_unordered_predicates(pred: str, expected: list[bool]) -> None:
    assert compare("arith.cmpf", pred, "f32", [np.nan, 1.0, 2.0], [1.0, 2.0, 2.0]) == expected


def compare(op: str, pred: str, elem: str, lhs: list, rhs: list) -> list[bool]:
    """Scalar compares (xDSL 0.74 types a tensor cmpf/cmpi result as scalar i1)."""
    text = f"""
    func.func @f(%a: {elem}, %b: {elem}) -> i1 {{
      %0 = {op} {pred}, %a, %b : {elem}
      return %0 : i1
    }}"""
    dtype = np.float32 if elem == "f32" else np.int32
    return [bool(run(text, dtype(a), dtype(b))[0]) for a, b in zip(lhs, rhs)]


def test_cmpi_unsigned_predicate() -> None:
    assert compare("arith.cmpi", "ult", "i32", [-1, 1], [1, -1]) == [False, True]  # -1 is the largest unsigned
    assert compare("arith.cmpi", "slt", "i32", [-1, 1], [1, -1]) == [True, False]


def test_maximumf_propagates_nan_but_maxnumf_does_not() -> None:
    a, b = [np.nan, 1.0, 3.0], [1.0, np.nan, 2.0]
    maximum = binary("arith.maximumf", "f32", a, b)
    maxnum = binary("arith.maxnumf", "f32", a, b)
    assert np.isnan(maximum[0]) and np.isnan(maximum[1]) and maximum[2] == 3.0
    assert maxnum.tolist() == [1.0, 1.0, 3.0]
    assert binary("arith.minnumf", "f32", a, b).tolist() == [1.0, 1.0, 2.0]


def test_minimumf_and_maximumf_order_signed_zeros() -> None:
    # IEEE 754-2019 minimum/maximum (MLIR's minimumf/maximumf): -0.0 < +0.0, whatever the order.
    a, b = [-0.0, 0.0, 1.0], [0.0, -0.0, 2.0]
    minimum = binary("arith.minimumf", "f32", a, b)
    maximum = binary("arith.maximumf", "f32", a, b)
    assert np.signbit(minimum).tolist() == [True, True, False] and minimum[2] == 1.0
    assert np.signbit(maximum).tolist() == [False, False, False] and maximum[2] == 2.0


def test_f32_fma_rounds_once() -> None:
    # (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the product rounded to f32 loses the 2^-24 an FMA keeps.
    text = """
    func.func @f(%a: tensor<1xf32>, %c: tensor<1xf32>) -> tensor<1xf32> {
      %0 = math.fma %a, %a, %c : tensor<1xf32>
      return %0 : tensor<1xf32>
    }"""
    a, c = np.array([1 + 2.0**-12], np.float32), np.array([-(1 + 2.0**-11)], np.float32)
    assert run(text, a, c)[0].tolist() == [2.0**-24]


def test_i1_addition_is_modulo_two() -> None:
    out = binary("arith.addi", "i1", [True, True, False], [True, False, False])
    assert out.tolist() == [False, True, False]


def test_f16_computes_in_half_precision() -> None:
    # 1 + 2^-11 is not representable in f16 (rounds to 1) but is in f32.
    out = binary("arith.addf", "f16", [1.0], [2.0**-11])
    assert out.dtype == np.float16 and out.tolist() == [1.0]


def test_bf16_rounds_every_result() -> None:
    text = """
    func.func @f(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> tensor<2xbf16> {
      %0 = arith.addf %a, %b : tensor<2xbf16>
      return %0 : tensor<2xbf16>
    }"""
    a = np.array([1.0, 256.0], np.float32)
    b = np.array([2.0**-9, 1.0], np.float32)
    from fusionopt.interpreter.values import BF16

    out = run(text, a.astype(BF16), b.astype(BF16))[0]
    assert out.astype(np.float32).tolist() == [1.0, 256.0]  # bf16 has 8 significand bits


@pytest.mark.parametrize("elem", ["f16", "bf16"])
def test_low_precision_sum_rounds_once(elem: str) -> None:
    """A sum into an f16/bf16 accumulator adds in float32 and rounds once (values.py): 1 and
    256 halves of one ulp of 1 give 1 + 128 ulps, where rounding each step would stay at 1."""
    from fusionopt.interpreter.values import BF16

    text = f"""
    func.func @f(%a: tensor<257x{elem}>) -> tensor<{elem}> {{
      %z = arith.constant 0.0 : {elem}
      %e = tensor.empty() : tensor<{elem}>
      %i = linalg.fill ins(%z : {elem}) outs(%e : tensor<{elem}>) -> tensor<{elem}>
      %s = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                            iterator_types = ["reduction"]}} ins(%a : tensor<257x{elem}>) outs(%i : tensor<{elem}>) {{
      ^bb0(%x: {elem}, %acc: {elem}):
        %r = arith.addf %acc, %x : {elem}
        linalg.yield %r : {elem}
      }} -> tensor<{elem}>
      return %s : tensor<{elem}>
    }}"""
    dtype, ulp = (np.dtype(np.float16), 2.0**-10) if elem == "f16" else (BF16, 2.0**-7)
    a = np.array([1.0] + [ulp / 2] * 256, np.float32).astype(dtype)
    out = run(text, a)[0]
    assert out.dtype == dtype and float(out) == 1.0 + 128 * ulp


def test_scalar_ops_select_and_casts() -> None:
    text = """
    func.func @f(%x: f32, %c: i1) -> (i32, f32, i64, i32, i32) {
      %cst = arith.constant -2.7 : f32
      %t = arith.fptosi %cst : f32 to i32
      %sel = arith.select %c, %x, %cst : f32
      %true = arith.constant true
      %ext = arith.extsi %true : i1 to i64
      %extu = arith.extui %true : i1 to i32
      %big = arith.constant 255 : i32
      %tr = arith.trunci %big : i32 to i8
      %back = arith.extsi %tr : i8 to i32
      return %t, %sel, %ext, %extu, %back : i32, f32, i64, i32, i32
    }"""
    t, sel, ext, extu, back = run(text, np.float32(5.0), np.bool_(True))
    assert (int(t), float(sel), int(ext), int(extu), int(back)) == (-2, 5.0, -1, 1, -1)
    assert float(run(text, np.float32(5.0), np.bool_(False))[1]) == pytest.approx(-2.7)


def test_math_functions_on_tensors() -> None:
    text = """
    func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
      %0 = math.erf %a : tensor<4xf32>
      %1 = math.round %a : tensor<4xf32>
      %2 = math.roundeven %a : tensor<4xf32>
      %sq = arith.mulf %a, %a : tensor<4xf32>
      %3 = math.rsqrt %sq : tensor<4xf32>
      return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    }"""
    erf, rnd, rnd_even, rsqrt = run(text, np.array([0.5, -2.5, 2.5, 4.0], np.float32))
    assert erf[0] == pytest.approx(0.5204998778, rel=1e-6)
    assert rnd.tolist() == [1.0, -3.0, 3.0, 4.0]  # half away from zero
    assert rnd_even.tolist() == [0.0, -2.0, 2.0, 4.0]  # half to even
    assert rsqrt.tolist() == pytest.approx([2.0, 0.4, 0.4, 0.25])


def test_fpowi_and_ipowi() -> None:
    text = """
    func.func @f(%a: f32, %n: i32, %b: i32) -> (f32, i32) {
      %0 = math.fpowi %a, %n : f32, i32
      %1 = math.ipowi %b, %n : i32
      return %0, %1 : f32, i32
    }"""
    p, q = run(text, np.float32(2.0), np.int32(3), np.int32(-3))
    assert float(p) == 8.0 and int(q) == -27


def test_cmpi_and_cmpf_on_tensors_give_shaped_i1() -> None:
    text = """func.func @main(%a: tensor<2x3xi64>, %b: tensor<2x3xi64>, %x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = arith.cmpi slt, %a, %b : tensor<2x3xi64>
  %1 = arith.cmpf ult, %x, %y : tensor<2x3xf32>
  return %0, %1 : tensor<2x3xi1>, tensor<2x3xi1>
}"""
    a = np.array([[np.iinfo(np.int64).min, 0, 5], [7, -1, np.iinfo(np.int64).max]], np.int64)
    b = np.array([[0, 0, 6], [-7, 1, 0]], np.int64)
    x = np.array([[np.nan, 1.0, -np.inf], [2.0, 3.0, np.inf]], np.float32)
    y = np.array([[0.0, 1.0, 0.0], [np.nan, 2.0, np.inf]], np.float32)
    lt, ult = (np.asarray(r) for r in run_module(text, [a, b, x, y]))
    np.testing.assert_array_equal(lt, a < b)
    # ult: unordered (a NaN operand) or less than
    np.testing.assert_array_equal(ult, np.isnan(x) | np.isnan(y) | (x < y))
