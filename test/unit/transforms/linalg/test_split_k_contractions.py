"""`linalg-split-k-contractions`: the partial sums and their sum compute what the contraction
computes (random and adversarial inputs, float64 reference), alone, over drawn shapes and in
the `dispatch-creation-cuda` pipeline; on the corpus transformers the pipeline's output equals
the input program's numbers, and IREE builds it for CUDA.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fusionopt.corpus import CORPUS_MISSING, model_file
from fusionopt.ir_io import parse_file, print_module
from fusionopt.iree_tools import compile_vmfb, cuda_flags, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics

LIT = Path(__file__).parents[3] / "lit"
LIT_CASES = LIT / "transforms" / "linalg" / "linalg-split-k-contractions.mlir"
PIPELINE_CASE = LIT / "pipelines" / "dispatch-creation-cuda.mlir"
PASS = "linalg-split-k-contractions"


def lit_case(label: str) -> str:
    (case,) = [c for c in LIT_CASES.read_text().split("// -----") if f"@{label}(" in c]
    return case


@pytest.mark.parametrize("pipeline", [PASS, "dispatch-creation-cuda"])
@pytest.mark.parametrize("label", ["projection", "accumulate_into_argument"])
def test_split_preserves_semantics(label: str, pipeline: str) -> None:
    after = assert_pass_preserves_semantics(lit_case(label), pipeline)
    assert "reduction" in print_module(after)


def test_split_parts_are_counted() -> None:
    after = apply_pipeline(parse_file(PIPELINE_CASE), "dispatch-creation-cuda")
    shapes = [op.results[0].type.get_shape() for op in after.walk() if op.name == "flow.dispatch.region"]
    assert (4, 1, 64, 128) in shapes, "the projection's K = 128 was not split into 4 parts"


def matmul(m: int, n: int, k: int) -> str:
    return f"""func.func @mm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>, %c: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  func.return %r : tensor<{m}x{n}xf32>
}}"""


@settings(max_examples=12, deadline=None)
@given(m=st.integers(2, 6), n=st.integers(2, 6), k=st.integers(2, 40), chunk=st.integers(1, 8))
def test_drawn_matmuls_split_exactly_when_expected(m: int, n: int, k: int, chunk: int) -> None:
    pipeline = f"{PASS}{{chunk={chunk}}}"
    after = assert_pass_preserves_semantics(matmul(m, n, k), pipeline, seeds=(0,))
    parts = next((s for s in range(k // chunk, 1, -1) if k % s == 0), None)
    assert ("linalg.matmul" not in print_module(after)) == (parts is not None)


@pytest.mark.parametrize("model", ["gpt2_mini", "bert_mini"])
def test_cuda_pipeline_on_corpus_transformers(model: str) -> None:
    source = model_file(model, "args.linalg.mlir")
    if not source.is_file():
        pytest.skip(CORPUS_MISSING)
    assert_pass_preserves_semantics(source.read_text(), "dispatch-creation-cuda", seeds=(0,),
                                    families=("random", "constant", "offset", "ids-edge"),
                                    int_range=(0, 1024), int_ranges=[(0, 1024), (0, 2)])


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree-benchmark-module / iree.runtime absent")
def test_iree_builds_the_cuda_pipeline_output(tmp_path: Path) -> None:
    """CUDA modules build without a GPU: the split contractions and their sums are regions
    IREE's CUDA backend compiles as given."""
    out = tmp_path / "cuda.mlir"
    out.write_text(print_module(apply_pipeline(parse_file(PIPELINE_CASE), "dispatch-creation-cuda")))
    vmfb = compile_vmfb(out, tmp_path / "cuda.vmfb", cuda_flags())
    assert vmfb.stat().st_size > 0
