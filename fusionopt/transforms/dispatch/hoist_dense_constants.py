"""`dispatch-hoist-dense-constants`: a float tensor constant that is no splat, inside a
`flow.dispatch.region`, moves in front of the region and is read as one of its operands.

Formation clones constants of up to 256 bytes into their regions (`dispatch_utils.
is_clonable_into_dispatch`, IREE's `--iree-flow-inline-constants-max-byte-length` default), so
each conv's bias lives inside its kernel: ShuffleNetV2's seven 58 -> 64 1x1 convs at 28x28 were
seven executables to `iree-compile`, equal but for their 64 bias values. Read from outside, with
IREE told not to clone them back (`iree_flags`), equal kernels are one executable: ShuffleNetV2
45 -> 38 of them, its `iree-compile` 2.39 -> 2.16 s, MobileNetV2 37 -> 34, at the same run time
(bench/RESULTS.md, "Equal kernels, different biases"). Splats stay (they are one value, and IREE
folds them into the code); integer constants stay (index tables a gather reads per element).
Exact: the same values, read from a buffer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.transforms.common import dispatch_utils as du

def is_dense_float_constant(op: Operation) -> bool:
    """An `arith.constant` float tensor that stores more than one value."""
    value = op.properties.get("value") if op.name == "arith.constant" else None
    return (isinstance(value, DenseIntOrFPElementsAttr) and isinstance(value.get_type(), TensorType)
            and isinstance(value.get_element_type(), AnyFloat) and bool(du.constant_byte_size(op)))


class HoistDenseConstant(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        region_op = op.parent_op()
        if not isinstance(region_op, DispatchRegionOp) or not is_dense_float_constant(op):
            return
        hoisted = op.clone()
        rewriter.insert_op(hoisted, InsertPoint.before(region_op))
        rewriter.replace_op(op, [], hoisted.results)
        pass_statistics.count("dense constants read from outside their region")


@dataclass(frozen=True)
class DispatchHoistDenseConstantsPass(ModulePass):
    """Float constants that are no splat move out of their dispatch regions (module docstring)."""

    name = "dispatch-hoist-dense-constants"
    iree_flags: ClassVar[tuple[str, ...]] = ("--iree-flow-inline-constants-max-byte-length=0",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(HoistDenseConstant(), apply_recursively=False).rewrite_module(op)
