"""Per-output-channel constants around `graph.conv`: recognising them and emitting the one
canonical bias form, shared by `graph-fold-conv-affine` and `graph-horizontal-fuse-convs`.

A value is a *channel constant* of an N x F x spatial.. result when it is a constant whose
value varies at most along dim 1: a splat of any shape, an `arith.constant` shaped
[1, F, 1, ..], or a `graph.broadcast` of a constant whose aligned shape is like that
(`[F] dims = [1]` as the importer writes a bias, `[F, 1, 1] dims = [1, 2, 3]` as ONNX Mul/Add
by an initializer does). The canonical bias is `graph.add(conv, graph.broadcast(b[F]) dims =
[1])`, the form lowering and horizontal fusion read.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.arith import ConstantOp
from xdsl.ir import Operation, SSAValue

from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.dialects.graph_base import element_of, is_float, shape_of, tensor
from fusionopt.graph_numpy import store
from fusionopt.transforms.graph.graph_ir import OpBuilder, dense_constant


def _aligned(value: SSAValue, rank: int) -> np.ndarray | None:
    """The constant behind `value` with its dims placed where they land in a rank-`rank`
    result (size 1 elsewhere), or None when `value` is not a (broadcast) constant."""
    attr = dense_constant(value)
    if attr is not None:
        array = dense_to_numpy(attr)
        return array if array.ndim == rank else (array.reshape(-1)[:1].reshape([1] * rank)
                                                 if _is_splat(array) else None)
    owner = value.owner
    if not isinstance(owner, graph.BroadcastOp) or (attr := dense_constant(owner.input)) is None:
        return None
    array = dense_to_numpy(attr)
    aligned = [1] * rank
    for axis, dim in enumerate(owner.dims_values):
        aligned[dim] = array.shape[axis]
    return array.reshape(aligned)


def _is_splat(array: np.ndarray) -> bool:
    flat = array.reshape(-1)
    return flat.size >= 1 and bool(np.all(flat == flat[0]))


def channel_vector(value: SSAValue) -> np.ndarray | None:
    """The [F] float64 vector of a channel constant `value` (see module doc), or None."""
    shape = shape_of(value)
    if len(shape) < 3 or not is_float(element_of(value)):
        return None
    aligned = _aligned(value, len(shape))
    if aligned is None:
        return None
    if any(size != 1 for axis, size in enumerate(aligned.shape) if axis != 1):
        if not _is_splat(aligned):
            return None
        aligned = aligned.reshape(-1)[:1].reshape([1] * len(shape))
    channels = shape[1]
    vector = aligned.reshape(-1).astype(np.float64)
    return np.broadcast_to(vector, (channels,)).copy() if vector.size in (1, channels) else None


def other_operand(op: Operation, value: SSAValue) -> SSAValue | None:
    """The operand of the binary `op` that is not `value` (None if both are)."""
    lhs, rhs = op.operands
    if lhs == value and rhs == value:
        return None
    return rhs if lhs == value else lhs


def canonical_bias(b: OpBuilder, vector: np.ndarray, like: SSAValue) -> SSAValue:
    """`graph.broadcast(constant [F]) dims = [1]` to the type of `like`, `vector` rounded once
    to the element type."""
    element = element_of(like)
    constant = b.add(ConstantOp(numpy_to_dense(store(vector, element),
                                               tensor([len(vector)], element))))
    return b.broadcast(constant, [1], shape_of(like))


def bias_add_of(conv_result: SSAValue) -> tuple[graph.AddOp, np.ndarray] | None:
    """`(add, b)` when the only user of `conv_result` is `add(conv_result, channel constant)`."""
    uses = list(conv_result.uses)  # IRUses has no len()
    if len(uses) != 1 or not isinstance(add := uses[0].operation, graph.AddOp):
        return None
    other = other_operand(add, conv_result)
    vector = None if other is None else channel_vector(other)
    return None if vector is None else (add, vector)
