"""Use/def queries over nested regions: which values an op (with its regions) reads from above,
whether an op sits inside another, which top-level op of a block holds a nested user. Shared by
dispatch-region formation, flow conversion and the linalg stage (through `dispatch_utils`)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, Operation, SSAValue


def values_used_inside(op: Operation) -> Iterator[SSAValue]:
    """Operands of `op` and every value its nested regions capture from above."""
    yield from op.operands
    yield from values_captured_by(op)


def values_captured_by(op: Operation) -> Iterator[SSAValue]:
    """Values used inside `op`'s regions but defined outside `op` (e.g. a gather's table)."""
    for region in op.regions:
        for inner in region.walk():
            for operand in inner.operands:
                if not defined_inside(operand, op):
                    yield operand


def defined_inside(value: SSAValue, op: Operation) -> bool:
    """`value` is a result or block argument of `op` or of something nested in it."""
    owner = value.owner
    where = owner.parent_op() if isinstance(owner, Block) else owner
    return is_inside(where, op)


def is_inside(candidate: Operation | None, ancestor: Operation) -> bool:
    """`candidate` is `ancestor` or nested (at any depth) in one of its regions."""
    while candidate is not None:
        if candidate is ancestor:
            return True
        candidate = candidate.parent_op()
    return False


def enclosing_dispatch_region(op: Operation) -> Operation | None:
    """The innermost `flow.dispatch.region` holding `op`, None at top level."""
    parent = op.parent_op()
    while parent is not None and parent.name != "flow.dispatch.region":
        parent = parent.parent_op()
    return parent


def top_level_user(block: Block, user: Operation) -> Operation | None:
    """The op of `block` that contains `user` (itself when it is directly in the block)."""
    while user is not None and user.parent_block() is not block:
        user = user.parent_op()
    return user


def defining_op_in(block: Block, value: SSAValue) -> Operation | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner.parent_block() is block:
        return owner
    return None


def use_count(value: SSAValue) -> int:
    return sum(1 for _ in value.uses)


def sole_user(value: SSAValue) -> Operation | None:
    """The op of `value`'s only use, or None (no use, or more than one)."""
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def downstream_bits(block: Block) -> tuple[dict[Operation, int], dict[Operation, int]] | None:
    """Each op's position in `block` and the bit set (by position) of the block's ops that use
    its results, directly or through others (a use inside an op's regions counts for that op):
    one backward sweep, so "does b depend on a" is a bit test instead of a walk. None when an op
    uses a value defined after it (a graph region, not a dataflow order)."""
    ops = list(block.ops)
    position = {op: i for i, op in enumerate(ops)}
    reached: dict[Operation, int] = {}
    for op in reversed(ops):
        bits = 0
        for result in op.results:
            for use in result.uses:
                user = top_level_user(block, use.operation)
                if user is None or user is op:
                    continue
                if user not in reached:
                    return None
                bits |= (1 << position[user]) | reached[user]
        reached[op] = bits
    return position, reached
