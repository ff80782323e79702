"""A 1-D conv stack's activations ([1, C, W], rank 3) kept channels last between the convs of
`linalg-conv1d-channels-last`.

The rank-3 twin of `channels_last_propagation`, which acts on one elementwise op between two
rank-4 convs (a CNN's ReLU). Between an audio encoder's 1-D convs there are chains: wav2vec2's
GroupNorm (x - mean, its square, the normalisation, scale, shift) and the GELU, a generic each
at this stage. So a transpose into [1, W, C] of an elementwise result makes that op compute
channels last with its identity-read inputs behind explicit transposes, which this pattern
takes in turn: the whole chain moves to [1, W, C], up to ops that are not elementwise (a
reduction, whose reads of the chain become a transpose back that `linalg-fuse-elementwise`
folds into the reduction's map) and to a transpose back from a conv's channels-last result,
with which it cancels. A concat of the activation's frames and static slices of it (an ONNX
`reflect` pad: EnCodec's before each conv) moves too, each part behind a swap of its
own: left NCW, each such pad cost a transpose of its activation to [1, C, W] and one back
(EnCodec's encoder: 64 transpose dispatches; the model 121 -> 113 ms, one thread).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import tensor
from xdsl.dialects.arith import AddfOp, ConstantOp, ExtFOp, TruncFOp
from xdsl.dialects.builtin import AffineMapAttr, FloatAttr, TensorType, f32, f64
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.attention_pieces import is_fill_of
from fusionopt.transforms.linalg.channels_last_propagation import erase_with_dead_inits, is_copy_generic
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy
from fusionopt.transforms.linalg.slice_before_transpose import is_plain_slice

# [1, C, W] <-> [1, W, C]: its own inverse.
SWAP_ROWS = [0, 2, 1]
SWAPPED_READ = AffineMap(3, 0, (AffineDimExpr(0), AffineDimExpr(2), AffineDimExpr(1)))
IDENTITY = AffineMap.identity(3)


def is_rows_transpose(op: Operation) -> bool:
    """A copy generic writing its rank-3 input with the last two dims swapped."""
    return is_copy_generic(op) and len(op.results) == 1 and du.indexing_maps(op) == [SWAPPED_READ, IDENTITY]


def is_movable_elementwise(op: Operation) -> bool:
    """A one-result all-parallel rank-3 generic with an identity output map that does not read
    its init: it can compute its result in any dim order."""
    if op.name != "linalg.generic" or not du.is_elementwise_linalg(op) or len(op.results) != 1:
        return False
    return du.indexing_maps(op)[-1] == IDENTITY and not op.regions[0].block.args[-1].uses


def forward_swap(value: SSAValue, forward: set[Operation]) -> tuple[list[Operation], SSAValue]:
    """A swap of `value` into [1, W, C] that this pattern takes in turn."""
    ops, swapped = transpose_copy(value, SWAP_ROWS)
    forward.add(ops[-1])
    return ops, swapped


def swapped_elementwise(producer: Operation, result_type, forward: set[Operation]) -> list[Operation]:
    """`producer` computing its result with the last two dims swapped: inputs it reads through
    an identity map read through an explicit swapping copy (for this pattern to take next),
    the others through their map composed with the swap."""
    new_ops: list[Operation] = []
    inputs: list[SSAValue] = []
    maps: list[AffineMap] = []
    for value, read in zip(du.dps_inputs(producer), du.indexing_maps(producer)):
        if read == IDENTITY:
            ops, swapped = forward_swap(value, forward)
            new_ops += ops
            inputs.append(swapped)
            maps.append(IDENTITY)
        else:
            inputs.append(value)
            maps.append(read.compose(SWAPPED_READ))
    empty = tensor.EmptyOp([], result_type)
    generic = GenericOp(inputs, [empty.tensor], producer.regions[0].clone(),
                        [AffineMapAttr(m) for m in (*maps, IDENTITY)], [IteratorTypeAttr.parallel()] * 3,
                        [empty.tensor.type])
    return [*new_ops, empty, generic]


def swapped_type(value: SSAValue) -> TensorType:
    shape = value.type.get_shape()  # type: ignore[attr-defined]
    return TensorType(value.type.get_element_type(), [shape[i] for i in SWAP_ROWS])  # type: ignore[attr-defined]


def swapped_concat(concat: Operation, forward: set[Operation]) -> list[Operation]:
    """A rank-3 concat joining its parts swapped, along the swapped dim. A part that is a static
    slice read only here is cut from its source swapped (a reflect pad's frames): one swap of
    each source, shared by its slices and by the source itself where it is a part."""
    new_ops: list[Operation] = []
    swaps: dict[SSAValue, SSAValue] = {}

    def swapped(value: SSAValue) -> SSAValue:
        if value not in swaps:
            ops, swaps[value] = forward_swap(value, forward)
            new_ops.extend(ops)
        return swaps[value]

    parts: list[SSAValue] = []
    for value in concat.operands:
        cut = value.owner
        if isinstance(cut, Operation) and is_plain_slice(cut) and value.has_one_use():
            offsets = cut.static_offsets.get_values()  # type: ignore[attr-defined]
            sizes = cut.static_sizes.get_values()  # type: ignore[attr-defined]
            moved = tensor.ExtractSliceOp.from_static_parameters(
                swapped(cut.operands[0]), [offsets[i] for i in SWAP_ROWS], [sizes[i] for i in SWAP_ROWS])
            new_ops.append(moved)
            parts.append(moved.results[0])
        else:
            parts.append(swapped(value))
    dim = SWAP_ROWS[concat.dim.value.data]  # type: ignore[attr-defined]
    return [*new_ops, tensor.ConcatOp(parts, dim, swapped_type(concat.results[0]))]


def is_rows_concat(op: Operation) -> bool:
    return op.name == "tensor.concat" and len(op.results[0].type.get_shape()) == 3  # type: ignore[attr-defined]


@dataclass
class ProduceRowsChannelsLast(RewritePattern):
    """A swap of a 1-D activation's dims into [1, W, C] moves onto its producer (module
    docstring); two swaps cancel. The swap is its own inverse, so the swaps into [1, W, C] are
    told from those back by `forward`: the ones the conv rewrite and this pattern wrote so."""

    forward: set[Operation]
    moved: set[Operation]  # the elementwise ops now computed channels last, for widen_frame_sums

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op not in self.forward or not is_rows_transpose(op):
            return
        value = du.dps_inputs(op)[0]
        producer = value.owner
        if isinstance(producer, Operation) and is_rows_transpose(producer):
            erase_with_dead_inits(op, rewriter, [du.dps_inputs(producer)[0]])
            return
        new_ops = self.swapped_producer(producer, op)
        if new_ops is None:
            return
        rewriter.insert(new_ops, InsertPoint.before(producer))
        swapped = new_ops[-1].results[0]
        erase_with_dead_inits(op, rewriter, [swapped])
        if value.uses:
            back_ops, back = transpose_copy(swapped, SWAP_ROWS)
            rewriter.insert(back_ops, InsertPoint.before(producer))
            rewriter.replace_all_uses_with(value, back)
        operands = [v.owner for v in producer.operands]
        erase_with_dead_inits(producer, rewriter)
        for cut in operands:  # a moved concat's slices
            if isinstance(cut, Operation) and is_plain_slice(cut) and not cut.results[0].uses:
                rewriter.erase(cut)
        pass_statistics.count("1-D activations channels last")

    def swapped_producer(self, producer: SSAValue | Operation, swap: Operation) -> list[Operation] | None:
        """The ops computing `producer`'s result swapped (the last one its result), or None
        where it is not moved."""
        if not isinstance(producer, Operation):
            return None
        if is_movable_elementwise(producer):
            new_ops = swapped_elementwise(producer, swap.results[0].type, self.forward)
            self.moved.add(new_ops[-1])
            return new_ops
        if is_rows_concat(producer):
            return swapped_concat(producer, self.forward)
        return None


@dataclass
class ReadThroughRowsSwap(RewritePattern):
    """A generic reading a swap back to [1, C, W] (one the propagation left for a reader it
    does not move, a reduction's) reads the swap's source through its map with the last two
    results swapped: no copy is left to run."""

    forward: set[Operation]
    moved: set[Operation]  # the readers changed here join the ones moved

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.generic" or op in self.forward:
            return
        maps = du.indexing_maps(op)
        for index, value in enumerate(du.dps_inputs(op)):
            swap = value.owner
            if not isinstance(swap, Operation) or swap in self.forward or not is_rows_transpose(swap):
                continue
            read = maps[index]
            maps[index] = AffineMap(read.num_dims, 0, tuple(read.results[i] for i in SWAP_ROWS))
            op.operands[index] = du.dps_inputs(swap)[0]
        if maps != du.indexing_maps(op):
            du.set_indexing_maps(op, maps)
            self.moved.add(op)
            rewriter.handle_operation_modification(op)


def erase_dead_moves(module: Operation) -> None:
    """Erase the copies, reshapes and `tensor.empty`s the rewrites left unread (a swap back no
    reader took, the image's old expand); region formation would give a copy a dispatch. One
    walk from the end: an op's readers come after it, so erasing them first leaves it unread
    by the time it is visited."""
    for op in reversed(list(module.walk())):
        movable = is_copy_generic(op) or op.name in ("tensor.empty", "tensor.expand_shape", "tensor.collapse_shape")
        if movable and op.parent is not None and not any(r.uses for r in op.results):
            op.detach()
            op.erase()


def is_f32_sum(op: Operation) -> bool:
    """A one-input generic reduction adding f32 values into an f32 accumulator filled with 0."""
    if op.name != "linalg.generic" or not du.has_reduction_loops(op) or len(op.results) != 1:
        return False
    if len(du.dps_inputs(op)) != 1 or not is_fill_of(du.dps_inits(op)[0], lambda c: c == 0.0):
        return False
    block = op.regions[0].block
    add, yielded = (list(block.ops) + [None, None])[:2]
    return (len(block.ops) == 2 and add.name == "arith.addf" and block.args[1].type == f32
            and set(add.operands) == set(block.args) and yielded.operands[0] is add.results[0])


def widened_sum(op: Operation) -> list[Operation]:
    """`op` accumulating in f64 (each input extended), then rounded to f32 once."""
    shape = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    zero = ConstantOp(FloatAttr(0.0, f64))
    empty = tensor.EmptyOp([], TensorType(f64, shape))
    fill = FillOp([zero.result], [empty.tensor], [empty.tensor.type])
    body = Block(arg_types=[f32, f64])
    wide = ExtFOp(body.args[0], f64)
    add = AddfOp(body.args[1], wide.result)
    body.add_ops([wide, add, YieldOp(add.result)])
    total = GenericOp(list(du.dps_inputs(op)), [fill.results[0]], Region(body), op.properties["indexing_maps"],
                      op.properties["iterator_types"], [fill.results[0].type])
    out = tensor.EmptyOp([], op.results[0].type)
    rank = len(shape)
    narrow_body = Block(arg_types=[f64, f32])
    narrow = TruncFOp(narrow_body.args[0], f32)
    narrow_body.add_ops([narrow, YieldOp(narrow.result)])
    rounded = GenericOp([total.results[0]], [out.tensor], Region(narrow_body),
                        [AffineMapAttr(AffineMap.identity(rank))] * 2, [IteratorTypeAttr.parallel()] * rank,
                        [out.tensor.type])
    return [zero, empty, fill, total, out, rounded]


def widen_frame_sums(moved: set[Operation], rewriter: Rewriter) -> None:
    """f32 sums that read the moved activations (through a swapped map, or an elementwise op of
    them: a GroupNorm's squares) accumulate in f64. Moved, wav2vec2's GroupNorm variance over
    3199 frames is one f32 sum per channel in frame order, and IREE no longer forms it in the
    region of the mean: on a 1000.5-offset input, whose zero-padded edge frames normalise to
    ~60, the stem's edge came out 2e-3 from float64 (3e-3 after the next conv; onnxruntime 6e-4,
    the NCW form 2e-4); in f64, 1.3e-5."""
    for op in {use.operation for m in moved if m.parent is not None for r in m.results for use in r.uses} | moved:
        if op.parent is None or not is_f32_sum(op):
            continue
        new_ops = widened_sum(op)
        rewriter.insert_op(new_ops, InsertPoint.before(op))
        rewriter.replace_op(op, [], [new_ops[-1].results[0]])
