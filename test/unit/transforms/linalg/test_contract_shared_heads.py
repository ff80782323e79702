"""`linalg-contract-shared-heads`: the rewrite computes what the input program does (interpreter,
every input family), IREE builds it and agrees with a float64 run of the input on random and
adversarial inputs, and the llvm-cpu pipeline reads the Llama decode step's shared K/V heads
(no repeat of the cache left, two dispatches fewer, onnxruntime's values).

The cases are the `// -----` functions of test/lit/transforms/linalg/linalg-contract-shared-heads.mlir.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, run_module
from support.block_onnx_models import build
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "linalg" / "linalg-contract-shared-heads.mlir"
PASS = "linalg-contract-shared-heads"
REWRITTEN = ("decode_scores", "probs_times_scaled_values", "f16_decode_scores")
# `extreme` draws values near FLT_MAX: an f32 contraction of them overflows (to signs that depend
# on the summation order) where the float64 run does not, with or without the rewrite.
FAMILIES_FINITE = tuple(f for f in FAMILIES if f != "extreme")


@pytest.mark.parametrize("name", [*REWRITTEN, "group_dependent_copy", "repeat_also_returned"])
def test_preserves_semantics(name):
    after = print_module(assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS, seeds=(0,)))
    assert ("linalg.batch_matmul" not in after) == (name in REWRITTEN)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("name", REWRITTEN)
def test_iree_builds_and_agrees_with_float64(name, tmp_path):
    text = lit_functions(LIT)[name]
    assert_iree_build_agrees_with_float64(text, print_module(apply_pipeline(text, PASS)), tmp_path, FAMILIES_FINITE, seed=7)


def test_llama_decode_step_reads_shared_heads():
    """The decode step at a past of 63 tokens: the two repeats of the cache (K and V, each [1, 2,
    4, 64, 32]) are gone from the formed program, and it computes what onnxruntime does."""
    ort = pytest.importorskip("onnxruntime")
    model = build("llama_decode", args=False)
    formed = apply_pipeline(print_module(import_onnx(model)), "graph-to-dispatch-llvm-cpu")
    text = print_module(formed)
    assert "1x2x4x64x32" not in text
    assert text.count("flow.dispatch.region") == 14
    rng = np.random.default_rng(0)
    feeds = {i.name: rng.standard_normal([d.dim_value for d in i.type.tensor_type.shape.dim]).astype(np.float32)
             for i in model.graph.input}
    expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    (got,) = run_module(formed, list(feeds.values()))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
