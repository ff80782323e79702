"""A transformer MLP's expanding layer with torch's exact GELU, as the ONNX export writes it:
[T, C] . a [C, 4C] weight, a bias, then x * (0.5 * (erf(x / sqrt(2)) + 1)). In the CPU
pipelines `linalg-rational-erf` computes the f32 ones' erf as one rational function with the
1/sqrt(2) in its coefficients. Drawn alone (`GELU_BLOCKS`); helpers from
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
