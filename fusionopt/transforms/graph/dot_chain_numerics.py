"""When `graph-reassociate-dots` may re-plan an f16/bf16 chain (the policy is stated, with its
bound, in the pass docstring).

f16/bf16 dots accumulate in f32 and round once to the element type, so every run-time dot,
scale and bias add of the input program rounds its result (unit roundoff u = 2^-11 for f16,
2^-8 for bf16). A re-planned chain is allowed in such a type only when it is a single rounding
of the exact chain value: every constant product it folds is exact in the element type
(checked here in float64) and what runs is one dot and nothing after it.

In every float type a re-plan must also keep the products of run-time values the input program
forms: `x*(y*z)` for an input `(x*y)*z` forms `y*z`, which can overflow (or cancel) where the
input's intermediates do not, e.g. at |values| ~ 1e34 in f32. Products of one run-time value
with constants are free to regroup (the constants are known: their products are checked).

Under the pass's default fast-math contract (every value the input program computes is finite)
a re-plan must also keep its values finite where the input program's are: a folded constant
product (`A*C`, and a bias distributed over the constants after it, `b*C`) that overflows is
refused, and so is one with an entry whose terms all underflow (`|A|*|C|` nonzero but below the
smallest normal number) -- at run time it would give inf, or lose the factor, where the input
program's order keeps the value.

`refusal` applies these rules and, with `strict_nonfinite`, the infinities rule of
dot_chain_nonfinite (inf and NaN in the run-time operands land on the same elements).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import AnyFloat, BFloat16Type, Float16Type
from xdsl.ir import Attribute, SSAValue

from fusionopt.graph_numpy import numpy_dtype
from fusionopt.interpreter.values import float_info
from fusionopt.transforms.graph.dot_chain import Plan
from fusionopt.transforms.graph.dot_chain_nonfinite import nonfinite_refusal
from fusionopt.transforms.graph.dot_chain_read import Chain


def is_low_precision(element: Attribute) -> bool:
    return isinstance(element, (Float16Type, BFloat16Type))


def exact_in(product: np.ndarray, element: Attribute) -> bool:
    """`product` (computed in float64) is unchanged by rounding it to `element`."""
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = product.astype(numpy_dtype(element)).astype(np.float64)
    return bool(np.array_equal(rounded, product))


def product_f64(a: np.ndarray, b: np.ndarray, k: int) -> np.ndarray:
    """`a @ b` of two stored constants in float64 (contraction dim expanded to `k`)."""
    batch = tuple(max(x, y) for x, y in zip(a.shape[:-2], b.shape[:-2]))
    a = np.broadcast_to(a.astype(np.float64), (*batch, a.shape[-2], k))
    b = np.broadcast_to(b.astype(np.float64), (*batch, k, b.shape[-1]))
    return np.matmul(a, b)


def refusal(chain: Chain, plan: Plan, strict_nonfinite: bool = False) -> str | None:
    """Why `plan` may not replace a float `chain` (None: allowed). `strict_nonfinite`: inf and
    NaN in the run-time operands must land on the same elements in both orders (the infinities
    rule of dot_chain_nonfinite); otherwise they are assumed finite (the fast-math contract)."""
    element = chain.element
    if isinstance(element, AnyFloat) and (reason := _float_refusal(chain, plan, strict_nonfinite)):
        return reason
    if not is_low_precision(element):
        return None
    add = _has_runtime_add(plan)
    if plan.kind != "dot" or plan.dots != 1 or add:
        what = f"{plan.dots} run-time dot{'s' if plan.dots != 1 else ''}" + (" and a bias add" if add else "")
        return f"in {element} the re-plan would not be one rounding of the chain ({what})"
    if _inexact_fold(chain, plan) is not None:
        return f"a constant product it folds is not exact in {element}"
    return None


def _float_refusal(chain: Chain, plan: Plan, strict_nonfinite: bool) -> str | None:
    if not _runtime_products(plan, chain)[1] <= _input_products(chain):
        return "it would multiply run-time values in another order (their products' magnitudes, and overflow, change)"
    products, element = _folded_products(chain, plan), chain.element
    magnitudes = _folded_products(chain, plan, absolute=True)
    if not all(_finite_in(p, element) for p in (*products, *_folded_biases(chain, plan))) or \
            any(_underflows(m, element) for m in magnitudes):
        return f"a folded constant product overflows or underflows in {element}"
    return nonfinite_refusal(chain, plan, products) if strict_nonfinite else None


def _finite_in(product: np.ndarray, element: Attribute) -> bool:
    """`product` (float64) stays finite once rounded to `element`."""
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.all(np.isfinite(product.astype(numpy_dtype(element)))))


def _underflows(magnitude: np.ndarray, element: Attribute) -> bool:
    """Some entry of `|A|*|C|` (float64) is nonzero but below `element`'s smallest normal number:
    all its terms underflow, so the folded entry loses what the input program's order keeps
    (a small entry from cancelling large terms is fine: its error is relative to the terms)."""
    tiny = float(float_info(numpy_dtype(element)).tiny)
    return bool(np.any((magnitude != 0) & (magnitude < tiny)))


def _has_runtime_add(plan: Plan) -> bool:
    if plan.kind in ("affine", "absorb"):
        return True
    return any(_has_runtime_add(part) for part in plan.parts if isinstance(part, Plan))


def _inexact_fold(chain: Chain, plan: Plan) -> np.ndarray | None:
    """The first folded product that rounding to the element type would change (else None);
    otherwise the float64 value of a constant plan is computed bottom-up."""
    return _fold(chain, plan)[1]


def _fold(chain: Chain, plan: Plan) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(float64 value of `plan` if it is a constant, first inexact product found below)."""
    if plan.kind == "leaf":
        if plan.is_const:
            return chain.arrays[plan.factor.key].astype(np.float64), None  # type: ignore[union-attr]
        return None, None
    results = [_fold(chain, part) for part in plan.parts if isinstance(part, Plan)]
    for _, bad in results:
        if bad is not None:
            return None, bad
    if plan.kind == "dot" and plan.is_const:
        (a, _), (b, _) = results
        product = product_f64(a, b, plan.parts[0].cols)  # type: ignore[arg-type]
        return (product, None) if exact_in(product, chain.element) else (None, product)
    return None, None


def _folded_products(chain: Chain, plan: Plan, absolute: bool = False) -> list[np.ndarray]:
    """The float64 values of the constant products `plan` folds (`absolute`: of the products
    of the factors' absolute values, `|A|*|C|`)."""
    if plan.kind == "dot" and plan.is_const:
        return [_const_f64(chain, plan, absolute)]
    children = [p for p in (plan.inner, *plan.parts) if isinstance(p, Plan)]
    return [product for child in children for product in _folded_products(chain, child, absolute)]


def _folded_biases(chain: Chain, plan: Plan) -> list[np.ndarray]:
    """The float64 values of the biases `plan` distributes over constants (`lefts*b*rights`)."""
    children = [p for p in (plan.inner, *plan.parts) if isinstance(p, Plan)]
    own = [_bias_f64(chain, plan)] if plan.kind == "absorb" else []
    return own + [bias for child in children for bias in _folded_biases(chain, child)]


def _bias_f64(chain: Chain, plan: Plan) -> np.ndarray:
    """lefts * bias * rights of an absorb plan, multiplied outwards as PlanEmitter.fold_bias."""
    lefts, rights = plan.parts
    affine = plan.factor
    bias, rows, cols = chain.arrays[affine.key].astype(np.float64), affine.rows, affine.cols  # type: ignore[union-attr]
    for factor in reversed(lefts):
        bias, rows = product_f64(chain.arrays[factor.key], bias, rows), factor.rows
    for factor in rights:
        bias, cols = product_f64(bias, chain.arrays[factor.key], cols), factor.cols
    return bias


def _const_f64(chain: Chain, plan: Plan, absolute: bool = False) -> np.ndarray:
    if plan.kind == "leaf":
        array = chain.arrays[plan.factor.key].astype(np.float64)  # type: ignore[union-attr]
        return np.abs(array) if absolute else array
    left, right = plan.parts
    return product_f64(_const_f64(chain, left, absolute), _const_f64(chain, right, absolute), left.cols)


Span = frozenset


def _runtime_products(plan: Plan, chain: Chain) -> tuple[Span, set[Span]]:
    """(run-time leaves under `plan`, the run-time leaf sets of its run-time dots over >= 2)."""
    if plan.kind == "leaf":
        return (Span() if plan.is_const else Span({plan.factor.key})), set()  # type: ignore[union-attr]
    children = [plan.inner] if plan.inner is not None else [p for p in plan.parts if isinstance(p, Plan)]
    spans, products = Span(), set()
    for child in children:
        span, inner = _runtime_products(child, chain)
        spans |= span
        products |= inner
    if plan.kind == "dot" and not plan.is_const and len(spans) >= 2:
        products.add(spans)
    return spans, products


def _input_products(chain: Chain) -> set[Span]:
    """The run-time leaf sets of the input chain's dots."""
    runtime = {value: key for key, value in chain.values.items() if key not in chain.arrays}
    ops = set(chain.ops)

    def leaves(value: SSAValue) -> Span:
        if value in runtime:
            return Span({runtime[value]})
        if value.owner in ops:
            return Span().union(*(leaves(v) for v in value.owner.operands))
        return Span()

    return {leaves(dot.result) for dot in chain.dots}
