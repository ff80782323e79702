"""IREE's `hal.tensor.*` boundary ops. A buffer view holds its tensor's values, so importing,
exporting, aliasing and joining on a fence all pass the values through unchanged, and a buffer
view's dimension is its array's."""

from __future__ import annotations

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from fusionopt.dialects import hal_buffer_view, hal_tensor
from fusionopt.diagnostics import FusionError


@register_impls
class HalFunctions(InterpreterFunctions):
    @impl(hal_tensor.TensorImportOp)
    def run_import(self, interpreter: Interpreter, op: hal_tensor.TensorImportOp, args: PythonValues) -> PythonValues:
        return (args[1] if op.wait_fence is not None else args[0],)

    @impl(hal_tensor.TensorExportOp)
    def run_export(self, interpreter: Interpreter, op: hal_tensor.TensorExportOp, args: PythonValues) -> PythonValues:
        return (args[0],)

    @impl(hal_tensor.TensorBarrierOp)
    def run_barrier(self, interpreter: Interpreter, op: hal_tensor.TensorBarrierOp, args: PythonValues) -> PythonValues:
        return tuple(args[: len(op.sources)])

    @impl(hal_tensor.TensorAliasOp)
    def run_alias(self, interpreter: Interpreter, op: hal_tensor.TensorAliasOp, args: PythonValues) -> PythonValues:
        return (args[1] if op.wait_fence is not None else args[0],)

    @impl(hal_buffer_view.BufferViewDimOp)
    def run_buffer_view_dim(self, interpreter: Interpreter, op: hal_buffer_view.BufferViewDimOp,
                            args: PythonValues) -> PythonValues:
        shape = getattr(args[0], "shape", None)
        index = op.index.value.data
        if shape is None or index >= len(shape):
            raise FusionError(f"hal.buffer_view.dim: dimension {index} of a buffer view of shape {shape}")
        return (int(shape[index]),)
