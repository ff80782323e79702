"""Counting what region formation left outside its `flow.dispatch.region`s (tests of the pad
writers)."""

from __future__ import annotations

from fusionopt.dialects.flow import DispatchRegionOp


def top_level_pads(module) -> int:
    """`tensor.pad` ops outside any dispatch region (each a copy dispatch in IREE's build)."""
    return sum(op.name == "tensor.pad" and not isinstance(op.parent_op(), DispatchRegionOp) for op in module.walk())
