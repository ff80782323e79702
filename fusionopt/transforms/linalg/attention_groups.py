"""Grouped-query attention read from the shared K/V heads, for `linalg-raise-attention`.

Llama-family decoders keep H query heads but only Hkv = H / G key and value heads, and their
exports repeat each K/V head G times before the attention (transformers' `repeat_kv`:
Unsqueeze, Expand, Reshape). After elementwise fusion that repeat is an all-parallel generic
whose value ignores its group loop (a broadcast, maybe with RoPE or a transpose fused in),
followed by the `tensor.collapse_shape` that merges (kv head, group) into the H heads. Raised as
is, the attention reads a materialised copy of K and V G times as large.

IREE's attention takes any number of M dims (a dim of Q and the output that K lacks), so the
head dim h splits into the kv head (a batch dim) and the group g (an M dim):

    Q [.., H, S, D] -> expand -> [.., Hkv, G, S, D]    map (.., b, g, m, k1)
    K, V: the repeat's generic without its group loop  map (.., b, k2, k1) / (.., b, k2, n)
    out [.., Hkv, G, ..]        -> collapse -> the original [.., H, ..]

The split follows the collapse's order: query head h reads kv head h // G when the kv head is
the outer dim of the merged pair (repeat_kv's order), h % Hkv when the group is (a tiled
repeat); K and V must be repeated in the same order and sizes. Nothing is rounded differently:
each score and output element is the same sum over the same K/V values.

Relies on, else the attention is raised reading the repeat's copy as before: the repeat's
generic and the merging collapse (through unit-dim reshapes) have no other reader; the generic
is all-parallel with an identity output map, does not read its init, and its value depends on
the kv head loop but not on the group loop; a mask, if any, is the same for every head (its map
lacks h); no NaN guard on the probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt.dialects.linalg_generic import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import expand, moves_non_unit_dims, reassociation
from fusionopt.transforms.linalg.attention_operands import Chain, read_source, shape, through_reshape
from fusionopt.transforms.linalg.attention_pieces import owner_op, use_count
from fusionopt.transforms.linalg.linalg_shrink_broadcast_generics import (
    loops_the_value_depends_on,
    reads_its_init,
    renumber_index_ops,
    without_dims,
)


@dataclass
class Repeat:
    """K or V as a head repeat: `generic`'s result, merged by `merge`, is the operand."""

    generic: Operation
    dims: list[int]  # per operand dim, the generic's result dim (the kv head's for the head dim)
    group: int  # the generic's loop (= result dim) the value ignores
    sizes: tuple[int, int]  # the merged pair's sizes, outer first
    kv_outer: bool  # the kv head is the outer dim of the pair: query head h reads h // G


def _repeating_generic(value: SSAValue) -> Operation | None:
    op = owner_op(value)
    if op is None or op.name != "linalg.generic" or len(op.results) != 1 or use_count(value) != 1:
        return None
    if not du.is_all_parallel(op) or not du.is_identity_map(du.indexing_maps(op)[-1]) or reads_its_init(op):
        return None
    return op


def find_repeat(operand: SSAValue, head: int) -> Repeat | None:
    """`operand` as the merge of a repeat along its dim `head`, else None."""
    value, dims = operand, list(range(len(shape(operand))))
    while (op := owner_op(value)) is not None and use_count(value) == 1:
        if op.name in ("tensor.collapse_shape", "tensor.expand_shape") and not moves_non_unit_dims(op):
            if (moved := through_reshape(op, dims)) is None:
                return None
            value, dims = op.operands[0], moved
            continue
        if op.name != "tensor.collapse_shape":
            return None
        return _merged_repeat(op, dims, head)
    return None


def _merged_repeat(merge: Operation, dims: list[int], head: int) -> Repeat | None:
    source = shape(merge.operands[0])
    groups = reassociation(merge)
    pairs = [[d for d in g if source[d] != 1] for g in groups]
    if any(len(p) > 1 for i, p in enumerate(pairs) if i != dims[head]) or len(pairs[dims[head]]) != 2:
        return None
    generic = _repeating_generic(merge.operands[0])
    if generic is None or any(not pairs[j] for j in dims):
        return None
    outer, inner = pairs[dims[head]]
    used = loops_the_value_depends_on(generic)
    if (outer in used) == (inner in used):
        return None
    kv, group = (outer, inner) if outer in used else (inner, outer)
    picked = [kv if j == dims[head] else pairs[j][0] for j in dims]
    return Repeat(generic, picked, group, (source[outer], source[inner]), kv == outer)


@dataclass
class SharedHeads:
    head: int  # the attention's head dim (batch), which becomes the kv head
    key: Repeat
    value: Repeat


def shared_heads(maps: dict[str, AffineMap], key: SSAValue, value: SSAValue) -> SharedHeads | None:
    """K and V repeated along one head dim of the attention, in the same order and sizes."""
    k_dims = [e.position for e in maps["key"].results]  # type: ignore[attr-defined]
    v_dims = [e.position for e in maps["value"].results]  # type: ignore[attr-defined]
    q_dims = {e.position for e in maps["query"].results}  # type: ignore[attr-defined]
    mask_dims = {e.position for e in maps["mask"].results} if "mask" in maps else set()  # type: ignore[attr-defined]
    for position, head in enumerate(k_dims):
        if head not in v_dims or head not in q_dims or head in mask_dims:
            continue
        k_rep = find_repeat(key, position)
        v_rep = find_repeat(value, v_dims.index(head)) if k_rep is not None else None
        if v_rep is not None and (k_rep.sizes, k_rep.kv_outer) == (v_rep.sizes, v_rep.kv_outer):  # type: ignore[union-attr]
            return SharedHeads(head, k_rep, v_rep)  # type: ignore[arg-type]
    return None


def _shift(e: AffineExpr, head: int) -> AffineDimExpr:
    position = e.position  # type: ignore[attr-defined]
    return AffineDimExpr(position + 1 if position > head else position)


def widened(m: AffineMap, head: int, kv_outer: bool | None = None) -> AffineMap:
    """`m` over one more dim (the group, numbered head + 1); with `kv_outer` given, the head
    result is split into (kv head, group) in that order."""
    results: list[AffineExpr] = []
    for e in m.results:
        if kv_outer is not None and e.position == head:  # type: ignore[attr-defined]
            pair = [AffineDimExpr(head), AffineDimExpr(head + 1)]
            results += pair if kv_outer else pair[::-1]
        else:
            results.append(_shift(e, head))
    return AffineMap(m.num_dims + 1, 0, tuple(results))


def split_type(t: TensorType, position: int, sizes: tuple[int, int]) -> TensorType:
    dims = list(t.get_shape())
    return TensorType(t.get_element_type(), dims[:position] + list(sizes) + dims[position + 1:])


def split_groups(rank: int, position: int) -> list[list[int]]:
    """Reassociation of a rank-`rank` shape whose dim `position` is split in two."""
    return [[j] if j < position else [j, j + 1] if j == position else [j + 1] for j in range(rank)]


def split_heads(value: SSAValue, m: AffineMap, plan: SharedHeads, rewriter: Rewriter, at: InsertPoint) -> tuple[SSAValue, AffineMap]:
    """Q: its head dim expanded into the (kv head, group) pair, and its map over both."""
    position = [e.position for e in m.results].index(plan.head)  # type: ignore[attr-defined]
    vtype = value.type
    assert isinstance(vtype, TensorType)
    op = expand(value, split_groups(len(vtype.get_shape()), position), split_type(vtype, position, plan.key.sizes))
    rewriter.insert_op(op, at)
    return op.results[0], widened(m, plan.head, plan.key.kv_outer)


def _without_group(generic: Operation, group: int, rewriter: Rewriter) -> SSAValue:
    """The repeat's generic over every loop but the group loop (the one it ignores)."""
    maps = du.indexing_maps(generic)
    n_in = len(du.dps_inputs(generic))
    full = generic.results[0].type
    assert isinstance(full, TensorType)
    rank = len(full.get_shape())
    kept = [d for d in range(rank) if d != group]
    empty = tensor.EmptyOp([], TensorType(full.get_element_type(), [full.get_shape()[d] for d in kept]))
    new_maps = [without_dims(m, [group]) for m in maps[:n_in]] + [AffineMap.identity(rank - 1)]
    iterators = [generic.properties["iterator_types"].data[d] for d in kept]  # type: ignore[attr-defined]
    body = generic.regions[0].clone()
    shrunk = GenericOp(list(du.dps_inputs(generic)), [empty.tensor], body, ArrayAttr([AffineMapAttr(m) for m in new_maps]),
                       iterators, [empty.tensor.type])
    renumber_index_ops(shrunk, kept)
    rewriter.insert_op([empty, shrunk], InsertPoint.before(generic))
    return shrunk.results[0]


def read_shared(rep: Repeat, m: AffineMap, plan: SharedHeads, rewriter: Rewriter, at: InsertPoint) -> tuple[SSAValue, AffineMap]:
    """K or V: the repeat computed once per kv head (unit dims dropped) and the map reading it."""
    source = _without_group(rep.generic, rep.group, rewriter)
    dims = [d - 1 if d > rep.group else d for d in rep.dims]
    return read_source(Chain(source, dims, copies=1), widened(m, plan.head), rewriter, at)
