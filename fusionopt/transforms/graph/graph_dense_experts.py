"""`graph-dense-experts`: a batched matvec over expert weights gathered per row becomes one dense
matmul over every expert, then a gather of each row's expert's outputs.

transformers' `batched_mm` experts (the MoE form torch.export traces: Mixtral, Qwen2-MoE,
Jamba, ...) repeat each token's row for each of its k experts and multiply it by that expert's
weights, gathered per row: `dot(gather(W[E, I, H], ids[S]), x[S, H, 1])` (or, with transposed
weights, `dot(x[S, 1, H], gather(W[E, H, O], ids[S]))`). The gather copies S whole weight
matrices: at Mixtral's test size (8 experts of 1024 x 256, 128 rows) 134 MB written and read
again for one projection, 82 ms on one Zen 4 core where the weights are 8 MB. Every expert for
every row instead, `dot(x[S, H], W'[H, E * I])` with W' the constant rearranged at compile time,
is a plain matmul over a constant weight (the form the CPU pipelines pack and tile) and ran in
4-6 ms with its gather of [S, I] outputs; the gather folded into the contraction (`tensor.extract`
in the payload) 10 ms (bench/RESULTS.md, "Every model builds: a tenth sweep"). What stays gathered
the llvm-cpu pipelines read in place that way (`linalg-gather-into-contraction`).

The dense form does E / k times the useful multiply-adds where each token's row is repeated for
its k experts (E times where rows are not repeated), so it is taken where that stays at most
`MAX_EXTRA_WORK` (16): Mixtral's 8 experts of which 2 a token (4x), OLMoE's 64 of which 8 (8x),
Qwen2-MoE's 60 of which 4 (15x); DeepSeek-V3's 256 of which 8 keep the gathered form (32x); rows
not repeated take it for at most 16 experts. The gathered form costs far more than its
multiply-adds: at Mixtral's size it ran 65x the dense form's time a multiply-add (82 ms for a
quarter of the dense form's 4-6 ms of work). And no more experts than rows (a decode step's 2
rows would read all E expert matrices where the gather reads 2). Where the rows are repeated
(`repeat_interleave`), the matmul runs over the tokens, k times fewer rows, and row s reads
token s // k's outputs. Each output is the same dot product over H as before (its
summation order is the matmul kernel's, as under the fast-math contract every contraction is). Indices are the importer's, already wrapped into [0, E); out of range is undefined there
as here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.transforms.dead_code_elimination import region_dce

from fusionopt import pass_statistics
from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy, element_dtype
from fusionopt.dialects.graph_base import element_of, shape_of
from fusionopt.transforms.graph.dot_chain_ir import constant_op
from fusionopt.transforms.graph.graph_ir import OpBuilder, dense_constant

MAX_EXTRA_WORK = 16


@dataclass(frozen=True)
class GatheredExperts:
    """`dot` of rows `x` [S, H] (as the dot reads them) by the experts of the constant `table`
    gathered by `ids` [S]; `lhs_gathered`: the gather is the dot's left operand (the table is
    [E, O, H]; else [E, H, O])."""
    ids: SSAValue
    x: SSAValue
    table: SSAValue
    lhs_gathered: bool

    def weights(self) -> np.ndarray:
        """The experts' weights [E, H, O], contraction dim first."""
        table = dense_to_numpy(dense_constant(self.table))  # type: ignore[arg-type]
        return table.transpose(0, 2, 1) if self.lhs_gathered else table


def expert_gather(value: SSAValue) -> graph.GatherOp | None:
    """`value` is a gather along axis 0 of a constant [E, a, b] table by [S] indices, read by
    nothing else."""
    gather = value.owner
    if not isinstance(gather, graph.GatherOp) or gather.axis_value != 0 or len(list(value.uses)) != 1:
        return None
    if dense_constant(gather.table) is None or len(shape_of(gather.table)) != 3 or len(shape_of(gather.indices)) != 1:
        return None
    return gather


def gathered_experts(dot: graph.DotOp) -> GatheredExperts | None:
    """The dot's gathered-experts form (module docstring), else None."""
    lhs, rhs = shape_of(dot.lhs), shape_of(dot.rhs)
    if len(lhs) != 3 or any(d < 0 for d in (*lhs, *rhs)):
        return None
    if rhs[-1] == 1 and (gather := expert_gather(dot.lhs)) is not None:
        return GatheredExperts(gather.indices, dot.rhs, gather.table, True)
    if lhs[-2] == 1 and (gather := expert_gather(dot.rhs)) is not None:
        return GatheredExperts(gather.indices, dot.lhs, gather.table, False)
    return None


def pays_dense(experts: GatheredExperts, repeats: int) -> bool:
    """The dense matmul, over rows each repeated `repeats` times, does at most `MAX_EXTRA_WORK`
    times the gathered one's multiply-adds, and there are no more experts than rows (module
    docstring)."""
    count, rows = shape_of(experts.table)[0], shape_of(experts.ids)[0]
    return count <= MAX_EXTRA_WORK * repeats and count <= rows


def repeated_rows(x: SSAValue) -> tuple[SSAValue, int] | None:
    """`x`, through reshapes, is each row of a [T, H] value repeated k times in a row
    (`repeat_interleave`: [T, 1, H] broadcast to [T, k, H], merged to [T * k, H]); the [T, 1, H]
    value and k."""
    while isinstance(x.owner, graph.ReshapeOp):
        x = x.owner.input
    spread = x.owner
    if not isinstance(spread, graph.BroadcastOp) or list(spread.dims_values) != [0, 1, 2]:
        return None
    source, result = shape_of(spread.input), shape_of(spread.result)
    if len(source) != 3 or source[1] != 1 or source[0] != result[0] or source[2] != result[2]:
        return None
    return spread.input, result[1]


def each_rows_outputs(b: OpBuilder, dense: SSAValue, ids: SSAValue, experts: int, width: int, repeats: int) -> SSAValue:
    """[S, width] of `dense` [S / repeats, experts * width]: row s's block ids[s] of the dense
    row s // repeats (one gather of the flattened outputs at (s // repeats) * experts * width +
    ids[s] * width + o)."""
    rows = shape_of(ids)[0]
    index_type = element_of(ids)
    dtype = element_dtype(index_type)
    starts = b.add(graph.MulOp(ids, b.add(constant_op(np.full(rows, width, dtype), index_type))))
    bases = (np.arange(rows, dtype=dtype) // repeats) * experts * width
    starts = b.add(graph.AddOp(starts, b.add(constant_op(bases, index_type))))
    grid = b.broadcast(starts, [0], [rows, width])
    columns = b.add(constant_op(np.broadcast_to(np.arange(width, dtype=dtype), (rows, width)).copy(), index_type))
    flat = b.reshape(dense, [int(np.prod(shape_of(dense)))])
    return b.add(graph.GatherOp(flat, b.add(graph.AddOp(grid, columns)), 0))


class DenseExperts(RewritePattern):
    """dot(gather(W, ids), x) -> gather(dot(x, W'), ids) (module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.DotOp, rewriter: PatternRewriter) -> None:
        experts = gathered_experts(op)
        if experts is None:
            return
        source, repeats = repeated_rows(experts.x) or (experts.x, 1)
        if not pays_dense(experts, repeats):
            return
        weights = experts.weights()
        count, hidden, width = weights.shape
        rows = shape_of(experts.ids)[0]
        b = OpBuilder(op, rewriter)
        stacked = weights.transpose(1, 0, 2).reshape(hidden, count * width)
        weights = b.add(constant_op(np.ascontiguousarray(stacked), element_of(op.result)))
        dense = b.add(graph.DotOp(b.reshape(source, [rows // repeats, hidden]), weights))
        picked = each_rows_outputs(b, dense, experts.ids, count, width, repeats)
        result = b.reshape(picked, shape_of(op.result))
        rewriter.replace_matched_op([], [result])
        pass_statistics.count("gathered expert weights computed densely")


@dataclass(frozen=True)
class GraphDenseExpertsPass(ModulePass):
    """Batched matvecs over gathered expert weights as dense matmuls (module docstring).
    Options: none."""

    name = "graph-dense-experts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DenseExperts(), post_walk_func=region_dce).rewrite_module(op)
