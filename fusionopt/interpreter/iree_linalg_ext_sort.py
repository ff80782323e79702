"""`iree_linalg_ext.sort`, `topk` and `gather` in numpy (semantics: dialects/iree_linalg_ext_sort.py).

sort/topk order each line along `dimension` with Python's stable sort, asking the op's region
"does lhs go first?" for each compared pair (so any comparator the region computes is honoured,
NaN handling included); gather is one fancy-indexing read.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from fusionopt.dialects.iree_linalg_ext_sort import GatherOp, SortOp, TopkOp
from fusionopt.interpreter.common import as_type
from fusionopt.interpreter.values import element_dtype


def _stable_order(interpreter: Interpreter, op: Any, keys: list[np.ndarray], name: str) -> list[int]:
    """Positions of one line in the region's order; `keys` are the line's operands."""

    def first(i: int, j: int) -> bool:
        args = tuple(v for key in keys for v in (key[i], key[j]))
        (answer,) = interpreter.run_ssacfg_region(op.region, args, name)
        return bool(np.asarray(answer))

    def compare(i: int, j: int) -> int:
        return -1 if first(i, j) else (1 if first(j, i) else 0)

    return sorted(range(len(keys[0])), key=functools.cmp_to_key(compare))


def _lines(array: np.ndarray, axis: int) -> np.ndarray:
    """`array` with `axis` last, flattened to (lines, length)."""
    moved = np.moveaxis(array, axis, -1)
    return moved.reshape(-1, moved.shape[-1])


def _unlines(lines: np.ndarray, like_shape: tuple[int, ...], axis: int) -> np.ndarray:
    moved_shape = tuple(np.delete(like_shape, axis)) + (like_shape[axis],)
    return np.moveaxis(lines.reshape(moved_shape), -1, axis)


@register_impls
class IreeLinalgExtSortFunctions(InterpreterFunctions):
    @impl(SortOp)
    def run_sort(self, interpreter: Interpreter, op: SortOp, args: PythonValues) -> PythonValues:
        arrays = [np.asarray(a) for a in args[len(op.inputs):]]
        d = op.dim()
        lines = [_lines(a, d) for a in arrays]
        out = [np.empty_like(line) for line in lines]
        for row in range(lines[0].shape[0]):
            order = _stable_order(interpreter, op, [line[row] for line in lines], op.name)
            for line, result in zip(lines, out):
                result[row] = line[row][order]
        return tuple(_unlines(r, a.shape, d) for r, a in zip(out, arrays))

    @impl(TopkOp)
    def run_topk(self, interpreter: Interpreter, op: TopkOp, args: PythonValues) -> PythonValues:
        values = np.asarray(args[0])
        d = op.dim()
        out_values, out_indices = (np.asarray(a) for a in args[len(op.inputs):])
        k = out_values.shape[d]
        lines = _lines(values, d)
        given = _lines(np.asarray(args[1]), d) if len(op.inputs) == 2 else None
        index_dtype = element_dtype(op.outputs[1].type)
        top_v = np.empty((lines.shape[0], k), dtype=out_values.dtype)
        top_i = np.empty((lines.shape[0], k), dtype=index_dtype)
        for row in range(lines.shape[0]):
            order = _stable_order(interpreter, op, [lines[row]], op.name)[:k]
            top_v[row] = lines[row][order]
            top_i[row] = given[row][order] if given is not None else np.asarray(order)
        return (_unlines(top_v, out_values.shape, d), _unlines(top_i, out_indices.shape, d))

    @impl(GatherOp)
    def run_gather(self, interpreter: Interpreter, op: GatherOp, args: PythonValues) -> PythonValues:
        source, indices, output = (np.asarray(a) for a in args)
        dims = op.dims()
        batch_shape = output.shape[: op.batch_rank()]
        idx = indices.astype(np.int64).reshape(*batch_shape, len(dims))
        leading: list[Any] = [None] * len(dims)
        for column, dim in enumerate(dims):
            position = idx[..., column]
            if position.size and (position.min() < 0 or position.max() >= source.shape[dim]):
                raise IndexError(f"iree_linalg_ext.gather: an index along dim {dim} is outside [0, {source.shape[dim]})")
            leading[dim] = position
        return (as_type(source[tuple(leading)], op.result.type),)
