"""Cloning cheap producers into dispatch regions (IREE's CloneProducersIntoDispatchRegions).

Shared by `form-dispatch-regions` and `convert-to-flow` (which creates copy regions): fills,
`tensor.empty`, small constants, index math (`dispatch_utils.is_clonable_into_dispatch`) and
non-contiguous slices with the reshapes applied to them are duplicated into every region that
uses them, so a region is self-contained and none of them costs a dispatch of its own.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue

from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.transforms.common import dispatch_utils as du


def should_clone(op: Operation) -> bool:
    """Cheap ops plus non-contiguous slices (and reshapes of them): inside the consumer's
    dispatch they are an indexed read of the captured tensor instead of a slow copy."""
    if du.is_clonable_into_dispatch(op):
        return True
    if du.is_reshape(op):
        source = op.operands[0].owner
        return isinstance(source, Operation) and source.name == "tensor.extract_slice" and should_clone(source)
    return op.name == "tensor.extract_slice" and du.static_slice_params(op) is not None and not du.slice_is_contiguous(op)


def clone_producers_into_region(region_op: DispatchRegionOp) -> None:
    """Duplicate every cheap op the region uses from outside into the region's entry."""
    to_clone = _clonable_closure(region_op)
    if not to_clone:
        return
    block = to_clone[0].parent_block()
    position = {op: i for i, op in enumerate(block.ops)} if block is not None else {}
    to_clone.sort(key=lambda op: position.get(op, 0))
    body = region_op.body.block
    anchor = body.first_op
    clones: dict[SSAValue, SSAValue] = {}
    for original in to_clone:
        copy = original.clone()
        body.insert_op_before(copy, anchor)
        clones.update(zip(original.results, copy.results))
    for inner in body.walk():
        for index, operand in enumerate(inner.operands):
            if operand in clones:
                inner.operands[index] = clones[operand]


def _clonable_closure(region_op: DispatchRegionOp) -> list[Operation]:
    """Cheap ops outside the region whose values the region (or another such op) uses."""
    found: list[Operation] = []
    seen: set[Operation] = set()
    stack = [o for inner in region_op.body.walk() for o in inner.operands]
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, Operation) or owner in seen or du.is_inside(owner, region_op):
            continue
        seen.add(owner)
        if should_clone(owner):
            found.append(owner)
            stack.extend(owner.operands)
    return found


def erase_dead_clonables(block: Block) -> None:
    for op in reversed(list(block.ops)):
        if should_clone(op) and all(not r.uses for r in op.results):
            block.erase_op(op)
