"""1-D / 3-D / grouped-NHWGC / depthwise-multiplier convolutions and min pooling
(fusionopt.dialects.linalg_conv_nd): the vectorised interpreter against independent loops
written from MLIR's OpDSL formulas, on random and adversarial (large offset, -inf) inputs."""

from __future__ import annotations

import itertools

import numpy as np

from fusionopt.ir_io import parse_module
from fusionopt.testing import run_module


def _run(op: str, attrs: str, shapes: tuple[tuple[int, ...], ...], arrays: list[np.ndarray]) -> np.ndarray:
    t = [f"tensor<{'x'.join(map(str, s))}xf32>" for s in shapes]
    text = f"""func.func @main(%x: {t[0]}, %k: {t[1]}, %o: {t[2]}) -> {t[2]} {{
  %r = linalg.{op} {attrs} ins(%x, %k : {t[0]}, {t[1]}) outs(%o : {t[2]}) -> {t[2]}
  return %r : {t[2]}
}}"""
    return np.asarray(run_module(parse_module(text), arrays)[0])


def test_conv_1d_nwc_wcf_strided_dilated():
    rng = np.random.default_rng(0)
    x, k, o = rng.standard_normal((2, 14, 3)), rng.standard_normal((3, 3, 4)), rng.standard_normal((2, 4, 4))
    s, d = 3, 2
    got = _run("conv_1d_nwc_wcf", "{dilations = dense<2> : tensor<1xi64>, strides = dense<3> : tensor<1xi64>}",
               ((2, 14, 3), (3, 3, 4), (2, 4, 4)), [a.astype(np.float32) for a in (x, k, o)])
    want = o.copy()
    for n, ow, f, kw, c in itertools.product(range(2), range(4), range(4), range(3), range(3)):
        want[n, ow, f] += x[n, ow * s + kw * d, c] * k[kw, c, f]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_conv_3d_ncdhw_fcdhw():
    rng = np.random.default_rng(1)
    x, k = rng.standard_normal((1, 2, 5, 4, 6)), rng.standard_normal((3, 2, 2, 1, 3))
    o = np.zeros((1, 3, 2, 4, 2))
    got = _run("conv_3d_ncdhw_fcdhw", "{dilations = dense<1> : tensor<3xi64>, strides = dense<[2, 1, 3]> : tensor<3xi64>}",
               (x.shape, k.shape, o.shape), [a.astype(np.float32) for a in (x, k, o)])
    want = o.copy()
    for n, f, od, oh, ow, c, kd, kh, kw in itertools.product(
            range(1), range(3), range(2), range(4), range(2), range(2), range(2), range(1), range(3)):
        want[n, f, od, oh, ow] += x[n, c, od * 2 + kd, oh + kh, ow * 3 + kw] * k[f, c, kd, kh, kw]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_grouped_nhwgc_and_depthwise_multiplier():
    rng = np.random.default_rng(2)
    x, k = rng.standard_normal((1, 5, 5, 2, 3)), rng.standard_normal((2, 4, 2, 2, 3))
    o = np.zeros((1, 4, 4, 2, 4))
    got = _run("conv_2d_nhwgc_gfhwc", "", (x.shape, k.shape, o.shape), [a.astype(np.float32) for a in (x, k, o)])
    want = o.copy()
    for oh, ow, g, fg, kh, kw, c in itertools.product(range(4), range(4), range(2), range(4), range(2), range(2), range(3)):
        want[0, oh, ow, g, fg] += x[0, oh + kh, ow + kw, g, c] * k[g, fg, kh, kw, c]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)

    x, k = rng.standard_normal((2, 4, 5, 2)), rng.standard_normal((2, 2, 2, 3))
    o = np.zeros((2, 3, 4, 2, 3))
    got = _run("depthwise_conv_2d_nhwc_hwcm", "", (x.shape, k.shape, o.shape), [a.astype(np.float32) for a in (x, k, o)])
    want = o.copy()
    for n, oh, ow, c, m, kh, kw in itertools.product(range(2), range(3), range(4), range(2), range(3), range(2), range(2)):
        want[n, oh, ow, c, m] += x[n, oh + kh, ow + kw, c] * k[kh, kw, c, m]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_min_and_max_pooling_with_offset_and_neg_inf():
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((1, 4, 4, 2)) + 1e4).astype(np.float32)  # large common offset
    x[0, 1, 1, 0] = -np.inf
    init = np.full((1, 2, 2, 2), np.inf, np.float32)
    got = _run("pooling_nhwc_min", "", (x.shape, (3, 3), init.shape), [x, np.zeros((3, 3), np.float32), init])
    want = np.array([[[[x[0, i:i + 3, j:j + 3, c].min() for c in range(2)] for j in range(2)] for i in range(2)]])
    np.testing.assert_array_equal(got, want)

    y = rng.standard_normal((2, 3, 7)).astype(np.float32)
    init = np.full((2, 3, 3), -np.inf, np.float32)
    got = _run("pooling_ncw_max", "{dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}",
               (y.shape, (3,), init.shape), [y, np.zeros(3, np.float32), init])
    want = np.stack([y[:, :, 2 * i:2 * i + 3].max(axis=-1) for i in range(3)], axis=-1)
    np.testing.assert_array_equal(got, want)


def test_ndhwc_sum_pooling_accumulates_into_init():
    rng = np.random.default_rng(4)
    z = rng.standard_normal((1, 4, 4, 4, 1)).astype(np.float32)
    init = np.ones((1, 2, 2, 2, 1), np.float32)
    got = _run("pooling_ndhwc_sum", "", (z.shape, (3, 3, 3), init.shape), [z, np.zeros((3, 3, 3), np.float32), init])
    want = init.astype(np.float64).copy()
    for a, b, c in itertools.product(range(2), range(2), range(2)):
        want[0, a, b, c, 0] += z[0, a:a + 3, b:b + 3, c:c + 3, 0].astype(np.float64).sum()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
