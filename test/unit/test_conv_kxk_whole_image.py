"""`dispatch-conv-kxk-cpu-tiles` on a small image: a 7x7 output over 128 filters gets workgroups
of the whole image (`conv_kxk_cpu_tiles.workgroup_rows`); IREE builds that config and computes
the conv as a float64 numpy conv does, on random, offset, zero and large inputs."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline
from fusionopt.ir_io import print_module
from fusionopt.transforms.dispatch.conv_kxk_cpu_tiles import workgroup_rows
from support.iree_pairs import build_llvm_cpu

C, F = 16, 128
REGION = f"""func.func @main_graph(%x: tensor<1x9x9x{C}xf32>, %w: tensor<3x3x{C}x{F}xf32>) -> tensor<1x7x7x{F}xf32> {{
  %r = flow.dispatch.region -> (tensor<1x7x7x{F}xf32>) {{
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x{F}xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x{F}xf32>) -> tensor<1x7x7x{F}xf32>
    %c = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<1x9x9x{C}xf32>, tensor<3x3x{C}x{F}xf32>) outs(%f : tensor<1x7x7x{F}xf32>) -> tensor<1x7x7x{F}xf32>
    flow.return %c : tensor<1x7x7x{F}xf32>
  }}
  return %r : tensor<1x7x7x{F}xf32>
}}
"""


def conv_f64(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    out = np.zeros((1, 7, 7, F))
    for kh in range(3):
        for kw in range(3):
            out += np.einsum("nhwc,cf->nhwf", x[:, kh:kh + 7, kw:kw + 7, :].astype(np.float64), w[kh, kw].astype(np.float64))
    return out


def test_small_images_take_every_row_where_filters_leave_two_workgroups():
    assert workgroup_rows(7, 7, 512) == 7 and workgroup_rows(7, 7, 128) == 7
    assert workgroup_rows(7, 7, 64) == 1  # one workgroup for the conv otherwise
    assert workgroup_rows(14, 14, 512) == 1 and workgroup_rows(8, 8, 32) == 1  # 196 pixels; one workgroup
    assert workgroup_rows(8, 8, 96) == 8  # three workgroups of 32 filters


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_whole_image_workgroups_build_and_compute_the_conv(tmp_path):
    configured = print_module(apply_pipeline(REGION, "dispatch-conv-kxk-cpu-tiles"))
    assert "distribution = [0, 7, 7, 64, 0, 0, 0]" in configured
    vmfb = build_llvm_cpu({"conv": configured}, tmp_path)["conv"]
    rng = np.random.default_rng(0)
    w = rng.standard_normal((3, 3, C, F)).astype(np.float32)
    images = {"random": rng.standard_normal((1, 9, 9, C)), "offset": 1000.0 + rng.standard_normal((1, 9, 9, C)),
              "zeros": np.zeros((1, 9, 9, C)), "large": 1e30 * rng.standard_normal((1, 9, 9, C))}
    for family, image in images.items():
        x = image.astype(np.float32)
        got = run_vmfb(vmfb, [x, w], "main_graph")[0]
        want = conv_f64(x, w)
        scale = max(float(np.abs(want).max()), 1.0)
        assert np.isfinite(got).all(), family
        assert float(np.abs(got - want).max()) <= 1e-5 * scale, family
