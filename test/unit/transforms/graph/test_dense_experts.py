"""`graph-dense-experts`: the lit cases compute what they did (random and adversarial inputs, ids
at both ends of the experts' range, against a float64 run); graph-simplify runs the pass; an MoE
layer as transformers' batched_mm exports it (router logits, softmax, top-2 of 8 experts, each
token's row repeated for its experts and multiplied by their gathered up- and down-projections,
weighted and summed) goes through `graph-to-dispatch-llvm-cpu` with no gather of expert weights
left, and IREE builds it and computes what a float64 run of the graph does."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.registry import PIPELINES, iree_flags_of
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.moe_onnx_models import moe_layer
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "graph-dense-experts"
LIT = LIT_TRANSFORMS / "graph" / "graph-dense-experts.mlir"
# case -> gathers of constant [E, a, b] tables left after the pass
GATHERED_TABLES = {"gathered_weights_times_rows": 0, "rows_times_gathered_weights": 0, "repeated_rows": 0,
                   "left_gathered": 4, "many_experts_repeated_rows": 0, "many_experts_left_gathered": 2}
# case -> the experts' range the ids are drawn from where it is not [0, 2)
ID_RANGES = {"many_experts_repeated_rows": (0, 24), "many_experts_left_gathered": (0, 24)}
PIPELINE = "graph-to-dispatch-llvm-cpu"


def gathered_tables(module) -> int:
    return sum(op.name == "graph.gather" and len(op.operands[0].type.get_shape()) == 3 for op in module.walk())


@pytest.mark.parametrize("name", sorted(GATHERED_TABLES))
def test_lit_cases_compute_the_same(name: str):
    """Ids are drawn in [0, 2), the two experts' range (the `ids-edge` family alternates 0 and 1),
    the decode-step case's first ids in [0, 2) of its 4 experts; the many-expert cases' in
    [0, 24) (both ends in `ids-edge`)."""
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS, int_range=ID_RANGES.get(name, (0, 2)))
    assert gathered_tables(after) == GATHERED_TABLES[name]


def test_graph_simplify_runs_the_pass():
    assert PASS in PIPELINES["graph-simplify"].spec.split(",")


def test_the_pipeline_gathers_no_expert_weights():
    graph = print_module(import_onnx(moe_layer()))
    simplified = apply_pipeline(graph, "graph-simplify")
    assert gathered_tables(apply_pipeline(graph, "cse")) == 2
    assert gathered_tables(simplified) == 0


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_moe_layer_builds_and_agrees(tmp_path: Path):
    """On random, offset, constant and zero tokens (ties in the router's top-2 on the last
    three: TopK's lower index first, as before the pass)."""
    graph = print_module(import_onnx(moe_layer()))
    formed = print_module(apply_pipeline(graph, PIPELINE))
    assert_iree_build_agrees_with_float64(graph, formed, tmp_path, ("random", "offset", "constant", "zeros"),
                                          flags=iree_flags_of(PIPELINE))
