"""When `graph-reassociate-dots` may re-plan an f16/bf16 chain (the policy is stated, with its
bound, in the pass docstring).

f16/bf16 dots accumulate in f32 and round once to the element type, so every run-time dot,
scale and bias add of the input program rounds its result (unit roundoff u = 2^-11 for f16,
2^-8 for bf16). A re-planned chain is allowed in such a type only when it is a single rounding
of the exact chain value: every constant product it folds is exact in the element type
(checked here in float64) and what runs is one dot and nothing after it.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float16Type
from xdsl.ir import Attribute

from fusionopt.graph_numpy import numpy_dtype
from fusionopt.transforms.graph.dot_chain import Plan
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


def refusal(chain: Chain, plan: Plan) -> str | None:
    """Why `plan` may not replace an f16/bf16 `chain` (None: allowed, or not low precision)."""
    element = chain.element
    if not is_low_precision(element):
        return None
    add = _has_runtime_add(plan)
    if plan.kind != "dot" or plan.dots != 1 or add:
        what = f"{plan.dots} run-time dot{'s' if plan.dots != 1 else ''}" + (" and a bias add" if add else "")
        return f"in {element} the re-plan would not be one rounding of the chain ({what})"
    if _inexact_fold(chain, plan) is not None:
        return f"a constant product it folds is not exact in {element}"
    return None


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
