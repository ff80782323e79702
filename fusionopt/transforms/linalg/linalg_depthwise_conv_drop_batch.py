"""`linalg-depthwise-conv-drop-batch`: a batch-1 `linalg.depthwise_conv_2d_nchw_chw` becomes a
C x OH x OW generic without the unit batch loop, when its output has enough pixels.

IREE's own DispatchCreation folds unit dims (FoldUnitExtentDims) before it forms dispatches,
so its depthwise convs are rank-3 generics; a named 4-D depthwise conv that we hand it inside
a pre-formed region keeps the unit batch loop, and IREE 3.13's llvm-cpu kernel for it measured
1.2-1.4x slower (mobilenet_mini's 16x16x48 3x3: 0.12 vs 0.09-0.11 ms per call in a
single-dispatch module; per dispatch in the model, bench/RESULTS.md). Rewrite, static shapes:

    %x3 = tensor.collapse_shape %x [[0, 1], [2], [3]]      : 1 x C x H x W -> C x H x W
    %r  = linalg.generic {(oh, ow, c, kh, kw): x3(c, oh*sh + kh*dh, ow*sw + kw*dw) * k(c, kh, kw)
                           -> out(c, oh, ow)}
    %o  = tensor.expand_shape %r [[0, 1], [2], [3]]         : back to 1 x C x OH x OW

The unit collapse is a free reshape between dispatches; `linalg-fold-unit-reshapes` (run
after this pass) folds the unit expand into the elementwise consumers, which then join the
generic's dispatch as they joined the conv's. The bias init is rebuilt rank-3
(`linalg_conv_1x1_to_matmul.reshaped_init`).

Option `min-pixels` (default 16): rewrite only convs with at least this many output pixels
(OH * OW). Per dispatch in mobilenet_mini (bench/RESULTS.md, "Depthwise convs as rank-3
generics"), the rank-3 form won from 4x4 outputs up (`4x4x144` 49 -> 36 us, `16x16x48`
184 -> 92 us) and lost at 2x2 (`2x2x336` 20 -> 24 us, `2x2x192` 3.5 -> 4.6 us), where the
named op's kernel is the faster one.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import WindowOp
from fusionopt.transforms.common.window_ops import static_window_shapes
from fusionopt.transforms.common.reshapes import expand
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import (
    PIXEL_GROUPS,
    replace_conv,
    reshaped,
    reshaped_init,
)

DEPTHWISE_NAME = "linalg.depthwise_conv_2d_nchw_chw"


def is_batch1_depthwise(op: Operation, min_pixels: int = 1) -> bool:
    """A static batch-1 NCHW depthwise conv with at least `min_pixels` output pixels."""
    shapes = static_window_shapes(op, DEPTHWISE_NAME)
    if shapes is None or shapes[0][0] != 1:
        return False
    out_h, out_w = shapes[-1][2:]
    return out_h * out_w >= min_pixels


def rank3_maps(strides: tuple[int, ...], dilations: tuple[int, ...]) -> tuple[AffineMap, ...]:
    """Loops (oh, ow, c, kh, kw): MLIR's depthwise order without the batch, as IREE's unit-dim
    folding leaves it (channels first, (c, oh, ow, ...), ran 2x slower than the named op)."""
    oh, ow, c, kh, kw = (AffineDimExpr(i) for i in range(5))
    rows = oh * strides[0] + kh * dilations[0]
    cols = ow * strides[1] + kw * dilations[1]
    return AffineMap(5, 0, (c, rows, cols)), AffineMap(5, 0, (c, kh, kw)), AffineMap(5, 0, (c, oh, ow))


def rank3_form(op: WindowOp) -> tuple[list[Operation], Operation]:
    pixels, new_ops = reshaped(op.inputs[0], PIXEL_GROUPS)
    init, init_ops = reshaped_init(op.outputs[0], PIXEL_GROUPS)
    new_ops += init_ops
    generic = GenericOp(
        [pixels, op.inputs[1]],
        [init],
        op.regions[0].clone(),
        [AffineMapAttr(m) for m in rank3_maps(op.stride_values(), op.dilation_values())],
        [IteratorTypeAttr.parallel()] * 3 + [IteratorTypeAttr.reduction()] * 2,
        [init.type],
    )
    back = expand(generic.results[0], PIXEL_GROUPS, op.results[0].type)  # type: ignore[arg-type]
    return [*new_ops, generic, back], back


@dataclass
class DepthwiseDropBatch(RewritePattern):
    min_pixels: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_batch1_depthwise(op, self.min_pixels):
            return
        new_ops, back = rank3_form(op)  # type: ignore[arg-type]
        replace_conv(op, new_ops, back.results[0], rewriter, "depthwise convs without the batch dim")


@dataclass(frozen=True)
class LinalgDepthwiseConvDropBatchPass(ModulePass):
    """Rewrite batch-1 NCHW depthwise convolutions as rank-3 generics.

    Options:
      min-pixels -- rewrite only convs with at least this many output pixels (16); smaller
                    ones keep the named op, whose kernel measured faster there.
    """

    name = "linalg-depthwise-conv-drop-batch"

    min_pixels: int = 16

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = DepthwiseDropBatch(self.min_pixels)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
