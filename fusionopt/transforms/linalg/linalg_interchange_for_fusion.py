"""`linalg-interchange-for-fusion`: permute loops so a root's result is read through identity.

IREE issue #8951 / PR #9103 (`TransposeGenericOps`): tile+fuse puts an elementwise consumer
in its producer's dispatch only if it reads the producer's result through an identity map on
the producer's parallel loops (`consumer_walks.reads_root_result_compatibly`). A consumer like

    linalg.generic {maps = [(d0, d1) -> (d1, d0), (d0, d1) -> (d0, d1)]} ins(%matmul ...)

is the same computation as the loop-interchanged

    linalg.generic {maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1, d0)]} ins(%matmul ...)

where the transpose has moved to the output map, and that one fuses. Two rewrites:
- all-parallel generics reading a contraction/reduction result (single use) through a
  permutation are interchanged by that permutation (loops of extent 1 that the map skips go
  last); applied only when the interchanged op then passes the fusion check;
- generics with reduction loops get their reduction loops innermost.
When a candidate cannot be interchanged, a remark says why. No options.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from fusionopt.diagnostics import emit_remark
from fusionopt.transforms.common import consumer_walks as cw
from fusionopt.transforms.common import dispatch_utils as du


def interchange_generic(op: Operation, permutation: list[int]) -> None:
    """Make new loop i the old loop permutation[i] (upstream `interchangeGenericOp`)."""
    n = len(permutation)
    new_position = {old: new for new, old in enumerate(permutation)}
    old_to_new = AffineMap(n, 0, tuple(AffineDimExpr(new_position[k]) for k in range(n)))
    maps = [m.compose(old_to_new) for m in du.indexing_maps(op)]
    iterators = op.properties["iterator_types"].data
    du.set_indexing_maps(op, maps)
    op.properties["iterator_types"] = ArrayAttr([iterators[old] for old in permutation])
    for inner in op.regions[0].walk():
        if inner.name == "linalg.index":
            old = inner.properties["dim"].value.data
            inner.properties["dim"] = IntegerAttr(new_position[old], inner.properties["dim"].type)


def permutation_reading_identity(op: Operation, operand_map: AffineMap) -> list[int] | None:
    """Loop order under which `operand_map` reads its dims in order; skipped loops must have
    extent 1 (they go last). None when the map is not a projected permutation."""
    if not operand_map.is_projected_permutation():
        return None
    read = [e.position for e in operand_map.results]
    extents = du.loop_extents(op)
    rest = [d for d in range(operand_map.num_dims) if d not in read]
    if any(extents[d] != 1 for d in rest):
        return None
    return read + rest


def root_input(op: Operation) -> tuple[Operation, SSAValue] | None:
    """The first input produced by a contraction/reduction (a dispatch root)."""
    for value in du.dps_inputs(op):
        producer = value.owner
        if isinstance(producer, Operation) and du.is_root_op(producer):
            return producer, value
    return None


class InterchangeToReadRootThroughIdentity(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.generic" or not du.is_all_parallel(op):
            return
        found = root_input(op)
        if found is None:
            return
        root, value = found
        if cw.reads_root_result_compatibly(root, op, value):
            return  # already normalized
        why = self.refusal(op, root, value)
        if why is not None:
            emit_remark(op, f"linalg-interchange-for-fusion: not interchanged: {why}")
            return
        permutation = permutation_reading_identity(op, du.operand_map(op, value))
        interchange_generic(op, permutation)
        rewriter.handle_operation_modification(op)

    @staticmethod
    def refusal(op: Operation, root: Operation, value: SSAValue) -> str | None:
        if du.use_count(value) != 1:
            return f"the {root.name} result has {du.use_count(value)} uses (interchange would not fuse it)"
        permutation = permutation_reading_identity(op, du.operand_map(op, value))
        if permutation is None:
            return "the root result is not read through a permutation"
        trial = op.clone()
        interchange_generic(trial, permutation)
        compatible = cw.reads_root_result_compatibly(root, trial, value)
        trial.erase(safe_erase=False)
        if not compatible:
            return "loops would still not match the root's parallel loops"
        return None


class MakeReductionInnermost(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.generic":
            return
        kinds = du.iterator_kinds(op)
        order = [d for d, k in enumerate(kinds) if k == "parallel"] + [
            d for d, k in enumerate(kinds) if k != "parallel"
        ]
        if order != list(range(len(kinds))):
            interchange_generic(op, order)
            rewriter.handle_operation_modification(op)


@dataclass(frozen=True)
class LinalgInterchangeForFusionPass(ModulePass):
    """Interchange generic loops so consumers read contraction/reduction results through
    identity maps, and reduction loops are innermost. No options."""

    name = "linalg-interchange-for-fusion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([MakeReductionInnermost(), InterchangeToReadRootThroughIdentity()]),
            apply_recursively=False,
        ).rewrite_module(op)
