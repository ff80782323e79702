"""`linalg-grouped-conv-to-im2col`: a grouped convolution (`linalg.conv_2d_ngchw_gfchw`, batch 1)
becomes a per-group patch gather and a batched matmul, G x [F x (C*KH*KW)] . [(C*KH*KW) x (OH*OW)].

IREE 3.13's llvm-cpu kernel for a grouped conv runs at 3-5 GFLOP/s on one AVX-512 core, in every
form it is handed: the named op's generic (`linalg-generalize-grouped-convs`, IREE's own form),
a channels-last generic and `linalg.conv_2d_nhwgc_gfhwc` alike. Gathered first, each group is a
small matmul IREE gives its batched matmul kernel. Measured as single dispatches (llvm-cpu, one
thread, process time; the gather's dispatch included): regnet_x_400mf's 25 groups of 16 channels
at 7x7 pixels 1.2 -> 0.39 ms, its 10 groups of 16 at 14x14 1.9 -> 0.42 ms, resnext50's 32 groups
of 32 at 7x7 7-8 -> 0.8-1.2 ms, its 32 groups of 4 at 56x56 7-11 -> 5-7 ms. Rewrite, static
shapes:

    %p  = linalg.generic {(g, c, kh, kw, oh, ow): x(0, g, c, oh*sh + kh*dh, ow*sw + kw*dw)
                          -> p(g, c, kh, kw, oh, ow)}          (a copy, its own dispatch)
    %pm = tensor.collapse_shape %p [[0], [1, 2, 3], [4, 5]]  : G x (C*KH*KW) x (OH*OW), free
    %wm = tensor.collapse_shape %w [[0], [1], [2, 3, 4]]     : G x F x (C*KH*KW), free
    %r  = linalg.generic {(g, f, p, k): wm(g, f, k) * pm(g, k, p) -> out(g, f, p)}
    %o  = tensor.expand_shape %r [[0, 1], [2], [3, 4]]       : back to 1 x G x F x OH x OW

The matmul is filter first, as `linalg-strided-conv-to-im2col` writes a dense conv's (the
output's pixels are the vectorised columns, the conv's own NCHW order: no transpose after). Its
init is the conv's, rebuilt flat (a fill, a bias broadcast) or collapsed. Every product of the conv is computed
once, exactly as before: only the order of the sum over (c, kh, kw) may change, as in any conv
kernel. Not rewritten: batch > 1, `ngchw_fgchw` filters, dynamic shapes, groups narrower than
`min-group-channels` input channels. In the CPU pipelines `linalg-conv-channels-last` runs first
and takes the groups of 16 filters or more in the same gather + matmul form channels last
(`grouped_conv_channels_last`); this pass takes the narrower ones (ResNeXt's 4 and 8).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.transforms.common.window_ops import static_window_shapes
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.linalg_strided_conv_to_im2col import gather_patches, im2col_form

GROUPED_CONV = "linalg.conv_2d_ngchw_gfchw"


def is_grouped_im2col_candidate(op: Operation, min_group_channels: int) -> bool:
    """A batch-1, static `ngchw_gfchw` conv with at least `min_group_channels` input channels per
    group."""
    shapes = static_window_shapes(op, GROUPED_CONV)
    return shapes is not None and shapes[0][0] == 1 and shapes[0][2] >= min_group_channels


@dataclass
class GroupedConvToIm2col(RewritePattern):
    min_group_channels: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_grouped_im2col_candidate(op, self.min_group_channels):
            return
        gather_ops, patches = gather_patches(op, groups=1)  # type: ignore[arg-type]
        new_ops, result = im2col_form(op, gather_ops, patches, groups=1)  # type: ignore[arg-type]
        replace_conv(op, new_ops, result, rewriter, "grouped convs as im2col + batched matmul")


@dataclass(frozen=True)
class LinalgGroupedConvToIm2colPass(ModulePass):
    """Rewrite batch-1 grouped convs (`ngchw_gfchw`) as a per-group patch gather + batched
    matmul (module docstring).

    Options:
      min-group-channels -- rewrite only convs with at least this many input channels per
                            group (1: all).
    """

    name = "linalg-grouped-conv-to-im2col"

    min_group_channels: int = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = GroupedConvToIm2col(self.min_group_channels)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
