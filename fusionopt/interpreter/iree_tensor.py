"""IREE's tensor-level ops that do not change values or only reinterpret them:
`iree_encoding.set_encoding` / `unset_encoding` (a layout hint: identity),
`iree_tensor_ext.compute_barrier.*` (identity), `iree_tensor_ext.bitcast` and `flow.tensor.bitcast` (the same bytes read
as another element type) and `flow.tensor.constant` (a dense value; a parameter reference has
no data in the IR, so running it is an error)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from fusionopt.diagnostics import op_error
from fusionopt.diagnostics import FusionError
from fusionopt.dialects import flow_constant, iree_encoding, iree_tensor_ext
from fusionopt.interpreter.values import attribute_value, element_dtype, storage_dtype


def _bitcast(op, args: PythonValues) -> PythonValues:
    source = np.ascontiguousarray(np.asarray(args[0]).astype(storage_dtype(op.source.type), copy=False))
    result_type = op.result.type
    dims = iter(int(d) for d in args[1 + len(op.source_dims):])
    shape = [next(dims) if d == DYNAMIC_INDEX else d for d in result_type.get_shape()]
    target = np.dtype(storage_dtype(result_type))
    if source.nbytes != int(np.prod(shape)) * target.itemsize:
        # i1 under `#iree_encoding.packed_storage` holds 8 elements per byte; IREE's bit order
        # there is not modelled, so the interpreter refuses rather than guess it.
        raise FusionError(f"{op.name}: {op.source.type} has {source.nbytes} bytes, {result_type} "
                          f"needs {int(np.prod(shape)) * target.itemsize} as the interpreter stores it "
                          "(packed sub-byte encodings are not interpreted)")
    raw = source.view(target).reshape(shape)
    return (raw.astype(element_dtype(result_type), copy=False),)


@register_impls
class IreeTensorFunctions(InterpreterFunctions):
    @impl(iree_encoding.SetEncodingOp)
    def run_set_encoding(self, interpreter: Interpreter, op, args: PythonValues) -> PythonValues:
        return (args[0],)

    @impl(iree_encoding.UnsetEncodingOp)
    def run_unset_encoding(self, interpreter: Interpreter, op, args: PythonValues) -> PythonValues:
        return (args[0],)

    @impl(iree_tensor_ext.ComputeBarrierStartOp)
    def run_barrier_start(self, interpreter: Interpreter, op, args: PythonValues) -> PythonValues:
        return (args[0],)

    @impl(iree_tensor_ext.ComputeBarrierEndOp)
    def run_barrier_end(self, interpreter: Interpreter, op, args: PythonValues) -> PythonValues:
        return (args[0],)

    @impl(iree_tensor_ext.BitCastOp)
    def run_bitcast(self, interpreter: Interpreter, op: iree_tensor_ext.BitCastOp, args: PythonValues) -> PythonValues:
        return _bitcast(op, args)

    @impl(flow_constant.TensorBitCastOp)
    def run_flow_bitcast(self, interpreter: Interpreter, op, args: PythonValues) -> PythonValues:
        return _bitcast(op, args)

    @impl(flow_constant.TensorConstantOp)
    def run_constant(self, interpreter: Interpreter, op: flow_constant.TensorConstantOp, args: PythonValues) -> PythonValues:
        if not isinstance(op.value, DenseIntOrFPElementsAttr):
            raise op_error(op, f"cannot execute {op.value}: its data is not in the IR")
        return (attribute_value(op.value, op.result.type),)
