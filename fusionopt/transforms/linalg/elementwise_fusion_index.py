"""Index expressions for elementwise fusion: bound-aware simplification and body emission.

A fused `linalg.generic` evaluates every absorbed producer at an *index tuple*: one
`AffineExpr` per producer dimension, written over the fused op's loop dimensions. Views
(transpose, broadcast, reshape, slice, pad, concat) transform these tuples; the result must
stay an affine map so leaves can be read as ordinary `ins` operands.

Two helpers live here:
- `IndexSpace` knows the static range of every loop dimension and simplifies `floordiv` and
  `mod` when the operand is provably in range (so a unit-dim `collapse_shape` gives `d0`, not
  `d0 mod 64`) — xDSL's `AffineExpr` does not simplify these itself.
- `IndexEmitter` materialises an expression inside the fused body with `linalg.index` and
  `arith` ops on `index`, which validity predicates (pad, concat) need.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

IndexTuple = tuple[AffineExpr, ...]


def floor_div(a: int, b: int) -> int:
    return a // b


class IndexSpace:
    """The loop ranges `[0, size)` of the fused op, used to bound and simplify expressions."""

    def __init__(self, sizes: Sequence[int]):
        self.sizes = tuple(sizes)

    def identity(self) -> IndexTuple:
        return tuple(AffineExpr.dimension(i) for i in range(len(self.sizes)))

    def bounds(self, expr: AffineExpr) -> tuple[int, int]:
        """Inclusive [lo, hi] of `expr` over the iteration space (interval arithmetic)."""
        if isinstance(expr, AffineConstantExpr):
            return expr.value, expr.value
        if isinstance(expr, AffineDimExpr):
            return 0, max(self.sizes[expr.position] - 1, 0)
        assert isinstance(expr, AffineBinaryOpExpr)
        lo_a, hi_a = self.bounds(expr.lhs)
        lo_b, hi_b = self.bounds(expr.rhs)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return lo_a + lo_b, hi_a + hi_b
            case AffineBinaryOpKind.Mul:
                corners = [lo_a * lo_b, lo_a * hi_b, hi_a * lo_b, hi_a * hi_b]
                return min(corners), max(corners)
            case AffineBinaryOpKind.FloorDiv:
                return floor_div(lo_a, lo_b), floor_div(hi_a, lo_b)
            case AffineBinaryOpKind.Mod:
                if 0 <= lo_a and hi_a < lo_b:
                    return lo_a, hi_a
                return 0, lo_b - 1
            case _:
                return -(10**18), 10**18

    def simplify(self, expr: AffineExpr) -> AffineExpr:
        """Rebuild `expr` bottom-up, dropping `floordiv`/`mod` that the ranges make trivial."""
        if not isinstance(expr, AffineBinaryOpExpr):
            return expr
        lhs, rhs = self.simplify(expr.lhs), self.simplify(expr.rhs)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                # A term that is always 0 (a unit loop dim, scaled) disappears from sums.
                if self.bounds(lhs) == (0, 0):
                    return rhs
                return lhs if self.bounds(rhs) == (0, 0) else lhs + rhs
            case AffineBinaryOpKind.Mul:
                if self.bounds(lhs) == (0, 0) or self.bounds(rhs) == (0, 0):
                    return AffineExpr.constant(0)
                return lhs * rhs
            case AffineBinaryOpKind.FloorDiv if isinstance(rhs, AffineConstantExpr):
                return self.floordiv(lhs, rhs.value)
            case AffineBinaryOpKind.Mod if isinstance(rhs, AffineConstantExpr):
                return self.mod(lhs, rhs.value)
            case _:
                return expr

    def compose(self, amap: AffineMap, loops: Sequence[AffineExpr]) -> IndexTuple:
        """The index tuple `amap(loops)`, simplified."""
        return tuple(
            self.simplify(r.replace_dims_and_symbols(list(loops), [])) for r in amap.results
        )

    def floordiv(self, expr: AffineExpr, divisor: int) -> AffineExpr:
        if divisor == 1:
            return expr
        lo, hi = self.bounds(expr)
        if floor_div(lo, divisor) == floor_div(hi, divisor):
            return AffineExpr.constant(floor_div(lo, divisor))
        return expr // divisor

    def mod(self, expr: AffineExpr, modulus: int) -> AffineExpr:
        """`expr mod modulus`, dropped when `expr` is already in `[0, modulus)`."""
        if modulus == 1:
            return AffineExpr.constant(0)
        lo, hi = self.bounds(expr)
        if 0 <= lo and hi < modulus:
            return expr
        return expr % modulus

    def clamp_into(self, expr: AffineExpr, size: int) -> AffineExpr:
        """An index that equals `expr` wherever `expr` is in range and is in range everywhere.

        Used for reads below a pad or concat: positions where `expr` is out of range are
        masked by the validity predicate, but the read itself must stay in bounds (the
        linalg verifier and real hardware both need that), so we wrap it with `mod`.
        """
        return self.mod(expr, size)

    def is_always_in(self, expr: AffineExpr, lo: int, hi_exclusive: int) -> bool:
        e_lo, e_hi = self.bounds(expr)
        return lo <= e_lo and e_hi < hi_exclusive

    def is_never_in(self, expr: AffineExpr, lo: int, hi_exclusive: int) -> bool:
        e_lo, e_hi = self.bounds(expr)
        return e_hi < lo or e_lo >= hi_exclusive


class IndexEmitter:
    """Materialises affine index expressions and predicates as body ops (memoised).

    Unit loop dims are always 0, so they are folded away before emission.
    """

    def __init__(self, block: Block, space: IndexSpace):
        self.block = block
        self.space = space
        self.cache: dict[object, SSAValue] = {}
        self.unit_dims_to_zero = [
            AffineExpr.constant(0) if size == 1 else AffineExpr.dimension(i)
            for i, size in enumerate(space.sizes)
        ]

    def _add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def _memo(self, key: object, build) -> SSAValue:
        if key not in self.cache:
            self.cache[key] = build()
        return self.cache[key]

    def constant(self, value: int) -> SSAValue:
        return self._memo(
            ("c", value),
            lambda: self._add(arith.ConstantOp(IntegerAttr(value, IndexType()))),
        )

    def value(self, expr: AffineExpr) -> SSAValue:
        expr = self.space.simplify(expr.replace_dims_and_symbols(self.unit_dims_to_zero, []))
        return self._memo(expr, lambda: self._build(expr))

    def _build(self, expr: AffineExpr) -> SSAValue:
        if isinstance(expr, AffineConstantExpr):
            return self.constant(expr.value)
        if isinstance(expr, AffineDimExpr):
            return self._add(IndexOp(expr.position))
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs, rhs = self.value(expr.lhs), self.value(expr.rhs)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return self._add(arith.AddiOp(lhs, rhs))
            case AffineBinaryOpKind.Mul:
                return self._add(arith.MuliOp(lhs, rhs))
            case AffineBinaryOpKind.FloorDiv:
                return self._add(arith.FloorDivSIOp(lhs, rhs))
            case AffineBinaryOpKind.Mod:
                # Affine `mod` is non-negative; arith.remsi is not: a - (a floordiv b) * b.
                quotient = self._add(arith.FloorDivSIOp(lhs, rhs))
                return self._add(arith.SubiOp(lhs, self._add(arith.MuliOp(quotient, rhs))))
            case _:
                raise NotImplementedError(f"affine expression {expr}")

    def compare(self, predicate: str, expr: AffineExpr, bound: int) -> SSAValue:
        key = ("cmp", predicate, expr, bound)
        return self._memo(
            key,
            lambda: self._add(arith.CmpiOp(self.value(expr), self.constant(bound), predicate)),
        )

    def all_of(self, conditions: Sequence[SSAValue]) -> SSAValue | None:
        result: SSAValue | None = None
        for condition in conditions:
            result = condition if result is None else self._add(arith.AndIOp(result, condition))
        return result

    def in_range(self, space: IndexSpace, expr: AffineExpr, lo: int, hi: int) -> list[SSAValue]:
        """Conditions for `lo <= expr < hi`, skipping the sides that hold everywhere."""
        e_lo, e_hi = space.bounds(expr)
        conditions = []
        if e_lo < lo:
            conditions.append(self.compare("sge", expr, lo))
        if e_hi >= hi:
            conditions.append(self.compare("slt", expr, hi))
        return conditions
