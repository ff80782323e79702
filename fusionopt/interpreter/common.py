"""Helpers shared by the dialect implementations: table-driven impl classes and typed results.

xDSL dispatches implementations on the exact op class (`type(op)`), so ops that share one
numpy implementation (all graph binary ops, all arith binary ops, ...) are registered from a
table {op class: function(op, args) -> tuple of results} instead of one method per class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Attribute, Operation

from fusionopt.interpreter.values import element_dtype, is_bf16_dtype

OpFn = Callable[[Operation, tuple[Any, ...]], tuple[Any, ...]]


def functions_from_table(
    name: str, table: Mapping[type[Operation], Callable[..., tuple[Any, ...]]], pass_interpreter: bool = False
) -> type[InterpreterFunctions]:
    """An `InterpreterFunctions` subclass with one `@impl` per op class of `table`.

    Table functions take `(op, args)`, or `(interpreter, op, args)` with `pass_interpreter`.
    """

    def adapt(fn):
        def run(self, interpreter: Interpreter, op: Operation, args: tuple[Any, ...]):
            return fn(interpreter, op, args) if pass_interpreter else fn(op, args)

        return run

    namespace = {f"run_{i}_{op_type.__name__}": impl(op_type)(adapt(fn)) for i, (op_type, fn) in enumerate(table.items())}
    return register_impls(type(name, (InterpreterFunctions,), namespace))


def result_shape(op: Operation, index: int = 0) -> tuple[int, ...]:
    """The static shape of `op`'s result `index` (reshape/splat targets)."""
    return tuple(op.results[index].type.get_shape())


def splat(op: Operation, value: Any) -> np.ndarray:
    """`value` broadcast to `op`'s (first) result type: tensor.splat and flow.tensor.splat."""
    return np.full(result_shape(op), value, dtype=element_dtype(op.results[0].type))


def as_type(value: Any, mlir_type: Attribute) -> Any:
    """Cast a numpy result to the op's declared result type (scalar or tensor)."""
    dtype = element_dtype(mlir_type)
    if isinstance(value, np.ndarray | np.generic) and value.dtype == dtype:
        return value
    return np.asarray(value).astype(dtype)[()] if np.ndim(value) == 0 else np.asarray(value).astype(dtype)


def compute_dtype_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """bf16 values are computed in float32 and rounded back by `as_type` (see values.py)."""
    return tuple(np.asarray(a, dtype=np.float32) if is_bf16_dtype(getattr(a, "dtype", None)) else a for a in args)


def elementwise(fn: Callable[..., Any]) -> OpFn:
    """An op computing `fn(*operands)` elementwise, result in the declared result type."""

    def run(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
        return (as_type(fn(*compute_dtype_args(args)), op.results[0].type),)

    return run
