"""ONNX -> `graph` handlers for convolutional networks: Conv, pooling, BatchNormalization and
the activations / padding CNN exporters write.

Canonical forms:
- Conv becomes one `graph.conv` (N = 1, 2 or 3 spatial dims, 3-D ones plain or depthwise;
  explicit `pads`; `auto_pad` is resolved here; a 3-D conv over disjoint patches is a matmul,
  `onnx_ops_video.py`), its bias a `graph.add` of
  `graph.broadcast %b dims = [1]`, so a fusion sees one convolution plus a per-channel epilogue.
- MaxPool / AveragePool become `graph.pool` (3-D ones two of them, `onnx_ops_video.py`);
  GlobalAveragePool / GlobalMaxPool become
  `graph.reduce_mean` / `graph.reduce_max` over the spatial dims (kept as 1).
- BatchNormalization (inference) is a per-channel affine, computed as onnxruntime does:
  `s = scale / sqrt(var + eps)`, `y = x * s + (B - mean * s)`; with constant parameters `s`
  and the shift are folded at import time (in float32), otherwise they are graph ops on [C].
- Clip / HardSigmoid / HardSwish are `graph.max` / `graph.min` / `graph.mul` on splats.
- Pad: `constant` mode is `graph.pad` (negative pads slice); `edge` and `reflect` are
  `graph.concat`s of slices (and broadcasts for `edge`).

Bad models (channels not divisible by group, a kernel larger than the padded input, an unknown
`auto_pad`) raise an `OnnxImportError` naming the node: the op's own verifier message.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, SSAValue

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import broadcast_to, checked, crop_negative_pads, is_splat, reduce
from fusionopt.importers.onnx_ops_video import (
    conv_3d_as_2d,
    is_2d_convertible,
    is_patch_conv,
    patch_conv_3d,
    separable_3d_pool,
)
from fusionopt.importers.onnx_context import (
    ImportContext,
    Value,
    element,
    numpy_dtype_of,
    shape,
)

AUTO_PADS = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")


def _elem_of(ctx: ImportContext, *values: Value) -> Attribute:
    ssa = [v for v in values if isinstance(v, SSAValue)]
    return element(ssa[0] if ssa else values[0])


def _spatial_input(ctx: ImportContext, x: Value, max_spatial: int = 2) -> tuple[int, ...]:
    xs = shape(x)
    if not 1 <= len(xs) - 2 <= max_spatial:
        dims = "1-D and 2-D" if max_spatial == 2 else "1-D, 2-D and 3-D"
        raise ctx.error(f"{ctx.node.op_type} with {len(xs) - 2} spatial dims is not supported "
                        f"(input shape {list(xs)}; only {dims})")
    return xs


def _ints(ctx: ImportContext, name: str, default: list[int]) -> list[int]:
    value = ctx.attr(name)
    return [int(v) for v in value] if value is not None else list(default)


def resolve_pads(ctx: ImportContext, in_sizes, kernel, strides, dilations) -> list[int]:
    """Explicit `[begin.., end..]` pads from `pads` / `auto_pad` (ONNX rules)."""
    n = len(in_sizes)
    auto = ctx.text_attr("auto_pad", "NOTSET")
    if auto not in AUTO_PADS:
        raise ctx.error(f"{ctx.node.op_type}: unknown auto_pad '{auto}' (expected one of "
                        f"{', '.join(AUTO_PADS)})")
    if auto == "VALID":
        return [0] * (2 * n)
    if auto == "NOTSET":
        pads = _ints(ctx, "pads", [0] * (2 * n))
        if len(pads) != 2 * n:
            raise ctx.error(f"{ctx.node.op_type}: pads {pads} must have {2 * n} entries")
        return pads
    begin, end = [], []
    for size, k, s, d in zip(in_sizes, kernel, strides, dilations):
        out = -(-size // s)
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - size)
        small, large = total // 2, total - total // 2
        begin.append(small if auto == "SAME_UPPER" else large)
        end.append(large if auto == "SAME_UPPER" else small)
    return begin + end


def _check_lengths(ctx: ImportContext, n: int, **lists) -> None:
    for name, values in lists.items():
        if len(values) != n:
            raise ctx.error(f"{ctx.node.op_type}: {name} {values} must have {n} entries")


def _channel_broadcast(ctx: ImportContext, vec: Value, out_shape, elem) -> SSAValue:
    """A per-channel [C] vector broadcast along dim 1 of `out_shape`."""
    if isinstance(vec, np.ndarray) and is_splat(vec):
        return ctx.splat(vec.reshape(-1)[0].item(), out_shape, elem)
    v = ctx.ssa(vec.reshape(-1) if isinstance(vec, np.ndarray) else vec,
                elem if isinstance(vec, np.ndarray) else None)
    if len(shape(v)) != 1:
        v = ctx.emit(graph.ReshapeOp(v, TensorType(elem, [int(np.prod(shape(v)))])))
    return ctx.emit(graph.BroadcastOp(v, [1], TensorType(elem, list(out_shape))))


def conv(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    xs, ws = _spatial_input(ctx, x, max_spatial=3), shape(w)
    n = len(xs) - 2
    if len(ws) != len(xs):
        raise ctx.error(f"Conv: weight shape {list(ws)} must have rank {len(xs)}")
    kernel = _ints(ctx, "kernel_shape", list(ws[2:]))
    if kernel != list(ws[2:]):
        raise ctx.error(f"Conv: kernel_shape {kernel} differs from the weight's {list(ws[2:])}")
    strides = _ints(ctx, "strides", [1] * n)
    dilations = _ints(ctx, "dilations", [1] * n)
    _check_lengths(ctx, n, strides=strides, dilations=dilations)
    pads = resolve_pads(ctx, xs[2:], kernel, strides, dilations)
    group = int(ctx.attr("group", 1))
    elem = _elem_of(ctx, x, w)
    xv = ctx.ssa(x, elem if isinstance(x, np.ndarray) else None)
    wv = ctx.ssa(w, elem if isinstance(w, np.ndarray) else None)
    if group < 1 or xs[1] % group or ws[0] % group:
        raise ctx.error(f"Conv: input channels {xs[1]} and output channels {ws[0]} must be "
                        f"divisible by group {group}")
    if n == 3 and group not in (1, xs[1]):
        raise ctx.error(f"Conv: a 3-D conv with {group} groups of {xs[1] // group} channels is not "
                        "supported (only group 1 and depthwise)")
    if n == 3 and is_patch_conv(xs, ws, strides, dilations, pads, group):
        y = patch_conv_3d(ctx, xv, wv)
    elif n == 3 and is_2d_convertible(xs, ws, strides, pads, dilations, group):
        y = conv_3d_as_2d(ctx, xv, wv, strides, pads, group)
    else:
        y = checked(ctx, graph.ConvOp(xv, wv, strides, dilations, pads, group))
    if bias is None:
        return [y]
    if shape(bias) not in ((ws[0],), (1, ws[0])):
        raise ctx.error(f"Conv: bias shape {list(shape(bias))} must be [{ws[0]}]")
    return [ctx.emit(graph.AddOp(y, _channel_broadcast(ctx, bias, shape(y), elem)))]


def _pool(ctx: ImportContext, ins: list[Value], kind: str) -> list[Value]:
    if kind == "max" and len(ctx.node.output) > 1 and ctx.node.output[1]:
        raise ctx.error("MaxPool's Indices output is unsupported")
    x = ctx.ssa(ins[0])
    xs = _spatial_input(ctx, x, max_spatial=3)
    n = len(xs) - 2
    kernel = _ints(ctx, "kernel_shape", [])
    strides = _ints(ctx, "strides", [1] * n)
    dilations = _ints(ctx, "dilations", [1] * n)
    _check_lengths(ctx, n, kernel_shape=kernel, strides=strides, dilations=dilations)
    if int(ctx.attr("storage_order", 0)) not in (0, 1):
        raise ctx.error("MaxPool: storage_order must be 0 or 1")
    pads = resolve_pads(ctx, xs[2:], kernel, strides, dilations)
    window = (kind, kernel, strides, pads, dilations, bool(ctx.attr("ceil_mode", 0)),
              bool(ctx.attr("count_include_pad", 0)))
    if n == 3:
        return [separable_3d_pool(ctx, x, *window)]
    return [checked(ctx, graph.PoolOp(x, *window))]


def max_pool(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    return _pool(ctx, ins, "max")


def average_pool(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    return _pool(ctx, ins, "avg")


def _global(op_class):
    def handler(ctx: ImportContext, ins: list[Value]) -> list[Value]:
        x = ctx.ssa(ins[0])
        rank = len(shape(x))
        if rank < 3:
            raise ctx.error(f"{ctx.node.op_type} needs an N x C x spatial input, got rank {rank}")
        return [reduce(ctx, op_class, x, list(range(2, rank)))]
    return handler


def batch_norm(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    if int(ctx.attr("training_mode", 0)):
        raise ctx.error("BatchNormalization in training mode is unsupported")
    x, scale, bias, mean, var = (ins + [None] * 5)[:5]
    if any(v is None for v in (scale, bias, mean, var)):
        raise ctx.error("BatchNormalization needs scale, B, input_mean and input_var")
    xs = shape(x)
    if len(xs) < 2:
        raise ctx.error(f"BatchNormalization input must have rank >= 2, got {list(xs)}")
    elem = _elem_of(ctx, x)
    eps = float(ctx.attr("epsilon", 1e-5))
    params = (scale, bias, mean, var)
    if any(int(np.prod(shape(p))) != xs[1] for p in params):
        raise ctx.error(f"BatchNormalization parameters must have {xs[1]} elements (channels)")
    if all(isinstance(p, np.ndarray) for p in params):
        dtype = numpy_dtype_of(elem)
        s32, b32, m32, v32 = (np.asarray(p, dtype=np.float32).reshape(-1) for p in params)
        factor = (np.float32(1) / np.sqrt(v32 + np.float32(eps))) * s32
        shift = b32 - m32 * factor
        factor, shift = factor.astype(dtype), shift.astype(dtype)
    else:
        c = xs[1]
        vecs = [ctx.ssa(p.reshape(-1), elem) if isinstance(p, np.ndarray) else
                (p if shape(p) == (c,) else ctx.emit(graph.ReshapeOp(p, TensorType(elem, [c]))))
                for p in params]
        s, b, m, v = vecs
        eps_v = ctx.splat(eps, [c], elem)
        rstd = ctx.emit(graph.RecipOp(ctx.emit(graph.SqrtOp(ctx.emit(graph.AddOp(v, eps_v))))))
        factor = ctx.emit(graph.MulOp(rstd, s))
        shift = ctx.emit(graph.SubOp(b, ctx.emit(graph.MulOp(m, factor))))
    xv = ctx.ssa(x, elem if isinstance(x, np.ndarray) else None)
    y = ctx.emit(graph.MulOp(xv, _channel_broadcast(ctx, factor, xs, elem)))
    return [ctx.emit(graph.AddOp(y, _channel_broadcast(ctx, shift, xs, elem)))]


def _clamp(ctx: ImportContext, x: SSAValue, low: Value | float | None,
           high: Value | float | None) -> SSAValue:
    elem, xs = element(x), shape(x)
    for bound, op_class in ((low, graph.MaxOp), (high, graph.MinOp)):
        if bound is None:
            continue
        if isinstance(bound, (float, int)):
            bound = np.array(bound, dtype=numpy_dtype_of(elem))
        x = ctx.emit(op_class(x, broadcast_to(ctx, bound, xs, elem)))
    return x


def clip(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    if ctx.opset < 11:
        low, high = ctx.attr("min"), ctx.attr("max")
        low = None if low is None else float(low)
        high = None if high is None else float(high)
    else:
        low = ins[1] if len(ins) > 1 else None
        high = ins[2] if len(ins) > 2 else None
        for bound in (low, high):
            if bound is not None and int(np.prod(shape(bound))) != 1:
                raise ctx.error(f"Clip bounds must be scalars, got shape {list(shape(bound))}")
        low, high = (None if b is None else
                     (b.reshape(()) if isinstance(b, np.ndarray) else b) for b in (low, high))
        low, high = (b if b is None or isinstance(b, np.ndarray) or shape(b) == () else
                     ctx.emit(graph.ReshapeOp(b, TensorType(element(b), [])))
                     for b in (low, high))
    return [_clamp(ctx, x, low, high)]


def _hard_sigmoid(ctx: ImportContext, x: SSAValue, alpha: float, beta: float) -> SSAValue:
    elem, xs = element(x), shape(x)
    dtype = numpy_dtype_of(elem)
    y = ctx.emit(graph.MulOp(x, ctx.splat(float(np.asarray(alpha, dtype)), xs, elem)))
    y = ctx.emit(graph.AddOp(y, ctx.splat(float(np.asarray(beta, dtype)), xs, elem)))
    return _clamp(ctx, y, 0.0, 1.0)


def hard_sigmoid(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    return [_hard_sigmoid(ctx, ctx.ssa(ins[0]), float(ctx.attr("alpha", 0.2)),
                          float(ctx.attr("beta", 0.5)))]


def hard_swish(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    return [ctx.emit(graph.MulOp(x, _hard_sigmoid(ctx, x, 1.0 / 6.0, 0.5)))]


def _pad_spec(ctx: ImportContext, ins: list[Value], rank: int) -> tuple[list[int], list[int]]:
    if ctx.opset < 11:
        raw = np.asarray(ctx.attr("pads", []), dtype=np.int64)
    else:
        raw = ctx.constant_input(ins[1], "Pad's pads operand").reshape(-1).astype(np.int64)
    axes = list(range(rank))
    if len(ins) > 3 and ins[3] is not None:
        axes = [int(a) + rank if a < 0 else int(a)
                for a in ctx.constant_input(ins[3], "Pad's axes operand").reshape(-1)]
    if len(raw) != 2 * len(axes):
        raise ctx.error(f"Pad: pads {raw.tolist()} must have {2 * len(axes)} entries")
    low, high = [0] * rank, [0] * rank
    for i, a in enumerate(axes):
        low[a], high[a] = int(raw[i]), int(raw[len(axes) + i])
    return low, high


def _slice_axis(ctx: ImportContext, v: SSAValue, axis: int, start: int, end: int) -> SSAValue:
    if start == 0 and end == shape(v)[axis]:
        return v
    return ctx.emit(graph.SliceOp(v, [axis], [start], [end]))


def _pad_copy_mode(ctx: ImportContext, x: SSAValue, low, high, mode: str) -> SSAValue:
    """edge / reflect padding as concats of slices, one axis at a time."""
    for axis, (lo, hi) in enumerate(zip(low, high)):
        size = shape(x)[axis]
        if lo == 0 and hi == 0:
            continue
        if mode == "reflect" and (lo >= size or hi >= size):
            raise ctx.error(f"Pad: reflect padding {lo}, {hi} needs more than {size} elements")
        if mode == "edge" and size == 0:
            raise ctx.error("Pad: edge padding of an empty axis")
        parts: list[SSAValue] = []

        def edge(index: int, width: int) -> SSAValue:
            one = _slice_axis(ctx, x, axis, index, index + 1)
            out = list(shape(x))
            out[axis] = width
            return ctx.emit(graph.BroadcastOp(one, list(range(len(out))),
                                              TensorType(element(x), out)))

        if lo:
            parts += ([edge(0, lo)] if mode == "edge" else
                      [_slice_axis(ctx, x, axis, i, i + 1) for i in range(lo, 0, -1)])
        parts.append(x)
        if hi:
            parts += ([edge(size - 1, hi)] if mode == "edge" else
                      [_slice_axis(ctx, x, axis, i, i + 1)
                       for i in range(size - 2, size - 2 - hi, -1)])
        x = ctx.emit(graph.ConcatOp(parts, axis))
    return x


def pad(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    xs, elem = shape(x), element(x)
    low, high = _pad_spec(ctx, ins, len(xs))
    raw_mode = ctx.attr("mode", b"constant")
    mode = raw_mode.decode() if isinstance(raw_mode, bytes) else str(raw_mode)
    x, low, high = crop_negative_pads(ctx, x, low, high)  # a slice, then the non-negative rest
    if not any(low) and not any(high):
        return [x]
    if mode in ("edge", "reflect"):
        return [_pad_copy_mode(ctx, x, low, high, mode)]
    if mode != "constant":
        raise ctx.error(f"Pad mode '{mode}' is not supported (constant, edge, reflect)")
    value = 0
    if ctx.opset < 11:
        value = ctx.attr("value", 0.0)
    elif len(ins) > 2 and ins[2] is not None:
        value = ctx.constant_input(ins[2], "Pad's constant_value").reshape(-1)[0].item()
    value = np.asarray(value).astype(numpy_dtype_of(elem)).item()
    return [ctx.emit(graph.PadOp(x, low, high, value))]


HANDLERS = {
    "Conv": conv, "MaxPool": max_pool, "AveragePool": average_pool,
    "GlobalAveragePool": _global(graph.ReduceMeanOp), "GlobalMaxPool": _global(graph.ReduceMaxOp),
    "BatchNormalization": batch_norm, "Clip": clip, "HardSigmoid": hard_sigmoid,
    "HardSwish": hard_swish, "Pad": pad,
}
