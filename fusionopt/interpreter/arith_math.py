"""numpy semantics of `arith` and `math` ops, on scalars and on tensors alike.

Exactness notes (MLIR semantics, not numpy's defaults):
- `divsi` truncates toward zero, `floordivsi` floors, `ceildivsi` ceils, `remsi` takes the
  dividend's sign; the `*ui` ops reinterpret their operands as unsigned. Division by zero is
  undefined behaviour in MLIR; here it yields 0 instead of crashing.
- `cmpf` ordered predicates are false and unordered ones true when an operand is NaN.
- `maximumf`/`minimumf` propagate NaN (IEEE maximum), `maxnumf`/`minnumf` return the non-NaN
  operand (IEEE maxNum).
- `addi`/`subi`/`muli` on i1 are xor/xor/and (arithmetic modulo 2, not numpy's bool OR).
- f16/f64 compute in their declared type; bf16 computes in f32 and rounds each op's result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import arith, math
from xdsl.ir import Operation

from fusionopt.dialects import arith as fusion_arith
from fusionopt.interpreter.common import as_type, compute_dtype_args, elementwise, functions_from_table
from fusionopt.interpreter.values import attribute_value, element_dtype, storage_dtype, unsigned_view
from fusionopt.special_functions import erf as _erf  # vectorised float64 erf, the one graph.erf uses


def _bool_aware(int_fn, bool_fn):
    return lambda a, b: bool_fn(a, b) if np.asarray(a).dtype == np.bool_ else int_fn(a, b)


def _safe_divisor(b):
    return np.where(b == 0, 1, b).astype(np.asarray(b).dtype)


def _divsi(a, b):
    b1 = _safe_divisor(b)
    q = np.floor_divide(a, b1)
    rounded_down = (a - q * b1 != 0) & ((np.asarray(a) < 0) != (b1 < 0))
    return np.where(b == 0, 0, q + rounded_down)


def _ceildivsi(a, b):
    b1 = _safe_divisor(b)
    q = np.floor_divide(a, b1)
    return np.where(b == 0, 0, q + (a - q * b1 != 0))


def _unsigned(fn):
    def run(a, b):
        result = fn(unsigned_view(a), unsigned_view(b))
        return np.asarray(result).astype(unsigned_view(a).dtype).view(np.asarray(a).dtype)

    return run


def _udiv(a, b):
    return np.where(b == 0, 0, np.floor_divide(a, np.where(b == 0, 1, b)))


def _urem(a, b):
    return np.where(b == 0, 0, np.remainder(a, np.where(b == 0, 1, b)))


def signed_remainder(a, b):
    """`arith.remsi`: the truncated remainder, the dividend's sign; 0 for a zero divisor (LLVM
    leaves that undefined)."""
    return np.where(b == 0, 0, np.fmod(a, _safe_divisor(b)))


def _either_nan(a, b):
    return np.isnan(a) | np.isnan(b)


# cmpf predicates in their enum order (arith.CmpfOp's `predicate` is the index).
_CMPF = [
    lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),  # false
    np.equal, np.greater, np.greater_equal, np.less, np.less_equal,  # oeq ogt oge olt ole
    lambda a, b: np.not_equal(a, b) & ~_either_nan(a, b),  # one
    lambda a, b: ~_either_nan(a, b),  # ord
    lambda a, b: np.equal(a, b) | _either_nan(a, b),  # ueq
    lambda a, b: ~np.less_equal(a, b),  # ugt
    lambda a, b: ~np.less(a, b),  # uge
    lambda a, b: ~np.greater_equal(a, b),  # ult
    lambda a, b: ~np.greater(a, b),  # ule
    np.not_equal,  # une
    _either_nan,  # uno
    lambda a, b: np.ones(np.broadcast(a, b).shape, bool),  # true
]


def _ucmp(fn):
    return lambda a, b: fn(unsigned_view(a), unsigned_view(b))


# cmpi predicates in their enum order: eq ne slt sle sgt sge ult ule ugt uge.
_CMPI = [np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
         _ucmp(np.less), _ucmp(np.less_equal), _ucmp(np.greater), _ucmp(np.greater_equal)]


def _cmp(table):
    def run(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
        a, b = compute_dtype_args(args)
        return (as_type(table[op.predicate.value.data](a, b), op.results[0].type),)

    return run


def _select(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    cond, a, b = args
    if np.ndim(cond) == 0 and np.ndim(a) == 0 and np.ndim(b) == 0:
        return (a if cond else b,)
    return (as_type(np.where(cond, a, b), op.results[0].type),)


def _constant(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    return (attribute_value(op.value, op.results[0].type),)


def _cast(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    (x,) = compute_dtype_args(args)
    return (as_type(x, op.results[0].type),)


def _unsigned_cast(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    return (as_type(unsigned_view(args[0]), op.results[0].type),)


def _bitcast(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Reinterpret the declared bits: in float64 mode values are rounded to their storage type
    first (a bitcast has no wider meaning) and the result widened again."""
    arr = np.asarray(args[0]).astype(storage_dtype(op.operands[0].type), copy=False)
    out = arr.view(storage_dtype(op.results[0].type)).astype(element_dtype(op.results[0].type), copy=False)
    return (out[()] if out.ndim == 0 else out,)


def _extsi_i1(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    x = args[0]
    if np.asarray(x).dtype == np.bool_:  # i1 true sign-extends to -1
        x = -np.asarray(x, dtype=np.int8)
    return (as_type(x, op.results[0].type),)


def _round_half_away(x):
    return np.where(np.abs(x - np.trunc(x)) >= 0.5, np.trunc(x) + np.sign(x), np.trunc(x))


def _fpowi(a, b):
    return np.power(a, np.asarray(b).astype(np.asarray(a).dtype))


def _ipowi(a, b):
    """Integer power; a negative exponent gives 0 except for bases 1 and -1 (as MLIR folds)."""
    a, b = np.asarray(a), np.asarray(b)
    positive = np.power(a, np.maximum(b, 0))
    negative = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0))
    return np.where(b < 0, negative, positive)


def _signed_zero_aware(pick, prefer_negative: bool):
    """IEEE 754-2019 minimum/maximum (`arith.minimumf`/`maximumf`): NaN propagates (numpy
    does that) and -0.0 < +0.0, which numpy's minimum/maximum ignore."""

    def apply(a, b):
        result = pick(a, b)
        zeros = (np.asarray(a) == 0) & (np.asarray(b) == 0)
        if not np.any(zeros):
            return result
        a_wins = np.signbit(a) if prefer_negative else ~np.signbit(a)
        return np.where(zeros, np.where(a_wins, a, b), result).astype(result.dtype)

    return apply


_BINARY: dict[type[Operation], Any] = {
    arith.AddfOp: np.add, arith.SubfOp: np.subtract, arith.MulfOp: np.multiply, arith.DivfOp: np.divide,
    arith.MaximumfOp: _signed_zero_aware(np.maximum, prefer_negative=False),
    arith.MinimumfOp: _signed_zero_aware(np.minimum, prefer_negative=True),
    arith.MaxnumfOp: np.fmax, arith.MinnumfOp: np.fmin,
    arith.AddiOp: _bool_aware(np.add, np.logical_xor), arith.SubiOp: _bool_aware(np.subtract, np.logical_xor),
    arith.MuliOp: _bool_aware(np.multiply, np.logical_and),
    arith.DivSIOp: _divsi, arith.FloorDivSIOp: lambda a, b: np.where(b == 0, 0, np.floor_divide(a, _safe_divisor(b))),
    arith.CeilDivSIOp: _ceildivsi, arith.RemSIOp: signed_remainder,
    arith.DivUIOp: _unsigned(_udiv), arith.RemUIOp: _unsigned(_urem),
    arith.CeilDivUIOp: _unsigned(lambda a, b: _udiv(a, b) + (_urem(a, b) != 0)),
    arith.MaxSIOp: np.maximum, arith.MinSIOp: np.minimum,
    arith.MaxUIOp: _unsigned(np.maximum), arith.MinUIOp: _unsigned(np.minimum),
    arith.AndIOp: np.bitwise_and, arith.OrIOp: np.bitwise_or, arith.XOrIOp: np.bitwise_xor,
    arith.ShLIOp: np.left_shift, arith.ShRSIOp: np.right_shift, arith.ShRUIOp: _unsigned(np.right_shift),
    math.PowFOp: np.power, math.FPowIOp: _fpowi, math.IPowIOp: _ipowi,
    math.Atan2Op: np.arctan2, math.CopySignOp: np.copysign,
}

_UNARY: dict[type[Operation], Any] = {
    arith.NegfOp: np.negative,
    math.AbsFOp: np.abs, math.AbsIOp: np.abs, math.CeilOp: np.ceil, math.FloorOp: np.floor,
    math.RoundOp: _round_half_away, math.RoundEvenOp: np.rint, math.TruncOp: np.trunc,
    math.ExpOp: np.exp, math.Exp2Op: np.exp2, math.ExpM1Op: np.expm1,
    math.LogOp: np.log, math.Log2Op: np.log2, math.Log10Op: np.log10, math.Log1pOp: np.log1p,
    math.SqrtOp: np.sqrt, math.RsqrtOp: lambda x: np.reciprocal(np.sqrt(x)), math.CbrtOp: np.cbrt,
    math.SinOp: np.sin, math.CosOp: np.cos, math.TanOp: np.tan, math.TanhOp: np.tanh,
    math.SinhOp: np.sinh, math.CoshOp: np.cosh, math.AsinOp: np.arcsin, math.AcosOp: np.arccos,
    math.AtanOp: np.arctan, math.AsinhOp: np.arcsinh, math.AcoshOp: np.arccosh, math.AtanhOp: np.arctanh,
    math.ErfOp: _erf,
}

def _fused_multiply_add(a: Any, b: Any, c: Any) -> Any:
    """`math.fma` rounds once, as the FMA instruction IREE's build emits: float32 (and narrower)
    operands are multiplied and added in float64, where their product is exact, then rounded."""
    dtype = np.result_type(a, b, c)
    if dtype.kind == "f" and dtype.itemsize < 8:
        wide = np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)
        return wide.astype(dtype)
    return a * b + c


_TABLE: dict[type[Operation], Any] = {
    **{op: elementwise(fn) for op, fn in _BINARY.items()},
    **{op: elementwise(fn) for op, fn in _UNARY.items()},
    math.FmaOp: elementwise(_fused_multiply_add),
    arith.CmpfOp: _cmp(_CMPF), arith.CmpiOp: _cmp(_CMPI),
    arith.SelectOp: _select, arith.ConstantOp: _constant,
    arith.ExtFOp: _cast, arith.TruncFOp: _cast, arith.TruncIOp: _cast, arith.ExtSIOp: _extsi_i1,
    arith.ExtUIOp: _unsigned_cast, arith.SIToFPOp: _cast, arith.UIToFPOp: _unsigned_cast,
    arith.FPToSIOp: _cast, arith.FPToUIOp: _cast, arith.IndexCastOp: _cast, arith.BitcastOp: _bitcast,
}

def _index_castui(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Zero-extend a narrower integer into index; an index into an integer truncates."""
    source = args[0]
    if np.asarray(source).dtype != np.int64:
        source = unsigned_view(source)
    return (as_type(source, op.results[0].type),)


# Our shape-aware cast and compare subclasses run as xDSL's casts and compares; remf is C's fmod (sign of the dividend).
_TABLE |= {ours: _TABLE[xdsl_op] for xdsl_op, ours in fusion_arith.CASTS.items()}
_TABLE |= {fusion_arith.CmpiOp: _TABLE[arith.CmpiOp], fusion_arith.CmpfOp: _TABLE[arith.CmpfOp]}
_TABLE[fusion_arith.RemFOp] = elementwise(np.fmod)
_TABLE[fusion_arith.IndexCastUIOp] = _index_castui

ArithMathFunctions = functions_from_table("ArithMathFunctions", _TABLE)


def evaluate(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """`op`'s results on numpy `args` (arrays or scalars) with the interpreter's semantics, or
    None for an op this table lacks: lets a rewrite fold an op the way execution computes it."""
    fn = _TABLE.get(type(op))
    return None if fn is None else fn(op, args)
