"""`linalg-conv-1x1-to-matmul`: a 1x1 `linalg.conv_2d_nchw_fchw` becomes a matmul-like generic.

A convolution whose filter is 1x1 multiplies an F x C matrix by the C x (H*W) pixels: a
matrix multiply. IREE 3.13's CPU backend only gives it a matmul kernel when it *is* written as
a contraction over projected-permutation maps: as a conv named op in a pre-formed region it
runs 3.6x slower, and 330x slower when strided (`../shared/reference/iree-cpu-convolutions.md`;
IREE's own `convert-1x1-filter-conv2d-to-matmul` skips strided convs and never sees the ops
inside our regions). Rewrite, for static shapes:

    %w2 = tensor.collapse_shape %w [[0], [1, 2, 3]]      : F x C x 1 x 1 -> F x C
    (stride s > 1: %x = tensor.extract_slice %x[0, 0, 0, 0] [N, C, OH, OW] [1, 1, sh, sw])
    %r = linalg.generic {(n, f, h, w, c): x(n, c, h, w) * w2(f, c) -> out(n, f, h, w)}
           ins(%x, %w2) outs(%init)

The init (torch-mlir's broadcast bias) and the output layout are unchanged, so the bias and
every elementwise consumer still fuse into the contraction's dispatch through identity maps,
and the spatial dims stay apart (no non-unit reshape between the root and its epilogue,
which would split the dispatch). The weight collapse only drops unit dims: a free
`flow.tensor.reshape` outside the regions. The strided slice is a non-contiguous view that
region formation clones into the contraction's dispatch as an indexed read (no copy).

Not rewritten: grouped/depthwise convs, NHWC, dynamic shapes. No options.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.iree_padded_producers import MIN_PIXELS, is_iree_padded_1x1, padded_consumer
from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import WindowOp
from fusionopt.transforms.linalg.conv_1x1_sinking import SinkFlatExpand
from fusionopt.transforms.common.reshapes import collapse, expand as expand_to
from fusionopt.transforms.common.window_ops import is_1x1_conv

# 1 x C x H x W as C x (H*W) (stride 1: a free reshape), or C x H x W (strided: the slice
# that picks the pixels must stay a view IREE can clone into the dispatch, and a collapse of
# a strided slice would materialise it as a copy dispatch).
FLAT_GROUPS = [[0, 1], [2, 3]]
PIXEL_GROUPS = [[0, 1], [2], [3]]


def _maps(spatial: int, batched: bool) -> tuple[AffineMap, ...]:
    """Loops ([n], f, *spatial, c): input ([n], c, *spatial), filter (f, c), output ([n], f, *spatial)."""
    dims = [AffineDimExpr(i) for i in range(int(batched) + 2 + spatial)]
    n, f, pixels, c = dims[: int(batched)], dims[int(batched)], dims[int(batched) + 1 : -1], dims[-1]
    count = len(dims)
    return (
        AffineMap(count, 0, (*n, c, *pixels)),
        AffineMap(count, 0, (f, c)),
        AffineMap(count, 0, (*n, f, *pixels)),
    )


def is_strided(op: WindowOp) -> bool:
    in_shape, out_shape = op.inputs[0].type.get_shape(), op.outputs[0].type.get_shape()  # type: ignore[attr-defined]
    return op.stride_values() != (1, 1) or tuple(in_shape[2:]) != tuple(out_shape[2:])


@dataclass(frozen=True)
class MatmulChoice:
    """Which 1x1 convs run faster as a matmul in IREE 3.13 on llvm-cpu (measured per dispatch
    on mobilenet_mini/resnet_mini/mobilenet_v3_small, bench/RESULTS.md): the matmul kernel wins
    with a reduction of at least `min_channels` input channels and up to `max_filters` output
    channels (576-filter squeeze-excite expansions: 65 -> 38 us); below (an expansion from 8 or
    16 channels) or above (a 1280-channel head over 2x2 pixels) the conv kernel IREE gives our
    regions was faster. A strided 1x1 conv in our regions runs as
    fast as a conv (5-10 us) and 10-30x slower as strided slice + matmul: kept unless
    `strided`. A conv only a pad reads, over `padded_min_pixels`+ pixels, is left to IREE's
    own formation, which writes the pad in the conv's dispatch (`iree_padded_producers`). With
    `padded_as_matmul`, a conv only a pad reads (and not left to IREE) is rewritten whatever its
    channel and filter counts: a matmul region writes its pad, a conv region (IREE 3.13) cannot,
    so the pad would be a copy dispatch."""

    min_channels: int
    max_filters: int
    strided: bool
    padded_min_pixels: int = MIN_PIXELS
    padded_as_matmul: bool = False

    def wants(self, op: WindowOp) -> bool:
        f, c = op.inputs[1].type.get_shape()[:2]  # type: ignore[attr-defined]
        if is_strided(op) and not self.strided:
            return False
        if is_iree_padded_1x1(op, self.padded_min_pixels):
            return False
        if self.padded_as_matmul and padded_consumer(op.results[0]) is not None:
            return True
        return c >= self.min_channels and f <= self.max_filters


def reshaped(value: SSAValue, groups: list[list[int]] | None) -> tuple[SSAValue, list[Operation]]:
    """`value` collapsed by `groups` (None: unchanged)."""
    if groups is None:
        return value, []
    shape = value.type.get_shape()  # type: ignore[attr-defined]
    sizes = [prod(shape[d] for d in group) for group in groups]
    op = collapse(value, groups, TensorType(value.type.get_element_type(), sizes))  # type: ignore[attr-defined]
    return op.results[0], [op]


def pixels_read(op: WindowOp, groups: list[list[int]] | None) -> tuple[SSAValue, list[Operation]]:
    """The input pixels the 1x1 conv reads, reshaped by `groups`: the input itself at stride 1,
    else one strided slice (rank-reducing when the batch dim goes), which region formation
    clones into the contraction's dispatch as an indexed read."""
    source = op.inputs[0]
    n, c, h, w = source.type.get_shape()  # type: ignore[attr-defined]
    oh, ow = op.outputs[0].type.get_shape()[2:]  # type: ignore[attr-defined]
    strides = op.stride_values()
    if strides == (1, 1) and (h, w) == (oh, ow):
        return reshaped(source, groups)
    shape = [c, oh, ow] if groups == PIXEL_GROUPS else [n, c, oh, ow]
    sliced = tensor.ExtractSliceOp.build(
        operands=[source, [], [], []],
        result_types=[TensorType(source.type.get_element_type(), shape)],  # type: ignore[attr-defined]
        properties={
            "static_offsets": DenseArrayBase.from_list(i64, [0] * 4),
            "static_sizes": DenseArrayBase.from_list(i64, [n, c, oh, ow]),
            "static_strides": DenseArrayBase.from_list(i64, [1, 1, *strides]),
        },
    )
    return sliced.results[0], [sliced]


def reshaped_init(init: SSAValue, groups: list[list[int]] | None,
                  bias_dims: tuple[int, ...] = (0, 2, 3)) -> tuple[SSAValue, list[Operation]]:
    """The 1 x F x H x W init (or another conv output, whose bias broadcast adds `bias_dims`:
    a grouped conv's [G, F] bias over 1 x G x F x OH x OW adds (0, 3, 4)) reshaped by `groups`,
    rebuilt from what made it (torch-mlir's bias broadcast, a fill) so it stays clonable into
    the dispatch; a collapse otherwise."""
    owner = init.owner
    if groups is None or not isinstance(owner, Operation):
        return reshaped(init, groups)
    shape = init.type.get_shape()  # type: ignore[attr-defined]
    reduced = TensorType(init.type.get_element_type(), [prod(shape[d] for d in g) for g in groups])  # type: ignore[attr-defined]
    if owner.name == "linalg.broadcast" and tuple(owner.properties["dimensions"].get_values()) == bias_dims:
        empty = tensor.EmptyOp([], reduced)
        added = [i for i, group in enumerate(groups) if set(group) <= set(bias_dims)]  # the pixels
        bias = BroadcastOp(owner.operands[0], empty.tensor, DenseArrayBase.from_list(i64, added))
        return bias.results[0], [empty, bias]
    if owner.name == "linalg.fill":
        empty = tensor.EmptyOp([], reduced)
        fill = FillOp([owner.operands[0]], [empty.tensor], [reduced])
        return fill.results[0], [empty, fill]
    return reshaped(init, groups)


def output_groups(op: WindowOp, collapse_spatial: bool) -> list[list[int]] | None:
    if op.inputs[0].type.get_shape()[0] != 1:  # type: ignore[attr-defined]
        return None  # batched: the 4-D form, batch as a parallel loop
    return FLAT_GROUPS if collapse_spatial and not is_strided(op) else PIXEL_GROUPS


def matmul_form(op: WindowOp, collapse_spatial: bool) -> tuple[list[Operation], SSAValue]:
    groups = output_groups(op, collapse_spatial)
    pixels, new_ops = pixels_read(op, groups)
    weight = op.inputs[1]
    f, c = weight.type.get_shape()[:2]  # type: ignore[attr-defined]
    weight_2d = collapse(weight, [[0], [1, 2, 3]], TensorType(weight.type.get_element_type(), [f, c]))  # type: ignore[attr-defined]
    init, init_ops = reshaped_init(op.outputs[0], groups)
    new_ops += [weight_2d, *init_ops]
    maps = _maps(len(init.type.get_shape()) - 1 - int(groups is None), groups is None)  # type: ignore[attr-defined]
    loops = maps[0].num_dims
    generic = GenericOp(
        [pixels, weight_2d.results[0]],
        [init],
        op.regions[0].clone(),
        [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr.parallel()] * (loops - 1) + [IteratorTypeAttr.reduction()],
        [init.type],
    )
    new_ops.append(generic)
    if groups is None:
        return new_ops, generic.results[0]
    expand = expand_to(generic.results[0], groups, op.results[0].type)  # type: ignore[arg-type]
    return [*new_ops, expand], expand.results[0]


def erase_dead_init_chain(op: Operation | object, rewriter: PatternRewriter) -> None:
    """The replaced conv's bias broadcast / fill and their `tensor.empty`, once unused (left
    alive, region formation would give each a dispatch of its own)."""
    worklist = [op]
    while worklist:
        current = worklist.pop()
        if not isinstance(current, Operation) or current.parent is None:
            continue
        init_like = current.name in ("linalg.broadcast", "linalg.fill", "tensor.empty") or du.is_pure_broadcast_generic(current)
        if not init_like or any(r.uses for r in current.results):
            continue
        worklist.extend(v.owner for v in current.operands)
        rewriter.erase(current)


def replace_conv(op: Operation, new_ops: list[Operation], result: SSAValue, rewriter: PatternRewriter,
                 statistic: str) -> None:
    """Replace the conv `op` by `new_ops` computing `result`, drop its now dead init chain and
    count the rewrite under `statistic`."""
    old_init = op.operands[-1].owner
    rewriter.replace(op, new_ops, [result])
    erase_dead_init_chain(old_init, rewriter)
    pass_statistics.count(statistic)


@dataclass
class Conv1x1ToMatmul(RewritePattern):
    collapse_spatial: bool
    choice: MatmulChoice

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_1x1_conv(op) or not self.choice.wants(op):  # type: ignore[arg-type]
            return
        new_ops, result = matmul_form(op, self.collapse_spatial)  # type: ignore[arg-type]
        replace_conv(op, new_ops, result, rewriter, "1x1 convs as matmul")


@dataclass(frozen=True)
class LinalgConv1x1ToMatmulPass(ModulePass):
    """Rewrite 1x1 NCHW convolutions (any stride) as matmul-like contractions.

    Options:
      collapse-spatial -- at stride 1 and batch 1, contract over the flattened pixels
                          (F x C . C x H*W, IREE's own form) and carry the flat layout through
                          the elementwise consumers (`sink_flat_reshapes`), so the epilogue
                          joins the matmul's dispatch. Default true. false: keep H and W
                          apart (F x H x W), IREE tiles those badly at small H, W.
      min-channels     -- rewrite only convs over at least this many input channels (24).
      max-filters      -- rewrite only convs with at most this many output channels (1024).
      strided          -- also rewrite strided 1x1 convs (strided slice + matmul). Default
                          false: measured 10-30x slower than the conv in our regions.
      padded-min-pixels -- keep a conv that only a tensor.pad reads (through its epilogue)
                          and has at least this many output pixels (16): IREE forms it and
                          writes the pad in its dispatch. 0: rewrite those too.
      padded-as-matmul -- a stride-1 conv only a tensor.pad reads (and not left to IREE) is
                          rewritten whatever min-channels and max-filters say, so its
                          region writes the pad: no copy dispatch (the fewest-dispatch
                          pipelines). Default false.
    (`min-channels=1 max-filters=<large> strided=true padded-min-pixels=0`: every 1x1 conv.)
    """

    name = "linalg-conv-1x1-to-matmul"

    collapse_spatial: bool = True
    min_channels: int = 24
    max_filters: int = 1024
    strided: bool = False
    padded_min_pixels: int = MIN_PIXELS
    padded_as_matmul: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        choice = MatmulChoice(self.min_channels, self.max_filters, self.strided, self.padded_min_pixels,
                              self.padded_as_matmul)
        pattern = Conv1x1ToMatmul(self.collapse_spatial, choice)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        if self.collapse_spatial:
            PatternRewriteWalker(SinkFlatExpand()).rewrite_module(op)
