"""`linalg` op implementations: named ops with a direct numpy form, everything else structured.

Dispatch is by op name so that xDSL's linalg classes and the ones fusionopt adds
(`fusionopt.dialects.linalg`: batch_matmul, map, ...) share one implementation. Any structured
op (`LinalgStructuredOperation`: generic, matmul, batch_matmul, add, exp, conv, ...) not listed
in `_DIRECT` runs through the vectorised engine in linalg_generic.py using its indexing maps
and (hidden) body region.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from xdsl.dialects.linalg import Linalg as XdslLinalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap

from fusionopt.interpreter.common import as_type, functions_from_table
from fusionopt.interpreter.linalg_conv import run_window_op
from fusionopt.interpreter.linalg_generic import index_stack, run_structured
from fusionopt.interpreter.linalg_pack import run_pack, run_unpack


def _split(op: Operation, args: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    n_out = len(op.results)
    return args[: len(args) - n_out], args[len(args) - n_out :]


def _is_reduction(iterator: Any) -> bool:
    return "reduction" in str(iterator.data).lower()


def _structured(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    inputs, outputs = _split(op, args)
    maps = [m.data for m in op.get_indexing_maps()]
    reductions = [d for d, it in enumerate(op.get_iterator_types()) if _is_reduction(it)]
    body = op.regions[0].block
    return run_structured(interpreter, body, maps, reductions, inputs, outputs, op.result_types)


def _fill(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    value, init = args
    return (np.full(np.shape(init), as_type(value, op.result_types[0]), dtype=init.dtype),)


def _transpose(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    return (np.transpose(args[0], op.permutation.get_values()),)


def _broadcast(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    source, init = args
    added = set(op.dimensions.get_values())
    shape = [1 if d in added else n for d, n in enumerate(init.shape)]
    return (np.broadcast_to(np.asarray(source).reshape(shape), init.shape),)


def _reduce(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    inputs, outputs = _split(op, args)
    rank = np.ndim(inputs[0])
    reduced = list(op.dimensions.get_values())
    kept = [d for d in range(rank) if d not in reduced]
    identity = AffineMap.identity(rank)
    projection = AffineMap(rank, 0, tuple(AffineMap.identity(rank).results[d] for d in kept))
    maps = [identity] * len(inputs) + [projection] * len(outputs)
    return run_structured(interpreter, op.regions[0].block, maps, reduced, inputs, outputs, op.result_types)


def _map(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    inputs, outputs = _split(op, args)
    identity = AffineMap.identity(np.ndim(outputs[0]))
    maps = [identity] * (len(inputs) + len(outputs))
    return run_structured(interpreter, op.regions[0].block, maps, [], inputs, outputs, op.result_types)


def _index(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    stack = index_stack(interpreter)
    if not stack:
        raise ValueError("linalg.index outside a structured op body")
    return (stack[-1][op.dim.value.data],)


def _softmax(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """MLIR's decomposition, in the element type: max, exp(x - max), sum, divide."""
    x, dim = np.asarray(args[0]), op.dimension.value.data
    shifted = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return (as_type(shifted / np.sum(shifted, axis=dim, keepdims=True), op.result_types[0]),)


_DIRECT = {
    "linalg.softmax": _softmax,
    "linalg.fill": _fill,
    "linalg.transpose": _transpose,
    "linalg.broadcast": _broadcast,
    "linalg.reduce": _reduce,
    "linalg.map": _map,
    "linalg.index": _index,
    "linalg.pack": run_pack,
    "linalg.unpack": run_unpack,
}
def _linalg_op_classes() -> list[type[Operation]]:
    classes = list(XdslLinalg.operations)
    try:  # fusionopt's linalg extends xDSL's (batch_matmul, map, ...)
        ours = importlib.import_module("fusionopt.dialects.linalg").Linalg
        classes += [c for c in ours.operations if c not in classes]
    except (ImportError, AttributeError):
        pass
    return classes


def _table() -> dict[type[Operation], Any]:
    table: dict[type[Operation], Any] = {}
    for cls in _linalg_op_classes():
        if cls.name in _DIRECT:
            table[cls] = _DIRECT[cls.name]
        elif hasattr(cls, "SPEC") and hasattr(cls, "window_sizes"):  # linalg_conv's WindowOp
            table[cls] = run_window_op
        elif issubclass(cls, LinalgStructuredOperation):
            table[cls] = _structured
    return table


LinalgFunctions: type[InterpreterFunctions] = functions_from_table("LinalgFunctions", _table(), pass_interpreter=True)
