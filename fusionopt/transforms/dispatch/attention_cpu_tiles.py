"""`dispatch-attention-cpu-tiles`: a formed f32 `iree_linalg_ext.attention` dispatch gets an IREE
llvm-cpu lowering config that walks 8 query rows (fewer for head dims over 64) against a block of
8 or 16 keys, over whole head dims.

IREE 3.13's llvm-cpu backend runs an attention op as an online (flash-style) loop over key blocks
with the register tile its heuristic picks: 4 query rows x 16 output columns, 4 keys per step
(`vector_common_parallel = [1, 4, 0, 0, 16]`, `vector_reduction = [0, 0, 4, 0, 0]` for bert's
heads, seen with `--compile-to=executable-configurations`). Each 4-key step rescales the running
max, sum and output, and the 16-column tile splits P.V's head dim into pieces that each redo that
work, so the exp/rescale overhead dominates. Whole head dims with larger key blocks amortise it:
measured one attention op per module (bench/RESULTS.md, "Attention on CPU: register tiles"),
2.6x-7.8x faster at head dims 32 and 64, 33x at 128, 1.2x at 16.

The tile, by the larger head dim D (of Q.K^T and of P.V): keys per step k2 = 16 for D <= 32, else
8; query rows m = min(8, 4096 / (k2 * D)) (where that leaves a partial tile of M or K2 but another
tile of up to 12 rows divides both, that one: `dividing_tile`), so the m x k2 x D product vector
stays within 16 KB (IREE refuses vectors of 32 KB: "One or more operations with large vector
sizes"). Measured against neighbours: D = 32, m 8 x k2 16 against 4 x 16, 8 x 8, 4 x 32, 16 x 8
(0.39x of IREE's time against 0.49x-0.84x); D = 64, 8 x 8 against 4 x 16, 2 x 16, 16 x 4 (0.12x
against 0.14x-0.21x); D = 128, 4 x 8 against 8 x 4, 2 x 16, 4 x 4 (0.030x against 0.035x-0.050x).

Applied to a static f32 attention op directly in a `flow.dispatch.region`, without a config of its
own, with one k1, k2 and n dim (any batch dims; of several m dims, the largest is tiled and
the others walked one at a time like batch dims), D <= 256, M a multiple of the query-row tile
and K2 of the key block, or (`partial-tiles`) at least one of each: IREE masks the partial ones.
The workgroup takes up to `workgroup` query
rows and the whole head dim. The op's value is unchanged up to the order of its key-block sums
(IREE's online softmax rescales per block).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from fusionopt import pass_statistics
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.dialects.iree_linalg_ext import AttentionOp
from fusionopt.transforms.dispatch.matmul_cpu_tiles import whole_or_dividing
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import cpu_compilation_info, static_f32_shape

VECTOR_ELEMENTS = 4096  # 16 KB of f32: half of IREE llvm-cpu's largest vector
MAX_DIVIDING_ROWS = 12  # most query rows of a tile chosen to divide M (`dividing_tile`)
MIN_KEYS = 4  # fewest keys per step of such a tile (3 keys a step: 2.7x slower, Whisper)
MAX_HEAD_DIM = 256
ROLES = ("m", "k1", "k2", "n")


@dataclass(frozen=True)
class AttentionTile:
    rows: int  # query rows per register tile
    keys: int  # keys per online-softmax step

    @staticmethod
    def for_head_dim(head_dim: int) -> AttentionTile:
        keys = 16 if head_dim <= 32 else 8
        return AttentionTile(max(1, min(8, VECTOR_ELEMENTS // (keys * head_dim))), keys)


KEY_BLOCK_HEAD_DIMS = (32, 128)  # head dims read over key blocks, as measured (`key_block`)


def key_block(head_dim: int) -> int | None:
    """Keys a step where K is read with its keys innermost (`linalg-attention-key-blocks`): 32 at
    head dims 32-64, 16 up to 128 (two query rows then fill the vector budget), None outside."""
    if not KEY_BLOCK_HEAD_DIMS[0] <= head_dim <= KEY_BLOCK_HEAD_DIMS[1]:
        return None
    return 32 if head_dim <= 64 else 16


def keys_innermost(op: AttentionOp, k2: int) -> bool:
    """K is read with the key dim innermost."""
    last = op.operand_maps()["key"].results[-1]
    return getattr(last, "position", None) == k2


def role_dims(classes: dict[int, str], sizes: list[int]) -> dict[str, int] | None:
    """The one iteration dim of each of m, k1, k2 and n; of several m dims (grouped-query
    attention's query group and rows) the largest, the last of equals; None if another role
    has several."""
    dims: dict[str, list[int]] = {}
    for dim, role in sorted(classes.items()):
        dims.setdefault(role, []).append(dim)
    if any(len(dims.get(role, ())) != 1 for role in ROLES if role != "m") or not dims.get("m"):
        return None
    rows = max(dims["m"], key=lambda d: (sizes[d], d))
    return {**{role: dims[role][0] for role in ROLES}, "m": rows}


def is_configurable(op: AttentionOp) -> bool:
    """Static f32 Q, K, V and output, in a region, no config yet."""
    if "compilation_info" in op.attributes or not isinstance(op.parent_op(), DispatchRegionOp):
        return False
    return all(static_f32_shape(v) is not None for v in (op.query, op.key, op.value, op.output))


def dividing_tile(tile: AttentionTile, head_dim: int, m: int, k2: int) -> AttentionTile:
    """`tile` where it divides M and K2 or does not fit them once; else the tile of at least
    `tile.rows` and at most MAX_DIVIDING_ROWS query rows and at least MIN_KEYS keys that divides
    both, within the vector budget, with the most rows x keys (then the most keys); else `tile` (a
    prime length such as a ViT's 197 tokens keeps the partial tiles). A partial tile leaves a
    partial workgroup too, which IREE runs slowly: Whisper's encoder attention (8 heads, 1500 x 64)
    took 122 ms a layer with 8 x 8 (64-row workgroups), 75 ms with 10 x 6 (60-row workgroups), one
    thread; 12 x 5 83 ms, 15 x 4 91 ms, 20 x 3 201 ms, 16 x 4 (64-row workgroups again) 232 ms."""
    if not (m % tile.rows or k2 % tile.keys) or m < tile.rows or k2 < tile.keys:
        return tile
    candidates = [AttentionTile(rows, keys)
                  for rows in range(tile.rows, MAX_DIVIDING_ROWS + 1) if m % rows == 0
                  for keys in range(MIN_KEYS, VECTOR_ELEMENTS // (rows * head_dim) + 1) if k2 % keys == 0]
    return max(candidates, key=lambda t: (t.rows * t.keys, t.keys), default=tile)


def workgroup_rows(m: int, rows: int, workgroup: int) -> int:
    """Query rows per workgroup: the most whole register tiles up to `workgroup` that divide M
    (no partial workgroup), else as many as fit `workgroup`."""
    return whole_or_dividing(m, rows, workgroup, otherwise=max(rows, min(m, workgroup) // rows * rows))


def attention_tiles(op: AttentionOp, workgroup: int, chosen: AttentionTile,
                    partial: bool = False) -> dict[str, list[int]] | None:
    """IREE CPU tile lists for `op`, or None where the tile does not divide it (with `partial`:
    where it does not fit once; `chosen`'s zero fields: by the head dim)."""
    classes = op.dim_classes()
    sizes = op.loop_sizes()
    dims = role_dims(classes, sizes)
    if dims is None:
        return None
    head_dim = max(sizes[dims["k1"]], sizes[dims["n"]])
    m, k2 = sizes[dims["m"]], sizes[dims["k2"]]
    tile = AttentionTile.for_head_dim(head_dim)
    block = key_block(head_dim) if keys_innermost(op, dims["k2"]) else None
    if block is not None and k2 % block == 0:
        tile = AttentionTile(max(1, min(m, VECTOR_ELEMENTS // (block * head_dim))), block)
    elif not (chosen.rows or chosen.keys):
        tile = dividing_tile(tile, head_dim, m, k2)
    tile = AttentionTile(chosen.rows or tile.rows, chosen.keys or tile.keys)
    fits = m >= tile.rows and k2 >= tile.keys if partial else not (m % tile.rows or k2 % tile.keys)
    if head_dim > MAX_HEAD_DIM or not fits:
        return None
    rows_per_group = workgroup_rows(m, tile.rows, workgroup)
    distribution, parallel, reduction = [], [], []
    for dim, role in sorted(classes.items()):
        role = "batch" if role == "m" and dim != dims["m"] else role  # other m dims: one at a time
        distribution.append({"batch": 1, "m": rows_per_group, "n": sizes[dim]}.get(role, 0))
        parallel.append({"batch": 1, "m": tile.rows, "n": sizes[dim]}.get(role, 0))
        reduction.append(tile.keys if role == "k2" else 0)
    return {"distribution": distribution, "vector_common_parallel": parallel, "vector_reduction": reduction}


@dataclass(frozen=True)
class DispatchAttentionCpuTilesPass(ModulePass):
    """f32 attention regions -> IREE llvm-cpu tile of up to 8 query rows x 8-16 keys x whole head
    dims (up to 12 rows and 4-16 keys where those divide the lengths and 8 x 8 does not).

    Options:
      workgroup -- query rows per workgroup (64; rounded down to whole register tiles, then to
                   the most that divide M, if any do).
      rows      -- query rows per register tile (0: by the head dim, as above).
      keys      -- keys per online-softmax step (0: by the head dim).
      partial-tiles -- also where M or K2 leaves a partial tile (a ViT's 197 tokens), at least
                   one whole tile in each: IREE masks the rest. Default true. Measured on the
                   ViT-S/16's attention (6 heads, 197 x 64): 9.5 ms with 8 x 8, 144 ms with
                   IREE's own tile, 11.3-30.2 ms with all 197 rows per workgroup, 1 query row or
                   1 key per step.
    """

    name = "dispatch-attention-cpu-tiles"
    workgroup: int = 64
    rows: int = 0
    keys: int = 0
    partial_tiles: bool = True

    def __post_init__(self) -> None:
        if self.workgroup < 1 or self.rows < 0 or self.keys < 0:
            raise ValueError("workgroup must be positive and rows and keys not negative, not "
                             f"{(self.workgroup, self.rows, self.keys)}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        chosen = AttentionTile(self.rows, self.keys)
        for attention in [o for o in op.walk() if isinstance(o, AttentionOp)]:
            tiles = attention_tiles(attention, self.workgroup, chosen, self.partial_tiles) if is_configurable(attention) else None
            if tiles is None:
                continue
            attention.attributes["compilation_info"] = cpu_compilation_info(tiles, "LinalgExtTileAndVectorize")
            pass_statistics.count("attention ops given a CPU register tile")
