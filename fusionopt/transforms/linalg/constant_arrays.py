"""Constant tensors as numpy arrays, seen through the ops that only move them: reshapes and the
transposing copies the channels-last rewrites write (a constant filter's HWC copy of its CHW
form), so a pass can compute a padded or regrouped constant once instead of leaving IREE a
copy to run or to fold at build time."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from fusionopt.dialects.dense import dense_to_numpy
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.channels_last_propagation import is_copy_generic


def copied_array(op: Operation) -> np.ndarray | None:
    """The value a copy generic writes with an identity output map, reading its input through
    dims and constant 0s (unit dims dropped, then a permutation)."""
    read, write = du.indexing_maps(op)
    source = constant_array(du.dps_inputs(op)[0])
    if source is None or write != AffineMap.identity(write.num_dims):
        return None
    kept = []
    for axis, expr in reversed(list(enumerate(read.results))):
        if isinstance(expr, AffineConstantExpr) and expr.value == 0:
            source = np.take(source, 0, axis=axis)
        elif isinstance(expr, AffineDimExpr):
            kept.insert(0, expr.position)
        else:
            return None
    if sorted(kept) != list(range(write.num_dims)):
        return None
    return np.transpose(source, np.argsort(kept))


def constant_array(value: SSAValue) -> np.ndarray | None:
    """`value` as a numpy array when it is a dense constant, a reshape of one or a copy of one."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if isinstance(owner, ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        return np.asarray(dense_to_numpy(owner.value))
    if owner.name in ("tensor.expand_shape", "tensor.collapse_shape"):
        array = constant_array(owner.operands[0])
        return None if array is None else array.reshape(value.type.get_shape())  # type: ignore[attr-defined]
    if is_copy_generic(owner) and len(owner.results) == 1:
        return copied_array(owner)
    return None
