"""`linalg-widen-mean-subtractions`: in a payload, `x - truncf(m)` where `m` is an f64 value
(a wide mean, `convert-graph-to-linalg{wide-means-from}`) becomes `truncf(extf(x) - m)`.

A normalisation subtracts its mean from every value. At a large common offset (audio or
activations at 1000.5 + 0.01 N(0, 1)) the mean rounded to f32 is off by up to half an f32 ulp
of the offset (3e-5 at 1000), a third of a percent of the 0.01 spread the normalisation then
divides by: the f64 mean's accuracy is lost in the subtraction. An InstanceNorm over 56 x 56
pixels came out 3.5e-3 from a float64 run of its input program on such inputs. Subtracting in
f64 and rounding once gives the centred value correctly rounded (x is exact in f64, the
difference rounds twice: f64 then f32), 1e-7 from float64. Exact for finite values and for
inf / NaN alike (extf and truncf keep them; truncf of an f64 difference past the f32 range is
inf, as the f32 subtraction would be). After elementwise fusion, which brings the mean's
truncf into its consumers' payloads; a payload that truncates the mean for other uses keeps
that truncf for them.

No options. Statistics: `mean subtractions widened`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, linalg
from xdsl.dialects.builtin import Float64Type, ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt import pass_statistics


def truncated_f64(value: SSAValue) -> SSAValue | None:
    """The f64 value `value` truncates, if `value` is an `arith.truncf` of one."""
    owner = value.owner
    if isinstance(owner, arith.TruncFOp) and isinstance(owner.input.type, Float64Type):
        return owner.input
    return None


def widen(sub: arith.SubfOp) -> bool:
    """Rewrite one `x - truncf(m)` (or `truncf(m) - x`) in f64; False if `sub` is not one."""
    lhs_wide, rhs_wide = truncated_f64(sub.lhs), truncated_f64(sub.rhs)
    if (lhs_wide is None) == (rhs_wide is None):
        return False  # neither side a truncated f64 value (or both: nothing narrow to widen)
    narrow = sub.rhs if lhs_wide is not None else sub.lhs
    if narrow.type != sub.result.type:
        return False
    extended = arith.ExtFOp(narrow, Float64Type())
    operands = (lhs_wide, extended.result) if lhs_wide is not None else (extended.result, rhs_wide)
    difference = arith.SubfOp(*operands, flags=sub.fastmath)
    rounded = arith.TruncFOp(difference.result, sub.result.type)
    Rewriter.insert_op([extended, difference, rounded], InsertPoint.before(sub))
    truncation = (sub.lhs if lhs_wide is not None else sub.rhs).owner
    sub.result.replace_all_uses_with(rounded.result)
    Rewriter.erase_op(sub)
    if not truncation.result.uses:  # type: ignore[union-attr]
        Rewriter.erase_op(truncation)  # type: ignore[arg-type]
    return True


@dataclass(frozen=True)
class LinalgWidenMeanSubtractionsPass(ModulePass):
    """`x - truncf(m_f64)` -> `truncf(extf(x) - m_f64)` in `linalg.generic` payloads. No options."""

    name = "linalg-widen-mean-subtractions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        subs = [o for g in op.walk() if isinstance(g, linalg.GenericOp)
                for o in g.body.walk() if isinstance(o, arith.SubfOp)]
        pass_statistics.count("mean subtractions widened", sum(widen(s) for s in subs))
