"""`linalg.pack` / `linalg.unpack` (fusionopt.dialects.linalg_pack) in numpy: pad, split each
tiled dimension into (outer, tile) with a reshape, then one transpose (and the inverse)."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.interpreter import Interpreter
from xdsl.ir import Operation


def _tiles(op: Operation, dynamic: tuple[Any, ...]) -> list[int]:
    values = iter(int(v) for v in dynamic)
    return [next(values) if t == DYNAMIC_INDEX else t for t in op.static_tiles()]


def _split_axes(rank: int, tiles: dict[int, int]) -> tuple[dict[int, int], dict[int, int]]:
    """Axis of each dimension's outer part and of its tile part after splitting tiled dims."""
    outer, inner, axis = {}, {}, 0
    for d in range(rank):
        outer[d] = axis
        axis += 1
        if d in tiles:
            inner[d] = axis
            axis += 1
    return outer, inner


def run_pack(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    source, dest = np.asarray(args[0]), np.asarray(args[1])
    has_pad = op.padding_value is not None
    pad = args[2] if has_pad else None
    tiles = dict(zip(op.inner_pos(), _tiles(op, args[3 if has_pad else 2:])))
    rank = source.ndim
    widths = [(0, -source.shape[d] % tiles[d] if d in tiles else 0) for d in range(rank)]
    if any(w for _, w in widths):
        if pad is None:
            raise ValueError("linalg.pack: a tile does not divide its dimension and there is no padding_value")
        source = np.pad(source, widths, constant_values=np.asarray(pad, dtype=source.dtype))
    split = [s for d in range(rank) for s in ((source.shape[d] // tiles[d], tiles[d]) if d in tiles else (source.shape[d],))]
    outer, inner = _split_axes(rank, tiles)
    perm = op.outer_perm() or tuple(range(rank))
    order = [outer[d] for d in perm] + [inner[d] for d in op.inner_pos()]
    packed = source.reshape(split).transpose(order)
    if packed.shape != dest.shape:
        raise ValueError(f"linalg.pack: packed shape {packed.shape} differs from the destination {dest.shape}")
    return (np.ascontiguousarray(packed),)


def run_unpack(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    source, dest = np.asarray(args[0]), np.asarray(args[1])
    pos = op.inner_pos()
    tiles = dict(zip(pos, _tiles(op, args[2:])))
    rank = dest.ndim
    perm = op.outer_perm() or tuple(range(rank))
    # packed axis of each dimension's outer part and tile part, in dimension order
    order = []
    for d in range(rank):
        order.append(perm.index(d))
        if d in tiles:
            order.append(rank + pos.index(d))
    merged = source.transpose(order)
    sizes = [merged.shape[a] for a in range(merged.ndim)]
    shape, axis = [], 0
    for d in range(rank):
        if d in tiles:
            shape.append(sizes[axis] * sizes[axis + 1])
            axis += 2
        else:
            shape.append(sizes[axis])
            axis += 1
    full = merged.reshape(shape)
    return (np.ascontiguousarray(full[tuple(slice(0, n) for n in dest.shape)]),)
