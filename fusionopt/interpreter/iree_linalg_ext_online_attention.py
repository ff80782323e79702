"""`iree_linalg_ext.online_attention` in numpy, step by step as IREE 3.13 decomposes it
(semantics: dialects/iree_linalg_ext_online_attention.py), vectorised with einsum.

Types follow the decomposition: Q is scaled in its own type, S and the softmax statistics are
computed in the accumulator's type (the output's element type), P is rounded to V's type before
P . V. Queries of 8 bits or fewer (IREE scales S after the matmul and adds an fp8 range offset
there) and score regions other than the identity are reported unsupported, not guessed.
"""

from __future__ import annotations

import string
from typing import Any

import numpy as np
from xdsl.ir import Operation

from fusionopt.dialects.iree_linalg_ext import YieldOp
from fusionopt.dialects.iree_linalg_ext_online_attention import OnlineAttentionOp
from fusionopt.interpreter.common import functions_from_table
from fusionopt.interpreter.values import UnsupportedValue, element_dtype

_LOG2E = 1.4426950408889634


def _letters(m) -> str:
    return "".join(string.ascii_letters[e.position] for e in m.results)


def _check_supported(op: OnlineAttentionOp) -> None:
    block = op.region.block
    if not (isinstance(block.first_op, YieldOp) and block.first_op.values[0] is block.args[0]):
        raise UnsupportedValue("iree_linalg_ext.online_attention: only the identity score region is supported")
    if getattr(op.query.type.element_type, "bitwidth", 32) <= 8:
        raise UnsupportedValue("iree_linalg_ext.online_attention: queries of 8 bits or fewer are not supported")


def _scores(op: OnlineAttentionOp, q: Any, k: Any, scale: Any, mask: Any | None, s_dims: str) -> np.ndarray:
    """S = (Q * scale') . K^T (+ mask), in the accumulator's type."""
    maps, exp2 = op.operand_maps(), op.uses_exp2()
    acc_t, q_t, sc_t = (element_dtype(getattr(op, r).type) for r in ("output", "query", "scale"))
    factor = sc_t.type(scale) * sc_t.type(_LOG2E) if exp2 else sc_t.type(scale)  # in the scale's type
    q = (np.asarray(q, dtype=q_t) * q_t.type(factor)).astype(q_t)
    s = np.einsum(f"{_letters(maps['query'])},{_letters(maps['key'])}->{s_dims}", q.astype(acc_t), np.asarray(k).astype(acc_t))
    s = s.astype(acc_t)
    if mask is None:
        return s
    if any(c not in s_dims for c in _letters(maps["mask"])):
        raise UnsupportedValue("iree_linalg_ext.online_attention: a mask indexing k1 or n dims is not supported")
    mask = np.asarray(mask)
    if mask.dtype == np.bool_ or np.issubdtype(mask.dtype, np.integer):
        add = np.where(mask.astype(bool), acc_t.type(0), acc_t.type(-np.inf)).astype(acc_t)
    else:
        add = mask.astype(acc_t) * acc_t.type(_LOG2E) if exp2 else mask.astype(acc_t)
    return (s + _onto(add, _letters(maps["mask"]), s_dims)).astype(acc_t)


def _onto(values: np.ndarray, dims: str, target: str) -> np.ndarray:
    """`values` indexed by `dims` (all of them in `target`), broadcast onto `target`'s dims."""
    return np.einsum(f"{dims}->{''.join(c for c in target if c in dims)}", values).reshape(
        [values.shape[dims.index(c)] if c in dims else 1 for c in target]
    )


def online_attention_numpy(op: OnlineAttentionOp, args: tuple[Any, ...]) -> tuple[np.ndarray, ...]:
    _check_supported(op)
    q, k, v, scale, *rest = args
    mask = rest[0] if op.mask is not None else None
    acc, old_max, old_sum = (np.asarray(a) for a in rest[-3:])
    maps, classes = op.operand_maps(), op.dim_classes()
    s_dims = "".join(string.ascii_letters[d] for d in sorted(classes) if classes[d] in ("batch", "m", "k2"))
    acc_t, v_t = element_dtype(op.output.type), element_dtype(op.value.type)
    exp = np.exp2 if op.uses_exp2() else np.exp
    row, out = _letters(maps["max"]), _letters(maps["output"])
    with np.errstate(all="ignore"):
        s = _scores(op, q, k, scale, mask, s_dims)
        k2_axes = tuple(i for i, c in enumerate(s_dims) if c not in row)
        row_max = np.einsum(f"{''.join(c for c in s_dims if c in row)}->{row}", np.max(s, axis=k2_axes))
        new_max = np.maximum(old_max.astype(acc_t), row_max).astype(acc_t)
        norm = exp(old_max.astype(acc_t) - new_max).astype(acc_t)
        p = exp(s - _onto(new_max, row, s_dims)).astype(acc_t)
        row_sum = np.einsum(f"{s_dims}->{_letters(maps['sum'])}", p).astype(acc_t)
        new_sum = (old_sum.astype(acc_t) * _onto(norm, row, _letters(maps["sum"])) + row_sum).astype(acc_t)
        if np.issubdtype(v_t, np.floating):
            p = p.astype(v_t).astype(acc_t)  # IREE rounds P to V's type before P . V
        pv = np.einsum(f"{s_dims},{_letters(maps['value'])}->{out}", p, np.asarray(v).astype(acc_t))
        new_acc = (acc.astype(acc_t) * _onto(norm, row, out) + pv).astype(acc_t)
    return new_acc, new_max, new_sum


def _online_attention(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    assert isinstance(op, OnlineAttentionOp)
    return online_attention_numpy(op, args)


IreeLinalgExtOnlineAttentionFunctions = functions_from_table(
    "IreeLinalgExtOnlineAttentionFunctions", {OnlineAttentionOp: _online_attention}
)

__all__ = ["IreeLinalgExtOnlineAttentionFunctions", "online_attention_numpy"]
