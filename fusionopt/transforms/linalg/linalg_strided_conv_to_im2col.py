"""`linalg-strided-conv-to-im2col`: a strided k x k `linalg.conv_2d_nchw_fchw` (and by default a
stride-1 one, `stride-one`) becomes a patch gather and a matmul-like contraction.

IREE 3.13's llvm-cpu conv kernel is slow on strided windows: per output, a stride-2 3x3 conv
costs 3-5x a stride-1 one (resnet18's strided convs are ~40 % of its time,
bench/RESULTS.md "Strided convolutions as im2col + matmul"). Gathering the windows first
(im2col) makes the conv a plain F x (C*KH*KW) . (C*KH*KW) x (OH*OW) matrix multiply, which IREE
gives its matmul kernel: 0.11x-0.60x of the conv's time on every strided conv of the corpus
CNNs, gather included; space-to-depth (a stride-1 conv over a rearranged input and a zero-padded
filter) measured 0.41x-6.6x, and is not exact when a pixel is inf or NaN (the padded zero taps
multiply it). Rewrite, batch 1, static shapes:

    %p  = linalg.generic {(c, kh, kw, oh, ow): x(0, c, oh*sh + kh*dh, ow*sw + kw*dw)
                          -> p(c, kh, kw, oh, ow)}             (a pure copy, its own dispatch;
                                                                 a pad before the conv stays a copy)
    %pm = tensor.collapse_shape %p [[0, 1, 2], [3, 4]]       : (C*KH*KW) x (OH*OW), free
    %wm = tensor.collapse_shape %w [[0], [1, 2, 3]]           : F x (C*KH*KW), free
    %r  = linalg.generic {(f, p, c): wm(f, c) * pm(c, p) -> out(f, p)} ins(%wm, %pm) outs(init)
    %o  = tensor.expand_shape %r [[0, 1], [2, 3]]            : back to 1 x F x OH x OW

The contraction is a plain matmul, filter first: with the patches as the first operand (the
order `linalg-conv-1x1-to-matmul` writes) IREE 3.13 gave it a 2-4x slower kernel (e.g. resnet18's
64->128 conv: 0.34 vs 0.14 ms). Its bias init is rebuilt flat as the 1x1 pass does, and its
flat result is carried through the elementwise consumers the same way
(`SinkFlatExpand`), so the bias/ReLU/residual epilogue stays in the matmul's dispatch. Every
product of the conv is computed once, exactly as before: only the order of the sum over
(c, kh, kw) may change, as in any conv kernel.

Stride-1 k x k convs too (`stride-one`, default true): as single-conv modules they measured
0.44x-1.2x of the conv, but inside the models, where IREE's conv also writes its consumer's pad,
gather + matmul took 0.37x-1.0x of the conv's time on 14 of the 15 stride-1 conv shapes of the
corpus CNNs (resnet18's 256x4x4 0.38x, 512x2x2 0.55x) and 1.14x on one (squeezenet's 32 -> 128
at 7x7); whole models 0.67x (resnet18), 0.85x (inception_mini), 0.89x (squeezenet1_1), 0.94x
(resnet_mini) of the form without it, for 3-15 more dispatches (bench/RESULTS.md, "Stride-1
convs as im2col + matmul").

Not rewritten: 1x1 windows (`linalg-conv-1x1-to-matmul`), batch > 1, grouped/depthwise, NHWC,
dynamic shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import WindowOp
from fusionopt.transforms.common.reshapes import collapse, expand
from fusionopt.transforms.linalg.conv_1x1_sinking import SinkFlatExpand
from fusionopt.transforms.linalg.im2col_op_form import (
    MAX_FILTERS,
    MAX_PATCH,
    im2col_patches,
    is_few_filter_conv,
    stem_stays_conv,
)
from fusionopt.transforms.common.window_ops import CONV_NAME, static_window_shapes
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import (
    replace_conv,
    reshaped_init,
)


def is_im2col_candidate(op: Operation, stride_one: bool) -> bool:
    """A batch-1, static NCHW/FCHW conv with a window larger than 1x1, strided (or of any stride
    when `stride_one`)."""
    shapes = static_window_shapes(op, CONV_NAME)
    if shapes is None or shapes[0][0] != 1:
        return False
    if op.window_sizes() == (1, 1):  # type: ignore[attr-defined]
        return False
    return stride_one or op.stride_values() != (1, 1)  # type: ignore[attr-defined]


def patch_maps(strides: tuple[int, ...], dilations: tuple[int, ...], groups: int = 0) -> tuple[AffineMap, AffineMap]:
    """Loops ([g], c, kh, kw, oh, ow), with `groups` leading group loops (a grouped conv's): the
    input pixel each window tap reads, and the patch element."""
    count = groups + 5
    *lead, c, kh, kw, oh, ow = (AffineDimExpr(i) for i in range(count))
    rows = oh * strides[0] + kh * dilations[0]
    cols = ow * strides[1] + kw * dilations[1]
    return (AffineMap(count, 0, (AffineConstantExpr(0), *lead, c, rows, cols)),
            AffineMap(count, 0, (*lead, c, kh, kw, oh, ow)))


def matmul_maps(groups: int = 0) -> tuple[AffineMap, ...]:
    """Loops ([g], f, p, c): filter ([g], f, c), patches ([g], c, p), output ([g], f, p): a plain
    matmul, batched over `groups` leading group loops (a grouped conv's)."""
    count = groups + 3
    *lead, f, p, c = (AffineDimExpr(i) for i in range(count))
    return AffineMap(count, 0, (*lead, f, c)), AffineMap(count, 0, (*lead, c, p)), AffineMap(count, 0, (*lead, f, p))


def copy_body(element) -> Region:
    block = Block(arg_types=[element, element])
    block.add_op(YieldOp(block.args[0]))
    return Region(block)


def gather_patches(op: WindowOp, groups: int = 0) -> tuple[list[Operation], SSAValue]:
    """The im2col generic ([G x] C x KH x KW x OH x OW; `groups` leading group dims) and its
    collapse to [G x] (C*KH*KW) x (OH*OW), and the collapsed patches."""
    source = op.inputs[0]
    element = source.type.get_element_type()  # type: ignore[attr-defined]
    *lead, c = source.type.get_shape()[1 : 2 + groups]  # type: ignore[attr-defined]
    oh, ow = op.outputs[0].type.get_shape()[-2:]  # type: ignore[attr-defined]
    kh, kw = op.window_sizes()
    shape = TensorType(element, [*lead, c, kh, kw, oh, ow])
    empty = tensor.EmptyOp([], shape)
    maps = patch_maps(op.stride_values(), op.dilation_values(), groups)
    gather = GenericOp(
        [source], [empty.tensor], copy_body(element), [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr.parallel()] * (groups + 5), [shape],
    )
    flat_groups = [*([d] for d in range(groups)), [groups, groups + 1, groups + 2], [groups + 3, groups + 4]]
    flat = collapse(gather.results[0], flat_groups, TensorType(element, [*lead, c * kh * kw, oh * ow]))
    return [empty, gather, flat], flat.results[0]


def im2col_form(op: WindowOp, new_ops: list[Operation], patches: SSAValue,
                groups: int = 0) -> tuple[list[Operation], SSAValue]:
    """The filter-first matmul of the flat patches (made by `new_ops`; `groups` leading group
    dims: a grouped conv's batched matmul over [G, F, C, KH, KW] filters), and its expand back."""
    weight = op.inputs[1]
    *lead, f, c, kh, kw = weight.type.get_shape()  # type: ignore[attr-defined]
    weight_groups = [*([d] for d in range(groups + 1)), [groups + 1, groups + 2, groups + 3]]
    weight_flat = collapse(weight, weight_groups, TensorType(weight.type.get_element_type(), [*lead, f, c * kh * kw]))  # type: ignore[attr-defined]
    out_groups = [[0, 1], *([d] for d in range(2, groups + 2)), [groups + 2, groups + 3]]
    init, init_ops = reshaped_init(op.outputs[0], out_groups, bias_dims=(0, groups + 2, groups + 3))
    matmul = GenericOp(
        [weight_flat.results[0], patches], [init], op.regions[0].clone(),
        [AffineMapAttr(m) for m in matmul_maps(groups)],
        [IteratorTypeAttr.parallel()] * (groups + 2) + [IteratorTypeAttr.reduction()], [init.type],
    )
    back = expand(matmul.results[0], out_groups, op.results[0].type)  # type: ignore[arg-type]
    return [*new_ops, weight_flat, *init_ops, matmul, back], back.results[0]


@dataclass
class StridedConvToIm2col(RewritePattern):
    options: LinalgStridedConvToIm2colPass

    def gathers(self, op: Operation) -> bool:
        """`op` (not taken by the im2col op) becomes gather + matmul (the `gathers` option)."""
        return self.options.gathers == "all" or (self.options.gathers == "strided" and op.stride_values() != (1, 1))  # type: ignore[attr-defined]

    def takes_im2col_op(self, op: Operation) -> bool:
        opts = self.options
        return opts.im2col_op and is_few_filter_conv(op, opts.im2col_op_max_filters, opts.im2col_op_max_taps,
                                                     opts.im2col_op_pixel_multiple)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_im2col_candidate(op, self.options.stride_one):
            return
        absorbed = None
        if self.takes_im2col_op(op):
            patch_ops, patches, absorbed = im2col_patches(op, self.options.absorb_argument_pads,
                                                          self.options.absorb_pool_pads)
            statistic = "few-filter k x k convs as the im2col op + matmul"
        elif self.gathers(op) and not stem_stays_conv(op, self.options.im2col_op_pixel_multiple):
            patch_ops, patches = gather_patches(op)  # type: ignore[arg-type]
            statistic = "k x k convs as im2col + matmul"
        else:
            return
        new_ops, result = im2col_form(op, patch_ops, patches)  # type: ignore[arg-type]
        replace_conv(op, new_ops, result, rewriter, statistic)
        if absorbed is not None:  # now the im2col op's input padding
            kind = "argument" if isinstance(absorbed.operands[0], BlockArgument) else "pool"
            rewriter.erase(absorbed)
            pass_statistics.count(f"{kind} pads absorbed into the im2col op")


@dataclass(frozen=True)
class LinalgStridedConvToIm2colPass(ModulePass):
    """Rewrite k x k NCHW convolutions (batch 1; strided ones, and by default stride-1 ones) as
    a patch gather + matmul.

    Options:
      stride-one -- also rewrite stride-1 k x k convs. Default true (module docstring);
                         false: strided convs only.
      im2col-op -- convs with at most 32 filters and 144 taps (`im2col_op_form.py`) use
                         IREE's `iree_linalg_ext.im2col` op instead of the gather, which
                         `form-dispatch-regions` computes in the matmul's dispatch: one
                         dispatch per conv instead of two, as fast or faster. Default true.
      im2col-op-max-filters, im2col-op-max-taps -- the im2col op's bounds (32 filters, 144
                         taps: IREE recomputes the patches per filter tile, so more filters
                         lose to the gather; the op also needs a power-of-two pixel count).
      im2col-op-pixel-multiple -- also take convs whose output pixel count is a multiple of
                         this (0: none), within 32 filters and 144 taps whatever the bounds
                         above, and keep a stem (image input) at such a count past those bounds
                         IREE's conv, no gather: one dispatch each, IREE's count. IREE builds
                         those op regions too, but at 112x112 the op is 2.5x-2.9x slower than
                         gather + matmul, and past the bounds slower than IREE's own conv
                         (`im2col_op_form.py`), so only the fewest-dispatch pipeline sets it (64).
      absorb-argument-pads -- a pad of a function argument (the image) read only by a conv
                         the im2col op takes becomes the op's input padding: no copy dispatch
                         (none precedes the pad that could write it), but the stem measured
                         1.5x slower per dispatch in mobilenet_mini (bench/RESULTS.md, "CNNs:
                         pads written by contraction regions, the im2col op"). Default false.
      absorb-pool-pads -- the same for a pad of a pooling op's result (resnet18's max pool,
                         which its residual add reads too): IREE 3.13 fails to build a pool
                         region storing its result both plain and padded, so the pad is a
                         copy dispatch otherwise. But IREE's padded read makes resnet18's
                         conv after the pool 3.8x slower (+650 us against a 2 us copy;
                         bench/RESULTS.md, "CNNs: concats written into their pool's padded
                         buffer"), so no pipeline takes it. Default false.
      gathers -- which convs the im2col op does not take become gather + matmul (two
                         dispatches): `all` (default), `strided` (stride-1 ones stay convs, one
                         dispatch: the fewest-dispatch pipelines) or `none` (strided ones too:
                         IREE's strided conv kernel, squeezenet1_1's stem 7x slower,
                         bench/RESULTS.md).
    """

    name = "linalg-strided-conv-to-im2col"

    stride_one: bool = True
    im2col_op: bool = True
    im2col_op_max_filters: int = MAX_FILTERS
    im2col_op_max_taps: int = MAX_PATCH
    im2col_op_pixel_multiple: int = 0
    gathers: str = "all"
    absorb_argument_pads: bool = False
    absorb_pool_pads: bool = False

    def __post_init__(self) -> None:
        if self.gathers not in ("all", "strided", "none"):
            raise ValueError(f"gathers must be all, strided or none, not '{self.gathers}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = StridedConvToIm2col(self)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        PatternRewriteWalker(SinkFlatExpand()).rewrite_module(op)
