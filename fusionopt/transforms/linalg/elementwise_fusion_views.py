"""How views and data-movement ops map a result index tuple to the index they read.

Every function takes the op and the index tuple (`IndexTuple`, one `AffineExpr` per result
dimension, over the fused op's loop dims) at which the op's result is needed, and returns the
index tuple(s) at which its source is read. This is luminal's "stack of views", expressed as
affine composition: stacking views = composing these functions.

Pad and concat also return *validity conditions* (`Bound`s): the source value is only
meaningful where they hold; elsewhere the pad value (or another concat piece) is selected.
Reads under a condition use a clamped (`mod`) index so they stay in bounds everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from fusionopt.transforms.common.reshapes import reassociation
from fusionopt.transforms.linalg.elementwise_fusion_index import IndexSpace, IndexTuple


@dataclass(frozen=True)
class Bound:
    """The condition `lo <= expr < hi`."""

    expr: AffineExpr
    lo: int
    hi: int


@dataclass(frozen=True)
class GuardedRead:
    """Read `value` at `index` where all `bounds` hold (used by pad and concat)."""

    value: SSAValue
    index: IndexTuple
    bounds: tuple[Bound, ...]


def shape_of(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, TensorType)
    return tuple(value.type.get_shape())


def transpose_source_index(op: Operation, index: IndexTuple) -> IndexTuple:
    # linalg.transpose: result dim i is input dim permutation[i].
    perm = op.permutation.get_values()  # type: ignore[attr-defined]
    source = [AffineExpr.constant(0)] * len(perm)
    for result_dim, input_dim in enumerate(perm):
        source[input_dim] = index[result_dim]
    return tuple(source)


def broadcast_source_index(op: Operation, index: IndexTuple) -> IndexTuple:
    # linalg.broadcast: `dimensions` lists the result dims that the input does not have.
    added = set(op.dimensions.get_values())  # type: ignore[attr-defined]
    return tuple(e for dim, e in enumerate(index) if dim not in added)


def collapse_source_index(op: Operation, index: IndexTuple, space: IndexSpace) -> IndexTuple:
    """Delinearise each collapsed index into its group of source dims (floordiv/mod)."""
    source_shape = shape_of(op.operands[0])
    source: list[AffineExpr] = [AffineExpr.constant(0)] * len(source_shape)
    for result_dim, group in enumerate(reassociation(op)):
        for position, source_dim in enumerate(group):
            stride = prod(source_shape[d] for d in group[position + 1 :])
            quotient = space.floordiv(index[result_dim], stride)
            source[source_dim] = space.mod(quotient, source_shape[source_dim])
    return tuple(source)


def expand_source_index(op: Operation, index: IndexTuple) -> IndexTuple:
    """Linearise each group of expanded dims back into one source index (pure affine)."""
    result_shape = shape_of(op.results[0])
    source = []
    for group in reassociation(op):
        linear = AffineExpr.constant(0)
        for position, result_dim in enumerate(group):
            stride = prod(result_shape[d] for d in group[position + 1 :])
            linear = linear + index[result_dim] * stride
        source.append(linear)
    return tuple(source)


def sliced_dims(sizes: tuple[int, ...], result_shape: tuple[int, ...]) -> list[int | None]:
    """For each source dim, the result dim it becomes (None for a dropped unit dim).

    Greedy left-to-right matching like MLIR's rank-reduction mask; when unit dims are
    ambiguous any choice gives the same index (a unit dim is always read at its offset).
    """
    mapping: list[int | None] = []
    result_dim = 0
    for size in sizes:
        if result_dim < len(result_shape) and result_shape[result_dim] == size:
            mapping.append(result_dim)
            result_dim += 1
        else:
            mapping.append(None)
    return mapping


def slice_source_index(op: Operation, index: IndexTuple) -> IndexTuple:
    offsets = op.static_offsets.get_values()  # type: ignore[attr-defined]
    sizes = tuple(op.static_sizes.get_values())  # type: ignore[attr-defined]
    strides = op.static_strides.get_values()  # type: ignore[attr-defined]
    mapping = sliced_dims(sizes, shape_of(op.results[0]))
    source = []
    for dim, result_dim in enumerate(mapping):
        if result_dim is None:
            source.append(AffineExpr.constant(offsets[dim]))
        else:
            source.append(index[result_dim] * strides[dim] + offsets[dim])
    return tuple(source)


def pad_source_read(op: Operation, index: IndexTuple, space: IndexSpace) -> GuardedRead:
    """tensor.pad: the source is valid where `low <= i < low + size` in every padded dim."""
    low = op.static_low.get_values()  # type: ignore[attr-defined]
    high = op.static_high.get_values()  # type: ignore[attr-defined]
    source_shape = shape_of(op.operands[0])
    read: list[AffineExpr] = []
    bounds: list[Bound] = []
    for dim, size in enumerate(source_shape):
        shifted = index[dim] - low[dim]
        if low[dim] == 0 and high[dim] == 0:
            read.append(shifted)
            continue
        bounds.append(Bound(shifted, 0, size))
        read.append(space.clamp_into(shifted, size))
    return GuardedRead(op.operands[0], tuple(read), tuple(bounds))


def concat_source_reads(op: Operation, index: IndexTuple, space: IndexSpace) -> list[GuardedRead]:
    """tensor.concat: piece p is valid where `offset_p <= i_axis < offset_p + size_p`."""
    axis = op.dim.value.data  # type: ignore[attr-defined]
    reads = []
    offset = 0
    for piece in op.operands:
        size = shape_of(piece)[axis]
        shifted = index[axis] - offset
        read = list(index)
        read[axis] = space.clamp_into(shifted, size)
        reads.append(GuardedRead(piece, tuple(read), (Bound(shifted, 0, size),)))
        offset += size
    return reads
