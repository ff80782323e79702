"""Input families: the adversarial inputs every rewrite is judged on, not only N(0,1) noise.

Random N(0,1) inputs hide whole classes of numerics bugs: a variance rewritten as
E[x^2] - E[x]^2 cancels catastrophically on constant rows and at a large common offset, a
softmax that forgets to subtract the row max overflows at large magnitudes, a fused mask
`x + (-inf)` meets `0 * inf`. Each family below targets one such class; a pass claims equality
only if it holds on all of them.

    FAMILIES = ("random", "constant", "offset", "zeros", "extreme", "mask", "ids-edge")
    family_inputs(func_op, "offset", seed=0, int_range=(0, 16), int_ranges=None)
    family_values(shape, dtype, "mask", np.random.default_rng(0), (0, 16))

Floats (f16, bf16, f32, f64; each by its own `finfo`), integers in `[lo, hi)` (`int_range`,
or `int_ranges[i]` for argument i: input ids in [0, vocab), attention masks in [0, 2)), i1:

- random:   floats N(0,1); ints uniform in [lo, hi); i1 random bits. Bit-identical to what
            `random_inputs` always produced, so existing tests see the same numbers.
- constant: every float 0.01 (a splat: constant rows, zero variance); ints lo; i1 true.
- offset:   floats 1000.5 + 0.01*N(0,1) (a large common offset, small spread); ints random.
- zeros:    all zeros; ints lo; i1 false.
- extreme:  floats random sign * 10**U(-e, e), e = 0.9*log10(finfo.max): near the type's
            limits in both directions; ints alternate lo and hi-1; i1 alternate.
- mask:     floats N(0,1) with ~1/4 of the elements -inf and ~1/8 -1e30 (the most negative
            finite value where the type cannot hold -1e30), like additive attention masks;
            every row of the last dimension (when it is longer than 1) has at least one -inf
            and at least one unmasked element; ints random; i1 random bits.
- ids-edge: ints alternate lo and hi-1 (both ends of the range: first and last embedding
            row, padding id); floats N(0,1); i1 alternate.

`nudged(values, seed)`: the same inputs with every nonzero finite float one ulp up or down (at
random; zeros, infinities, NaN, integers, i1 and bf16 unchanged: numpy has no bf16 nextafter).
How far the input program's result moves under it is the rounding noise any reordering of its
sums may add (the judge's "no worse" criterion, `compare.py`): a dot that cancels to exactly 0
in one summation order is ~1 ulp of its terms off in another. `largest_float(values)`: the
scale that noise is capped against.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.func import FuncOp

from fusionopt.interpreter.values import bf16_dtype, float_info, is_bf16_dtype, is_float_dtype, storage_dtype

FAMILIES: tuple[str, ...] = ("random", "constant", "offset", "zeros", "extreme", "mask", "ids-edge")

DEFAULT_INT_RANGE = (0, 16)
DEFAULT_DYNAMIC_SIZE = 4  # the size of every `?` dimension of a made-up input
CONSTANT_VALUE = 0.01
OFFSET_VALUE = 1000.5
MASK_BIG_NEGATIVE = -1e30


def family_inputs(
    func_op: FuncOp,
    family: str,
    seed: int = 0,
    int_range: tuple[int, int] = DEFAULT_INT_RANGE,
    int_ranges: Sequence[tuple[int, int] | None] | None = None,
    dynamic_size: int = DEFAULT_DYNAMIC_SIZE,
) -> list[np.ndarray]:
    """One value per argument of `func_op`, in its declared type (0-d arguments as numpy
    scalars), drawn from `family` with one generator seeded by `seed` (see module doc); every
    dynamic (`?`) dimension gets `dynamic_size` elements."""
    _check_family(family)
    rng = np.random.default_rng(seed)
    values = []
    for i, arg_type in enumerate(func_op.function_type.inputs):
        shape = tuple(dynamic_size if d == DYNAMIC_INDEX else d for d in arg_type.get_shape()) \
            if isinstance(arg_type, TensorType) else ()
        own = int_ranges[i] if int_ranges is not None and i < len(int_ranges) else None
        value = family_values(shape, storage_dtype(arg_type), family, rng, own or int_range)
        values.append(value if shape else value[()])
    return values


def nudged(values: Sequence[np.ndarray | np.generic], seed: int = 0) -> list[np.ndarray | np.generic]:
    """`values` with each nonzero finite float one ulp up or down (module doc)."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray | np.generic] = []
    for value in values:
        array = np.asarray(value)
        if not is_float_dtype(array.dtype) or (is_bf16_dtype(array.dtype) and bf16_dtype() != np.float32):
            out.append(value)
            continue
        toward = np.where(rng.integers(0, 2, size=array.shape) == 0, -np.inf, np.inf).astype(array.dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            step = np.nextafter(array, toward)
            inward = np.nextafter(array, np.zeros_like(array))  # at the type's largest value
        step = np.where(np.isinf(step), inward, step)
        moved = np.where(np.isfinite(array) & (array != 0), step, array).astype(array.dtype)
        out.append(moved if array.shape else moved[()])
    return out


def largest_float(values: Sequence[np.ndarray | np.generic]) -> float:
    """The largest finite magnitude among the float values (0.0 if none): the scale the judge
    measures rounding noise against (`compare.NOISE_CAP`)."""
    largest = 0.0
    for value in values:
        array = np.asarray(value)
        if is_float_dtype(array.dtype):
            finite = np.abs(array[np.isfinite(array)].astype(np.float64))
            largest = max(largest, float(finite.max()) if finite.size else 0.0)
    return largest


def family_values(
    shape: Sequence[int], dtype: np.dtype, family: str, rng: np.random.Generator,
    int_range: tuple[int, int] = DEFAULT_INT_RANGE,
) -> np.ndarray:
    """One array of `shape` and `dtype` from `family`, drawing from `rng` (see module doc)."""
    _check_family(family)
    shape, dtype = tuple(shape), np.dtype(dtype)
    if dtype == np.bool_:
        return _bools(shape, family, rng)
    if is_float_dtype(dtype):
        return _floats(shape, dtype, family, rng)
    return _ints(shape, dtype, family, rng, int_range)


def _check_family(family: str) -> None:
    if family not in FAMILIES:
        raise ValueError(f"unknown input family '{family}' (have: {', '.join(FAMILIES)})")


def _alternating(shape: tuple[int, ...], a, b) -> np.ndarray:
    """a, b, a, b, ... in row-major order: both ends of a range in every row."""
    return np.where(np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape) % 2 == 0, a, b)


def _bools(shape: tuple[int, ...], family: str, rng: np.random.Generator) -> np.ndarray:
    if family in ("constant", "zeros"):
        return np.full(shape, family == "constant", dtype=np.bool_)
    if family in ("extreme", "ids-edge"):
        return _alternating(shape, False, True).astype(np.bool_)
    return rng.integers(0, 2, size=shape).astype(np.bool_)


def _ints(shape: tuple[int, ...], dtype: np.dtype, family: str, rng: np.random.Generator,
          int_range: tuple[int, int]) -> np.ndarray:
    lo, hi = int_range
    if family in ("constant", "zeros"):
        return np.full(shape, lo, dtype=dtype)
    if family in ("extreme", "ids-edge"):
        return _alternating(shape, lo, hi - 1).astype(dtype)
    return rng.integers(lo, hi, size=shape).astype(dtype)


def _floats(shape: tuple[int, ...], dtype: np.dtype, family: str, rng: np.random.Generator) -> np.ndarray:
    if family == "constant":
        return np.full(shape, CONSTANT_VALUE, dtype=np.float64).astype(dtype)
    if family == "zeros":
        return np.zeros(shape, dtype=dtype)
    if family == "offset":
        return (OFFSET_VALUE + 0.01 * rng.standard_normal(size=shape)).astype(dtype)
    if family == "extreme":
        e = 0.9 * np.log10(float(float_info(dtype).max))
        signs = np.where(rng.integers(0, 2, size=shape) == 0, -1.0, 1.0)
        return (signs * 10.0 ** rng.uniform(-e, e, size=shape)).astype(dtype)
    normal = rng.standard_normal(size=shape).astype(dtype)  # random, ids-edge (as random_inputs)
    return _masked(normal, rng) if family == "mask" else normal


def _masked(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """~1/4 of `x` -inf and ~1/8 a huge negative; per last-dim row at least one -inf and one
    unmasked element (a fully masked row is NaN by definition, which judges nothing)."""
    if x.ndim == 0 or x.size == 0 or x.shape[-1] < 2:
        return x
    u = rng.random(size=x.shape)
    rows, n = x.size // x.shape[-1], x.shape[-1]
    forced = rng.integers(0, n, size=rows)
    kept = (forced + 1 + rng.integers(0, n - 1, size=rows)) % n
    row_index = np.arange(rows)
    u = u.reshape(rows, n)
    u[row_index, forced] = 0.0  # -inf
    u[row_index, kept] = 1.0  # unmasked
    u = u.reshape(x.shape)
    big = max(MASK_BIG_NEGATIVE, -float(float_info(x.dtype).max))
    out = np.where(u < 0.25, -np.inf, np.where(u < 0.375, big, x.astype(np.float64)))
    return out.astype(x.dtype)
