"""Chains of reductions over the same rows in one dispatch (IREE's softmax-like fusion).

A layer norm's mean then variance (or softmax's max then sum), joined by row-wise elementwise
ops, is one group rooted at the last reduction: IREE's aggressive fusion keeps such a chain in
one region (its `softmax_like_fusion` test) and codegens it as one kernel tiled along the rows,
with the input program's exact two-pass numerics. Used by `fusion_decision.decide_fusion_groups`.
"""

from __future__ import annotations

import math
from typing import Any

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from fusionopt.cost_model import element_bytes
from fusionopt.transforms.common import consumer_walks as cw
from fusionopt.transforms.common import dispatch_utils as du

# fusion_groups.FusionAnalysis (not imported: fusion_groups imports this module).
FusionAnalysis = Any


def row_signature(op: Operation) -> tuple | None:
    """What two reductions over the same rows share: loop extents, iterator kinds and result
    layout; None for an op without reduction loops, or a contraction."""
    if not du.has_reduction_loops(op) or du.is_contraction(op):
        return None
    return tuple(du.loop_extents(op)), tuple(du.iterator_kinds(op)), du.result_map(op, 0)


def reduces_same_rows(first: Operation, second: Operation) -> bool:
    """Both reductions (not contractions) walk the same loops and write the same row layout."""
    signature = row_signature(first)
    return signature is not None and signature == row_signature(second)


def reduction_rows(ops) -> dict[Operation, tuple]:
    """Each reduction of `ops` (not contractions), in order, with its `row_signature`."""
    return {op: signature for op in ops if (signature := row_signature(op)) is not None}


def ops_between(analysis: FusionAnalysis, sources: set[Operation], target: Operation) -> set[Operation]:
    """Every op on a path from `sources` to `target` (exclusive)."""
    forward: set[Operation] = set()
    stack = [u for s in sources for u in analysis.users[s]]
    while stack:
        op = stack.pop()
        if op not in forward and op is not target and analysis.position[op] < analysis.position[target]:
            forward.add(op)
            stack.extend(analysis.users[op])
    between: set[Operation] = set()
    stack = [p for p in analysis.producers[target] if p in forward]
    while stack:
        op = stack.pop()
        if op not in between:
            between.add(op)
            stack.extend(p for p in analysis.producers[op] if p in forward)
    return between


def row_extents(first: Operation) -> list[int | None] | None:
    """The extents of a reduction's rows (its parallel loops), when its result is laid out
    as those loops in order; None otherwise."""
    kinds = du.iterator_kinds(first)
    parallel = [i for i, kind in enumerate(kinds) if kind == "parallel"]
    result = du.result_map(first, 0)
    if result is None or du.dims_read(result) != parallel:
        return None
    extents = du.loop_extents(first)
    return [extents[i] for i in parallel]


def is_row_statistic_op(op: Operation, first: Operation) -> bool:
    """An elementwise op over the rows alone (a mean = sum / n between a layer norm's two
    reductions): one value per row, read and written in the reductions' row layout. IREE keeps
    it in the chain's dispatch (softmax_like_fusion); tiling along the rows fuses it."""
    rows = row_extents(first)
    return (
        rows is not None and du.is_elementwise_linalg(op) and len(op.results) == 1
        and du.loop_extents(op) == rows and all(du.is_identity_map(m) for m in du.indexing_maps(op))
    )


def tiles_with_rows(analysis: FusionAnalysis, op: Operation, first: Operation, links: set[Operation]) -> bool:
    """An elementwise op over the reductions' whole iteration space, writing it in loop order,
    reading the chain's values so that tiling along the rows fuses it (or a row statistic)."""
    if is_row_statistic_op(op, first):
        return True
    if not du.is_elementwise_linalg(op) or du.loop_extents(op) != du.loop_extents(first):
        return False
    if len(op.results) != 1 or not du.is_identity_map(du.result_map(op, 0)):
        return False
    for value in du.values_used_inside(op):
        producer = du.defining_op_in(analysis.block, value)
        if producer is None or producer not in links:
            continue
        operand_map = du.operand_map(op, value)
        if operand_map is None:
            return False
        if du.is_root_op(producer):
            if not cw.reads_root_result_compatibly(producer, op, value):
                return False
        elif not du.is_identity_map(operand_map):
            return False
    return True


def is_sum_reduction(op: Operation) -> bool:
    """A reduction whose payload only adds (a sum or mean: the first step of a normalization),
    possibly after widening its input (a long mean accumulates in f64)."""
    body = [o for o in op.regions[0].block.ops] if op.regions and op.regions[0].blocks else []
    return bool(body) and all(o.name in ("arith.addf", "arith.extf", "linalg.yield") for o in body)


def any_reduction(op: Operation) -> bool:
    return True


# `reduction-chains` modes: which first reductions may start a chain. Normalizations (sum,
# then sum of squared deviations) run as fast chained as split on llvm-cpu; softmax-like
# chains (max first) ran 1.8x slower chained (bench/RESULTS.md), so only "all" takes them.
CHAIN_STARTS = {"normalization": is_sum_reduction, "all": any_reduction}


# IREE 3.13's llvm-cpu codegen tiles a chain that reduces over two loops or more (an
# InstanceNorm's or GroupNorm's pixels) along its rows and keeps a tile's rows whole between the
# reductions, on the stack (limit 32 KB), min(8, the power of two <= rows / 8) rows a tile
# (found by compiling chains alone, bench/iree_limits_chains.py: 2 x 16 channels of 56 x 56
# needed 50176 bytes, RAFT's 2 x 32 of 112 x 112 401472; 16 rows of 32 x 64 built). A chain
# over one loop (a LayerNorm's last dim) is tiled along it and built at every size tried
# (64 rows of 12544, 16 of 50176). A chain past that stays two dispatches, as in IREE's build.
CHAIN_STACK_BYTES = 32768
CHAIN_MAX_TILE_ROWS = 8


def chain_tile_rows(rows: int) -> int:
    return min(CHAIN_MAX_TILE_ROWS, 1 << max(0, (rows // 8).bit_length() - 1))


def chain_fits_stack(first: Operation, between: set[Operation]) -> bool:
    """A chain over one reduced loop, or a tile of its rows, whole, fits IREE's CPU stack."""
    extents, kinds = du.loop_extents(first), du.iterator_kinds(first)
    if kinds.count("reduction") < 2:
        return True
    if any(e is None for e in extents):
        return False
    reduced = math.prod(e for e, kind in zip(extents, kinds) if kind == "reduction")
    rows = math.prod(e for e, kind in zip(extents, kinds) if kind == "parallel")
    widths = [element_bytes(r.type.get_element_type()) for op in between for r in op.results
              if isinstance(r.type, TensorType) and len(r.type.get_shape()) == len(extents)]  # whole rows
    return chain_tile_rows(rows) * reduced * max(widths, default=4) <= CHAIN_STACK_BYTES


def chain_source(
    analysis: FusionAnalysis, second: Operation, starts_chain, reductions: dict[Operation, tuple] | None = None
) -> tuple[Operation, set[Operation]] | None:
    """The nearest earlier reduction that `second` reads only through row-wise elementwise ops;
    `reductions`: the block's `reduction_rows`, if the caller has them."""
    if reductions is None:
        reductions = reduction_rows(analysis.ops)
    rows = reductions[second] if second in reductions else row_signature(second)
    candidates = [
        op for op, signature in reductions.items()
        if rows is not None and signature == rows and analysis.position[op] < analysis.position[second]
        and (starts_chain(op) or op in analysis.group_of)
    ]
    for first in reversed(candidates):
        sources = set(analysis.group_of[first].ops) if first in analysis.group_of else {first}
        between = ops_between(analysis, sources, second)
        if not between or any(analysis.group_of.get(op) is not None for op in between):
            continue
        links = between | sources
        if not all(tiles_with_rows(analysis, op, first, links) for op in between):
            continue
        if not all(_reads_link_in_step(analysis, second, v, first) for v in du.dps_inputs(second)
                   if du.defining_op_in(analysis.block, v) in between):
            continue
        if not analysis.reduction_forks and not links_read_in_rows(analysis, between, first, second):
            continue
        if not chain_fits_stack(first, between):
            continue
        return first, between
    return None


def links_read_in_rows(analysis: FusionAnalysis, between: set[Operation], first: Operation,
                       second: Operation) -> bool:
    """Every reader of a link is in the chain or tiles with its rows (so it can join the region
    as a consumer). With `reduction-forks=false` (CUDA) a chain is formed only then: a link
    read by an op that cannot join (convnext_tiny's stem LayerNorm, whose normalisation writes
    back to NCHW) leaves the region as a second result beside the last reduction's, of another
    rank, and IREE 3.13's sm_80 codegen fails to distribute that region."""
    chain = between | {first, second}
    return all(user in chain or tiles_with_rows(analysis, user, first, chain)
               for op in between for user in analysis.users[op])


def _reads_link_in_step(analysis: FusionAnalysis, second: Operation, value, first: Operation) -> bool:
    """The second reduction reads a link element by element: identity for a full-size link,
    its own row layout for a row statistic."""
    operand_map = du.operand_map(second, value)
    if operand_map is None:
        return False
    if is_row_statistic_op(du.defining_op_in(analysis.block, value), first):
        return operand_map == du.result_map(second, 0)
    return du.is_identity_map(operand_map)


def chain_reductions(analysis: FusionAnalysis, starts_chain) -> None:
    """Groups for chains of same-row reductions (first reduction, elementwise links, next)."""
    # Found once, with their loops decoded once: each reduction compares its rows with the
    # earlier ones only (decoding both ops' loops per pair took 0.1 of shufflenet_v2's 0.4 s
    # in this pass; a scan of every op per reduction most of it on a 1000-op model).
    reductions = reduction_rows(analysis.ops)
    for op in reductions:
        if not du.is_root_op(op):
            continue
        found = chain_source(analysis, op, starts_chain, reductions)
        if found is None:
            continue
        first, between = found
        group = analysis.group_of.get(first) or analysis.new_group(first)
        group.chained.append(group.root)
        group.root = op
        for member in (*between, op):
            analysis.add(group, member)


def forks_reduction_group(analysis: FusionAnalysis, group, consumer: Operation) -> bool:
    """Whether `consumer` joining a reduction-rooted `group` would give the region a second
    end (an op no other op of the region reads): GPT-NeoX's two LayerNorms of one input share
    one normalisation, whose two affine epilogues both read it. IREE 3.13's sm_80 codegen
    tiles a reduction dispatch from its one last op and fuses producers into it, so a sibling
    end is left out ("'func.func' op failed to distribute"); llvm-cpu builds it. A value that
    also leaves the region (a chain with an escaping link) is no end. IREE's own formation
    fuses one use of an op only, so it never forks."""
    root = group.root
    if not du.has_reduction_loops(root) or du.is_contraction(root):
        return False
    read = set(analysis.producers[consumer])
    return any(op not in read and not any(analysis.group_of.get(u) is group for u in analysis.users[op])
               for op in group.ops)
