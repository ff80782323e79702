"""`form-dispatch-regions`: a root's group takes no consumer that walks a value behind a reshape
other than one to one (`iree_rules.reshape_then_reorders`). The lit cases compute the same numbers
after the pass (the numpy interpreter, every input family) and split where they should; RT-DETR's
deformable-attention sum (8 heads x 32 dims x 300 queries x 12 samples, summed, viewed as
[1, 256, 300] and transposed) goes through `graph-to-dispatch-llvm-cpu` and IREE builds it and
computes what a float64 run of the graph does; before the rule its region failed to build
(`reduction_unit_expand_then_transposed_write` in bench/iree_limits_reshaped.py pins that form).
Mask2Former's forms (an elementwise value merged by a reshape and read at a constant index; an
i1 value stored and widened in one region) split as their lit cases say; the whole model builds
on every CPU pipeline (bench/RESULTS.md, "a tenth sweep")."""

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
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.lit_cases import LIT_TRANSFORMS, formed_regions, lit_functions

LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-reshaped-epilogues.mlir"
REGIONS = {"unit_expand_then_transposed_write": 2, "unit_expand_epilogue_then_transposed_write": 2,
           "unit_expand_then_copy": 1, "transposed_write_of_the_sum": 1, "merged_then_unit_dim_dropped": 2,
           "merged_then_unit_dim_kept": 1, "i1_stored_and_widened": 3, "i1_widened_only": 1}
PIPELINE = "graph-to-dispatch-llvm-cpu"


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(REGIONS)


@pytest.mark.parametrize("name", sorted(REGIONS))
def test_lit_case_preserves_semantics_and_splits(name: str):
    assert formed_regions(LIT, name, "form-dispatch-regions") == REGIONS[name]


def deformable_sum(heads: int = 8, dim: int = 32, queries: int = 300, samples: int = 12) -> onnx.ModelProto:
    """transformers' `multi_scale_deformable_attention` after its grid samples: the sampled
    values times their attention weights, summed over the samples, viewed as [1, heads * dim,
    queries] and transposed to [1, queries, heads * dim]."""
    shape = numpy_helper.from_array(np.array([1, heads * dim, queries], np.int64), "shape")
    axes = numpy_helper.from_array(np.array([-1], np.int64), "axes")
    nodes = [helper.make_node("Mul", ["v", "w"], ["p"]),
             helper.make_node("ReduceSum", ["p", "axes"], ["s"], keepdims=0),
             helper.make_node("Reshape", ["s", "shape"], ["r"]),
             helper.make_node("Transpose", ["r"], ["y"], perm=[0, 2, 1])]
    v = helper.make_tensor_value_info("v", TensorProto.FLOAT, [heads, dim, queries, samples])
    w = helper.make_tensor_value_info("w", TensorProto.FLOAT, [heads, 1, queries, samples])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, queries, heads * dim])
    graph = helper.make_graph(nodes, "deformable_sum", [v, w], [y], [shape, axes])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_deformable_attention_sum_builds_and_agrees(tmp_path: Path):
    graph = print_module(import_onnx(deformable_sum()))
    formed = print_module(apply_pipeline(graph, PIPELINE))
    assert_iree_build_agrees_with_float64(graph, formed, tmp_path, ("random", "offset", "constant", "zeros"),
                                          flags=iree_flags_of(PIPELINE))
