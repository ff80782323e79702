"""`linalg-transpose-nt-operands`: give a computed right-hand contraction operand a row-major
(K x N) layout by a transpose of its own, as IREE does for attention's K.

`linalg-fold-transpose-into-matmul` folds torch-mlir's head permutes and `K.transpose(-1, -2)`
into the attention contraction's maps, so `Q . K^T` reads K as [keys, heads, dim]: the
reduction loop (dim) is K's innermost, contiguous dimension ("NT" in BLAS terms). IREE 3.13's
CPU codegen runs that form ~25% slower than the same batch matmul reading a [heads, dim, keys]
copy (single-op modules, `bench/RESULTS.md` "Attention operand layout"); IREE itself keeps a
bias + transpose dispatch per K (`elementwise_transpose`) and then a plain batch matmul.

The rewrite inserts that transpose: a `linalg.generic` that copies the operand into the layout
(batch loops, reduction loops, N loops) and the contraction reads the copy through the
correspondingly ordered map. It cannot be written by the producing matmul's epilogue instead:
IREE 3.13 crashes selecting a CPU lowering strategy for a matmul dispatch whose consumer
writes transposed (and IREE refuses that fusion in its own formation).

Applied to an input of a contraction with explicit indexing maps (a `linalg.generic`, or a
`linalg.batch_matmul` that `linalg-fold-transpose-into-matmul` gave maps) that:
- is the operand holding the contraction's innermost output loop (the "B" side),
- is read through a projected permutation whose last result is a reduction loop,
- is computed inside the function (function arguments and constants are weights: transposing
  them would cost a copy per call to speed up a read the weights' exporter could lay out),
- has batch loops (attention; plain 2-D matmuls are left to IREE's own packing).
Off in `dispatch-creation` unless measured faster (see `registry.py`). No options.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg_generic import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.contraction_loops import loop_roles


def is_computed(value: SSAValue) -> bool:
    return not du.is_available_before_dispatches(value)


def row_major_order(m: AffineMap, batch: set[int], reductions: set[int]) -> list[int]:
    """Positions of `m`'s results in (batch, reduction, other) order, stable within each."""
    dims = [e.position for e in m.results]
    rank = {d: (0 if d in batch else 1 if d in reductions else 2) for d in dims}
    return sorted(range(len(dims)), key=lambda i: rank[dims[i]])


def nt_operand_order(op: Operation, index: int) -> list[int] | None:
    """The result order that makes input `index` row-major, when it is read NT; else None."""
    maps = du.indexing_maps(op)
    m, out = maps[index], maps[len(du.dps_inputs(op))]
    if not m.is_projected_permutation() or not out.results or not isinstance(out.results[-1], AffineDimExpr):
        return None
    batch, reductions = loop_roles(op)
    innermost_output_loop = out.results[-1].position
    last = m.results[-1]
    if not batch or innermost_output_loop not in m.used_dims() or last.position not in reductions:
        return None
    order = row_major_order(m, batch, reductions)
    return order if order != list(range(len(order))) else None


def transpose_copy(value: SSAValue, order: list[int]) -> tuple[list[Operation], SSAValue]:
    """ops computing `value` with its dims permuted to `order`, and the copy."""
    source_type = value.type
    shape = [source_type.get_shape()[i] for i in order]
    empty = tensor.EmptyOp([], TensorType(source_type.element_type, shape))
    rank = len(order)
    read = AffineMap(rank, 0, tuple(AffineDimExpr(order.index(i)) for i in range(rank)))
    body = Block(arg_types=[source_type.element_type, source_type.element_type])
    body.add_op(YieldOp(body.args[0]))
    copy = GenericOp(
        [value], [empty.tensor], Region(body),
        ArrayAttr([AffineMapAttr(read), AffineMapAttr(AffineMap.identity(rank))]),
        [IteratorTypeAttr(IteratorType.PARALLEL)] * rank, [empty.tensor.type],
    )
    return [empty, copy], copy.results[0]


def read_through_copy(op: Operation, index: int, maps: list[AffineMap], order: list[int],
                      rewriter: PatternRewriter) -> None:
    """Operand `index` of `op` (whose operands' maps `maps` are its `indexing_maps` property)
    read from a copy with its dims permuted to `order`, inserted before `op`; its map permuted
    alike, so `op` computes the same value."""
    ops, copy = transpose_copy(op.operands[index], order)
    rewriter.insert(ops, InsertPoint.before(op))
    maps = list(maps)
    maps[index] = AffineMap(maps[index].num_dims, 0, tuple(maps[index].results[i] for i in order))
    op.operands[index] = copy
    du.set_indexing_maps(op, maps)
    rewriter.handle_operation_modification(op)


class TransposeNTOperand(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if "indexing_maps" not in op.properties or not du.is_contraction(op):
            return  # a generic, or a named contraction with explicit maps (after folding)
        for index, value in enumerate(du.dps_inputs(op)):
            order = nt_operand_order(op, index) if is_computed(value) else None
            if order is None:
                continue
            read_through_copy(op, index, du.indexing_maps(op), order, rewriter)
            pass_statistics.count("NT operands transposed")


@dataclass(frozen=True)
class LinalgTransposeNTOperandsPass(ModulePass):
    """Copy a computed NT-read contraction operand into row-major layout (see module doc)."""

    name = "linalg-transpose-nt-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(TransposeNTOperand(), apply_recursively=False).rewrite_module(op)
