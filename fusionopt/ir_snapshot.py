"""A cheap record of a module's structure, to tell whether a pass changed the IR.

MLIR's pass manager skips the verifier after a pass that changed nothing (it preserved all
analyses): IR that verified before still verifies. xDSL passes do not report that, so the pass
runner compares the records taken after consecutive passes; one walk costs a fraction of a
verification. The record holds, per op in walk order: the op, its parent, operand values,
result types, properties, attributes, successors, and its regions' blocks with their arguments
and argument types. xDSL ops, values and blocks compare by identity, and the record keeps them
alive, so a new object at a freed address cannot pass for an old one; attributes are immutable
values and compare by value (identity first, so a shared weight is not compared byte by byte).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation


@dataclass(eq=False)
class IRSnapshot:
    keys: list[tuple]

    def same_as(self, other: IRSnapshot | None) -> bool:
        return other is not None and self.keys == other.keys


def take_snapshot(module: Operation) -> IRSnapshot:
    return IRSnapshot([_op_key(op) for op in module.walk()])


def _op_key(op: Operation) -> tuple:
    key = (
        op,
        op.parent,
        tuple(op.operands),
        tuple(op.result_types),
        tuple(op.properties.items()),
        tuple(op.attributes.items()),
        tuple(op.successors),
    )
    if not op.regions:
        return key
    blocks = tuple(
        (block, tuple(block.args), tuple(block.arg_types)) for region in op.regions for block in region.blocks
    )
    return (*key, blocks)
