"""ONNX -> `graph` handlers for quantized models: QuantizeLinear, DequantizeLinear and
DynamicQuantizeLinear (the QDQ format of onnxruntime's `quantize_static`, the dynamic
quantization of `quantize_dynamic`), MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv.

The graph dialect has no 8- or 16-bit integer types, so a quantized value (ONNX int8, uint8,
int16, uint16) is *carried* as f32 holding its exact integer (every such integer is exact in
f32); `onnx_context.QUANTIZED_TYPES` maps them to that carrier. The arithmetic is ONNX's:
`saturate(round_half_even(x / scale) + zero_point)` to quantize, `(q - zero_point) * scale` to
dequantize, with per-axis scales broadcast along `axis`. So a QDQ model runs as simulated
quantization in f32: what onnxruntime's reference QDQ kernels compute, a rounding step where
its fused int8 kernels round differently (their int32 accumulator requantized once). Weights
(constant quantized initializers) are dequantized at import time.

MatMulInteger / ConvInteger and the accumulators of QLinearMatMul / QLinearConv are f32
contractions of the zero-point-shifted carriers: exact while each partial sum stays below 2^24
(8-bit products over up to 256 terms), beyond that rounded like any f32 contraction (the
fast-math contract the contraction passes rely on). Their int32 results are converted to i32,
ONNX's type, so consumers see the types the model declares.
"""

from __future__ import annotations

import numpy as np
from onnx import TensorProto
from xdsl.dialects.builtin import f32, i32

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import binary, broadcast_to, normalize_axis, reduce, reshape
from fusionopt.importers.onnx_context import (
    QUANTIZED_DTYPE_NAMES,
    QUANTIZED_TYPES,
    ImportContext,
    Value,
    element,
    numpy_dtype_of,
    shape,
)
from fusionopt.importers.onnx_ops_cnn import conv
from fusionopt.importers.onnx_ops_nn import matmul, reduce_min

def _carried(ctx: ImportContext, value: Value) -> Value:
    """A quantized or integer operand as its f32 carrier (constants at import time)."""
    if isinstance(value, np.ndarray):
        return value.astype(np.float32)
    return value if element(value) == f32 else ctx.emit(graph.ConvertOp(value, f32))


def _per_axis(ctx: ImportContext, param: np.ndarray | Value, rank: int, axis: int) -> Value:
    """A scale or zero point: one element as a scalar, a 1-D vector (per axis, per row, per
    column) shaped to broadcast along `axis` of a rank-`rank` operand."""
    if int(np.prod(shape(param))) == 1:
        return reshape(ctx, param, ())
    if len(shape(param)) != 1:
        raise ctx.error(f"{ctx.node.op_type}: blocked quantization (a scale or zero point of shape "
                        f"{list(shape(param))}) is not supported")
    axis = normalize_axis(ctx, axis, rank)
    return reshape(ctx, param, [shape(param)[0] if d == axis else 1 for d in range(rank)])


def _quantized_dtype(ctx: ImportContext, zero_point: Value | None) -> np.dtype:
    """The output type: the zero point's, else `output_dtype`, else uint8 (ONNX's default)."""
    if zero_point is None:
        onnx_type = int(ctx.attr("output_dtype", 0) or TensorProto.UINT8)
        name = (np.dtype(QUANTIZED_TYPES[onnx_type]).name if onnx_type in QUANTIZED_TYPES
                else TensorProto.DataType.Name(onnx_type))
    elif isinstance(zero_point, np.ndarray):
        name = zero_point.dtype.name
    else:
        raise ctx.error(f"{ctx.node.op_type}: the zero point must be a constant")
    if name not in QUANTIZED_DTYPE_NAMES:
        raise ctx.error(f"{ctx.node.op_type}: quantizing to {name} is not supported "
                        "(int8, uint8, int16, uint16 are)")
    return np.dtype(name)


def _saturate(ctx: ImportContext, y: Value, dtype: np.dtype) -> Value:
    info = np.iinfo(dtype)
    if isinstance(y, np.ndarray):
        return np.clip(y, info.min, info.max)
    low = binary(ctx, graph.MaxOp, y, np.array(info.min, np.float32))
    return binary(ctx, graph.MinOp, low, np.array(info.max, np.float32))


def _round(ctx: ImportContext, y: Value) -> Value:
    return np.rint(y) if isinstance(y, np.ndarray) else ctx.emit(graph.RoundOp(y))


def _is_zero(value: Value | None) -> bool:
    """No zero point, or a constant one of all zeros (its arithmetic is left out)."""
    return value is None or (isinstance(value, np.ndarray) and not value.any())


def _arith(ctx: ImportContext, op_class, numpy_op, a: Value, b: Value) -> Value:
    """`a op b` on f32 carriers: at import time when both are constants, else a graph op."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return np.asarray(numpy_op(a.astype(np.float32), b.astype(np.float32)), dtype=np.float32)
    return binary(ctx, op_class, _carried(ctx, a), _carried(ctx, b))


def _quantize(ctx: ImportContext, x: Value, scale: Value, zero: Value | None, dtype) -> Value:
    """saturate(round(x / scale) + zero) in the f32 carrier."""
    y = _round(ctx, _arith(ctx, graph.DivOp, np.divide, x, scale))
    if not _is_zero(zero):
        y = _arith(ctx, graph.AddOp, np.add, y, zero)
    y = _saturate(ctx, y, dtype)
    return y.astype(dtype) if isinstance(y, np.ndarray) else y


def _shifted(ctx: ImportContext, q: Value, zero: Value | None) -> Value:
    """`q - zero` in the f32 carrier."""
    return _carried(ctx, q) if _is_zero(zero) else _arith(ctx, graph.SubOp, np.subtract, q, zero)


def _scaled_by(ctx: ImportContext, x: Value, scale: Value) -> Value:
    return _arith(ctx, graph.MulOp, np.multiply, x, scale)


def quantize_linear(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x, scale = ins[0], ins[1]
    zero = ins[2] if len(ins) > 2 else None
    if int(ctx.attr("block_size", 0)):
        raise ctx.error("QuantizeLinear: blocked quantization is not supported")
    dtype = _quantized_dtype(ctx, zero)
    rank, axis = len(shape(x)), int(ctx.attr("axis", 1))
    scale = _per_axis(ctx, scale, rank, axis)
    zero = None if zero is None else _per_axis(ctx, zero, rank, axis)
    return [_quantize(ctx, _carried(ctx, x), scale, zero, dtype)]


def dequantize_linear(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x, scale = ins[0], ins[1]
    zero = ins[2] if len(ins) > 2 else None
    if int(ctx.attr("block_size", 0)):
        raise ctx.error("DequantizeLinear: blocked quantization is not supported")
    rank, axis = len(shape(x)), int(ctx.attr("axis", 1))
    out = element(scale)  # the output's element type is the scale's
    scale = _per_axis(ctx, scale, rank, axis)
    zero = None if zero is None else _per_axis(ctx, zero, rank, axis)
    y = _scaled_by(ctx, _shifted(ctx, x, zero), scale)
    if isinstance(y, np.ndarray):
        return [y.astype(numpy_dtype_of(out))]
    return [y if out == f32 else ctx.emit(graph.ConvertOp(y, out))]


def dynamic_quantize_linear(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """uint8 quantization with the range of `x` widened to hold 0 (ONNX's and onnxruntime's
    rule; a zero range gives scale 1, as onnxruntime does)."""
    x = _carried(ctx, ins[0])
    if isinstance(x, np.ndarray):
        raise ctx.error("DynamicQuantizeLinear of a constant is not supported")
    # The range of the flattened tensor: IREE 3.13 runs a reduction over every dim of a
    # [1, C, H, W] image one scalar at a time (mnasnet1_0's 225K-element one 6.7 ms), a 1-D one
    # several times faster (1 ms; as [rows, n] rows the final reduction joined the quantizing
    # region and IREE could not build it); the scale and zero point are rank 0 from there on.
    flat = reshape(ctx, x, (int(np.prod(shape(x))),))
    zero = np.array(0.0, np.float32)
    low = binary(ctx, graph.MinOp, reduce_min(ctx, flat, [0]), zero)
    high = binary(ctx, graph.MaxOp, reduce(ctx, graph.ReduceMaxOp, flat, [0]), zero)
    scale = binary(ctx, graph.DivOp, ctx.emit(graph.SubOp(high, low)), np.array(255.0, np.float32))
    is_zero = binary(ctx, graph.EqualOp, scale, zero)
    one = broadcast_to(ctx, np.array(1.0, np.float32), shape(scale), f32)
    scale = reshape(ctx, ctx.emit(graph.WhereOp(is_zero, one, scale)), ())
    zero_point = _saturate(ctx, _round(ctx, binary(ctx, graph.DivOp, ctx.emit(graph.NegOp(low)),
                                                     scale)), np.dtype(np.uint8))
    zero_point = reshape(ctx, zero_point, ())
    return [_quantize(ctx, x, scale, zero_point, np.dtype(np.uint8)), scale, zero_point]


def _as_int32(ctx: ImportContext, accumulator: Value) -> Value:
    return ctx.emit(graph.ConvertOp(ctx.ssa(accumulator), i32))


def _integer_matmul(ctx: ImportContext, a, b, a_zero, b_zero) -> Value:
    """(a - a_zero) @ (b - b_zero) in f32: a's zero point per row, b's per column."""
    a_zero = None if a_zero is None else _per_axis(ctx, a_zero, len(shape(a)), -2)
    b_zero = None if b_zero is None else _per_axis(ctx, b_zero, len(shape(b)), -1)
    return matmul(ctx, [_shifted(ctx, a, a_zero), _shifted(ctx, b, b_zero)])[0]


def matmul_integer(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    a, b = ins[0], ins[1]
    a_zero = ins[2] if len(ins) > 2 else None
    b_zero = ins[3] if len(ins) > 3 else None
    return [_as_int32(ctx, _integer_matmul(ctx, a, b, a_zero, b_zero))]


def _integer_conv(ctx: ImportContext, x, w, x_zero, w_zero, bias=None) -> Value:
    """conv(x - x_zero, w - w_zero) (+ bias) in f32; padding adds zeros after the shift,
    i.e. the zero point before it, as onnxruntime pads."""
    if x_zero is not None and int(np.prod(shape(x_zero))) != 1:
        raise ctx.error(f"{ctx.node.op_type}: a per-channel input zero point is not supported")
    x_zero = None if x_zero is None else reshape(ctx, x_zero, ())
    w_zero = None if w_zero is None else _per_axis(ctx, w_zero, len(shape(w)), 0)
    operands = [_shifted(ctx, x, x_zero), _shifted(ctx, w, w_zero)]
    return conv(ctx, operands + ([] if bias is None else [_carried(ctx, bias)]))[0]


def conv_integer(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x_zero = ins[2] if len(ins) > 2 else None
    w_zero = ins[3] if len(ins) > 3 else None
    return [_as_int32(ctx, _integer_conv(ctx, ins[0], ins[1], x_zero, w_zero))]


def _requantized(ctx: ImportContext, accumulator: Value, multiplier: Value, y_zero) -> list[Value]:
    """saturate(round(accumulator * multiplier) + y_zero), onnxruntime's requantization."""
    dtype = _quantized_dtype(ctx, y_zero)
    y = _round(ctx, _scaled_by(ctx, accumulator, multiplier))
    if not _is_zero(y_zero):
        y = _arith(ctx, graph.AddOp, np.add, y, reshape(ctx, y_zero, ()))
    return [_saturate(ctx, y, dtype)]


def _multiplier(ctx: ImportContext, a_scale, b_scale, y_scale) -> np.ndarray:
    scales = [ctx.constant_input(s, f"{ctx.node.op_type}'s scales") for s in (a_scale, b_scale, y_scale)]
    return np.asarray(scales[0].astype(np.float32) * scales[1].astype(np.float32)
                      / scales[2].astype(np.float32), dtype=np.float32)


def qlinear_matmul(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    a, a_scale, a_zero, b, b_scale, b_zero, y_scale, y_zero = ins
    accumulator = _integer_matmul(ctx, a, b, a_zero, b_zero)
    multiplier = _per_axis(ctx, _multiplier(ctx, a_scale, b_scale, y_scale), len(shape(accumulator)), -1)
    return _requantized(ctx, accumulator, multiplier, y_zero)


def qlinear_conv(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x, x_scale, x_zero, w, w_scale, w_zero, y_scale, y_zero = ins[:8]
    bias = ins[8] if len(ins) > 8 else None
    accumulator = _integer_conv(ctx, x, w, x_zero, w_zero, bias)
    multiplier = _per_axis(ctx, _multiplier(ctx, x_scale, w_scale, y_scale),
                           len(shape(accumulator)), 1)
    return _requantized(ctx, accumulator, multiplier, y_zero)


HANDLERS = {
    "QuantizeLinear": quantize_linear, "DequantizeLinear": dequantize_linear,
    "DynamicQuantizeLinear": dynamic_quantize_linear, "MatMulInteger": matmul_integer,
    "ConvInteger": conv_integer, "QLinearMatMul": qlinear_matmul, "QLinearConv": qlinear_conv,
}
