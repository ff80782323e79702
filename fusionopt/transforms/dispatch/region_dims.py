"""The `{%d}` dimension operands a `flow.dispatch.region` needs for its dynamically shaped
results (IREE rejects a region without them).

A result's size is reified from outside the region, as IREE's
ReifyRankedShapedTypeOpInterface does: a value defined outside is measured with `tensor.dim`;
a linalg op's result has its init (`outs`) operand's size (a pack's, its `dest`'s); `tensor.empty` has its size
operands; a `tensor.cast` keeps its source's size where both are dynamic. When none applies the size cannot be named outside, and forming the region
is a user error (not a crash).
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, IntegerAttr, TensorType, i32
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.diagnostics import op_error
from fusionopt.transforms.common.dispatch_utils import is_inside


def _dim_outside(value: SSAValue, dim: int, region_op: DispatchRegionOp) -> SSAValue | None:
    owner = value.owner
    if isinstance(owner, tensor.EmptyOp):
        return _mixed_size(owner.tensor.type.get_shape(), owner.dynamic_sizes, dim, region_op)
    if not isinstance(owner, Operation) or not is_inside(owner, region_op):
        index = arith.ConstantOp(IntegerAttr(dim, IndexType()))
        size = tensor.DimOp(value, index)
        Rewriter.insert_op([index, size], InsertPoint.before(region_op))
        return size.result
    if isinstance(owner, LinalgStructuredOperation):
        return _dim_outside(owner.outputs[list(owner.results).index(value)], dim, region_op)
    if owner.name in ("linalg.pack", "linalg.unpack"):
        return _dim_outside(owner.dest, dim, region_op)  # destination-passing: the dest's size
    if isinstance(owner, tensor.ExtractSliceOp) and len(owner.static_sizes.get_values()) == len(value.type.get_shape()):
        return _mixed_size(owner.static_sizes.get_values(), owner.sizes, dim, region_op)
    if isinstance(owner, tensor.CastOp) and owner.source.type.get_shape()[dim] == DYNAMIC_INDEX:
        return _dim_outside(owner.source, dim, region_op)
    return None


def _mixed_size(static: tuple[int, ...], dynamic, dim: int, region_op: DispatchRegionOp) -> SSAValue | None:
    """The dynamic size operand of `dim` (MLIR's mixed static/dynamic lists), if outside."""
    sized = dynamic[sum(1 for d in static[:dim] if d == DYNAMIC_INDEX)]
    return None if is_inside(sized.owner if isinstance(sized.owner, Operation) else None, region_op) else sized


def add_result_dims(region_op: DispatchRegionOp) -> None:
    """Give `region_op` (already in its block) the dims of its dynamic results."""
    dims: list[SSAValue] = []
    for value in region_op.terminator.values:
        t = value.type
        for dim, size in enumerate(t.get_shape() if isinstance(t, TensorType) else ()):
            if size != DYNAMIC_INDEX:
                continue
            outside = _dim_outside(value, dim, region_op)
            if outside is None:
                raise op_error(region_op, f"cannot name dimension {dim} of dynamically shaped result {t} "
                                          "outside the dispatch region")
            dims.append(outside)
    if dims:
        region_op.operands = [*dims, *region_op.workload]
        region_op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(dims), len(region_op.workload)])
