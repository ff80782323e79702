"""Roots read only through slices are computed per slice, so horizontal fusion never adds
dispatches.

`graph-horizontal-fuse-dots` turns shared-input dots `x . Wa`, `x . Wb` into one dot on the
concatenated weights followed by slices of its result. A region cannot hold that dot *and*
the consumers of its slices: IREE 3.13's CPU codegen rejects a dispatch whose consumers read a
slice of the root ("write affecting operations on global resources are restricted to
workgroup distributed contexts", measured), and the slices are non-contiguous (columns of a
row-major result). So the consumers formed regions of their own: 1 + one per slice, where
the unfused program had one per dot.

Here the slice moves above the root instead: `slice(R(ins))` on parallel loops `l` is
`R(slice(ins))`, each operand sliced along the dims that those loops index directly (for a
matmul's N columns: the weight's columns; the shared input is read whole). Each slice then
has a root of its own that its consumers fuse into, and the weight slice is cloned into that
region as an indexed read (`region_cloning.should_clone`). The rewrite is only applied when
dispatch formation on a trial copy of the function forms strictly fewer dispatches (and no
more `flow.tensor.slice/update` copies); it never recomputes anything (the slices tile the
work the root did, overlapping slices excepted, and those are rejected).

Candidates: a structured linalg root (`dispatch_utils.is_root_op`) with one result whose
every use is a static, unit-stride, rank-preserving `tensor.extract_slice`, an output map that
is a projected permutation, sliced dims on parallel loops that each input indexes only as a
bare loop dim (no `d0 + d2` window), no `linalg.index` in the payload, and an init that is a
`tensor.empty` or a `linalg.fill` of one.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr

from fusionopt.dialects.flow import DispatchRegionOp, TensorSliceOp, TensorUpdateOp
from fusionopt.transforms.common import dispatch_utils as du

# Loop -> (offset, size) of one slice of the root's result.
LoopRanges = dict[int, tuple[int, int]]


def _shape(value: SSAValue) -> list[int] | None:
    ty = value.type
    if not isinstance(ty, TensorType):
        return None
    shape = list(ty.get_shape())
    return shape if all(d >= 0 for d in shape) else None


def _init_is_fresh(root: Operation) -> bool:
    """The init is `tensor.empty` or `linalg.fill(scalar, tensor.empty)`, used by the root only."""
    (init,) = du.dps_inits(root)
    owner = init.owner
    if not isinstance(owner, Operation) or du.use_count(init) != 1:
        return False
    if owner.name == "tensor.empty":
        return not owner.operands
    if owner.name == "linalg.fill":
        source = owner.operands[-1].owner
        return (
            isinstance(source, Operation) and source.name == "tensor.empty" and not source.operands
            and du.use_count(owner.operands[-1]) == 1 and du.is_scalar_type(owner.operands[0].type)
        )
    return False


def slice_loop_ranges(root: Operation) -> list[tuple[Operation, LoopRanges]] | None:
    """Each slice of the root's result with the loop ranges it selects, or None when the root
    is not a candidate (see the module docstring)."""
    if not du.is_root_op(root) or len(root.results) != 1 or len(du.dps_inits(root)) != 1:
        return None
    if not du.indexing_maps(root) or not _init_is_fresh(root):
        return None
    if any(o.name == "linalg.index" for r in root.regions for o in r.walk()):
        return None
    out_map = du.result_map(root, 0)
    full = _shape(root.results[0])
    if out_map is None or full is None or not all(isinstance(e, AffineDimExpr) for e in out_map.results):
        return None
    kinds = du.iterator_kinds(root)
    uses = [use.operation for use in root.results[0].uses]
    if not uses:
        return None
    found: list[tuple[Operation, LoopRanges]] = []
    for user in uses:
        if user.name != "tensor.extract_slice" or user.operands[0] is not root.results[0]:
            return None
        params = du.static_slice_params(user)
        if params is None or any(s != 1 for s in params[2]):
            return None
        offsets, sizes, _ = params
        if _shape(user.results[0]) != list(sizes):
            return None  # rank-reducing slice
        ranges: LoopRanges = {}
        for dim, (offset, size) in enumerate(zip(offsets, sizes)):
            if offset == 0 and size == full[dim]:
                continue
            loop = out_map.results[dim].position  # type: ignore[attr-defined]
            if kinds[loop] != "parallel":
                return None
            ranges[loop] = (offset, size)
        if not ranges or not _inputs_slice_on_bare_dims(root, set(ranges)):
            return None
        found.append((user, ranges))
    if _any_overlap([ranges for _, ranges in found]):
        return None  # splitting would compute the overlap twice
    return found


def _any_overlap(boxes: list[LoopRanges]) -> bool:
    for i, first in enumerate(boxes):
        for second in boxes[i + 1:]:
            if all(
                max(first.get(l, (0, 1 << 62))[0], second.get(l, (0, 1 << 62))[0])
                < min(sum(first.get(l, (0, 1 << 62))), sum(second.get(l, (0, 1 << 62))))
                for l in set(first) | set(second)
            ):
                return True
    return False


def _inputs_slice_on_bare_dims(root: Operation, loops: set[int]) -> bool:
    maps = du.indexing_maps(root)
    for index, value in enumerate(du.dps_inputs(root)):
        if _shape(value) is None:
            return False
        for expr in maps[index].results:
            if isinstance(expr, AffineDimExpr):
                continue
            if any(_uses_dim(expr, loop) for loop in loops):
                return False
    return True


def _uses_dim(expr, loop: int) -> bool:
    if isinstance(expr, AffineDimExpr):
        return expr.position == loop
    return any(_uses_dim(child, loop) for child in (getattr(expr, "lhs", None), getattr(expr, "rhs", None)) if child)


def _sliced_operand(value: SSAValue, amap, ranges: LoopRanges, before: Operation) -> SSAValue:
    shape = _shape(value)
    assert shape is not None
    offsets, sizes = [0] * len(shape), list(shape)
    for dim, expr in enumerate(amap.results):
        if isinstance(expr, AffineDimExpr) and expr.position in ranges:
            offsets[dim], sizes[dim] = ranges[expr.position]
    if sizes == shape:
        return value
    op = tensor.ExtractSliceOp.from_static_parameters(value, offsets, sizes, [1] * len(shape))
    before.parent_block().insert_op_before(op, before)
    return op.results[0]


def _fresh_init(root: Operation, new_type: TensorType, before: Operation) -> SSAValue:
    block = before.parent_block()
    (init,) = du.dps_inits(root)
    owner = init.owner
    empty = tensor.EmptyOp([], new_type)
    block.insert_op_before(empty, before)
    if owner.name == "tensor.empty":
        return empty.results[0]
    fill = owner.__class__.create(
        operands=[owner.operands[0], empty.results[0]],
        result_types=[new_type],
        properties=dict(owner.properties),
        attributes=dict(owner.attributes),
        regions=[r.clone() for r in owner.regions],
    )
    block.insert_op_before(fill, before)
    return fill.results[0]


def split_root(root: Operation) -> bool:
    """Rewrite every slice of `root`'s result as the root on sliced operands; erase the root."""
    slices = slice_loop_ranges(root)
    if slices is None:
        return False
    maps = du.indexing_maps(root)
    inputs = du.dps_inputs(root)
    for user, ranges in slices:
        new_type = user.results[0].type
        new_inputs = [_sliced_operand(v, maps[i], ranges, user) for i, v in enumerate(inputs)]
        init = _fresh_init(root, new_type, user)
        new_root = root.__class__.create(
            operands=[*new_inputs, init],
            result_types=[new_type],
            properties=dict(root.properties),
            attributes=dict(root.attributes),
            regions=[r.clone() for r in root.regions],
        )
        user.parent_block().insert_op_before(new_root, user)
        user.results[0].replace_all_uses_with(new_root.results[0])
        user.detach()
        user.erase()
    block = root.parent_block()
    (init,) = du.dps_inits(root)
    init_op = init.owner
    block.erase_op(root)
    while isinstance(init_op, Operation) and not any(r.uses for r in init_op.results):
        source = init_op.operands[-1].owner if init_op.operands else None
        block.erase_op(init_op)
        init_op = source if isinstance(source, Operation) and source.name == "tensor.empty" else None
    return True


def _formation_cost(block: Block, form) -> tuple[int, int]:
    """(dispatch regions, flow slice/update copies) that `form(block)` leaves in `block`."""
    form(block)
    regions = sum(1 for op in block.ops if isinstance(op, DispatchRegionOp))
    copies = sum(1 for op in block.ops if isinstance(op, (TensorSliceOp, TensorUpdateOp)))
    return regions, copies


def _candidate_shape(root: Operation, slices: list[tuple[Operation, LoopRanges]]) -> tuple:
    """What a trial of splitting `root` depends on locally: the op, its types and maps, the
    slices' ranges and their readers' ops."""
    readers = tuple(sorted(use.operation.name for user, _ in slices for use in user.results[0].uses))
    return (root.name, tuple(str(v.type) for v in root.operands), str(root.results[0].type),
            str(root.properties.get("indexing_maps")), tuple(tuple(sorted(r.items())) for _, r in slices), readers)


def split_sliced_roots(block: Block, form) -> int:
    """Split each candidate root when `form` (region formation + flow conversion on a block)
    makes fewer dispatches from a trial copy of the function with the root split. Returns
    how many roots were split. A trial forms the whole function, so a candidate of the same
    shape as one already rejected is not tried again: an unrolled recurrence repeats one
    candidate per step (a bidirectional LSTM's batched recurrent matmul, sliced per direction:
    64 steps took minutes of trials, all rejected)."""
    func = block.parent_op()
    if func is None:
        return 0
    candidates = [(i, found) for i, op in enumerate(block.ops) if (found := slice_loop_ranges(op)) is not None]
    if not candidates:
        return 0
    baseline = _formation_cost(func.clone().regions[0].block, form)
    split, rejected = 0, set()
    ops = list(block.ops)
    for index, slices in reversed(candidates):  # later roots first: earlier indices stay valid
        shape = _candidate_shape(ops[index], slices)
        if shape in rejected:
            continue
        trial = func.clone().regions[0].block
        if not split_root(list(trial.ops)[index]):
            continue
        cost = _formation_cost(trial, form)
        if cost[0] < baseline[0] and cost[1] <= baseline[1]:
            split_root(list(block.ops)[index])
            baseline = cost
            split += 1
        else:
            rejected.add(shape)
    return split
