"""Matrix-chain ordering where products of constants are free (for `graph-reassociate-dots`).

A chain is a list of factors multiplied left to right (each a [batch.., rows, cols] matrix with
the chain's common batch dims). A factor is
- `Leaf`: a value; a constant leaf also knows its *stored* shape (1 where it is broadcast);
- `Affine`: `inner-chain + bias` with a constant bias -- a Linear layer. A constant matrix that
  multiplies it distributes: `L * (Y*A + b) * R = L*Y*A*R + L*b*R`, the second term folds.

`best_plan(factors, batch, max_const_bytes)` is the classic O(n^3) interval DP, extended with
1. free constant intervals: a product of constants costs nothing at run time (it folds) as long
   as its stored result fits in `max_const_bytes`;
2. absorption: an interval holding one `Affine` and otherwise only constants may distribute
   over the bias: its cost is the best plan of `lefts + inner + rights` plus the bias add.
The cost is run-time FLOPs with the `fusion-stats` rules (2*M*N*K per batch for a dot, one per
element for the bias add), so the DP optimises exactly what `fusion-stats` reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

Shape = tuple[int, ...]


@dataclass(frozen=True)
class Leaf:
    """A chain operand. `stored` is the constant's stored shape (full rank, 1 on broadcast
    dims), or None for a run-time value. `key` identifies it for the caller."""

    rows: int
    cols: int
    key: int
    stored: Shape | None = None

    @property
    def is_const(self) -> bool:
        return self.stored is not None


@dataclass(frozen=True)
class Affine:
    """`chain(inner) + bias`; `bias_stored` is the constant bias's stored shape."""

    inner: tuple[Factor, ...]
    bias_stored: Shape
    key: int

    @property
    def rows(self) -> int:
        return self.inner[0].rows

    @property
    def cols(self) -> int:
        return self.inner[-1].cols

    is_const = False


Factor = Leaf | Affine


@dataclass(frozen=True)
class Plan:
    """How to compute a chain interval. kind: "leaf" (factor), "affine" (an unabsorbed Affine:
    `inner` + bias), "dot" (`parts` = two sub-plans, `const` = folds at compile time),
    "absorb" (`parts` = lefts, `factor` = the Affine, rights; `inner` = plan of the expanded
    chain). `cost` = run-time FLOPs; `dots` = run-time dots it emits."""

    kind: str
    cost: int
    rows: int
    cols: int
    stored: Shape | None = None  # set when the whole interval is a compile-time constant
    parts: tuple = ()
    factor: Factor | None = None
    inner: Plan | None = None
    dots: int = 0

    @property
    def is_const(self) -> bool:
        return self.stored is not None


def product_stored(lhs: Shape, rhs: Shape) -> Shape:
    """Stored shape of a product of two stored constants: batch dims broadcast, rows from the
    lhs, cols from the rhs (the contraction dim is expanded before multiplying)."""
    batch = tuple(max(a, b) for a, b in zip(lhs[:-2], rhs[:-2]))
    return (*batch, lhs[-2], rhs[-1])


def stored_bytes(stored: Shape, element_bytes: int) -> int:
    return math.prod(stored) * element_bytes


class ChainPlanner:
    """The DP over one list of factors (sub-chains of absorbed Affines get their own)."""

    def __init__(self, factors: tuple[Factor, ...], batch: int, element_bytes: int, max_const_bytes: int):
        self.factors = factors
        self.batch = batch
        self.element_bytes = element_bytes
        self.max_const_bytes = max_const_bytes
        self.best = cache(self._best)

    def fits(self, stored: Shape | None) -> bool:
        return stored is not None and stored_bytes(stored, self.element_bytes) <= self.max_const_bytes

    def sub_planner(self, factors: tuple[Factor, ...]) -> ChainPlanner:
        return ChainPlanner(factors, self.batch, self.element_bytes, self.max_const_bytes)

    def leaf_plan(self, factor: Factor) -> Plan:
        if isinstance(factor, Leaf):
            return Plan("leaf", 0, factor.rows, factor.cols, stored=factor.stored, factor=factor)
        inner = self.sub_planner(factor.inner).plan()
        add = self.batch * factor.rows * factor.cols
        return Plan("affine", inner.cost + add, factor.rows, factor.cols, factor=factor,
                    inner=inner, dots=inner.dots)

    def plan(self) -> Plan:
        return self.best(0, len(self.factors) - 1)

    def _best(self, i: int, j: int) -> Plan:
        if i == j:
            return self.leaf_plan(self.factors[i])
        candidates = [self.split_plan(i, k, j) for k in range(i, j)]
        absorbed = self.absorb_plan(i, j)
        if absorbed is not None:
            candidates.append(absorbed)
        return min(candidates, key=lambda p: (p.cost, p.dots))

    def split_plan(self, i: int, k: int, j: int) -> Plan:
        left, right = self.best(i, k), self.best(k + 1, j)
        rows, inner, cols = left.rows, left.cols, right.cols
        if left.is_const and right.is_const:
            stored = product_stored(left.stored, right.stored)  # type: ignore[arg-type]
            if self.fits(stored):
                return Plan("dot", 0, rows, cols, stored=stored, parts=(left, right))
        flops = 2 * self.batch * rows * inner * cols
        return Plan("dot", left.cost + right.cost + flops, rows, cols, parts=(left, right),
                    dots=left.dots + right.dots + 1)

    def absorb_plan(self, i: int, j: int) -> Plan | None:
        """Distribute the constants of [i..j] over the one Affine in it (if that is all)."""
        span = self.factors[i:j + 1]
        affines = [n for n, f in enumerate(span) if isinstance(f, Affine)]
        if len(affines) != 1 or not all(f.is_const for f in span if isinstance(f, Leaf)):
            return None
        s = affines[0]
        lefts, affine, rights = span[:s], span[s], span[s + 1:]
        assert isinstance(affine, Affine)
        if not self.bias_fits(lefts, affine.bias_stored, rights):
            return None
        inner = self.sub_planner((*lefts, *affine.inner, *rights)).plan()
        add = self.batch * span[0].rows * span[-1].cols
        return Plan("absorb", inner.cost + add, span[0].rows, span[-1].cols,
                    parts=(tuple(lefts), tuple(rights)), factor=affine, inner=inner, dots=inner.dots)

    def bias_fits(self, lefts, bias: Shape, rights) -> bool:
        """Every constant made while folding `lefts * bias * rights` fits the budget."""
        stored = bias
        for f in reversed(lefts):
            stored = product_stored(f.stored, stored)
            if not self.fits(stored):
                return False
        for f in rights:
            stored = product_stored(stored, f.stored)
            if not self.fits(stored):
                return False
        return True


def best_plan(factors: tuple[Factor, ...], batch: int, element_bytes: int, max_const_bytes: int) -> Plan:
    """The cheapest way (run-time FLOPs, then fewer dots) to compute the chain."""
    return ChainPlanner(factors, batch, element_bytes, max_const_bytes).plan()
