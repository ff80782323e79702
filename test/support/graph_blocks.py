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
linalg-generalize-grouped-convs and linalg-sink-reshapes), `ASSERTED_BLOCKS` (torch-mlir's
reciprocal asserting in its payload, linalg-drop-payload-asserts).
Each returns the block's last value (already in the pool) or None when it does not apply. The
conv blocks are in `graph_blocks_conv.py`, the helpers all blocks share in `graph_block_parts.py`;
this module exports every block and block set.
"""

from __future__ import annotations

from hypothesis import strategies as st

from support.graph_block_parts import (  # noqa: F401
    _activation, _batch, _bias, _binary, _broadcast, _dims, _dot, _epilogue, _expand,
    _float_element, _reduce, _unary, _weight,
)
from support.graph_blocks_conv import (  # noqa: F401
    block_conv_affine, block_conv_pool, block_depthwise_conv, block_grouped_conv,
    block_sibling_1x1_convs, block_sibling_convs, block_strided_conv, block_wide_1x1_conv, block_wide_grouped_conv,
    DILATED_PADDING_BLOCKS, ODD_FILTER_1X1_BLOCKS, PACKED_WEIGHT_BLOCKS, PADDED_DEPTHWISE_BLOCKS, PADDED_FILTER_BLOCKS,
    PADDED_WEIGHT_BLOCKS, TILED_DEPTHWISE_BLOCKS, GROUPED_IM2COL_BLOCKS, GROUPED_TAPS_BLOCKS, KXK_CONV_BLOCKS,
    CONV1D_BLOCKS, SQUEEZE_EXCITE_BLOCKS, WINOGRAD_BLOCKS,
)


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


def block_row_softmax(b):
    """A softmax over rows of 20, 33 or 45 elements (a ViT's 197 keys, scaled down): the CPU
    pipelines' `dispatch-reduction-cpu-tiles` gives both f32 reductions whole-row vectors."""
    element = _float_element(b)
    if element is None:
        return None
    x = b.new_arg((b.draw(st.integers(2, 3)), b.draw(st.sampled_from((20, 33, 45)))), element)
    top = _expand(b, _reduce(b, "reduce_max", x, 1), x.shape)
    e = _unary(b, "exp", _binary(b, "sub", x, top))
    return _binary(b, "div", e, _expand(b, _reduce(b, "reduce_sum", e, 1), x.shape))


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


def block_keys_outer_attention(b):
    """Attention whose V comes as [keys, heads, dv] (GPT-NeoX's fused QKV) transposed to [heads,
    keys, dv]: the raise reads it in place, linalg-attention-value-rows copies it heads-outer."""
    return _attention(b, projected_k=False, keys_outer=True)


def block_key_block_attention(b):
    """f32 attention at head dim 32 over 33, 40 or 64 keys, V sometimes keys-outer:
    linalg-attention-key-blocks reads K transposed, padded to whole blocks of 32 keys but at 64."""
    if b.element != "f32":
        return None
    keys = b.draw(st.sampled_from((33, 40, 64)))
    return _attention(b, projected_k=False, keys_outer=b.draw(st.booleans()), sizes=(b.draw(st.integers(1, 3)), keys, 32, 32))


def _attention(b, projected_k: bool, keys_outer: bool = False, sizes: tuple[int, int, int, int] | None = None):
    """Decomposed attention; `sizes`: queries, keys, head dim and V's dim (drawn small if None)."""
    element = _float_element(b)
    if element is None:
        return None
    batch = _batch(b) or ((2,) if projected_k or keys_outer else ())
    s, t, d, dv = sizes or _dims(b, 4)
    q = _activation(b, (*batch, s, d), element)
    k = b.new_arg((*batch, t, d), element)
    if projected_k:  # a projection's result, not a weight (linalg-transpose-nt-operands)
        k = _unary(b, "neg", k)
    v = _keys_outer_values(b, batch, t, dv, element) if keys_outer else b.new_arg((*batch, t, dv), element)
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


def _keys_outer_values(b, batch, t, dv, element):
    raw = b.new_arg((t, *batch, dv), element)
    perm = [*range(1, len(batch) + 1), 0, len(batch) + 1]
    r = b.fresh([raw.shape[p] for p in perm], element)
    return b.emit(f"graph.transpose {raw.name} perm = {perm} : {raw.type} -> {r.type}", r, raw)


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


def block_asserted_reciprocal(b):
    """torch-mlir's reciprocal written as it writes it, `1 / (x*x + 1)` in a linalg.generic whose
    payload asserts the divisor is nonzero (true for every finite or infinite x), amid graph
    ops: linalg-drop-payload-asserts."""
    element = _float_element(b)
    if element is None:
        return None
    x = _activation(b, tuple(_dims(b, b.draw(st.integers(1, 3)))), element)
    r = b.fresh(x.shape, element)
    n, e = r.name, element
    identity = "affine_map<(" + ", ".join(f"d{i}" for i in range(len(x.shape))) + ") -> (" + \
        ", ".join(f"d{i}" for i in range(len(x.shape))) + ")>"
    b.lines.append(f"    {n}_init = tensor.empty() : {x.type}")
    payload = (f"^bb0({n}_in: {e}, {n}_out: {e}):\n"
               f"      {n}_sq = arith.mulf {n}_in, {n}_in : {e}\n"
               f"      {n}_one = arith.constant 1.0 : {e}\n"
               f"      {n}_den = arith.addf {n}_sq, {n}_one : {e}\n"
               f"      {n}_zero = arith.constant 0.0 : {e}\n"
               f"      {n}_nonzero = arith.cmpf one, {n}_den, {n}_zero : {e}\n"
               f"      cf.assert {n}_nonzero, \"unimplemented: tensor with zero element\"\n"
               f"      {n}_q = arith.divf {n}_one, {n}_den : {e}\n"
               f"      linalg.yield {n}_q : {e}\n    }}")
    iterators = ", ".join(['"parallel"'] * len(x.shape))
    return b.emit(f"linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{iterators}]}} "
                  f"ins({x.name} : {x.type}) outs({n}_init : {x.type}) {{\n    {payload} -> {x.type}", r, x)


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
ASSERTED_BLOCKS = (block_asserted_reciprocal,)
WIDE_GROUPED_BLOCKS = (block_wide_grouped_conv,)
ROW_SOFTMAX_BLOCKS = (block_row_softmax,)
KEYS_OUTER_ATTENTION_BLOCKS = (block_keys_outer_attention,)
KEY_BLOCK_ATTENTION_BLOCKS = (block_key_block_attention,)
