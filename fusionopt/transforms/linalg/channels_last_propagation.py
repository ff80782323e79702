"""Activations kept channels last between the convs of `linalg-conv-channels-last`.

That pass leaves each channels-last conv between transposes; a transpose of an elementwise
result into NHWC is removed here by computing the elementwise op itself channels last (its
loops permuted: a ReLU, a residual add, a bias broadcast, a fill). Its other NCHW readers get
one transpose back, which `linalg-fuse-elementwise` folds into them as a permuted read. So a
chain of convs keeps its activations in NHWC, and only the readers that need NCHW (a flatten,
a conv left NCHW, the function's result) pay a permuted read. A transpose into NHWC of a
transpose back to NCHW cancels. A pad that only a conv reads moves below the conv's input
transpose (`permuted_pad`), so the transpose reads the unpadded image. Any rank from 4 up:
video models' [N, C, D, H, W] activations move to NDHWC alike (`channels_last_views` carries
them through the reshapes, crops and pads between their stacked convs).
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, TensorType, i64
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy

TO_NHWC = [0, 2, 3, 1]
TO_NCHW = [0, 3, 1, 2]


def is_copy_generic(op: Operation) -> bool:
    """A one-input all-parallel `linalg.generic` whose body yields its input element."""
    if op.name != "linalg.generic" or not du.is_elementwise_linalg(op) or len(du.dps_inputs(op)) != 1:
        return False
    block = op.regions[0].block
    return len(block.ops) == 1 and block.last_op.operands[0] is block.args[0]  # type: ignore[union-attr]


def channels_last_order(rank: int) -> list[int]:
    """The dim order of an [N, C, spatial...] tensor channels last: TO_NHWC at rank 4."""
    return [0, *range(2, rank), 1]


def channels_first_order(rank: int) -> list[int]:
    """The dim order of an [N, spatial..., C] tensor channels first: TO_NCHW at rank 4."""
    return [0, rank - 1, *range(1, rank - 1)]


def is_order_transpose(op: Operation, order_of_rank) -> bool:
    """A copy generic of rank >= 4 (identity output map) writing its input's dims in
    `order_of_rank(rank)` (the `transpose_copy` of that order)."""
    if not is_copy_generic(op) or len(op.results) != 1:
        return False
    read, write = du.indexing_maps(op)
    rank = write.num_dims
    if rank < 4 or write != AffineMap.identity(rank):
        return False
    order = order_of_rank(rank)
    return read == AffineMap(rank, 0, tuple(AffineDimExpr(order.index(i)) for i in range(rank)))


def is_nhwc_transpose(op: Operation) -> bool:
    """A copy generic that writes its [N, C, spatial...] input channels last (identity output
    map): NCHW -> NHWC at rank 4, NCDHW -> NDHWC at rank 5."""
    return is_order_transpose(op, channels_last_order)


def is_nchw_transpose(op: Operation) -> bool:
    """A copy generic that writes its channels-last input channels first (the inverse)."""
    return is_order_transpose(op, channels_first_order)


def channels_last_dimensions(op: Operation) -> list[int] | None:
    """The `dimensions` of a `linalg.broadcast` that writes `op`'s result channels last, if the
    dims it keeps stay in order (a broadcast cannot transpose)."""
    added = list(op.dimensions.get_values())  # type: ignore[attr-defined]
    order = channels_last_order(len(op.results[0].type.get_shape()))  # type: ignore[attr-defined]
    kept = [order[i] for i in range(len(order)) if order[i] not in added]
    return [i for i in range(len(order)) if order[i] in added] if kept == sorted(kept) else None


def is_layout_free_producer(op: Operation) -> bool:
    """A fill, a broadcast whose kept dims stay in order channels last, or an all-parallel
    one-result generic with an identity output map whose body reads neither its init nor its
    loop indices (`linalg.index`: a gather's, R(2+1)D's strided depth pick, which would read
    the permuted loops): each can write its result channels last directly."""
    if op.name == "linalg.fill":
        return len(op.results) == 1
    if op.name == "linalg.broadcast":
        return channels_last_dimensions(op) is not None
    if op.name != "linalg.generic" or not du.is_elementwise_linalg(op) or len(op.results) != 1:
        return False
    write = du.indexing_maps(op)[-1]
    if write != AffineMap.identity(write.num_dims):
        return False
    body = op.regions[0].block
    return not body.args[-1].uses and not any(inner.name == "linalg.index" for inner in body.walk())


def channels_last_producer(producer: Operation, transpose: Operation) -> list[Operation]:
    """`producer` writing `transpose`'s (channels-last) result directly: a fill or broadcast
    into a channels-last init, a generic with its loops permuted (every input map composed
    with the transpose's read map)."""
    empty = tensor.EmptyOp([], transpose.results[0].type)
    if producer.name == "linalg.fill":
        return [empty, FillOp(list(du.dps_inputs(producer)), [empty.tensor], [empty.tensor.type])]
    if producer.name == "linalg.broadcast":
        dimensions = DenseArrayBase.from_list(i64, channels_last_dimensions(producer))
        return [empty, BroadcastOp(producer.operands[0], empty.tensor, dimensions, empty.tensor.type)]
    read = du.indexing_maps(transpose)[0]
    rank = read.num_dims
    maps = [m.compose(read) for m in du.indexing_maps(producer)[:-1]] + [AffineMap.identity(rank)]
    generic = GenericOp(
        list(du.dps_inputs(producer)), [empty.tensor], producer.regions[0].clone(),
        [AffineMapAttr(m) for m in maps], [IteratorTypeAttr.parallel()] * rank, [empty.tensor.type],
    )
    return [empty, generic]


def erase_with_dead_inits(op: Operation, rewriter: PatternRewriter, values: list[SSAValue] | None = None) -> None:
    """Erase `op` (its results replaced by `values`, if given) and its inits' `tensor.empty`
    once dead."""
    inits = [v.owner for v in du.dps_inits(op)]
    if values is None:
        rewriter.erase(op)
    else:
        rewriter.replace(op, [], values)
    for init in inits:
        if isinstance(init, Operation) and init.name == "tensor.empty" and not init.results[0].uses:
            rewriter.erase(init)


def cancelled_copy(op: Operation) -> SSAValue | None:
    """The input of a copy generic that reads it through an identity map (a transpose of a
    transpose), which its result can be replaced by."""
    if not is_copy_generic(op):
        return None
    read = du.indexing_maps(op)[0]
    if read != AffineMap.identity(read.num_dims):
        return None
    return du.dps_inputs(op)[0]


class ProduceChannelsLast(RewritePattern):
    """A transpose into NHWC of an elementwise op's result becomes that op computed channels
    last (module docstring)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_nhwc_transpose(op):
            return
        value = du.dps_inputs(op)[0]
        producer = value.owner
        if not isinstance(producer, Operation) or not is_layout_free_producer(producer):
            return
        new_ops = channels_last_producer(producer, op)
        rewriter.insert(new_ops, InsertPoint.before(producer))
        channels_last = new_ops[-1].results[0]
        if (source := cancelled_copy(new_ops[-1])) is not None:
            erase_with_dead_inits(new_ops[-1], rewriter, [source])
            channels_last = source
        rank = len(channels_last.type.get_shape())  # type: ignore[attr-defined]
        back_ops, back = transpose_copy(channels_last, channels_first_order(rank))
        rewriter.insert(back_ops, InsertPoint.before(producer))
        for use in list(value.uses):
            user = use.operation
            if user is not op and is_nhwc_transpose(user):
                erase_with_dead_inits(user, rewriter, [channels_last])
        erase_with_dead_inits(op, rewriter, [channels_last])
        if producer.name == "linalg.generic":
            rewriter.replace_all_uses_with(value, back)
            erase_with_dead_inits(producer, rewriter)
        elif not value.uses:  # a fill or broadcast other readers keep (one is as cheap as the other)
            erase_with_dead_inits(producer, rewriter)
        if not back.uses:
            for dead in reversed(back_ops):
                rewriter.erase(dead)
        pass_statistics.count("elementwise producers channels last")


def sole_pad_user(value: SSAValue) -> Operation | None:
    """The static `tensor.pad` producing `value` when `value` has one reader."""
    pad = value.owner
    if not isinstance(pad, Operation) or pad.name != "tensor.pad" or pad.results[0].uses.get_length() != 1:
        return None
    if len(pad.operands) != 1:  # dynamic low/high
        return None
    return pad if all(d >= 0 for d in pad.results[0].type.get_shape()) else None  # type: ignore[attr-defined]


def pad_like(pad: tensor.PadOp, source: SSAValue, low: list[int], high: list[int], shape: list[int]) -> tensor.PadOp:
    """A static pad of `source` to `shape` with `pad`'s padding value (its body) and nofold."""
    return tensor.PadOp(
        source, [], [], pad.regions[0].clone(), low, high,
        TensorType(pad.results[0].type.element_type, shape), pad.properties.get("nofold"),  # type: ignore[attr-defined]
    )


def widened_pad(pad: tensor.PadOp, extra: dict[int, int]) -> tensor.PadOp:
    """`pad` (static), not yet inserted, with `extra[axis]` more of its padding at the high end
    of each axis: one pad of the same source."""
    low, high = list(pad.static_low.get_values()), list(pad.static_high.get_values())
    shape = list(pad.results[0].type.get_shape())  # type: ignore[attr-defined]
    for axis, count in extra.items():
        high[axis] += count
        shape[axis] += count
    return pad_like(pad, pad.operands[0], low, high, shape)


def permuted_pad(pad: tensor.PadOp, source: SSAValue, order: list[int]) -> tensor.PadOp:
    """`pad`'s padding, its dims taken in `order`, applied to `source` (`pad`'s source so
    permuted, or any tensor of that rank: the result's shape is `source`'s, padded)."""
    low = [pad.static_low.get_values()[i] for i in order]
    high = [pad.static_high.get_values()[i] for i in order]
    shape = [size + lo + hi for size, lo, hi in zip(source.type.get_shape(), low, high)]  # type: ignore[attr-defined]
    return pad_like(pad, source, low, high, shape)


def channels_last_image(value: SSAValue) -> tuple[list[Operation], SSAValue]:
    """`value`, an NCHW image, channels last; a pad that only one op reads moves after the
    transpose, so the transpose reads the unpadded image and the pad stays one copy (or its
    producer's)."""
    pad = sole_pad_user(value)
    if pad is None:
        return transpose_copy(value, TO_NHWC)
    ops, transposed = transpose_copy(pad.operands[0], TO_NHWC)
    padded = permuted_pad(pad, transposed, TO_NHWC)  # type: ignore[arg-type]
    return [*ops, padded], padded.results[0]
