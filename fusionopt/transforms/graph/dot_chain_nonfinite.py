"""When a float re-plan of `graph-reassociate-dots` keeps the input program's infinities and NaNs.

A run-time operand may hold +-inf (an attention mask, an overflow upstream) or NaN. Regrouping
`(x*A)*C` into `x*(A*C)` is exact in real numbers, but where `x[i,k] = inf` the two orders
differ: the input forms `inf*A[k,l]` for every l -- NaN where A[k,l] = 0, and `inf - inf = NaN`
in `sum_l (x*A)[i,l]*C[l,j]` where the products' signs differ -- while the re-plan forms
`inf * (A*C)[k,j]`, +-inf unless that one folded entry is 0. A consumer that tells NaN from
inf (`greater` + `where`, `max`, `exp(-inf) = 0`) then returns a finite value that differs
from the input program's. NaN operands are harmless: NaN reaches the same rows either way.

The orders agree for every x (up to finite rounding and overflow) exactly when each entry of
the product is a sum of nonzero terms of one sign, for every pattern of infinities in x. That
holds when the constants are *sign-rigid*: every constant factor is finite and zero-free with
a rank-1 sign pattern, `sign(M) = r c^T`, and two adjacent constants agree on the signs they
share (`c_A[l] * r_C[l]` is the same for every l). Then `M = D_r |M| D_c` with diagonal +-1
matrices, adjacent diagonals cancel to +-I (or fold into the run-time operand between them, a
sign flip that moves no infinity), and what remains is a product of strictly positive matrices
applied to a sign-flipped x: in any grouping each entry is a positive combination of the same
entries of x, so it is NaN iff those hold a NaN or infinities of both signs, else the common
infinity -- the same in every order. (Necessary too: with a zero, or one entry of A*C mixing
signs, a single infinity in x gives NaN in one order and inf in the other.) Folded products
must also stay finite and nonzero in the element type (no overflow, no underflow to 0).

The argument covers one run-time operand per chain; with two (`X*(Y*A)*C`) a product of
run-time values that happens to cancel to 0 in one order can still meet an infinity of the
other operand (not checked: a run-time coincidence).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Attribute

from fusionopt.graph_numpy import numpy_dtype
from fusionopt.transforms.graph.dot_chain import Affine, Factor, Plan
from fusionopt.transforms.graph.dot_chain_read import Chain


def nonfinite_refusal(chain: Chain, plan: Plan, folded: list[np.ndarray]) -> str | None:
    """Why the float re-plan `plan` of `chain` could turn an inf into NaN or back (None: it
    cannot). `folded`: the float64 values of the constant products the plan folds."""
    previous: np.ndarray | None = None
    for array in _constants_in_order(chain, chain.factors):
        if array is None:  # a run-time factor: the signs around it do not meet
            previous = None
            continue
        if not np.all(np.isfinite(array)) or not np.all(array != 0):
            return "a constant factor holds a zero (inf*0 = NaN in one order, not in the other)"
        if not _rank1_signs(array):
            return "a constant factor's signs are not rank-1 (inf - inf = NaN in one order, not in the other)"
        if previous is not None and not _signs_agree(previous, array):
            return "two adjacent constants' signs disagree (inf - inf = NaN in one order, not in the other)"
        previous = array
    for product in folded:
        rounded = _rounded(product, chain.element)
        if not np.all(np.isfinite(rounded)) or not np.all(rounded != 0):
            return "a folded constant product overflows or underflows to 0"
    return None


def _constants_in_order(chain: Chain, factors: tuple[Factor, ...]):
    """The chain's factors left to right, a Linear layer's inner chain in place (its constant
    bias moves no infinity); None for a run-time factor."""
    for factor in factors:
        if isinstance(factor, Affine):
            yield from _constants_in_order(chain, factor.inner)
        elif factor.is_const:
            yield chain.arrays[factor.key].astype(np.float64)
        else:
            yield None


def _rank1_signs(array: np.ndarray) -> bool:
    """sign(array) == r c^T over the last two dims (per batch; broadcast dims hold 1)."""
    signs = np.sign(array)
    rows, cols = signs[..., :, :1], signs[..., :1, :]
    return bool(np.array_equal(signs, rows * cols * signs[..., :1, :1]))


def _signs_agree(left: np.ndarray, right: np.ndarray) -> bool:
    """`c_left[l] * r_right[l]` is one sign for every shared index l (per batch)."""
    shared = np.sign(left[..., :1, :])[..., 0, :] * np.sign(right[..., :, :1])[..., :, 0]
    return bool(np.all(shared == shared[..., :1]))


def _rounded(product: np.ndarray, element: Attribute) -> np.ndarray:
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        return product.astype(numpy_dtype(element)).astype(np.float64)
