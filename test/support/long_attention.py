"""The lit case `bert_like` of test/lit/transforms/linalg/linalg-raise-attention.mlir (decomposed
attention: 4 tokens, 2 heads, head dim 8, V read as [keys, heads, dim]) at real lengths."""

from __future__ import annotations

from pathlib import Path

from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[1] / "lit" / "transforms" / "linalg" / "linalg-raise-attention.mlir"


def bert_like_at(seq: int, heads: int) -> str:
    """`bert_like` with `seq` tokens and `heads` heads."""
    text = lit_functions(LIT)["bert_like"]
    for small, large in (("2x4x4", f"{heads}x{seq}x{seq}"), ("2x4x8", f"{heads}x{seq}x8"), ("4x2x8", f"{seq}x{heads}x8"),
                         ("2x4xf32", f"{heads}x{seq}xf32"), ("2x4xi64", f"{heads}x{seq}xi64"), ("<4xf32>", f"<{seq}xf32>")):
        text = text.replace(small, large)
    return text
