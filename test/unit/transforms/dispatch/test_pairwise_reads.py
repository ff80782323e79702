"""`form-dispatch-regions`: a consumer joins a root's region only if *every* map through which it
reads the root's result walks the root's loops (`consumer_walks.reads_root_result_compatibly`).
A pairwise comparison of a reduction's result with itself, x_i < x_j, read it along the rows
(compatible) and along the columns (not): in one region, IREE's build counted only the
elements of each tile and gave wrong ranks without an error; RT-DETR's query selection, a TopK
of 300 over the 8400 anchors' best class scores, picked anchor 0 every time and its gathers then
read out of bounds. The lit cases compute the same numbers after the pass (the numpy
interpreter, every input family) and split where they should; the ONNX forms go through
`graph-to-dispatch-llvm-cpu` and IREE's build computes what a float64 run does (the ranks) and
what onnxruntime does (TopK's indices), at sizes where the one region was wrong. Those pairs,
computed from two vectors, are counted in the region of their count, never stored
(`iree_rules.expands_into_reduction`): a lit case each way."""

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
from fusionopt.testing import apply_pipeline
from support.iree_pairs import assert_iree_build_agrees_with_float64, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, formed_regions, lit_functions

LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-pairwise-reads.mlir"
REGIONS = {"reduction_read_twice": 2, "reduction_read_twice_in_order": 1, "pairs_counted_in_one_region": 1,
           "same_size_producer_stays_apart": 2}
PIPELINE = "graph-to-dispatch-llvm-cpu"
ANCHORS, CLASSES, PICKED = 512, 2, 30


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(REGIONS)


@pytest.mark.parametrize("name", sorted(REGIONS))
def test_lit_case_preserves_semantics_and_splits(name: str):
    assert formed_regions(LIT, name, "form-dispatch-regions") == REGIONS[name]


def _model(nodes: list, outputs: list, constants: dict[str, list[int]]) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, ANCHORS, CLASSES])
    inits = [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in constants.items()]
    graph = helper.make_graph(nodes, "pairwise", [x], outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def best_score_ranks() -> onnx.ModelProto:
    """Each anchor's best class score, and how many anchors score above it."""
    nodes = [helper.make_node("ReduceMax", ["x", "a2"], ["m"], keepdims=0),
             helper.make_node("Unsqueeze", ["m", "a2"], ["mi"]),
             helper.make_node("Unsqueeze", ["m", "a1"], ["mj"]),
             helper.make_node("Less", ["mi", "mj"], ["lt"]),
             helper.make_node("Cast", ["lt"], ["f"], to=TensorProto.FLOAT),
             helper.make_node("ReduceSum", ["f", "a2"], ["y"], keepdims=0)]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, ANCHORS])
    return _model(nodes, [y], {"a1": [1], "a2": [2]})


def best_anchors() -> onnx.ModelProto:
    """RT-DETR's query selection: the anchors of the PICKED best class scores."""
    nodes = [helper.make_node("ReduceMax", ["x", "a2"], ["m"], keepdims=0),
             helper.make_node("TopK", ["m", "k"], ["v", "i"], axis=1)]
    outputs = [helper.make_tensor_value_info("v", TensorProto.FLOAT, [1, PICKED]),
               helper.make_tensor_value_info("i", TensorProto.INT64, [1, PICKED])]
    return _model(nodes, outputs, {"a2": [2], "k": [PICKED]})


def stores_pairs(formed: str) -> bool:
    """Some region returns the ANCHORS x ANCHORS comparisons."""
    pairs = f"tensor<1x{ANCHORS}x{ANCHORS}xf32>"
    return any("flow.dispatch.region" in line and pairs in line for line in formed.splitlines())


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_ranks_of_a_reduction_build_and_agree(tmp_path: Path):
    graph = print_module(import_onnx(best_score_ranks()))
    formed = print_module(apply_pipeline(graph, PIPELINE))
    assert not stores_pairs(formed)
    assert_iree_build_agrees_with_float64(graph, formed, tmp_path, ("random", "offset", "constant", "zeros"),
                                          flags=iree_flags_of(PIPELINE))


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_topk_of_a_reduction_picks_what_onnxruntime_picks(tmp_path: Path):
    ort = pytest.importorskip("onnxruntime")
    from fusionopt.iree_tools import run_vmfb

    model = best_anchors()
    formed = print_module(apply_pipeline(print_module(import_onnx(model)), PIPELINE))
    assert not stores_pairs(formed)
    vmfb = build_llvm_cpu({"formed": formed}, tmp_path, iree_flags_of(PIPELINE))["formed"]
    session = ort.InferenceSession(model.SerializeToString())
    rng = np.random.default_rng(0)
    scores = rng.standard_normal((1, ANCHORS, CLASSES)).astype(np.float32)
    scores[0, ::7] = 0.25  # ties, ordered by index
    values, indices = run_vmfb(vmfb, [scores], "main_graph")
    want_values, want_indices = session.run(None, {"x": scores})
    np.testing.assert_array_equal(indices, want_indices)
    np.testing.assert_array_equal(values, want_values)


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_topk_of_a_reduction_builds_for_cuda(tmp_path: Path):
    """The comparisons counted in their count's region, built for sm_80 (no GPU needed)."""
    from fusionopt.iree_tools import compile_vmfb, cuda_flags

    pipeline = "graph-to-dispatch-cuda"
    source = tmp_path / "best_anchors.mlir"
    source.write_text(print_module(apply_pipeline(print_module(import_onnx(best_anchors())), pipeline)))
    assert not stores_pairs(source.read_text())
    flags = [*cuda_flags("sm_80"), *iree_flags_of(pipeline)]
    assert compile_vmfb(source, tmp_path / "best_anchors.vmfb", flags).stat().st_size > 0
