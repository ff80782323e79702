"""`graph-reassociate-dots`: reorder chains of `graph.dot`s to minimise run-time FLOPs.

MIGraphX issue #2818: in `X * (Y*A + b) * C` with constant A, b, C the last GEMM disappears if
the chain is rewritten `X * (Y*(A*C) + b*C)` and the constant products fold. MIGraphX's
`simplify_algebra` has the distribution step (`find_dot_add`) but no re-association; this pass
does both, globally:

1. Constant scales are pushed into constant dot operands (`dot_scale_patterns`: MIGraphX
   `find_mul_dot` / `find_dot_mul`), so they cost nothing and do not break chains.
2. Every maximal chain (`dot_chain_read.read_chain`: single-use dots, constants and broadcasts
   of constants, single-use `dot + constant bias` Linear layers, and reshapes / transposes that
   only regroup rows and batch dims when every other factor is the same for all row groups) is
   re-planned with the matrix-chain DP of `dot_chain` -- products of constants are free,
   constants distribute over bias adds -- and rewritten only if the plan is strictly cheaper in
   run-time FLOPs (the `fusion-stats` measure). Constant products are folded right away (same
   rounding as `fusion-run`), none larger than `max-const-bytes`.
Each decision is reported as a remark at the chain's last dot:
`reassociated 3-dot chain: 1.01 GFLOP -> 596.80 MFLOP (3 -> 2 run-time dots)` or
`kept 2-dot chain: no cheaper order than 68.42 MFLOP` (only chains of >= 2 dots are reported).
3. A constant dot operand is distributed over a constant add feeding the dot (MIGraphX
   `find_dot_add`: `dot(x + C1, C2) -> dot(x, C2) + C1*C2`, `dot_add_patterns`), where the
   add then rides in the dot's epilogue for no more FLOPs or no bigger constant; f32/f64 and
   integers only. Remark: `distributed the constant dot operand over a constant add ...`.
Afterwards stacked constant bias adds are merged and dead ops removed.
Statistics: `chains reassociated`, `run-time dots removed`.

Numerics in f16/bf16. Each run-time dot (f32 accumulation), scale or bias add of the input
program rounds its result once to the element type (unit roundoff u = 2^-11 for f16, 2^-8 for
bf16), so reordering a low-precision chain moves its roundings: a folded `A*C` is rounded where
the input rounded `X*A`, and cancellation in one order is not cancellation in the other. A
re-plan is therefore allowed in f16/bf16 only when its result is ONE rounding of the exact
chain value: it runs a single dot with nothing after it, and every constant product it folds
(and every constant scale it pushes into a dot operand) is exact in the element type, checked
in float64 at compile time (`dot_chain_numerics`). Then, with k the contraction length,

    |y' - y| <= u*|y| + gamma_k(2^-24) * |X|*|A*C|     (y = X*A*C exact, y' the re-plan)

i.e. correctly rounded up to f32 accumulation, while the input program pays its final rounding
plus the propagated intermediate ones, u*|y| + u*|X*A|*|C| + gamma_k(2^-24)*|X|*|A|*|C|: the
re-plan is never less accurate elementwise beyond the f32 accumulation term. Everything else
(an inexact folded product, two run-time dots reordered, a bias add distributed) is refused
with a remark (`kept 2-dot chain: a constant product it folds is not exact in bf16`). Widening
the re-plan to f32 instead would keep the FLOP saving but turn f16 GEMMs into f32 ones (no
f16 tensor cores), so it is not done. f32, f64 and integer chains are re-planned as before
(their rounding moves by ulps; integers are exact).
Caveat: a correctly rounded value can still differ from the input program's by an ulp, and a
consumer with a period below an ulp (cos of a bf16 value above 512, where one ulp is 4) turns
that into an O(1) difference either way: there neither result carries information.

The fast-math contract (default; every float type). Like every ML compiler (LLVM's
`reassoc`/`ninf`/`nnan`, XLA, MIGraphX, which rewrite dot chains unconditionally), the pass
assumes that the values the input program computes are finite -- its run-time operands hold no
inf or NaN and its intermediate results do not overflow -- and re-plans a chain whenever that
saves run-time FLOPs: in exact arithmetic every grouping is the same, in floating point the
result moves by rounding (see above for f16/bf16). Within the contract the re-plan stays
finite too: a folded constant product (or distributed bias) that overflows, or one with an
entry whose terms all underflow, is refused (`kept 2-dot chain: a folded constant product
overflows or underflows in f32`), and run-time values are never multiplied in a new order.
Outside the contract the orders can differ: where `x[i,k] = inf`, `(x*A)*C` forms
`inf*A[k,l]` for every l -- NaN where A[k,l] = 0, `inf - inf = NaN` where the terms of a sum
differ in sign -- while `x*(A*C)` forms `inf*(A*C)[k,j]`, +-inf unless that entry is 0; a
`greater` + `where`, a `max` or an `exp` downstream then gives a different finite value.
`strict-nonfinite=true` keeps inf and NaN on the same elements: a float chain is then
re-planned only when its constants are *sign-rigid* (`dot_chain_nonfinite`): each is finite
and zero-free with a rank-1 sign pattern `sign(M) = r c^T`, adjacent constants agree on the
signs they share, and the folded products stay finite and nonzero (the condition is necessary
as well). Refusals say why: `kept 2-dot chain: a constant factor holds a zero (inf*0 = NaN in
one order, not in the other)`. Mixed-sign weights -- nearly every trained layer -- are then
kept. Integers are exact and re-planned either way. The named pipelines
`graph-simplify-strict-nonfinite` and `graph-to-dispatch-strict-nonfinite` run the pass so.

Chains end at anything else: a dot or add with a second user (its value is needed), views
that touch the last dim (e.g. splitting heads), slices, converts (mixed precision),
non-constant biases.

Options:
  max-const-bytes (int, default 67108864 = 64 MiB): largest constant the pass may create.
  strict-nonfinite (bool, default false): keep inf and NaN of the run-time operands on the same
    elements: re-plan float chains only when their constants are sign-rigid (see above).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

from fusionopt import pass_statistics
from fusionopt.cost_model import op_flops
from fusionopt.diagnostics import emit_remark
from fusionopt.dialects import graph
from fusionopt.transforms.graph.dot_chain import Plan, best_plan
from fusionopt.transforms.graph.dot_chain_ir import PlanEmitter
from fusionopt.transforms.graph.dot_chain_numerics import refusal as numerics_refusal
from fusionopt.transforms.graph.dot_add_patterns import distribute_patterns
from fusionopt.transforms.graph.dot_chain_read import Chain, read_chain, stored_constant
from fusionopt.transforms.graph.dot_scale_patterns import PushScaleIntoDot, PushScaleThroughDotOperand
from fusionopt.transforms.graph.graph_canonicalization_patterns import ReassociateConstantAdds
from fusionopt.transforms.graph.graph_ir import erase_if_dead

DEFAULT_MAX_CONST_BYTES = 64 * 1024 * 1024


def format_flops(flops: int) -> str:
    for unit, scale in (("GFLOP", 10**9), ("MFLOP", 10**6), ("KFLOP", 10**3)):
        if flops >= scale:
            return f"{flops / scale:.2f} {unit}"
    return f"{flops} FLOP"


def runtime_ops(chain: Chain) -> list[Operation]:
    """The chain's ops that run at run time (an op on constants only would fold)."""
    folded: set[Operation] = set()

    def is_compile_time(op: Operation) -> bool:
        return all(stored_constant(v) is not None or v.owner in folded for v in op.operands)

    # chain.ops lists users before producers: walk producers first.
    for op in reversed(chain.ops):
        if is_compile_time(op):
            folded.add(op)
    return [op for op in chain.ops if op not in folded]


def chain_cost(ops: list[Operation]) -> int:
    return sum(op_flops(op) for op in ops)


def is_chain_worth_planning(ops: list[Operation]) -> bool:
    """At least two dots: one dot alone has nothing to reorder."""
    return sum(isinstance(op, graph.DotOp) for op in ops) >= 2


@dataclass(frozen=True)
class GraphReassociateDotsPass(ModulePass):
    """Re-plan every dot chain for the fewest run-time FLOPs (see module doc).

    Options:
      max-const-bytes (int, default 67108864): largest constant the pass may create.
      strict-nonfinite (bool, default false): inf/NaN land where they did (see module doc).
    """

    name = "graph-reassociate-dots"

    max_const_bytes: int = DEFAULT_MAX_CONST_BYTES
    strict_nonfinite: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        scales = [PushScaleIntoDot(self.max_const_bytes), PushScaleThroughDotOperand(self.max_const_bytes)]
        PatternRewriteWalker(GreedyRewritePatternApplier(scales)).rewrite_module(op)
        blocks = {inner.parent_block() for inner in op.walk() if isinstance(inner, graph.DotOp)}
        for block in blocks:
            if block is not None:
                self.reassociate_block(block)
        # Chains first (their DP distributes over Linear layers itself), then single dots
        # whose input is `x + constant`.
        distribute = GreedyRewritePatternApplier(distribute_patterns(self.max_const_bytes))
        PatternRewriteWalker(distribute).rewrite_module(op)
        # A distributed bias may now sit next to the layer's own: `(x*W' + b1') + b2` folds.
        PatternRewriteWalker(GreedyRewritePatternApplier([ReassociateConstantAdds()])).rewrite_module(op)
        DeadCodeElimination().apply(ctx, op)  # constants the folds left behind

    def reassociate_block(self, block: Block) -> None:
        """Chains are read from their last dot, so each is seen whole, once."""
        seen: set[Operation] = set()
        for root in reversed([op for op in block.ops if isinstance(op, graph.DotOp)]):
            if root in seen or root.parent is None:
                continue
            chain = read_chain(root)
            seen.update(chain.ops)
            self.reassociate(chain)

    def reassociate(self, chain: Chain) -> None:
        if not is_chain_worth_planning(chain.ops):
            return
        ops = runtime_ops(chain)
        before = chain_cost(ops)
        batch, element_bytes = math.prod(chain.batch_shape), chain.element.compile_time_size
        plan = best_plan(chain.factors, batch, element_bytes, self.max_const_bytes)
        size = f"{len(chain.dots)}-dot chain"
        if plan.cost >= before:
            emit_remark(chain.root, f"kept {size}: no cheaper order than {format_flops(before)}")
            return
        if (reason := numerics_refusal(chain, plan, self.strict_nonfinite)) is not None:
            emit_remark(chain.root, f"kept {size}: {reason}")
            return
        dots = sum(isinstance(op, graph.DotOp) for op in ops)
        pass_statistics.count("chains reassociated")
        if dots > plan.dots:
            pass_statistics.count("run-time dots removed", dots - plan.dots)
        emit_remark(chain.root, f"reassociated {size}: {format_flops(before)} -> "
                    f"{format_flops(plan.cost)} ({dots} -> {plan.dots} run-time dots)")
        self.rewrite(chain, plan)

    def rewrite(self, chain: Chain, plan: Plan) -> None:
        new_value = PlanEmitter(chain).result(plan)
        chain.root.result.replace_all_uses_with(new_value)
        erase_if_dead([chain.root])
