"""The llvm-cpu pipelines raise attention only where its scores are large
(`linalg-raise-attention{min-scores-bytes}`, `pipelines_llvm_cpu.CPU_RAISE_MIN_SCORES_BYTES`): the lit case
`bert_like` at real lengths, decomposed at 8 heads x 512 x 512 (8 MB of scores), raised with its
CPU tile at 8 x 1024 x 1024 (32 MB) and at 16 heads x 512 x 512 (16 MB: the size counts, not the
key count); IREE builds the raised one and computes what a float64 run of the input does, on
random and adversarial inputs.
"""

from __future__ import annotations

import pytest

from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.long_attention import bert_like_at

PIPELINE = "dispatch-creation-llvm-cpu"
# `extreme` overflows Q.K, which IREE's exp2 form scales by log2 e first (the op's documented
# limit, dialects/iree_linalg_ext.py), raised or not in our pipeline.
FAMILIES_EXACT = tuple(f for f in FAMILIES if f != "extreme")


def configured_attentions(text: str) -> list[bool]:
    """Per attention op after the pipeline, whether it has a compilation_info."""
    return [("compilation_info" in op.attributes) for op in apply_pipeline(text, PIPELINE).walk()
            if op.name == "iree_linalg_ext.attention"]


@pytest.mark.parametrize("seq, heads, raised", [(512, 8, []), (1024, 8, [True]), (512, 16, [True])])
def test_cpu_pipeline_raises_large_scores_only(seq, heads, raised):
    assert configured_attentions(bert_like_at(seq, heads)) == raised


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_the_long_raised_attention_and_agrees_with_float64(tmp_path):
    """Raised, its V ([keys, heads, dim]) copied into [heads, keys, dim] rows
    (linalg-attention-value-rows), tiled for the CPU."""
    text = bert_like_at(1024, 8)
    formed = print_module(apply_pipeline(text, PIPELINE))
    assert "iree_linalg_ext.attention" in formed and "(d0, d1, d2, d3, d4) -> (d0, d2, d4)" in formed
    assert_iree_build_agrees_with_float64(text, formed, tmp_path, FAMILIES_EXACT, seed=6)
