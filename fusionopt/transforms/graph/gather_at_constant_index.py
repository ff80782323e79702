"""gather(x, k) with one constant index k -> reshape(slice(x)[k:k+1]): a view, not a gather.

PyTorch's `MultiheadAttention` (torchvision's ViT, Swin) splits its packed QKV projection with
`unflatten -> transpose -> select(0, i)`, which ONNX exports as a `Gather` of a scalar constant
index along axis 0. Lowered as a gather, each of Q, K and V is a generic loading every element
with `tensor.extract` at a computed index, and the transpose before it is a dispatch of its
own. As a slice it is a view: `SliceOfTranspose` and `SliceOfReshape` move it up to the
projection's output, so the three heads read their columns of it where they are used.

Exact: the slice holds the same elements (ONNX's negative index counts from the end, as the
gather's lowering does); an index out of range is left to the gather (ONNX leaves it undefined).
"""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from fusionopt import pass_statistics
from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy
from fusionopt.dialects.graph_base import shape_of
from fusionopt.transforms.graph.graph_ir import dense_constant


def constant_scalar_index(op: graph.GatherOp) -> int | None:
    """The gather's one index, in range and counted from the start, when it is a constant
    scalar (a rank-0 or one-element rank-1 index tensor); else None."""
    attr = dense_constant(op.indices)
    size = shape_of(op.table)[op.axis_value]
    if attr is None or len(shape_of(op.indices)) > 1 or size < 0:
        return None
    values = dense_to_numpy(attr).reshape(-1)
    if values.size != 1:
        return None
    index = int(values[0])
    index = index + size if index < 0 else index
    return index if 0 <= index < size else None


class GatherAtConstantIndex(RewritePattern):
    """gather(x, k) along axis a, k a constant scalar -> reshape(slice(x, a, k, k + 1))."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.GatherOp, rewriter: PatternRewriter) -> None:
        index = constant_scalar_index(op)
        if index is None:
            return
        axis = op.axis_value
        cut = graph.SliceOp(op.table, [axis], [index], [index + 1])
        rewriter.replace(op, [cut, graph.ReshapeOp(cut.results[0], op.result.type)])
        pass_statistics.count("gathers at one constant index made slices")
