"""The f16 Llama blocks (`test/support/block_onnx_models.py`: prefill at seq 64 with its causal
mask at f16's lowest value, and the KV-cache decode step; inline weights) formed by each ONNX
pipeline compute what the imported program computes, on every float input family.

Judged by the interpreter as every rewrite is (`fusionopt.testing.ReferenceRuns`): against the
float64 run of the imported program, within four f16 roundings of the largest output, or no
worse than 4x the imported f16 program's own error (the `extreme` family overflows f16 in
the imported program itself). The pipelines that raise the attention to
`iree_linalg_ext.attention` (`-fewest`, `-cuda`) compute scores and softmax in f32 where the
imported program rounded the scores to f16 (transformers' f16 MatMul before its f32 softmax):
families `offset` (1000.5 + noise: the decomposed form's f16 scores lose whole units), `constant`
(every row of scores constant: a uniform softmax), `zeros`, `mask` (zeros, NaN and infinities
among the activations) and `extreme` take that difference to its edges. `graph-to-dispatch-llvm-cpu`
keeps the decomposed form (measured faster on CPU) and is judged alike. IREE's runs of the same
blocks are `test_block_models_build.py`'s.
"""

from __future__ import annotations

import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.testing import ReferenceRuns, apply_pipeline
from support.block_onnx_models import build

F16_REL_TOL = 4 * 2.0**-11
FAMILIES = ("random", "constant", "offset", "zeros", "mask", "extreme")
# pipeline -> attentions it raises in each f16 Llama block (as in their f32 twins)
RAISED = {"graph-to-dispatch-llvm-cpu": 0, "graph-to-dispatch-llvm-cpu-fewest": 1, "graph-to-dispatch-cuda": 1}
BLOCKS = ("llama_f16", "llama_decode_f16")


@pytest.fixture(scope="module")
def reference_runs():
    cache: dict[str, ReferenceRuns] = {}

    def get(block: str) -> ReferenceRuns:
        if block not in cache:
            cache[block] = ReferenceRuns(import_onnx(build(block, False)), seeds=(0,), families=FAMILIES)
        return cache[block]

    return get


@pytest.mark.parametrize("pipeline", list(RAISED))
@pytest.mark.parametrize("block", BLOCKS)
def test_formed_f16_llama_computes_the_imported_program(block: str, pipeline: str, reference_runs):
    formed = apply_pipeline(import_onnx(build(block, False)), pipeline)
    assert sum(op.name == "iree_linalg_ext.attention" for op in formed.walk()) == RAISED[pipeline]
    reference_runs(block).check(formed, f"{pipeline} on {block}", F16_REL_TOL)


def test_judge_rejects_a_wrong_f16_attention_scale(reference_runs):
    """Negative control: the raised decode step with its attention scale doubled fails."""
    from xdsl.dialects.builtin import FloatAttr

    formed = apply_pipeline(import_onnx(build("llama_decode_f16", False)), "graph-to-dispatch-cuda")
    (attention,) = [op for op in formed.walk() if op.name == "iree_linalg_ext.attention"]
    scale = attention.operands[3].owner
    value = scale.properties["value"]
    scale.properties["value"] = FloatAttr(2.0 * value.value.data, value.type)
    with pytest.raises(AssertionError, match="changed the results"):
        reference_runs("llama_decode_f16").check(formed, "doubled scale", F16_REL_TOL)
