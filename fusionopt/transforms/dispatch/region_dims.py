"""The `{%d}` dimension operands a `flow.dispatch.region` needs for its dynamically shaped
results (IREE rejects a region without them).

A result's size is reified from outside the region, as IREE's
ReifyRankedShapedTypeOpInterface does: a value defined outside is measured with `tensor.dim`;
a destination-passing op's result has its init's size (`outs`, a pack's `dest`, scatter's
`original`); an encoding op keeps its source's size; `tensor.empty` has its size operands; a
pad adds its low and high amounts; a `tensor.cast` keeps its source's size where both are
dynamic. When none applies the size cannot be named outside, and forming the region is a user
error (not a crash).
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
    if owner.name == "iree_encoding.unset_encoding" and owner.result_dims:
        return _mixed_size(value.type.get_shape(), owner.result_dims, dim, region_op)
    if (same := _same_size_operand(owner, value)) is not None:
        return _dim_outside(same, dim, region_op)
    if owner.name == "tensor.pad":
        return _padded_size(owner, dim, region_op)
    if isinstance(owner, tensor.ExtractSliceOp):
        return _slice_size(owner, len(value.type.get_shape()), dim, region_op)
    if isinstance(owner, tensor.CastOp) and owner.source.type.get_shape()[dim] == DYNAMIC_INDEX:
        return _dim_outside(owner.source, dim, region_op)
    return None


def _same_size_operand(owner: Operation, value: SSAValue) -> SSAValue | None:
    """The operand whose size the result has: a destination-passing op's init (`outs`, a pack's
    `dest`, scatter's `original`, an insert's `dest`), an encoding op's source."""
    index = list(owner.results).index(value)
    if isinstance(owner, LinalgStructuredOperation) or owner.name in _OUTPUTS_OPS:
        return owner.outputs[index]
    if owner.name in ("iree_encoding.set_encoding", "iree_encoding.unset_encoding"):
        return owner.operands[0]
    field = _SIZED_BY.get(owner.name)
    return getattr(owner, field) if field else None


_OUTPUTS_OPS = frozenset(f"iree_linalg_ext.{n}" for n in ("sort", "scan", "arg_compare"))
_SIZED_BY = {
    "linalg.pack": "dest", "linalg.unpack": "dest", "tensor.insert_slice": "dest",
    "iree_linalg_ext.scatter": "original", "iree_linalg_ext.attention": "output",
    "iree_linalg_ext.gather": "output",
}


def _padded_size(pad: Operation, dim: int, region_op: DispatchRegionOp) -> SSAValue | None:
    """source + low + high, computed before the region (the pad's own shape rule)."""
    size = _dim_outside(pad.source, dim, region_op)
    if size is None:
        return None
    for static, dynamic in ((pad.static_low, pad.low), (pad.static_high, pad.high)):
        amount = static.get_values()[dim]
        if amount == DYNAMIC_INDEX:
            amount = _mixed_size(static.get_values(), dynamic, dim, region_op)
        else:
            const = arith.ConstantOp(IntegerAttr(amount, IndexType()))
            Rewriter.insert_op(const, InsertPoint.before(region_op))
            amount = const.result
        if amount is None:
            return None
        total = arith.AddiOp(size, amount)
        Rewriter.insert_op(total, InsertPoint.before(region_op))
        size = total.result
    return size


def _slice_size(op: tensor.ExtractSliceOp, rank: int, dim: int, region_op: DispatchRegionOp) -> SSAValue | None:
    """A slice's size operand for result `dim`; a rank-reducing slice drops unit sizes, so its
    result dims are the sizes other than a static 1 (when that leaves exactly `rank`)."""
    static = op.static_sizes.get_values()
    kept = list(range(len(static))) if len(static) == rank else [i for i, d in enumerate(static) if d != 1]
    if len(kept) != rank:
        return None
    return _mixed_size(static, op.sizes, kept[dim], region_op)


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
