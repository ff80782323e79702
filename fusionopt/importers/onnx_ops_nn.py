"""ONNX -> `graph` handlers for contractions, normalisations, reductions and gathers.

Canonical forms chosen for the graph-level passes (see `graph-horizontal-fuse-dots`):
- Gemm becomes `dot(A, B[K, N])` + `add(dot, broadcast(c[N]) dims = [1])`: a constant weight
  with transB = 1 is transposed at import time and a `[1, N]` bias is reshaped to `[N]`, which
  is exactly the Linear layer the horizontal fusion recognises.
- MatMul with a 2-D right operand folds the batch dims of the left one into M (a rank-2
  `graph.dot` between two reshapes) instead of broadcasting the weight to every batch; other
  batch mismatches are broadcast explicitly (numpy rules).
- Softmax and LayerNormalization are decomposed into reduce/elementwise ops, like MIGraphX.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float16Type, TensorType, f32, i1, i32, i64
from xdsl.ir import SSAValue

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import (
    binary,
    broadcast_to,
    normalize_axis,
    reduce,
    reshape,
    scaled,
    slice_value,
    squeezed,
    transpose,
    wrapped_indices,
    wrapped_runtime_indices,
)
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape
from fusionopt.importers.onnx_ops import _axes
from fusionopt.importers.onnx_ops_arg_extreme import arg_extreme


def gemm(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    a, b = ins[0], ins[1]
    if len(shape(a)) != 2 or len(shape(b)) != 2:
        raise ctx.error(f"Gemm operands must be rank 2, got {list(shape(a))} and {list(shape(b))}")
    a = transpose(ctx, a, [1, 0]) if ctx.attr("transA", 0) else a
    b = transpose(ctx, b, [1, 0]) if ctx.attr("transB", 0) else b
    elem = element(a) if isinstance(a, SSAValue) else element(b)
    y = ctx.emit(graph.DotOp(ctx.ssa(a, _like(a, elem)), ctx.ssa(b, _like(b, elem))))
    y = scaled(ctx, y, float(ctx.attr("alpha", 1.0)))
    c = ins[2] if len(ins) > 2 else None
    if c is None:
        return [y]
    c = scaled(ctx, c, float(ctx.attr("beta", 1.0)))
    m, n = shape(y)
    if shape(c) == (1, n):
        c = reshape(ctx, c, [n])  # bias as a vector: `broadcast dims = [1]` (Linear form)
    return [ctx.emit(graph.AddOp(y, broadcast_to(ctx, c, (m, n), elem)))]


def _like(value: Value, elem):
    return elem if isinstance(value, np.ndarray) else None


def matmul(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    a, b = ins
    sa, sb = shape(a), shape(b)
    elem = element(a) if isinstance(a, SSAValue) else element(b)
    out_shape = _matmul_shape(ctx, sa, sb)
    a = reshape(ctx, a, (1, *sa)) if len(sa) == 1 else a
    b = reshape(ctx, b, (*sb, 1)) if len(sb) == 1 else b
    sa, sb = shape(a), shape(b)
    if len(sb) == 2 and len(sa) > 2:  # fold batch into M: one rank-2 GEMM, weight not copied
        a2 = reshape(ctx, a, (int(np.prod(sa[:-1])), sa[-1]))
        y = ctx.emit(graph.DotOp(ctx.ssa(a2, _like(a2, elem)), ctx.ssa(b, _like(b, elem))))
    else:
        batch = tuple(np.broadcast_shapes(sa[:-2], sb[:-2]))
        a = broadcast_to(ctx, a, (*batch, *sa[-2:]), elem)
        b = broadcast_to(ctx, b, (*batch, *sb[-2:]), elem)
        y = ctx.emit(graph.DotOp(a, b))
    return [reshape(ctx, y, out_shape)]


def _matmul_shape(ctx: ImportContext, sa, sb) -> tuple[int, ...]:
    shape = matmul_shape(tuple(sa), tuple(sb))
    if shape is None:
        raise ctx.error(f"MatMul shapes {list(sa)} and {list(sb)} are incompatible")
    return shape


def matmul_shape(sa: tuple[int, ...], sb: tuple[int, ...]) -> tuple[int, ...] | None:
    """numpy.matmul's result shape (a 1-D operand gains, then loses, a unit dim), or None when the
    shapes are incompatible; computed from the shapes alone (multiplying empty arrays of a
    ViT's [197, 384] x [384, 1536] took 70 ms per MatMul)."""
    a = (1, *sa) if len(sa) == 1 else sa
    b = (*sb, 1) if len(sb) == 1 else sb
    if not a or not b or a[-1] != b[-2]:
        return None
    try:
        batch = np.broadcast_shapes(a[:-2], b[:-2])
    except ValueError:
        return None
    out = (*batch, a[-2], b[-1])
    if len(sa) == 1:
        out = out[:-2] + out[-1:]
    if len(sb) == 1:
        out = out[:-1]
    return tuple(int(d) for d in out)


def softmax(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    rank = len(shape(x))
    axis = normalize_axis(ctx, ctx.attr("axis", -1 if ctx.opset >= 13 else 1), rank)
    if ctx.opset < 13 and axis != rank - 1:
        raise ctx.error("Softmax before opset 13 is only supported on the last axis")
    peak = broadcast_to(ctx, reduce(ctx, graph.ReduceMaxOp, x, [axis]), shape(x))
    e = ctx.emit(graph.ExpOp(ctx.emit(graph.SubOp(x, peak))))
    total = broadcast_to(ctx, reduce(ctx, graph.ReduceSumOp, e, [axis]), shape(x))
    return [ctx.emit(graph.DivOp(e, total))]


def _finite_peak(ctx: ImportContext, x: SSAValue, axes: list[int]) -> SSAValue:
    """The rows' max where it is finite, else 0: the shift that keeps exp(x - shift) from
    overflowing, and that leaves an all -inf (masked) row or a +inf one to exp and log
    themselves (-inf and inf, where `x - max` would be NaN)."""
    peak = reduce(ctx, graph.ReduceMaxOp, x, axes)
    dtype = numpy_dtype_of(element(x))
    finite = binary(ctx, graph.LessOp, ctx.emit(graph.AbsOp(peak)), np.array(np.inf, dtype=dtype))
    return ctx.emit(graph.WhereOp(finite, peak, ctx.splat(0.0, shape(peak), element(x))))


def _shifted_log_sum_exp(ctx: ImportContext, x: SSAValue, axes: list[int]) -> tuple[SSAValue, SSAValue, SSAValue]:
    """(shift, x - shift, log(sum(exp(x - shift)))) over `axes`, dims kept."""
    shift = _finite_peak(ctx, x, axes)
    shifted = ctx.emit(graph.SubOp(x, broadcast_to(ctx, shift, shape(x))))
    log_total = ctx.emit(graph.LogOp(reduce(ctx, graph.ReduceSumOp, ctx.emit(graph.ExpOp(shifted)), axes)))
    return shift, shifted, log_total


def log_softmax(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """(x - shift) - log(sum(exp(x - shift))), in that order: x - (shift + log(...)) rounds the
    sum at the shift's magnitude (1.5e-5 off at a common offset of 1000), and log(softmax)
    underflows to -inf."""
    x = ctx.ssa(ins[0])
    rank = len(shape(x))
    axis = normalize_axis(ctx, ctx.attr("axis", -1 if ctx.opset >= 13 else 1), rank)
    if ctx.opset < 13 and axis != rank - 1:
        raise ctx.error("LogSoftmax before opset 13 is only supported on the last axis")
    _, shifted, log_total = _shifted_log_sum_exp(ctx, x, [axis])
    return [ctx.emit(graph.SubOp(shifted, broadcast_to(ctx, log_total, shape(x))))]


def _log_sum_exp(ctx: ImportContext, x: SSAValue, axes: list[int]) -> SSAValue:
    shift, _, log_total = _shifted_log_sum_exp(ctx, x, axes)
    return ctx.emit(graph.AddOp(shift, log_total))


def layer_norm(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """y = (x - mean) * rsqrt(var + eps) * scale + bias over dims [axis, rank); the optional
    Mean / InvStdDev outputs are the reduced tensors (kept dims), as ONNX defines them."""
    x = ctx.ssa(ins[0])
    full = shape(x)
    axis = normalize_axis(ctx, ctx.attr("axis", -1), len(full))
    y, mean, rstd = _normalized(ctx, x, list(range(axis, len(full))))
    y = ctx.emit(graph.MulOp(y, broadcast_to(ctx, ins[1], full, element(x))))
    if len(ins) > 2 and ins[2] is not None:
        y = ctx.emit(graph.AddOp(y, broadcast_to(ctx, ins[2], full, element(x))))
    return [y, mean, rstd]


def _normalized(ctx: ImportContext, x: SSAValue, axes: list[int]) -> tuple[SSAValue, SSAValue, SSAValue]:
    """((x - mean) * rstd, mean, rstd) over `axes`, rstd = rsqrt(var + epsilon). The variance is
    the mean of the centered squares (two passes): E[x^2] - E[x]^2 cancels on rows with a large
    common offset."""
    full = shape(x)
    mean = reduce(ctx, graph.ReduceMeanOp, x, axes)
    centered = ctx.emit(graph.SubOp(x, broadcast_to(ctx, mean, full)))
    var = reduce(ctx, graph.ReduceMeanOp, ctx.emit(graph.MulOp(centered, centered)), axes)
    eps = np.array(ctx.attr("epsilon", 1e-5), dtype=numpy_dtype_of(element(x)))
    rstd = ctx.emit(graph.RsqrtOp(binary(ctx, graph.AddOp, var, eps)))
    return ctx.emit(graph.MulOp(centered, broadcast_to(ctx, rstd, full))), mean, rstd


def instance_norm(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """y = (x - mean) * rsqrt(var + eps) * scale[c] + bias[c], statistics per (n, c) over the
    spatial dims (also what torch exports GroupNorm with one channel per group as)."""
    x = ctx.ssa(ins[0])
    full = shape(x)
    if len(full) < 3:
        raise ctx.error(f"InstanceNormalization input must have rank >= 3, got {list(full)}")
    y, _, _ = _normalized(ctx, x, list(range(2, len(full))))
    per_channel = (full[1],) + (1,) * (len(full) - 2)
    for param, op in ((ins[1], graph.MulOp), (ins[2], graph.AddOp)):
        y = ctx.emit(op(y, broadcast_to(ctx, reshape(ctx, param, per_channel), full, element(x))))
    return [y]


def reduce_min(ctx: ImportContext, x: SSAValue, axes: list[int]) -> SSAValue:
    """min(x) = -max(-x): exact, NaN and infinities included."""
    return ctx.emit(graph.NegOp(reduce(ctx, graph.ReduceMaxOp, ctx.emit(graph.NegOp(x)), axes)))


def _sum_squares(ctx: ImportContext, x: SSAValue, axes: list[int]) -> SSAValue:
    return reduce(ctx, graph.ReduceSumOp, ctx.emit(graph.MulOp(x, x)), axes)


def _reduce_l1(ctx: ImportContext, x: SSAValue, axes: list[int]) -> SSAValue:
    return reduce(ctx, graph.ReduceSumOp, ctx.emit(graph.AbsOp(x)), axes)


def _reduce_l2(ctx: ImportContext, x: SSAValue, axes: list[int]) -> SSAValue:
    """sqrt(sum(x^2)) scaled by s = max(max|x|, smallest normal): s * sqrt(sum((x / s)^2)), so
    no square overflows (|x| ~ 1e20 gives the norm, not inf, as a float64 run does) nor
    vanishes; an infinite |x| gives inf (x / s would be NaN there), a NaN gives NaN. f16 and
    bf16 are computed in f32 and rounded once, as onnxruntime does."""
    elem = element(x)
    if numpy_dtype_of(elem).kind != "f":
        raise ctx.error(f"ReduceL2 of {elem} is not supported (float types only)")
    if isinstance(elem, (Float16Type, BFloat16Type)):
        wide = _scaled_l2(ctx, ctx.emit(graph.ConvertOp(x, f32)), axes)
        return ctx.emit(graph.ConvertOp(wide, elem))
    return _scaled_l2(ctx, x, axes)


def _scaled_l2(ctx: ImportContext, x: SSAValue, axes: list[int]) -> SSAValue:
    full, dtype = shape(x), numpy_dtype_of(element(x))
    peak = reduce(ctx, graph.ReduceMaxOp, ctx.emit(graph.AbsOp(x)), axes)
    scale = binary(ctx, graph.MaxOp, peak, np.array(np.finfo(dtype).tiny, dtype=dtype))
    unit = ctx.emit(graph.DivOp(x, broadcast_to(ctx, scale, full)))
    norm = ctx.emit(graph.MulOp(scale, ctx.emit(graph.SqrtOp(_sum_squares(ctx, unit, axes)))))
    infinite = binary(ctx, graph.EqualOp, peak, np.array(np.inf, dtype=dtype))
    return ctx.emit(graph.WhereOp(infinite, peak, norm))


REDUCE_OPS = {"ReduceMean": graph.ReduceMeanOp, "ReduceSum": graph.ReduceSumOp,
              "ReduceMax": graph.ReduceMaxOp}
COMPOSED_REDUCTIONS = {"ReduceMin": reduce_min, "ReduceSumSquare": _sum_squares, "ReduceL1": _reduce_l1,
                       "ReduceL2": _reduce_l2, "ReduceLogSumExp": _log_sum_exp}


def reduction(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    rank = len(shape(x))
    axes = _axes(ctx, ins, rank)
    if not axes:
        if ctx.attr("noop_with_empty_axes", 0):
            return [x]
        axes = list(range(rank))
    if ctx.node.op_type in COMPOSED_REDUCTIONS:
        y = COMPOSED_REDUCTIONS[ctx.node.op_type](ctx, x, sorted(axes))
    elif ctx.node.op_type == "ReduceSum" and (bits := _widened_bools(x, axes)) is not None:
        y = ctx.emit(graph.ConvertOp(reduce(ctx, graph.ReduceSumOp, ctx.emit(graph.ConvertOp(bits, i32)), axes), i64))
    else:
        y = reduce(ctx, REDUCE_OPS[ctx.node.op_type], x, axes)
    if ctx.attr("keepdims", 1):
        return [y]
    return [squeezed(ctx, y, axes)]


def _widened_bools(x: SSAValue, axes: list[int]) -> SSAValue | None:
    """The i1 tensor `x` widens to i64 (ONNX `Cast(bool -> int64)`), when its sum over `axes`
    fits i32: counted in i32 and widened after, the same integers. IREE's CUDA codegen cannot
    distribute an i64 sum (Mask2Former's count of masked entries a row: "failed to distribute",
    IREE's own import too); on CPU the i32 count reads half the bytes."""
    convert = x.owner
    if not isinstance(convert, graph.ConvertOp) or element(x) != i64 or element(convert.input) != i1:
        return None
    count = int(np.prod([shape(x)[a] for a in axes]))
    return convert.input if 0 <= count < 2**31 else None


def gather(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """Runtime indices are used as they are: they must be non-negative and in range."""
    table, indices = ins
    axis = normalize_axis(ctx, ctx.attr("axis", 0), len(shape(table)))
    if isinstance(indices, np.ndarray):
        indices = wrapped_indices(ctx, indices, shape(table)[axis])
    return [ctx.emit(graph.GatherOp(ctx.ssa(table), ctx.ssa(indices), axis))]


def gather_nd(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """GatherND (batch_dims = 0): flatten the first k data dims and gather the linearised
    indices along axis 0; constant indices are linearised at import, runtime ones in the graph."""
    data, indices = ins
    if ctx.attr("batch_dims", 0) != 0:
        raise ctx.error("GatherND with batch_dims != 0 is not supported")
    if not isinstance(indices, np.ndarray):
        return [_runtime_gather_nd(ctx, data, ctx.ssa(indices))]
    ds, k = shape(data), indices.shape[-1]
    wrapped = np.where(indices < 0, indices + np.array(ds[:k]), indices)
    if wrapped.size and (np.any(wrapped < 0) or np.any(wrapped >= np.array(ds[:k]))):
        raise ctx.error("GatherND index out of range")
    linear = np.ravel_multi_index(tuple(np.moveaxis(wrapped, -1, 0)), ds[:k]).astype(np.int64)
    flat = reshape(ctx, data, (int(np.prod(ds[:k])), *ds[k:]))
    return [ctx.emit(graph.GatherOp(ctx.ssa(flat), ctx.ssa(linear), 0))]


def _runtime_gather_nd(ctx: ImportContext, data: Value, indices: SSAValue) -> SSAValue:
    """Each index row's offset into the first k data dims, sum_j index_j * stride_j, as k
    elementwise steps (no integer reduction: IREE's CUDA codegen cannot distribute i64 sums).
    Negative entries wrap, as ONNX asks; out-of-range ones are undefined, as Gather's (CLIP's
    pooled token: the row of each sequence's largest id)."""
    ds, ts = shape(data), shape(indices)
    k = ts[-1]
    if not 0 < k <= len(ds):
        raise ctx.error(f"GatherND indices of depth {k} do not fit data of rank {len(ds)}")
    strides = np.cumprod((*ds[1:k], 1)[::-1])[::-1]
    linear: Value | None = None
    for j in range(k):
        column = reshape(ctx, slice_value(ctx, indices, [len(ts) - 1], [j], [j + 1]), ts[:-1])
        column = wrapped_runtime_indices(ctx, column, ds[j])
        term = binary(ctx, graph.MulOp, column, np.array(strides[j], dtype=np.int64)) if strides[j] != 1 else column
        linear = term if linear is None else binary(ctx, graph.AddOp, linear, term)
    flat = reshape(ctx, data, (int(np.prod(ds[:k])), *ds[k:]))
    return ctx.emit(graph.GatherOp(ctx.ssa(flat), ctx.ssa(linear), 0))


def gather_elements(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """out[i] = data[i with i[axis] replaced by indices[i]] as one `graph.gather` from the
    flattened data: linear index = indices * stride(axis) + the other dims' fixed offsets.
    Negative indices wrap (ONNX); runtime indices must be in range, as for Gather."""
    data, indices = ctx.ssa(ins[0]), ins[1]
    ds, ts = shape(data), shape(indices)
    axis = normalize_axis(ctx, ctx.attr("axis", 0), len(ds))
    if len(ts) != len(ds) or any(t > d for i, (t, d) in enumerate(zip(ts, ds)) if i != axis):
        raise ctx.error(f"GatherElements indices {list(ts)} do not fit data {list(ds)}")
    strides = np.cumprod((*ds[1:], 1)[::-1])[::-1].astype(np.int64)
    grid = np.indices(ts, dtype=np.int64)
    offsets = sum((grid[d] * strides[d] for d in range(len(ds)) if d != axis), np.zeros(ts, np.int64))
    if isinstance(indices, np.ndarray):
        linear = wrapped_indices(ctx, indices, ds[axis]) * strides[axis] + offsets
    else:
        wide = indices if element(indices) == i64 else ctx.emit(graph.ConvertOp(indices, i64))
        negative = binary(ctx, graph.LessOp, wide, np.array(0, np.int64))
        wrapped = ctx.emit(graph.WhereOp(negative, binary(ctx, graph.AddOp, wide, np.array(ds[axis], np.int64)), wide))
        linear = binary(ctx, graph.AddOp, binary(ctx, graph.MulOp, wrapped, np.array(strides[axis])), offsets)
    flat = reshape(ctx, data, (int(np.prod(ds)),))
    return [ctx.emit(graph.GatherOp(ctx.ssa(flat), ctx.ssa(linear), 0))]


def cumsum(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """CumSum along `axis` as a masked sum: out[.., i, ..] = sum over k of where(keep(i, k),
    x[.., k, ..], 0), keep = k <= i (k < i exclusive; k >= i, k > i reversed). The work is
    quadratic in the axis, which models use for positions (RoBERTa's ids from a padding mask:
    one sequence), and a where (not a 0/1 product) keeps an inf after i out of out[i]. Exact for
    integers; floats round as a sum in the reduction's order does, not as a sequential scan."""
    x = ctx.ssa(ins[0])
    full = shape(x)
    axis = normalize_axis(ctx, int(ctx.constant_input(ins[1], "CumSum's axis").reshape(-1)[0]), len(full))
    n = full[axis]
    i, k = np.indices((n, n))
    keep = {(0, 0): k <= i, (1, 0): k < i, (0, 1): k >= i, (1, 1): k > i}[
        (ctx.attr("exclusive", 0), ctx.attr("reverse", 0))]
    pairs = (*full[:axis], n, *full[axis:])
    rows = broadcast_to(ctx, reshape(ctx, x, (*full[:axis], 1, *full[axis:])), pairs)
    mask = ctx.emit(graph.BroadcastOp(ctx.ssa(keep, i1), [axis, axis + 1], TensorType(i1, list(pairs))))
    kept = ctx.emit(graph.WhereOp(mask, rows, ctx.splat(0, pairs, element(x))))
    return [squeezed(ctx, reduce(ctx, graph.ReduceSumOp, kept, [axis + 1]), [axis + 1])]


HANDLERS = {
    "Gemm": gemm, "MatMul": matmul, "Softmax": softmax, "LogSoftmax": log_softmax, "LayerNormalization": layer_norm,
    "InstanceNormalization": instance_norm, "GatherElements": gather_elements, "CumSum": cumsum,
    "Gather": gather, "GatherND": gather_nd, "ArgMax": arg_extreme, "ArgMin": arg_extreme, **{k: reduction for k in [*REDUCE_OPS, *COMPOSED_REDUCTIONS]},
}
