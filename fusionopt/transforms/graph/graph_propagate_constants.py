"""`graph-propagate-constants`: evaluate `graph` ops whose operands are all constants.

Every `graph` op whose operands are all `arith.constant` dense tensors is computed at compile
time with `fusionopt.graph_numpy.evaluate_graph_op` -- the same numpy semantics `fusion-run`
uses, so a folded module computes bit-identical numbers -- and replaced by one `arith.constant`.
Folding is transitive (the walker revisits users of a new constant), so a whole constant
subgraph collapses.

Budget: a result is folded only if its *stored* size is at most `max-bytes` (a splat is stored
as one element, whatever its shape, see `fusionopt.dialects.dense`). One exception, as in MLIR's
folders: a `graph.broadcast` of a non-splat constant is left alone -- it is a view that
consumers fuse, and materialising it only multiplies memory.

Options:
  max-bytes (int, default 67108864 = 64 MiB): largest folded constant, in stored bytes.

The reusable entry point for other passes is `fold_constant_op(op, max_bytes)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.dialects.graph_base import element_of
from fusionopt.graph_numpy import evaluate_graph_op
from fusionopt.transforms.graph.graph_ir import dense_constant

DEFAULT_MAX_BYTES = 64 * 1024 * 1024


def stored_bytes(array: np.ndarray, element_bytes: int) -> int:
    """Bytes the folded constant would occupy: one element if it is a splat."""
    flat = array.reshape(-1)
    if flat.size <= 1 or bool(np.all(flat == flat[0])):
        return element_bytes
    return flat.size * element_bytes


def is_materialising_broadcast(op: Operation) -> bool:
    """A broadcast of a non-splat constant: folding it would only multiply memory."""
    if not isinstance(op, graph.BroadcastOp):
        return False
    attr = dense_constant(op.input)
    return attr is not None and len(attr.data.data) > attr.get_element_type().compile_time_size


def constant_source(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The constant behind `value`: an `arith.constant`, or the one a `graph.broadcast` reads."""
    owner = value.owner
    if isinstance(owner, graph.BroadcastOp):
        value = owner.input
    return dense_constant(value)


def constant_operand(value: SSAValue) -> tuple[np.ndarray, int, bool] | None:
    """(value, stored bytes, seen through a broadcast) of a constant operand, or None.

    A `graph.broadcast` of a constant counts as constant: `c + broadcast(bias)` folds."""
    attr = dense_constant(value)
    if attr is not None:
        return dense_to_numpy(attr), len(attr.data.data), False
    owner = value.owner
    if isinstance(owner, graph.BroadcastOp) and (attr := dense_constant(owner.input)) is not None:
        array = evaluate_graph_op(owner, [dense_to_numpy(attr)])
        return array, len(attr.data.data), True
    return None


def fold_to_attr(op: Operation, max_bytes: int) -> DenseIntOrFPElementsAttr | None:
    """The folded value of a graph op with constant operands, or None (not foldable / too big)."""
    if not isinstance(op, graph.GraphOp) or is_materialising_broadcast(op) or not op.operands:
        return None
    if any(constant_source(v) is None for v in op.operands):  # cheap check before evaluating
        return None
    operands = [constant_operand(v) for v in op.operands]
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    value = evaluate_graph_op(op, [o[0] for o in operands])  # type: ignore[index]
    size = stored_bytes(value, element_of(result_type).compile_time_size)
    if size > max_bytes:
        return None
    # Looking through a broadcast must not materialise it: no growth beyond the inputs.
    if any(o[2] for o in operands) and size > max(o[1] for o in operands):  # type: ignore[index]
        return None
    return numpy_to_dense(value, result_type)


def fold_constant_op(op: Operation, max_bytes: int, rewriter: PatternRewriter | None = None) -> bool:
    """Replace `op` by an `arith.constant` of its value if possible; True if it was folded."""
    attr = fold_to_attr(op, max_bytes)
    if attr is None:
        return False
    constant = ConstantOp(attr)
    if rewriter is not None:
        rewriter.replace(op, constant)
    else:
        block = op.parent_block()
        assert block is not None
        block.insert_op_before(constant, op)
        op.results[0].replace_all_uses_with(constant.result)
        op.detach()
        op.erase()
    return True


@dataclass
class FoldConstantGraphOp(RewritePattern):
    max_bytes: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        fold_constant_op(op, self.max_bytes, rewriter)


@dataclass(frozen=True)
class GraphPropagateConstantsPass(ModulePass):
    """Fold graph ops with all-constant operands into constants (see module doc).

    Options:
      max-bytes (int, default 67108864): largest folded constant, in stored bytes.
    """

    name = "graph-propagate-constants"

    max_bytes: int = DEFAULT_MAX_BYTES

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # The applier also erases constants left without users.
        applier = GreedyRewritePatternApplier([FoldConstantGraphOp(self.max_bytes)])
        PatternRewriteWalker(applier).rewrite_module(op)
