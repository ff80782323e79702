"""`dispatch-unit-dim-reads`: a value computed in a region, its unit dim kept, that a generic
repeats along a loop of extent > 1 (no loop of extent 1 free for its constant 0) is read
through a `tensor.collapse_shape` in the region. The lit case computes the same numbers after
the pass (the numpy interpreter, every input family). An MoE layer as transformers' batched
experts export it (an RMSNorm's [1, 64, 256] output flattened, each token repeated for its 2
experts and multiplied by its experts' gathered weights) goes through the target-neutral
pipelines, and IREE builds it and computes what a float64 run of the graph does; before, the
norm's region failed to build ("failed to run translation": `epilogue_kept_dim_broadcast` in
bench/iree_limits_reshaped.py pins that form), so Mixtral and Qwen2-MoE had no module from
`graph-to-dispatch` or `-fewest`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.registry import iree_flags_of
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "dispatch" / "dispatch-unit-dim-reads.mlir"


def test_the_repeat_reads_a_collapse_and_preserves_values():
    after = assert_pass_preserves_semantics(lit_functions(LIT)["broadcast_of_a_region_value"],
                                            "dispatch-unit-dim-reads", seeds=(0, 1))
    collapses = [op for op in after.walk() if op.name == "tensor.collapse_shape"]
    assert [c.results[0].type.get_shape() for c in collapses] == [(8, 16)]
    assert len(list(collapses[0].results[0].uses)) == 1


def test_a_region_value_read_through_a_unit_loop_preserves_values():
    """Also what the CUDA pipeline's `windowed-regions-only` rewrites outside conv regions."""
    for options in ("", "{windowed-regions-only=true}"):
        after = assert_pass_preserves_semantics(lit_functions(LIT)["region_value_read_through_a_unit_loop"],
                                                f"dispatch-unit-dim-reads{options}", seeds=(0, 1))
        assert "(d1, 0, d2)" not in print_module(after)


def _constant(name: str, values) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(values), name)


def moe_experts(tokens: int = 64, hidden: int = 256, experts: int = 4, k: int = 2, ffn: int = 64) -> onnx.ModelProto:
    """A residual add, its RMSNorm (scaled by a weight), the router's logits, and transformers'
    `batched_mm` experts on the normed rows: each token's row repeated k times (Unsqueeze,
    Expand, Reshape: `repeat_interleave`), times the up-projection of each of its experts,
    gathered by expert id (GatherND), then SiLU."""
    rng = np.random.default_rng(0)
    ids = np.stack([np.arange(tokens) % experts, (np.arange(tokens) + 1) % experts], 1).reshape(-1, 1)
    inits = [_constant("two", np.float32(2.0)), _constant("axes", np.array([-1], np.int64)),
             _constant("eps", np.float32(1e-5)), _constant("rows", np.array([-1, hidden], np.int64)),
             _constant("one", np.array([1], np.int64)), _constant("times", np.array([1, k, 1], np.int64)),
             _constant("ids", ids.astype(np.int64)),
             _constant("up", rng.standard_normal((experts, ffn, hidden)).astype(np.float32) / 16),
             _constant("scale", (1 + rng.standard_normal(hidden) / 8).astype(np.float32)),
             _constant("router", rng.standard_normal((experts, hidden)).astype(np.float32) / 16)]
    nodes = [helper.make_node("Add", ["x", "y"], ["h"]),
             helper.make_node("Pow", ["h", "two"], ["sq"]),
             helper.make_node("ReduceMean", ["sq", "axes"], ["ms"], keepdims=1),
             helper.make_node("Add", ["ms", "eps"], ["mse"]),
             helper.make_node("Sqrt", ["mse"], ["rms"]),
             helper.make_node("Reciprocal", ["rms"], ["inv"]),
             helper.make_node("Mul", ["h", "inv"], ["unscaled"]),
             helper.make_node("Mul", ["scale", "unscaled"], ["normed"]),
             helper.make_node("Reshape", ["normed", "rows"], ["flat"]),
             helper.make_node("Gemm", ["flat", "router"], ["logits"], transB=1),
             helper.make_node("Unsqueeze", ["flat", "one"], ["u"]),
             helper.make_node("Expand", ["u", "times"], ["rep3"]),
             helper.make_node("Reshape", ["rep3", "rows"], ["rep"]),
             helper.make_node("GatherND", ["up", "ids"], ["w"]),
             helper.make_node("Unsqueeze", ["rep", "axes"], ["col"]),
             helper.make_node("MatMul", ["w", "col"], ["proj"]),
             helper.make_node("Sigmoid", ["proj"], ["gate"]),
             helper.make_node("Mul", ["proj", "gate"], ["z"])]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, tokens, hidden])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, tokens, hidden])
    outputs = [helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, tokens, hidden]),
               helper.make_tensor_value_info("logits", TensorProto.FLOAT, [tokens, experts]),
               helper.make_tensor_value_info("z", TensorProto.FLOAT, [tokens * k, ffn, 1])]
    graph = helper.make_graph(nodes, "moe_experts", [x, y], outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
@pytest.mark.parametrize("pipeline", ["graph-to-dispatch", "graph-to-dispatch-llvm-cpu-fewest"])
def test_moe_experts_build_and_agree(pipeline: str, tmp_path: Path):
    graph = print_module(import_onnx(moe_experts()))
    formed = print_module(apply_pipeline(graph, pipeline))
    assert_iree_build_agrees_with_float64(graph, formed, tmp_path, ("random", "offset", "constant", "zeros"),
                                          flags=iree_flags_of(pipeline))
