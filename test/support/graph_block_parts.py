"""Drawing helpers the graph blocks share (`graph_blocks.py`, `graph_blocks_conv.py`): operands,
weights, elementwise ops, broadcasts, reductions and NCHW convs written as `graph` ops into a
program builder `b` (`graph_strategies.ProgramBuilder`)."""

from __future__ import annotations

from hypothesis import strategies as st

FLOATS = ("f32", "f16", "bf16", "f64")


def _dims(b, n: int, lo: int = 1, hi: int = 6) -> list[int]:
    return [b.draw(st.integers(lo, hi)) for _ in range(n)]


def _float_element(b) -> str | None:
    return b.element if b.element in FLOATS else None


def _activation(b, shape, element):
    """A pool value of this shape and type, or a new argument."""
    found = b.pick(lambda v: v.shape == tuple(shape) and v.element == element)
    if found is not None and b.draw(st.booleans()):
        return found
    return b.new_arg(shape, element)


def _weight(b, shape, element):
    """Mostly constants (what the graph passes fold and batch), sometimes an argument."""
    if b.draw(st.integers(0, 4)) == 0:
        return b.new_arg(shape, element)
    return b.constant(shape, element)


def _dot(b, x, w):
    r = b.fresh((*x.shape[:-1], w.shape[-1]), x.element)
    return b.emit(f"graph.dot {x.name}, {w.name} : ({x.type}, {w.type}) -> {r.type}", r, x, w)


def _binary(b, op: str, x, y):
    return b.emit(f"graph.{op} {x.name}, {y.name} : {x.type}", b.fresh(x.shape, x.element), x, y)


def _unary(b, op: str, x):
    return b.emit(f"graph.{op} {x.name} : {x.type}", b.fresh(x.shape, x.element), x)


def _broadcast(b, v, dims, shape):
    r = b.fresh(shape, v.element)
    return b.emit(f"graph.broadcast {v.name} dims = {list(dims)} : {v.type} -> {r.type}", r, v)


def _bias(b, x):
    """x + a constant: full shape, or a row vector broadcast over the leading dims."""
    if b.draw(st.booleans()):
        return _binary(b, "add", x, b.constant(x.shape, x.element))
    row = b.constant((x.shape[-1],), x.element)
    return _binary(b, "add", x, _broadcast(b, row, [len(x.shape) - 1], x.shape))


def _epilogue(b, x, kind: str):
    if kind == "bias":
        return _bias(b, x)
    if kind == "silu":
        return _binary(b, "mul", x, _unary(b, "sigmoid", x))
    if kind == "relu":
        return _unary(b, "relu", x)
    return x


def _reduce(b, op: str, x, axis: int):
    r = b.fresh([1 if i == axis else d for i, d in enumerate(x.shape)], x.element)
    return b.emit(f"graph.{op} {x.name} axes = [{axis}] : {x.type} -> {r.type}", r, x)


def _expand(b, reduced, shape):
    return _broadcast(b, reduced, list(range(len(shape))), shape)


def _batch(b) -> tuple[int, ...]:
    return tuple(_dims(b, b.draw(st.integers(0, 1)), 1, 3))


def _conv(b, x, filt, pad: int, group: int, stride: int = 1):
    n, _, h, w = x.shape
    f, _, kh, kw = filt.shape
    out = b.fresh((n, f, (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1), x.element)
    return b.emit(f"graph.conv {x.name}, {filt.name} strides = [{stride}, {stride}] dilations = [1, 1] "
                  f"pads = [{pad}, {pad}, {pad}, {pad}] group = {group} : ({x.type}, {filt.type}) -> {out.type}",
                  out, x, filt)


def _per_channel(b, y, op: str):
    """y op c[F] broadcast over the channel dim (a BatchNorm / ONNX Mul or Add by [F, 1, 1])."""
    c = b.constant((y.shape[1],), y.element)
    return _binary(b, op, y, _broadcast(b, c, [1], y.shape))


def _conv_input(b, min_channels: int = 1):
    if b.element not in ("f32", "f64"):
        return None
    c = b.draw(st.integers(min_channels, 3))
    return b.new_arg((1, c, b.draw(st.integers(2, 4)), b.draw(st.integers(2, 4))), b.element)
