"""Values with zeros appended along one axis, for the padding passes (`linalg-pad-conv-filters`,
`linalg-pad-matmul-weights`, `linalg-pack-conv-filters`): constants padded in numpy, padded
empties and inits (a fill, or a constant bias broadcast), and the slice back to the real size."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import DenseArrayBase, TensorType, i64
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp
from xdsl.ir import Operation, SSAValue

from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.transforms.linalg.linalg_bubble_expand_through_broadcast import broadcast_of
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant


def padded_size(size: int, lanes: int) -> int:
    return -(-size // lanes) * lanes


def padded_constant(value: SSAValue, axis: int, size: int) -> SSAValue:
    """A new dense constant: `value`'s elements with zeros appended along `axis` up to `size`."""
    return constant_from(value, lambda array: np.pad(array, padding_widths(array.ndim, axis, size - array.shape[axis])))


def padding_widths(rank: int, axis: int, count: int) -> list[tuple[int, int]]:
    widths = [(0, 0)] * rank
    widths[axis] = (0, count)
    return widths


def constant_from(value: SSAValue, change: Callable[[np.ndarray], np.ndarray]) -> SSAValue:
    """A new dense constant of `value`'s element type holding `change` of its elements."""
    array = change(np.asarray(dense_to_numpy(value.owner.value)))  # type: ignore[attr-defined]
    element = value.type.get_element_type()  # type: ignore[attr-defined]
    return ConstantOp(numpy_to_dense(array, TensorType(element, list(array.shape)))).result


def shape_of(value: SSAValue) -> list[int]:
    """A tensor value's shape, as a list."""
    return list(value.type.get_shape())  # type: ignore[attr-defined]


def padded_type(value: SSAValue, axis: int, size: int) -> TensorType:
    shape = shape_of(value)
    shape[axis] = size
    return TensorType(value.type.get_element_type(), shape)  # type: ignore[attr-defined]


def empty_like(value: SSAValue, axis: int, size: int) -> tensor.EmptyOp:
    return tensor.EmptyOp([], padded_type(value, axis, size))


def channel_slice(value: SSAValue, axis: int, size: int) -> tensor.ExtractSliceOp:
    """The first `size` entries of `value` along `axis`, the rest whole."""
    sizes = list(value.type.get_shape())  # type: ignore[attr-defined]
    sizes[axis] = size
    return tensor.ExtractSliceOp.from_static_parameters(value, [0] * len(sizes), sizes)


def padded_init(init: SSAValue, size: int) -> tuple[list[Operation], SSAValue] | None:
    """A conv's or matmul's [..., F] init with F' = `size` in its last dim: a fill of a padded
    empty, or a broadcast of a constant bias padded with zeros; None for any other init."""
    last = init.type.get_num_dims() - 1  # type: ignore[attr-defined]
    return init_as(init, padded_type(init, last, size), lambda bias: np.pad(bias, padding_widths(1, 0, size - bias.shape[0])))


def init_as(init: SSAValue, shape: TensorType, bias_as: Callable[[np.ndarray], np.ndarray]
            ) -> tuple[list[Operation], SSAValue] | None:
    """A conv's or matmul's [..., F] init rebuilt as `shape`: a fill of an empty of it, or the
    broadcast of a constant [F] bias changed by `bias_as` over its leading dims; None for any
    other init."""
    owner = init.owner
    if isinstance(owner, FillOp) and len(owner.results) == 1:
        empty = tensor.EmptyOp([], shape)
        fill = FillOp([owner.inputs[0]], [empty.tensor], [shape])
        return [empty, fill], fill.results[0]
    broadcast = broadcast_of(owner) if isinstance(owner, Operation) else None
    leading = set(range(init.type.get_num_dims() - 1))  # type: ignore[attr-defined]
    if broadcast is None or broadcast[1] != leading or not is_dense_constant(broadcast[0]):
        return None
    bias = constant_from(broadcast[0], bias_as)
    empty = tensor.EmptyOp([], shape)
    dims = list(range(shape.get_num_dims() - bias.type.get_num_dims()))  # type: ignore[attr-defined]
    spread = BroadcastOp(bias, empty.tensor, DenseArrayBase.from_list(i64, dims), shape)
    return [bias.owner, empty, spread], spread.results[0]  # type: ignore[list-item]
