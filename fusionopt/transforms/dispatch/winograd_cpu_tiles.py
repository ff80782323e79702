"""`dispatch-winograd-cpu-tiles`: the Winograd transforms' regions (`winograd_transforms.py`) get
IREE llvm-cpu configs. An input transform: register tiles of 4 k x 16 channels, workgroups of
4 k x 7 tile rows x all tile columns x 64 channels. An output transform's region root (the
transform, or the conv's epilogue over its loops): register tiles of one tile's 2 x 2 outputs
x 16 filters, workgroups of 7 tile rows x all columns x 64 filters.

The input transform is an all-parallel generic over loops (k, ty, tx, c) reading 16 strided
image slices and 16 coefficient vectors over k. IREE 3.13's own config walks one k at a time:
each step reloads the 16 image vectors for one output vector. Four k a register tile read them
once for four: 16 x 28 x 28 x 64 380 -> 310 us a call as a single dispatch, resnet18's four at
56x56 285 -> 232 (one Zen 4 core, HAL profile). The output transform's region is tiled by its
root, the epilogue (bias, ReLU, residual) that `linalg-sink-reshapes` makes iterate the
transform's loops; IREE's own config for it took resnet18's 56x56 ones 240 us, this one 78-88
(the transform alone, IREE's config: 235; `bench/winograd_convs.py`).

Applied to regions with no config yet: an input transform with 16 k and channels a multiple of
16; an output transform whose region returns it or an all-parallel epilogue writing its blocks
(1 x TH x 2 x TW x 2 x F, identity map), filters a multiple of 16. CPU pipelines only.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.matmul_cpu_tiles import in_region_unconfigured
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import set_cpu_config, static_f32_shape
from fusionopt.transforms.linalg.winograd_transforms import is_input_transform, is_output_transform

K_TILE = 4  # k a register tile
LANES = 16  # f32 lanes of an AVX-512 vector
WORKGROUP_ROWS = 7  # tile rows a workgroup
WORKGROUP_CHANNELS = 64


def input_transform_tiles(shape: tuple[int, ...]) -> dict[str, list[int]]:
    """Loops (k, [n,] ty, tx, c): one image a workgroup, 4 k x 16 channels a register tile."""
    *lead, rows, columns, channels = shape[1:]
    ones = [1] * len(lead)
    return {"distribution": [K_TILE, *ones, min(WORKGROUP_ROWS, rows), columns, min(WORKGROUP_CHANNELS, channels)],
            "vector_common_parallel": [K_TILE, *ones, 1, 1, LANES]}


def output_root(transform: Operation) -> Operation | None:
    """The op IREE tiles as the root of an output transform's region: the region's last op, the
    transform itself or its epilogue over the same loops (at batch 1 a leading unit loop added:
    its 1 x TH x 2 x TW x 2 x F result), which `linalg-sink-reshapes` brings into them; else
    None (an epilogue reading the blocks collapsed, or transposed to NCHW)."""
    region = transform.parent_op()
    if not isinstance(region, DispatchRegionOp):
        return None
    returned = region.body.block.last_op.operands  # type: ignore[union-attr]
    root = returned[0].owner if len(returned) == 1 else None
    if root is transform:
        return root
    if not isinstance(root, Operation) or root.name != "linalg.generic" or not du.is_all_parallel(root):
        return None
    blocks = tuple(transform.results[0].type.get_shape())  # type: ignore[attr-defined]
    out_map = du.indexing_maps(root)[-1]
    shape = static_f32_shape(root.results[0])
    if shape is None or shape not in ((1, *blocks), blocks) or out_map != AffineMap.identity(len(shape)):
        return None
    return root


def output_tiles(rank: int, blocks: tuple[int, ...]) -> dict[str, list[int]]:
    """Loops ([1,] [n,] ty, p, tx, q, f): workgroups of one image's 7 tile rows x all columns x
    64 filters, register tiles of a tile's 2 x 2 outputs x 16 filters."""
    rows, _, columns, _, filters = blocks[-5:]
    lead = [1] * (rank - 5)
    return {"distribution": [*lead, min(WORKGROUP_ROWS, rows), 2, columns, 2, min(WORKGROUP_CHANNELS, filters)],
            "vector_common_parallel": [*lead, 1, 2, 1, 2, LANES]}


@dataclass
class ConfigureInputTransform(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_input_transform(op) or not in_region_unconfigured(op):
            return
        shape = static_f32_shape(op.results[0])
        if shape is not None and shape[-1] % LANES == 0:
            set_cpu_config(op, rewriter, input_transform_tiles(tuple(shape)), "DoubleTilingExpert",
                           "Winograd input transforms given 4 k x 16 channel register tiles")


@dataclass
class ConfigureOutputRoot(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_output_transform(op) or (root := output_root(op)) is None or not in_region_unconfigured(root):
            return
        blocks = tuple(op.results[0].type.get_shape())  # type: ignore[attr-defined]
        if blocks[-1] % LANES == 0:
            rank = len(root.results[0].type.get_shape())  # type: ignore[attr-defined]
            set_cpu_config(root, rewriter, output_tiles(rank, blocks), "DoubleTilingExpert",
                           "Winograd output transforms given 2 x 2 output x 16 filter register tiles")


@dataclass(frozen=True)
class DispatchWinogradCpuTilesPass(ModulePass):
    """Formed Winograd input transforms -> 4 k x 16 channel register tiles; output transforms'
    region roots -> 2 x 2 outputs x 16 filters (module docstring). No options."""

    name = "dispatch-winograd-cpu-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConfigureInputTransform(), apply_recursively=False).rewrite_module(op)
        PatternRewriteWalker(ConfigureOutputRoot(), apply_recursively=False).rewrite_module(op)
