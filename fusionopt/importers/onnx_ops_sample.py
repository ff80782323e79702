"""ONNX GridSample -> `graph` ops: each output pixel reads the input at a run-time position.

The input [N, C, H, W] becomes a table of N*H*W rows of C channels (transpose + reshape); the
grid's normalised x and y become pixel coordinates by ONNX's formulas (align_corners 1:
((g + 1) / 2) * (size - 1); 0: ((g + 1) * size - 1) / 2, onnxruntime's order of operations, so
the nearest mode rounds the same coordinates); each corner a pixel reads is one `graph.gather` of
table rows by a linear index n*H*W + y*W + x. `bilinear` / `linear` mixes four corners with the
weights (1 - fx)(1 - fy), fx(1 - fy), (1 - fx)fy, fx*fy; `nearest` reads one corner, rounded half
to even (onnxruntime's nearbyint). Padding: `zeros` selects 0 for a corner outside the image (a
select, not a weight of 0, so an inf pixel next to the border stays out); `border` clamps the
corner's indices into the image, which onnxruntime does and which equals clamping the coordinate.
Coordinates are clamped to [-2, size + 1] before they become integers: no float-to-int overflow
for grids near the f32 limits, and every corner of a clamped coordinate stays outside the image
(zeros) or clamps to the same border pixel (border), so the result is unchanged. NaN grid values
are not given a meaning (onnxruntime's cast of NaN to an integer is undefined too).

Not supported, refused at import: `reflection` padding, `cubic` / `bicubic` mode, 3-D
(volumetric, opset 20) sampling. Kept here (no library lowers GridSample to tensor ops that fuse
with their neighbours): the gathers fuse into the dispatch of whatever consumes the sample.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType, i1, i64

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import binary, reshape, slice_value, squeezed, transpose
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape

_MODES = {"bilinear": "linear", "linear": "linear", "nearest": "nearest"}
_PADDINGS = ("zeros", "border")


def _checked_options(ctx: ImportContext, x: Value, grid: Value) -> tuple[str, str, bool]:
    mode, padding = ctx.text_attr("mode", "linear"), ctx.text_attr("padding_mode", "zeros")
    if mode not in _MODES:
        raise ctx.error(f"GridSample mode '{mode}' is not supported (have: bilinear/linear, nearest)")
    if padding not in _PADDINGS:
        raise ctx.error(f"GridSample padding_mode '{padding}' is not supported (have: zeros, border)")
    xs, gs = shape(x), shape(grid)
    if len(xs) != 4:
        raise ctx.error(f"GridSample of a rank-{len(xs)} input: only 2-D images [N, C, H, W] are supported")
    if gs != (xs[0], *gs[1:3], 2) or len(gs) != 4:
        raise ctx.error(f"GridSample grid {list(gs)} does not fit input {list(xs)} (want [N, H_out, W_out, 2])")
    if element(grid) != element(x):
        raise ctx.error("GridSample's grid and input must have the same element type")
    return _MODES[mode], padding, bool(ctx.attr("align_corners", 0))


def _scalar(like: Value, number: float) -> np.ndarray:
    return np.array(number, dtype=numpy_dtype_of(element(like)))


def _pixel_coordinate(ctx: ImportContext, g: Value, size: int, align_corners: bool) -> Value:
    """Grid values in [-1, 1] -> pixel coordinates, clamped to [-2, size + 1]."""
    one = _scalar(g, 1.0)
    shifted = binary(ctx, graph.AddOp, g, one)
    if align_corners:
        coordinate = binary(ctx, graph.MulOp, binary(ctx, graph.DivOp, shifted, _scalar(g, 2.0)),
                            _scalar(g, size - 1))
    else:
        scaled = binary(ctx, graph.SubOp, binary(ctx, graph.MulOp, shifted, _scalar(g, size)), one)
        coordinate = binary(ctx, graph.DivOp, scaled, _scalar(g, 2.0))
    low = binary(ctx, graph.MaxOp, coordinate, _scalar(g, -2.0))
    return binary(ctx, graph.MinOp, low, _scalar(g, size + 1))


def _clamped_index(ctx: ImportContext, coordinate: Value, size: int) -> tuple[Value, Value]:
    """(the index of a whole-number coordinate, that index clamped into [0, size))."""
    index = ctx.emit(graph.ConvertOp(ctx.ssa(coordinate), i64))
    clamped = binary(ctx, graph.MinOp, binary(ctx, graph.MaxOp, index, np.array(0, np.int64)),
                     np.array(size - 1, np.int64))
    return index, clamped


def _corner(ctx: ImportContext, table: Value, rows: np.ndarray, corner: tuple[Value, Value],
            image: tuple[int, int], zeros: bool) -> Value:
    """The table rows at one corner per output pixel: [N, H_out, W_out, C]."""
    (h, w), (cx, cy) = image, corner
    (raw_x, ix), (raw_y, iy) = _clamped_index(ctx, cx, w), _clamped_index(ctx, cy, h)
    linear = binary(ctx, graph.AddOp, binary(ctx, graph.MulOp, iy, np.array(w, np.int64)), ix)
    if rows.size > 1:  # the first row of each image
        linear = binary(ctx, graph.AddOp, linear, rows)
    values = ctx.emit(graph.GatherOp(ctx.ssa(table), ctx.ssa(linear), 0))
    if not zeros:
        return values
    inside_x, inside_y = binary(ctx, graph.EqualOp, raw_x, ix), binary(ctx, graph.EqualOp, raw_y, iy)
    inside = ctx.emit(graph.WhereOp(inside_x, inside_y, ctx.splat(False, shape(inside_x), i1)))
    mask = ctx.emit(graph.BroadcastOp(reshape(ctx, inside, [*shape(inside), 1]), [0, 1, 2, 3],
                                      TensorType(i1, list(shape(values)))))
    return ctx.emit(graph.WhereOp(mask, values, ctx.splat(0, shape(values), element(values))))


def _weighted(ctx: ImportContext, values: Value, weight: Value) -> Value:
    return binary(ctx, graph.MulOp, values, reshape(ctx, weight, [*shape(weight), 1]))


def grid_sample(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x, grid = ctx.ssa(ins[0]), ctx.ssa(ins[1])
    mode, padding, align_corners = _checked_options(ctx, x, grid)
    n, c, h, w = shape(x)
    table = reshape(ctx, transpose(ctx, x, [0, 2, 3, 1]), [n * h * w, c])
    rows = (np.arange(n, dtype=np.int64) * (h * w)).reshape(n, 1, 1)
    gx, gy = (squeezed(ctx, slice_value(ctx, grid, [3], [k], [k + 1]), [3]) for k in (0, 1))
    px, py = _pixel_coordinate(ctx, gx, w, align_corners), _pixel_coordinate(ctx, gy, h, align_corners)
    zeros = padding == "zeros"
    if mode == "nearest":
        nearest = (ctx.emit(graph.RoundOp(px)), ctx.emit(graph.RoundOp(py)))
        out = _corner(ctx, table, rows, nearest, (h, w), zeros)
    else:
        x0, y0 = ctx.emit(graph.FloorOp(px)), ctx.emit(graph.FloorOp(py))
        one = _scalar(px, 1.0)
        x1, y1 = binary(ctx, graph.AddOp, x0, one), binary(ctx, graph.AddOp, y0, one)
        wx1, wy1 = binary(ctx, graph.SubOp, px, x0), binary(ctx, graph.SubOp, py, y0)  # the far corners' weights
        wx0, wy0 = binary(ctx, graph.SubOp, one, wx1), binary(ctx, graph.SubOp, one, wy1)
        out = None
        for corner, wx, wy in (((x0, y0), wx0, wy0), ((x1, y0), wx1, wy0), ((x0, y1), wx0, wy1), ((x1, y1), wx1, wy1)):
            term = _weighted(ctx, _corner(ctx, table, rows, corner, (h, w), zeros), binary(ctx, graph.MulOp, wx, wy))
            out = term if out is None else binary(ctx, graph.AddOp, out, term)
    return [transpose(ctx, out, [0, 3, 1, 2])]


HANDLERS = {"GridSample": grid_sample}
