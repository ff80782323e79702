"""A LayerNorm over rows of 256 values or more (a ViT's 384, scaled to what a property run
affords): `convert-graph-to-linalg` accumulates such a mean in f64, and
`linalg-widen-mean-subtractions` subtracts it in f64. Drawn alone (`WIDE_NORM_BLOCKS`); helpers
from `graph_block_parts.py`."""

from __future__ import annotations

from hypothesis import strategies as st

from support.graph_block_parts import _binary, _expand, _float_element, _reduce, _unary


def block_wide_layer_norm(b):
    element = _float_element(b)
    if element is None:
        return None
    x = b.new_arg((b.draw(st.integers(1, 3)), b.draw(st.sampled_from((256, 300, 384)))), element)
    centred = _binary(b, "sub", x, _expand(b, _reduce(b, "reduce_mean", x, 1), x.shape))
    var = _reduce(b, "reduce_mean", _binary(b, "mul", centred, centred), 1)
    eps = b.fresh(var.shape, element)
    b.lines.append(f"    {eps.name} = arith.constant dense<0.25> : {eps.type}")
    scale = _unary(b, "rsqrt", _binary(b, "add", var, eps))
    return _binary(b, "mul", centred, _expand(b, scale, x.shape))


WIDE_NORM_BLOCKS = (block_wide_layer_norm,)
