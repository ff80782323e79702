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


@register_impls
class TensorFunctions(InterpreterFunctions):
    @impl(tensor.EmptyOp)
    def run_empty(self, interpreter: Interpreter, op: tensor.EmptyOp, args: PythonValues) -> PythonValues:
        return (zeros_for_type(op.tensor.type),)

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
        slices, _ = _slice_spec(op, args, 1)
        return (np.ascontiguousarray(args[0][slices]).reshape(result_shape(op)),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(self, interpreter: Interpreter, op: tensor.InsertSliceOp, args: PythonValues) -> PythonValues:
        slices, sizes = _slice_spec(op, args, 2)
        out = args[1].copy()
        out[slices] = np.asarray(args[0]).reshape(sizes)
        return (out,)

    @impl(tensor.CollapseShapeOp)
    def run_collapse(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (args[0].reshape(result_shape(op)),)

    @impl(tensor.ExpandShapeOp)
    def run_expand(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (args[0].reshape(result_shape(op)),)

    @impl(tensor.ReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return (args[0].reshape(result_shape(op)),)

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

    @impl(tensor.PadOp)
    def run_pad(self, interpreter: Interpreter, op: tensor.PadOp, args: PythonValues) -> PythonValues:
        source = args[0]
        n_low = len(op.low)
        low = _mixed(op.static_low.get_values(), args[1 : 1 + n_low])
        shape = result_shape(op)
        # The region yields the padding value for each index; evaluate it once over the whole
        # result (block args = broadcast index grids), then place the source inside.
        grids = tuple(np.arange(n).reshape([-1 if d == i else 1 for d in range(len(shape))]) for i, n in enumerate(shape))
        (fill,) = interpreter.run_ssacfg_region(op.region, grids, "tensor.pad")
        out = np.broadcast_to(as_type(fill, op.results[0].type), shape).copy()
        out[tuple(slice(lo, lo + n) for lo, n in zip(low, source.shape))] = source
        return (out,)

    @impl_terminator(tensor.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()
