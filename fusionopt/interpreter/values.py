"""How MLIR types and attributes become numpy values in the interpreter.

Every tensor is a `numpy.ndarray`; every scalar (including `index`) is a 0-d-compatible numpy
scalar of the declared type, so the same arith/math implementations work on scalars and on the
whole-iteration-space arrays `linalg.generic` bodies see when vectorised.

Element types: f16 -> float16 and f64 -> float64 (numpy computes them in the declared type),
bf16 -> `ml_dtypes.bfloat16` when ml_dtypes is installed (otherwise float32, i.e. bf16 results
are then more precise than a device's by up to 2^-8 relative), i1 -> bool, iN -> intN,
index -> int64 (a 64-bit target). Elementwise f16/bf16 ops round each result to the type, as
MLIR's do; a sum or contraction into an f16/bf16 accumulator (linalg_generic.py's routes 1 and
2) sums in float32 and rounds once (numpy's float16 reductions do, bf16 follows), where the body
read literally would round every step: a device's order (vector lanes, tiles) lies between.

float64 reference mode: inside `with compute_float64():` every float type (f16, bf16, f32,
f64) *computes* as float64 -- `element_dtype` answers float64 -- so a run gives the program's
exact-arithmetic value up to f64 rounding, the reference that rewrites are judged against.
What the bytes of a dense constant or a bitcast operand *mean* still follows the declared type
(`storage_dtype`): constants are decoded in their storage type and then widened, so the f64 run
computes the same program, not one with more precise constants.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute


@functools.cache
def bf16_dtype() -> np.dtype:
    """bf16 in its declared precision when ml_dtypes is installed, float32 otherwise. Loaded on
    first use: importing ml_dtypes and numpy's bf16 support takes time, and most compilations meet no bf16."""
    try:
        from ml_dtypes import bfloat16
    except ImportError:  # pragma: no cover - documented fallback
        return np.dtype(np.float32)
    return np.dtype(bfloat16)


def is_bf16_dtype(dtype: object) -> bool:
    """`dtype == BF16`, without loading ml_dtypes: no bf16 array exists before it is loaded."""
    return "ml_dtypes" in sys.modules and dtype == bf16_dtype()


def float_info(dtype: object):
    """`np.finfo(dtype)`, bf16 included: numpy's finfo knows ml_dtypes' bfloat16 only from
    ml_dtypes 0.7 on, whose import costs 0.9 s (pyproject pins an earlier one), so bf16 asks
    `ml_dtypes.finfo`."""
    if is_bf16_dtype(dtype) and bf16_dtype() != np.float32:
        import ml_dtypes

        return ml_dtypes.finfo(bf16_dtype())
    return np.finfo(dtype)


def __getattr__(name: str) -> np.dtype:  # `values.BF16`, loaded on first use
    if name == "BF16":
        return bf16_dtype()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_FLOAT_DTYPES: dict[type, np.dtype] = {
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
}


class UnsupportedValue(Exception):
    """A type or attribute the interpreter cannot represent (reported as a user error)."""


_FLOAT64 = ContextVar("fusionopt_compute_float64", default=False)
_F64 = np.dtype(np.float64)


@contextmanager
def compute_float64(enabled: bool = True) -> Iterator[None]:
    """Within the block, every float type computes as float64 (the reference run; see above)."""
    token = _FLOAT64.set(enabled)
    try:
        yield
    finally:
        _FLOAT64.reset(token)


def float64_mode() -> bool:
    """Whether float types currently compute as float64 (`compute_float64`)."""
    return _FLOAT64.get()


def element_dtype(t: Attribute) -> np.dtype:
    """numpy dtype values of a scalar MLIR type (or a tensor's element type) compute in:
    the declared type, except float64 for every float type under `compute_float64`."""
    dtype = storage_dtype(t)
    return _F64 if is_float_dtype(dtype) and _FLOAT64.get() else dtype


def storage_dtype(t: Attribute) -> np.dtype:
    """numpy dtype of the declared type's bits: how dense constants and bitcasts read them."""
    if isinstance(t, TensorType):
        t = t.get_element_type()
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return np.dtype(np.bool_)
        if width in (8, 16, 32, 64):
            return np.dtype(f"int{width}")
        raise UnsupportedValue(f"unsupported integer width i{width}")
    if isinstance(t, BFloat16Type):
        return bf16_dtype()
    for cls, dtype in _FLOAT_DTYPES.items():
        if isinstance(t, cls):
            return dtype
    raise UnsupportedValue(f"unsupported element type {t}")


def is_float_dtype(dtype: np.dtype) -> bool:
    return dtype.kind == "f" or is_bf16_dtype(dtype)


def unsigned_view(x: np.ndarray | np.generic) -> np.ndarray:
    """Reinterpret signless integers as unsigned (for the `*ui` ops and unsigned compares)."""
    arr = np.asarray(x)
    if arr.dtype == np.bool_:
        return arr
    return arr.view(np.dtype(f"uint{arr.dtype.itemsize * 8}"))


def scalar(value: object, dtype: np.dtype) -> np.generic:
    return np.asarray(value, dtype=dtype)[()]


def _dense_to_array(attr: DenseIntOrFPElementsAttr, dtype: np.dtype, storage: np.dtype) -> np.ndarray:
    """The constant's bytes decoded as `storage` (its declared type), then cast to `dtype`."""
    shape = tuple(attr.get_shape() or ())
    raw = attr.data.data
    count = int(np.prod(shape, dtype=np.int64))
    storage = np.dtype(np.uint8) if dtype == np.bool_ else storage
    flat = np.frombuffer(raw, dtype=storage.newbyteorder("<"))
    if dtype == np.bool_:
        flat = flat != 0
    flat = flat.astype(dtype, copy=False)
    if flat.size == 1 and count != 1:  # splat stored once
        return np.full(shape, flat[0], dtype=dtype)
    return flat.reshape(shape).copy()


def attribute_value(attr: Attribute, type_attr: Attribute) -> np.ndarray | np.generic:
    """numpy value of a constant attribute (`arith.constant`'s `value`)."""
    dtype, storage = element_dtype(type_attr), storage_dtype(type_attr)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return _dense_to_array(attr, dtype, storage)
    if isinstance(attr, DenseResourceAttr):
        raise UnsupportedValue(
            f"cannot execute dense_resource<{attr.resource_handle.data}>: its data is not in the IR"
        )
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        if dtype == np.bool_:
            return np.bool_(value != 0)
        return scalar(_wrap_int(value, dtype), dtype)
    if isinstance(attr, FloatAttr):  # rounded to the declared type first (see module doc)
        return scalar(scalar(attr.value.data, storage), dtype)
    raise UnsupportedValue(f"unsupported constant attribute {attr}")


def _wrap_int(value: int, dtype: np.dtype) -> int:
    """Signless integers print either sign (e.g. `-1 : i8` or `255 : i8`); wrap to signed."""
    bits = dtype.itemsize * 8
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def zeros_for_type(t: Attribute) -> np.ndarray:
    """A tensor of the given (static) type, for `tensor.empty` (contents are undefined)."""
    assert isinstance(t, TensorType)
    return np.zeros(tuple(t.get_shape()), dtype=element_dtype(t))


def overflow_settled(value: np.ndarray, exact: Callable[[np.dtype], np.ndarray]) -> np.ndarray:
    """An f32 contraction's `value` (summed in f32, in BLAS's order) with its non-finite entries
    replaced by `exact(float64)` rounded once to f32: the correctly rounded sum there, +-inf by
    its true sign where it is past f32's range, NaN only from NaN or inf operands.

    A partial sum that overflows leaves inf, -inf or NaN by summation order alone, and that
    order differs between a conv's einsum and its matmul form and between CPUs' BLAS kernels:
    with extreme inputs a rewrite would be judged by the order it happens to sum in (and a
    consumer such as max(x, 0) turns -inf into a finite 0). Finite entries keep f32's rounding,
    as a backend's f32 kernel has it. Other dtypes and all-finite values are returned as they are."""
    if value.dtype != np.float32 or np.all(np.isfinite(value)):
        return value
    return np.where(np.isfinite(value), value, exact(np.dtype(np.float64)).astype(np.float32))
