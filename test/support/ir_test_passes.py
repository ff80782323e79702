"""Passes the pass-runner and `fusion-opt` tests run: one that changes nothing, one that leaves
invalid IR."""

from __future__ import annotations

import dataclasses

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, f32, i32
from xdsl.passes import ModulePass


@dataclasses.dataclass(frozen=True)
class NoOpPass(ModulePass):
    name = "test-no-op"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclasses.dataclass(frozen=True)
class BreakIRPass(ModulePass):
    """Puts an arith.addi with an f32 result (and its i32 constant) first in the first function:
    invalid IR."""

    name = "test-break-ir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        const = arith.ConstantOp(IntegerAttr(1, i32))
        bad = arith.AddiOp(const.result, const.result, result_type=f32)
        block = next(o for o in op.walk() if o.name == "func.func").body.block  # type: ignore[attr-defined]
        block.insert_ops_before([const, bad], block.first_op)
