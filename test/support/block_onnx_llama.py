"""The Llama blocks of block_onnx_models.py (`llama`, `llama_decode`, in f32, f16 or bf16):
RMSNorm, RoPE (rotate-half), grouped-query attention, causal mask, SwiGLU MLP; the decode step
with past keys and values as inputs."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/: run as a script too
from support.block_onnx_builder import BlockBuilder  # noqa: E402
from fusionopt.interpreter.values import float_info  # np.finfo, bf16 included


def _rms_norm(b: BlockBuilder, x: str, dim: int) -> str:
    """LlamaRMSNorm: below f32 the statistics and the scaling in f32, rounded back before the
    weight (transformers' `hidden_states.to(torch.float32)` ... `.to(input_dtype)`)."""
    wide = x if b.dtype == np.float32 else b.cast(x, np.float32)
    var = b.node("ReduceMean", [b.node("Pow", [wide, b.scalar(2.0, np.float32)]), b.const([-1])], keepdims=1)
    inv = b.node("Reciprocal", [b.node("Sqrt", [b.node("Add", [var, b.scalar(1e-6, np.float32)])])])
    y = b.node("Mul", [wide, inv])
    y = y if b.dtype == np.float32 else b.cast(y, b.dtype)
    return b.node("Mul", [b.weight((dim,), 0.1, 1.0), y])


def _rope(b: BlockBuilder, x: str, cos: str, sin: str, dh: int) -> str:
    half = dh // 2
    rotated = b.node("Concat", [b.node("Neg", [b.slice(x, 3, half, dh)]), b.slice(x, 3, 0, half)], axis=-1)
    return b.node("Add", [b.node("Mul", [x, cos]), b.node("Mul", [rotated, sin])])


def _rope_tables(seq: int, dh: int) -> tuple[np.ndarray, np.ndarray]:
    inv = 1.0 / (10000.0 ** (np.arange(0, dh, 2) / dh))
    angles = np.outer(np.arange(seq), inv)
    angles = np.concatenate([angles, angles], axis=-1)[None, None]
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def _heads(b: BlockBuilder, x: str, seq: int, heads: int, dh: int) -> str:
    return b.transpose(b.reshape(x, (1, seq, heads, dh)), (0, 2, 1, 3))


def _repeat_kv(b: BlockBuilder, x: str, seq: int, kv: int, groups: int, dh: int) -> str:
    y = b.node("Expand", [b.node("Unsqueeze", [x, b.const([2])]), b.const([1, kv, groups, seq, dh])])
    return b.reshape(y, (1, kv * groups, seq, dh))


def llama(args: bool, seq: int = 64, hidden: int = 256, heads: int = 8, kv_heads: int = 2,
          ffn: int = 688, dtype: str = "f32", nan_guard: bool = False) -> onnx.ModelProto:
    """`nan_guard`: the attention's probabilities NaN-guarded as torch exports them."""
    b = BlockBuilder(18, dtype)
    dh = hidden // heads
    x = b.input("x", (1, seq, hidden))
    h = _rms_norm(b, x, hidden)
    cos_t, sin_t = _rope_tables(seq, dh)
    cos, sin = b.const(cos_t, b.dtype), b.const(sin_t, b.dtype)
    q = _rope(b, _heads(b, b.linear(h, hidden, hidden, False), seq, heads, dh), cos, sin, dh)
    k = _rope(b, _heads(b, b.linear(h, hidden, kv_heads * dh, False), seq, kv_heads, dh), cos, sin, dh)
    v = _heads(b, b.linear(h, hidden, kv_heads * dh, False), seq, kv_heads, dh)
    k, v = (_repeat_kv(b, t, seq, kv_heads, heads // kv_heads, dh) for t in (k, v))
    causal = np.triu(np.full((seq, seq), float_info(b.dtype).min, b.dtype), 1)[None, None]
    y = b.transpose(b.attention(q, k, v, dh, b.const(causal, b.dtype), nan_guard), (0, 2, 1, 3))
    y = b.node("Add", [x, b.linear(b.reshape(y, (1, seq, hidden)), hidden, hidden, False)])
    h = _rms_norm(b, y, hidden)
    gated = b.node("Mul", [b.silu(b.linear(h, hidden, ffn, False)), b.linear(h, hidden, ffn, False)])
    y = b.node("Add", [y, b.linear(gated, ffn, hidden, False)])
    return b.block_model(y, (1, seq, hidden), args)


def llama_decode(args: bool, past: int = 63, hidden: int = 256, heads: int = 8, kv_heads: int = 2,
                 ffn: int = 688, dtype: str = "f32") -> onnx.ModelProto:
    """The KV-cache decode step of `llama`'s block: one token at position `past`, the past keys
    and values as inputs, the new ones appended (a concat along the sequence), no mask."""
    b = BlockBuilder(19, dtype)
    dh = hidden // heads
    x = b.input("x", (1, 1, hidden))
    past_k, past_v = (b.input(name, (1, kv_heads, past, dh)) for name in ("past_k", "past_v"))
    h = _rms_norm(b, x, hidden)
    cos_t, sin_t = (t[:, :, past:] for t in _rope_tables(past + 1, dh))
    cos, sin = b.const(cos_t, b.dtype), b.const(sin_t, b.dtype)
    q = _rope(b, _heads(b, b.linear(h, hidden, hidden, False), 1, heads, dh), cos, sin, dh)
    k = _rope(b, _heads(b, b.linear(h, hidden, kv_heads * dh, False), 1, kv_heads, dh), cos, sin, dh)
    v = _heads(b, b.linear(h, hidden, kv_heads * dh, False), 1, kv_heads, dh)
    k, v = (b.node("Concat", [cache, new], axis=2) for cache, new in ((past_k, k), (past_v, v)))
    k, v = (_repeat_kv(b, t, past + 1, kv_heads, heads // kv_heads, dh) for t in (k, v))
    y = b.transpose(b.attention(q, k, v, dh), (0, 2, 1, 3))
    y = b.node("Add", [x, b.linear(b.reshape(y, (1, 1, hidden)), hidden, hidden, False)])
    h = _rms_norm(b, y, hidden)
    gated = b.node("Mul", [b.silu(b.linear(h, hidden, ffn, False)), b.linear(h, hidden, ffn, False)])
    y = b.node("Add", [y, b.linear(gated, ffn, hidden, False)])
    return b.block_model(y, (1, 1, hidden), args)
