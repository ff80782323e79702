"""ONNX importer, CNN ops: Conv, pooling, BatchNormalization, Clip, HardSigmoid, HardSwish, Pad,
ConvTranspose and Resize.

Each case is a one-node model (`support.onnx_single_node`), imported, run with the numpy
interpreter (graph level) and, lowered with `convert-graph-to-linalg`, run again; both must
equal onnxruntime on the same inputs (rtol 1e-4, atol 1e-5, as test_onnx_import_ops.py).
Random property cases draw shapes, strides, pads, dilations and groups. Bad models give a
located `OnnxImportError` naming the node.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from fusionopt.dialects import graph
from fusionopt.importers.onnx_import import OnnxImportError, import_onnx
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import apply_pipeline
from support.onnx_single_node import check, make_model

ort = pytest.importorskip("onnxruntime")

rng = np.random.default_rng(0)


def f32(*shape, positive=False):
    x = rng.standard_normal(shape).astype(np.float32)
    return np.abs(x) + 0.5 if positive else x


X = f32(1, 4, 9, 9)
X1 = f32(2, 4, 11)

# (id, op, runtime inputs, constant inputs, attrs, opset)
CASES = [
    ("conv-plain", "Conv", {"x": X, "w": f32(6, 4, 3, 3)}, {}, {}, 18),
    ("conv-bias-const-weights", "Conv", {"x": X}, {"w": f32(6, 4, 3, 3), "b": f32(6)},
     {"pads": [1, 1, 1, 1]}, 18),
    ("conv-bias-runtime", "Conv", {"x": X, "w": f32(6, 4, 3, 3), "b": f32(6)}, {},
     {"strides": [2, 2], "pads": [1, 0, 2, 1]}, 18),
    ("conv-dilated", "Conv", {"x": X, "w": f32(5, 4, 3, 2)}, {},
     {"dilations": [2, 3], "strides": [1, 2]}, 18),
    ("conv-group", "Conv", {"x": X, "w": f32(6, 2, 3, 3)}, {}, {"group": 2, "pads": [1] * 4}, 18),
    ("conv-depthwise", "Conv", {"x": X, "w": f32(4, 1, 3, 3)}, {"b": f32(4)},
     {"group": 4, "pads": [1] * 4, "strides": [2, 2]}, 18),
    ("conv-depthwise-multiplier", "Conv", {"x": X, "w": f32(8, 1, 3, 3)}, {},
     {"group": 4, "pads": [1] * 4}, 18),
    ("conv-1x1-strided", "Conv", {"x": X, "w": f32(7, 4, 1, 1)}, {}, {"strides": [2, 2]}, 18),
    ("conv-same-upper", "Conv", {"x": X, "w": f32(3, 4, 4, 4)}, {},
     {"auto_pad": "SAME_UPPER", "strides": [2, 2]}, 18),
    ("conv-same-lower", "Conv", {"x": X, "w": f32(3, 4, 4, 2)}, {}, {"auto_pad": "SAME_LOWER"}, 18),
    ("conv-valid", "Conv", {"x": X, "w": f32(3, 4, 3, 3)}, {}, {"auto_pad": "VALID"}, 18),
    ("conv-1d", "Conv", {"x": X1, "w": f32(6, 4, 3)}, {"b": f32(6)},
     {"strides": [2], "dilations": [2], "pads": [1, 2]}, 18),
    ("conv-1d-group", "Conv", {"x": X1, "w": f32(2, 2, 5)}, {}, {"group": 2, "auto_pad": "SAME_UPPER"}, 18),
    ("maxpool", "MaxPool", {"x": X}, {}, {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1] * 4}, 18),
    ("maxpool-ceil", "MaxPool", {"x": X}, {}, {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1}, 18),
    ("maxpool-dilated", "MaxPool", {"x": X}, {},
     {"kernel_shape": [2, 3], "dilations": [2, 2], "pads": [1, 0, 1, 2]}, 18),
    ("maxpool-same", "MaxPool", {"x": X}, {}, {"kernel_shape": [3, 3], "strides": [2, 2],
                                                "auto_pad": "SAME_UPPER"}, 18),
    ("conv-3d-patches", "Conv", {"x": f32(1, 3, 4, 8, 12)}, {"w": f32(5, 3, 2, 4, 4), "b": f32(5)},
     {"strides": [2, 4, 4]}, 18),
    ("conv-3d-patches-runtime-weights", "Conv", {"x": f32(1, 3, 4, 8, 12), "w": f32(5, 3, 2, 4, 4)}, {},
     {"strides": [2, 4, 4]}, 18),
    ("conv-3d-patches-ragged", "Conv", {"x": f32(1, 3, 5, 9, 8)}, {"w": f32(5, 3, 2, 4, 4)}, {"strides": [2, 4, 4]}, 18),
    ("conv-3d-temporal-half", "Conv", {"x": f32(1, 4, 6, 5, 5)}, {"w": f32(5, 4, 3, 1, 1), "b": f32(5)},
     {"strides": [2, 1, 1], "pads": [1, 0, 0, 1, 0, 0]}, 18),
    ("conv-3d-spatial-half-strided", "Conv", {"x": f32(1, 4, 5, 9, 8)}, {"w": f32(5, 4, 1, 3, 3)},
     {"strides": [2, 2, 2], "pads": [0, 1, 1, 0, 1, 1]}, 18),
    ("conv-3d-temporal-strided-hw-kept", "Conv", {"x": f32(1, 4, 6, 5, 5)}, {"w": f32(5, 4, 3, 1, 1)},
     {"strides": [1, 2, 2]}, 18),
    ("maxpool-3d-s3d", "MaxPool", {"x": f32(1, 4, 6, 9, 9)}, {},
     {"kernel_shape": [1, 3, 3], "strides": [1, 2, 2], "pads": [0, 1, 1, 0, 1, 1]}, 18),
    ("maxpool-3d-ceil", "MaxPool", {"x": f32(1, 3, 7, 8, 9)}, {},
     {"kernel_shape": [3, 2, 3], "strides": [2, 2, 2], "ceil_mode": 1}, 18),
    ("avgpool-3d-pads-excluded", "AveragePool", {"x": f32(1, 3, 5, 6, 7)}, {},
     {"kernel_shape": [3, 3, 3], "strides": [2, 1, 2], "pads": [1, 1, 0, 1, 0, 1]}, 18),
    ("maxpool-1d", "MaxPool", {"x": X1}, {}, {"kernel_shape": [3], "strides": [2], "ceil_mode": 1}, 18),
    ("avgpool", "AveragePool", {"x": X}, {}, {"kernel_shape": [2, 2], "strides": [2, 2]}, 18),
    ("avgpool-pads-excluded", "AveragePool", {"x": X}, {},
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}, 18),
    ("avgpool-pads-included", "AveragePool", {"x": X}, {},
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "count_include_pad": 1}, 18),
    ("avgpool-ceil-included", "AveragePool", {"x": X}, {},
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 0, 1, 0], "ceil_mode": 1,
      "count_include_pad": 1}, 18),
    ("avgpool-ceil-excluded", "AveragePool", {"x": X}, {},
     {"kernel_shape": [2, 3], "strides": [2, 2], "pads": [0, 1, 0, 1], "ceil_mode": 1}, 18),
    ("avgpool-1d", "AveragePool", {"x": X1}, {}, {"kernel_shape": [3], "pads": [1, 1]}, 18),
    ("global-avg", "GlobalAveragePool", {"x": X}, {}, {}, 18),
    ("global-max", "GlobalMaxPool", {"x": X1}, {}, {}, 18),
    ("batchnorm-const", "BatchNormalization", {"x": X},
     {"s": f32(4), "b": f32(4), "m": f32(4), "v": f32(4, positive=True)}, {"epsilon": 1e-3}, 18),
    ("batchnorm-runtime", "BatchNormalization",
     {"x": X, "s": f32(4), "b": f32(4), "m": f32(4), "v": f32(4, positive=True)}, {}, {}, 18),
    ("clip-inputs", "Clip", {"x": X}, {"lo": np.array(-0.5, np.float32),
                                       "hi": np.array(0.7, np.float32)}, {}, 18),
    ("clip-min-only", "Clip", {"x": X}, {"lo": np.array(0.0, np.float32), "hi": None},
     {"order": ["x", "lo", "hi"]}, 18),
    ("clip-max-only", "Clip", {"x": X}, {"lo": None, "hi": np.array(6.0, np.float32)},
     {"order": ["x", "lo", "hi"]}, 18),
    ("clip-runtime-bounds", "Clip", {"x": X, "lo": np.array(-0.2, np.float32),
                                     "hi": np.array(0.3, np.float32)}, {}, {}, 18),
    ("clip-none", "Clip", {"x": X}, {}, {}, 18),
    ("clip-attrs-opset6", "Clip", {"x": X}, {}, {"min": -0.25, "max": 0.5}, 6),
    ("hardsigmoid", "HardSigmoid", {"x": 4 * X}, {}, {"alpha": 0.3, "beta": 0.4}, 18),
    ("hardsigmoid-default", "HardSigmoid", {"x": 4 * X}, {}, {}, 18),
    ("hardswish", "HardSwish", {"x": 5 * X}, {}, {}, 18),
    ("pad-constant", "Pad", {"x": X}, {"p": np.array([0, 1, 2, 0, 0, 0, 1, 3], np.int64),
                                       "c": np.array(1.5, np.float32)}, {}, 18),
    ("pad-negative", "Pad", {"x": X}, {"p": np.array([0, 0, -1, 2, 0, 0, 1, -2], np.int64)}, {}, 18),
    ("pad-axes", "Pad", {"x": X}, {"p": np.array([1, 2, 0, 1], np.int64), "c": None,
                                   "a": np.array([2, -1], np.int64)},
     {"order": ["x", "p", "c", "a"]}, 18),
    ("pad-edge", "Pad", {"x": X}, {"p": np.array([0, 0, 2, 1, 0, 0, 1, 3], np.int64)},
     {"mode": "edge"}, 18),
    ("conv-3d-bias-strided-padded", "Conv", {"x": f32(1, 3, 5, 9, 9)}, {"w": f32(4, 3, 3, 3, 3), "b": f32(4)},
     {"strides": [1, 2, 2], "pads": [1, 1, 1, 1, 0, 2]}, 18),
    ("conv-3d-runtime-dilated-batch-2", "Conv", {"x": f32(2, 2, 6, 7, 7), "w": f32(3, 2, 1, 3, 2)}, {},
     {"dilations": [1, 2, 3]}, 18),
    ("conv-3d-depthwise", "Conv", {"x": f32(1, 4, 5, 6, 6)}, {"w": f32(4, 1, 3, 3, 3)},
     {"group": 4, "pads": [1] * 6}, 18),
    ("pad-reflect", "Pad", {"x": X}, {"p": np.array([0, 0, 2, 1, 0, 0, 1, 3], np.int64)},
     {"mode": "reflect"}, 18),
]

XT, XT1 = f32(1, 4, 5, 6), f32(2, 4, 7)
CASES += [
    ("convtranspose-plain", "ConvTranspose", {"x": XT, "w": f32(4, 3, 3, 3)}, {}, {}, 18),
    ("convtranspose-stride-pads-outpad", "ConvTranspose", {"x": XT, "w": f32(4, 3, 3, 2)},
     {"b": f32(3)}, {"strides": [2, 3], "pads": [1, 0, 1, 1], "output_padding": [1, 0]}, 18),
    ("convtranspose-group-dilated", "ConvTranspose", {"x": XT}, {"w": f32(4, 2, 3, 3)},
     {"group": 2, "dilations": [2, 1], "strides": [2, 2]}, 18),
    ("convtranspose-runtime-weights-group", "ConvTranspose", {"x": XT, "w": f32(4, 2, 2, 3)}, {},
     {"group": 2, "strides": [2, 1], "pads": [0, 1, 1, 1]}, 18),
    ("convtranspose-1d", "ConvTranspose", {"x": XT1, "w": f32(4, 5, 3)}, {},
     {"strides": [2], "pads": [1, 0]}, 18),
    ("convtranspose-output-shape", "ConvTranspose", {"x": XT, "w": f32(4, 3, 3, 3)}, {},
     {"strides": [2, 2], "output_shape": [10, 12]}, 18),
    ("convtranspose-same-upper", "ConvTranspose", {"x": XT, "w": f32(4, 3, 3, 3)}, {},
     {"strides": [2, 2], "auto_pad": "SAME_UPPER"}, 18),
    ("convtranspose-same-lower", "ConvTranspose", {"x": XT, "w": f32(4, 3, 4, 4)}, {},
     {"strides": [2, 2], "auto_pad": "SAME_LOWER"}, 18),
    # constant filters, no dilation: one stride-1 conv a phase (`_phase_convs`)
    ("convtranspose-phases-pads-outpad", "ConvTranspose", {"x": XT}, {"w": f32(4, 3, 3, 2), "b": f32(3)},
     {"strides": [2, 3], "pads": [1, 0, 1, 1], "output_padding": [1, 0]}, 18),
    ("convtranspose-phases-encodec-1d", "ConvTranspose", {"x": XT1}, {"w": f32(4, 3, 8)}, {"strides": [4]}, 18),
    ("convtranspose-phases-kernel-under-stride", "ConvTranspose", {"x": XT}, {"w": f32(4, 3, 2, 1)},
     {"strides": [3, 2]}, 18),
    ("convtranspose-phases-group", "ConvTranspose", {"x": XT}, {"w": f32(4, 2, 3, 3)},
     {"group": 2, "strides": [2, 2], "pads": [0, 1, 1, 1]}, 18),
    ("convtranspose-phases-same-upper", "ConvTranspose", {"x": XT}, {"w": f32(4, 3, 3, 3)},
     {"strides": [2, 2], "auto_pad": "SAME_UPPER"}, 18),
]
_SCALES = {"roi": None, "scales": np.array([1, 1, 2, 1.5], np.float32)}
_SIZES = {"roi": None, "scales": None, "sizes": np.array([1, 4, 9, 4], np.int64)}
for _id, _mode, _extra in [
    ("nearest-asymmetric-floor", "nearest", {"coordinate_transformation_mode": "asymmetric",
                                             "nearest_mode": "floor"}),
    ("nearest-default", "nearest", {}),
    ("linear-half-pixel", "linear", {}),
    ("linear-align-corners", "linear", {"coordinate_transformation_mode": "align_corners"}),
    ("linear-pytorch-half-pixel", "linear",
     {"coordinate_transformation_mode": "pytorch_half_pixel"}),
]:
    CASES.append((f"resize-{_id}", "Resize", {"x": XT}, _SCALES,
                  {"mode": _mode, "order": ["x", "roi", "scales"], **_extra}, 18))
for _mode in ("nearest", "linear"):
    CASES.append((f"resize-sizes-{_mode}", "Resize", {"x": XT}, _SIZES,
                  {"mode": _mode, "order": ["x", "roi", "scales", "sizes"]}, 18))
# H and W resize jointly (one flat gather per tap combination); one axis alone, or axes apart,
# resize axis by axis (onnxruntime's linear mode takes no axes apart).
for _name, _scales, _mode in [("one-axis", [1, 1, 2, 1], "nearest"), ("one-axis", [1, 1, 2, 1], "linear"),
                              ("axes-apart", [1, 2, 1, 1.5], "nearest")]:
    CASES.append((f"resize-{_name}-{_mode}", "Resize", {"x": XT}, {"roi": None, "scales": np.array(_scales, np.float32)},
                  {"mode": _mode, "order": ["x", "roi", "scales"]}, 18))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_op_agrees_with_onnxruntime(case) -> None:
    _, op, runtime, const, attrs, opset = case
    check(make_model(op, runtime, const, opset=opset, **dict(attrs)), runtime)


def test_conv_is_one_graph_conv_with_a_channel_bias() -> None:
    model = make_model("Conv", {"x": X}, {"w": f32(6, 4, 3, 3), "b": f32(6)}, pads=[1, 1, 1, 1])
    text = print_module(import_onnx(model))
    assert text.count("graph.conv") == 1
    assert "graph.broadcast" in text and "dims = [1]" in text
    pool = print_module(import_onnx(make_model("MaxPool", {"x": X}, {}, kernel_shape=[2, 2])))
    assert 'graph.pool %x kind = "max"' in pool


@pytest.mark.parametrize("seed", range(12))
def test_random_conv_and_pool_agree_with_onnxruntime(seed: int) -> None:
    """Property test: random shapes, strides, pads, dilations and groups."""
    r = np.random.default_rng(100 + seed)
    spatial = int(r.integers(1, 3))
    group = int(r.choice([1, 2, 3]))
    c, f = group * int(r.integers(1, 4)), group * int(r.integers(1, 3))
    size = [int(r.integers(4, 10)) for _ in range(spatial)]
    kernel = [int(r.integers(1, 4)) for _ in range(spatial)]
    strides = [int(r.integers(1, 4)) for _ in range(spatial)]
    dilations = [int(r.integers(1, 3)) for _ in range(spatial)]
    pads = [int(r.integers(0, 3)) for _ in range(2 * spatial)]
    pads = [min(p, k - 1) for p, k in zip(pads, kernel * 2)]  # ORT rejects pad >= kernel in pools
    x = r.standard_normal([int(r.integers(1, 3)), c, *size]).astype(np.float32)
    w = r.standard_normal([f, c // group, *kernel]).astype(np.float32)
    check(make_model("Conv", {"x": x, "w": w}, {}, group=group, strides=strides,
                     dilations=dilations, pads=pads), {"x": x, "w": w})
    ceil = int(r.integers(0, 2))
    check(make_model("MaxPool", {"x": x}, {}, kernel_shape=kernel, strides=strides,
                     dilations=dilations, pads=pads, ceil_mode=ceil), {"x": x})
    check(make_model("AveragePool", {"x": x}, {}, kernel_shape=kernel, strides=strides,
                     pads=pads, ceil_mode=ceil, count_include_pad=int(r.integers(0, 2))),
          {"x": x})


@pytest.mark.parametrize("seed", range(8))
def test_random_3d_pools_agree_with_onnxruntime(seed: int) -> None:
    """Property test: 3-D pools (two 2-D pools, over H x W then D) with random windows,
    strides, dilations, pads and ceil mode, on inputs with infinities of both signs."""
    r = np.random.default_rng(300 + seed)
    kernel = [int(r.integers(1, 4)) for _ in range(3)]
    strides = [int(r.integers(1, 3)) for _ in range(3)]
    pads = [min(int(r.integers(0, 2)), k - 1) for k in kernel * 2]
    x = r.standard_normal([1, 3, *(int(r.integers(4, 8)) for _ in range(3))]).astype(np.float32)
    x.reshape(-1)[[0, 7]] = [np.inf, -np.inf]
    ceil = int(r.integers(0, 2))
    dilations = [int(r.integers(1, 3)) for _ in range(3)]
    check(make_model("MaxPool", {"x": x}, {}, kernel_shape=kernel, strides=strides, dilations=dilations,
                     pads=pads, ceil_mode=ceil), {"x": x})
    finite = np.nan_to_num(x, posinf=3.0, neginf=-3.0)
    check(make_model("AveragePool", {"x": finite}, {}, kernel_shape=kernel, strides=strides, pads=pads,
                     ceil_mode=ceil, count_include_pad=int(r.integers(0, 2))), {"x": finite})


@pytest.mark.parametrize("seed", range(10))
def test_random_conv_transpose_phases_agree_with_onnxruntime(seed: int) -> None:
    """Property test of the phase form: random strides (kernels under and over them), pads,
    output padding and groups, 1-D and 2-D, constant filters."""
    r = np.random.default_rng(500 + seed)
    spatial, group = int(r.integers(1, 3)), int(r.choice([1, 2]))
    kernel = [int(r.integers(1, 6)) for _ in range(spatial)]
    strides = [int(r.integers(1, 5)) for _ in range(spatial)]
    pads = [int(r.integers(0, k)) for k in kernel * 2]
    out_pad = [int(r.integers(0, st)) for st in strides]
    x = r.standard_normal([int(r.integers(1, 3)), 2 * group, *(int(r.integers(2, 6)) for _ in range(spatial))])
    for d, (size, k, st) in enumerate(zip(x.shape[2:], kernel, strides)):  # at least one output
        if (size - 1) * st + k - pads[d] - pads[spatial + d] < 1:
            pads[d] = pads[spatial + d] = 0
    w = r.standard_normal([2 * group, int(r.integers(1, 3)), *kernel]).astype(np.float32)
    runtime = {"x": x.astype(np.float32)}
    check(make_model("ConvTranspose", runtime, {"w": w}, group=group, strides=strides, pads=pads,
                     output_padding=out_pad), runtime)


def test_conv_transpose_with_a_constant_filter_multiplies_no_zeros() -> None:
    """HiFi-GAN's stride-4 upsampling (kernel 8, pad 2: phases with different pads): four
    stride-1 convs over the input itself, no zeros interleaved (no graph.pad of the input)."""
    model = make_model("ConvTranspose", {"x": XT1}, {"w": f32(4, 3, 8)}, strides=[4], pads=[2, 2])
    names = [op.name for op in import_onnx(model).walk() if op.name.startswith("graph.")]
    assert names.count("graph.conv") == 4 and "graph.pad" not in names, names


def test_aligned_conv_transpose_phases_are_one_conv_and_a_transpose() -> None:
    """EnCodec's and CLIPSeg's upsampling (kernel a multiple of the stride, no pad): the phases
    are the output channels of one conv (3 filters x 4 phases), interleaved by one transpose;
    no concat, no zeros."""
    model = make_model("ConvTranspose", {"x": XT1}, {"w": f32(4, 3, 8)}, strides=[4])
    ops = [op for op in import_onnx(model).walk() if op.name.startswith("graph.")]
    names = [op.name for op in ops]
    assert names.count("graph.conv") == 1 and names.count("graph.transpose") == 1, names
    assert "graph.concat" not in names and "graph.pad" not in names, names
    conv = next(op for op in ops if op.name == "graph.conv")
    assert conv.results[0].type.get_shape()[1] == 12


@pytest.mark.parametrize("seed", range(8))
def test_random_aligned_conv_transpose_phases_agree_with_onnxruntime(seed: int) -> None:
    """Property test of the one-conv phase form: kernels multiples of their strides, leading
    pads multiples of the strides (the trailing pad and output padding free), 1-D and 2-D,
    inputs with a large common offset."""
    r = np.random.default_rng(900 + seed)
    spatial = int(r.integers(1, 3))
    strides = [int(r.integers(1, 5)) for _ in range(spatial)]
    kernel = [st * int(r.integers(1, 3)) for st in strides]
    begin = [st * int(r.integers(0, k // st)) for st, k in zip(strides, kernel)]
    end = [int(r.integers(0, k)) for k in kernel]
    out_pad = [int(r.integers(0, st)) for st in strides]
    x = 1e3 + r.standard_normal([int(r.integers(1, 3)), 3, *(int(r.integers(2, 6)) for _ in range(spatial))])
    for d, (size, k, st) in enumerate(zip(x.shape[2:], kernel, strides)):  # at least one output
        if (size - 1) * st + k - begin[d] - end[d] < 1:
            begin[d] = end[d] = 0
    w = r.standard_normal([3, int(r.integers(1, 4)), *kernel]).astype(np.float32)
    runtime = {"x": x.astype(np.float32)}
    model = make_model("ConvTranspose", runtime, {"w": w}, strides=strides, pads=[*begin, *end],
                       output_padding=out_pad)
    assert sum(op.name == "graph.conv" for op in import_onnx(model).walk()) == 1
    check(model, runtime)


@pytest.mark.parametrize("seed", range(10))
def test_random_3d_convs_agree_with_onnxruntime(seed: int) -> None:
    """Property test of 3-D convs: separable halves as 2-D convs (H-stacked depth slices for
    (1, k, k) windows, a (kd, 1) conv over [C, D, H*W] for (kd, 1, 1) ones), full windows as the
    stacked conv over their depth taps as channels, depthwise ones left 3-D; random strides,
    pads, constant or runtime filters."""
    r = np.random.default_rng(700 + seed)
    kernel = [int(r.integers(1, 4)), int(r.integers(1, 4)), int(r.integers(1, 4))]
    if seed % 4 == 1:
        kernel[1:] = [1, 1]
    elif seed % 4 == 2:
        kernel[0] = 1
    strides = [int(r.integers(1, 3)) for _ in range(3)]
    pads = [int(r.integers(0, k)) for k in kernel * 2]
    x = r.standard_normal([1, 4, *(int(r.integers(3, 8)) for _ in range(3))]).astype(np.float32)
    group = 4 if seed % 3 == 0 else 1
    w = r.standard_normal([4 if group == 4 else 3, 4 // group, *kernel]).astype(np.float32)
    attrs = {"group": group, "strides": strides, "pads": pads}
    check(make_model("Conv", {"x": x}, {"w": w}, **attrs), {"x": x})
    check(make_model("Conv", {"x": x, "w": w}, {}, **attrs), {"x": x, "w": w})


def test_3d_convs_leave_no_3d_conv() -> None:
    """S3D's separable halves: the (1, 3, 3) conv is 2-D convs over H-stacked slices, the
    (3, 1, 1) one a (3, 1) conv over [C, D, H*W]; r3d_18's 3 x 3 x 3 window one stacked conv
    over its three depth taps as 12 channels (a concat of the shifted slices); no 5-D graph.conv
    is left."""
    x = f32(1, 4, 6, 9, 9)
    for kernel, pads, channels in (([1, 3, 3], [0, 1, 1, 0, 1, 1], 4), ([3, 1, 1], [1, 0, 0, 1, 0, 0], 4),
                                   ([3, 3, 3], [1] * 6, 12)):
        module = import_onnx(make_model("Conv", {"x": x}, {"w": f32(5, 4, *kernel)}, pads=pads))
        convs = [op for op in module.walk() if op.name == "graph.conv"]
        assert len(convs) == 1 and len(convs[0].results[0].type.get_shape()) == 4
        assert convs[0].operands[1].type.get_shape()[1] == channels


def test_3d_conv_over_disjoint_patches_is_a_matmul() -> None:
    """VideoMAE's tubelet embedding: no graph.conv is left, one graph.dot (filter first)."""
    model = make_model("Conv", {"x": f32(1, 3, 4, 8, 12)}, {"w": f32(5, 3, 2, 4, 4)}, strides=[2, 4, 4])
    names = [op.name for op in import_onnx(model).walk() if op.name.startswith("graph.")]
    assert "graph.conv" not in names and names.count("graph.dot") == 1, names
    overlapping = make_model("Conv", {"x": f32(1, 3, 4, 8, 12)}, {"w": f32(5, 3, 2, 4, 4)}, strides=[2, 2, 2])
    assert "graph.conv" in print_module(import_onnx(overlapping))


@pytest.mark.parametrize("kernel, strides, pads, pools", [
    ([3, 3, 3], [2, 2, 2], [1] * 6, 2),
    ([1, 3, 3], [1, 2, 2], [0, 1, 1, 0, 1, 1], 1),  # S3D's: the pool over D is one element
    ([3, 1, 1], [1, 1, 1], [1, 0, 0, 1, 0, 0], 1),
    ([1, 1, 1], [1, 1, 1], [0] * 6, 0),
    ([1, 3, 3], [2, 2, 2], [0, 1, 1, 0, 1, 1], 2),  # a stride over D is a pool over D
])
def test_3d_pool_is_2d_pools_without_one_element_windows(kernel, strides, pads, pools) -> None:
    x = f32(1, 4, 6, 9, 9)
    for kind in ("MaxPool", "AveragePool"):
        model = make_model(kind, {"x": x}, {}, kernel_shape=kernel, strides=strides, pads=pads)
        text = print_module(import_onnx(model))
        assert text.count("graph.pool") == pools, text
        check(model, {"x": x})


# -- errors -----------------------------------------------------------------------------------

def _bad(op: str, runtime, const=None, **attrs) -> onnx.ModelProto:
    return make_model(op, runtime, const or {}, **attrs)


@pytest.mark.parametrize("model, message", [
    (_bad("Conv", {"x": f32(1, 6, 8, 8), "w": f32(8, 2, 3, 3)}, group=4),
     r"divisible by group 4 \(node 'node_conv'\)"),
    (_bad("Conv", {"x": f32(1, 4, 3, 3), "w": f32(8, 4, 5, 5)}),
     r"kernel extent 5 .* larger than the padded input 3 .*\(node 'node_conv'\)"),
    (_bad("Conv", {"x": X, "w": f32(6, 4, 3, 3)}, auto_pad="SAME_MIDDLE"),
     r"unknown auto_pad 'SAME_MIDDLE' .*\(node 'node_conv'\)"),
    (_bad("Conv", {"x": f32(1, 2, 3, 3, 3, 3), "w": f32(2, 2, 1, 1, 1, 1)}),
     r"Conv with 4 spatial dims is not supported .*only 1-D, 2-D and 3-D\) \(node 'node_conv'\)"),
    (_bad("Conv", {"x": f32(1, 4, 4, 4, 4), "w": f32(4, 2, 1, 1, 1)}, group=2),
     r"a 3-D conv with 2 groups of 2 channels is not supported .*\(node 'node_conv'\)"),
    (_bad("MaxPool", {"x": f32(1, 2, 4, 4, 4, 4)}, kernel_shape=[2, 2, 2, 2]),
     r"MaxPool with 4 spatial dims is not supported .*only 1-D, 2-D and 3-D\) \(node 'node_maxpool'\)"),
    (_bad("MaxPool", {"x": f32(1, 2, 3, 3)}, kernel_shape=[5, 5]),
     r"kernel extent 5 .*\(node 'node_maxpool'\)"),
    (make_model("MaxPool", {"x": X}, {}, n_outputs=2, kernel_shape=[2, 2]),
     r"MaxPool's Indices output is unsupported \(node 'node_maxpool'\)"),
    (_bad("Pad", {"x": X}, {"p": np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64)}, mode="wrap"),
     r"Pad mode 'wrap' is not supported .*\(node 'node_pad'\)"),
])
def test_bad_models_get_located_errors(model, message) -> None:
    with pytest.raises(OnnxImportError, match=message):
        import_onnx(model)


def test_graph_ops_are_registered() -> None:
    assert {graph.ConvOp, graph.PoolOp} <= set(graph.Graph.operations)


def test_bilinear_resize_of_h_and_w_is_one_dispatch_reading_the_input() -> None:
    """Four gathers (one per corner), each from the input flattened over H x W, never from
    another gather's result: region formation makes it one dispatch (IREE's own count); axis
    by axis, the second gather read the first's result and took a second dispatch."""
    model = make_model("Resize", {"x": f32(1, 8, 14, 14)}, {"roi": None, "scales": np.array([1, 1, 2, 2], np.float32)},
                       mode="linear", order=["x", "roi", "scales"])
    module = check(model, {"x": np.random.default_rng(0).standard_normal((1, 8, 14, 14)).astype(np.float32)})
    gathers = [op for op in module.walk() if op.name == "graph.gather"]
    assert len(gathers) == 4
    assert all(g.operands[0].owner.name == "graph.reshape" and g.operands[0].type.get_shape() == (1, 8, 196) for g in gathers)
    regions = apply_pipeline(parse_module(print_module(module)), "graph-to-dispatch")
    assert sum(op.name == "flow.dispatch.region" for op in regions.walk()) == 1


def test_large_bilinear_resize_goes_axis_by_axis_innermost_first() -> None:
    """28x28 -> 224x224 (LR-ASPP's head): joint tables would be 1.6 MB per channel, so W is
    resized first (gathers along W of the input), then H (gathers along H of that), each
    reading 224-entry i32 tables; it agrees with onnxruntime and forms two dispatches."""
    model = make_model("Resize", {"x": f32(1, 3, 28, 28)}, {"roi": None, "scales": np.array([1, 1, 8, 8], np.float32)},
                       mode="linear", order=["x", "roi", "scales"])
    module = check(model, {"x": np.random.default_rng(0).standard_normal((1, 3, 28, 28)).astype(np.float32)})
    gathers = [op for op in module.walk() if op.name == "graph.gather"]
    assert [g.properties["axis"].value.data if "axis" in g.properties else g.attributes["axis"].value.data
            for g in gathers] == [3, 3, 2, 2]
    assert all(g.operands[1].type.get_shape() == (224,) and g.operands[1].type.get_element_type().width.data == 32
               for g in gathers)
    regions = apply_pipeline(parse_module(print_module(module)), "graph-to-dispatch")
    assert sum(op.name == "flow.dispatch.region" for op in regions.walk()) == 2
