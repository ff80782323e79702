"""One-node ONNX models for the importer's op-by-op tests: `make_model` builds the node with its
runtime inputs (graph inputs -> function arguments) and constant inputs (initializers ->
import-time constants); `check` imports it, runs it with the numpy interpreter at graph level
and, lowered by `convert-graph-to-linalg`, again, and compares both with onnxruntime on the
same inputs (rtol 1e-4, atol 1e-5)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from fusionopt.ir_io import parse_module, print_module
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.testing import apply_pipeline, run_module

NP_TO_ONNX = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
              np.dtype(np.int64): TensorProto.INT64, np.dtype(np.int32): TensorProto.INT32,
              np.dtype(np.bool_): TensorProto.BOOL}


def make_model(op: str, runtime: dict[str, np.ndarray], const: dict[str, np.ndarray | None],
               n_outputs: int = 1, opset: int = 18, **attrs) -> onnx.ModelProto:
    """One node `op`; inputs in the order runtime-then-const unless `order` is given."""
    order = attrs.pop("order", [*runtime, *const])
    node = helper.make_node(op, [n if (n in runtime or const.get(n) is not None) else ""
                                 for n in order],
                            [f"out{i}" for i in range(n_outputs)], name=f"node_{op.lower()}", **attrs)
    inputs = [helper.make_tensor_value_info(n, NP_TO_ONNX[v.dtype], v.shape) for n, v in runtime.items()]
    inits = [numpy_helper.from_array(v, n) for n, v in const.items() if v is not None]
    outputs = [helper.make_tensor_value_info(f"out{i}", TensorProto.UNDEFINED, None)
               for i in range(n_outputs)]
    return finish(helper.make_graph([node], "g", inputs, outputs, inits), opset)


def opset_model(graph: onnx.GraphProto, opset: int = 18) -> onnx.ModelProto:
    """`graph` as a model onnxruntime accepts (it reads IR versions <= 13; helper writes newer ones)."""
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def finish(graph: onnx.GraphProto, opset: int = 18) -> onnx.ModelProto:
    """`opset_model` with its value shapes inferred."""
    return onnx.shape_inference.infer_shapes(opset_model(graph, opset))


def x_to_y_model(nodes, inits, in_shape, out_shape, name: str = "g") -> onnx.ModelProto:
    """The opset-18 model of `nodes` from one float input `x` to one float output `y` (the
    small model files `test/support/*_onnx_models.py` write)."""
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)], inits)
    return opset_model(graph)


def check(model: onnx.ModelProto, runtime: dict[str, np.ndarray], lower: bool = True):
    """`model` imported (the printed IR re-parses and verifies) and run as above; returns the
    graph-level module."""
    import onnxruntime as ort

    module = parse_module(print_module(import_onnx(model)))
    expected = ort.InferenceSession(model.SerializeToString(),
                                    providers=["CPUExecutionProvider"]).run(None, runtime)
    runs = [run_module(module, list(runtime.values()))]
    if lower:
        lowered = apply_pipeline(parse_module(print_module(module)), "convert-graph-to-linalg")
        assert not [op for op in lowered.walk() if op.name.startswith("graph.")]
        runs.append(run_module(lowered, list(runtime.values())))
    for actual in runs:
        for a, e in zip(actual, expected, strict=True):
            assert a.shape == e.shape and a.dtype == e.dtype, (a.shape, a.dtype, e.shape, e.dtype)
            np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5)
    return module


def save_models_main(description: str, models: dict[str, Callable[[], onnx.ModelProto]]) -> None:
    """The command line of the small model scripts: `SCRIPT OUT_FOLDER` writes OUT/NAME.onnx."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out", type=Path)
    out = parser.parse_args().out
    for name, build in models.items():
        onnx.save(build(), str(out / f"{name}.onnx"))
