"""Indexing maps as numpy views: how a structured op's operands meet its iteration space.

Every operand is presented to the body as an array of rank `num_loops` that broadcasts to the
iteration space (loop d is axis d). A map made of loop dims and constants (`(d0,d1,d2)->(d2,d0)`,
`(d0,d1,d2)->(d0,d1,0)`) becomes an index + transpose + reshape (no copy); any other affine
map (`d0 + d1`, repeated dims) becomes a numpy gather over broadcast index grids.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)


class StructuredOpError(Exception):
    """The op's maps or shapes cannot be executed (reported as a user error)."""


def loop_ranges(maps: list[AffineMap], shapes: list[tuple[int, ...]]) -> list[int]:
    """Static size of each loop, read from the first operand dim indexed by exactly that loop."""
    num_loops = maps[0].num_dims
    ranges: list[int | None] = [None] * num_loops
    for m, shape in zip(maps, shapes):
        for expr, size in zip(m.results, shape):
            if isinstance(expr, AffineDimExpr) and ranges[expr.position] is None:
                ranges[expr.position] = size
    if any(r is None for r in ranges):
        raise StructuredOpError("cannot infer every loop range from the operand shapes")
    return ranges  # type: ignore[return-value]


def index_grid(dim: int, ranges: list[int]) -> np.ndarray:
    """`arange(ranges[dim])` placed on axis `dim` of a rank-len(ranges) array."""
    shape = [1] * len(ranges)
    shape[dim] = ranges[dim]
    return np.arange(ranges[dim], dtype=np.int64).reshape(shape)


def _eval_expr(expr: AffineExpr, ranges: list[int]) -> np.ndarray | int:
    if isinstance(expr, AffineDimExpr):
        return index_grid(expr.position, ranges)
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = _eval_expr(expr.lhs, ranges), _eval_expr(expr.rhs, ranges)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
            case AffineBinaryOpKind.Mod:
                return np.mod(lhs, rhs)
            case AffineBinaryOpKind.FloorDiv:
                return np.floor_divide(lhs, rhs)
            case AffineBinaryOpKind.CeilDiv:
                return -np.floor_divide(-lhs, rhs)
    raise StructuredOpError(f"unsupported affine expression {expr}")


def is_dims_and_constants(m: AffineMap) -> bool:
    """Each result a distinct loop dim or a constant: a view needs no gather."""
    dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    others_constant = all(isinstance(e, AffineDimExpr | AffineConstantExpr) for e in m.results)
    return others_constant and len(set(dims)) == len(dims)


def operand_view(value: np.ndarray, m: AffineMap, ranges: list[int]) -> np.ndarray:
    """The operand seen from the iteration space: rank len(ranges), broadcastable to it."""
    value = np.asarray(value)
    if len(m.results) == 0:  # scalar operand, or a 0-d tensor
        return value.reshape([1] * len(ranges))
    if is_dims_and_constants(m):
        index = tuple(e.value if isinstance(e, AffineConstantExpr) else slice(None) for e in m.results)
        picked = value[index]
        dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
        picked = picked.transpose(np.argsort(dims))
        shape = [1] * len(ranges)
        for d in dims:
            shape[d] = ranges[d]
        return picked.reshape(shape)
    index = tuple(_eval_expr(e, ranges) for e in m.results)
    return value[np.broadcast_arrays(*index)] if len(index) > 1 else value[index]


def write_through_map(init: np.ndarray, m: AffineMap, full: np.ndarray, ranges: list[int]) -> np.ndarray:
    """The output tensor after storing `full` (iteration-space values) through map `m`.

    `full` has rank len(ranges); reduction loops absent from `m` must already have size 1.
    """
    full = np.asarray(full)
    if len(m.results) == 0:
        return np.asarray(full.reshape(()), dtype=init.dtype)
    out = init.copy()
    if is_dims_and_constants(m):
        dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
        shape = [ranges[d] if d in dims else 1 for d in range(len(ranges))]
        moved = np.broadcast_to(full, shape).reshape([ranges[d] for d in sorted(dims)])
        moved = moved.transpose([sorted(dims).index(d) for d in dims])
        index = tuple(e.value if isinstance(e, AffineConstantExpr) else slice(None) for e in m.results)
        out[index] = moved
        return out
    index = np.broadcast_arrays(*(_eval_expr(e, ranges) for e in m.results))
    out[tuple(index)] = np.broadcast_to(full, index[0].shape)
    return out
