"""`linalg-attention-key-blocks`: the transposed, padded and masked form computes what the op did
(interpreter, every input family, the -inf masks of `masked` included: padded keys get weight
0); the llvm-cpu pipeline takes a long attention (Whisper's encoder shape, 8 heads x 1500 tokens
x head dim 64) to it, and IREE builds that with the key-block tile and computes what a float64
run of the input does, on random and adversarial inputs.

The cases are the `// -----` functions of test/lit/transforms/linalg/linalg-attention-key-blocks.mlir.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.linalg.linalg_attention_key_blocks import padded_keys
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "linalg" / "linalg-attention-key-blocks.mlir"
PASS = "linalg-attention-key-blocks"
# `extreme` overflows Q.K, which IREE's exp2 form scales by log2 e first (the op's documented
# limit, dialects/iree_linalg_ext.py), in any layout.
FAMILIES_EXACT = tuple(f for f in FAMILIES if f != "extreme")


@pytest.mark.parametrize("name, pads", [("keys_outside_heads", 2), ("whole_blocks_masked", 0),
                                        ("row_stride_off_powers_of_two", 2)])
def test_rewrite_preserves_values(name, pads):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS, seeds=(0, 1))
    assert sum(op.name == "tensor.pad" for op in after.walk()) == pads


@pytest.mark.parametrize("keys, block, padded", [(40, 32, 64), (64, 32, 64), (128, 32, 128), (256, 32, 256),
                                                 (512, 32, 544), (1024, 32, 1056), (1500, 32, 1504),
                                                 (1536, 32, 1568), (1500, 16, 1504), (1024, 16, 1040)])
def test_padded_keys_keep_rows_off_powers_of_two(keys, block, padded):
    """Whole blocks; from 512 keys a row of K^T spans a number of 64-byte lines that shares at most
    a factor 2 with the L1's 64 sets (1024 keys: 29.3 ms padded to 1056 against 49.9 ms)."""
    assert padded_keys(keys, block) == padded


def whisper_attention(heads: int = 8, tokens: int = 1500, head_dim: int = 64) -> str:
    """The lit case `keys_outside_heads` at Whisper's encoder shape."""
    text = lit_functions(LIT)["keys_outside_heads"]
    for small, large in (("4x2x64", f"{tokens}x{heads}x{head_dim}"), ("40x2x64", f"{tokens}x{heads}x{head_dim}")):
        text = text.replace(small, large)
    return text


def test_cpu_pipeline_reads_long_attention_in_key_blocks():
    """72 MB of scores: past the raise's 16 MB; K^T and V padded to 1504 keys, 2 rows x 32 keys."""
    formed = print_module(apply_pipeline(whisper_attention(), "dispatch-creation-llvm-cpu"))
    assert "tensor<8x64x1504xf32>" in formed and "tensor<8x1504x64xf32>" in formed
    assert "vector_common_parallel = [1, 2, 0, 0, 64], vector_reduction = [0, 0, 32, 0, 0]" in formed


def test_short_attention_keeps_its_layout_in_the_cpu_pipeline():
    formed = print_module(apply_pipeline(whisper_attention(tokens=256), "dispatch-creation-llvm-cpu"))
    assert "tensor.pad" not in formed and "tensor<8x64x256xf32>" not in formed


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_whisper_attention_in_key_blocks_and_agrees_with_float64(tmp_path):
    text = whisper_attention()
    formed = print_module(apply_pipeline(text, "dispatch-creation-llvm-cpu"))
    assert "tensor<1504xf32>" in formed
    assert_iree_build_agrees_with_float64(text, formed, tmp_path, FAMILIES_EXACT, seed=4)
