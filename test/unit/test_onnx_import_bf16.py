"""ONNX BFLOAT16 import: bf16 graph inputs, initializers (inline, or as arguments with
`weights="args"`), `Constant` nodes and Casts to and from bf16 (of run-time values, and of
constants, which the importer folds) become bf16 graph values. Our interpreter's run of the import
equals ml_dtypes' bfloat16 arithmetic bit for bit (MLIR's semantics: each bf16 op rounds its
result), and the lowered module, its bf16 weights printed as MLIR's hex dense literals, is read
back by `iree-opt` with the same bits."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto, checker, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.testing import apply_pipeline, parse_module, run_module
from support.iree_opt import IREE_OPT, iree_opt

BF16 = np.dtype(ml_dtypes.bfloat16)
ROWS, COLS = 4, 32  # W has 128 elements: printed as one hex string (more than 100)


def _weights() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    return {"w": rng.standard_normal((ROWS, COLS)).astype(BF16),  # a bf16 initializer
            "c": rng.standard_normal((COLS,)).astype(BF16),
            "f": rng.standard_normal((COLS,)).astype(np.float32)}  # cast to bf16 at import


def _model():
    """out = Cast<f32>((Cast<bf16>(x) * w + (-c) * c) * k + Cast<bf16>(f)), and the bf16 sum
    itself: bf16 inputs, initializers, a Constant, run-time and folded Casts."""
    weights = _weights()
    k = numpy_helper.from_array(np.linspace(-2.0, 2.0, COLS).astype(BF16), "k")
    nodes = [
        helper.make_node("Cast", ["x"], ["xb"], to=TensorProto.BFLOAT16),
        helper.make_node("Mul", ["xb", "w"], ["p"]),
        helper.make_node("Neg", ["c"], ["nc"]),
        helper.make_node("Mul", ["nc", "c"], ["cc"]),
        helper.make_node("Add", ["p", "cc"], ["s"]),
        helper.make_node("Constant", [], ["k"], value=k),
        helper.make_node("Mul", ["s", "k"], ["sk"]),
        helper.make_node("Cast", ["f"], ["fb"], to=TensorProto.BFLOAT16),
        helper.make_node("Add", ["sk", "fb"], ["y"]),
        helper.make_node("Add", ["y", "b"], ["yb"]),
        helper.make_node("Cast", ["yb"], ["out"], to=TensorProto.FLOAT),
    ]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [ROWS, COLS]),
              helper.make_tensor_value_info("b", TensorProto.BFLOAT16, [ROWS, COLS])]
    outputs = [helper.make_tensor_value_info("out", TensorProto.FLOAT, [ROWS, COLS]),
               helper.make_tensor_value_info("yb", TensorProto.BFLOAT16, [ROWS, COLS])]
    inits = [numpy_helper.from_array(v, n) for n, v in weights.items()]
    model = helper.make_model(helper.make_graph(nodes, "bf16", inputs, outputs, inits),
                              opset_imports=[helper.make_opsetid("", 18)])
    checker.check_model(model, full_check=True)
    return model


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [rng.standard_normal((ROWS, COLS)).astype(np.float32), rng.standard_normal((ROWS, COLS)).astype(BF16)]


def _expected(x: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """ml_dtypes' bfloat16 ops round each result to bf16, as MLIR's bf16 arithmetic does."""
    w = _weights()
    k = np.linspace(-2.0, 2.0, COLS).astype(BF16)
    y = (x.astype(BF16) * w["w"] + (-w["c"]) * w["c"]) * k + w["f"].astype(BF16) + b
    return [y.astype(np.float32), y]


def test_bf16_values_import_as_bf16():
    module = import_onnx(_model())
    text = print_module(module)
    assert "func.func @main_graph(%x: tensor<4x32xf32> {onnx.name = \"x\"}, %b: tensor<4x32xbf16>" in text
    assert "-> (tensor<4x32xf32>, tensor<4x32xbf16>)" in text
    converts = [op for op in module.walk() if op.name == "graph.convert"]
    assert [(str(op.operands[0].type), str(op.results[0].type)) for op in converts] == [
        ("tensor<4x32xf32>", "tensor<4x32xbf16>"), ("tensor<4x32xbf16>", "tensor<4x32xf32>")]  # the folded Cast is gone
    constants = [op for op in module.walk() if op.name == "arith.constant"]
    assert constants and all("bf16" in str(op.results[0].type) for op in constants)


def test_bf16_import_runs_as_ml_dtypes_computes():
    module = import_onnx(_model())
    inputs = _inputs()
    actual = run_module(module, inputs)
    expected = _expected(*inputs)
    assert [a.dtype for a in actual] == [np.float32, BF16]
    for a, e in zip(actual, expected):
        assert a.tobytes() == e.tobytes()


def test_bf16_initializers_as_arguments():
    module = import_onnx(_model(), weights="args")
    entry = next(op for op in module.walk() if op.name == "func.func")
    assert [str(t) for t in entry.function_type.inputs] == [
        "tensor<4x32xf32>", "tensor<4x32xbf16>", "tensor<4x32xbf16>", "tensor<32xbf16>", "tensor<32xf32>"]
    weights = _weights()
    actual = run_module(module, [*_inputs(), weights["w"], weights["c"], weights["f"]])
    assert actual[1].tobytes() == _expected(*_inputs())[1].tobytes()


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not on PATH")
def test_lowered_bf16_hex_weights_read_back_by_iree_opt(tmp_path: Path):
    """The lowered module prints W (128 elements) as MLIR's hex form; iree-opt reads it and
    prints a module that computes the same bits."""
    lowered = apply_pipeline(import_onnx(_model()), "convert-graph-to-linalg")
    text = print_module(lowered)
    assert 'dense<"0x' in text and "tensor<4x32xbf16>" in text
    reread = parse_module(iree_opt(text, tmp_path), "<iree-opt>")
    inputs = _inputs()
    for ours, iree in zip(run_module(lowered, inputs), run_module(reread, inputs)):
        assert ours.dtype == iree.dtype and ours.tobytes() == iree.tobytes()
    assert run_module(lowered, inputs)[1].tobytes() == _expected(*inputs)[1].tobytes()
