"""`linalg-gather-into-contraction`: a batch of matvecs over matrices gathered per row reads each
matrix where it is, in the contraction's payload, instead of from a gathered copy.

MoE experts that `graph-dense-experts` leaves gathered (their dense form would do more than 16
times the multiply-adds: OLMoE's down projection, 64 experts over rows that are not repeated)
are `linalg.batch_matmul(gather(W[E, O, H], ids[S]), x[S, H, 1])`, the gather a generic that
`tensor.extract`s W[ids[s], o, h] into a [S, O, H] copy: at OLMoE's size 512 copies of a
[256, 256] matrix, 134 MB written and read again a layer. Here the gather's load moves into one
generic over (s, o, n, h) that accumulates W[ids[s], o, h] * x[s, h, n] into the matmul's
init: IREE's CPU codegen reads W's row h-contiguously where it is.

Only in the llvm-cpu pipelines: IREE 3.13's CUDA codegen fails to distribute such a reduction
("failed to distribute"), and the target-neutral pipelines' output is built for CUDA too.

The gather is recognised as `convert-graph-to-linalg` lowers a graph gather along axis 0 of a
3-D table by [S] indices (`lower_gather`: negative indices count from the end),
read by nothing but the matmul. Each output is the same dot product over H (its summation order
is IREE's, as for any contraction under the fast-math contract); the index arithmetic is cloned
as it was. No options.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import IndexOp, YieldOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import BatchMatmulOp, GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.lowering.graph_to_linalg_builders import build_generic

# The scalar ops a gather's payload may hold besides its load (lower_gather's index wrapping).
_INDEX_ARITHMETIC = (arith.IndexCastOp, arith.ConstantOp, arith.CmpiOp, arith.AddiOp, arith.SelectOp, IndexOp)


def gathered_rows(value: SSAValue) -> tuple[GenericOp, tensor.ExtractOp] | None:
    """`value` is a [S, O, H] gather of a 3-D table along axis 0 by [S] indices read by nothing
    else: the gather and its load."""
    gather = value.owner
    if not isinstance(gather, GenericOp) or len(list(value.uses)) != 1 or len(gather.inputs) != 1:
        return None
    if len(gather.outputs) != 1 or any(str(it.data) != "parallel" for it in gather.iterator_types.data):
        return None
    ids_map, out_map = du.indexing_maps(gather)
    if out_map != AffineMap.identity(3) or ids_map != AffineMap(3, 0, (AffineExpr.dimension(0),)):
        return None
    body = list(gather.body.block.ops)
    loads = [op for op in body if isinstance(op, tensor.ExtractOp)]
    if len(loads) != 1 or not all(isinstance(op, (*_INDEX_ARITHMETIC, tensor.ExtractOp, YieldOp)) for op in body):
        return None
    load = loads[0]
    yielded = body[-1].operands[0]
    if yielded is not load.result or len(load.indices) != 3 or load.tensor.type.get_shape()[1:] != value.type.get_shape()[1:]:
        return None
    if not (_is_loop_index(load.indices[1], 1) and _is_loop_index(load.indices[2], 2)):
        return None
    if any(isinstance(op, IndexOp) and op.dim.value.data != 0 and op.result not in load.indices[1:] for op in body):
        return None
    return gather, load


def _is_loop_index(value: SSAValue, dim: int) -> bool:
    return isinstance(value.owner, IndexOp) and value.owner.dim.value.data == dim


def _matvec_column(matmul: BatchMatmulOp) -> bool:
    """The matmul multiplies by one column a row: [S, H, 1]."""
    return matmul.inputs[1].type.get_shape()[-1] == 1


def _loads_in_place(matmul: BatchMatmulOp, gather: GenericOp, load: tensor.ExtractOp) -> GenericOp:
    """out[s, o, n] += W[id(s), o, h] * x[s, h, n] over (s, o, n, h), the gather's index
    arithmetic cloned in the payload (its loops 1 and 2 become o and h)."""
    dims = [AffineExpr.dimension(d) for d in range(4)]
    ids_map = AffineMap(4, 0, (dims[0],))
    x_map = AffineMap(4, 0, (dims[0], dims[3], dims[2]))
    out_map = AffineMap(4, 0, (dims[0], dims[1], dims[2]))
    old_block = gather.body.block
    loop_of = {0: 0, 1: 1, 2: 3}

    def body(b, args):
        mapping: dict[SSAValue, SSAValue] = {old_block.args[0]: args[0]}
        for op in old_block.ops:
            if isinstance(op, YieldOp):
                break
            if isinstance(op, IndexOp):
                mapping[op.result] = b.add(IndexOp(loop_of[op.dim.value.data]))
                continue
            clone = op.clone(value_mapper=mapping)
            b.block.add_op(clone)
            for old, new in zip(op.results, clone.results):
                mapping[old] = new
        weight = mapping[load.result]
        product = b.add(arith.MulfOp(weight, args[1]))
        return b.add(arith.AddfOp(args[2], product))

    return build_generic([gather.inputs[0], matmul.inputs[1]], [ids_map, x_map], matmul.outputs[0], out_map,
                         ["parallel", "parallel", "parallel", "reduction"], body)


class GatherIntoContraction(RewritePattern):
    """batch_matmul(gather(W, ids), x[S, H, 1]) -> one generic loading W in place (module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BatchMatmulOp, rewriter: PatternRewriter) -> None:
        found = gathered_rows(op.inputs[0])
        if found is None or not _matvec_column(op):
            return
        gather, load = found
        element = op.inputs[1].type.element_type
        if op.outputs[0].type.element_type != element or load.result.type != element:
            return
        rewriter.replace_matched_op(_loads_in_place(op, gather, load))
        init = gather.outputs[0].owner
        rewriter.erase_op(gather)
        if isinstance(init, tensor.EmptyOp) and not init.tensor.uses:
            rewriter.erase_op(init)
        pass_statistics.count("gathered matrices read in place")


@dataclass(frozen=True)
class LinalgGatherIntoContractionPass(ModulePass):
    """Matvecs over matrices gathered per row read them in place (module docstring). Options: none."""

    name = "linalg-gather-into-contraction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GatherIntoContraction()).rewrite_module(op)
