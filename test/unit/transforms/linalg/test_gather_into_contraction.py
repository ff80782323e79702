"""`linalg-gather-into-contraction`: the lit case computes what it did (random and adversarial
inputs, ids over the whole range of the experts and negative ones, which wrap from the end,
against a float64 run); the llvm-cpu pipelines run the pass and the CUDA one does not (IREE's
CUDA codegen cannot distribute the form); an MoE layer of 24 experts, 2 a token, whose down
projection `graph-dense-experts` leaves gathered (24 times the multiply-adds), goes through
`graph-to-dispatch-llvm-cpu` with no gathered copy left, and IREE builds it and computes what a
float64 run of the graph does."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.registry import PIPELINES, iree_flags_of
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.lit_cases import LIT_TRANSFORMS, lit_functions
from support.moe_onnx_models import moe_layer

PASS = "linalg-gather-into-contraction"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-gather-into-contraction.mlir"
PIPELINE = "graph-to-dispatch-llvm-cpu"


def batch_matmuls(module) -> int:
    return sum(op.name == "linalg.batch_matmul" for op in module.walk())


@pytest.mark.parametrize("ids", [(0, 3), (-3, 3)])
def test_lit_case_computes_the_same(ids: tuple[int, int]):
    after = assert_pass_preserves_semantics(lit_functions(LIT)["gathered_matvecs"], PASS, int_range=ids)
    assert batch_matmuls(after) == 0


def test_the_cpu_pipelines_run_the_pass_and_cuda_does_not():
    for name in ("dispatch-creation-llvm-cpu", "dispatch-creation-llvm-cpu-fewest"):
        assert PASS in PIPELINES[name].spec.split(",")
    for name in ("dispatch-creation", "dispatch-creation-cuda"):
        assert PASS not in PIPELINES[name].spec.split(",")


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_moe_layer_with_many_experts_builds_and_agrees(tmp_path: Path):
    """On random, offset, constant and zero tokens (router ties on the last three: TopK's lower
    index first, as before the pass)."""
    graph = print_module(import_onnx(moe_layer(experts=24)))
    formed = apply_pipeline(graph, PIPELINE)
    gathered = [op for op in formed.walk() if op.name == "tensor.extract" and len(op.operands[0].type.get_shape()) == 3]
    assert len(gathered) == 1 and batch_matmuls(formed) == 0
    assert_iree_build_agrees_with_float64(graph, print_module(formed), tmp_path, ("random", "offset", "constant", "zeros"),
                                          flags=iree_flags_of(PIPELINE))
