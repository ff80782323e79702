"""SSA dominance within blocks, which xDSL 0.74's verifier does not check.

xDSL resolves a forward reference to a value defined later in the same block and verifies the
result, so `%r = graph.div %e, %sb` before `%sb = ...` reached the passes, which then crashed
on IR MLIR rejects ("operand #1 does not dominate this use"). Checked here: an operand defined
by an op of the same block must come earlier in it, and one defined in an enclosing block must
come before the op that encloses the use. Values from another block of the same region (a CFG)
are left to xDSL, as are graph regions (a `builtin.module`'s body).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation


def first_dominance_violation(root: Operation) -> tuple[Operation, int] | None:
    """(op, operand index) of the first use not dominated by its definition, else None."""
    return _check_regions(root, {})


def _check_regions(op: Operation, before: dict[Block, set[Operation]]) -> tuple[Operation, int] | None:
    """Walk `op`'s blocks in order; `before` maps each enclosing block to the ops that precede
    the op being walked in it."""
    graph = isinstance(op, ModuleOp)  # a module's body is a graph region
    for region in op.regions:
        for block in region.blocks:
            seen: set[Operation] = set()
            if not graph:
                before[block] = seen
            for child in block.ops:
                for index, operand in enumerate(child.operands):
                    owner = operand.owner
                    earlier = before.get(owner.parent) if isinstance(owner, Operation) else None
                    if earlier is not None and owner not in earlier:
                        return child, index
                if child.regions and (found := _check_regions(child, before)) is not None:
                    return found
                seen.add(child)
            before.pop(block, None)
    return None


def first_detached_user(root: Operation) -> tuple[Operation, Operation] | None:
    """(op, user) of the first value defined in `root` that an op outside it uses: an op a pass
    built and then neither inserted nor erased stays a user of its operands, so `uses` counts
    it and a rewrite of the value hands it to a pattern walker, which cannot place it."""
    ops = list(root.walk())
    inside = set(ops)
    for op in ops:  # in IR order, so the op reported is the same from run to run
        values = [*op.results, *(arg for region in op.regions for block in region.blocks for arg in block.args)]
        for value in values:
            for use in value.uses:
                if use.operation not in inside:
                    return op, use.operation
    return None
