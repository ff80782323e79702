"""ONNX -> `graph` handler for DFT: the discrete Fourier transform as one contraction with a
constant matrix of cosines and sines.

A DFT of length N over one axis is a matrix product: with the signal's real and imaginary parts
interleaved along the last dim (ONNX's complex layout, `[..., N, 2]`, read as `[..., 2N]`), the
forward transform is `x @ W` with `W[2n + a, 2k + b]` the real coefficient that part `a` of
x[n] contributes to part `b` of X[k] (cos and sin of 2*pi*n*k/N, computed in float64). torch
exports `torch.fft.fft*` this way (FNet's token mixing: a 2-D FFT over the hidden and sequence
dims, imaginary parts concatenated as zeros). No FFT here: IREE has no FFT kernel for a region
to call, and a matmul is what its CPU and GPU code generation run fastest; it costs O(N^2)
instead of O(N log N) per signal, the form TPUs use for FNet's lengths (hundreds). Each output
is a dot product of N terms, so its rounding error is that of a contraction of length 2N: the
reassociation ML compilers make anyway (fast-math contract).

Supported: opset 17 (`axis` attribute) and 20 (`axis` as the third input, a constant), real
(`[..., 1]`) or complex input, `onesided` (real input: the N // 2 + 1 non-negative
frequencies), `inverse` (conjugate coefficients scaled by 1 / N), `dft_length` (a constant:
the signal truncated or zero-padded to it). `inverse` and `onesided` over a complex input is
torch's `irfft` as its exporter writes it and onnxruntime runs it (the ONNX text leaves it
undefined): the N // 2 + 1 bins of a Hermitian spectrum to the real signal of N = dft_length,
the other bins their conjugates, the imaginary parts of the first (and, N even, the middle)
bin read as zero, as numpy's `irfft` does.
"""

from __future__ import annotations

import numpy as np

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import reshape, slice_value, transpose
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape


def exact_angles(n: np.ndarray, k: np.ndarray, length: int) -> np.ndarray:
    """2 pi n k / N in float64, the product reduced mod N first (exact angles at any length)."""
    return 2 * np.pi * ((n * k) % length) / length


def dft_matrix(length: int, in_parts: int, bins: int, inverse: bool) -> np.ndarray:
    """`[length * in_parts, bins * 2]` float64: row 2n + a (a = 0 real, 1 imaginary part of
    x[n]), column 2k + b (b = 0 real, 1 imaginary part of X[k]); X[k] = sum_n x[n] e^(-+2 pi i n k / N)."""
    angle = exact_angles(np.arange(length)[:, None], np.arange(bins)[None, :], length)
    cos, sin = np.cos(angle), np.sin(angle) * (1.0 if inverse else -1.0)
    w = np.zeros((length, in_parts, bins, 2))
    w[:, 0, :, 0], w[:, 0, :, 1] = cos, sin        # real part: (cos + i sin) x_r
    if in_parts == 2:
        w[:, 1, :, 0], w[:, 1, :, 1] = -sin, cos   # imaginary part: i x_i (cos + i sin)
    if inverse:
        w /= length
    return w.reshape(length * in_parts, bins * 2)


def half_spectrum_matrix(length: int) -> np.ndarray:
    """`[(length // 2 + 1) * 2, length]` float64: row 2k + a (a = 0 real, 1 imaginary part of
    X[k]), column n; x[n] = sum_k c_k (Re X[k] cos - Im X[k] sin)(2 pi k n / N) / N, c_k = 2 for
    the bins whose conjugates stand in for the missing ones, 1 for the first and (N even) the
    middle bin (their sines vanish, so their imaginary parts are not read)."""
    bins = length // 2 + 1
    angle = exact_angles(np.arange(bins)[:, None], np.arange(length)[None, :], length)
    twice = np.full((bins, 1), 2.0)
    twice[0] = 1.0
    if length % 2 == 0:
        twice[-1] = 1.0
    w = np.stack([np.cos(angle), -np.sin(angle)], axis=1) * twice[:, :, None] / length
    return w.reshape(bins * 2, length)


def _axis(ctx: ImportContext, ins: list[Value | None], rank: int) -> int:
    """The signal axis (ONNX counts the trailing complex dim in the rank, never as the axis)."""
    if len(ins) > 2 and ins[2] is not None:
        if not isinstance(ins[2], np.ndarray):
            raise ctx.error("DFT's axis must be a constant")
        axis = int(np.asarray(ins[2]).reshape(-1)[0])
    else:
        axis = int(ctx.attr("axis", 1))
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis < rank - 1:
        raise ctx.error(f"DFT axis {axis} out of range for rank {rank} (the last dim holds the complex parts)")
    return axis


def _fit_length(ctx: ImportContext, x: Value, axis: int, length: int) -> Value:
    """`x` truncated or zero-padded to `length` along `axis`."""
    have = shape(x)[axis]
    if length < have:
        return slice_value(ctx, x, [axis], [0], [length])
    if length > have:
        high = [length - have if d == axis else 0 for d in range(len(shape(x)))]
        return ctx.emit(graph.PadOp(ctx.ssa(x), [0] * len(shape(x)), high, 0.0))
    return x


def _dft_length(ctx: ImportContext, ins: list[Value | None], default: int) -> int:
    if len(ins) < 2 or ins[1] is None:
        return default
    if not isinstance(ins[1], np.ndarray):
        raise ctx.error("DFT's dft_length must be a constant")
    length = int(np.asarray(ins[1]).reshape(-1)[0])
    if length < 1:
        raise ctx.error(f"DFT's dft_length must be positive, got {length}")
    return length


def dft(ctx: ImportContext, ins: list[Value | None]) -> list[Value]:
    x = ins[0]
    dims = shape(x)
    rank, parts = len(dims), dims[-1]
    if parts not in (1, 2):
        raise ctx.error(f"DFT input's last dim must be 1 (real) or 2 (complex), got {parts}")
    axis = _axis(ctx, ins, rank)
    inverse, onesided = bool(ctx.attr("inverse", 0)), bool(ctx.attr("onesided", 0))
    if onesided and parts == 2 and not inverse:
        raise ctx.error("DFT onesided=1 over a complex input is defined only as the inverse (the "
                        "forward transform needs a real input, last dim 1)")
    if onesided and parts == 2:  # a half spectrum to its real signal (torch's irfft)
        length = _dft_length(ctx, ins, 2 * (dims[axis] - 1))
        signal_in, weights, bins, out_parts = length // 2 + 1, half_spectrum_matrix(length), length, 1
    else:
        length = _dft_length(ctx, ins, dims[axis])
        bins = length // 2 + 1 if onesided else length
        signal_in, weights, out_parts = length, dft_matrix(length, parts, bins, inverse), 2
    x = _fit_length(ctx, x, axis, signal_in)
    # the signal axis next to the complex parts, every other dim one row of the product
    perm = [d for d in range(rank - 1) if d != axis] + [axis, rank - 1]
    moved = transpose(ctx, x, perm)
    outer = [shape(moved)[d] for d in range(rank - 2)]
    rows = reshape(ctx, moved, [int(np.prod(outer, dtype=np.int64)), signal_in * parts])
    product = ctx.emit(graph.DotOp(ctx.ssa(rows), ctx.ssa(weights.astype(numpy_dtype_of(element(ins[0]))))))
    spectrum = reshape(ctx, product, [*outer, bins, out_parts])
    return [transpose(ctx, spectrum, list(np.argsort(perm)))]


HANDLERS = {"DFT": dft}
