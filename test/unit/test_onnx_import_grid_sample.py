"""ONNX GridSample (RAFT's bilinear sampling of its correlation pyramid): every supported mode,
padding and align_corners against onnxruntime on grids that reach past the image, land on
pixel centres, half-pixel ties and the f32 limits; at graph level, lowered to linalg, and built
by IREE from `graph-to-dispatch-llvm-cpu` against a float64 numpy sampler on adversarial
images (an inf pixel beside the border, a large common offset, zeros) and grids at the f32
limits. onnxruntime 1.32 reads wrong pixels once a coordinate passes ~1e9 (an integer overflow:
border padding at y = 1e9 gave 0, zeros padding at y = 1e20 a pixel of row 0), so its
comparisons stop at 1e6 and the limits are checked against float64."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import run_vmfb
from fusionopt.registry import iree_flags_of
from fusionopt.testing import apply_pipeline
from support.iree_pairs import build_llvm_cpu
from support.onnx_single_node import check, make_model

ort = pytest.importorskip("onnxruntime")

N, C, H, W = 2, 3, 5, 7


def grid(rng: np.random.Generator, ho: int = 4, wo: int = 6) -> np.ndarray:
    """Random positions a little past the image, plus corners, centres and far outside."""
    g = rng.uniform(-1.3, 1.3, (N, ho, wo, 2)).astype(np.float32)
    special = np.array([-1.0, 1.0, 0.0, -1.0 - 1e-7, 1.0 + 1e-7, 1e6, -1e6, 1.0 / 7, -0.5, 2.0], np.float32)
    g.reshape(-1)[:special.size] = special
    g.reshape(-1)[-special.size:] = special[::-1]
    return g


def image(rng: np.random.Generator) -> np.ndarray:
    return rng.standard_normal((N, C, H, W)).astype(np.float32)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border"])
@pytest.mark.parametrize("align_corners", [0, 1])
def test_grid_sample_matches_onnxruntime(mode, padding, align_corners):
    rng = np.random.default_rng(7)
    x, g = image(rng), grid(rng)
    model = make_model("GridSample", {"x": x, "grid": g}, {}, opset=16, mode=mode, padding_mode=padding,
                       align_corners=align_corners)
    module = check(model, {"x": x, "grid": g})
    assert sum(op.name == "graph.gather" for op in module.walk()) == (1 if mode == "nearest" else 4)


def test_nearest_ties_round_half_to_even():
    """Rows exactly halfway between pixels (align_corners 1, height 5: g = -0.75 -> 0.5, -0.25 ->
    1.5, 0.25 -> 2.5) read the even row, as onnxruntime's nearbyint does; the columns are whole
    (width 7: g = -1, 0, 1 -> 0, 3, 6)."""
    x = np.arange(N * C * H * W, dtype=np.float32).reshape(N, C, H, W)
    g = np.zeros((N, 1, 3, 2), np.float32)
    g[..., 0] = [-1.0, 0.0, 1.0]
    g[..., 1] = [-0.75, -0.25, 0.25]
    model = make_model("GridSample", {"x": x, "grid": g}, {}, opset=16, mode="nearest", align_corners=1)
    (expected,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        None, {"x": x, "grid": g})
    np.testing.assert_array_equal(expected[:, :, 0, :], x[:, :, [0, 2, 2], [0, 3, 6]])
    check(model, {"x": x, "grid": g})


def test_opset_20_linear_mode_name():
    rng = np.random.default_rng(3)
    x, g = image(rng), grid(rng)
    check(make_model("GridSample", {"x": x, "grid": g}, {}, opset=20, mode="linear"), {"x": x, "grid": g})


@pytest.mark.parametrize("attrs, message", [
    ({"padding_mode": "reflection"}, "padding_mode 'reflection' is not supported"),
    ({"mode": "bicubic"}, "mode 'bicubic' is not supported"),
])
def test_unsupported_options_are_refused(attrs, message):
    rng = np.random.default_rng(0)
    x, g = image(rng), grid(rng)
    with pytest.raises(Exception, match=message):
        import_onnx(make_model("GridSample", {"x": x, "grid": g}, {}, opset=16, **attrs))


def sample_f64(x: np.ndarray, g: np.ndarray, align_corners: bool, border: bool) -> np.ndarray:
    """Bilinear sampling in float64, ONNX's definition written out: a corner outside the image
    adds nothing (zeros) or reads the nearest border pixel (border)."""
    x, g = x.astype(np.float64), g.astype(np.float64)
    n, c, h, w = x.shape
    out = np.zeros((n, c, *g.shape[1:3]))
    for b in range(n):
        for i in range(g.shape[1]):
            for j in range(g.shape[2]):
                gx, gy = g[b, i, j]
                px = (gx + 1) / 2 * (w - 1) if align_corners else ((gx + 1) * w - 1) / 2
                py = (gy + 1) / 2 * (h - 1) if align_corners else ((gy + 1) * h - 1) / 2
                x0, y0 = np.floor(px), np.floor(py)
                fx, fy = px - x0, py - y0  # (1 - px + x0 would cancel to 0 at px = 9e38)
                for cx, cy, weight in ((x0, y0, (1 - fx) * (1 - fy)), (x0 + 1, y0, fx * (1 - fy)),
                                       (x0, y0 + 1, (1 - fx) * fy), (x0 + 1, y0 + 1, fx * fy)):
                    if border:
                        cx, cy = min(max(cx, 0), w - 1), min(max(cy, 0), h - 1)
                    if 0 <= cx < w and 0 <= cy < h:
                        out[b, :, i, j] += weight * x[b, :, int(cy), int(cx)]
    return out


def sampling_model(padding: str):
    """Random positions, the f32 limits, and two points by column 0: (-1.5, 0.3) has both x
    corners outside the image (their indices clamp to column 0), (-1, 0.2) reads column 0."""
    rng = np.random.default_rng(11)
    g = rng.uniform(-1.2, 1.2, (N, 4, 6, 2)).astype(np.float32)
    g.reshape(-1)[:8] = [3e38, -3e38, 1.0, -1.0, -1.5, 0.3, -1.0, 0.2]
    x = image(rng)
    return make_model("GridSample", {"x": x, "grid": g}, {}, opset=16, align_corners=1, padding_mode=padding), g


def adversarial_images(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random, a large common offset, zeros, and +inf in column 0: a corner outside the image
    must select 0, not multiply the inf its clamped index reads by a weight of 0."""
    inf_column = image(rng)
    inf_column[:, :, :, 0] = np.inf
    return {"random": image(rng), "offset": image(rng) + np.float32(1e4),
            "zeros": np.zeros((N, C, H, W), np.float32), "inf_column": inf_column}


@pytest.mark.parametrize("padding", ["zeros", "border"])
def test_grid_sample_built_by_iree_matches_float64(tmp_path, padding):
    model, g = sampling_model(padding)
    pipeline = "graph-to-dispatch-llvm-cpu"
    formed = print_module(apply_pipeline(print_module(import_onnx(model)), pipeline))
    vmfb = build_llvm_cpu({"sample": formed}, tmp_path, iree_flags_of(pipeline))["sample"]
    for name, x in adversarial_images(np.random.default_rng(5)).items():
        (got,) = run_vmfb(vmfb, [x, g], "main_graph")
        expected = sample_f64(x, g, align_corners=True, border=padding == "border")
        finite = np.isfinite(expected)
        if padding == "zeros":  # (-1.5, 0.3): both x corners outside, beside the inf column
            assert np.all(expected[0, :, 0, 2] == 0), name
        scale = max(1.0, float(np.abs(expected[finite]).max()))
        np.testing.assert_allclose(got, expected, rtol=0, atol=2e-6 * scale, err_msg=name)
    assert np.isinf(expected).any()  # the inf column was read where its weight is not 0
