"""`form-dispatch-regions{transposes-across-reshapes=false}` (the default): a copy region
transposes on one side of a reshape only. The lit cases compute the same numbers under both
settings (the numpy interpreter, random and adversarial input families); MaxViT's block-to-grid
window partition at its real size (a 56 x 56 x 64 image: two transposes between reshapes, then
the heads' transpose) goes through `graph-to-dispatch-cuda` and builds for CUDA sm_80, where the
one region it formed before ran out of shared memory in IREE 3.13; MobileViT's unfold of a
144 x 28 x 28 image into 2 x 2 patches goes through `graph-to-dispatch-llvm-cpu` and builds, where
the one region overflowed llvm-cpu's 32 KB stack (`two_transposes_across_unfold` in
bench/iree_limits_found.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import assert_pass_preserves_semantics
from support.iree_pairs import assert_cuda_rule_needed, cuda_pipeline_without
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-transposes-across-reshapes.mlir"
ONE_SIDE = "form-dispatch-regions"
BOTH_SIDES = "form-dispatch-regions{transposes-across-reshapes=true}"
REGIONS = {"two_transposes_across_a_reshape": (1, 2), "one_transpose_between_reshapes": (1, 1)}


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(REGIONS)


@pytest.mark.parametrize("name", sorted(REGIONS))
def test_lit_case_preserves_semantics_and_splits(name: str):
    counts = [sum(op.name == "flow.dispatch.region" for op in
                  assert_pass_preserves_semantics(lit_functions(LIT)[name], pipeline, seeds=(0, 1)).walk())
              for pipeline in (BOTH_SIDES, ONE_SIDE)]
    assert tuple(counts) == REGIONS[name]


def grid_partition(size: int = 56, channels: int = 64, window: int = 7) -> onnx.ModelProto:
    """torchvision MaxViT's window partitions as exported: [1, (blocks), 49, C] windows back to an
    image, regrouped into a grid's windows, then the heads' transpose; a Relu on each end keeps
    the chain between two computing ops."""
    cells = size // window
    shapes = {"s1": [1, cells, cells, window, window, channels], "s2": [1, size, size, channels],
              "s3": [1, window, cells, window, cells, channels], "s4": [1, window * window, cells * cells, channels]}
    inits = [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in shapes.items()]
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("Reshape", ["r", "s1"], ["a"]),
             helper.make_node("Transpose", ["a"], ["b"], perm=[0, 1, 3, 2, 4, 5]),
             helper.make_node("Reshape", ["b", "s2"], ["c"]),
             helper.make_node("Reshape", ["c", "s3"], ["d"]),
             helper.make_node("Transpose", ["d"], ["e"], perm=[0, 2, 4, 1, 3, 5]),
             helper.make_node("Reshape", ["e", "s4"], ["f"]),
             helper.make_node("Transpose", ["f"], ["g"], perm=[0, 2, 1, 3]),
             helper.make_node("Relu", ["g"], ["y"])]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, cells * cells, window * window, channels])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, cells * cells, window * window, channels])
    graph = helper.make_graph(nodes, "grid_partition", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def across_pipeline() -> str:
    """graph-to-dispatch-cuda as it was: copy regions transpose across reshapes."""
    return cuda_pipeline_without("transposes-across-reshapes=false", "transposes-across-reshapes=true")


def test_cuda_pipeline_computes_the_partition():
    assert_pass_preserves_semantics(print_module(import_onnx(grid_partition(14, 8))), "graph-to-dispatch-cuda", seeds=(0,))


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_cuda_pipeline_builds_where_one_region_does_not(tmp_path: Path):
    graph = print_module(import_onnx(grid_partition()))
    assert_cuda_rule_needed(graph, "graph-to-dispatch-cuda", across_pipeline(), tmp_path, "shared memory")
