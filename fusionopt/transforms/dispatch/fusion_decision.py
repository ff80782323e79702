"""Deciding which ops of a block share a dispatch: the order of IREE's FormDispatchRegions.

`decide_fusion_groups(block, aggressive)` returns the groups (a pure analysis, fusion_groups.py);
`form-dispatch-regions` then wraps each group in a `flow.dispatch.region`.

1. Roots (contractions, reductions; `is_root_op`), walked in reverse, take their producers:
   only the producer of the root's *init* unless `aggressive` (then any elementwise producer
   whose every use ends up in the same region).
2. Roots, walked forward, take elementwise consumers transitively (`is_fusable_with_consumer`),
   including reshapes, transposes and pads. Non-contiguous slices are not fused here: region
   building clones them into their consumers' regions as indexed reads (never a slow copy).
3. Leftover elementwise ops become roots of elementwise-only groups and take elementwise
   producers and consumers (what elementwise fusion would have merged anyway).
Clonable ops (`dispatch_utils.is_clonable_into_dispatch`: fills, small constants, broadcasts of
constants/arguments read by elementwise generics) join no group: region building duplicates
them into every region that uses them. Trailing views (reshapes/slices whose results leave the
group) are trimmed, so reshapes outside regions stay free `flow.tensor.reshape`s.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.fusion_groups import (
    FusionAnalysis,
    FusionGroup,
    is_fusable_with_consumer,
    is_fusable_with_producer,
)
from fusionopt.transforms.dispatch.iree_rules import clones_into_consumers, is_bit_truncate, pad_starts_encoding_group
from fusionopt.transforms.dispatch.reduction_chains import CHAIN_STARTS, chain_reductions


def _in_truncate_round(producer: Operation, truncates: str) -> bool:
    """Whether a producer is considered in a producer round that takes bit-truncating ops
    "with" the others, "without" them, or "only" them."""
    if truncates == "with":
        return True
    return is_bit_truncate(producer) == (truncates == "only")


def _fuse_producers(analysis: FusionAnalysis, group: FusionGroup, truncates: str = "with") -> bool:
    """`truncates`: "without" skips bit-truncating producers, "only" takes nothing else
    (IREE's fuseWithTruncate rounds, iree_rules.is_bit_truncate)."""
    changed, worklist = False, sorted(group.ops, key=analysis.position.__getitem__, reverse=True)
    while worklist:
        consumer = worklist.pop(0)
        for producer in reversed(analysis.producers[consumer]):
            if not _in_truncate_round(producer, truncates):
                continue
            if is_fusable_with_producer(analysis, group, producer, consumer):
                analysis.add(group, producer)
                worklist.append(producer)
                changed = True
    return changed


def _fuse_consumers(analysis: FusionAnalysis, group: FusionGroup) -> bool:
    changed, worklist = False, sorted(group.ops, key=analysis.position.__getitem__)
    while worklist:
        producer = worklist.pop(0)
        for consumer in sorted(analysis.users[producer], key=analysis.position.__getitem__):
            if is_fusable_with_consumer(analysis, group, consumer):
                analysis.add(group, consumer)
                worklist.append(consumer)
                changed = True
    return changed


def _trim_trailing_views(analysis: FusionAnalysis, group: FusionGroup) -> None:
    """Views whose results only leave the group stay outside (free reshapes / flow slices)."""
    changed = True
    while changed:
        changed = False
        for op in list(group.ops):
            if op is group.root or not (du.is_reshape(op) or op.name == "tensor.extract_slice"):
                continue
            if not any(analysis.group_of.get(u) is group for u in analysis.users[op]):
                analysis.remove(group, op)
                changed = True


def decide_fusion_groups(block: Block, aggressive: bool = False, reduction_chains: str = "none",
                         reduction_forks: bool = True, transposes_across_reshapes: bool = False,
                         full_reduction_consumers: bool = True) -> FusionAnalysis:
    analysis = FusionAnalysis(block, aggressive, reduction_forks, transposes_across_reshapes, full_reduction_consumers)
    if reduction_chains != "none":
        chain_reductions(analysis, starts_chain=CHAIN_STARTS[reduction_chains])
    roots = [op for op in analysis.ops if du.is_root_op(op) and op not in analysis.group_of]
    for root in reversed(roots):
        analysis.new_group(root)
    root_groups = sorted(analysis.groups, key=lambda g: analysis.position[g.root], reverse=True)
    for group in root_groups:
        _fuse_producers(analysis, group, truncates="without")
    for group in reversed(root_groups):
        _fuse_consumers(analysis, group)
        _fuse_producers(analysis, group, truncates="with" if aggressive else "only")
        _trim_trailing_views(analysis, group)
    for op in reversed(analysis.ops):
        # Clonable broadcasts are duplicated into their consumers' regions instead.
        if op in analysis.group_of or du.is_clonable_into_dispatch(op):
            continue
        if not (du.is_elementwise_linalg(op) or pad_starts_encoding_group(op)):
            continue
        if clones_into_consumers(op):
            continue  # no dispatch of its own: cloned into its consumers' regions
        group = analysis.new_group(op)
        while _fuse_producers(analysis, group) | _fuse_consumers(analysis, group):
            pass
        _trim_trailing_views(analysis, group)
    return analysis
