"""Convolution/pooling named ops (fusionopt.dialects.linalg_conv): the vectorised interpreter
against an independent loop reference, iree-opt round trip, and fusion-stats conv FLOPs."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.stats import compute_stats
from fusionopt.testing import run_module


def _ref_nchw(x, w, s, d, groups, oh, ow):
    n, c, _, _ = x.shape
    f, cg, kh, kw = w.shape
    out = np.zeros((n, f, oh, ow))
    fg = f // groups
    for b in range(n):
        for o in range(f):
            g = o // fg
            for i in range(oh):
                for j in range(ow):
                    acc = 0.0
                    for ci in range(cg):
                        for a in range(kh):
                            for e in range(kw):
                                acc += x[b, g * cg + ci, i * s[0] + a * d[0], j * s[1] + e * d[1]] * w[o, ci, a, e]
                    out[b, o, i, j] = acc
    return out


def _attrs(s, d):
    return (f"{{dilations = dense<[{d[0]}, {d[1]}]> : vector<2xi64>, "
            f"strides = dense<[{s[0]}, {s[1]}]> : vector<2xi64>}}")


CASES = [((1, 1), (1, 1)), ((2, 2), (1, 1)), ((1, 2), (2, 1)), ((2, 1), (1, 3))]


@pytest.mark.parametrize("s,d", CASES)
def test_conv_nchw_fchw_matches_loops(s, d):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 11, 12)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 2)).astype(np.float32)
    oh = (11 - (3 - 1) * d[0] - 1) // s[0] + 1
    ow = (12 - (2 - 1) * d[1] - 1) // s[1] + 1
    b = rng.standard_normal((2, 4, oh, ow)).astype(np.float32)
    text = f"""func.func @main(%x: tensor<2x3x11x12xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<2x4x{oh}x{ow}xf32>) -> tensor<2x4x{oh}x{ow}xf32> {{
  %r = linalg.conv_2d_nchw_fchw {_attrs(s, d)} ins(%x, %w : tensor<2x3x11x12xf32>, tensor<4x3x3x2xf32>) outs(%b : tensor<2x4x{oh}x{ow}xf32>) -> tensor<2x4x{oh}x{ow}xf32>
  return %r : tensor<2x4x{oh}x{ow}xf32>
}}"""
    got = np.asarray(run_module(parse_module(text), [x, w, b])[0])
    np.testing.assert_allclose(got, b + _ref_nchw(x, w, s, d, 1, oh, ow), rtol=1e-4, atol=1e-4)


def test_grouped_and_depthwise_match_loops():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 4, 9, 9)).astype(np.float32)
    wg = rng.standard_normal((3, 2, 2, 3, 3)).astype(np.float32)  # F/G=3, G=2, C/G=2
    wd = rng.standard_normal((4, 3, 3)).astype(np.float32)
    text = """func.func @main(%x: tensor<1x4x9x9xf32>, %wg: tensor<3x2x2x3x3xf32>, %wd: tensor<4x3x3xf32>) -> (tensor<1x2x3x4x4xf32>, tensor<1x4x7x7xf32>) {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x4x4xf32>
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x4x4xf32>
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 9, 9] : tensor<1x4x9x9xf32> into tensor<1x2x2x9x9xf32>
  %g = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x2x9x9xf32>, tensor<3x2x2x3x3xf32>) outs(%z : tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x4x4xf32>
  %e2 = tensor.empty() : tensor<1x4x7x7xf32>
  %z2 = linalg.fill ins(%c : f32) outs(%e2 : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wd : tensor<1x4x9x9xf32>, tensor<4x3x3xf32>) outs(%z2 : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %g, %d : tensor<1x2x3x4x4xf32>, tensor<1x4x7x7xf32>
}"""
    g, dw = (np.asarray(r) for r in run_module(parse_module(text), [x, wg, wd]))
    # grouped: filter [fg, g, c] -> ONNX-style [g*F/G + fg, c]
    w_onnx = np.transpose(wg, (1, 0, 2, 3, 4)).reshape(6, 2, 3, 3)
    np.testing.assert_allclose(g.reshape(1, 6, 4, 4), _ref_nchw(x, w_onnx, (2, 2), (1, 1), 2, 4, 4), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dw, _ref_nchw(x, wd[:, None], (1, 1), (1, 1), 4, 7, 7), rtol=1e-4, atol=1e-4)


def test_pooling_matches_loops():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 2, 9, 9)).astype(np.float32)
    text = """func.func @main(%x: tensor<1x2x9x9xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>) {
  %c = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0.0 : f32
  %w = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %m = linalg.fill ins(%c : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x9x9xf32>, tensor<3x3xf32>) outs(%m : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %xt = linalg.transpose ins(%x : tensor<1x2x9x9xf32>) outs(%t : tensor<1x9x9x2xf32>) permutation = [0, 2, 3, 1]
  %e2 = tensor.empty() : tensor<1x4x4x2xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %q = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xt, %w : tensor<1x9x9x2xf32>, tensor<3x3xf32>) outs(%z : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %p, %q : tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>
}""".replace("outs(%t :", "outs(%te :").replace("  %xt =", "  %te = tensor.empty() : tensor<1x9x9x2xf32>\n  %xt =")
    mx, sm = (np.asarray(r) for r in run_module(parse_module(text), [x]))
    ref_max = np.zeros((1, 2, 4, 4))
    ref_sum = np.zeros((1, 4, 4, 2))
    for c in range(2):
        for i in range(4):
            for j in range(4):
                win = x[0, c, 2 * i:2 * i + 3, 2 * j:2 * j + 3]
                ref_max[0, c, i, j] = win.max()
                ref_sum[0, i, j, c] = win.sum()
    np.testing.assert_allclose(mx, ref_max, rtol=1e-6)
    np.testing.assert_allclose(sm, ref_sum, rtol=1e-5, atol=1e-5)


CONV_TEXT = """func.func @main(%x: tensor<1x4x10x10xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32> {
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 10, 10] : tensor<1x4x10x10xf32> into tensor<1x2x2x10x10xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
  %bg = tensor.expand_shape %b [[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 4, 4] : tensor<1x6x4x4xf32> into tensor<1x2x3x4x4xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x2x10x10xf32>, tensor<2x3x2x3x3xf32>) outs(%bg : tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x4x4xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]] : tensor<1x2x3x4x4xf32> into tensor<1x6x4x4xf32>
  return %c : tensor<1x6x4x4xf32>
}"""


def test_fusion_stats_counts_conv_flops():
    stats = compute_stats(parse_module(CONV_TEXT))["functions"]["main"]
    # 2 * N*F*OH*OW * C/groups*KH*KW = 2 * 1*6*4*4 * 2*3*3
    assert stats["flops"] == 2 * 6 * 4 * 4 * 2 * 3 * 3


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt not installed")
def test_iree_opt_rereads_printed_ops():
    text = print_module(parse_module(CONV_TEXT))
    result = subprocess.run(["iree-opt"], input=text, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "linalg.conv_2d_ngchw_gfchw" in result.stdout
