"""`convert-to-flow`: tensor ops left outside dispatch regions become flow ops (IREE's ConvertTensorToFlow).

`form-dispatch-regions` calls `convert_block_to_flow` itself (the seed's point: slices must be
decided together with region formation, with one contiguity rule, `dispatch_utils.
is_contiguous_slice`); this pass exposes the same conversion on its own for testing.

Top-level ops only (never inside a `flow.dispatch.region`):
- contiguous `tensor.extract_slice` -> `flow.tensor.slice` (+ `flow.tensor.reshape` when the
  slice drops unit dims): a zero-copy sub-range, so no dispatch captures the whole tensor and
  serialises everything touching it (the false-dependency argument on IREE PR #8662);
- contiguous `tensor.insert_slice` -> `flow.tensor.update`;
- `tensor.concat` whose pieces are contiguous ranges of the result -> `flow.tensor.empty`
  followed by one `flow.tensor.update` per piece (a free concat); likewise a `tensor.empty`
  that only flow updates write into becomes `flow.tensor.empty`: IREE 3.13 hoists a top-level
  `tensor.empty` into a global that every call copies into a fresh buffer (a transfer command
  buffer of its own: ~20 us a call on inception_mini's two concats, bench/RESULTS.md);
- `tensor.expand_shape`/`collapse_shape` -> `flow.tensor.reshape`;
- `linalg.fill` (a fill nobody cloned into a region) -> `flow.tensor.splat`, unless it is the
  init of a padded 1x1 or k x k conv left for IREE to form (`common/iree_padded_producers.py`);
- anything else that moves data non-contiguously (slices, inserts) gets a dispatch region of
  its own: that is IREE's "slow copy" dispatch, and it is counted as one; except a
  `tensor.concat` (IREE 3.13 cannot build a region holding only one: `COPY_REGION_OPS`) and a
  `tensor.pad`, both left as they are for IREE's own DispatchCreation, which writes a pad as fill +
  insert, into the producing dispatch's output where it can. In a region of ours IREE 3.13 builds
  a pad with low padding wrongly (`dispatch_utils.has_low_padding`) and fails to build
  squeezenet's -inf high pad (before a ceil-mode max pool) at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt.dialects.flow import (
    DispatchRegionOp,
    ReturnOp,
    TensorEmptyOp,
    TensorReshapeOp,
    TensorSliceOp,
    TensorSplatOp,
    TensorUpdateOp,
)
from fusionopt.dialects.util import functions_with_body
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.iree_padded_producers import is_iree_padded_1x1, is_iree_padded_kxk
from fusionopt.transforms.dispatch.copy_as_generic import rewrite_copy
from fusionopt.transforms.dispatch.region_cloning import clone_producers_into_regions, erase_dead_clonables
from fusionopt.transforms.dispatch.region_dims import add_result_dims

# Ops that get a copy region when they cannot be free. Not `tensor.concat`: IREE 3.13 fails to
# build a region that is only a concat (CUDA: "different memory spaces specified for base memref
# type"; llvm-cpu, unequal parts such as torch.roll's or a partial rotary's: "'tensor.concat' op
# result type ... does not match inferred shape"), and builds the concat it forms itself.
COPY_REGION_OPS = frozenset({"tensor.extract_slice", "tensor.insert_slice"})


def _index_constants(values: Sequence[int], before: Operation) -> list[SSAValue]:
    ops = [arith.ConstantOp(IntegerAttr(v, IndexType())) for v in values]
    if ops:
        Rewriter.insert_op(ops, _before(before))
    return [op.result for op in ops]


def _before(op: Operation) -> InsertPoint:
    return InsertPoint.before(op)


def convert_extract_slice(op: Operation) -> bool:
    params = du.static_slice_params(op)
    if params is None or not du.slice_is_contiguous(op):
        return False
    offsets, sizes, _ = params
    source = op.operands[0]
    full_type = TensorType(source.type.get_element_type(), sizes)
    starts = _index_constants(offsets, op)
    lengths = _index_constants(sizes, op)
    new_ops: list[Operation] = [TensorSliceOp(source, starts, lengths, full_type)]
    if full_type != op.results[0].type:  # rank-reducing slice: drop the unit dims with a reshape
        new_ops.append(TensorReshapeOp(new_ops[0].results[0], op.results[0].type))
    Rewriter.replace_op(op, new_ops)
    return True


def convert_insert_slice(op: Operation) -> bool:
    params = du.static_slice_params(op)
    if params is None or not du.slice_is_contiguous(op):
        return False
    offsets, sizes, _ = params
    source, dest = op.operands[0], op.operands[1]
    new_ops: list[Operation] = []
    full_type = TensorType(source.type.get_element_type(), sizes)
    if source.type != full_type:
        new_ops.append(TensorReshapeOp(source, full_type))
        source = new_ops[-1].results[0]
    starts = _index_constants(offsets, op)
    new_ops.append(TensorUpdateOp(source, dest, starts))
    Rewriter.replace_op(op, new_ops)
    return True


def concat_pieces(op: Operation) -> list[tuple[SSAValue, list[int]]]:
    """(piece, offsets) for each operand of a static `tensor.concat`."""
    dim = op.properties["dim"].value.data
    offset, pieces = 0, []
    for piece in op.operands:
        offsets = [0] * len(piece.type.get_shape())
        offsets[dim] = offset
        offset += piece.type.get_shape()[dim]
        pieces.append((piece, offsets))
    return pieces


def convert_concat(op: Operation) -> bool:
    if not du.is_static_tensor(op.results[0]):
        return False  # (flow's form would need the result's {dims}; iree-compile converts it)
    result_type = op.results[0].type
    full = tuple(result_type.get_shape())
    pieces = concat_pieces(op)
    for piece, offsets in pieces:
        sizes = list(piece.type.get_shape())
        if not du.is_contiguous_slice((offsets, sizes, [1] * len(sizes)), full):
            return False
    empty = TensorEmptyOp(result_type)
    Rewriter.insert_op(empty, _before(op))
    target: SSAValue = empty.result
    for piece, offsets in pieces:
        update = TensorUpdateOp(piece, target, _index_constants(offsets, op))
        Rewriter.insert_op(update, _before(op))
        target = update.result
    Rewriter.replace_op(op, [], [target])
    return True


def convert_reshape(op: Operation) -> bool:
    # A dynamic reshape stays a tensor op: flow's form would need its {dims}; iree-compile
    # converts the tensor op itself.
    if not (du.is_static_tensor(op.operands[0]) and du.is_static_tensor(op.results[0])):
        return False
    Rewriter.replace_op(op, TensorReshapeOp(op.operands[0], op.results[0].type))
    return True


def is_left_for_iree(op: Operation) -> bool:
    """A padded 1x1 or k x k conv (`iree_padded_producers.py`; any stride, any size) that
    formation left outside every region for IREE to form as in its own input. Its fill init stays
    a fill, which IREE clones into the conv's dispatch: as a `flow.tensor.splat` it is a
    read-write init from outside, which IREE 3.13's CUDA conv codegen fails to bufferize ("failed
    to bufferize op", resnet18's 3x3 convs at 56x56 under graph-to-dispatch-cuda)."""
    if isinstance(op.parent_op(), DispatchRegionOp):
        return False
    return is_iree_padded_1x1(op, 1) or is_iree_padded_kxk(op, 1, strided=True)


def convert_fill(op: Operation) -> bool:
    if len(op.operands) != 2 or not du.is_static_tensor(op.results[0]):
        return False
    if any(is_left_for_iree(use.operation) for use in op.results[0].uses):
        return False  # the init of a conv left for IREE to form: IREE clones it in
    Rewriter.replace_op(op, TensorSplatOp(op.operands[0], op.results[0].type))
    return True


def convert_empty(op: Operation) -> bool:
    """A static top-level `tensor.empty` that only `flow.tensor.update`s write into."""
    uses = list(op.results[0].uses)
    if not uses or not du.is_static_tensor(op.results[0]):
        return False
    if not all(isinstance(u.operation, TensorUpdateOp) and u.operation.target is op.results[0] for u in uses):
        return False
    Rewriter.replace_op(op, TensorEmptyOp(op.results[0].type))
    return True


def wrap_in_copy_region(op: Operation) -> DispatchRegionOp:
    """A non-contiguous copy nothing could absorb: a dispatch of its own (IREE's slow copy),
    written as a gathering `linalg.generic` when possible so IREE can tile it."""
    region_op = DispatchRegionOp([r.type for r in op.results], Region(Block()))
    Rewriter.insert_op(region_op, _before(op))
    results = list(op.results)
    body = rewrite_copy(op)
    if body is None:
        op.detach()
        body = [op]
    else:
        for old, new in zip(results, body[-1].results):
            old.replace_all_uses_with(new)
        op.detach()
        op.erase()
        results = list(body[-1].results)
    region_op.body.block.add_ops([*body, ReturnOp(results)])
    add_result_dims(region_op)
    for old, new in zip(results, region_op.results):
        for use in list(old.uses):
            if use.operation is not region_op.body.block.last_op:
                use.operation.operands[use.index] = new
    return region_op


_CONVERTERS = {
    "tensor.extract_slice": convert_extract_slice,
    "tensor.insert_slice": convert_insert_slice,
    "tensor.concat": convert_concat,
    "tensor.expand_shape": convert_reshape,
    "tensor.collapse_shape": convert_reshape,
    "linalg.fill": convert_fill,
}


def is_free_data_movement(op: Operation) -> bool:
    """Slices/inserts/concats that become zero-copy flow ops (contiguous byte ranges)."""
    if op.name in ("tensor.extract_slice", "tensor.insert_slice"):
        return du.slice_is_contiguous(op)
    if op.name == "tensor.concat":
        full = tuple(op.results[0].type.get_shape())
        return all(
            du.is_contiguous_slice((offsets, list(piece.type.get_shape()), [1] * len(offsets)), full)
            for piece, offsets in concat_pieces(op)
        )
    return False


def convert_block_to_flow(block: Block) -> list[DispatchRegionOp]:
    """Convert the top-level ops of `block`; returns the copy regions it had to create.

    Copies that cannot be free get their region first (and their fills/constants cloned in),
    so only what stays outside every region is turned into flow ops."""
    copy_regions = [
        wrap_in_copy_region(op)
        for op in list(block.ops)
        if op.name in COPY_REGION_OPS and not is_free_data_movement(op)
    ]
    clone_producers_into_regions(copy_regions)
    erase_dead_clonables(block)
    for op in list(block.ops):
        converter = _CONVERTERS.get(op.name)
        if converter is not None:
            converter(op)
    for op in [op for op in block.ops if op.name == "tensor.empty"]:  # updates exist only now
        convert_empty(op)
    erase_dead_clonables(block)  # e.g. the tensor.empty under a fill that became a splat
    return copy_regions


@dataclass(frozen=True)
class ConvertToFlowPass(ModulePass):
    """Convert tensor data movement outside dispatch regions to flow ops. No options."""

    name = "convert-to-flow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for block in [b for func in functions_with_body(op) for b in func.body.blocks]:
            convert_block_to_flow(block)
