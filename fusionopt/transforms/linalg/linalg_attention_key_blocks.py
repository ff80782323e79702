"""`linalg-attention-key-blocks`: a long f32 `iree_linalg_ext.attention` reads K transposed (its
keys innermost) and, where the key block does not divide the keys, K and V padded with zero keys
up to whole blocks, the pads masked out (-inf added to their scores).

IREE 3.13's llvm-cpu backend runs the op as an online softmax over blocks of keys
(`dispatch-attention-cpu-tiles`). Reading K as [heads, head dim, keys], a block's scores
Q.K^T are vectors over the keys (32 at head dims up to 64, 16 at 128), an outer product per
head-dim step, where K as [keys, heads, head dim] gives dot products over the head dim that IREE
reduces lane by lane; a key count the block does not divide leaves a partial block in every
query row's walk. Measured on one Zen 4 core, one op, IREE 3.13 (`bench/RESULTS.md`, "Attention
over key blocks"): Whisper's encoder attention (8 heads, 1500 x 1500, head dim 64) 116 ms with
K as it is and 10 x 6 tiles, 62 ms transposed and padded to 1504 keys (2 query rows x 32 keys);
head dim 128 (4 heads) 205 -> 108 ms, head dim 32 (16 heads) 159 -> 66 ms; 12 heads x 128 keys
1.07 -> 0.83 ms; a ViT's 197 tokens (8 heads) 3.42 -> 1.57 ms.

The padded length also keeps K^T's rows apart in the cache: a row of 1024, 1536 or 512 keys
(4 KB, 6 KB, 2 KB) puts a block's 64 head-dim rows in a few L1 sets (1024 keys: 49.9 ms, padded
to 1056: 29.3 ms), so from 512 keys on the rows take one more block while their length in
64-byte lines shares a factor over 2 with 64 (`padded_keys`).

The op's value is unchanged: a padded key scores -inf and gets weight exp(-inf) = 0, and no
block is all padding (fewer pad keys than a block), so no running max is -inf. Only static f32
ops with one k1, k2 and n dim, head dims 32 to 128, a key count of at least one block, and where
keys are padded no mask of their own; for the llvm-cpu pipelines, on the attention whose scores
take at least `min-scores-bytes` (the pipeline gives the raise's bound). Copies of K (and V
where padded) are one pass over them each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import FloatAttr, IndexType, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from fusionopt import pass_statistics
from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.iree_linalg_ext import AttentionOp
from fusionopt.transforms.dispatch.attention_cpu_tiles import key_block, role_dims
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import static_f32_shape
from fusionopt.transforms.linalg.linalg_attention_value_rows import LargeScoresPass, scores_bytes, value_row_order
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy

F32_LINE = 16  # f32 elements in a 64-byte cache line
L1_SETS = 64  # sets of a 32 KB, 8-way L1 data cache with 64-byte lines
ALIASING_FROM = 512  # keys from which K^T's row stride is kept off powers of two (module docstring)


def padded_keys(keys: int, block: int) -> int:
    """`keys` rounded up to whole blocks; from ALIASING_FROM keys on, one more block at a time
    while a row's length in cache lines shares a factor over 2 with L1_SETS."""
    padded = -(-keys // block) * block
    while padded >= ALIASING_FROM and math.gcd(padded // F32_LINE, L1_SETS) > 2:
        padded += block
    return padded


def dim_positions(value_map: AffineMap) -> list[int]:
    return [e.position for e in value_map.results]  # type: ignore[union-attr]


def keys_innermost_order(op: AttentionOp, dims: dict[str, int]) -> list[int]:
    """The permutation of K's dims that puts its batch dims first (in order), then k1, then k2."""
    positions = dim_positions(op.operand_maps()["key"])
    batch = [i for i, d in enumerate(positions) if d not in (dims["k1"], dims["k2"])]
    return batch + [positions.index(dims["k1"]), positions.index(dims["k2"])]


def is_plain_read(op: AttentionOp) -> bool:
    """Q, K, V and the output static f32, read through projected permutations of dims."""
    maps = op.operand_maps()
    return all(static_f32_shape(v) is not None for v in (op.query, op.key, op.value, op.output)) and all(
        maps[r].is_projected_permutation() and all(isinstance(e, AffineDimExpr) for e in maps[r].results)
        for r in ("query", "key", "value", "output"))


@dataclass(frozen=True)
class KeyLayout:
    order: list[int]  # K's dims, keys innermost
    k2: int  # the op's key loop
    keys: int  # the op's keys
    padded: int  # keys after padding

    @property
    def transposes(self) -> bool:
        return self.order != sorted(self.order)

    @property
    def pads(self) -> bool:
        return self.padded != self.keys


def key_layout(op: AttentionOp) -> KeyLayout | None:
    """How `op` reads K over key blocks, None where it already does or is not taken."""
    if not is_plain_read(op) or (dims := role_dims(op.dim_classes(), sizes := op.loop_sizes())) is None:
        return None
    block = key_block(max(sizes[dims["k1"]], sizes[dims["n"]]))
    keys = sizes[dims["k2"]]
    if block is None or keys < block:
        return None
    layout = KeyLayout(keys_innermost_order(op, dims), dims["k2"], keys, padded_keys(keys, block))
    if layout.pads and op.mask is not None:  # its own mask is not padded here
        return None
    return layout if layout.transposes or layout.pads else None


def padded_with_zeros(value: SSAValue, axis: int, size: int) -> tensor.PadOp:
    source = value.type
    shape = list(source.get_shape())  # type: ignore[attr-defined]
    high = [0] * len(shape)
    high[axis] = size - shape[axis]
    block = Block(arg_types=[IndexType()] * len(shape))
    zero = arith.ConstantOp(FloatAttr(0.0, source.get_element_type()))  # type: ignore[attr-defined]
    block.add_ops([zero, tensor.YieldOp(zero.result)])
    shape[axis] = size
    return tensor.PadOp(value, [], [], Region(block), [0] * len(shape), high,
                        TensorType(source.get_element_type(), shape))  # type: ignore[attr-defined]


def permuted(value_map: AffineMap, order: list[int]) -> AffineMap:
    return AffineMap(value_map.num_dims, 0, tuple(value_map.results[i] for i in order))


class ReadKeysInBlocks(RewritePattern):
    def __init__(self, min_scores_bytes: int):
        self.min_scores_bytes = min_scores_bytes

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, AttentionOp) or (scores_bytes(op) or 0) < self.min_scores_bytes:
            return
        if (layout := key_layout(op)) is None:
            return
        maps = op.operand_maps()
        new_ops, key = transpose_copy(op.key, layout.order) if layout.transposes else ([], op.key)
        key_map = permuted(maps["key"], layout.order)
        value, value_map, mask = op.value, maps["value"], op.mask
        if layout.pads:
            new_ops.append(padded_with_zeros(key, len(layout.order) - 1, layout.padded))
            key = new_ops[-1].results[0]
            if (order := value_row_order(op)) is not None:
                copy_ops, value = transpose_copy(value, order)
                new_ops += copy_ops
                value_map = permuted(value_map, order)
            new_ops.append(padded_with_zeros(value, dim_positions(value_map).index(layout.k2), layout.padded))
            value = new_ops[-1].results[0]
            additive = np.where(np.arange(layout.padded) < layout.keys, 0.0, -np.inf).astype(np.float32)
            new_ops.append(arith.ConstantOp(numpy_to_dense(additive, TensorType(op.query.type.get_element_type(), [layout.padded]))))
            mask = new_ops[-1].results[0]
            maps["mask"] = AffineMap(maps["query"].num_dims, 0, (AffineDimExpr(layout.k2),))
        order = ["query", "key", "value", "scale"] + (["mask"] if mask is not None else []) + ["output"]
        maps = {**maps, "key": key_map, "value": value_map}
        new = AttentionOp(op.query, key, value, op.scale, mask, op.output, [maps[r] for r in order],
                          op.regions[0].clone())
        new.properties.update({k: v for k, v in op.properties.items() if k != "indexing_maps"})
        new.attributes.update(op.attributes)
        rewriter.replace_matched_op([*new_ops, new])
        pass_statistics.count("attention ops reading keys in blocks" + (" (padded)" if layout.pads else ""))


@dataclass(frozen=True)
class LinalgAttentionKeyBlocksPass(LargeScoresPass):
    """Long f32 attention -> K read transposed (keys innermost), K and V padded to whole key blocks
    with the pads masked (module docstring).

    Options:
      min-scores-bytes -- only attention whose scores take at least this many bytes (0: all).
    """

    name = "linalg-attention-key-blocks"
    pattern = ReadKeysInBlocks
