"""One summation order for every form of a floating-point matmul, where the order can decide
whether the result is finite.

Both interpreters (the graph one and the linalg one) compute contractions with `np.matmul`:
BLAS picks its summation order from the operands' shapes and layouts, so the same dot written
as `A @ B`, as `(B^T @ A^T)^T`, or with a unit dim folded sums its K products in different
orders. Below the overflow threshold that only moves rounding (within every tolerance we judge
by); near the float limits it decides whether a partial sum overflows: `big + big - big` is
inf in one order and `big` in another, so a rewrite that merely transposed a matmul would look
like it changed inf/NaN into a finite number. When overflow (or an inf/NaN operand) is possible,
the K products are therefore summed one k at a time, in increasing k, vectorised over the
other dims: the order a straightforward loop nest (and the linalg op's own semantics) gives,
the same for every form of the contraction.
"""

from __future__ import annotations

import numpy as np


def matmul(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """`np.matmul(lhs, rhs)`, summed in increasing k when the float sum could overflow."""
    if lhs.ndim < 2 or rhs.ndim < 2 or not _may_overflow(lhs, rhs):
        return np.matmul(lhs, rhs)
    return _sequential_k(lhs, rhs)


def _may_overflow(lhs: np.ndarray, rhs: np.ndarray) -> bool:
    if lhs.dtype.kind != "f" or lhs.size == 0 or rhs.size == 0:
        return False
    with np.errstate(all="ignore"):
        largest_lhs, largest_rhs = float(np.max(np.abs(lhs))), float(np.max(np.abs(rhs)))
    if not (np.isfinite(largest_lhs) and np.isfinite(largest_rhs)):
        return True  # NaN or inf operands: where they meet an overflowing partial sum is order-dependent
    bound = largest_lhs * largest_rhs * lhs.shape[-1]  # Python float (f64): inf when it overflows f64
    return bound >= float(np.finfo(lhs.dtype).max) / 2


def _sequential_k(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(lhs.shape[:-2], rhs.shape[:-2]) + (lhs.shape[-2], rhs.shape[-1])
    out = np.zeros(shape, dtype=np.result_type(lhs, rhs))
    with np.errstate(all="ignore"):
        for k in range(lhs.shape[-1]):
            out += lhs[..., :, k, None] * rhs[..., None, k, :]
    return out
