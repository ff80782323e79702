"""The f16 and bf16 Llama blocks (`test/support/block_onnx_models.py`: prefill at seq 64 with its
causal mask at the type's lowest value, and the KV-cache decode step; inline weights) formed by
each ONNX pipeline compute what the imported program computes, on every float input family.

Judged by the interpreter as every rewrite is (`fusionopt.testing.ReferenceRuns`): against the
float64 run of the imported program, within four roundings of the block's type of the largest
output (f16: 4 * 2^-11; bf16, 8 significant bits: 4 * 2^-8), or no worse than 4x the imported
program's own error (the `extreme` family overflows f16 in the imported program itself). The
imported bf16 programs are themselves 3.0e-3 - 1.2e-2 of the largest output from float64 on
random, offset and constant inputs (constant: the decode step's 1.2e-2 is the largest), so one
rounding (3.9e-3) is too tight and four leaves room for the raised attention's other rounding
order. onnxruntime cannot be the judge in bf16 (its CPU provider has no bf16 Mul); the float64
run is.

The pipelines that raise the attention to `iree_linalg_ext.attention` (`-fewest`, `-cuda`)
compute scores and softmax in f32 where the imported program rounded the scores to f16 / bf16
(transformers' MatMul before its f32 softmax): families `offset` (1000.5 + noise: the decomposed
form's rounded scores lose whole units), `constant` (every row of scores constant: a uniform
softmax), `zeros`, `mask` (zeros, NaN and infinities among the activations) and `extreme` take
that difference to its edges. `graph-to-dispatch-llvm-cpu` keeps the decomposed form (measured
faster on CPU) and is judged alike. IREE's runs of the same blocks are
`test_block_models_build.py`'s.
"""

from __future__ import annotations

import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.testing import ReferenceRuns, apply_pipeline
from support.block_onnx_models import build

F16_REL_TOL = 4 * 2.0**-11
BF16_REL_TOL = 4 * 2.0**-8
FAMILIES = ("random", "constant", "offset", "zeros", "mask", "extreme")
# pipeline -> attentions it raises in each f16 / bf16 Llama block (as in their f32 twins)
RAISED = {"graph-to-dispatch-llvm-cpu": 0, "graph-to-dispatch-llvm-cpu-fewest": 1, "graph-to-dispatch-cuda": 1}
# block -> its tolerance
BLOCKS = {"llama_f16": F16_REL_TOL, "llama_decode_f16": F16_REL_TOL,
          "llama_bf16": BF16_REL_TOL, "llama_decode_bf16": BF16_REL_TOL}


@pytest.fixture(scope="module")
def reference_runs():
    cache: dict[str, ReferenceRuns] = {}

    def get(block: str) -> ReferenceRuns:
        if block not in cache:
            cache[block] = ReferenceRuns(import_onnx(build(block, False)), seeds=(0,), families=FAMILIES)
        return cache[block]

    return get


@pytest.mark.parametrize("pipeline", list(RAISED))
@pytest.mark.parametrize("block", list(BLOCKS))
def test_formed_low_precision_llama_computes_the_imported_program(block: str, pipeline: str, reference_runs):
    formed = apply_pipeline(import_onnx(build(block, False)), pipeline)
    assert sum(op.name == "iree_linalg_ext.attention" for op in formed.walk()) == RAISED[pipeline]
    reference_runs(block).check(formed, f"{pipeline} on {block}", BLOCKS[block])


# (block, factor on the attention scale) the judge must reject; in bf16 it passes a 1.05x scale
# (the output is mostly the residual stream), rejects 1.1x on the decode step and 1.25x on both
@pytest.mark.parametrize(("block", "factor"), [("llama_decode_f16", 2.0), ("llama_decode_bf16", 1.25),
                                               ("llama_bf16", 1.25)])
def test_judge_rejects_a_wrong_attention_scale(block: str, factor: float, reference_runs):
    """Negative control: the raised block with its attention scale off by `factor` fails."""
    from xdsl.dialects.builtin import FloatAttr

    formed = apply_pipeline(import_onnx(build(block, False)), "graph-to-dispatch-cuda")
    (attention,) = [op for op in formed.walk() if op.name == "iree_linalg_ext.attention"]
    scale = attention.operands[3].owner
    value = scale.properties["value"]
    scale.properties["value"] = FloatAttr(factor * value.value.data, value.type)
    with pytest.raises(AssertionError, match="changed the results"):
        reference_runs(block).check(formed, f"scale x{factor}", BLOCKS[block])
