"""Growing a fusion group from a root (the producer side of `linalg-fuse-elementwise`).

`form_fusion_group(root, options)` works like IREE's `fuseRootsWithProducers`, extended with
luminal's multi-use handling:
1. move in every fusable producer whose users are all moved members (repeat to a fixed
   point, so `b = exp(a); c = b + sin(b)` moves `b` once both of its users are in);
2. then offer each remaining candidate (it has users outside the group) to the duplication
   cost rule (`is_worth_duplicating`, see elementwise_fusion_utils); a duplicated producer
   stays in the IR for its other users;
3. every addition must keep the kernel within `max_operands` bindings, and the work computed
   below a `tensor.concat` (evaluated at every position) within `max_recompute_ops`.
Reductions and contractions are never members: they are read as leaves.
"""

from __future__ import annotations

from xdsl.ir import Operation

from fusionopt.transforms.linalg.elementwise_fusion_utils import (
    FusionGroup,
    FusionOptions,
    body_cost,
    collect_leaves,
    is_elementwise_generic,
    is_fusable_producer,
    is_fusable_slice_under_pad,
    kernel_operand_count,
    kernel_read_bytes,
    read_operands,
)


FUSABLE_FOR_COST = {
    "linalg.generic",
    "linalg.transpose",
    "linalg.broadcast",
    "tensor.collapse_shape",
    "tensor.expand_shape",
    "tensor.extract_slice",
}


def candidate_producers(group: FusionGroup, options: FusionOptions) -> list[Operation]:
    """Fusable producers of group members that are not members yet (in program order)."""
    block = group.root.parent_block()
    found: dict[Operation, None] = {}
    for member in group.members():
        for operand in read_operands(member):
            producer = operand.owner
            if not isinstance(producer, Operation) or group.contains(producer):
                continue
            if producer.parent_block() is not block:
                continue
            if is_fusable_producer(producer, options) or is_fusable_slice_under_pad(group, producer, options):
                found[producer] = None
    return list(found)


def users_all_moved(group: FusionGroup, producer: Operation) -> bool:
    """True when every user will disappear with the group (root or moved members)."""
    for result in producer.results:
        for use in result.uses:
            user = use.operation
            if not (user is group.root or user in group.moved):
                return False
    return True


def fits_operand_limit(group: FusionGroup, options: FusionOptions) -> bool:
    return kernel_operand_count(collect_leaves(group, options)) <= options.max_operands


def concat_guarded_cost(group: FusionGroup) -> int:
    """Body cost of the members computed below a `tensor.concat` of the group.

    A fused concat is a chain of selects, so every piece is computed at *every* position:
    the work below a concat is multiplied by its number of pieces. We only accept that for
    cheap pieces (a negation in a rotary embedding), not for whole towers of an MLP.
    """
    guarded: set[Operation] = set()
    outside: set[Operation] = set()
    worklist = [m for m in group.members() if m.name == "tensor.concat"]
    while worklist:
        op = worklist.pop()
        for operand in read_operands(op):
            producer = operand.owner
            if not isinstance(producer, Operation) or producer in guarded:
                continue
            if group.contains(producer):
                guarded.add(producer)
                worklist.append(producer)
            else:
                outside.add(producer)
    # Lookahead: work still outside the group would join it later, so count it now;
    # otherwise a concat root grabs the last op of each piece and strands the rest.
    pending = sum(fusable_subtree_cost(op, set()) for op in outside)
    return sum(body_cost(op) for op in guarded) + pending


def fusable_subtree_cost(op: Operation, seen: set[Operation]) -> int:
    """Body cost of `op` and of the elementwise/view producers it could pull in."""
    if op in seen or op.name not in FUSABLE_FOR_COST:
        return 0
    if op.name == "linalg.generic" and not is_elementwise_generic(op):
        return 0  # a reduction never joins an elementwise group
    seen.add(op)
    return body_cost(op) + sum(
        fusable_subtree_cost(v.owner, seen) for v in read_operands(op) if isinstance(v.owner, Operation)
    )


def within_limits(group: FusionGroup, options: FusionOptions) -> bool:
    return fits_operand_limit(group, options) and concat_guarded_cost(group) <= options.max_recompute_ops


def try_add(group: FusionGroup, producer: Operation, options: FusionOptions, moved: bool) -> bool:
    target = group.moved if moved else group.duplicated
    target.add(producer)
    if within_limits(group, options):
        return True
    target.discard(producer)
    return False


def is_worth_duplicating(group: FusionGroup, producer: Operation, options: FusionOptions) -> bool:
    """The documented cost rule for a producer that stays materialised for other users."""
    if not options.aggressive:
        return False
    if producer.name == "linalg.generic" and body_cost(producer) > options.max_recompute_ops:
        return False
    before = kernel_read_bytes(group, collect_leaves(group, options))
    group.duplicated.add(producer)
    after = kernel_read_bytes(group, collect_leaves(group, options))
    group.duplicated.discard(producer)
    if producer.name == "linalg.generic" and body_cost(producer) > 0:
        return after < before
    return after <= before


def move_producers_to_fixed_point(group: FusionGroup, options: FusionOptions) -> None:
    changed = True
    while changed:
        changed = False
        for producer in candidate_producers(group, options):
            if users_all_moved(group, producer) and try_add(group, producer, options, moved=True):
                changed = True


def form_fusion_group(root: Operation, options: FusionOptions) -> FusionGroup:
    group = FusionGroup(root)
    while True:
        move_producers_to_fixed_point(group, options)
        for producer in candidate_producers(group, options):
            if is_worth_duplicating(group, producer, options) and try_add(
                group, producer, options, moved=False
            ):
                break
        else:
            return group
