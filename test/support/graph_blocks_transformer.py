"""Transformer pieces as the ONNX export writes them, drawn alone: an MLP's expanding layer with
torch's exact GELU ([T, C] . a [C, 4C] weight, a bias, then x * (0.5 * (erf(x / sqrt(2)) + 1));
the CPU pipelines compute the f32 ones' erf as one rational function, `GELU_BLOCKS`), and
attention's K viewed by heads, transposed and scaled (`SCALED_KEY_BLOCKS`), and MoE experts'
weights gathered per row and multiplied by the row (`GATHERED_EXPERT_BLOCKS`). Helpers from
`graph_block_parts.py`."""

from __future__ import annotations

from hypothesis import strategies as st

from support.graph_block_parts import _bias, _binary, _dot, _float_element, _unary, _weight

SQRT2 = 1.4142135381698608  # float32's sqrt(2), as torch writes the divisor


def _splat(b, like, value: float):
    result = b.fresh(like.shape, like.element)
    b.lines.append(f"    {result.name} = arith.constant dense<{value!r}> : {result.type}")
    return result


def block_gelu_layer(b):
    element = _float_element(b)
    if element is None:
        return None
    channels = b.draw(st.integers(2, 8))
    x = b.new_arg((b.draw(st.integers(1, 6)), channels), element)
    y = _bias(b, _dot(b, x, _weight(b, (channels, 4 * channels), element)))
    erf = _unary(b, "erf", _binary(b, "div", y, _splat(b, y, SQRT2)))
    half = _binary(b, "mul", _splat(b, y, 0.5), _binary(b, "add", erf, _splat(b, y, 1.0)))
    return _binary(b, "mul", y, half)


GELU_BLOCKS = (block_gelu_layer,)


def block_scaled_keys(b):
    """Attention's K as a ViT exports it: a [1, T, H * D] projection viewed [1, T, H, D], its
    transpose [1, H, D, T] scaled by 1/sqrt(D). `dispatch-transpose-unit-loops` computes the
    scale-and-transpose region without the unit loop its input does not read."""
    element = _float_element(b)
    if element is None:
        return None
    tokens, heads, dim = b.draw(st.integers(8, 12)), b.draw(st.integers(1, 3)), b.draw(st.sampled_from((8, 16)))
    x = b.new_arg((1, tokens, heads * dim), element)
    split = b.fresh((1, tokens, heads, dim), element)
    split = b.emit(f"graph.reshape {x.name} : {x.type} -> {split.type}", split, x)
    keys = b.fresh((1, heads, dim, tokens), element)
    keys = b.emit(f"graph.transpose {split.name} perm = [0, 2, 3, 1] : {split.type} -> {keys.type}", keys, split)
    return _binary(b, "mul", keys, _splat(b, keys, 0.25))


SCALED_KEY_BLOCKS = (block_scaled_keys,)


def block_gathered_experts(b):
    """transformers' `batched_mm` experts: 16 experts' constant [O, H] weights gathered by run-time
    ids (an argument: the input families draw integers in [0, 16)) for 16-20 rows, times each
    row as a column. `graph-dense-experts` computes every expert for every row as one matmul."""
    element = _float_element(b)
    if element is None:
        return None
    rows, hidden, width = b.draw(st.integers(16, 20)), b.draw(st.integers(2, 4)), b.draw(st.integers(2, 4))
    ids = b.new_arg((rows,), "i64")
    table = b.constant((16, width, hidden), element)
    gathered = b.fresh((rows, width, hidden), element)
    gathered = b.emit(f"graph.gather {table.name}, {ids.name} axis = 0 : ({table.type}, {ids.type}) -> "
                      f"{gathered.type}", gathered, table, ids)
    return _dot(b, gathered, b.new_arg((rows, hidden, 1), element))


GATHERED_EXPERT_BLOCKS = (block_gathered_experts,)
