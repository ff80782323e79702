"""ONNX importer: quantized models (fusionopt/importers/onnx_ops_quant.py) and the rounding ops
they added to the graph dialect (`graph.round`, `graph.floor`, `graph.ceil`).

Each case is a small graph with float inputs and outputs (our IR carries int8/uint8 values as
f32: a graph whose inputs or outputs are quantized is out of scope), imported, run at graph
level and lowered, and compared with onnxruntime on adversarial inputs: ties at half a
quantization step (round half to even), values past the range (saturation), constant rows, a
large common offset, zeros (DynamicQuantizeLinear's scale-1 rule) and values near the f32
limits. Integer arithmetic below 2^24 is exact in the f32 carrier, so the quantized results
must match onnxruntime's exactly."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import apply_pipeline, run_module
from support.onnx_single_node import check, finish, make_model

ort = pytest.importorskip("onnxruntime")
rng = np.random.default_rng(0)


def families(*shape) -> dict[str, np.ndarray]:
    """Float inputs that exercise rounding and saturation (scale 0.5 makes x / scale exact)."""
    ties = (np.arange(np.prod(shape)) - np.prod(shape) // 2) * 0.5 + 0.25
    return {
        "random": (3 * rng.standard_normal(shape)).astype(np.float32),
        "ties": ties.reshape(shape).astype(np.float32),
        "saturating": np.linspace(-400, 400, int(np.prod(shape))).reshape(shape).astype(np.float32),
        "constant": np.full(shape, 2.75, np.float32),
        "offset": (1000 + rng.standard_normal(shape)).astype(np.float32),
        "zeros": np.zeros(shape, np.float32),
        "extreme": np.resize(np.float32([3e38, -3e38, 1e-30, -0.0]), shape).astype(np.float32),
    }


def model(nodes, inputs: dict[str, np.ndarray], outputs: list[str], inits: dict[str, np.ndarray]):
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, v.shape) for n, v in inputs.items()],
        [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outputs],
        [numpy_helper.from_array(v, n) for n, v in inits.items()])
    return finish(graph, opset=21)


def assert_matches_onnxruntime(onnx_model, feeds: dict[str, np.ndarray], rtol: float = 0.0) -> None:
    """Graph-level and lowered runs equal onnxruntime's outputs (no graph optimisation, so its
    reference kernels run: with it, onnxruntime quantizes a dequantized weight's float operand
    too), NaN positions included; `rtol` for float contractions."""
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    expected = ort.InferenceSession(onnx_model.SerializeToString(), options,
                                    providers=["CPUExecutionProvider"]).run(None, feeds)
    module = parse_module(print_module(import_onnx(onnx_model)))
    lowered = apply_pipeline(parse_module(print_module(module)), "convert-graph-to-linalg")
    for actual in (run_module(module, list(feeds.values())), run_module(lowered, list(feeds.values()))):
        for a, e in zip(actual, expected, strict=True):
            if rtol:
                np.testing.assert_allclose(a, e, rtol=rtol, atol=rtol)
            else:
                np.testing.assert_array_equal(a, e.astype(a.dtype))


def qdq(zero_point: np.ndarray, scale: np.ndarray, axis: int = 1):
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=axis),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=axis)]
    return nodes, {"s": scale, "z": zero_point}


@pytest.mark.parametrize("family", list(families(1)))
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16])
def test_quantize_dequantize_per_tensor(family, dtype):
    x = families(4, 8)[family]
    zero = np.array(3 if dtype in (np.uint8, np.uint16) else -2, dtype)
    nodes, inits = qdq(zero, np.float32(0.5))
    assert_matches_onnxruntime(model(nodes, {"x": x}, ["y"], inits), {"x": x})


@pytest.mark.parametrize("family", list(families(1)))
def test_quantize_dequantize_per_axis(family):
    x = families(2, 3, 4)[family]
    nodes, inits = qdq(np.int8([0, -5, 7]), np.float32([0.5, 0.03, 2.0]))
    assert_matches_onnxruntime(model(nodes, {"x": x}, ["y"], inits), {"x": x})


def test_quantize_defaults_to_uint8_without_zero_point():
    x = families(4, 8)["saturating"]
    nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["q"]),
             helper.make_node("DequantizeLinear", ["q", "s"], ["y"])]
    assert_matches_onnxruntime(model(nodes, {"x": x}, ["y"], {"s": np.float32(0.5)}), {"x": x})


def test_dequantized_weights_fold_at_import():
    """A constant int8 weight with per-channel scales becomes an f32 constant: no quantize or
    dequantize arithmetic left in the IR."""
    x = families(2, 6)["random"]
    w = rng.integers(-128, 128, (6, 5)).astype(np.int8)
    nodes = [helper.make_node("DequantizeLinear", ["w", "ws"], ["wf"], axis=1),
             helper.make_node("MatMul", ["x", "wf"], ["y"])]
    onnx_model = model(nodes, {"x": x}, ["y"], {"w": w, "ws": np.float32(rng.uniform(0.01, 0.1, 5))})
    ops = {op.name for op in import_onnx(onnx_model).walk()}
    assert ops == {"builtin.module", "func.func", "arith.constant", "graph.dot", "func.return"}, ops
    assert_matches_onnxruntime(onnx_model, {"x": x}, rtol=1e-5)


DYNAMIC = [helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "z"]),
           helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"]),
           helper.make_node("Cast", ["z"], ["zf"], to=TensorProto.FLOAT)]


@pytest.mark.parametrize("family", list(families(1)))
def test_dynamic_quantize_linear(family):
    x = families(4, 8)[family]
    assert_matches_onnxruntime(model(DYNAMIC, {"x": x}, ["y", "s", "zf"], {}), {"x": x})


def test_dynamic_quantize_linear_of_negative_rows():
    x = np.full((4, 8), -3.0, np.float32)
    assert_matches_onnxruntime(model(DYNAMIC, {"x": x}, ["y", "s", "zf"], {}), {"x": x})


def dynamic_matmul(b_zero: np.ndarray):
    """onnxruntime's `quantize_dynamic` pattern: MatMulInteger of the dynamically quantized
    activation and an int8 weight, cast to float and scaled."""
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "z"]),
             helper.make_node("MatMulInteger", ["q", "w", "z", "wz"], ["acc"]),
             helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["s", "ws"], ["scale"]),
             helper.make_node("Mul", ["accf", "scale"], ["y"])]
    w = rng.integers(-128, 128, (2, 64, 24)[1:]).astype(np.int8)
    return nodes, {"w": w, "wz": b_zero, "ws": np.float32(0.02)}


@pytest.mark.parametrize("family", ["random", "constant", "offset", "zeros", "saturating"])
@pytest.mark.parametrize("b_zero", [np.int8(0), np.int8(rng.integers(-3, 4, 24))],
                         ids=["per-tensor", "per-column"])
def test_matmul_integer(family, b_zero):
    x = families(2, 3, 64)[family]
    nodes, inits = dynamic_matmul(b_zero)
    assert_matches_onnxruntime(model(nodes, {"x": x}, ["y"], inits), {"x": x})


@pytest.mark.parametrize("family", ["random", "offset", "zeros"])
def test_conv_integer(family):
    x = families(1, 3, 9, 9)[family]
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "z"]),
             helper.make_node("ConvInteger", ["q", "w", "z", "wz"], ["acc"], pads=[1, 1, 1, 1],
                              strides=[2, 2]),
             helper.make_node("Cast", ["acc"], ["y"], to=TensorProto.FLOAT)]
    w = rng.integers(-128, 128, (4, 3, 3, 3)).astype(np.int8)
    inits = {"w": w, "wz": np.int8(5)}
    assert_matches_onnxruntime(model(nodes, {"x": x}, ["y"], inits), {"x": x})


@pytest.mark.parametrize("family", ["random", "offset", "saturating", "zeros"])
def test_qlinear_conv_requantizes_per_channel(family):
    x = families(1, 3, 8, 8)[family]
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["q"]),
             helper.make_node("QLinearConv", ["q", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
                              ["qy"], pads=[1, 1, 1, 1]),
             helper.make_node("DequantizeLinear", ["qy", "ys", "yz"], ["y"])]
    inits = {"xs": np.float32(0.5), "xz": np.uint8(128), "w": rng.integers(-128, 128, (4, 3, 3, 3)).astype(np.int8),
             "ws": np.float32([0.01, 0.02, 0.005, 0.03]), "wz": np.int8([0, 0, 0, 0]),
             "ys": np.float32(0.25), "yz": np.uint8(100), "b": np.int32([-300, 0, 1000, 7])}
    assert_matches_onnxruntime(model(nodes, {"x": x}, ["y"], inits), {"x": x})


@pytest.mark.parametrize("family", ["random", "offset", "saturating"])
def test_qlinear_matmul(family):
    x = families(3, 32)[family]
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["q"]),
             helper.make_node("QLinearMatMul", ["q", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["qy"]),
             helper.make_node("DequantizeLinear", ["qy", "ys", "yz"], ["y"])]
    inits = {"xs": np.float32(0.5), "xz": np.int8(-3), "w": rng.integers(-128, 128, (32, 6)).astype(np.int8),
             "ws": np.float32(0.01), "wz": np.int8(0), "ys": np.float32(0.5), "yz": np.int8(1)}
    assert_matches_onnxruntime(model(nodes, {"x": x}, ["y"], inits), {"x": x})


@pytest.mark.parametrize("op", ["Round", "Floor", "Ceil"])
def test_rounding_ops(op):
    x = np.float32([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999998, -0.0, 1e30, -1e-30, np.inf, -np.inf,
                    np.nan, 7.0, -7.25, 3e38])
    check(make_model(op, {"x": x}, {}), {"x": x})


def test_a_quantized_graph_input_is_refused_plainly():
    from fusionopt.importers.onnx_context import OnnxImportError

    node = helper.make_node("DequantizeLinear", ["q", "s"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("q", TensorProto.UINT8, [4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
                              [numpy_helper.from_array(np.float32(0.5), "s")])
    with pytest.raises(OnnxImportError, match="unsupported ONNX element type UINT8"):
        import_onnx(finish(graph, opset=21))
