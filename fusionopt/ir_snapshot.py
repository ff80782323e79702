"""A cheap record of a module's structure, to tell whether and where a pass changed the IR.

MLIR's pass manager skips the verifier after a pass that changed nothing (it preserved all
analyses): IR that verified before still verifies. xDSL passes do not report that, so the pass
runner compares the records taken after consecutive passes; one walk costs a fraction of a
verification. The record holds, per op in walk order: the op, its parent, operand values,
result types, properties, attributes, successors, whether it ends its block, and its regions'
blocks with their arguments and argument types. xDSL ops, values and blocks compare by
identity, and the record keeps them alive, so a new object at a freed address cannot pass for
an old one; attributes are immutable values and compare by value (identity first, so a shared
weight is not compared byte by byte).

`ops_to_verify` relies on what an op's verifier reads: the op's own record, its operands and
their defining ops (types are recorded with the op or block that defines them), the users of
its results, its parent (HasParent, a terminator against its parent's types), its nested ops
(an IsolatedFromAbove or region check), and, for symbol users, symbols anywhere (so a changed
symbol means verifying everything).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation


@dataclass(eq=False)
class IRSnapshot:
    keys: list[tuple]  # per op in walk order; a key's first item is the op

    def same_as(self, other: IRSnapshot | None) -> bool:
        return other is not None and self.keys == other.keys

    def ops_to_verify(self, verified: IRSnapshot) -> list[Operation] | None:
        """The ops whose verification may differ from when the module matched `verified`
        (which verified), each to be verified without its nested ops; None: verify it all."""
        before = {key[0]: key for key in verified.keys}
        now = {key[0] for key in self.keys}
        changed = [key[0] for key in self.keys if before.get(key[0]) != key]
        removed = [key for op, key in before.items() if op not in now]
        if any(_is_symbol(op) for op in changed) or any(_is_symbol(key[0]) for key in removed):
            return None
        ops: dict[Operation, None] = {}
        for op in changed:
            ops.update(dict.fromkeys(op.walk()))  # nested ops may check this op (a terminator)
            ops.update((use.operation, None) for result in op.results for use in result.uses)
            ops.update((value.owner, None) for value in op.operands if isinstance(value.owner, Operation))
            ops.update(dict.fromkeys(_ancestors(op)))
        for key in removed:  # the op that held a removed op checks its regions afresh
            holder = key[1].parent_op() if key[1] is not None else None
            if holder in now:
                ops[holder] = None
                ops.update(dict.fromkeys(_ancestors(holder)))
        return list(ops)


def take_snapshot(module: Operation) -> IRSnapshot:
    return IRSnapshot([_op_key(op) for op in module.walk()])


def _op_key(op: Operation) -> tuple:
    # xDSL (0.74, pinned) keeps an op's operands and successors in tuples it replaces on every
    # change, so the tuples themselves are the record; `tuple(op.operands)` copies through a
    # view object, which took a quarter of each snapshot (37 snapshots a decoder build).
    key = (
        op,
        op.parent,
        op._operands,  # pyright: ignore[reportPrivateUsage]
        tuple([result.type for result in op.results]),
        tuple(op.properties.items()),
        tuple(op.attributes.items()),
        op._successors,  # pyright: ignore[reportPrivateUsage]
        op.next_op is None,  # a terminator must stay last
    )
    if not op.regions:
        return key
    blocks = tuple(
        (block, tuple(block.args), tuple(block.arg_types)) for region in op.regions for block in region.blocks
    )
    return (*key, blocks)


def _ancestors(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def _is_symbol(op: Operation) -> bool:
    """A symbol's change may break a use anywhere (`util.call` checks its callee's type)."""
    return "sym_name" in op.properties or "sym_name" in op.attributes
