"""numpy semantics of the `tensor` dialect (static shapes; dynamic offsets/sizes are operands).

`tensor.extract` accepts array indices: inside a vectorised `linalg.generic` body it becomes a
numpy gather over the whole iteration space (how torch-mlir spells embedding lookups).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation

from fusionopt.dialects import tensor as fusion_tensor
from fusionopt.interpreter.common import as_type, result_shape, splat
from fusionopt.interpreter.values import element_dtype, zeros_for_type


def _mixed(static: tuple[int, ...], dynamic: tuple[Any, ...]) -> list[int]:
    """Merge a static list holding DYNAMIC_INDEX placeholders with the dynamic operands."""
    values = iter(dynamic)
    return [int(next(values)) if s == DYNAMIC_INDEX else s for s in static]


def _slice_spec(op: Operation, args: tuple[Any, ...], first: int) -> tuple[tuple[slice, ...], list[int]]:
    n_off, n_size = len(op.offsets), len(op.sizes)
    dyn = args[first:]
    offsets = _mixed(op.static_offsets.get_values(), dyn[:n_off])
    sizes = _mixed(op.static_sizes.get_values(), dyn[n_off : n_off + n_size])
    strides = _mixed(op.static_strides.get_values(), dyn[n_off + n_size :])
    slices = tuple(slice(o, o + (s - 1) * st + 1, st) for o, s, st in zip(offsets, sizes, strides))
    return slices, sizes


def _gather_index(index: Any, size: int) -> Any:
    """An extract index; out-of-bounds is undefined behaviour in MLIR, so it is an error here
    (numpy would silently wrap negative indices)."""
    index = np.asarray(index, dtype=np.int64) if np.ndim(index) else int(index)
    if np.any((np.asarray(index) < 0) | (np.asarray(index) >= size)):
        bad = np.asarray(index)[(np.asarray(index) < 0) | (np.asarray(index) >= size)].ravel()[0]
        raise IndexError(f"tensor.extract index {bad} out of bounds for dimension of size {size}")
    return index


def _index_rows(indices: np.ndarray, shape: tuple[int, ...], dims: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The coordinate tuples of a gather/scatter, bounds-checked (out of range is UB in MLIR)."""
    rows = [tuple(int(i) for i in row) for row in np.asarray(indices).reshape(-1, len(dims))]
    for row in rows:
        for d, i in zip(dims, row):
            if not 0 <= i < shape[d]:
                raise IndexError(f"gather/scatter index {i} out of bounds for dimension {d} of size {shape[d]}")
    return rows


def _gathered_slab(shape: tuple[int, ...], dims: tuple[int, ...], index: tuple[int, ...]) -> tuple[slice, ...]:
    """The source slice one coordinate tuple selects: size 1 along `dims`, whole elsewhere."""
    at = dict(zip(dims, index))
    return tuple(slice(at[d], at[d] + 1) if d in at else slice(None) for d in range(len(shape)))


def _expand(op: Operation, args: PythonValues) -> PythonValues:
    # dynamic output sizes are the `output_shape` operands
    return (np.asarray(args[0]).reshape(_mixed(op.static_output_shape.get_values(), args[1:])),)


def _pad(interpreter: Interpreter, op: tensor.PadOp, args: PythonValues) -> PythonValues:
    source = args[0]
    n_low = len(op.low)
    low = _mixed(op.static_low.get_values(), args[1 : 1 + n_low])
    high = _mixed(op.static_high.get_values(), args[1 + n_low :])
    # The result's size is source + low + high (its type may leave dims dynamic).
    shape = tuple(int(n) + int(lo) + int(hi) for n, lo, hi in zip(np.shape(source), low, high))
    # The region yields the padding value for each index; evaluate it once over the whole
    # result (block args = broadcast index grids), then place the source inside.
    grids = tuple(np.arange(n).reshape([-1 if d == i else 1 for d in range(len(shape))]) for i, n in enumerate(shape))
    (fill,) = interpreter.run_ssacfg_region(op.region, grids, "tensor.pad")
    out = np.broadcast_to(as_type(fill, op.results[0].type), shape).copy()
    out[tuple(slice(lo, lo + n) for lo, n in zip(low, source.shape))] = source
    return (out,)


@register_impls
class TensorFunctions(InterpreterFunctions):
    @impl(tensor.EmptyOp)
    def run_empty(self, interpreter: Interpreter, op: tensor.EmptyOp, args: PythonValues) -> PythonValues:
        # dynamic sizes are the operands, in order (contents are undefined: zeros)
        return (np.zeros(_mixed(op.tensor.type.get_shape(), args), dtype=element_dtype(op.tensor.type)),)

    @impl(tensor.ExtractOp)
    def run_extract(self, interpreter: Interpreter, op: tensor.ExtractOp, args: PythonValues) -> PythonValues:
        source, *indices = args
        return (source[tuple(_gather_index(i, n) for i, n in zip(indices, np.shape(source)))],)

    @impl(tensor.InsertOp)
    def run_insert(self, interpreter: Interpreter, op: tensor.InsertOp, args: PythonValues) -> PythonValues:
        scalar, dest, *indices = args
        out = dest.copy()
        out[tuple(int(i) for i in indices)] = scalar
        return (out,)

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(self, interpreter: Interpreter, op: tensor.ExtractSliceOp, args: PythonValues) -> PythonValues:
        slices, sizes = _slice_spec(op, args, 1)
        if len(sizes) != len(result_shape(op)):  # rank-reduced: only static unit dims are dropped
            dynamic = [n for n, s in zip(sizes, op.static_sizes.get_values()) if s == DYNAMIC_INDEX]
            sizes = _mixed(result_shape(op), dynamic)
        return (np.ascontiguousarray(args[0][slices]).reshape(sizes),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(self, interpreter: Interpreter, op: tensor.InsertSliceOp, args: PythonValues) -> PythonValues:
        slices, sizes = _slice_spec(op, args, 2)
        out = args[1].copy()
        out[slices] = np.asarray(args[0]).reshape(sizes)
        return (out,)

    @impl(tensor.CollapseShapeOp)
    def run_collapse(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        groups = [[int(i.value.data) for i in group.data] for group in op.reassociation.data]
        shape = [int(np.prod([args[0].shape[i] for i in group])) for group in groups]
        return (args[0].reshape(shape),)

    @impl(tensor.ExpandShapeOp)
    def run_expand(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return _expand(op, args)

    @impl(fusion_tensor.ExpandShapeOp)  # the parsed op (MLIR's rank-0 rule), same semantics
    def run_checked_expand(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return _expand(op, args)

    @impl(tensor.ReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (np.asarray(args[0]).reshape([int(d) for d in np.asarray(args[1]).reshape(-1)]),)

    @impl(fusion_tensor.ReshapeOp)
    def run_reshape_unranked(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (np.asarray(args[0]).reshape([int(d) for d in np.asarray(args[1]).reshape(-1)]),)

    @impl(tensor.CastOp)
    def run_cast(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (args[0],)

    @impl(tensor.ConcatOp)
    def run_concat(self, interpreter: Interpreter, op: tensor.ConcatOp, args: PythonValues) -> PythonValues:
        return (np.concatenate(args, axis=op.dim.value.data),)

    @impl(tensor.FromElementsOp)
    def run_from_elements(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        dtype = element_dtype(op.results[0].type)
        return (np.array(args, dtype=dtype).reshape(result_shape(op)),)

    @impl(tensor.SplatOp)
    def run_splat(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (splat(op, args[0]),)

    @impl(tensor.DimOp)
    def run_dim(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (np.int64(np.shape(args[0])[int(args[1])]),)

    @impl(fusion_tensor.PadOp)
    def run_checked_pad(self, interpreter: Interpreter, op: tensor.PadOp, args: PythonValues) -> PythonValues:
        return _pad(interpreter, op, args)

    @impl(fusion_tensor.RankOp)
    def run_rank(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (np.int64(np.ndim(args[0])),)

    @impl(fusion_tensor.GenerateOp)
    def run_generate(self, interpreter: Interpreter, op: fusion_tensor.GenerateOp, args: PythonValues) -> PythonValues:
        shape = _mixed(op.result.type.get_shape(), args)
        # As for tensor.pad: the body runs once over broadcast index grids (vectorised).
        grids = tuple(np.arange(n).reshape([-1 if d == i else 1 for d in range(len(shape))]) for i, n in enumerate(shape))
        (value,) = interpreter.run_ssacfg_region(op.body, grids, "tensor.generate")
        return (np.broadcast_to(as_type(value, op.result.type), shape).copy(),)

    @impl(fusion_tensor.GatherOp)
    def run_gather(self, interpreter: Interpreter, op: fusion_tensor.GatherOp, args: PythonValues) -> PythonValues:
        source, indices = args
        rows = [source[_gathered_slab(source.shape, op._dims(), index)] for index in _index_rows(indices, source.shape, op._dims())]
        return (np.stack(rows).reshape(result_shape(op)) if rows else np.zeros(result_shape(op), source.dtype),)

    @impl(fusion_tensor.ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: fusion_tensor.ScatterOp, args: PythonValues) -> PythonValues:
        source, dest, indices = args
        out = dest.copy()
        index_rows = _index_rows(indices, dest.shape, op._dims())
        slabs = source.reshape(len(index_rows), -1) if index_rows else []
        for index, slab in zip(index_rows, slabs):
            where = _gathered_slab(dest.shape, op._dims(), index)
            out[where] = slab.reshape(out[where].shape)
        return (out,)

    @impl(tensor.PadOp)
    def run_pad(self, interpreter: Interpreter, op: tensor.PadOp, args: PythonValues) -> PythonValues:
        return _pad(interpreter, op, args)

    @impl_terminator(tensor.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()
