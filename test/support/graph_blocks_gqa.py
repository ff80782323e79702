"""Grouped-query attention decomposed as transformers' Llama exports it: `kv` shared K/V heads
repeated `g` times (reshape, broadcast, reshape: `repeat_kv`) for `kv * g` query heads, then
softmax(Q.K^T) . V: `linalg-contract-shared-heads` makes both contractions read the shared
heads. Drawn alone (`REPEATED_KV_BLOCKS`); helpers from `graph_block_parts.py`."""

from __future__ import annotations

from hypothesis import strategies as st

from support.graph_block_parts import _activation, _binary, _dims, _dot, _expand, _float_element, _reduce, _unary


def _reshape(b, v, shape):
    r = b.fresh(tuple(shape), v.element)
    return b.emit(f"graph.reshape {v.name} : {v.type} -> {r.type}", r, v)


def _repeat_heads(b, shared, groups: int):
    """[kv, t, d] -> [kv, 1, t, d] -> [kv, g, t, d] -> [kv * g, t, d]."""
    kv, t, d = shared.shape
    one = _reshape(b, shared, (kv, 1, t, d))
    r = b.fresh((kv, groups, t, d), shared.element)
    spread = b.emit(f"graph.broadcast {one.name} dims = [0, 1, 2, 3] : {one.type} -> {r.type}", r, one)
    return _reshape(b, spread, (kv * groups, t, d))


def block_repeated_kv_attention(b):
    element = _float_element(b)
    if element is None:
        return None
    kv, groups = b.draw(st.integers(1, 2)), b.draw(st.integers(2, 3))
    s, t, d, dv = _dims(b, 4)
    q = _activation(b, (kv * groups, s, d), element)
    k = _repeat_heads(b, b.new_arg((kv, t, d), element), groups)
    v = _repeat_heads(b, b.new_arg((kv, t, dv), element), groups)
    kt = b.fresh((kv * groups, d, t), element)
    kt = b.emit(f"graph.transpose {k.name} perm = [0, 2, 1] : {k.type} -> {kt.type}", kt, k)
    scores = _dot(b, q, kt)
    top = _expand(b, _reduce(b, "reduce_max", scores, 2), scores.shape)
    e = _unary(b, "exp", _binary(b, "sub", scores, top))
    p = _binary(b, "div", e, _expand(b, _reduce(b, "reduce_sum", e, 2), e.shape))
    return _dot(b, p, v)


REPEATED_KV_BLOCKS = (block_repeated_kv_attention,)
