"""ONNX ops that only move elements: Tile, DepthToSpace, SpaceToDepth, Col2Im, ScatterND and
ScatterElements, each built from reshapes, transposes, broadcasts, pads and adds, so every
later pass (reshape sinking, transpose folding, dispatch formation) sees the forms it already
knows and nothing new reaches IREE. Shapes and the ops' constant operands must be known at import time.

- Tile (SwiftFormer's query-weight broadcast, `torch.repeat`): each repeated dim becomes a new
  outer dim the input is broadcast along, then the pair is collapsed: `[d] * r -> [r, d] -> [r*d]`.
- DepthToSpace / SpaceToDepth (super-resolution heads, YOLO's focus layer): the reshape +
  transpose + reshape the ONNX spec itself gives, in DCR or CRD order.
- Col2Im (torch's `nn.Fold`, MobileViTV2's patch folding; torch-mlir cannot lower it, so IREE's
  own import fails on such a model): blocks that tile the image without overlap are a reshape +
  transpose + reshape; overlapping blocks are the sum over the kernel's taps of each tap's
  columns spread onto the stride grid (a reshape + zero pad) and shifted into place (a pad or a
  crop).
- ScatterND with constant indices (Funnel's relative-shift assignments, `x[a:b] = y` as torch
  exports it): the indexed dims flattened to rows; rows a contiguous run replaces are a concat
  of the data's slices around the updates, any other set of rows a gather of the updates and a
  select (the last update of a row wins, as in onnxruntime). Reductions (add, mul, max, min)
  are not supported.
- ScatterElements with constant indices (torch's `select_scatter`, `x[:, t] = y`: RWKV writes
  each token's state row so): indices that pick whole planes along `axis` (the same index across
  every other dim, the updates as wide as the data there) are ScatterND's rows with `axis` moved
  first; any other pattern is ScatterND's over single elements (a gather and a select). Runtime
  indices: `onnx_ops_runtime_scatter`.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import i1

from fusionopt.dialects import graph
from fusionopt.importers.onnx_ops_runtime_scatter import runtime_scatter_elements
from fusionopt.importers.onnx_builders import (
    binary,
    broadcast_to,
    crop_negative_pads,
    reshape,
    slice_value,
    transpose,
    wrapped_indices,
)
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape


def tile(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ins[0]
    dims = shape(x)
    repeats = [int(r) for r in ctx.constant_input(ins[1], "Tile's repeats").reshape(-1)]
    if len(repeats) != len(dims) or any(r < 0 for r in repeats):
        raise ctx.error(f"Tile: repeats {repeats} do not fit an input of shape {list(dims)}")
    if isinstance(x, np.ndarray):
        return [np.tile(x, repeats)]
    if all(r == 1 for r in repeats):
        return [x]
    spread = [n for r, d in zip(repeats, dims) for n in ((1, d) if r != 1 else (d,))]
    wide = [n for r, d in zip(repeats, dims) for n in ((r, d) if r != 1 else (d,))]
    widened = broadcast_to(ctx, reshape(ctx, x, spread), wide)
    return [reshape(ctx, widened, [r * d for r, d in zip(repeats, dims)])]


def depth_to_space(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    n, c, h, w = _image_dims(ctx, ins[0], "DepthToSpace")
    b = int(ctx.attr("blocksize"))
    mode = ctx.text_attr("mode", "DCR")
    if c % (b * b):
        raise ctx.error(f"DepthToSpace: {c} channels are not a multiple of blocksize {b} squared")
    if mode == "DCR":
        split, perm = [n, b, b, c // (b * b), h, w], [0, 3, 4, 1, 5, 2]
    else:
        split, perm = [n, c // (b * b), b, b, h, w], [0, 1, 4, 2, 5, 3]
    moved = transpose(ctx, reshape(ctx, ins[0], split), perm)
    return [reshape(ctx, moved, [n, c // (b * b), h * b, w * b])]


def space_to_depth(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    n, c, h, w = _image_dims(ctx, ins[0], "SpaceToDepth")
    b = int(ctx.attr("blocksize"))
    if h % b or w % b:
        raise ctx.error(f"SpaceToDepth: a {h}x{w} image is not a multiple of blocksize {b}")
    split = reshape(ctx, ins[0], [n, c, h // b, b, w // b, b])
    moved = transpose(ctx, split, [0, 3, 5, 1, 2, 4])
    return [reshape(ctx, moved, [n, c * b * b, h // b, w // b])]


def col2im(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    cols = ins[0]
    image = [int(d) for d in ctx.constant_input(ins[1], "Col2Im's image_shape").reshape(-1)]
    block = [int(d) for d in ctx.constant_input(ins[2], "Col2Im's block_shape").reshape(-1)]
    if len(image) != 2 or len(block) != 2 or len(shape(cols)) != 3:
        raise ctx.error("Col2Im: only 2-D images (input [N, C*kh*kw, L]) are supported")
    strides = list(ctx.attr("strides", [1, 1]))
    dilations = list(ctx.attr("dilations", [1, 1]))
    pads = list(ctx.attr("pads", [0, 0, 0, 0]))
    grid = [(image[a] + pads[a] + pads[a + 2] - dilations[a] * (block[a] - 1) - 1) // strides[a] + 1
            for a in range(2)]
    n, depth, positions = shape(cols)
    channels = depth // (block[0] * block[1])
    if channels * block[0] * block[1] != depth or grid[0] * grid[1] != positions or min(grid) < 1:
        raise ctx.error(f"Col2Im: input {list(shape(cols))} does not hold {block} blocks of a "
                        f"{image} image")
    taps = reshape(ctx, cols, [n, channels, *block, *grid])
    if _blocks_tile_image(image, block, strides, dilations, pads, grid):
        moved = transpose(ctx, taps, [0, 1, 4, 2, 5, 3])
        return [reshape(ctx, moved, [n, channels, *image])]
    return [_sum_of_taps(ctx, taps, image, block, strides, dilations, pads, grid)]


def _blocks_tile_image(image, block, strides, dilations, pads, grid) -> bool:
    """Every output pixel is in exactly one block: blocks side by side, nothing padded."""
    return (not any(pads) and dilations == [1, 1] and strides == block
            and all(g * b == i for g, b, i in zip(grid, block, image)))


def _sum_of_taps(ctx: ImportContext, taps: Value, image, block, strides, dilations, pads, grid) -> Value:
    n, channels = shape(taps)[:2]
    total = None
    for i in range(block[0]):
        for j in range(block[1]):
            one = slice_value(ctx, taps, [2, 3], [i, j], [i + 1, j + 1])
            tap = reshape(ctx, one, [n, channels, *grid])
            placed = _placed_on_image(ctx, tap, (i, j), image, strides, dilations, pads, grid)
            total = placed if total is None else binary(ctx, graph.AddOp, total, placed)
    return total


def _placed_on_image(ctx: ImportContext, tap: Value, offset, image, strides, dilations, pads, grid) -> Value:
    """One tap's [N, C, gh, gw] columns at pixel `offset * dilation - pad + grid * stride`."""
    n, channels = shape(tap)[:2]
    spread = reshape(ctx, tap, [n, channels, grid[0], 1, grid[1], 1])
    zero = np.zeros((), dtype=numpy_dtype_of(element(tap))).item()
    if strides != [1, 1]:
        gaps = [0, 0, 0, strides[0] - 1, 0, strides[1] - 1]
        spread = ctx.emit(graph.PadOp(ctx.ssa(spread), [0] * 6, gaps, zero))
    rows, cols = grid[0] * strides[0], grid[1] * strides[1]
    spread = reshape(ctx, spread, [n, channels, rows, cols])
    low = [offset[a] * dilations[a] - pads[a] for a in range(2)]
    high = [image[0] - low[0] - rows, image[1] - low[1] - cols]
    placed, low, high = crop_negative_pads(ctx, spread, [0, 0, *low], [0, 0, *high])
    if any(low) or any(high):
        placed = ctx.emit(graph.PadOp(ctx.ssa(placed), low, high, zero))
    return placed


def scatter_nd(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    data, updates = ins[0], ins[2]
    if ctx.text_attr("reduction", "none") != "none":
        raise ctx.error("ScatterND with a reduction is not supported (only reduction='none')")
    indices = ctx.constant_input(ins[1], "ScatterND's indices").astype(np.int64)
    dims, depth = shape(data), indices.shape[-1]
    lead, rest = dims[:depth], list(dims[depth:])
    count, rows = int(np.prod(indices.shape[:-1])), int(np.prod(lead))
    flat = indices.reshape(count, depth)
    flat = np.where(flat < 0, flat + np.array(lead, dtype=np.int64), flat)
    if count == 0:
        return [data]
    if np.any(flat < 0) or np.any(flat >= np.array(lead, dtype=np.int64)):
        raise ctx.error(f"ScatterND: an index is out of range for data of shape {list(dims)}")
    targets = np.ravel_multi_index(tuple(flat.T), lead)
    table = reshape(ctx, data, [rows, *rest])
    new_rows = reshape(ctx, updates, [count, *rest])
    return [reshape(ctx, _scatter_rows(ctx, table, new_rows, targets), dims)]


def scatter_elements(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    data, updates = ins[0], ins[2]
    if ctx.text_attr("reduction", "none") != "none":
        raise ctx.error("ScatterElements with a reduction is not supported (only reduction='none')")
    dims, rank = shape(data), len(shape(data))
    axis = int(ctx.attr("axis", 0)) % rank
    if not isinstance(ins[1], np.ndarray):
        return [runtime_scatter_elements(ctx, data, ctx.ssa(ins[1]), updates, axis)]
    indices = wrapped_indices(ctx, ins[1], dims[axis], "ScatterElements")
    if indices.size == 0:
        return [data]
    planes = _plane_indices(indices, axis, dims)
    if planes is None:
        return [_scatter_single_elements(ctx, data, updates, indices, axis)]
    perm = [axis, *(d for d in range(rank) if d != axis)]
    table, new_rows = _axis_first(ctx, data, perm), _axis_first(ctx, updates, perm)
    return [_axis_back(ctx, _scatter_rows(ctx, table, new_rows, planes), perm, dims)]


def _plane_indices(indices: np.ndarray, axis: int, dims) -> np.ndarray | None:
    """The index of each update plane along `axis` when every plane is written whole, else None."""
    along = np.moveaxis(indices, axis, 0).reshape(indices.shape[axis], -1)
    wide = all(n == d for i, (n, d) in enumerate(zip(indices.shape, dims)) if i != axis)
    if not wide or not np.all(along == along[:, :1]):
        return None
    return along[:, 0]


def _axis_first(ctx: ImportContext, value: Value, perm: list[int]) -> Value:
    """`value` with dim perm[0] first: a reshape when only unit dims precede it."""
    dims = shape(value)
    if all(dims[d] == 1 for d in range(perm[0])):
        return reshape(ctx, value, [dims[d] for d in perm])
    return transpose(ctx, value, perm)


def _axis_back(ctx: ImportContext, value: Value, perm: list[int], dims) -> Value:
    if all(dims[d] == 1 for d in range(perm[0])):
        return reshape(ctx, value, dims)
    return transpose(ctx, value, list(np.argsort(perm)))


def _scatter_single_elements(ctx: ImportContext, data: Value, updates: Value, indices: np.ndarray,
                             axis: int) -> Value:
    dims = shape(data)
    where = list(np.indices(indices.shape).reshape(len(dims), -1))
    where[axis] = indices.reshape(-1)
    targets = np.ravel_multi_index(tuple(where), dims)
    table = reshape(ctx, data, [int(np.prod(dims))])
    result = _scatter_rows(ctx, table, reshape(ctx, updates, [targets.size]), targets)
    return reshape(ctx, result, dims)


def _scatter_rows(ctx: ImportContext, table: Value, new_rows: Value, targets: np.ndarray) -> Value:
    """`table` with row targets[i] replaced by new_rows[i] (the last write of a row wins)."""
    rows, start = shape(table)[0], int(targets[0])
    if np.array_equal(targets, np.arange(start, start + len(targets))):
        return _rows_replaced(ctx, table, new_rows, start, rows)
    return _rows_selected(ctx, table, new_rows, targets, rows)


def _rows_replaced(ctx: ImportContext, table: Value, new_rows: Value, start: int, rows: int) -> Value:
    end = start + shape(new_rows)[0]
    parts = [ctx.ssa(part) for part in (_rows(ctx, table, 0, start), new_rows, _rows(ctx, table, end, rows))
             if part is not None]
    return parts[0] if len(parts) == 1 else ctx.emit(graph.ConcatOp(parts, 0))


def _rows(ctx: ImportContext, table: Value, start: int, end: int) -> Value | None:
    return slice_value(ctx, table, [0], [start], [end]) if start < end else None


def _rows_selected(ctx: ImportContext, table: Value, new_rows: Value, targets: np.ndarray, rows: int) -> Value:
    source = np.full(rows, -1, dtype=np.int64)
    for update, row in enumerate(targets):  # in order: the last update of a row wins
        source[row] = update
    gathered = ctx.emit(graph.GatherOp(ctx.ssa(new_rows), ctx.ssa(np.maximum(source, 0)), 0))
    table_shape = shape(table)
    row_mask = (source >= 0).reshape(rows, *([1] * (len(table_shape) - 1)))
    mask = broadcast_to(ctx, row_mask, table_shape, i1)
    return ctx.emit(graph.WhereOp(mask, gathered, ctx.ssa(table)))


def _image_dims(ctx: ImportContext, x: Value, op: str) -> tuple[int, int, int, int]:
    if len(shape(x)) != 4:
        raise ctx.error(f"{op}: the input must be a 4-D NCHW image, not {list(shape(x))}")
    return tuple(shape(x))


HANDLERS = {"Tile": tile, "DepthToSpace": depth_to_space, "SpaceToDepth": space_to_depth, "Col2Im": col2im,
            "ScatterND": scatter_nd, "ScatterElements": scatter_elements}
