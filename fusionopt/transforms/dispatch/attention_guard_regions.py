"""`form-dispatch-regions{guards-into-attention}` (off by default; for llvm-cpu builds): the
reduction over keys of 0 * V that the NaN guard of a raised attention reads
(`linalg/attention_guard.py`) is formed into the attention's region.

Alone it is a dispatch per layer (minilm_l6 with Q, K, V fused as well: 51 -> 45). In the
attention's region IREE's CPU codegen recomputes it for every tile of query rows, which costs
about what its own dispatch did: model time 1.006x-1.007x (A/A 1.01x), bench/RESULTS.md. IREE
3.13's sm_80 codegen (VectorDistribute) fails to translate such a region, so the target-neutral
pipelines leave the option off.

In the region IREE's CPU codegen vectorises the reduction whole for each batch row it tiles (all
keys x all value columns in one vector) and refuses vectors of 32 KB ("One or more operations
with large vector sizes"): Llama's guard at 512 tokens is 512 x 32 f32, 64 KB, and the region
did not build. So only a reduction whose row fits `GUARD_VECTOR_MAX_BYTES` moves in (64 and 128
tokens at head dim 32); a longer one stays its own dispatch, which IREE tiles.
"""

from __future__ import annotations

import math

from xdsl.ir import Operation

from fusionopt.cost_model import tensor_bytes
from fusionopt.dialects.iree_linalg_ext import AttentionOp
from fusionopt.transforms.common import dispatch_utils as du

GUARD_VECTOR_MAX_BYTES = 16384  # half of the vector IREE llvm-cpu refuses (32 KB)


def _reduces_attention_values(op: Operation, attention: AttentionOp) -> bool:
    """A one-input reduction (not a contraction) of the attention's value operand."""
    return (du.is_linalg(op) and du.has_reduction_loops(op) and not du.is_contraction(op)
            and tuple(du.dps_inputs(op)) == (attention.value,))


def _row_fits_one_vector(op: Operation) -> bool:
    """The reduction's input per output row (keys x value columns: V's bytes over the output's
    elements outside its last dim) is at most GUARD_VECTOR_MAX_BYTES; static shapes only."""
    (value,), result = du.dps_inputs(op), op.results[0]
    if not (du.is_static_tensor(value) and du.is_static_tensor(result)):
        return False
    rows = math.prod(result.type.get_shape()[:-1])
    return tensor_bytes(value) // max(1, rows) <= GUARD_VECTOR_MAX_BYTES


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
        if _reduces_attention_values(group.root, target.root) and _row_fits_one_vector(group.root):
            moved += analysis.merge_lone_root(group, target)
    return moved
