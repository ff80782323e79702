"""`iree_linalg_ext.scan` in the interpreter against numpy's cumulative sums and products, on
adversarial values (integer range ends, infinities, NaN, signed zeros), inclusive and exclusive,
along every dimension; and its accumulator after a one-element line (IREE leaves it unchanged).
torch-mlir's `tm_tensor.scan` (IREE converts it to `iree_linalg_ext.scan`) runs the same way."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.interpreter import run_function
from fusionopt.ir_io import parse_module

SCAN = """
util.func public @main(%x: tensor<{shape}x{t}>, %o: tensor<{shape}x{t}>, %a: tensor<{acc}{t}>) -> (tensor<{shape}x{t}>, tensor<{acc}{t}>) {{
  %r:2 = iree_linalg_ext.scan dimension({d}) inclusive({inc}) ins(%x : tensor<{shape}x{t}>) outs(%o, %a : tensor<{shape}x{t}>, tensor<{acc}{t}>) {{
  ^bb0(%run: {t}, %e: {t}):
    %s = arith.{op} %run, %e : {t}
    iree_linalg_ext.yield %s : {t}
  }} -> tensor<{shape}x{t}>, tensor<{acc}{t}>
  util.return %r#0, %r#1 : tensor<{shape}x{t}>, tensor<{acc}{t}>
}}
"""


def scan(x: np.ndarray, acc: np.ndarray, d: int, inclusive: bool, t: str, op: str, dialect: str = "iree_linalg_ext"):
    shape = "x".join(map(str, x.shape))
    kept = [n for i, n in enumerate(x.shape) if i != d]
    text = SCAN.format(shape=shape, t=t, acc="".join(f"{n}x" for n in kept), d=d,
                       inc="true" if inclusive else "false", op=op)
    text = text.replace("iree_linalg_ext.", f"{dialect}.")
    return run_function(parse_module(text, "<scan>"), [x, np.zeros_like(x), acc])


def reference(x: np.ndarray, acc: np.ndarray, d: int, inclusive: bool, combine) -> tuple[np.ndarray, np.ndarray]:
    """IREE's scalar loop, written out with numpy's cumulative ufuncs."""
    if inclusive:
        out = combine.accumulate(x, axis=d, dtype=x.dtype)
    else:
        seeded = np.concatenate([np.expand_dims(acc, d), np.take(x, range(x.shape[d] - 1), axis=d)], axis=d)
        out = combine.accumulate(seeded, axis=d, dtype=x.dtype)
    last = np.take(out, -1, axis=d) if x.shape[d] > 1 else acc
    return out, last


@pytest.mark.parametrize("dialect", ["iree_linalg_ext", "tm_tensor"])
@pytest.mark.parametrize("inclusive", [True, False])
@pytest.mark.parametrize("d", [0, 1])
def test_integer_cumsum_wraps_like_i32(d: int, inclusive: bool, dialect: str):
    info = np.iinfo(np.int32)
    x = np.array([[info.max, 1, info.min, -1], [0, info.min, info.min, 7], [3, -3, info.max, info.max]], np.int32)
    acc = np.full(x.shape[1 - d], 5, np.int32)
    out, last = scan(x, acc, d, inclusive, "i32", "addi", dialect)
    with np.errstate(over="ignore"):
        want_out, want_last = reference(x, acc, d, inclusive, np.add)
    np.testing.assert_array_equal(out, want_out)
    np.testing.assert_array_equal(last, want_last)


@pytest.mark.parametrize("inclusive", [True, False])
def test_float_product_with_infinities_nan_and_signed_zero(inclusive: bool):
    big = np.finfo(np.float32).max
    x = np.array([[big, 2.0, -0.0, np.inf], [np.nan, 1.0, 3.0, 4.0], [-1.0, -0.0, np.inf, 0.5]], np.float32)
    acc = np.array([1.0, -2.0, 0.0], np.float32)
    out, last = scan(x, acc, 1, inclusive, "f32", "mulf")
    with np.errstate(over="ignore", invalid="ignore"):
        want_out, want_last = reference(x, acc, 1, inclusive, np.multiply)
    np.testing.assert_array_equal(out, want_out)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(want_out))
    np.testing.assert_array_equal(last, want_last)


def test_one_element_line_keeps_the_initial_accumulator():
    x = np.array([[9.0], [-4.0]], np.float32)
    acc = np.array([100.0, 200.0], np.float32)
    out, last = scan(x, acc, 1, True, "f32", "addf")
    np.testing.assert_array_equal(out, x)
    np.testing.assert_array_equal(last, acc)
    out, last = scan(x, acc, 1, False, "f32", "addf")
    np.testing.assert_array_equal(out, acc.reshape(2, 1))
    np.testing.assert_array_equal(last, acc)
