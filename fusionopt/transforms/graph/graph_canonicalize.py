"""`graph-canonicalize`: the algebraic identities of the `graph` dialect, to a fixpoint.

Runs exactly the patterns in `graph_canonicalization_patterns` (double transposes, reshape and
broadcast chains, slice/concat identities, x + 0, x * 1, views of constants, stacked constant
adds; the list and the exactness notes are in that module's docstring). The same patterns also
run under upstream `canonicalize`: the graph ops carry the `GraphCanonicalization` trait.
Unlike `canonicalize` this pass touches only graph ops, which keeps its tests focused.

Options: none.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.dead_code_elimination import region_dce

from fusionopt.transforms.graph.graph_canonicalization_patterns import all_patterns


@dataclass(frozen=True)
class GraphCanonicalizePass(ModulePass):
    """Apply the graph dialect's canonicalization patterns (dead ops are erased on the way)."""

    name = "graph-canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        applier = GreedyRewritePatternApplier(all_patterns())
        # Like upstream `canonicalize`: constants orphaned by a rewrite are erased at the end.
        PatternRewriteWalker(applier, post_walk_func=region_dce).rewrite_module(op)
