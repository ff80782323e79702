"""Multi-op building blocks for `graph_strategies.graph_programs`: the shapes each pass looks for.

Single random ops rarely line up into what a pass rewrites (over 1,000 plain programs
`graph-horizontal-fuse-dots` changed 5 and `graph-hoist-pointwise-above-slices` none), so each
block below draws one whole pattern, with random sizes, element type, constants and variations
that make the pass refuse (a second use, a mismatched op, a gap in a tiling):

- `block_dot_chain`:   X . A . B (. C) with constant / argument factors, constant scales and
                       Linear biases between the dots (graph-reassociate-dots, constant folding);
- `block_shared_input_dots`: one activation times 2-4 weights, optional bias and SiLU epilogue
                       (graph-horizontal-fuse-dots, shared LHS);
- `block_towers`:      2-3 towers of Linear layers of different depths (towers kind);
  `block_unequal_towers` (drawn alone, `UNEQUAL_TOWER_BLOCKS`): towers of unequal widths
                       (graph-horizontal-fuse-dots' padded and block-diagonal forms);
- `block_sliced_pointwise`: slices tiling an axis, the same pointwise op on each, optionally
                       concatenated back (graph-hoist-pointwise-above-slices);
- `block_viewed_dot`:  transposes / reshapes / broadcasts around a dot
                       (linalg-fold-transpose-into-matmul, linalg-interchange-for-fusion,
                       linalg-fold-unit-reshapes);
- `block_softmax` / `block_layer_norm`: sibling and chained reductions
                       (linalg-merge-sibling-reductions, region formation);
- `block_attention`:   softmax(Q.K^T * s [+ mask]) . V (linalg-raise-attention);
- `block_conv_pool`:   conv (+ bias, relu) + pool on NCHW data (the CNN lowering);
- `block_conv_affine`, `block_sibling_convs`, `block_wide_1x1_conv`, `block_depthwise_conv`,
  `block_strided_conv`: graph-fold-conv-affine, graph-horizontal-fuse-convs,
                       linalg-conv-1x1-to-matmul, linalg-depthwise-conv-drop-batch,
                       linalg-strided-conv-to-im2col.
`FORM_BLOCKS` (drawn on their own, so the mix above keeps the shares its floors were set from):
the conv blocks (a per-channel affine after a conv, sibling convs over one input, a 1x1 conv over
>= 24 channels, a depthwise conv) and `block_projected_attention` (attention with batch dims whose
K is computed, the case of linalg-transpose-nt-operands). Drawn alone, each in a run of its own in
the property test: `block_position_embedding` (a gather at constant consecutive ids,
linalg-fold-constant-gather-indices), `STRIDED_BLOCKS` (a strided k x k conv,
linalg-strided-conv-to-im2col), `SIBLING_1X1_BLOCKS` (stride-1 1x1 convs over one input with
weight arguments, linalg-horizontal-fuse-1x1-convs), `SPLIT_BROADCAST_BLOCKS` (a broadcast split by a
reshape, linalg-bubble-expand-through-broadcast) and `RESHAPED_ROOT_BLOCKS` (a grouped conv, a
Linear layer over an NHWC image: a root's result reshaped before its epilogue,
linalg-generalize-grouped-convs and linalg-sink-reshapes).
Each returns the block's last value (already in the pool) or None when it does not apply.
"""

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


# ---------------------------------------------------------------------------------------------


def block_dot_chain(b):
    element = _float_element(b) or b.element
    batch = _batch(b)
    sizes = _dims(b, b.draw(st.integers(3, 5)))
    x = _activation(b, (*batch, sizes[0], sizes[1]), element)
    value = x
    for k, n in zip(sizes[1:], sizes[2:]):
        value = _dot(b, value, _weight(b, (*batch, k, n), element))
        step = b.draw(st.sampled_from(("none", "none", "bias", "scale")))
        if step == "bias":
            value = _bias(b, value)
        elif step == "scale":
            value = _binary(b, "mul", value, b.constant(value.shape, element))
    return value


def block_shared_input_dots(b):
    element = _float_element(b)
    if element is None:
        return None
    batch = _batch(b) if b.draw(st.integers(0, 3)) == 0 else ()
    m, k = _dims(b, 2)
    x = _activation(b, (*batch, m, k), element)
    kind = b.draw(st.sampled_from(("none", "bias", "silu")))
    last = None
    for _ in range(b.draw(st.integers(2, 4))):
        w = _weight(b, (*batch, k, b.draw(st.integers(1, 6))), element)
        last = _epilogue(b, _dot(b, x, w), kind)
    return last


def block_towers(b):
    element = _float_element(b)
    if element is None:
        return None
    widths = _dims(b, 4)
    kind = b.draw(st.sampled_from(("none", "bias", "silu")))
    last = None
    for _ in range(b.draw(st.integers(2, 3))):
        value = b.new_arg((widths[0], widths[1]), element)
        for layer in range(b.draw(st.integers(1, 3))):
            w = b.constant((widths[layer + 1], widths[layer + 2] if layer < 2 else widths[1]), element)
            if w.shape[0] != value.shape[-1]:
                break
            value = _epilogue(b, _dot(b, value, w), kind)
        last = value
    return last


def block_unequal_towers(b):
    """2-4 two-layer towers of unequal widths: over one input with hidden widths of their own
    (a block-diagonal second layer), or over inputs of their own with one hidden width and
    outputs of their own (a zero-padded second layer)."""
    element = _float_element(b)
    if element is None:
        return None
    m, k, hidden = _dims(b, 3)
    count, shared = b.draw(st.integers(2, 4)), b.draw(st.booleans())
    kind = b.draw(st.sampled_from(("none", "bias", "silu")))
    x = b.new_arg((m, k), element) if shared else None
    last = None
    for _ in range(count):
        width = b.draw(st.integers(1, 6)) if shared else hidden
        h = _epilogue(b, _dot(b, x or b.new_arg((m, k), element), b.constant((k, width), element)), kind)
        last = _epilogue(b, _dot(b, h, b.constant((width, b.draw(st.integers(1, 6))), element)), kind)
    return last


def _tiling(b, size: int) -> list[tuple[int, int]]:
    cuts = sorted(b.draw(st.lists(st.integers(1, size - 1), min_size=1, max_size=min(3, size - 1), unique=True)))
    bounds = [0, *cuts, size]
    return list(zip(bounds, bounds[1:]))


def _slice(b, v, axis: int, start: int, end: int):
    out = list(v.shape)
    out[axis] = end - start
    r = b.fresh(out, v.element)
    return b.emit(f"graph.slice {v.name} axes = [{axis}] starts = [{start}] ends = [{end}] : {v.type} -> {r.type}",
                  r, v)


def block_sliced_pointwise(b):
    element = _float_element(b)
    if element is None:
        return None
    x = b.pick(lambda v: v.element == element and max(v.shape) >= 2)
    x = x or b.new_arg((b.draw(st.integers(2, 6)), b.draw(st.integers(1, 4))), element)
    axis = b.draw(st.sampled_from([i for i, d in enumerate(x.shape) if d >= 2]))
    other = b.new_arg(x.shape, element) if b.draw(st.booleans()) else None
    op = b.draw(st.sampled_from(("sigmoid", "exp", "tanh", "neg", "silu", "add-const", "mul-other")))
    pieces = []
    for start, end in _tiling(b, x.shape[axis]):
        piece = _slice(b, x, axis, start, end)
        if b.draw(st.integers(0, 5)) == 0:  # a member that does not match: partial hoist
            pieces.append(_unary(b, "abs", piece))
        elif op == "silu":
            pieces.append(_binary(b, "mul", piece, _unary(b, "sigmoid", piece)))
        elif op == "add-const":
            pieces.append(_binary(b, "add", piece, b.constant(piece.shape, element)))
        elif op == "mul-other" and other is not None:
            pieces.append(_binary(b, "mul", _slice(b, other, axis, start, end), piece))
        else:
            pieces.append(_unary(b, "sigmoid" if op == "mul-other" else op, piece))
    if len(pieces) == 1 or b.draw(st.integers(0, 2)) == 0:
        return pieces[-1]
    r = b.fresh(x.shape, element)
    types = ", ".join(p.type for p in pieces)
    return b.emit(f"graph.concat {', '.join(p.name for p in pieces)} axis = {axis} : ({types}) -> {r.type}",
                  r, *pieces)


def _transpose_last(b, v):
    perm = [*range(len(v.shape) - 2), len(v.shape) - 1, len(v.shape) - 2]
    r = b.fresh([v.shape[p] for p in perm], v.element)
    return b.emit(f"graph.transpose {v.name} perm = {perm} : {v.type} -> {r.type}", r, v)


def block_viewed_dot(b):
    element = _float_element(b) or b.element
    m, k, n = _dims(b, 3)
    batch = _batch(b)
    kind = b.draw(st.sampled_from(("transpose-lhs", "transpose-rhs", "broadcast-rhs", "unit-reshape")))
    if kind == "transpose-lhs":
        x = _transpose_last(b, _activation(b, (*batch, k, m), element))
        w = _weight(b, (*batch, k, n), element)
    elif kind == "transpose-rhs":
        x = _activation(b, (*batch, m, k), element)
        w = _transpose_last(b, _weight(b, (*batch, n, k), element))
    elif kind == "broadcast-rhs":
        batch = batch or (2,)
        x = _activation(b, (*batch, m, k), element)
        w = _broadcast(b, _weight(b, (k, n), element), [len(batch), len(batch) + 1], (*batch, k, n))
    else:
        flat = _activation(b, (m, k), element)
        r = b.fresh((1, m, k), element)
        x = b.emit(f"graph.reshape {flat.name} : {flat.type} -> {r.type}", r, flat)
        w = _weight(b, (1, k, n), element)
    result = _dot(b, x, w)
    if b.draw(st.booleans()):  # a consumer reading the product transposed
        result = _unary(b, "relu", _transpose_last(b, result))
    return result


def block_softmax(b):
    element = _float_element(b)
    if element is None:
        return None
    x = b.pick(lambda v: v.element == element and len(v.shape) >= 1)
    axis = b.draw(st.integers(0, len(x.shape) - 1))
    top = _expand(b, _reduce(b, "reduce_max", x, axis), x.shape)
    e = _unary(b, "exp", _binary(b, "sub", x, top))
    return _binary(b, "div", e, _expand(b, _reduce(b, "reduce_sum", e, axis), x.shape))


def block_layer_norm(b):
    element = _float_element(b)
    if element is None:
        return None
    x = b.pick(lambda v: v.element == element)
    axis = len(x.shape) - 1
    centred = _binary(b, "sub", x, _expand(b, _reduce(b, "reduce_mean", x, axis), x.shape))
    var = _reduce(b, "reduce_mean", _binary(b, "mul", centred, centred), axis)
    eps = b.fresh(var.shape, element)
    b.lines.append(f"    {eps.name} = arith.constant dense<0.25> : {eps.type}")
    scale = _unary(b, "rsqrt", _binary(b, "add", var, eps))
    return _binary(b, "mul", centred, _expand(b, scale, x.shape))


def block_attention(b):
    return _attention(b, projected_k=False)


def block_projected_attention(b):
    return _attention(b, projected_k=True)


def _attention(b, projected_k: bool):
    element = _float_element(b)
    if element is None:
        return None
    batch = _batch(b) or ((2,) if projected_k else ())
    s, t, d, dv = _dims(b, 4)
    q = _activation(b, (*batch, s, d), element)
    k = b.new_arg((*batch, t, d), element)
    if projected_k:  # a projection's result, not a weight (linalg-transpose-nt-operands)
        k = _unary(b, "neg", k)
    v = b.new_arg((*batch, t, dv), element)
    scores = _dot(b, q, _transpose_last(b, k))
    if b.draw(st.booleans()):
        scores = _binary(b, "mul", scores, b.constant(scores.shape, element))
    if b.draw(st.booleans()):
        scores = _binary(b, "add", scores, b.new_arg(scores.shape, element))
    axis = len(scores.shape) - 1
    top = _expand(b, _reduce(b, "reduce_max", scores, axis), scores.shape)
    e = _unary(b, "exp", _binary(b, "sub", scores, top))
    p = _binary(b, "div", e, _expand(b, _reduce(b, "reduce_sum", e, axis), e.shape))
    return _dot(b, p, v)


def block_conv_pool(b):
    if b.element not in ("f32", "f16", "f64"):
        return None
    n, c, f = b.draw(st.integers(1, 2)), b.draw(st.integers(1, 3)), b.draw(st.integers(1, 4))
    h, w, kh, kw = b.draw(st.integers(3, 6)), b.draw(st.integers(3, 6)), b.draw(st.integers(1, 3)), b.draw(st.integers(1, 3))
    pad = b.draw(st.integers(0, (min(kh, kw) - 1) // 2))  # "same" at most: every dim stays <= 6
    x = b.new_arg((n, c, h, w), b.element)
    filt = _weight(b, (f, c, kh, kw), b.element)
    out = b.fresh((n, f, h + 2 * pad - kh + 1, w + 2 * pad - kw + 1), b.element)
    y = b.emit(f"graph.conv {x.name}, {filt.name} strides = [1, 1] dilations = [1, 1] "
               f"pads = [{pad}, {pad}, {pad}, {pad}] group = 1 : ({x.type}, {filt.type}) -> {out.type}", out, x, filt)
    y = _unary(b, "relu", _bias(b, y))
    kind = b.draw(st.sampled_from(("max", "avg")))
    pooled = b.fresh((n, f, y.shape[2] - 1, y.shape[3] - 1), b.element)
    if min(pooled.shape[2:]) < 1:
        return y
    return b.emit(f"graph.pool {y.name} kind = \"{kind}\" kernel = [2, 2] strides = [1, 1] pads = [0, 0, 0, 0] "
                  f"dilations = [1, 1] ceil_mode = false count_include_pad = false : {y.type} -> {pooled.type}",
                  pooled, y)


def _conv(b, x, filt, pad: int, group: int):
    n, _, h, w = x.shape
    f, _, kh, kw = filt.shape
    out = b.fresh((n, f, h + 2 * pad - kh + 1, w + 2 * pad - kw + 1), x.element)
    return b.emit(f"graph.conv {x.name}, {filt.name} strides = [1, 1] dilations = [1, 1] "
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


def block_conv_affine(b):
    """conv (constant filter) * c[F] +/- c[F]: graph-fold-conv-affine."""
    x = _conv_input(b)
    if x is None:
        return None
    y = _conv(b, x, b.constant((b.draw(st.integers(1, 4)), x.shape[1], 1, 1), b.element), 0, 1)
    y = _per_channel(b, y, "mul")
    return _per_channel(b, y, b.draw(st.sampled_from(("add", "sub"))))


def block_sibling_convs(b):
    """2-3 convs with constant filters over one input: graph-horizontal-fuse-convs."""
    x = _conv_input(b)
    if x is None:
        return None
    k = b.draw(st.integers(1, 2))
    convs = [_conv(b, x, b.constant((b.draw(st.integers(1, 3)), x.shape[1], k, k), b.element), 0, 1)
             for _ in range(b.draw(st.integers(2, 3)))]
    return _unary(b, "relu", convs[-1])


def block_wide_1x1_conv(b):
    """a 1x1 conv over >= 24 channels (+ bias, relu): linalg-conv-1x1-to-matmul."""
    if b.element not in ("f32", "f64"):
        return None
    c, f = b.draw(st.integers(24, 32)), b.draw(st.integers(1, 6))
    x = b.new_arg((1, c, b.draw(st.integers(2, 3)), b.draw(st.integers(2, 3))), b.element)
    return _unary(b, "relu", _bias(b, _conv(b, x, b.new_arg((f, c, 1, 1), b.element), 0, 1)))


def block_depthwise_conv(b):
    """a depthwise conv (group = channels): linalg-depthwise-conv-drop-batch."""
    x = _conv_input(b, min_channels=2)
    if x is None:
        return None
    k = b.draw(st.integers(1, 2))
    return _conv(b, x, _weight(b, (x.shape[1], 1, k, k), b.element), 0, x.shape[1])


def block_position_embedding(b):
    """rows of a table gathered at constant consecutive ids (BERT's position ids; sometimes written
    negative, wrapped), plus an activation: linalg-fold-constant-gather-indices."""
    element = _float_element(b)
    if element is None:
        return None
    rows, width = b.draw(st.integers(2, 6)), b.draw(st.integers(1, 4))
    count = b.draw(st.integers(2, rows))  # one id would be folded into the payload as a scalar
    start = b.draw(st.integers(0, rows - count))
    wrap = b.draw(st.booleans())
    ids = [i - rows if wrap else i for i in range(start, start + count)]
    table = b.new_arg((rows, width), element)
    idx = b.fresh((count,), "i64")
    b.lines.append(f"    {idx.name} = arith.constant dense<{ids}> : {idx.type}")
    b.used.add(idx.name)
    rows_read = b.emit(f"graph.gather {table.name}, {idx.name} axis = 0 : ({table.type}, {idx.type}) -> "
                       f"tensor<{count}x{width}x{element}>", b.fresh((count, width), element), table)
    return _binary(b, "add", rows_read, _activation(b, (count, width), element))
def block_strided_conv(b):
    """a strided k x k conv (k in 2..3, stride 2, + bias, relu): linalg-strided-conv-to-im2col."""
    x = _conv_input(b)
    if x is None:
        return None
    n, c, h, w = x.shape
    k, pad = b.draw(st.integers(2, 3)), b.draw(st.integers(0, 1))
    filt = _weight(b, (b.draw(st.integers(1, 4)), c, k, k), b.element)
    out = b.fresh((n, filt.shape[0], (h + 2 * pad - k) // 2 + 1, (w + 2 * pad - k) // 2 + 1), x.element)
    if min(out.shape[2:]) < 1:
        return None
    y = b.emit(f"graph.conv {x.name}, {filt.name} strides = [2, 2] dilations = [1, 1] "
               f"pads = [{pad}, {pad}, {pad}, {pad}] group = 1 : ({x.type}, {filt.type}) -> {out.type}",
               out, x, filt)
    return _unary(b, "relu", _bias(b, y))


def block_projection(b):
    """a batch-1 projection over a weight argument, 16-row multiples (+ bias or relu):
    dispatch-matmul-to-mmt4d (min-n=16)."""
    if b.element != "f32":
        return None
    rows, k, cols = 16 * b.draw(st.integers(1, 2)), b.draw(st.integers(1, 8)), 16 * b.draw(st.integers(1, 2))
    y = _dot(b, _activation(b, (1, rows, k), "f32"), b.new_arg((1, k, cols), "f32"))
    return _epilogue(b, y, b.draw(st.sampled_from(("bias", "relu", "none"))))


def block_sibling_projections(b):
    """2-3 batch-1 projections of one activation over same-shaped weight arguments, each with an
    epilogue, summed (Q, K, V): linalg-horizontal-fuse-contractions."""
    if b.element != "f32":
        return None
    rows, k, cols = 4 * b.draw(st.integers(1, 4)), b.draw(st.integers(1, 8)), 16 * b.draw(st.integers(1, 2))
    x = _activation(b, (1, rows, k), "f32")
    kind = b.draw(st.sampled_from(("bias", "relu", "none")))
    results = [_epilogue(b, _dot(b, x, b.new_arg((1, k, cols), "f32")), kind) for _ in range(b.draw(st.integers(2, 3)))]
    total = results[0]
    for r in results[1:]:
        total = _binary(b, "add", total, r)
    return total


def block_sibling_1x1_convs(b):
    """2-3 stride-1 1x1 convs over one batch-1 input with weight arguments, each with an
    epilogue, summed (an Inception block's 1x1 branch and reductions); sometimes one more with
    another filter count, summed over its channels and added: linalg-horizontal-fuse-1x1-convs."""
    if b.element != "f32":
        return None
    c, f = b.draw(st.integers(1, 6)), b.draw(st.integers(1, 4))
    x = b.new_arg((1, c, b.draw(st.integers(1, 4)), b.draw(st.integers(1, 4))), "f32")
    kind = b.draw(st.sampled_from(("bias", "relu", "none")))
    results = [_epilogue(b, _conv(b, x, b.new_arg((f, c, 1, 1), "f32"), 0, 1), kind)
               for _ in range(b.draw(st.integers(2, 3)))]
    total = results[0]
    for r in results[1:]:
        total = _binary(b, "add", total, r)
    if b.draw(st.booleans()):
        other = _conv(b, x, b.new_arg((f + 1, c, 1, 1), "f32"), 0, 1)
        total = _binary(b, "add", total, _expand(b, _reduce(b, "reduce_sum", other, 1), total.shape))
    return total


def block_split_broadcast(b):
    """A per-channel vector broadcast over a batch-1 NCHW image, its channels split into groups
    by a reshape (torch-mlir's grouped-conv bias), then used elementwise:
    linalg-bubble-expand-through-broadcast."""
    groups, per_group = b.draw(st.integers(1, 3)), b.draw(st.integers(1, 3))
    h, w = _dims(b, 2, 1, 4)
    v = _weight(b, (groups * per_group,), b.element)
    image = _broadcast(b, v, [1], (1, groups * per_group, h, w))
    split = b.fresh((1, groups, per_group, h, w), b.element)
    split = b.emit(f"graph.reshape {image.name} : {image.type} -> {split.type}", split, image)
    other = _activation(b, split.shape, b.element)
    return _binary(b, b.draw(st.sampled_from(("add", "mul"))), other, split)


def block_grouped_conv(b):
    """A grouped conv (2-3 groups, not depthwise) with a bias or ReLU epilogue: its lowering
    collapses (groups, channels) to channels before the epilogue (linalg-generalize-grouped-convs,
    linalg-sink-reshapes)."""
    if b.element not in ("f32", "f64"):
        return None
    groups, per_group, filters = b.draw(st.integers(2, 3)), b.draw(st.integers(2, 3)), b.draw(st.integers(1, 2))
    k = b.draw(st.sampled_from((1, 3)))
    x = b.new_arg((1, groups * per_group, b.draw(st.integers(2, 4)), b.draw(st.integers(2, 4))), b.element)
    y = _conv(b, x, _weight(b, (groups * filters, per_group, k, k), b.element), (k - 1) // 2, groups)
    if b.draw(st.booleans()):
        y = _per_channel(b, y, "add")
    return _unary(b, "relu", y)


def block_rows_split_dot(b):
    """A Linear layer over an NHWC image ([1, H, W, C] . [C, N], ConvNeXt's): its lowering splits
    the matmul's rows back into [1, H, W] before the bias or activation (linalg-sink-reshapes)."""
    element = _float_element(b)
    if element is None:
        return None
    h, w, c, n = _dims(b, 4, 2, 4)
    x = _activation(b, (1, h, w, c), element)
    rows = b.emit(f"graph.reshape {x.name} : {x.type} -> tensor<{h * w}x{c}x{element}>", b.fresh((h * w, c), element), x)
    y = _dot(b, rows, _weight(b, (c, n), element))
    image = b.fresh((1, h, w, n), element)
    image = b.emit(f"graph.reshape {y.name} : {y.type} -> {image.type}", image, y)
    return _epilogue(b, image, b.draw(st.sampled_from(("bias", "relu", "silu"))))


BLOCKS = (block_dot_chain, block_shared_input_dots, block_towers, block_sliced_pointwise, block_viewed_dot,
          block_softmax, block_layer_norm, block_attention, block_conv_pool)
FORM_BLOCKS = (block_depthwise_conv, block_wide_1x1_conv, block_projected_attention, block_sibling_convs,
               block_conv_affine)
# Drawn on their own too (FORM_BLOCKS' shares were set without them).
STRIDED_BLOCKS = (block_strided_conv,)
PROJECTION_BLOCKS = (block_projection, block_sibling_projections)
SIBLING_1X1_BLOCKS = (block_sibling_1x1_convs,)
SPLIT_BROADCAST_BLOCKS = (block_split_broadcast,)
UNEQUAL_TOWER_BLOCKS = (block_unequal_towers,)
RESHAPED_ROOT_BLOCKS = (block_grouped_conv, block_rows_split_dot)


def block_odd_filter_1x1(b):
    """A 1x1 conv (32-40 input channels, 4x4-5x5 pixels) into 116 or 184 filters, no multiple
    of 16 and a prime factor over 16, with a ReLU: channels last, then the matmul register tile
    of dispatch-conv-1x1-cpu-tiles."""
    if b.element not in ("f32", "f64"):
        return None
    x = b.new_arg((1, b.draw(st.sampled_from((32, 40))), b.draw(st.integers(4, 5)), b.draw(st.integers(4, 5))), b.element)
    y = _conv(b, x, _weight(b, (b.draw(st.sampled_from((116, 184))), x.shape[1], 1, 1), b.element), 0, 1)
    return _unary(b, "relu", y)


ODD_FILTER_1X1_BLOCKS = (block_odd_filter_1x1,)


def block_padded_filters(b):
    """A conv (constant 1x1 or 3x3 filter, 9-30 filters, no multiple of 16) with a per-channel
    bias and ReLU, then a max pool: channels last, linalg-pad-conv-filters pads the filters to
    16 or 32, the epilogue computes the padded channels and the pool reads the slice."""
    if b.element not in ("f32", "f64"):
        return None
    size = b.draw(st.integers(6, 7))  # 36-49 pixels: channels last takes the conv
    x = b.new_arg((1, b.draw(st.integers(1, 3)), size, size), b.element)
    filters = b.draw(st.sampled_from((9, 12, 20, 24, 30)))
    k = b.draw(st.sampled_from((1, 3)))
    y = _conv(b, x, b.constant((filters, x.shape[1], k, k), b.element), k // 2, 1)
    y = _unary(b, "relu", _per_channel(b, y, "add"))
    pooled = b.fresh((1, filters, y.shape[2] - 1, y.shape[3] - 1), b.element)
    return b.emit(f"graph.pool {y.name} kind = \"max\" kernel = [2, 2] strides = [1, 1] pads = [0, 0, 0, 0] "
                  f"dilations = [1, 1] ceil_mode = false count_include_pad = false : {y.type} -> {pooled.type}",
                  pooled, y)


PADDED_FILTER_BLOCKS = (block_padded_filters,)
