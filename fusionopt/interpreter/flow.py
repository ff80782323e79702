"""The `flow` dialect: a dispatch region runs its body (fusion changes kernels, not values);
`flow.tensor.*` data movement maps to numpy slicing, copying and reshaping."""

from __future__ import annotations

import numpy as np
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

from fusionopt.dialects import flow
from fusionopt.interpreter.common import result_shape, splat
from fusionopt.interpreter.values import element_dtype


def _ints(args: PythonValues, start: int, count: int) -> list[int]:
    return [int(v) for v in args[start : start + count]]


@register_impls
class FlowFunctions(InterpreterFunctions):
    @impl(flow.DispatchRegionOp)
    def run_dispatch_region(self, interpreter: Interpreter, op: flow.DispatchRegionOp, args: PythonValues) -> PythonValues:
        return interpreter.run_ssacfg_region(op.body, (), "flow.dispatch.region")

    @impl_terminator(flow.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: flow.ReturnOp, args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(flow.TensorSliceOp)
    def run_slice(self, interpreter: Interpreter, op: flow.TensorSliceOp, args: PythonValues) -> PythonValues:
        # operand order: source, source_dims, start_indices, lengths, result_dims
        first = 1 + len(op.source_dims)
        starts = _ints(args, first, len(op.start_indices))
        lengths = _ints(args, first + len(op.start_indices), len(op.lengths))
        return (np.ascontiguousarray(args[0][tuple(slice(s, s + n) for s, n in zip(starts, lengths))]),)

    @impl(flow.TensorUpdateOp)
    def run_update(self, interpreter: Interpreter, op: flow.TensorUpdateOp, args: PythonValues) -> PythonValues:
        # operand order: target, target_dims, start_indices, update, update_dims
        first = 1 + len(op.target_dims)
        target, update = args[0], args[first + len(op.start_indices)]
        starts = _ints(args, first, len(op.start_indices))
        out = target.copy()
        out[tuple(slice(s, s + n) for s, n in zip(starts, update.shape))] = update
        return (out,)

    @impl(flow.TensorReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: flow.TensorReshapeOp, args: PythonValues) -> PythonValues:
        return (np.asarray(args[0]).reshape(result_shape(op)),)

    @impl(flow.TensorEmptyOp)
    def run_empty(self, interpreter: Interpreter, op: flow.TensorEmptyOp, args: PythonValues) -> PythonValues:
        # contents are undefined (as tensor.empty's: zeros); dynamic sizes are the operands
        dims = iter(int(v) for v in args)
        shape = [d if d >= 0 else next(dims) for d in op.result.type.get_shape()]
        return (np.zeros(shape, dtype=element_dtype(op.result.type)),)

    @impl(flow.TensorSplatOp)
    def run_splat(self, interpreter: Interpreter, op: flow.TensorSplatOp, args: PythonValues) -> PythonValues:
        return (splat(op, args[0]),)

