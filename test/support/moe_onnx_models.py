"""An MoE layer as transformers' `batched_mm` experts export it (ONNX), for the expert tests."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def _init(name: str, values) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(values), name)


def moe_layer(tokens: int = 64, hidden: int = 128, ffn: int = 96, experts: int = 8, k: int = 2) -> onnx.ModelProto:
    """Mixtral's sparse block as exported with `batched_mm` experts (bench/export_tenth_sweep.py),
    SiLU gate and up projections in one gathered [E, 2 * ffn, hidden] table."""
    rng = np.random.default_rng(0)
    weights = {"router": rng.standard_normal((hidden, experts)) / 8,
               "gate_up": rng.standard_normal((experts, 2 * ffn, hidden)) / 8,
               "down": rng.standard_normal((experts, hidden, ffn)) / 8}
    inits = [_init(n, w.astype(np.float32)) for n, w in weights.items()]
    inits += [_init("k", np.array([k], np.int64)), _init("last", np.array([-1], np.int64)),
              _init("one", np.array([1], np.int64)), _init("times", np.array([1, k, 1], np.int64)),
              _init("rows", np.array([-1, hidden], np.int64)), _init("flat", np.array([-1], np.int64)),
              _init("split", np.array([ffn, ffn], np.int64)),
              _init("by_token", np.array([tokens, k, hidden], np.int64))]
    nodes = [helper.make_node("MatMul", ["x", "router"], ["logits"]),
             helper.make_node("Softmax", ["logits"], ["probs"], axis=-1),
             helper.make_node("TopK", ["probs", "k"], ["top", "ids"]),
             helper.make_node("ReduceSum", ["top", "last"], ["total"], keepdims=1),
             helper.make_node("Div", ["top", "total"], ["share"]),
             helper.make_node("Unsqueeze", ["x", "one"], ["x1"]),
             helper.make_node("Expand", ["x1", "times"], ["xk"]),
             helper.make_node("Reshape", ["xk", "rows"], ["rep"]),
             helper.make_node("Reshape", ["ids", "flat"], ["id_flat"]),
             helper.make_node("Unsqueeze", ["id_flat", "last"], ["id_col"]),
             helper.make_node("GatherND", ["gate_up", "id_col"], ["w1"]),
             helper.make_node("Unsqueeze", ["rep", "last"], ["col"]),
             helper.make_node("MatMul", ["w1", "col"], ["h1"]),
             helper.make_node("Squeeze", ["h1", "last"], ["h"]),
             helper.make_node("Split", ["h", "split"], ["g", "u"], axis=1),
             helper.make_node("Sigmoid", ["g"], ["sg"]),
             helper.make_node("Mul", ["g", "sg"], ["silu"]),
             helper.make_node("Mul", ["silu", "u"], ["act"]),
             helper.make_node("GatherND", ["down", "id_col"], ["w2"]),
             helper.make_node("Unsqueeze", ["act", "last"], ["acol"]),
             helper.make_node("MatMul", ["w2", "acol"], ["o1"]),
             helper.make_node("Squeeze", ["o1", "last"], ["o"]),
             helper.make_node("Reshape", ["share", "flat"], ["share_flat"]),
             helper.make_node("Unsqueeze", ["share_flat", "last"], ["share_col"]),
             helper.make_node("Mul", ["o", "share_col"], ["weighted"]),
             helper.make_node("Reshape", ["weighted", "by_token"], ["per_token"]),
             helper.make_node("ReduceSum", ["per_token", "one"], ["y"], keepdims=0)]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [tokens, hidden])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [tokens, hidden])
    graph = helper.make_graph(nodes, "moe_layer", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
