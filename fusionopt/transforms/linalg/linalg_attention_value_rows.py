"""`linalg-attention-value-rows`: an `iree_linalg_ext.attention` that reads its value operand V
with a batch dim (a head) inside the key dim gets V as a copy with its batch dims outermost
([keys, heads, dim] -> [heads, keys, dim]).

IREE's online attention walks one head's keys in blocks (`dispatch-attention-cpu-tiles`: 16 keys
a step at head dim 32) and reads each key's row of V. Read where `linalg-raise-attention` finds
it, V can be [keys, heads, columns] (GPT-NeoX's fused QKV projection, a slice of [seq, heads,
3 x dim]): a head's consecutive key rows are then a whole row of all heads apart. The op alone,
8 heads x 2048 queries x 2048 keys x head dim 32 with a causal mask, on one zen5 core: 71 ms with
V [keys, heads, 32] (a slice of [keys, heads, 96] or not), 57 ms with V [heads, keys, 32]; the
copy is one pass over V (2 MB there). Q and K are read as they are (their rows are the op's M
and K2 rows already in these models).

For the llvm-cpu pipelines, after the raise, on the attention whose scores take at least
`min-scores-bytes` (the pipeline gives the raise's bound: a short attention the input brings
keeps its V, no copy dispatch added). The scores are counted in the type the op computes them
in (f32 for f16 and bf16 operands), never narrower than the decomposed scores the raise counted,
so every attention the raise took at that bound is copied here. Only a static V read through a
projected permutation; the op's value is unchanged (a copy). Keys and columns keep their order:
a V of [heads, dim, keys] is left as it is (not measured).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.cost_model import element_bytes
from fusionopt.dialects.iree_linalg_ext import AttentionOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import read_through_copy

VALUE_OPERAND = 2  # query, key, value, scale, [mask], output


def value_row_order(op: AttentionOp) -> list[int] | None:
    """The permutation of V's dims that puts its batch dims outermost (each group keeping its
    order: keys and columns as they are), None when they are outermost already or V is not read
    through a static projected permutation."""
    value_map = op.operand_maps()["value"]
    if not du.is_static_tensor(op.value) or not value_map.is_projected_permutation():
        return None
    if not all(isinstance(e, AffineDimExpr) for e in value_map.results):
        return None
    classes = op.dim_classes()
    roles = [classes.get(e.position) for e in value_map.results]  # type: ignore[union-attr]
    if None in roles:
        return None
    order = [i for i, r in enumerate(roles) if r == "batch"] + [i for i, r in enumerate(roles) if r != "batch"]
    if order == list(range(len(roles))):
        return None
    return order


SCORE_BYTES_AT_LEAST = 4  # IREE computes an attention's scores in f32 at least (f16, bf16 operands)


def scores_bytes(op: AttentionOp) -> int | None:
    """Bytes of the op's scores (batch x M x K2 elements of the type it computes them in: the
    query's, f32 at least), None if dynamic."""
    classes, sizes = op.dim_classes(), op.loop_sizes()
    extents = [sizes[d] for d, role in classes.items() if role in ("batch", "m", "k2")]
    if any(e < 0 for e in extents):
        return None
    return math.prod(extents) * max(SCORE_BYTES_AT_LEAST, element_bytes(op.query.type.get_element_type()))


@dataclass
class CopyValueIntoRows(RewritePattern):
    min_scores_bytes: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, AttentionOp) or (order := value_row_order(op)) is None:
            return
        if (scores_bytes(op) or 0) < self.min_scores_bytes:
            return
        read_through_copy(op, VALUE_OPERAND, op.maps(), order, rewriter)
        pass_statistics.count("attention values copied with their batch dims outermost")


@dataclass(frozen=True)
class LargeScoresPass(ModulePass):
    """A pass rewriting, with `pattern`, the attention ops whose scores take at least
    `min-scores-bytes` (the llvm-cpu pipelines give the raise's bound)."""

    min_scores_bytes: int = 0
    pattern: ClassVar[Callable[[int], RewritePattern]]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(self.pattern(self.min_scores_bytes), apply_recursively=False).rewrite_module(op)


@dataclass(frozen=True)
class LinalgAttentionValueRowsPass(LargeScoresPass):
    """An attention's V read with a head inside the key dim -> a copy with its batch dims
    outermost (module docstring).

    Options:
      min-scores-bytes -- only attention whose scores take at least this many bytes (0: all).
    """

    name = "linalg-attention-value-rows"
    pattern = CopyValueIntoRows
