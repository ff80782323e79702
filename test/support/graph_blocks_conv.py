"""The convolution blocks of `graph_blocks` (see its docstring for what each draws and which pass
it is for): conv + pool, per-channel affines, sibling, wide 1x1, depthwise, strided, grouped,
odd-filter and padded-filter convs, a padded expansion before a depthwise conv."""

from __future__ import annotations

from hypothesis import strategies as st

from support.graph_block_parts import (  # noqa: F401
    _bias, _binary, _conv, _conv_input, _dot, _epilogue, _expand, _per_channel, _reduce, _unary,
    _weight,
)


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


def block_wide_grouped_conv(b):
    """A grouped 3x3 conv with 16 filters per group (2 groups of 8 or 16 channels, stride 1 or
    2, pad 1, batch 1 or 2) over a constant filter, with a bias and ReLU: linalg-conv-channels-last's gather
    from the NHWC image and group-batched matmul."""
    if b.element not in ("f32", "f64"):
        return None
    per_group = b.draw(st.sampled_from((8, 16)))
    batch = b.draw(st.integers(1, 2))
    x = b.new_arg((batch, 2 * per_group, b.draw(st.integers(3, 6)), b.draw(st.integers(3, 6))), b.element)
    y = _conv(b, x, b.constant((32, per_group, 3, 3), b.element), 1, 2, stride=b.draw(st.integers(1, 2)))
    return _unary(b, "relu", _per_channel(b, y, "add"))


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


def block_padded_depthwise(b):
    """MobileNet's inverted residual without the residual: a 1x1 conv into 9-30 constant filters
    (no multiple of 16) with a bias and ReLU, a 3x3 depthwise conv over a constant filter (stride
    1 or 2), a ReLU and a 1x1 projection: linalg-pad-conv-filters pads the expansion, and its
    slice moves below the depthwise conv (`padded_depthwise_readers`) to the projection."""
    if b.element not in ("f32", "f64"):
        return None
    size = b.draw(st.integers(6, 8))
    x = b.new_arg((1, b.draw(st.integers(2, 4)), size, size), b.element)
    filters = b.draw(st.sampled_from((9, 12, 20, 30)))
    y = _unary(b, "relu", _per_channel(b, _conv(b, x, b.constant((filters, x.shape[1], 1, 1), b.element), 0, 1), "add"))
    y = _unary(b, "relu", _conv(b, y, b.constant((filters, 1, 3, 3), b.element), 1, filters, b.draw(st.integers(1, 2))))
    return _conv(b, y, b.constant((b.draw(st.integers(2, 4)), filters, 1, 1), b.element), 0, 1)


PADDED_DEPTHWISE_BLOCKS = (block_padded_depthwise,)


def block_tiled_depthwise(b):
    """A 3x3 depthwise conv over 16 or 32 channels of a 7x7 or 8x8 image (a constant filter, a
    ReLU): the CPU pipelines' `dispatch-depthwise-cpu-tiles` gives it 7 (8) pixels x 16 (32)
    channels a register tile (f32 draws; f64 stays IREE's)."""
    if b.element not in ("f32", "f64"):
        return None
    size, channels = b.draw(st.sampled_from((7, 8))), b.draw(st.sampled_from((16, 32)))
    x = b.new_arg((1, channels, size, size), b.element)
    return _unary(b, "relu", _conv(b, x, b.constant((channels, 1, 3, 3), b.element), 1, channels))


TILED_DEPTHWISE_BLOCKS = (block_tiled_depthwise,)


def block_grouped_im2col(b):
    """RegNetX's grouped 3x3 conv: 2 groups of 16 channels into 16 filters each over a constant
    filter, pad 1, batch 1, a 4x4 or 12x12 output (stride 1, or stride 2 from 8x8 or 24x24: widths
    no 7- or 8-pixel tile divides, which the CPU pipelines' tap sums leave), with a bias and ReLU:
    the CPU pipelines form IREE's im2col op and a group-batched matmul, which
    `dispatch-grouped-im2col-cpu-tiles` gives one group a workgroup (f32 draws; f64 stays IREE's)."""
    if b.element not in ("f32", "f64"):
        return None
    out, stride = b.draw(st.sampled_from((4, 12))), b.draw(st.integers(1, 2))
    x = b.new_arg((1, 32, out * stride, out * stride), b.element)
    y = _conv(b, x, b.constant((32, 16, 3, 3), b.element), 1, 2, stride=stride)
    return _unary(b, "relu", _per_channel(b, y, "add"))


GROUPED_IM2COL_BLOCKS = (block_grouped_im2col,)


def block_grouped_taps(b):
    """RegNetX's, RegNetY's and ResNeXt's grouped 3x3 convs: 2 groups of 16 channels into 16
    filters each, 4 groups of 8 into 8 (paired) or 3 (not), over a constant filter, pad 1,
    batch 1, a 7x7 or 8x8 output (stride 1, or 2), with a bias and ReLU: the CPU pipelines sum
    the taps' slices in one generic, which `dispatch-grouped-taps-cpu-tiles` gives 7 (8) pixels
    x 16 (8) filters a register tile (f32 draws; f64 stays in the im2col form)."""
    if b.element not in ("f32", "f64"):
        return None
    out, stride = b.draw(st.sampled_from((7, 8))), b.draw(st.integers(1, 2))
    groups, width = b.draw(st.sampled_from(((2, 16), (4, 8), (3, 8))))
    x = b.new_arg((1, groups * width, out * stride, out * stride), b.element)
    y = _conv(b, x, b.constant((groups * width, width, 3, 3), b.element), 1, groups, stride=stride)
    return _unary(b, "relu", _per_channel(b, y, "add"))


GROUPED_TAPS_BLOCKS = (block_grouped_taps,)


def block_kxk_conv(b):
    """ResNet's 3x3 conv: 16 channels into 32 filters over a constant filter (the most elements
    a drawn constant holds), pad 1, batch 1, a 7x7 or 8x8 output, with a bias and ReLU: the CPU
    pipelines keep it a channels-last conv, which `dispatch-conv-kxk-cpu-tiles` gives 7 (8)
    pixels x 32 filters a register tile (f32 draws; f64 stays IREE's)."""
    if b.element not in ("f32", "f64"):
        return None
    out = b.draw(st.sampled_from((7, 8)))
    x = b.new_arg((1, 16, out, out), b.element)
    y = _conv(b, x, b.constant((32, 16, 3, 3), b.element), 1, 1)
    return _unary(b, "relu", _per_channel(b, y, "add"))


KXK_CONV_BLOCKS = (block_kxk_conv,)


def block_winograd_conv(b):
    """ResNet's later 3x3 convs: 64 channels into 64 filters (the CPU pipelines' Winograd
    minimum), pad 1, batch 1, a 6x6, 7x6 or 8x8 output (channels last from 32 pixels), with a
    bias and ReLU: the CPU pipelines compute the f32 ones as Winograd F(2x2, 3x3)
    (`linalg-conv-winograd`). The filter is a splat of a drawn quarter (36864 drawn elements
    overrun hypothesis's buffer); the transforms' numerics on random filters are
    `test_conv_winograd.py`'s. Drawn alone, the `mask` family not judged (the pass's contract:
    finite values)."""
    if b.element not in ("f32", "f64"):
        return None
    h, w = b.draw(st.sampled_from(((6, 6), (7, 6), (8, 8))))
    x = b.new_arg((1, 64, h, w), b.element)
    filt = b.fresh((64, 64, 3, 3), b.element)
    value = b.draw(st.sampled_from((-0.5, 0.25, 0.75, 1.5)))
    b.lines.append(f"    {filt.name} = arith.constant dense<{value}> : {filt.type}")
    y = _conv(b, x, filt, 1, 1)
    return _unary(b, "relu", _per_channel(b, y, "add"))


WINOGRAD_BLOCKS = (block_winograd_conv,)


def block_squeeze_excite(b):
    """EfficientNet's squeeze-excitation: a depthwise 3x3 conv (pad 1) + SiLU over an NCHW image
    of 16 or 32 channels, its spatial mean, a sigmoid of that, the activation scaled by it per
    channel, then a 1x1 conv. The CPU pipelines compute the depthwise conv channels last and its
    SiLU wrote NCHW for the mean and the scale (`linalg-sink-output-transposes` writes it in loop
    order). f32 and f64."""
    if b.element not in ("f32", "f64"):
        return None
    channels, size = b.draw(st.sampled_from((16, 32))), b.draw(st.integers(4, 6))
    x = b.new_arg((1, channels, size, size), b.element)
    y = _epilogue(b, _conv(b, x, b.constant((channels, 1, 3, 3), b.element), 1, channels), "silu")
    mean = _reduce(b, "reduce_mean", _reduce(b, "reduce_mean", y, 2), 3)
    scaled = _binary(b, "mul", y, _expand(b, _unary(b, "sigmoid", mean), y.shape))
    return _conv(b, scaled, b.constant((channels, channels, 1, 1), b.element), 0, 1)


SQUEEZE_EXCITE_BLOCKS = (block_squeeze_excite,)


def block_packed_weights(b):
    """A constant-weight layer whose output count a panel width divides into two or more panels:
    a 1x1 conv from 32 or 48 channels into 96, 128 or 192 filters with a per-channel bias and
    ReLU over a 6x6 or 7x7 image (channels last; linalg-pack-conv-filters reads 3 x 32, 2 x 64 or
    3 x 64 panels), or a Linear layer [T, C] . [C, N] with a bias (linalg-pack-matmul-weights).
    f32 only: the passes tile for f32 vectors."""
    if b.element != "f32":
        return None
    outputs = b.draw(st.sampled_from((96, 128, 192)))
    if b.draw(st.booleans()):
        size = b.draw(st.integers(6, 7))
        x = b.new_arg((1, b.draw(st.sampled_from((32, 48))), size, size), "f32")
        y = _conv(b, x, b.constant((outputs, x.shape[1], 1, 1), "f32"), 0, 1)
        return _unary(b, "relu", _per_channel(b, y, "add"))
    x = b.new_arg((b.draw(st.integers(4, 32)), b.draw(st.integers(2, 16))), "f32")
    return _bias(b, _dot(b, x, b.constant((x.shape[1], outputs), "f32")))


PACKED_WEIGHT_BLOCKS = (block_packed_weights,)


def block_padded_weights(b):
    """A classifier-like Linear layer [T, C] . [C, N] + bias over a constant weight whose N no
    panel divides (200, 330 or 1000 outputs, 1-8 rows, 2-6 inputs: a slice of at most 32 KB):
    linalg-pad-matmul-weights pads N to 224, 352 or 1024, then it is packed. In f32 whatever the
    program's element type (the pass takes f32 only)."""
    outputs = b.draw(st.sampled_from((200, 330, 1000)))
    # at most 6 x 1000 weight elements: hypothesis draws each, and its lists stop at 8192
    x = b.new_arg((b.draw(st.integers(1, 8)), b.draw(st.integers(2, 6))), "f32")
    return _bias(b, _dot(b, x, b.constant((x.shape[1], outputs), "f32")))


PADDED_WEIGHT_BLOCKS = (block_padded_weights,)


def block_dilated_padding_taps(b):
    """a 3x3 conv over a constant filter with dilation 3-5 and pads as large, over a 2x2-4x4
    map, + bias, relu: its outer taps read only padding (DeepLabV3's ASPP at small sizes):
    graph-drop-padding-taps."""
    x = _conv_input(b)
    if x is None:
        return None
    d = b.draw(st.integers(3, 5))
    filt = b.constant((b.draw(st.integers(1, 4)), x.shape[1], 3, 3), b.element)
    out = b.fresh((1, filt.shape[0], *x.shape[2:]), x.element)
    y = b.emit(f"graph.conv {x.name}, {filt.name} strides = [1, 1] dilations = [{d}, {d}] "
               f"pads = [{d}, {d}, {d}, {d}] group = 1 : ({x.type}, {filt.type}) -> {out.type}", out, x, filt)
    return _unary(b, "relu", _bias(b, y))


DILATED_PADDING_BLOCKS = (block_dilated_padding_taps,)


def _conv1d(b, x, filt, pad: int, stride: int):
    n, _, w = x.shape
    f, _, k = filt.shape
    out = b.fresh((n, f, (w + 2 * pad - k) // stride + 1), x.element)
    return b.emit(f"graph.conv {x.name}, {filt.name} strides = [{stride}] dilations = [1] pads = [{pad}, {pad}] "
                  f"group = 1 : ({x.type}, {filt.type}) -> {out.type}", out, x, filt)


def block_conv1d_stack(b):
    """two 1-D convs over constant filters (an audio encoder's feature convs: k 2..3, stride 1..2,
    the first padded or not), the first's result normalised over its frames (a GroupNorm of one
    group a channel) or not, a tanh between them: linalg-conv1d-channels-last, linalg-conv1d-patches."""
    if b.element not in ("f32", "f64"):
        return None
    c, f, w = b.draw(st.integers(1, 4)), b.draw(st.integers(2, 4)), b.draw(st.integers(8, 16))
    x = b.new_arg((1, c, w), b.element)
    k1, k2 = b.draw(st.integers(2, 3)), b.draw(st.integers(2, 3))
    y = _conv1d(b, x, b.constant((f, c, k1), b.element), b.draw(st.integers(0, 1)), b.draw(st.integers(1, 2)))
    if b.draw(st.booleans()):
        centred = _binary(b, "sub", y, _expand(b, _reduce(b, "reduce_mean", y, 2), y.shape))
        var = _reduce(b, "reduce_mean", _binary(b, "mul", centred, centred), 2)
        eps = b.fresh(var.shape, b.element)
        b.lines.append(f"    {eps.name} = arith.constant dense<0.25> : {eps.type}")
        y = _binary(b, "mul", centred, _expand(b, _unary(b, "rsqrt", _binary(b, "add", var, eps)), y.shape))
    y = _unary(b, "tanh", y)
    if y.shape[2] < k2:
        return y
    return _conv1d(b, y, b.constant((b.draw(st.integers(2, 4)), f, k2), b.element), 0, 2)


CONV1D_BLOCKS = (block_conv1d_stack,)
