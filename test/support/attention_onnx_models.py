"""The attention tail of MIGraphX issue #2818 (distilgpt2, seed 003) as an ONNX file, built
with `onnx.helper`, for the dispatch counts and the runtime bench:

    python test/support/attention_onnx_models.py test/data/onnx   # rewrite the committed file

`attn_tail.args.onnx` (weights as graph inputs, after the two activations; 348 tokens, 12
heads of 64 as in the seed, float32):

    qkv = Y . A + b                      Y: 348 x 768, A: 768 x 2304, b: 2304
    v   = Slice(Transpose(Reshape(qkv, [1, 348, 36, 64]), [0, 2, 1, 3]), heads 24..36)
    out = Reshape(Transpose(X . v, [0, 2, 1, 3]), [348, 768]) . C
                                         X: 1 x 12 x 348 x 348 (the attention probabilities)

The shapes and slice bounds are initializers (constants in either file).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 18


def _ints(name: str, values: list[int]) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(values, dtype=np.int64), name)


def attn_tail(seq: int = 348, heads: int = 12, dh: int = 64) -> onnx.ModelProto:
    d = heads * dh
    f32 = TensorProto.FLOAT
    inputs = [helper.make_tensor_value_info("X", f32, [1, heads, seq, seq]),
              helper.make_tensor_value_info("Y", f32, [seq, d]),
              helper.make_tensor_value_info("A", f32, [d, 3 * d]),
              helper.make_tensor_value_info("b", f32, [3 * d]),
              helper.make_tensor_value_info("C", f32, [d, d])]
    consts = [_ints("heads_shape", [1, seq, 3 * heads, dh]), _ints("starts", [2 * heads]),
              _ints("ends", [3 * heads]), _ints("axes", [1]), _ints("flat_shape", [seq, d])]
    nodes = [
        helper.make_node("MatMul", ["Y", "A"], ["ya"], name="qkv_matmul"),
        helper.make_node("Add", ["ya", "b"], ["qkv"], name="qkv_bias"),
        helper.make_node("Reshape", ["qkv", "heads_shape"], ["split"], name="split_heads"),
        helper.make_node("Transpose", ["split"], ["heads_first"], name="heads_first", perm=[0, 2, 1, 3]),
        helper.make_node("Slice", ["heads_first", "starts", "ends", "axes"], ["v"], name="v_heads"),
        helper.make_node("MatMul", ["X", "v"], ["pv"], name="probs_v"),
        helper.make_node("Transpose", ["pv"], ["tokens_first"], name="tokens_first", perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["tokens_first", "flat_shape"], ["flat"], name="merge_heads"),
        helper.make_node("MatMul", ["flat", "C"], ["out"], name="out_proj"),
    ]
    output = helper.make_tensor_value_info("out", f32, [seq, d])
    graph = helper.make_graph(nodes, "main_graph", inputs, [output], initializer=consts)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="fusionopt")
    onnx.checker.check_model(model)
    return model


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    path = args.folder / "attn_tail.args.onnx"
    onnx.save(attn_tail(), path)
    print(path)


if __name__ == "__main__":
    main()
