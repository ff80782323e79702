"""`graph-drop-padding-taps`: a convolution's filter taps that read only its zero padding, at
every output position, are dropped.

Along each spatial axis, tap `k` of a conv reads input index `o * s + k * d - pad_begin` for the
outputs `o` in `[0, O)`. A tap for which every such index falls outside `[0, H)` reads only
padding. The filter keeps the taps from the first one that can read the image, `k0`, to the
last, `k1` (with a stride > 1 a tap between them may read only padding too: it stays); it is
sliced at compile time, and the pads shrink by what the dropped taps covered:

    pad_begin' = pad_begin - k0 * d
    pad_end'   = (O - 1) * s + (k1 - k0) * d + 1 - H - pad_begin'

so every output reads the same image elements, one of the kept taps each, as before. An axis
left with one tap gets dilation 1 (a 1x1 conv, which the later conv passes take as one).
DeepLabV3's ASPP at a 224x224 input: its 3x3 convs with dilations 24 and 36 (pads the same)
over the 14x14 map of the backbone read the image through the centre tap only, so they are
1x1 convs: 9x fewer products (torchvision's rates were chosen for 513x513 crops).

Exact: a dropped tap adds `0 * w` to each sum, which is zero when `w` is finite (the sign of a
zero sum aside); a filter with a weight that is not finite is left alone (`0 * inf` is NaN in
the input program; only the dropped weights would matter, the whole filter is checked). Constant filters only; any group; rank 3 and 4. Not rewritten when
a shrunk pad would be negative (the kept taps would need the input sliced) or no tap reads the
image.

Statistics: `conv taps reading only padding dropped`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.transforms.dead_code_elimination import region_dce

from fusionopt import pass_statistics
from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.dialects.graph_base import shape_of
from fusionopt.transforms.graph.graph_ir import dense_constant


@dataclass(frozen=True)
class AxisTaps:
    """The taps `[first, last]` of one spatial axis that can read the image, and that axis's
    new dilation and pads."""

    first: int
    last: int
    dilation: int
    pad_begin: int
    pad_end: int


def image_taps(size: int, out: int, kernel: int, stride: int, dilation: int, pad_begin: int) -> tuple[int, int] | None:
    """`[k0, k1]`: the taps whose input index `o * stride + k * dilation - pad_begin` lies in
    `[0, size)` for some output `o < out`; None when no tap does."""
    kept = [k for k in range(kernel)
            if any(0 <= o * stride + k * dilation - pad_begin < size for o in range(out))]
    return (kept[0], kept[-1]) if kept else None


def axis_taps(size: int, out: int, kernel: int, stride: int, dilation: int, pad_begin: int,
              pad_end: int) -> AxisTaps:
    """The axis with its padding-only taps dropped; as it is when none can be (no tap reads
    the image, or a new pad would be negative)."""
    same = AxisTaps(0, kernel - 1, dilation, pad_begin, pad_end)
    found = image_taps(size, out, kernel, stride, dilation, pad_begin)
    if found is None:
        return same
    first, last = found
    begin = pad_begin - first * dilation
    end = (out - 1) * stride + (last - first) * dilation + 1 - size - begin
    if begin < 0 or end < 0:
        return same
    return AxisTaps(first, last, dilation if last > first else 1, begin, end)


class DropPaddingTaps(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ConvOp, rewriter: PatternRewriter) -> None:
        weights = dense_constant(op.filter)
        if weights is None:
            return
        x, w, y = shape_of(op.input), shape_of(op.filter), shape_of(op.result)
        n = len(x) - 2
        begins, ends = op.pads_begin_end()
        axes = [axis_taps(x[2 + i], y[2 + i], w[2 + i], op.strides_values[i], op.dilations_values[i], begins[i],
                          ends[i]) for i in range(n)]
        if all(a.last - a.first + 1 == w[2 + i] for i, a in enumerate(axes)):
            return
        values = dense_to_numpy(weights)
        kept = values[(slice(None), slice(None), *(slice(a.first, a.last + 1) for a in axes))]
        if not np.isfinite(values).all():
            return  # a dropped 0 * inf would have been NaN
        new_type = TensorType(op.filter.type.element_type, list(kept.shape))
        constant = ConstantOp(numpy_to_dense(np.ascontiguousarray(kept), new_type))
        conv = graph.ConvOp(op.input, constant.result, op.strides_values, [a.dilation for a in axes],
                            [a.pad_begin for a in axes] + [a.pad_end for a in axes], op.group_value)
        assert conv.result.type == op.result.type, (conv.result.type, op.result.type)
        rewriter.insert(constant, InsertPoint.before(op))
        rewriter.replace(op, conv)
        pass_statistics.count("conv taps reading only padding dropped", int(values.size - kept.size))


@dataclass(frozen=True)
class GraphDropPaddingTapsPass(ModulePass):
    """Slice constant conv filters to the taps that can read the image (module docstring).
    Options: none."""

    name = "graph-drop-padding-taps"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DropPaddingTaps(), post_walk_func=region_dce).rewrite_module(op)
