"""MLIR's quantized convolutions (fusionopt.dialects.linalg_conv_q): the interpreter against
loops written from MLIR's OpDSL formula O += (I - izp) * (K - kzp), on int8 range ends and
non-zero zero points, and the maps' shape."""

from __future__ import annotations

import itertools

import numpy as np

from fusionopt.ir_io import parse_module
from fusionopt.testing import run_module

NHWC_Q = """func.func @main(%x: tensor<1x5x6x3xi8>, %k: tensor<2x3x3x4xi8>, %izp: i32, %kzp: i32, %o: tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xi32> {
  %r = linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %k, %izp, %kzp : tensor<1x5x6x3xi8>, tensor<2x3x3x4xi8>, i32, i32)
      outs(%o : tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xi32>
  return %r : tensor<1x2x4x4xi32>
}"""


def _reference(x, k, izp, kzp, o, strides):
    out = o.astype(np.int64).copy()
    n, oh, ow, f = out.shape
    kh, kw, c, _ = k.shape
    for b, i, j, ff, a, bb, cc in itertools.product(range(n), range(oh), range(ow), range(f), range(kh), range(kw), range(c)):
        xi = int(x[b, i * strides[0] + a, j * strides[1] + bb, cc]) - izp
        out[b, i, j, ff] += xi * (int(k[a, bb, cc, ff]) - kzp)
    return out.astype(np.int32)


def test_conv_2d_nhwc_hwcf_q_matches_loops_at_int8_range_ends():
    rng = np.random.default_rng(1)
    x = rng.integers(-128, 128, (1, 5, 6, 3)).astype(np.int8)
    x[0, 0, :, :] = -128  # range ends: (x - izp) and (k - kzp) reach 255 in magnitude
    x[0, 1, :, :] = 127
    k = rng.integers(-128, 128, (2, 3, 3, 4)).astype(np.int8)
    k[0, 0] = -128
    o = rng.integers(-1000, 1000, (1, 2, 4, 4)).astype(np.int32)
    for izp, kzp in ((0, 0), (127, -128), (-5, 3)):
        got = run_module(parse_module(NHWC_Q), [x, k, np.int32(izp), np.int32(kzp), o])[0]
        np.testing.assert_array_equal(got, _reference(x, k, izp, kzp, o, (2, 1)))


def test_quantized_maps_put_zero_points_between_filter_and_output():
    op = next(o for o in parse_module(NHWC_Q).walk() if o.name == "linalg.conv_2d_nhwc_hwcf_q")
    maps = op.get_default_indexing_maps()
    assert [m.num_dims for m in maps] == [7] * 5
    assert [len(m.results) for m in maps] == [4, 4, 0, 0, 4]
