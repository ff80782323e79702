"""Convolution and pooling (`fusionopt.dialects.linalg_conv`) with vectorised numpy.

The input's spatial axes become sliding windows (`numpy.lib.stride_tricks.sliding_window_view`,
a zero-copy view), strided by the op's strides and subsampled by its dilations, giving
`[..., OH, OW, ..., KH, KW]`; a convolution is then one `einsum` (BLAS-backed through
`optimize=True`) with the filter, a pooling op one max/sum over the two window axes. No Python
loop runs over output pixels. The einsum sees its operands in one canonical layout (axes by
letter, contiguous), so an NCHW op and its NHWC form sum their products in the same order and
give the same bits: a layout rewrite is then exact here, as its sums are in exact arithmetic
(where an f32 partial sum overflows, the value is the exact sum rounded once,
`values.overflow_settled`, so the order does not decide between inf, -inf and NaN).
Accumulation is in the init's dtype (MLIR's `cast_signed` to the output type), and the init is
accumulated into (`O += ...`, `O = max(O, ...)`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.interpreter import Interpreter
from xdsl.ir import Operation

from fusionopt.interpreter.values import overflow_settled


def windows(x: np.ndarray, axes: tuple[int, ...], kernel: tuple[int, ...], strides: tuple[int, ...],
            dilations: tuple[int, ...], out_sizes: tuple[int, ...]) -> np.ndarray:
    """`x` with each of `axes` replaced by its output positions and the window axes appended:
    element [..., o, ..., k] = x[..., o * stride + k * dilation, ...]."""
    spans = tuple((k - 1) * d + 1 for k, d in zip(kernel, dilations))
    view = sliding_window_view(x, spans, axis=axes)
    index: list[slice] = [slice(None)] * view.ndim
    for axis, stride, size in zip(axes, strides, out_sizes):
        index[axis] = slice(0, (size - 1) * stride + 1 if size > 0 else 0, stride)
    for j, dilation in enumerate(dilations):
        index[x.ndim + j] = slice(None, None, dilation)
    return view[tuple(index)]


def _canonical(array: np.ndarray, letters: str) -> tuple[np.ndarray, str]:
    """`array` with its axes sorted by their einsum letters, contiguous, and the sorted letters."""
    order = sorted(range(len(letters)), key=lambda i: letters[i])
    return np.ascontiguousarray(np.transpose(array, order)), "".join(letters[i] for i in order)


def canonical_einsum(spec: str, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """`np.einsum(spec, x, w)` computed on canonically laid out operands (module docstring)."""
    inputs, out = spec.split("->")
    (xc, x_letters), (wc, w_letters) = (_canonical(a, l) for a, l in zip((x, w), inputs.split(",")))
    out_sorted = "".join(sorted(out))
    value = np.einsum(f"{x_letters},{w_letters}->{out_sorted}", xc, wc, optimize=True)
    return np.transpose(value, [out_sorted.index(letter) for letter in out])


def _lowest(dtype: np.dtype) -> Any:
    return -np.inf if np.issubdtype(dtype, np.floating) else np.iinfo(dtype).min


def _highest(dtype: np.dtype) -> Any:
    return np.inf if np.issubdtype(dtype, np.floating) else np.iinfo(dtype).max


def run_window_op(interpreter: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    spec = op.SPEC
    x, w, *zero_points, init = (np.asarray(a) for a in args)
    out_dtype = init.dtype
    if zero_points:  # a quantized conv: (I - izp) * (K - kzp), widened to the output type first
        x = x.astype(out_dtype) - zero_points[0].astype(out_dtype)
        w = w.astype(out_dtype) - zero_points[1].astype(out_dtype)
    axes = spec.input_spatial_axes
    out_sizes = tuple(init.shape[spec.output.index(o)] for o, _ in spec.windows)
    kernel = tuple(w.shape[spec.filter.index(k)] for _, k in spec.windows)
    win = windows(x.astype(out_dtype, copy=False), axes, kernel, op.stride_values(),
                  op.dilation_values(), out_sizes)
    if spec.kind == "conv":
        def conv_in(dtype: np.dtype) -> np.ndarray:
            value = canonical_einsum(spec.einsum, win.astype(dtype, copy=False), w.astype(dtype, copy=False))
            return init.astype(dtype, copy=False) + value
        result = overflow_settled(conv_in(out_dtype), conv_in)
    else:
        # the window axes are the last ones; the rest are in the input's order, which for every
        # pooling op is the output's order
        window_axes = tuple(range(-len(kernel), 0))
        if spec.kind == "max":
            reduced = win.max(axis=window_axes) if win.size else np.full(init.shape, _lowest(out_dtype), out_dtype)
            result = np.maximum(init, reduced)
        elif spec.kind == "min":
            reduced = win.min(axis=window_axes) if win.size else np.full(init.shape, _highest(out_dtype), out_dtype)
            result = np.minimum(init, reduced)
        else:
            result = init + np.ascontiguousarray(win).sum(axis=window_axes, dtype=out_dtype)
    return (np.asarray(result, dtype=out_dtype),)
