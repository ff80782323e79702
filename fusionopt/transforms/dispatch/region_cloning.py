"""Cloning cheap producers into dispatch regions (IREE's CloneProducersIntoDispatchRegions).

Shared by `form-dispatch-regions` and `convert-to-flow` (which creates copy regions): fills,
`tensor.empty`, small constants, index math (`dispatch_utils.is_clonable_into_dispatch`) and
non-contiguous slices with the reshapes applied to them are duplicated into every region that
uses them, so a region is self-contained and none of them costs a dispatch of its own (not a
collapse merging a dim its slice takes in part: `merges_a_partial_dim`).
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue

from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import reassociation
from fusionopt.transforms.dispatch.iree_rules import clones_into_consumers, is_dequantization_like, is_dynamic_slice


def should_clone(op: Operation) -> bool:
    """Cheap ops plus non-contiguous or dynamic slices (and reshapes of them): inside the
    consumer's dispatch they are an indexed read of the captured tensor instead of a slow copy.
    Dequantizations are cloned too (`iree_rules.clones_into_consumers`)."""
    if du.is_clonable_into_dispatch(op) or clones_into_consumers(op) or is_dynamic_slice(op):
        return True
    if du.is_reshape(op):
        source = op.operands[0].owner
        return (isinstance(source, Operation) and source.name == "tensor.extract_slice" and should_clone(source)
                and not merges_a_partial_dim(op, source))
    return op.name == "tensor.extract_slice" and du.static_slice_params(op) is not None and not du.slice_is_contiguous(op)


def merges_a_partial_dim(reshape: Operation, cut: Operation) -> bool:
    """A collapse that merges a dim the slice `cut` takes in part into an outer one: no strided
    view of the slice's source has that shape. IREE 3.13 read such a collapse, cloned into a
    region, as one vector of the whole tensor and built no module ("large vector sizes (32768
    bytes)": r3d_18's residual add reading its conv's per-slice crop, 30 rows cut to 28 and
    merged with the frames). Left outside, the collapse is a copy of its own."""
    if reshape.name != "tensor.collapse_shape" or (params := du.static_slice_params(cut)) is None:
        return False
    sizes, full = params[1], cut.operands[0].type.get_shape()  # type: ignore[attr-defined]
    return any(sizes[d] != full[d] for group in reassociation(reshape) for d in group[1:])


def clone_producers_into_regions(regions: list[DispatchRegionOp]) -> None:
    """`clone_producers_into_region` for each of `regions`. Cloning only inserts into region
    bodies, so each outer block's op positions are computed once for all of them (per region,
    a function of 10k ops spent most of its formation time numbering them: an unrolled LSTM)."""
    positions: dict[Block, dict[Operation, int]] = {}
    for region_op in regions:
        clone_producers_into_region(region_op, positions)


def clone_producers_into_region(region_op: DispatchRegionOp,
                                positions: dict[Block, dict[Operation, int]] | None = None) -> None:
    """Duplicate every cheap op the region uses from outside into the region's entry
    (`positions`: a cache of op positions per outer block, valid while those blocks are not
    changed)."""
    to_clone = _clonable_closure(region_op)
    if not to_clone:
        return
    to_clone = _in_dependence_order(to_clone, {} if positions is None else positions)
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


def _in_dependence_order(ops: list[Operation], positions: dict[Block, dict[Operation, int]]
                         ) -> list[Operation]:
    """`ops` ordered so each follows the ones it uses (they may come from several blocks, e.g.
    a slice in the entry block cast in the next one); the original order breaks ties."""
    block = ops[0].parent_block()
    if block is not None and block not in positions:
        positions[block] = {op: i for i, op in enumerate(block.ops)}
    position = positions[block] if block is not None else {}
    pending = sorted(ops, key=lambda op: position.get(op, 0))
    members, ordered, placed = set(ops), [], set()
    while pending:
        ready = next(op for op in pending if all(o.owner in placed or o.owner not in members for o in op.operands))
        pending.remove(ready)
        ordered.append(ready)
        placed.add(ready)
    return ordered


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
    """Originals left without users once cloned (a dequantization counts even though, unused,
    it no longer passes `clones_into_consumers`)."""
    for op in reversed(list(block.ops)):
        if (should_clone(op) or is_dequantization_like(op)) and all(not r.uses for r in op.results):
            block.erase_op(op)
