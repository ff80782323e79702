"""A small ONNX model for the importer's TopK (fusionopt/importers/onnx_ops_topk.py), written with
onnx.helper as a mixture-of-experts router exports `torch.topk(logits, 2)`:

- router: logits [1, 6, 8] (6 tokens, 8 experts); the 2 largest per token and their expert ids,
  the weights softmaxed over the two.

    python test/support/topk_onnx_models.py test/data/onnx   # rewrite the committed file
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/: run as a script too
from support.onnx_single_node import opset_model, save_models_main  # noqa: E402


def router(tokens: int = 6, experts: int = 8, k: int = 2) -> onnx.ModelProto:
    nodes = [helper.make_node("TopK", ["x", "k"], ["best", "ids"], axis=-1),
             helper.make_node("Softmax", ["best"], ["weights"], axis=-1)]
    graph = helper.make_graph(
        nodes, "router", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, tokens, experts])],
        [helper.make_tensor_value_info("weights", TensorProto.FLOAT, [1, tokens, k]),
         helper.make_tensor_value_info("ids", TensorProto.INT64, [1, tokens, k])],
        [numpy_helper.from_array(np.array([k], np.int64), "k")])
    return opset_model(graph)


if __name__ == "__main__":
    save_models_main(__doc__.splitlines()[0], {"router": router})
