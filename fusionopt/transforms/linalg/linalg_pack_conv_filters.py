"""`linalg-pack-conv-filters`: a channels-last 1x1 conv over a constant filter reads the filter
packed in panels, [F/P, C, P], and computes its result as [N, H, W, F/P, P] (P = 64 or 32
filters, the wider that divides F), with IREE llvm-cpu's register tile of 4 pixels x 64 filters
(8 x 32).

IREE 3.13's CPU kernel for a 1x1 `linalg.conv_2d_nhwc_hwcf` (and our matmul-tiled generic of
`dispatch-conv-1x1-cpu-tiles`) reads the [C, F] filter row by row: each step of the reduction
over C jumps F x 4 bytes, a new page for every input channel once F >= 1024. With a constant
filter the layout is ours to choose, once, at compile time: packed, a workgroup's P filters are
one contiguous C x P panel, read in order and reused by every pixel of the workgroup. This is
what onnxruntime's MLAS does (its SGEMM packs B; its NCHWc convs pack filters in blocks of 16)
and what IREE's data tiling does at run time with argument weights. Single dispatches with a
ReLU epilogue (llvm-cpu, one thread, median of 5 interleaved rounds of 20 calls, unpacked ->
packed; bench/packed_weights.py): 7x7 1024 -> 2048 9.6 -> 1.9 ms, 14x14 1024 -> 512 4.1 -> 1.8
ms, 28x28 512 -> 256 2.2 -> 1.8 ms, 56x56 256 -> 128 1.9 -> 1.5 ms, 14x14 64 -> 384 0.13 -> 0.09
ms (bench/RESULTS.md, "Packed weights: single dispatches"). Not packed: 16-wide panels (one
vector of accumulators per pixel row, slower than IREE's kernel on regnet's 400 filters) and
convs from fewer than `min-channels` input channels (112x112 16 -> 96 was slower packed).

Rewrite (static shapes, batch 1, any stride s):

    %wp = arith.constant (the filter [1, 1, C, F] as [F/P, C, P])
    %r  = linalg.generic {(n, h, w, fo, fi, c): x(n, h*s, w*s, c) * wp(fo, c, fi)
                          -> out(n, h, w, fo, fi)} outs(init as [N, H, W, F/P, P])
    %o  = tensor.collapse_shape %r [[0], [1], [2], [3, 4]]

The collapse is free (row-major, no data moves): `linalg-sink-reshapes` moves it below the
conv's elementwise epilogue (bias, activation, residual add), which then computes in the packed
shape inside the conv's dispatch, and between dispatches it is a `flow.tensor.reshape`. The
generic carries its IREE lowering config (`#iree_codegen.compilation_info`, as
`dispatch-matmul-cpu-tiles` writes): workgroups of whole image rows (the fewest rows holding at
least `min-pixels` pixels) by one panel, register tiles of 4 pixels by one panel, remainders
peeled. Exact: every product of the conv is computed once and summed over C in the conv's order.
CPU pipelines only (a CUDA build rejects the config; GPUs tile for warps, not registers).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import Conv2DNhwcHwcfOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse
from fusionopt.transforms.dispatch.matmul_cpu_tiles import PEELING
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import cpu_compilation_info, static_f32_shape
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.linalg_pad_conv_filters import NARROW_PANEL, WIDE_PANEL
from fusionopt.transforms.linalg.padded_values import constant_from, init_as

# Filters per panel, widest first: 4 or 2 AVX-512 vectors of f32. 16-wide panels (one vector,
# regnet's 400 filters as 25 panels) measured slower than IREE's own kernel whole-model.
PANELS = (WIDE_PANEL, NARROW_PANEL)
ACCUMULATORS = 16  # vectors a register tile keeps: 4 pixels x 64 filters, 8 x 32 (the matmul tile's)
LANES = 16  # f32 lanes of an AVX-512 vector
# Reduction steps a register tile unrolls. With IREE's 16, LLVM hoists the 64 panel loads of
# the unrolled body ahead of their FMAs and spills accumulators to the stack (10 spill moves a
# step in resnext50's 14x14 1024 -> 512 conv); with 4 it does not. Measured on the zen5 VM (HAL
# profile, one thread, three alternating rounds): resnext50_32x4d's 14x14 1x1 convs 0.84x of the
# time, its 7x7 ones 0.85x, 28x28 0.94x, all its packed convs together 0.92x; regnet_x_400mf's
# 7x7 (8 x 32 tile) ~0.9x; vit_s16_6l's packed matmuls 0.93x-0.95x. Steps of 8 were no faster
# than 16; 1 and 2 alike 4 (bench/RESULTS.md, "Packed contractions: reduction steps of 4").
REDUCTION_STEP = 4


def register_rows(panel: int) -> int:
    """Pixels per register tile: the rows that fill the accumulators with one panel per row."""
    return ACCUMULATORS * LANES // panel


def is_packed_contraction(op: Operation) -> bool:
    """A contraction generic in the packed form these passes write: loops (..., F/P, P, C), the
    weight read as (F/P, C, P) and the output ending in (F/P, P)."""
    if op.name != "linalg.generic" or not du.is_contraction(op):
        return False
    maps = du.indexing_maps(op)
    loops = maps[-1].num_dims
    panel, lane, reduction = (AffineDimExpr(loops - 3), AffineDimExpr(loops - 2), AffineDimExpr(loops - 1))
    return tuple(maps[1].results) == (panel, reduction, lane) and tuple(maps[-1].results[-2:]) == (panel, lane)


def panel_width(filters: int) -> int | None:
    """The widest panel that divides the filter count, if that makes two or more panels (one
    panel is the filter's own layout: nothing to pack)."""
    panel = next((p for p in PANELS if filters % p == 0), None)
    return panel if panel is not None and filters > panel else None


def packable_panel(op: Operation, min_channels: int) -> int | None:
    """P for a static f32 batch-1 1x1 `conv_2d_nhwc_hwcf` over a constant filter with at least
    `min_channels` input channels whose filter count some panel width divides; None otherwise."""
    if not isinstance(op, Conv2DNhwcHwcfOp) or not is_dense_constant(op.inputs[1]):
        return None
    shapes = [static_f32_shape(v) for v in (*op.inputs, op.results[0])]
    if None in shapes or shapes[0][0] != 1 or shapes[1][:2] != (1, 1) or shapes[1][2] < min_channels:  # type: ignore[index]
        return None
    return panel_width(shapes[1][3])  # type: ignore[index]


def in_panels(array: np.ndarray, panel: int) -> np.ndarray:
    """[..., K, N] as [..., N/P, K, P]: panel j holds columns j*P .. j*P+P-1 of every row."""
    *leading, rows, columns = array.shape
    split = array.reshape(*leading, rows, columns // panel, panel)
    return np.ascontiguousarray(np.moveaxis(split, -2, -3))


def packed_weight(weight: SSAValue, panel: int) -> SSAValue:
    """A constant whose last two dims are [C, F] (leading unit dims dropped) as [F/P, C, P]."""
    return constant_from(weight, lambda array: in_panels(array.reshape(array.shape[-2:]), panel))


def packed_type(value: SSAValue, panel: int, rows: list[int] | None = None) -> TensorType:
    """[*rows, F/P, P] for a [..., F] value (rows: its leading dims unless given)."""
    *outer, filters = value.type.get_shape()  # type: ignore[attr-defined]
    return TensorType(value.type.get_element_type(), [*(outer if rows is None else rows), filters // panel, panel])  # type: ignore[attr-defined]


def packed_init(init: SSAValue, panel: int, rows: list[int] | None = None) -> tuple[list[Operation], SSAValue] | None:
    """A contraction's [..., F] init in the packed shape [*rows, F/P, P] (rows: its leading
    dims unless given): a fill of a packed empty, or a broadcast of a constant [F] bias
    reshaped to [F/P, P]; None for any other init."""
    return init_as(init, packed_type(init, panel, rows), lambda bias: bias.reshape(-1, panel))


def packed_compilation_info(tiles: dict[str, list[int]]):
    """IREE llvm-cpu's config for a packed contraction: these tiles, remainders peeled."""
    return cpu_compilation_info(tiles, "DoubleTilingExpert", PEELING)


def collapsed_panels(result: SSAValue, original: TensorType) -> Operation:
    """[..., F/P, P] back to [..., F]: a free row-major collapse."""
    rank = len(original.get_shape())
    groups = [[d] for d in range(rank - 1)] + [[rank - 1, rank]]
    return collapse(result, groups, original)


def packed_maps(strides: tuple[int, int]) -> list[AffineMapAttr]:
    """Loops (n, h, w, fo, fi, c): input (n, h*sh, w*sw, c), filter (fo, c, fi), output (n, h, w, fo, fi)."""
    n, h, w, fo, fi, c = (AffineDimExpr(i) for i in range(6))
    maps = (AffineMap(6, 0, (n, h * strides[0], w * strides[1], c)), AffineMap(6, 0, (fo, c, fi)),
            AffineMap(6, 0, (n, h, w, fo, fi)))
    return [AffineMapAttr(m) for m in maps]


def workgroup_rows(height: int, width: int, min_pixels: int) -> int:
    """The fewest whole rows of `width` pixels, a divisor of the height, holding at least
    `min_pixels` (all rows when no divisor does)."""
    return next((r for r in range(1, height + 1) if height % r == 0 and r * width >= min_pixels), height)


def packed_tiles(pixels: list[int], panel: int, min_pixels: int, reduction_step: int = REDUCTION_STEP
                 ) -> dict[str, list[int]]:
    """Tiles of a packed contraction over loops (*pixels, F/P, P, C): workgroups of the fewest
    whole innermost rows with `min_pixels` (outer pixel dims one at a time; a matmul's one row
    loop: its smallest divisor with that many) by one panel, register tiles of 4 (8) pixels by
    a 64 (32) wide panel, `reduction_step` input channels at a time."""
    if len(pixels) == 1:
        distribution, vector = [workgroup_rows(pixels[0], 1, min_pixels)], [register_rows(panel)]
    else:
        *outer, height, width = pixels
        distribution = [1] * len(outer) + [workgroup_rows(height, width, min_pixels), width]
        vector = [1] * (len(outer) + 1) + [register_rows(panel)]
    return {"distribution": [*distribution, 1, panel, 0], "vector_common_parallel": [*vector, 1, panel, 0],
            "vector_reduction": [0] * (len(pixels) + 2) + [reduction_step]}


@dataclass
class PackConvFilters(RewritePattern):
    min_pixels: int
    min_channels: int
    reduction_step: int = REDUCTION_STEP

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        panel = packable_panel(op, self.min_channels)
        init = packed_init(op.outputs[0], panel) if panel else None  # type: ignore[attr-defined]
        if panel is None or init is None:
            return
        init_ops, init_value = init
        weight = packed_weight(op.inputs[1], panel)  # type: ignore[attr-defined]
        generic = GenericOp(
            [op.inputs[0], weight], [init_value],  # type: ignore[attr-defined]
            rewriter.move_region_contents_to_new_regions(op.regions[0]),
            packed_maps(op.stride_values()),  # type: ignore[attr-defined]
            [IteratorTypeAttr.parallel()] * 5 + [IteratorTypeAttr.reduction()], [init_value.type],
        )
        _, height, width, _ = op.results[0].type.get_shape()  # type: ignore[attr-defined]
        tiles = packed_tiles([1, height, width], panel, self.min_pixels, self.reduction_step)
        generic.attributes["compilation_info"] = packed_compilation_info(tiles)
        result = collapsed_panels(generic.results[0], op.results[0].type)  # type: ignore[arg-type]
        replace_conv(op, [weight.owner, *init_ops, generic, result], result.results[0], rewriter,  # type: ignore[list-item]
                     "1x1 conv filters packed in panels")


@dataclass(frozen=True)
class LinalgPackConvFiltersPass(ModulePass):
    """Channels-last 1x1 convs over constant filters read the filter packed as [F/P, C, P]
    panels, with IREE llvm-cpu's 4 x 64 (8 x 32) register tile (module docstring).

    Options:
      min-pixels   -- a workgroup holds the fewest whole image rows with at least this many
                      pixels (28: 7x7 images one workgroup per panel, 14x14 two rows, larger
                      ones one row), so each panel is reused by that many pixels.
      min-channels -- pack only convs with at least this many input channels (32: with 16 or
                      24 the panel is a few cache lines either way and IREE's conv kernel was
                      as fast or faster).
      reduction-step -- input channels a register tile takes per unrolled step (4; IREE's
                      own 16 spills accumulators: REDUCTION_STEP).
    """

    name = "linalg-pack-conv-filters"

    min_pixels: int = 28
    min_channels: int = 32
    reduction_step: int = REDUCTION_STEP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = PackConvFilters(self.min_pixels, self.min_channels, self.reduction_step)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
