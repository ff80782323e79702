"""`iree_linalg_ext.im2col` in numpy: one gather with an index array per input dim
(semantics: dialects/iree_linalg_ext_im2col.py, IREE's `computeIm2colInputOffsets`).

Every output element's input coordinates are computed at once from `np.indices` of the output:
canonical positions, their row-major delinearization by output_sizes, then the window rule.
Reads outside an unpadded input are an error (IREE's result is undefined there); low output
padding is reported unsupported (only high output padding is confirmed by IREE's tests).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Operation

from fusionopt.dialects.iree_linalg_ext_im2col import Im2colOp
from fusionopt.interpreter.common import functions_from_table
from fusionopt.interpreter.values import UnsupportedValue, element_dtype


def _mixed(static: list[int], values: list[Any]) -> list[int]:
    dynamic = iter(values)
    return [int(next(dynamic)) if s == DYNAMIC_INDEX else s for s in static]


def _operand_lists(op: Im2colOp, args: tuple[Any, ...]) -> dict[str, Any]:
    """The op's mixed lists with their index operands filled in (args follow operand order:
    input, output, kernel_size, offsets, output_sizes, the four pads, pad_value). The kernel
    size is not needed: the window's extent is its K output_sizes."""
    rest = iter(args[2 + len(op.kernel_size):])

    def take(group) -> list[Any]:
        return [next(rest) for _ in group]

    lists: dict[str, Any] = {"offsets": _mixed(op.ints("static_offsets"), take(op.offsets)), "sizes": []}
    flat, used = take(op.output_sizes), 0
    for inner in op.output_size_lists():
        n = sum(1 for s in inner if s == DYNAMIC_INDEX)
        lists["sizes"].append(_mixed(inner, flat[used:used + n]))
        used += n
    lists["pads"] = {
        name: _mixed(op.ints(f"static_{name}"), take(getattr(op, name)))
        for name in ("input_pad_low", "input_pad_high", "output_pad_low", "output_pad_high")
    }
    lists["pad_value"] = next(rest, None)
    return lists


def _delinearize(position: np.ndarray, sizes: list[int]) -> list[np.ndarray]:
    parts = []
    for size in reversed(sizes[1:]):
        parts.append(position % size)
        position = position // size
    return [position, *reversed(parts)]


def _canonical_components(op: Im2colOp, lists: dict[str, Any], shape: tuple[int, ...]) -> list[list[np.ndarray]]:
    """Per canonical output dim, its delinearized position arrays over the output."""
    grid = np.indices(shape, dtype=np.int64)
    actual_of = {c: a for a, c in enumerate(op.ints("output_perm"))}
    return [
        _delinearize(lists["offsets"][c] + grid[actual_of[c]], sizes) for c, sizes in enumerate(lists["sizes"])
    ]


def input_coordinates(op: Im2colOp, lists: dict[str, Any], shape: tuple[int, ...]) -> list[np.ndarray]:
    """For each input dim, the (padded-space) coordinate every output element reads."""
    comps = _canonical_components(op, lists, shape)
    batch, m_pos, k_pos = op.ints("batch_pos"), op.ints("m_pos"), op.ints("k_pos")
    n_batch, n_m = len(batch), op.num_m_output_dims()
    m_parts = [p for c in comps[n_batch:n_batch + n_m] for p in c]
    k_parts = [p for c in comps[n_batch + n_m:] for p in c]
    inverse_k = np.argsort(op.ints("input_k_perm"))
    window, channel, index = [], [], 0
    for dim in range(op.input.type.get_num_dims()):
        if dim in batch:
            continue
        (window if dim in m_pos else channel).append(k_parts[inverse_k[index]])
        index += 1
    coords: list[np.ndarray] = [np.zeros(shape, np.int64)] * op.input.type.get_num_dims()
    for j, dim in enumerate(batch):
        coords[dim] = comps[j][0]
    for j, dim in enumerate(m_pos):
        coords[dim] = m_parts[j] * op.ints("strides")[j] + window[j] * op.ints("dilations")[j]
    for dim, part in zip(k_pos, channel):
        coords[dim] = part
    return coords


def im2col_numpy(op: Im2colOp, args: tuple[Any, ...]) -> np.ndarray:
    source = np.asarray(args[0])
    dtype = element_dtype(op.output.type)
    lists = _operand_lists(op, args)
    shape = tuple(np.asarray(args[1]).shape)
    coords = input_coordinates(op, lists, shape)
    low = lists["pads"]["input_pad_low"] or [0] * source.ndim
    real = [c - pad for c, pad in zip(coords, low)]
    inside = np.ones(shape, bool)
    for c, n in zip(real, source.shape):
        inside &= (c >= 0) & (c < n)
    if lists["pad_value"] is None and not inside.all():
        raise UnsupportedValue("iree_linalg_ext.im2col: an output element reads outside the unpadded input")
    gathered = source[tuple(np.clip(c, 0, n - 1) for c, n in zip(real, source.shape))]
    pad = dtype.type(lists["pad_value"]) if lists["pad_value"] is not None else dtype.type(0)
    return np.where(inside & _inside_output_padding(lists, shape), gathered, pad).astype(dtype)


def _inside_output_padding(lists: dict[str, Any], shape: tuple[int, ...]) -> np.ndarray:
    low, high = lists["pads"]["output_pad_low"], lists["pads"]["output_pad_high"]
    if any(low):
        raise UnsupportedValue("iree_linalg_ext.im2col: low output padding is not supported")
    keep = np.ones(shape, bool)
    grid = np.indices(shape, dtype=np.int64)
    for dim, amount in enumerate(high or []):
        keep &= grid[dim] < shape[dim] - amount
    return keep


def _im2col(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    assert isinstance(op, Im2colOp)
    return (im2col_numpy(op, args),)


IreeLinalgExtIm2colFunctions = functions_from_table("IreeLinalgExtIm2colFunctions", {Im2colOp: _im2col})

__all__ = ["IreeLinalgExtIm2colFunctions", "im2col_numpy", "input_coordinates"]
