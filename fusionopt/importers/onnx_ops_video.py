"""3-D (video) convs and pools in the forms the 2-D passes and IREE's kernels already run fast.

- A 3-D conv over disjoint patches (stride = kernel, no pads or dilation, one group, batch 1;
  VideoMAE's 2 x 16 x 16 tubelets, ViViT's): IREE 3.13's llvm-cpu kernel for
  `linalg.conv_3d_ncdhw_fcdhw` took 740 ms for VideoMAE's 3 -> 768 tubelet embedding (1.8 G
  multiply-adds: ~40 ms at this CPU's FMA peak). It is a matmul over the patches instead:
  `reshape [C, OD, kd, OH, kh, OW, kw] -> transpose [C, kd, kh, kw, OD, OH, OW] -> reshape
  [C*kd*kh*kw, OD*OH*OW]` (an im2col that only moves elements), the filter `[F, C*kd*kh*kw]`
  first, as `linalg-strided-conv-to-im2col` orders its 2-D patches. The products are the
  conv's; only the order of the sum over (c, kd, kh, kw) may change, as in any conv kernel.
- A separable half of a 3-D conv (no dilation, batch 1, one group; S3D's and R(2+1)D's
  (1, k, k) and (k, 1, 1) convs, 1 x 1 x 1 ones): IREE 3.13 runs them ~35x slower than
  onnxruntime (S3D 16.6 s against 0.52 s a clip). A (kd, 1, 1) conv is a 2-D (kd, 1) conv over
  [C, D, H*W]; a (1, kh, kw) one is a 2-D conv over the depth slices it reads, stacked
  along H (each slice padded by the conv's H pad and rounded up to the H stride, so no window
  spans two slices; the rows between them are computed and cropped: (kh - sh) / sh rows a
  slice). Every product of the conv is computed once.
- A full (kd, kh, kw) window (no dilation, batch 1, one group; r3d_18's 3 x 3 x 3 convs): its
  depth taps become channels, the input's depth slices each tap reads concatenated along C
  (`[1, kd*C, OD, H, W]`, the filter `[F, kd*C, kh, kw]` in the same order), and that is the
  (1, kh, kw) conv above. IREE 3.13's 3-D conv kernel ran r3d_18 at 15-27 s a clip (onnxruntime
  0.9 s; this form 1.04 s). The copy is kd times the input; every product is computed once, only
  the order of the sum over (kd, c, kh, kw) may change.
- A 3-D pool is two 2-D pools (below).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import checked, reshape, transpose
from fusionopt.importers.onnx_context import ImportContext, shape


def is_patch_conv(xs, ws, strides, dilations, pads, group: int) -> bool:
    """Stride = kernel, every spatial size a whole number of patches, no pads, no dilation."""
    kernel = list(ws[2:])
    return (group == 1 and xs[0] == 1 and list(strides) == kernel and not any(pads)
            and all(d == 1 for d in dilations) and all(size % k == 0 for size, k in zip(xs[2:], kernel)))


def is_2d_convertible(xs, ws, strides, pads, dilations, group: int) -> bool:
    """Batch 1, no dilation, one group: a temporal (kd, 1, 1) window, or any other, its depth
    taps as channels. Kept 3-D: MViT-v2-S's depthwise 3 x 3 x 3 pooling convs (as stacked
    depthwise 2-D convs `iree-compile` ran past 10 minutes and was killed). Full windows as sums
    over their depth taps of stacked 2-D convs built no module (r3d_18's sums fused with the
    residual and the next conv's slice pads into regions past IREE's 32 KB stack): their taps
    are channels of one conv instead."""
    return xs[0] == 1 and group == 1 and all(d == 1 for d in dilations)


def _is_temporal(ws, strides, pads) -> bool:
    return ws[3] == ws[4] == 1 and strides[1:] == [1, 1] and not any(pads[1:3]) and not any(pads[4:6])


def conv_3d_as_2d(ctx: ImportContext, x: SSAValue, w: SSAValue, strides, pads, group: int) -> SSAValue:
    """A 3-D conv as a 2-D conv (`is_2d_convertible`; the module doc): a temporal window over
    [C, D, H*W], any other over H-stacked depth slices, its depth taps as channels."""
    kd, kh, kw = shape(w)[2:]
    if _is_temporal(shape(w), strides, pads):
        return _temporal_conv(ctx, x, w, strides[0], pads[0], pads[3], group)
    depth = shape(x)[2]
    od = (depth + pads[0] + pads[3] - kd) // strides[0] + 1
    taps = [_depth_slices(ctx, x, [i * strides[0] - pads[0] + t for i in range(od)]) for t in range(kd)]
    slices = taps[0] if kd == 1 else ctx.emit(graph.ConcatOp(taps, 1))
    f, cg = shape(w)[:2]
    by_tap = w if kd == 1 else transpose(ctx, w, [0, 2, 1, 3, 4])  # [F, kd, C, kh, kw]: the taps' order
    filt = ctx.ssa(reshape(ctx, by_tap, [f, kd * cg, kh, kw]))
    return _stacked_conv(ctx, slices, filt, strides[1:], [pads[1], pads[2], pads[4], pads[5]], group)


def _temporal_conv(ctx: ImportContext, x: SSAValue, w: SSAValue, stride: int, low: int, high: int,
                   group: int) -> SSAValue:
    _, c, d, h, wd = shape(x)
    f, cg, kd = shape(w)[:3]
    flat = reshape(ctx, x, [1, c, d, h * wd])
    y = checked(ctx, graph.ConvOp(flat, ctx.ssa(reshape(ctx, w, [f, cg, kd, 1])), [stride, 1], [1, 1],
                                  [low, 0, high, 0], group))
    return reshape(ctx, y, [1, f, shape(y)[2], h, wd])


def _depth_slices(ctx: ImportContext, x: SSAValue, depths: list[int]) -> SSAValue:
    """x[:, :, depths] with zero slices where a depth is outside the input (the D padding)."""
    size = shape(x)[2]
    low, high = max(0, -min(depths)), max(0, max(depths) - size + 1)
    if low or high:
        x = ctx.emit(graph.PadOp(x, [0, 0, low, 0, 0], [0, 0, high, 0, 0], 0))
    depths = [dp + low for dp in depths]
    if depths == list(range(depths[0], depths[0] + len(depths))):
        if len(depths) == shape(x)[2]:
            return x
        return ctx.emit(graph.SliceOp(x, [2], [depths[0]], [depths[-1] + 1]))
    return ctx.emit(graph.GatherOp(x, ctx.ssa(np.array(depths, dtype=np.int64)), 2))


def _stacked_conv(ctx: ImportContext, slices: SSAValue, filt: SSAValue, strides, pads, group: int) -> SSAValue:
    """A 2-D conv of each depth slice of [1, C, OD, H, W], the slices stacked along H."""
    _, c, od, h, wd = shape(slices)
    kh, kw = shape(filt)[2:]
    (sh, sw), (top, left, bottom, right) = strides, pads
    oh = (h + top + bottom - kh) // sh + 1
    rows = -(-(h + top + bottom) // sh) * sh  # a slice's rows, padded, a whole number of strides
    padded = ctx.emit(graph.PadOp(slices, [0, 0, 0, top, 0], [0, 0, 0, rows - h - top, 0], 0))
    stacked = reshape(ctx, padded, [1, c, od * rows, wd])
    y = checked(ctx, graph.ConvOp(stacked, filt, [sh, sw], [1, 1], [0, left, max(0, kh - sh), right], group))
    ow = shape(y)[3]
    per_slice = reshape(ctx, y, [1, shape(y)[1], od, rows // sh, ow])
    return ctx.emit(graph.SliceOp(per_slice, [3], [0], [oh])) if rows // sh != oh else per_slice


def patch_conv_3d(ctx: ImportContext, x: SSAValue, w: SSAValue) -> SSAValue:
    _, c, d, h, wd = shape(x)
    f, _, kd, kh, kw = shape(w)
    od, oh, ow = d // kd, h // kh, wd // kw
    split = reshape(ctx, x, [c, od, kd, oh, kh, ow, kw])
    patches = reshape(ctx, transpose(ctx, split, [0, 2, 4, 6, 1, 3, 5]), [c * kd * kh * kw, od * oh * ow])
    filters = reshape(ctx, w, [f, c * kd * kh * kw])
    product = checked(ctx, graph.DotOp(ctx.ssa(filters), ctx.ssa(patches)))
    return reshape(ctx, product, [1, f, od, oh, ow])


def is_identity_window(kernel, strides, pads) -> bool:
    """A pooling window of one element, stride 1, no padding: the pool returns its input."""
    return all(k == 1 for k in kernel) and all(s == 1 for s in strides) and not any(pads)


def separable_3d_pool(ctx: ImportContext, x: SSAValue, kind, kernel, strides, pads, dilations,
                       ceil_mode, include_pad) -> SSAValue:
    """A 3-D pool (video models) as a 2-D pool over H x W with the depth among the channels,
    then one over D with H x W flattened: a box's max is the max over D of the maxes over H x W,
    and its mean the mean over D of the means over H x W (the H x W count of a box is the same
    at every depth of it), so each step is a pool the passes and IREE already run. A step whose
    window is one element (S3D's (1, 3, 3) pools over D) is left out: it copied its input
    through two transposes (channels last and back) for nothing."""
    n, c, d, h, w = shape(x)
    over_hw, hw_pads = reshape(ctx, x, [n, c * d, h, w]), [pads[1], pads[2], pads[4], pads[5]]
    if not is_identity_window(kernel[1:], strides[1:], hw_pads):
        over_hw = checked(ctx, graph.PoolOp(over_hw, kind, kernel[1:], strides[1:], hw_pads, dilations[1:], ceil_mode,
                                             include_pad))
    oh, ow = shape(over_hw)[2:]
    over_d, d_pads = reshape(ctx, over_hw, [n, c, d, oh * ow]), [pads[0], 0, pads[3], 0]
    if not is_identity_window(kernel[:1], strides[:1], d_pads):
        over_d = checked(ctx, graph.PoolOp(over_d, kind, [kernel[0], 1], [strides[0], 1], d_pads,
                                            [dilations[0], 1], ceil_mode, include_pad))
    return reshape(ctx, over_d, [n, c, shape(over_d)[2], oh, ow])
