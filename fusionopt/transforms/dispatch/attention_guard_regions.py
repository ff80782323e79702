"""`form-dispatch-regions{guards-into-attention}` (off by default; for llvm-cpu builds): the
reduction over keys of 0 * V that the NaN guard of a raised attention reads
(`linalg/attention_guard.py`) is formed into the attention's region.

Alone it is a dispatch per layer (minilm_l6 with Q, K, V fused as well: 51 -> 45). In the
attention's region IREE's CPU codegen recomputes it for every tile of query rows, which costs
about what its own dispatch did: model time 1.006x-1.007x (A/A 1.01x), bench/RESULTS.md. IREE
3.13's sm_80 codegen (VectorDistribute) fails to translate such a region, so the target-neutral
pipelines leave the option off.
"""

from __future__ import annotations

from xdsl.ir import Operation

from fusionopt.dialects.iree_linalg_ext import AttentionOp
from fusionopt.transforms.common import dispatch_utils as du


def _reduces_attention_values(op: Operation, attention: AttentionOp) -> bool:
    """A one-input reduction (not a contraction) of the attention's value operand."""
    return (du.is_linalg(op) and du.has_reduction_loops(op) and not du.is_contraction(op)
            and tuple(du.dps_inputs(op)) == (attention.value,))


def pull_guard_reductions_into_attention(analysis) -> int:
    """Move each lone reduction of an attention's V that only ops of that attention's group
    read into the group. Returns how many."""
    moved = 0
    for group in [g for g in analysis.groups if len(g.ops) == 1]:
        targets = {analysis.group_of.get(user) for user in analysis.users[group.root]}
        if len(targets) != 1:
            continue
        (target,) = targets
        if target is None or not isinstance(target.root, AttentionOp):
            continue
        if _reduces_attention_values(group.root, target.root):
            moved += analysis.merge_lone_root(group, target)
    return moved
