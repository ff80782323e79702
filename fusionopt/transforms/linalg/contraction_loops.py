"""The roles of a contraction's loops, as two linalg-stage rewrites read them: batch loops
(parallel loops every input reads: attention's heads) and reduction loops.

Shared by `linalg-transpose-nt-operands` (only batched contractions get a row-major copy) and
`linalg-split-k-contractions` (a batch already spreads a contraction over the GPU).
"""

from __future__ import annotations

from xdsl.ir import Operation

from fusionopt.transforms.common import dispatch_utils as du


def loop_roles(op: Operation) -> tuple[set[int], set[int]]:
    """(batch loops: parallel loops every input reads, reduction loops) of a contraction."""
    kinds = du.iterator_kinds(op)
    inputs = du.indexing_maps(op)[: len(du.dps_inputs(op))]
    read_by_all = set.intersection(*(m.used_dims() for m in inputs))
    batch = {d for d in read_by_all if kinds[d] == "parallel"}
    reductions = {d for d, kind in enumerate(kinds) if kind != "parallel"}
    return batch, reductions
