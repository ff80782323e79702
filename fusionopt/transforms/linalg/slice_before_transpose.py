"""A slice of a transpose, cut before the transpose instead (part of
`linalg-fold-transpose-into-matmul`).

An attention tail as torch-mlir and IREE's ONNX import write it (MIGraphX #2818's distilgpt2
tail, `test/data/attn_tail.args.linalg.mlir`) splits a QKV projection into heads, transposes
*all* of them, and cuts the V heads out of the transpose:

    %t = linalg.transpose ins(%heads : 1x348x36x64) permutation = [0, 2, 1, 3]
    %v = tensor.extract_slice %t[0, 24, 0, 0] [1, 12, 348, 64] [1, 1, 1, 1]
->
    %c = tensor.extract_slice %heads[0, 0, 24, 0] [1, 348, 12, 64] [1, 1, 1, 1]
    %v = linalg.transpose ins(%c : 1x348x12x64) permutation = [0, 2, 1, 3]

Only the kept heads move, and the transpose now reads into the contraction directly, so the
fold reads V through the contraction's map: no transpose dispatch at all (the graph dialect's
`SliceOfTranspose` does the same). Taken when every reader of the transpose is such a static,
unit-stride, rank-keeping slice (each then transposes its own part; nothing is moved twice).
Exact: both forms copy the same elements.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.ops import TransposeOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from fusionopt.transforms.common import dispatch_utils as du


def is_plain_slice(op: Operation) -> bool:
    """A static, unit-stride, rank-keeping `tensor.extract_slice` of a static tensor."""
    if op.name != "tensor.extract_slice" or op.offsets or op.sizes or op.strides:  # type: ignore[attr-defined]
        return False
    source, result = op.operands[0], op.results[0]
    return (du.is_static_tensor(source) and du.is_static_tensor(result)
            and len(source.type.get_shape()) == len(result.type.get_shape())  # type: ignore[attr-defined]
            and all(s == 1 for s in op.static_strides.get_values()))  # type: ignore[attr-defined]


class SliceBeforeTranspose(RewritePattern):
    """slice(transpose(x)) -> transpose(slice(x)) (module docstring)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_plain_slice(op):
            return
        transpose = op.operands[0].owner
        if not isinstance(transpose, TransposeOp) or not all(
                is_plain_slice(use.operation) for use in transpose.results[0].uses):
            return
        perm = transpose.permutation.get_values()
        offsets = op.static_offsets.get_values()  # type: ignore[attr-defined]
        sizes = op.static_sizes.get_values()  # type: ignore[attr-defined]
        source = transpose.operands[0]
        inner_offsets, inner_sizes = [0] * len(perm), list(source.type.get_shape())  # type: ignore[attr-defined]
        for axis, source_axis in enumerate(perm):  # result axis i is input axis perm[i]
            inner_offsets[source_axis], inner_sizes[source_axis] = offsets[axis], sizes[axis]
        cut = tensor.ExtractSliceOp.from_static_parameters(source, inner_offsets, inner_sizes)
        result_type: TensorType = op.results[0].type  # type: ignore[assignment]
        empty = tensor.EmptyOp([], result_type)
        moved = TransposeOp(cut.results[0], empty.tensor, transpose.permutation, result_type)
        rewriter.replace(op, [cut, empty, moved])
        if not transpose.results[0].uses:
            init = transpose.operands[1].owner
            rewriter.erase(transpose)
            if isinstance(init, Operation) and init.name == "tensor.empty" and not init.results[0].uses:
                rewriter.erase(init)
