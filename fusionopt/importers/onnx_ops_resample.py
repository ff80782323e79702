"""ONNX -> `graph` handlers for ConvTranspose and Resize, built from existing graph ops.

- ConvTranspose with a constant filter and no dilation is one stride-1 `graph.conv` per output
  phase over the input itself, the phases interleaved by concats and a reshape
  (`_phase_convs`), or, where every phase has the same taps and pads, one conv whose output
  channels are the phases, interleaved by a transpose (`_phases_as_channels`); otherwise it is a stride-1 `graph.conv` over the input with zeros interleaved (reshape to
  [.., H, 1, W, 1], `graph.pad` the unit dims to the stride, reshape, slice off the trailing
  zeros), padded by `dilation * (k - 1) - pad` on each side (cropped by a slice where that is
  negative), with the filter flipped (constant filters at import time, others with
  `graph.gather` of reversed indices) and regrouped from C x F/g x k.. to F x C/g x k...
  Pads come from `pads`, `auto_pad` (SAME_UPPER / SAME_LOWER / VALID) or `output_shape`,
  as onnxruntime computes them; `output_padding` adds to the end.
- Resize (modes `nearest` and `linear`; `cubic` and antialiasing are not supported) is
  `graph.gather`s with import-time index tables; linear mixes the neighbours with constant
  per-position weights. Adjacent resized axes (an image's H and W) are resized jointly, each
  gather reading the input through a flat index over those axes (`_joint_resize`), while the
  joint tables fit in cache (`_joint_tables_fit`); a lone resized axis, axes apart, or a large
  output, per axis, innermost first. Coordinate transformation modes:
  half_pixel, pytorch_half_pixel, align_corners, asymmetric, half_pixel_symmetric; nearest modes:
  round_prefer_floor, round_prefer_ceil, floor, ceil (ONNX's definitions).
"""

from __future__ import annotations

import itertools

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import checked, crop_negative_pads, reshape, transpose
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape
from fusionopt.importers.onnx_ops_cnn import _channel_broadcast, _elem_of, _ints, _spatial_input


def _slice(ctx: ImportContext, v: SSAValue, axes, starts, ends) -> SSAValue:
    keep = [(a, s, e) for a, s, e in zip(axes, starts, ends) if s != 0 or e != shape(v)[a]]
    if not keep:
        return v
    return ctx.emit(graph.SliceOp(v, *(list(t) for t in zip(*keep))))


def _interleave_zeros(ctx: ImportContext, x: SSAValue, strides) -> SSAValue:
    """[N, C, H, W] -> [N, C, (H-1)*sh+1, (W-1)*sw+1] with x at multiples of the strides."""
    if all(s == 1 for s in strides):
        return x
    xs = shape(x)
    split = [*xs[:2]]
    for d in xs[2:]:
        split += [d, 1]
    y = reshape(ctx, x, split)
    high = [0, 0]
    for s in strides:
        high += [0, s - 1]
    y = ctx.emit(graph.PadOp(y, [0] * len(split), high, 0))
    y = reshape(ctx, y, [*xs[:2], *(d * s for d, s in zip(xs[2:], strides))])
    n = len(strides)
    return _slice(ctx, y, list(range(2, 2 + n)), [0] * n,
                  [(d - 1) * s + 1 for d, s in zip(xs[2:], strides)])


def _transpose_pads(ctx: ImportContext, in_sizes, kernel, strides, dilations, out_pad):
    n = len(in_sizes)
    auto = ctx.text_attr("auto_pad", "NOTSET")
    if auto not in ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"):
        raise ctx.error(f"ConvTranspose: unknown auto_pad '{auto}'")
    output_shape = ctx.attr("output_shape")
    if output_shape is None and auto in ("NOTSET", "VALID"):
        pads = _ints(ctx, "pads", [0] * (2 * n)) if auto == "NOTSET" else [0] * (2 * n)
        if len(pads) != 2 * n:
            raise ctx.error(f"ConvTranspose: pads {pads} must have {2 * n} entries")
        return pads
    if output_shape is not None:
        targets = [int(v) for v in output_shape][-n:]
    else:
        targets = [size * s for size, s in zip(in_sizes, strides)]
    begin, end = [], []
    for size, k, s, d, op, target in zip(in_sizes, kernel, strides, dilations, out_pad, targets):
        total = max(0, s * (size - 1) + op + (k - 1) * d + 1 - target)
        if auto == "SAME_UPPER":
            begin.append(total // 2)
            end.append(total - total // 2)
        else:  # SAME_LOWER, or NOTSET with output_shape (onnxruntime's choice)
            begin.append(total - total // 2)
            end.append(total // 2)
    return begin + end


def _flipped_filter(ctx: ImportContext, w: Value, group: int, elem) -> SSAValue:
    """C x F/g x k.. -> F x C/g x k.., spatially reversed."""
    ws = shape(w)
    c, fg, kernel = ws[0], ws[1], list(ws[2:])
    n = len(kernel)
    if isinstance(w, np.ndarray):
        flipped = np.flip(w, axis=tuple(range(2, 2 + n)))
        regrouped = flipped.reshape(group, c // group, fg, *kernel).swapaxes(1, 2)
        return ctx.ssa(np.ascontiguousarray(regrouped.reshape(group * fg, c // group, *kernel)),
                       elem)
    v = w
    for axis, k in enumerate(kernel, start=2):
        if k > 1:
            indices = ctx.ssa(np.arange(k - 1, -1, -1, dtype=np.int64))
            v = ctx.emit(graph.GatherOp(v, indices, axis))
    v = reshape(ctx, v, [group, c // group, fg, *kernel])
    v = transpose(ctx, v, [0, 2, 1, *range(3, 3 + n)])
    return reshape(ctx, v, [group * fg, c // group, *kernel])


def conv_transpose(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    xs, ws = _spatial_input(ctx, x), shape(w)
    n = len(xs) - 2
    group = int(ctx.attr("group", 1))
    if len(ws) != len(xs) or group < 1 or xs[1] % group or ws[0] != xs[1]:
        raise ctx.error(f"ConvTranspose: weight {list(ws)} does not fit input {list(xs)} with "
                        f"group {group}")
    kernel = _ints(ctx, "kernel_shape", list(ws[2:]))
    strides = _ints(ctx, "strides", [1] * n)
    dilations = _ints(ctx, "dilations", [1] * n)
    out_pad = _ints(ctx, "output_padding", [0] * n)
    pads = _transpose_pads(ctx, xs[2:], kernel, strides, dilations, out_pad)
    elem = _elem_of(ctx, x, w)
    xv = ctx.ssa(x, elem if isinstance(x, np.ndarray) else None)
    if _takes_phases(w, strides, dilations):
        y = _phase_convs(ctx, xv, w, group, strides, pads, out_pad, elem)
        return [y if bias is None else ctx.emit(graph.AddOp(y, _channel_broadcast(ctx, bias, shape(y), elem)))]
    up = _interleave_zeros(ctx, xv, strides)
    # conv padding: d * (k - 1) - pad per side (+ output_padding at the end); negative crops.
    low = [d * (k - 1) - p for d, k, p in zip(dilations, kernel, pads[:n])]
    high = [d * (k - 1) - p + o for d, k, p, o in zip(dilations, kernel, pads[n:], out_pad)]
    up, low, high = crop_negative_pads(ctx, up, [0, 0, *low], [0, 0, *high])
    filt = _flipped_filter(ctx, w, group, elem)
    y = checked(ctx, graph.ConvOp(up, filt, [1] * n, dilations, [*low[2:], *high[2:]], group))
    if bias is None:
        return [y]
    return [ctx.emit(graph.AddOp(y, _channel_broadcast(ctx, bias, shape(y), elem)))]


def _takes_phases(w: Value, strides, dilations) -> bool:
    """A constant filter, no dilation, some stride > 1: the phase form (below)."""
    return isinstance(w, np.ndarray) and any(st > 1 for st in strides) and all(d == 1 for d in dilations)


def _phase_convs(ctx: ImportContext, x: SSAValue, w: np.ndarray, group: int, strides, pads, out_pad,
                 elem) -> SSAValue:
    """ConvTranspose with stride s as s^n stride-1 convs over the input itself, one per output
    phase (output index = q * s + r), interleaved: phase r reads only the taps k = r + pad (mod
    s). The zero-interleaved form multiplies the zeros too: s^n times the products (EnCodec's
    stride-8 upsampling 8x). Every product and sum of the transposed conv is computed once."""
    n, sizes, kernel = len(strides), shape(x)[2:], list(w.shape[2:])
    out = [(size - 1) * st + k - pb - pe + op
           for size, st, k, pb, pe, op in zip(sizes, strides, kernel, pads[:n], pads[n:], out_pad)]
    counts = [-(-o // st) for o, st in zip(out, strides)]
    lead = [shape(x)[0], w.shape[1] * group]
    if _phases_align(kernel, strides, pads[:n], group):
        stacked = _phases_as_channels(ctx, x, w, strides, pads[:n], counts, elem)
    else:
        phases = [_phase_conv(ctx, x, w, group, strides, pads[:n], counts, phase, elem)
                  for phase in itertools.product(*(range(st) for st in strides))]
        stacked = _stack_phases(ctx, phases, list(strides), lead, counts)
    stacked = reshape(ctx, stacked, [*lead, *(q * st for q, st in zip(counts, strides))])
    return _slice(ctx, stacked, list(range(2, 2 + n)), [0] * n, out)


def _phases_align(kernel, strides, begin, group: int) -> bool:
    """Every phase reads as many taps with the same pads (kernel and leading pad multiples of
    the stride) and there is one group: the phases can be one conv's output channels."""
    return group == 1 and all(k % st == 0 and pb % st == 0 for k, st, pb in zip(kernel, strides, begin))


def _phases_as_channels(ctx: ImportContext, x: SSAValue, w: np.ndarray, strides, begin, counts,
                        elem) -> SSAValue:
    """The aligned phases as one stride-1 conv whose output channels are phase-major (P x F),
    moved next to their spatial dims by one transpose (a depth-to-space): [N, F, q0, s0, ..].
    One conv and one transpose, where the per-phase form leaves s^n slices and concats for
    IREE to dispatch one by one (CLIPSeg's stride-32 upsampling: over a thousand)."""
    phases = list(itertools.product(*(range(st) for st in strides)))
    taps = np.concatenate([_phase_taps(w, strides, begin, phase) for phase in phases], axis=1)
    low, high = _phase_pads(taps.shape[2:], strides, begin, counts, shape(x)[2:], phases[0])
    source, low, high = crop_negative_pads(ctx, x, [0, 0, *low], [0, 0, *high])
    n, batch, features = len(strides), shape(x)[0], w.shape[1]
    y = checked(ctx, graph.ConvOp(source, _flipped_filter(ctx, taps, 1, elem), [1] * n, [1] * n,
                                  [*low[2:], *high[2:]], 1))
    y = reshape(ctx, y, [batch, *strides, features, *counts])
    return transpose(ctx, y, [0, n + 1, *(d for i in range(n) for d in (n + 2 + i, 1 + i))])


def _phase_taps(w: np.ndarray, strides, begin, phase) -> np.ndarray:
    """The filter taps phase `phase` reads: k = r + pad (mod s), every s-th."""
    first = [(r + pb) % st for r, pb, st in zip(phase, begin, strides)]
    return w[(slice(None), slice(None), *(slice(k0, None, st) for k0, st in zip(first, strides)))]


def _phase_pads(taps, strides, begin, counts, sizes, phase) -> tuple[list[int], list[int]]:
    """A phase's stride-1 conv pads over the input (negative: a crop)."""
    low = [m - 1 - (r + pb) // st for m, r, pb, st in zip(taps, phase, begin, strides)]
    high = [q + m - 1 - size - lo for q, m, size, lo in zip(counts, taps, sizes, low)]
    return low, high


def _phase_conv(ctx: ImportContext, x: SSAValue, w: np.ndarray, group: int, strides, begin, counts, phase,
                elem) -> SSAValue:
    """Phase `phase` of the output, [N, F, *counts]: a stride-1 conv with the phase's taps."""
    taps = _phase_taps(w, strides, begin, phase)
    out_shape = [shape(x)[0], w.shape[1] * group, *counts]
    if 0 in taps.shape[2:]:
        return ctx.splat(0, out_shape, elem)
    low, high = _phase_pads(taps.shape[2:], strides, begin, counts, shape(x)[2:], phase)
    filt = _flipped_filter(ctx, np.ascontiguousarray(taps), group, elem)
    # A crop never passes the data's end: a phase reads an input position when there is an output.
    source, low, high = crop_negative_pads(ctx, x, [0, 0, *low], [0, 0, *high])
    n = len(strides)
    return checked(ctx, graph.ConvOp(source, filt, [1] * n, [1] * n, [*low[2:], *high[2:]], group))


def _stack_phases(ctx: ImportContext, phases: list[SSAValue], strides: list[int], lead, counts) -> SSAValue:
    """The phases (in row-major phase order) as [N, F, q0, s0, q1, s1, ..]: each phase a unit
    slot after its spatial dims, concatenated innermost dim first."""
    unit = [reshape(ctx, p, [*lead, *(d for q in counts for d in (q, 1))]) for p in phases]
    for axis in range(len(strides) - 1, -1, -1):
        width = strides[axis]
        unit = [ctx.emit(graph.ConcatOp([ctx.ssa(v) for v in unit[i:i + width]], 3 + 2 * axis))
                if width > 1 else unit[i] for i in range(0, len(unit), width)]
    return unit[0]


# -- Resize -----------------------------------------------------------------------------------

JOINT_MAX_TABLE_BYTES = 512 * 1024


def _source_coords(ctx, mode: str, out_n: int, in_n: int, scale: float) -> np.ndarray:
    i = np.arange(out_n, dtype=np.float64)
    if mode == "half_pixel":
        return (i + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (i + 0.5) / scale - 0.5 if out_n > 1 else np.zeros(out_n)
    if mode == "align_corners":
        return i * (in_n - 1) / (out_n - 1) if out_n > 1 else np.zeros(out_n)
    if mode == "asymmetric":
        return i / scale
    if mode == "half_pixel_symmetric":
        adjustment = out_n / (scale * in_n)
        center = in_n / 2
        offset = center * (1 - adjustment)
        return offset + (i + 0.5) / scale - 0.5
    raise ctx.error(f"Resize coordinate_transformation_mode '{mode}' is not supported")


def _nearest(ctx, coords: np.ndarray, mode: str, in_n: int) -> np.ndarray:
    if mode == "round_prefer_floor":
        idx = np.where(coords - np.floor(coords) == 0.5, np.floor(coords), np.round(coords))
    elif mode == "round_prefer_ceil":
        idx = np.floor(coords + 0.5)
    elif mode == "floor":
        idx = np.floor(coords)
    elif mode == "ceil":
        idx = np.ceil(coords)
    else:
        raise ctx.error(f"Resize nearest_mode '{mode}' is not supported")
    return np.clip(idx, 0, in_n - 1).astype(np.int64)


def _axis_taps(ctx, mode: str, coord_mode: str, nearest_mode: str, in_n: int, out_n: int,
               scale: float) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Per output position along one axis, the input positions read and their weights (float64,
    rounded to the element type once, where used): one tap (no weight) for nearest, the two
    neighbours and their linear weights for linear."""
    coords = _source_coords(ctx, coord_mode, out_n, in_n, scale)
    if mode == "nearest":
        return [(_nearest(ctx, coords, nearest_mode, in_n), None)]
    coords = np.clip(coords, 0, in_n - 1)
    lo = np.floor(coords).astype(np.int64)
    hi = np.minimum(lo + 1, in_n - 1)
    t = coords - lo
    return [(lo, 1 - t), (hi, t)]


def _mix(ctx: ImportContext, terms: list[tuple[SSAValue, np.ndarray | None]], axes: list[int],
         ty: TensorType) -> SSAValue:
    """sum of gathered value x weight (broadcast over the other dims), or the one unweighted
    gather."""
    if len(terms) == 1 and terms[0][1] is None:
        return terms[0][0]
    elem = ty.get_element_type()
    total = None
    for value, weight in terms:
        weight = ctx.ssa(weight.astype(numpy_dtype_of(elem)), elem)
        term = ctx.emit(graph.MulOp(value, ctx.emit(graph.BroadcastOp(weight, axes, ty))))
        total = term if total is None else ctx.emit(graph.AddOp(total, term))
    return total


def _index_table(index: np.ndarray, extent: int) -> np.ndarray:
    """Gather ids as i32 where the gathered extent allows (half the table bytes of i64)."""
    return index.astype(np.int32 if extent < 2**31 else np.int64)


def _joint_resize(ctx: ImportContext, x: SSAValue, taps: dict, sizes: list[int]) -> SSAValue:
    """Resize of adjacent axes in one pass: the axes flattened (a free reshape) and, per
    combination of taps, one gather from the input with a flat index table [out_a, out_b, ...]
    and the product of the taps' weights. Resizing axis by axis would make the second axis
    gather from the first one's result, which IREE 3.13 cannot build in one dispatch (the
    intermediate lands on the stack), so each resize took two; read from the input directly
    it is one, IREE's own form."""
    xs, axes = list(shape(x)), list(taps)
    first, in_sizes = axes[0], [xs[a] for a in axes]
    extent = int(np.prod(in_sizes))
    flat = reshape(ctx, x, xs[:first] + [extent] + xs[axes[-1] + 1:])
    out_shape = list(xs)
    for a in axes:
        out_shape[a] = sizes[a]
    terms = []
    for combo in itertools.product(*(taps[a] for a in axes)):
        index = np.ravel_multi_index(np.meshgrid(*(i for i, _ in combo), indexing="ij"), in_sizes)
        gathered = ctx.emit(graph.GatherOp(flat, ctx.ssa(_index_table(index, extent)), first))
        weights = [w for _, w in combo if w is not None]
        weight = np.prod(np.meshgrid(*weights, indexing="ij"), axis=0) if weights else None
        terms.append((gathered, weight))
    return _mix(ctx, terms, axes, TensorType(element(x), out_shape))


def _joint_tables_fit(taps: dict, sizes: list[int]) -> bool:
    """The joint form's index and weight tables (one pair per tap combination, one entry per
    output position) fit in half a 1 MB L2 cache. Past that the tables, re-read for every
    channel, cost more than the separable form's intermediate: LR-ASPP's 28x28 -> 224x224
    bilinear resize of 21 channels reads 1.6 MB of tables per channel; axis by axis (the
    innermost axis first, on the smaller image) the tables are 224 entries each."""
    combos = int(np.prod([len(t) for t in taps.values()]))
    positions = int(np.prod([sizes[a] for a in taps]))
    return combos * positions * 8 <= JOINT_MAX_TABLE_BYTES


def resize(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    xs, elem = shape(x), element(x)
    mode = ctx.text_attr("mode", "nearest")
    if mode not in ("nearest", "linear"):
        raise ctx.error(f"Resize mode '{mode}' is not supported (nearest, linear)")
    if int(ctx.attr("antialias", 0)):
        raise ctx.error("Resize with antialias is not supported")
    if ctx.attr("axes") is not None:
        raise ctx.error("Resize with axes is not supported")
    coord_mode = ctx.text_attr("coordinate_transformation_mode", "half_pixel")
    nearest_mode = ctx.text_attr("nearest_mode", "round_prefer_floor")
    if ctx.text_attr("keep_aspect_ratio_policy", "stretch") != "stretch":
        raise ctx.error("Resize keep_aspect_ratio_policy other than stretch is not supported")
    scales_in = ins[2] if len(ins) > 2 else None
    sizes_in = ins[3] if len(ins) > 3 else None
    if sizes_in is not None and np.asarray(ctx.constant_input(sizes_in, "Resize's sizes")).size:
        sizes = [int(v) for v in ctx.constant_input(sizes_in, "Resize's sizes").reshape(-1)]
        scales = [o / i for o, i in zip(sizes, xs)]
    elif scales_in is not None:
        scales = [float(v) for v in ctx.constant_input(scales_in, "Resize's scales").reshape(-1)]
        sizes = [int(np.floor(i * s)) for i, s in zip(xs, scales)]
    else:
        raise ctx.error("Resize needs constant scales or sizes")
    if len(sizes) != len(xs):
        raise ctx.error(f"Resize: {len(sizes)} scales/sizes for rank {len(xs)}")
    taps = {axis: _axis_taps(ctx, mode, coord_mode, nearest_mode, in_n, out_n, scale)
            for axis, (in_n, out_n, scale) in enumerate(zip(xs, sizes, scales))
            if not (in_n == out_n and scale == 1.0)}
    if len(taps) > 1 and list(taps) == list(range(min(taps), max(taps) + 1)) and _joint_tables_fit(taps, sizes):
        return [_joint_resize(ctx, x, taps, sizes)]
    y = x
    for axis, axis_taps in sorted(taps.items(), reverse=True):
        out_shape = list(shape(y))
        out_shape[axis] = sizes[axis]
        y = _mix(ctx, [(ctx.emit(graph.GatherOp(y, ctx.ssa(_index_table(index, xs[axis])), axis)), weight)
                       for index, weight in axis_taps],
                 [axis], TensorType(elem, out_shape))
    return [y]


HANDLERS = {"ConvTranspose": conv_transpose, "Resize": resize}
