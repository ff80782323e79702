"""`linalg-rational-erf`: each f32 `math.erf` becomes one rational function of its operand,
erf(x) ~ x * P(x^2) / Q(x^2) with x clamped to [-3.9, 3.9] and the result to [-1, 1], and
exactly -1 (1) where x was clamped from below (above) (P of degree 6 and Q of degree 4 in x^2:
10 FMAs, two multiplies, a division, four compares and six selects). Where
the operand is a positive constant times another value (GELU's `x / sqrt(2)`, or `x * c`) that
only the erf reads, the constant goes into the coefficients instead: x^2 and the clamp are
taken on the unscaled value, and the product or division goes.

Why: IREE 3.13 lowers `math.erf` on llvm-cpu with MLIR's approximation (three intervals, each
coefficient of two degree-4 polynomials picked by selects, then a division): about 35 vector
ops an element. An exact GELU (`0.5 * x * (1 + erf(x / sqrt(2)))`, torch's default, in BERT,
ViT, ConvNeXt, Whisper) runs it in its expanding matmul's epilogue over 4x the matmul's input
width: in convnext_tiny's 56x56 stage that epilogue took 0.7 ms of its 3.0 ms dispatch.
One rational function on one interval needs no selects between coefficients.

Accuracy (`python bench/erf_rational_fit.py`, float32 evaluation on [-6, 6] against float64
erf): largest error 3.1e-7, at |x| ~ 3.6 where P and Q are large and their rounding shows (~5
ulps of values near 1; IREE's own lowering, built and run by `python bench/gelu_erf.py
--accuracy`: 2.5e-7); mean 3e-8. Past the clamp the result is exactly +-1, selected, as erf's
float32 value is there (erf(3.9) = 1 - 3.5e-8): the rational at the clamp may round one ulp
short of 1 once a scale is folded, and an exact GELU of -1e30 would then be -6e22, not -0.
NaN stays NaN (the compares are unordered), +-inf gives +-1, -0 gives -0.

The coefficients are `bench/erf_rational_fit.py`'s default fit (least squares iterated toward
the minimax error on [0, 3.9]). f64 and vector erfs are left alone. On llvm-cpu pipelines only:
IREE's CUDA build lowers erf its own way, not measured here.

No options. Statistics: `erf ops as rationals`, `erf operand scales folded`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, math as xmath
from xdsl.dialects.builtin import FloatAttr, ModuleOp, f32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt import pass_statistics
from fusionopt.transforms.common.use_def import sole_user
from fusionopt.transforms.linalg.attention_pieces import float_constant

# erf(x) ~ x * P(x^2) / Q(x^2) on [-CLAMP, CLAMP]; coefficients from the lowest power up.
CLAMP = 3.9
NUMERATOR = (1.128378800004521, 0.20422011617232955, 0.05114826912317452, 0.0038960733577011364,
             0.0001474696582010357, -1.996901908475065e-06, 2.0118744011594926e-08)
DENOMINATOR = (1.0, 0.5143143809470045, 0.11678353597564857, 0.014730081088293302, 0.0010065521141636715)


def positive_f32_constant(value: SSAValue) -> float | None:
    """The value of a finite positive scalar f32 `arith.constant`, None otherwise."""
    number = float_constant(value) if value.type == f32 else None
    return number if number is not None and math.isfinite(number) and number > 0 else None


def operand_scale(erf: Operation) -> tuple[SSAValue, float, Operation] | None:
    """(x, s, the scaling op) where the erf reads x / c or x * c (s = 1/c or c) for a positive
    constant c and nothing else reads the scaled value; None otherwise."""
    scaled = erf.operands[0]
    owner = scaled.owner
    if not isinstance(owner, (arith.DivfOp, arith.MulfOp)) or sole_user(scaled) is not erf:
        return None
    lhs, rhs = owner.operands
    if isinstance(owner, arith.DivfOp):
        c = positive_f32_constant(rhs)
        return None if c is None else (lhs, 1.0 / float(np.float32(c)), owner)
    for value, other in ((rhs, lhs), (lhs, rhs)):
        if (c := positive_f32_constant(value)) is not None:
            return other, float(np.float32(c)), owner
    return None


def scaled_coefficients(scale: float) -> tuple[list[float], list[float], float]:
    """P's and Q's coefficients (in powers of x^2) and the clamp for erf(scale * x), in float64."""
    numerator = [c * scale ** (2 * k + 1) for k, c in enumerate(NUMERATOR)]
    denominator = [c * scale ** (2 * k) for k, c in enumerate(DENOMINATOR)]
    return numerator, denominator, CLAMP / scale


class RationalBuilder:
    """Scalar f32 ops inserted before one op, in order."""

    def __init__(self, before: Operation):
        self.ops: list[Operation] = []
        self.before = before

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def constant(self, number: float) -> SSAValue:
        return self.add(arith.ConstantOp(FloatAttr(float(np.float32(number)), f32)))

    def clamp(self, value: SSAValue, bound: float) -> tuple[SSAValue, SSAValue, SSAValue]:
        """(`value` clamped to [-bound, bound], value >= -bound, value <= bound); the compares
        are unordered, so a NaN passes and counts as within."""
        low, high = self.constant(-bound), self.constant(bound)
        above_low = self.add(arith.CmpfOp(value, low, "uge"))
        value = self.add(arith.SelectOp(above_low, value, low))
        below_high = self.add(arith.CmpfOp(value, high, "ule"))
        return self.add(arith.SelectOp(below_high, value, high)), above_low, below_high

    def saturate(self, value: SSAValue, above_low: SSAValue, below_high: SSAValue) -> SSAValue:
        """`value`, but exactly -1 (1) where the operand was clamped from below (above)."""
        value = self.add(arith.SelectOp(below_high, value, self.constant(1.0)))
        return self.add(arith.SelectOp(above_low, value, self.constant(-1.0)))

    def horner(self, coefficients: list[float], t: SSAValue) -> SSAValue:
        acc = self.constant(coefficients[-1])
        for c in coefficients[-2::-1]:
            acc = self.add(xmath.FmaOp(acc, t, self.constant(c)))
        return acc

    def insert(self) -> None:
        Rewriter.insert_op(self.ops, InsertPoint.before(self.before))


def rational_erf(erf: Operation, x: SSAValue, scale: float) -> SSAValue:
    """erf(scale * x) as the rational function, its ops inserted before `erf`."""
    numerator, denominator, clamp = scaled_coefficients(scale)
    build = RationalBuilder(erf)
    x, above_low, below_high = build.clamp(x, clamp)
    t = build.add(arith.MulfOp(x, x))
    odd = build.add(arith.MulfOp(x, build.horner(numerator, t)))
    within, _, _ = build.clamp(build.add(arith.DivfOp(odd, build.horner(denominator, t))), 1.0)
    result = build.saturate(within, above_low, below_high)
    build.insert()
    return result


def rewrite_erf(erf: Operation) -> None:
    folded = operand_scale(erf)
    x, scale = (folded[0], folded[1]) if folded else (erf.operands[0], 1.0)
    Rewriter.replace_op(erf, [], [rational_erf(erf, x, scale)])
    if folded:
        Rewriter.erase_op(folded[2])
        pass_statistics.count("erf operand scales folded")
    pass_statistics.count("erf ops as rationals")


def is_f32_scalar_erf(op: Operation) -> bool:
    return isinstance(op, xmath.ErfOp) and op.results[0].type == f32


@dataclass(frozen=True)
class LinalgRationalErfPass(ModulePass):
    """Each f32 scalar `math.erf` as x * P(x^2) / Q(x^2), a positive constant scale of its
    operand in the coefficients. No options."""

    name = "linalg-rational-erf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for erf in [o for o in op.walk() if is_f32_scalar_erf(o)]:
            rewrite_erf(erf)
