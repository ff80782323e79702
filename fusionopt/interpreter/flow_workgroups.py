"""`flow.dispatch.workgroups` and the `iree_tensor_ext.dispatch.tensor` bindings of its body.

A binding is a `Binding`, a holder of one numpy array: operands are copied in (a tied result
is written in place of its operand's copy, never into the caller's array), every new result
gets a fresh array of its shape, loads read a slice and stores write one. The body runs once
(what every workgroup together computes); the `count` region does not change values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from fusionopt.diagnostics import op_error
from fusionopt.dialects import flow_workgroups, iree_tensor_ext_dispatch as dispatch
from fusionopt.interpreter.values import element_dtype


@dataclass
class Binding:
    array: np.ndarray


def _shapes(types, dims) -> list[tuple[int, ...]]:
    """The concrete shape of each tensor type, `?` taken in order from `dims`."""
    dims = iter(int(d) for d in dims)
    return [tuple(next(dims) if d == DYNAMIC_INDEX else d for d in t.get_shape()) if isinstance(t, TensorType) else ()
            for t in types]


@register_impls
class FlowWorkgroupsFunctions(InterpreterFunctions):
    @impl(flow_workgroups.DispatchWorkgroupsOp)
    def run_workgroups(self, interpreter: Interpreter, op: flow_workgroups.DispatchWorkgroupsOp, args: PythonValues) -> PythonValues:
        n_work, n_args, n_arg_dims = len(op.workload), len(op.arguments), len(op.argument_dims)
        values = args[n_work : n_work + n_args]
        result_dims = args[n_work + n_args + n_arg_dims :]
        operands = [Binding(np.array(v, copy=True)) if isinstance(t, TensorType) else v
                    for v, t in zip(values, op.arguments.types)]
        tied = op.tied_indices()
        new_types = [r.type for r, i in zip(op.results_, tied)]
        shapes = iter(_shapes(new_types, result_dims))
        outputs = []
        for result, index in zip(op.results_, tied):
            shape = next(shapes)
            outputs.append(operands[index] if index >= 0 else Binding(np.zeros(shape, element_dtype(result.type))))
        fresh = [b for b, i in zip(outputs, tied) if i < 0]
        interpreter.run_ssacfg_region(op.workgroup_body, (*operands, *fresh), "flow.dispatch.workgroups")
        return tuple(b.array for b in outputs)

    @impl(flow_workgroups.DispatchTieShapeOp)
    def run_tie_shape(self, interpreter: Interpreter, op: flow_workgroups.DispatchTieShapeOp, args: PythonValues) -> PythonValues:
        return (args[0],)

    @impl(dispatch.DispatchWorkloadOrdinalOp)
    def run_ordinal(self, interpreter: Interpreter, op: dispatch.DispatchWorkloadOrdinalOp, args: PythonValues) -> PythonValues:
        return (args[0],)

    @impl(dispatch.DispatchTensorLoadOp)
    def run_load(self, interpreter: Interpreter, op: dispatch.DispatchTensorLoadOp, args: PythonValues) -> PythonValues:
        binding: Binding = args[0]
        window = _window(op, args[1 + len(op.source_dims) :])
        return (_fit(op, np.array(binding.array[window], copy=True), op.result.type),)

    @impl(dispatch.DispatchTensorStoreOp)
    def run_store(self, interpreter: Interpreter, op: dispatch.DispatchTensorStoreOp, args: PythonValues) -> PythonValues:
        value, binding = np.asarray(args[0]), args[1]
        window = _window(op, args[2 + len(op.target_dims) :])
        binding.array[window] = value.reshape(binding.array[window].shape)
        return ()


def _window(op, values) -> tuple[slice, ...]:
    """The numpy index of the op's offsets/sizes/strides."""
    lists = [getattr(op, f"static_{k}").get_values() for k in ("offsets", "sizes", "strides")]
    values = iter(int(v) for v in values)
    offsets, sizes, strides = ([next(values) if v == DYNAMIC_INDEX else v for v in static] for static in lists)
    return tuple(slice(o, o + s * st, st) for o, s, st in zip(offsets, sizes, strides))


def _fit(op, part: np.ndarray, result_type: TensorType) -> np.ndarray:
    """The loaded slice in the result's rank: unit dimensions the result drops are removed."""
    rank = result_type.get_num_dims()
    shape = list(part.shape)
    while len(shape) > rank and 1 in shape:
        shape.remove(1)
    if len(shape) != rank:
        raise op_error(op, f"a slice of shape {list(part.shape)} does not fit {result_type}")
    return part.reshape(shape)
