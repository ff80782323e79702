"""Small IR-building helpers for the ONNX op handlers: explicit broadcasting and shape ops.

Graph ops never broadcast implicitly, so ONNX's multidirectional (numpy) broadcasting is made
explicit here: a rank-r operand of a rank-R result becomes `graph.broadcast %v dims = [R-r ..
R-1]` (graph.broadcast accepts size-1 operand dims, so no reshape is needed). A constant that is
a splat becomes a compact splat constant of the full shape instead, which later passes fold
more easily than a broadcast of a scalar.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects import graph
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape


def normalize_axis(ctx: ImportContext, axis: int, rank: int) -> int:
    if not -rank <= axis < max(rank, 1):
        raise ctx.error(f"axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def is_splat(array: np.ndarray) -> bool:
    return array.size > 0 and bool(np.all(array == array.reshape(-1)[0]))


def broadcast_to(ctx: ImportContext, value: Value, out_shape: Sequence[int],
                 elem: Attribute | None = None) -> SSAValue:
    """`value` with numpy broadcasting to `out_shape` made explicit."""
    out_shape = tuple(out_shape)
    elem = elem or element(value)
    if isinstance(value, np.ndarray) and value.shape != out_shape and is_splat(value):
        return ctx.splat(value.reshape(-1)[0].item(), out_shape, elem)
    v = ctx.ssa(value, elem if isinstance(value, np.ndarray) else None)
    in_shape = shape(v)
    if in_shape == out_shape:
        return v
    dims = list(range(len(out_shape) - len(in_shape), len(out_shape)))
    return ctx.emit(graph.BroadcastOp(v, dims, TensorType(elem, list(out_shape))))


def common_shape(ctx: ImportContext, values: Sequence[Value]) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(*(shape(v) for v in values)))
    except ValueError:
        shapes = ", ".join(str(list(shape(v))) for v in values)
        raise ctx.error(f"operand shapes {shapes} are not broadcastable") from None


def common_element(ctx: ImportContext, values: Sequence[Value]) -> Attribute:
    """The element type of the SSA operands (constants follow it, like ONNX scalars)."""
    ssa = [v for v in values if isinstance(v, SSAValue)]
    types = {element(v) for v in (ssa or values)}
    if len(types) != 1:
        raise ctx.error(f"operand element types differ: {', '.join(map(str, types))}")
    return types.pop()


def broadcast_all(ctx: ImportContext, values: Sequence[Value],
                  elem: Attribute | None = None) -> list[SSAValue]:
    """All operands at their common shape and element type."""
    out_shape = common_shape(ctx, values)
    elem = elem or common_element(ctx, values)
    return [broadcast_to(ctx, v, out_shape, elem) for v in values]


def reshape(ctx: ImportContext, value: Value, new_shape: Sequence[int]) -> Value:
    """Constants are reshaped at import time; SSA values get a `graph.reshape` if needed."""
    new_shape = tuple(int(d) for d in new_shape)
    if isinstance(value, np.ndarray):
        return value.reshape(new_shape)
    if shape(value) == new_shape:
        return value
    return ctx.emit(graph.ReshapeOp(value, TensorType(element(value), list(new_shape))))


def squeezed(ctx: ImportContext, value: Value, axes: Sequence[int]) -> Value:
    """`value` without its dims `axes` (each of size 1: a reduction's kept dims, Squeeze)."""
    return reshape(ctx, value, [d for i, d in enumerate(shape(value)) if i not in axes])


def transpose(ctx: ImportContext, value: Value, perm: Sequence[int]) -> Value:
    """Constants (e.g. a Gemm weight with transB = 1) are transposed at import time."""
    perm = [int(p) for p in perm]
    if isinstance(value, np.ndarray):
        return np.ascontiguousarray(value.transpose(perm))
    if perm == list(range(len(perm))):
        return value
    return ctx.emit(graph.TransposeOp(value, perm))


def reduce(ctx: ImportContext, op_class, value: Value, axes: Sequence[int]) -> SSAValue:
    """`graph.reduce_*` keeping the reduced dims as 1 (ONNX keepdims = 1)."""
    return ctx.emit(op_class(ctx.ssa(value), sorted(axes)))


def binary(ctx: ImportContext, op_class, lhs: Value, rhs: Value) -> SSAValue:
    a, b = broadcast_all(ctx, [lhs, rhs])
    return ctx.emit(op_class(a, b))


def scaled(ctx: ImportContext, value: Value, factor: float) -> Value:
    """`value * factor` (constants at import time, nothing for 1)."""
    if factor == 1.0:
        return value
    if isinstance(value, np.ndarray):
        return (value * factor).astype(value.dtype)
    return binary(ctx, graph.MulOp, value, np.array(factor, dtype=numpy_dtype_of(element(value))))


def slice_value(ctx: ImportContext, value: Value, axes, starts, ends) -> Value:
    """`value[starts:ends]` on `axes` (normalised, in range): constants at import time, a
    `graph.slice` otherwise, nothing for a full slice."""
    if isinstance(value, np.ndarray):
        index = [slice(None)] * value.ndim
        for a, s, e in zip(axes, starts, ends):
            index[a] = slice(s, e)
        return value[tuple(index)]
    order = sorted(range(len(axes)), key=lambda i: axes[i])
    axes, starts, ends = ([seq[i] for i in order] for seq in (axes, starts, ends))
    if all(s == 0 and e == shape(value)[a] for a, s, e in zip(axes, starts, ends)):
        return value
    return ctx.emit(graph.SliceOp(value, axes, starts, ends))


def crop_negative_pads(ctx: ImportContext, value: Value, low: Sequence[int], high: Sequence[int]
                       ) -> tuple[Value, list[int], list[int]]:
    """ONNX Pad's rule that a negative amount crops: `value` sliced by the negative `low` / `high`
    amounts, and the non-negative pads left to apply."""
    dims = shape(value)
    starts = [max(0, -lo) for lo in low]
    ends = [d - max(0, -hi) for d, hi in zip(dims, high)]
    axes = [a for a in range(len(dims)) if starts[a] or ends[a] != dims[a]]
    if any(ends[a] < starts[a] for a in axes):
        raise ctx.error(f"Pad: negative pads crop more than the input {list(dims)}")
    value = slice_value(ctx, value, axes, [starts[a] for a in axes], [ends[a] for a in axes])
    return value, [max(0, p) for p in low], [max(0, p) for p in high]


def checked(ctx: ImportContext, op: Operation) -> SSAValue:
    """Emit `op` after running its verifier; a failure is an import error naming the node."""
    try:
        op.verify()
    except VerifyException as err:
        raise ctx.error(f"{ctx.node.op_type}: {err}") from None
    return ctx.emit(op)


def wrapped_indices(ctx: ImportContext, indices: np.ndarray, dim: int, op: str = "Gather") -> np.ndarray:
    """Constant indices into a dim of `dim`: negatives wrap (ONNX), out-of-range is an import error."""
    indices = np.where(indices < 0, indices + dim, indices).astype(np.int64)
    if indices.size and (indices.min() < 0 or indices.max() >= dim):
        raise ctx.error(f"{op} index out of range [0, {dim})")
    return indices


def wrapped_runtime_indices(ctx: ImportContext, indices: Value, dim: int) -> SSAValue:
    """`wrapped_indices` for indices computed in the graph, as i64: negatives wrap (ONNX);
    out-of-range ones are undefined, as a runtime Gather's."""
    indices = ctx.ssa(indices)
    if numpy_dtype_of(element(indices)) != np.int64:
        indices = ctx.emit(graph.ConvertOp(indices, i64))
    negative = binary(ctx, graph.LessOp, indices, np.array(0, dtype=np.int64))
    return ctx.emit(graph.WhereOp(negative, binary(ctx, graph.AddOp, indices, np.array(dim, dtype=np.int64)),
                                  indices))


def ramp(n: int, at: int, rank: int, dtype) -> np.ndarray:
    """0 .. n - 1 along dim `at` of a rank-`rank` array, every other dim of size 1 (to broadcast
    against a tensor: each element's position along `at`)."""
    return np.arange(n, dtype=dtype).reshape([n if d == at else 1 for d in range(rank)])
