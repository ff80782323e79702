"""`iree_linalg_ext.attention` in numpy, with IREE 3.13's numerics (vectorised, einsum).

IREE's decomposition (`AttentionOp::decomposeOperation`, exp2 form), reproduced step by step in
the op's float type (float64 under `compute_float64`; f32 for f16 and bf16 operands, P rounded to
V's type before P . V, as IREE's online-attention decomposition does):

    S = (Q * (scale * log2 e)) . K^T          (sum over k1)
    S = S + mask * log2 e                      (float mask; i1 mask: + 0 / -inf)
    P = exp2(S - max_k2 S) / sum_k2 exp2(...)  (max starts at the type's lowest finite value)
    out = P . V                                (sum over k2; the output's init is ignored)

Consequences that match IREE's runtime (measured, llvm-cpu): a row whose every score is -inf is
NaN (0 / 0); a float mask below -FLT_MAX / log2 e overflows to -inf in f32, so a row masked
only by -FLT_MAX is NaN too. Only the identity score region is supported.
"""

from __future__ import annotations

import string
from typing import Any

import numpy as np
from xdsl.interpreter import InterpreterFunctions
from xdsl.ir import Operation

from fusionopt.dialects.iree_linalg_ext import AttentionOp, YieldOp
from fusionopt.interpreter.common import functions_from_table
from fusionopt.interpreter.values import UnsupportedValue, element_dtype, float_info

_LOG2E = 1.4426950408889634


def _letters(m) -> str:
    return "".join(string.ascii_letters[e.position] for e in m.results)


def attention_numpy(op: AttentionOp, q: Any, k: Any, v: Any, scale: Any, mask: Any | None) -> np.ndarray:
    block = op.region.block
    if not (isinstance(block.first_op, YieldOp) and block.first_op.values[0] is block.args[0]):
        raise UnsupportedValue("iree_linalg_ext.attention: only the identity score region is supported")
    out_dtype = element_dtype(op.result.type)
    # f16 / bf16 operands: scores, max, sum and P . V's accumulator in f32, P rounded to V's
    # type before P . V (IREE's online-attention decomposition); the result rounded at the end.
    dtype = out_dtype if out_dtype.itemsize >= 4 else np.dtype(np.float32)
    v_dtype = element_dtype(op.value.type)
    maps = op.operand_maps()
    classes = op.dim_classes()
    q, k, v = (np.asarray(x, dtype=dtype) for x in (q, k, v))
    sq, sk, sv, so = (_letters(maps[r]) for r in ("query", "key", "value", "output"))
    # The score tensor S: batch, m and k2 dims, in iteration order.
    s_dims = "".join(string.ascii_letters[d] for d in sorted(classes) if classes[d] in ("batch", "m", "k2"))
    k2 = [string.ascii_letters[d] for d in sorted(classes) if classes[d] == "k2"]
    scale_eff = dtype.type(dtype.type(scale) * dtype.type(_LOG2E))
    with np.errstate(all="ignore"):
        s = np.einsum(f"{sq},{sk}->{s_dims}", q * scale_eff, k).astype(dtype)
        if mask is not None:
            sm = _letters(maps["mask"])
            if any(c not in s_dims for c in sm):
                raise UnsupportedValue("iree_linalg_ext.attention: a mask indexing k1 or n dims is not supported")
            mask = np.asarray(mask)
            if mask.dtype == np.bool_:
                add = np.where(mask, dtype.type(0), dtype.type(-np.inf)).astype(dtype)
            else:
                add = (mask.astype(dtype) * dtype.type(_LOG2E)).astype(dtype)
            # Broadcast the mask onto S's dims.
            order = [sm.index(c) for c in s_dims if c in sm]
            add = np.transpose(add, order)
            shape = [add.shape[[c for c in s_dims if c in sm].index(c)] if c in sm else 1 for c in s_dims]
            s = (s + add.reshape(shape)).astype(dtype)
        axes = tuple(s_dims.index(c) for c in k2)
        lowest = float_info(dtype).min
        mx = np.maximum(np.max(s, axis=axes, keepdims=True), dtype.type(lowest))
        mx = np.where(np.isnan(np.max(s, axis=axes, keepdims=True)), np.nan, mx).astype(dtype)
        p = np.exp2(s - mx).astype(dtype)
        p = (p / np.sum(p, axis=axes, keepdims=True, dtype=dtype)).astype(dtype)
        if np.dtype(v_dtype).itemsize < dtype.itemsize:
            p = p.astype(v_dtype).astype(dtype)
        out = np.einsum(f"{s_dims},{sv}->{so}", p, v).astype(out_dtype)
    return out


def _attention(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    assert isinstance(op, AttentionOp)
    if op.mask is not None:
        q, k, v, scale, mask, _init = args
    else:
        q, k, v, scale, _init = args
        mask = None
    return (attention_numpy(op, q, k, v, scale, mask),)


IreeLinalgExtFunctions: type[InterpreterFunctions] = functions_from_table("IreeLinalgExtFunctions", {AttentionOp: _attention})

__all__ = ["IreeLinalgExtFunctions", "attention_numpy"]
