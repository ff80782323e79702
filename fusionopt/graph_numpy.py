"""Numpy semantics of every `graph` op: the single definition of what a graph op computes.

Both the interpreter and constant folding call `evaluate_graph_op`, so they agree bit for bit.

Numeric rules (documented here because users compare our numbers with IREE / ONNX Runtime):
- Storage: results have the numpy dtype of the declared element type (`numpy_dtype`).
  bf16 uses `ml_dtypes.bfloat16` when importable; otherwise bf16 tensors are stored as float32
  whose values are rounded to the nearest bf16 (round-to-nearest-even) after every op.
- Arithmetic precision: f16 and bf16 ops compute in float32 and round once to the element type
  (as MLIR's f16/bf16 emulation does); f32 computes in f32 and f64 in f64. In the
  interpreter's float64 reference mode every float type computes and stores as float64. `dot` and
  `reduce_sum`/`reduce_mean` accumulate f16/bf16 in f32 and integers in int64, then round/wrap.
- Integers are two's complement and wrap on overflow. `div` truncates toward zero like MLIR's
  `arith.divsi`; dividing by zero (undefined behaviour in MLIR) yields 0 here. Integer
  `reduce_mean` is the sum divided the same way.
- NaN: `max`, `min`, `relu` and `reduce_max` propagate NaN (like `arith.maximumf`/`minimumf`;
  relu(x) = max(x, 0), so relu(NaN) = NaN).
- `erf` is computed in float64 (`fusionopt.special_functions.erf`: fdlibm's algorithm,
  vectorised, within 1 ulp of `math.erf`), then rounded.
- `sigmoid` is evaluated in a numerically stable form (never exp of a large positive number).
- `convert`: float -> float and int -> float round to nearest even; float -> int truncates
  toward zero, NaN becomes 0 and out-of-range values saturate; anything -> i1 is `x != 0`
  (ONNX Cast semantics); int -> int wraps.
- `conv` / `pool`: vectorised sliding windows (`sliding_window_view`, then one `einsum` for
  conv); conv accumulates f16/bf16 in f32. Max pool reads padding as -inf (NaN propagates);
  avg pool sums zero-padded windows and divides by the number of counted positions (padded
  ones iff `count_include_pad`; the extra end positions of `ceil_mode` never count).
- `gather`: indices may be negative (counted from the end, ONNX); out-of-range indices raise
  `IndexError`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation

from fusionopt.dialects import graph
from fusionopt.interpreter.arith_math import signed_remainder
from fusionopt.interpreter.values import bf16_dtype, float64_mode, overflow_settled
from fusionopt.special_functions import erf

_FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)


def numpy_dtype(element_type: Attribute) -> np.dtype:
    """Storage dtype for a graph element type (f16, bf16, f32, f64, i1, i32, i64); float64 for
    every float type inside the interpreter's float64 reference mode (`compute_float64`)."""
    if isinstance(element_type, _FLOAT_TYPES) and float64_mode():
        return np.dtype(np.float64)
    if isinstance(element_type, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element_type, BFloat16Type):
        return bf16_dtype()  # float32 without ml_dtypes (see module doc)
    if isinstance(element_type, Float32Type):
        return np.dtype(np.float32)
    if isinstance(element_type, Float64Type):
        return np.dtype(np.float64)
    if isinstance(element_type, IntegerType) and element_type.width.data in (1, 32, 64):
        return np.dtype({1: np.bool_, 32: np.int32, 64: np.int64}[element_type.width.data])
    raise ValueError(f"unsupported graph element type {element_type}")


def _round_to_bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> nearest bf16 value (round half to even), still stored as float32."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    rounding = np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    rounded = ((bits + rounding) & np.uint32(0xFFFF0000)).astype(np.uint32)
    rounded = np.where(np.isnan(x), bits, rounded)  # keep NaN payloads NaN
    return rounded.view(np.float32)


def _element(value_type: Attribute) -> Attribute:
    assert isinstance(value_type, TensorType)
    return value_type.get_element_type()


def _compute_dtype(dtype: np.dtype, element: Attribute) -> np.dtype:
    if isinstance(element, (Float16Type, BFloat16Type)) and dtype != np.float64:
        return np.dtype(np.float32)
    return dtype


def store(x: np.ndarray | np.generic, element: Attribute) -> np.ndarray:
    """Round/wrap a computed array into the storage dtype of `element` (one rounding; constant
    folds that compute in float64 round through here too)."""
    dtype = numpy_dtype(element)
    out = np.asarray(x)
    if isinstance(element, BFloat16Type) and bf16_dtype() == np.float32:  # no ml_dtypes
        return _round_to_bf16(out.astype(np.float32))
    return out.astype(dtype)  # integers: two's complement wrap; floats: round to nearest even


def _sigmoid(x: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(x))  # in (0, 1]: never overflows
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind != "i":
        return a / b
    safe = np.where(b == 0, 1, b)
    q = a // safe
    inexact = (a % safe != 0) & ((a < 0) != (safe < 0))
    q = q + inexact.astype(q.dtype)  # floor -> truncation toward zero
    return np.where(b == 0, 0, q)


def _rem(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C's fmod: the dividend's sign (arith.remf; on integers arith.remsi, whose remainder by
    zero is 0 here, undefined once compiled)."""
    return np.fmod(a, b) if a.dtype.kind != "i" else signed_remainder(a, b)


_UNARY: dict[type, Callable[[np.ndarray], np.ndarray]] = {
    graph.NegOp: np.negative,
    graph.AbsOp: np.abs,
    graph.ExpOp: np.exp,
    graph.Exp2Op: np.exp2,
    graph.LogOp: np.log,
    graph.Log1pOp: np.log1p,
    graph.Expm1Op: np.expm1,
    graph.RoundOp: np.rint,
    graph.FloorOp: np.floor,
    graph.CeilOp: np.ceil,
    graph.SqrtOp: np.sqrt,
    graph.RsqrtOp: lambda x: 1 / np.sqrt(x),
    graph.RecipOp: lambda x: 1 / x,
    graph.SinOp: np.sin,
    graph.CosOp: np.cos,
    graph.TanhOp: np.tanh,
    graph.SigmoidOp: _sigmoid,
    graph.ReluOp: lambda x: np.maximum(x, np.zeros((), x.dtype)),
    graph.ErfOp: erf,
}

_BINARY: dict[type, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    graph.AddOp: np.add,
    graph.SubOp: np.subtract,
    graph.MulOp: np.multiply,
    graph.DivOp: _div,
    graph.RemOp: _rem,
    graph.MaxOp: np.maximum,
    graph.MinOp: np.minimum,
    graph.PowOp: np.power,
}

_COMPARE: dict[type, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    graph.GreaterOp: np.greater,
    graph.EqualOp: np.equal,
    graph.LessOp: np.less,
}


def _as_compute(x: np.ndarray, element: Attribute) -> np.ndarray:
    return np.asarray(x).astype(_compute_dtype(numpy_dtype(element), element), copy=False)


def _convert(x: np.ndarray, dst: Attribute) -> np.ndarray:
    dtype, x = numpy_dtype(dst), np.asarray(x)
    if dst == IntegerType(1):
        return x != 0
    if dtype.kind == "i" and x.dtype.kind not in "iub":
        info = np.iinfo(dtype)
        f = np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0))
        # float(INT64_MAX) rounds up to 2**63, which does not fit: saturate explicitly.
        return np.where(f >= float(info.max), info.max, np.clip(f, info.min, info.max).astype(dtype))
    return store(x, dst)  # one direct cast: no double rounding through an intermediate type


def _broadcast(x: np.ndarray, dims: tuple[int, ...], shape: tuple[int, ...]) -> np.ndarray:
    aligned = [1] * len(shape)
    for i, d in enumerate(dims):
        aligned[d] = x.shape[i]
    return np.broadcast_to(x.reshape(aligned), shape).copy()


def _reduce(op: Operation, x: np.ndarray, element: Attribute) -> np.ndarray:
    axes = tuple(op.axes_values)
    if isinstance(op, graph.ReduceMaxOp):
        # The identity of max (-inf / INT_MIN) makes an empty reduction well defined.
        lowest = np.iinfo(x.dtype).min if x.dtype.kind == "i" else -np.inf
        return np.max(x, axis=axes, keepdims=True, initial=lowest)
    acc_dtype = np.int64 if x.dtype.kind == "i" else _compute_dtype(x.dtype, element)
    total = np.sum(x, axis=axes, keepdims=True, dtype=acc_dtype)
    if isinstance(op, graph.ReduceSumOp):
        return total
    count = math.prod(x.shape[a] for a in axes)
    return _div(total, np.full_like(total, count)) if total.dtype.kind == "i" else total / count


def _dot(a: np.ndarray, b: np.ndarray, element: Attribute) -> np.ndarray:
    acc = np.int64 if a.dtype.kind == "i" else _compute_dtype(a.dtype, element)
    return overflow_settled(np.matmul(a.astype(acc), b.astype(acc)), lambda exact: np.matmul(a.astype(exact), b.astype(exact)))


def window_view(x: np.ndarray, kernel, strides, dilations, out_sizes) -> np.ndarray:
    """(N, C, *out, *kernel) view of the already padded `x`: element [.., o.., k..] is
    x[.., o * stride + k * dilation ..]."""
    n = len(kernel)
    extents = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    view = np.lib.stride_tricks.sliding_window_view(x, extents, axis=tuple(range(2, 2 + n)))
    index = (slice(None), slice(None),
             *(slice(0, o * s, s) for o, s in zip(out_sizes, strides)),
             *(slice(None, None, d) for d in dilations))
    return view[index]


def pad_spatial(x: np.ndarray, begin, end, fill) -> np.ndarray:
    widths = [(0, 0), (0, 0), *zip(begin, end)]
    if not any(b or e for b, e in zip(begin, end)):
        return x
    return np.pad(x, widths, mode="constant", constant_values=fill)


def _conv(op: Operation, x: np.ndarray, w: np.ndarray, element: Attribute) -> np.ndarray:
    acc = _compute_dtype(x.dtype, element)
    x, w = x.astype(acc, copy=False), w.astype(acc, copy=False)
    begin, end = op.pads_begin_end()
    out = tuple(op.results[0].type.get_shape())[2:]
    win = window_view(pad_spatial(x, begin, end, 0), w.shape[2:], op.strides_values,
                   op.dilations_values, out)
    g, n = op.group_value, len(out)
    batch, channels = x.shape[:2]
    win = win.reshape(batch, g, channels // g, *win.shape[2:])
    wg = w.reshape(g, w.shape[0] // g, *w.shape[1:])
    o, k = "xyz"[:n], "hij"[:n]

    def conv_in(dtype: np.dtype) -> np.ndarray:
        return np.einsum(f"bgc{o}{k},gfc{k}->bgf{o}", win.astype(dtype, copy=False), wg.astype(dtype, copy=False), optimize=True)
    return overflow_settled(conv_in(acc), conv_in).reshape(batch, w.shape[0], *out)


def _pool(op: Operation, x: np.ndarray, element: Attribute) -> np.ndarray:
    x = x.astype(_compute_dtype(x.dtype, element), copy=False)
    begin, end = op.pads_begin_end()
    out = tuple(op.results[0].type.get_shape())[2:]
    kernel, strides, dilations = op.kernel_values, op.strides_values, op.dilations_values
    # `ceil_mode` windows may run past the end padding: pad that far too.
    extra = [max(0, (o - 1) * s + (k - 1) * d + 1 - (size + b + e))
             for o, s, k, d, size, b, e in zip(out, strides, kernel, dilations, x.shape[2:],
                                               begin, end)]
    full_end = [e + x_ for e, x_ in zip(end, extra)]
    axes = tuple(range(-len(kernel), 0))
    if op.kind_value == "max":
        win = window_view(pad_spatial(x, begin, full_end, -np.inf), kernel, strides, dilations, out)
        return np.max(win, axis=axes)
    win = window_view(pad_spatial(x, begin, full_end, 0), kernel, strides, dilations, out)
    total = np.sum(win, axis=axes)
    counted = np.ones((1, 1, *x.shape[2:]), dtype=x.dtype)
    if op.count_include_pad_value:
        counted = pad_spatial(counted, begin, end, 1)
        counted = pad_spatial(counted, [0] * len(begin), extra, 0)
    else:
        counted = pad_spatial(counted, begin, full_end, 0)
    count = np.sum(window_view(counted, kernel, strides, dilations, out), axis=axes)
    return total / count


def evaluate_graph_op(op: Operation, operands: list[np.ndarray]) -> np.ndarray:
    """The value of `op`'s result for the given operand values (see module doc for rules)."""
    result_element = _element(op.results[0].type)
    args = [np.asarray(v).astype(numpy_dtype(_element(o.type)), copy=False)
            for v, o in zip(operands, op.operands)]
    with np.errstate(all="ignore"):
        value = _evaluate(op, args, result_element)
    out = store(value, result_element)
    expected = tuple(op.results[0].type.get_shape())
    assert out.shape == expected, f"{op.name}: computed shape {out.shape}, declared {expected}"
    return out


def _evaluate(op: Operation, args: list[np.ndarray], element: Attribute) -> np.ndarray:
    kind = type(op)
    if kind in _UNARY:
        return _UNARY[kind](_as_compute(args[0], element))
    if kind in _BINARY:
        return _BINARY[kind](_as_compute(args[0], element), _as_compute(args[1], element))
    if kind in _COMPARE:
        operand_element = _element(op.operands[0].type)
        return _COMPARE[kind](_as_compute(args[0], operand_element),
                              _as_compute(args[1], operand_element))
    return _evaluate_structured(op, args, element)


def _evaluate_structured(op: Operation, args: list[np.ndarray], element: Attribute):
    shape = tuple(op.results[0].type.get_shape())
    match op:
        case graph.WhereOp():
            return np.where(args[0], args[1], args[2])
        case graph.ConvertOp():
            return _convert(args[0], element)
        case graph.BroadcastOp():
            return _broadcast(args[0], op.dims_values, shape)
        case graph.ReshapeOp():
            return args[0].reshape(shape)
        case graph.TransposeOp():
            return np.transpose(args[0], op.perm_values)
        case graph.SliceOp():
            index = [slice(None)] * args[0].ndim
            for a, s, e in zip(op.axes_values, op.starts_values, op.ends_values):
                index[a] = slice(s, e)
            return args[0][tuple(index)]
        case graph.ConcatOp():
            return np.concatenate(args, axis=op.axis_value)
        case graph.PadOp():
            widths = list(zip(op.low_values, op.high_values))
            fill = np.asarray(op.value_value).astype(args[0].dtype)
            return np.pad(args[0], widths, mode="constant", constant_values=fill)
        case graph.DotOp():
            return _dot(args[0], args[1], element)
        case graph.ReduceOp():
            return _reduce(op, args[0], element)
        case graph.ConvOp():
            return _conv(op, args[0], args[1], element)
        case graph.PoolOp():
            return _pool(op, args[0], element)
        case graph.GatherOp():
            return np.take(args[0], args[1].astype(np.int64), axis=op.axis_value, mode="raise")
    raise NotImplementedError(f"no numpy semantics for {op.name}")
