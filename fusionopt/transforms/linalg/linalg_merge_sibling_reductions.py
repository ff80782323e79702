"""`linalg-merge-sibling-reductions`: one multi-result generic for reductions over the same input.

A layer norm reduces its input twice: `s = sum(x)` then `v = sum((x - m(s))^2)`. The second
reduction reads the first one's result, so each is a dispatch root and the layer norm costs
two dispatches (IREE: "2 layer-norm reductions"). Two rewrites make it one root:

1. `ShiftedVariance` (option `rewrite-variance`, off by default: see "Default"): with `m`
   any function of `s` alone (the mean `s / N`) and `k` each row's first element, `y = x - k` and `d = m - k`,
   `sum((x - m)^2) = sum((y - d)^2) = (syy - d*sy) - d*(sy - N*d)` where `sy = sum(y)` and
   `syy = sum(y*y)`. `s`, `sy` and `syy` are computed by one reduction over `x` (which reads
   `x` twice: elementwise, and at the row's first element through a constant-0 map), so `s`
   keeps its exact value and the layer norm is one root; the small elementwise op computing
   the variance fuses as that root's consumer.

   Numerics. The textbook one-pass `E[x^2] - E[x]^2` cancels catastrophically: its error is
   about `N*u*(S + N*m^2)` for `S = sum((x-m)^2)` and unit roundoff `u`, so at a large common
   offset (`x = 1000.5 + noise`) it returns garbage or a negative variance (NaN after rsqrt).
   Shifting by a sample of the row removes the offset. Since `sum(y - d) = 0` exactly, an
   error in `d` enters only squared, and to first order
   `|v - v_ref| <= (2N+8)*u*(sum(y^2) + N*d^2) + N*e_d^2`, with `e_d` the rounding of `d`
   (the rounded mean's error `(N+1)*u*sum|x|/N`, plus `u*|d|`): the last term is the two-pass
   input program's own, which subtracts the same rounded mean. The bound is independent of
   the offset; as `d^2 = (m - x_0)^2 <= S` (x_0 is one term of S) it is at most about
   `(2N+8)*(2N+1)*u*S` when the first element is an extreme outlier, and about
   `3*(2N+8)*u*S` when it is a typical sample (`d^2 ~ S/N`). Constant rows give `y = 0`
   exactly, so `sy = syy = 0` and `v = N*d^2`, what the two-pass input program computes too.
   test/unit/test_shifted_variance.py checks the bound against a float64 reference on
   random, constant, offset, zero, extreme, tiny and outlier-first rows (and that the textbook
   formula breaks it).

   Default. Off, chosen by IREE's runtime (bench/RESULTS.md, "Layer norm: exact variance,
   one dispatch"): on llvm-cpu the one-pass form costs 30.5 us for bert_mini's five layer
   norms where the exact two-pass chain, which `form-dispatch-regions` puts in one dispatch
   per layer norm, costs 23.9 us (IREE default: 25.6 us in ten dispatches); on CUDA a merged
   multi-result layer-norm reduction measured slower than two reductions (minilm_l6 10.2 ms
   vs 8.2 ms). A rewrite that does not measure faster stays opt-in.
2. `MergeSiblingReductions`: reductions with the same single input, the same indexing maps
   and iterator types become one `linalg.generic` with one result per reduction (each
   payload cloned side by side), computed in a single pass over the input.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, FloatAttr, ModuleOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du


def _payload(op: Operation) -> list[Operation]:
    return list(op.regions[0].block.ops)


def is_single_input_reduction(op: Operation) -> bool:
    return (
        op.name == "linalg.generic"
        and du.has_reduction_loops(op)
        and len(du.dps_inputs(op)) == 1
        and len(du.dps_inits(op)) == 1
    )


def is_sum_reduction(op: Operation) -> bool:
    """`out + in` over the reduced dims (either operand order)."""
    if not is_single_input_reduction(op):
        return False
    body = _payload(op)
    args = op.regions[0].block.args
    return (
        len(body) == 2
        and body[0].name == "arith.addf"
        and set(body[0].operands) == {args[0], args[1]}
        and body[1].operands[0] is body[0].results[0]
    )


def _single_yield_op(op: Operation, name: str) -> Operation | None:
    body = _payload(op)
    yielded = body[-1].operands[0].owner if body and body[-1].name == "linalg.yield" else None
    return yielded if isinstance(yielded, Operation) and yielded.name == name else None


def square_source(op: Operation) -> SSAValue | None:
    """The tensor `d` of an elementwise generic computing `d * d`."""
    if op.name != "linalg.generic" or not du.is_all_parallel(op) or len(du.dps_inits(op)) != 1:
        return None
    mul = _single_yield_op(op, "arith.mulf")
    if mul is None:
        return None
    args = list(op.regions[0].block.args)
    sources = []
    for operand in mul.operands:
        if operand not in args or args.index(operand) >= len(du.dps_inputs(op)):
            return None
        sources.append((du.dps_inputs(op)[args.index(operand)], du.indexing_maps(op)[args.index(operand)]))
    return sources[0][0] if sources[0] == sources[1] else None


def centered_parts(op: Operation) -> tuple[SSAValue, SSAValue, SSAValue, list[Operation]] | None:
    """For `d = x - m(s)` (two inputs): (x, s, the block argument reading s, the payload ops
    computing m from it)."""
    if op.name != "linalg.generic" or len(du.dps_inputs(op)) != 2 or not du.is_all_parallel(op):
        return None
    sub = _single_yield_op(op, "arith.subf")
    args = list(op.regions[0].block.args)
    if sub is None or sub.operands[0] not in args[:2]:
        return None
    x_index = args.index(sub.operands[0])
    s_arg = args[1 - x_index]
    mean_ops = _backward_slice(sub.operands[1], op, allowed_arg=s_arg)
    if mean_ops is None:
        return None
    inputs = du.dps_inputs(op)
    return inputs[x_index], inputs[1 - x_index], s_arg, mean_ops


def _backward_slice(value: SSAValue, generic: Operation, allowed_arg: SSAValue) -> list[Operation] | None:
    """Payload ops computing `value` from `allowed_arg` and values defined outside the payload."""
    block = generic.regions[0].block
    ops: list[Operation] = []
    stack = [value]
    while stack:
        current = stack.pop()
        if current is allowed_arg:
            continue
        owner = current.owner
        if isinstance(owner, Block):
            if owner is block:
                return None  # depends on another block argument
            continue
        if owner.parent_block() is not block:
            continue  # captured from above: fine
        if owner not in ops:
            ops.append(owner)
            stack.extend(owner.operands)
    return sorted(ops, key=block.get_operation_index) if block.first_op else ops


def reduced_element_count(reduction: Operation) -> int:
    extents = du.loop_extents(reduction)
    count = 1
    for kind, extent in zip(du.iterator_kinds(reduction), extents):
        if kind == "reduction":
            count *= extent or 1
    return count


@dataclass(frozen=True)
class VarianceMatch:
    """The ops of `v = sum((x - m(s))^2)` with `s = sum(x)`."""

    first: Operation  # s = sum(x)
    x: SSAValue
    centered: Operation  # d = x - m(s)
    sum_arg: SSAValue  # `centered`'s block argument that reads s
    mean_ops: list[Operation]  # payload ops of `centered` computing m from sum_arg
    square: Operation  # d * d


def match_variance(op: Operation) -> VarianceMatch | None:
    if not is_sum_reduction(op) or not isinstance(square := du.dps_inputs(op)[0].owner, Operation):
        return None
    centered = square_source(square)
    if centered is None or not isinstance(centered.owner, Operation):
        return None
    parts = centered_parts(centered.owner)
    if parts is None:
        return None
    x, s, sum_arg, mean_ops = parts
    first = s.owner
    if not (isinstance(first, Operation) and is_sum_reduction(first) and du.dps_inputs(first)[0] is x):
        return None
    if du.indexing_maps(first) != du.indexing_maps(op) or du.iterator_kinds(first) != du.iterator_kinds(op):
        return None
    return VarianceMatch(first, x, centered.owner, sum_arg, mean_ops, square)


def first_element_map(x_map: AffineMap, kinds: list[str]) -> AffineMap | None:
    """`x_map` with every reduced dim read at 0: the row's first element (`k`)."""
    results = []
    for expr in x_map.results:
        if not isinstance(expr, AffineDimExpr):
            return None
        results.append(AffineExpr.constant(0) if kinds[expr.position] == "reduction" else expr)
    return AffineMap(x_map.num_dims, 0, tuple(results))


def first_element_map_over_rows(x_map: AffineMap, out_map: AffineMap, kinds: list[str]) -> AffineMap | None:
    """The same element read from the loops of the reduced (row) shape, whose dim j is the
    loop `out_map` puts at result j."""
    row_dims = [e.position if isinstance(e, AffineDimExpr) else None for e in out_map.results]
    results = []
    for expr in x_map.results:
        if not isinstance(expr, AffineDimExpr):
            return None
        if kinds[expr.position] == "reduction":
            results.append(AffineExpr.constant(0))
        elif expr.position in row_dims:
            results.append(AffineExpr.dimension(row_dims.index(expr.position)))
        else:
            return None
    return AffineMap(len(row_dims), 0, tuple(results))


class ShiftedVariance(RewritePattern):
    """`s = sum(x)`, `v = sum((x - m(s))^2)` -> one reduction of `(s, sum(y), sum(y*y))` with
    `y = x - k`, `k` the row's first element, then `v` from those sums (module doc)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        match = match_variance(op)
        if match is None:
            return
        (x_map, out_map), kinds = du.indexing_maps(match.first), du.iterator_kinds(match.first)
        shift_map = first_element_map(x_map, kinds)
        row_map = first_element_map_over_rows(x_map, out_map, kinds)
        if shift_map is None or row_map is None:
            return
        sums = self.build_shifted_sums(match.first, match.x, shift_map, rewriter)
        variance = self.build_variance(op, [*sums, match.x], match, row_map, rewriter)
        rewriter.replace(match.first, [], [sums[0]])
        rewriter.replace(op, [], [variance])
        if not any(r.uses for r in match.square.results):
            rewriter.erase(match.square)

    @staticmethod
    def zero_inits(first: Operation, count: int, rewriter: PatternRewriter) -> list[SSAValue]:
        result_type = first.results[0].type
        zero = arith.ConstantOp(FloatAttr(0.0, result_type.get_element_type()))
        rewriter.insert(zero, InsertPoint.before(first))
        inits = []
        for _ in range(count):
            empty = tensor.EmptyOp([], result_type)
            fill = FillOp([zero.result], [empty.tensor], [result_type])
            rewriter.insert([empty, fill], InsertPoint.before(first))
            inits.append(fill.results[0])
        return inits

    @classmethod
    def build_shifted_sums(cls, first: Operation, x: SSAValue, shift_map: AffineMap, rewriter) -> list[SSAValue]:
        """One generic at `s`'s place: `s` exactly as before, plus `sum(x - k)`, `sum((x - k)^2)`."""
        result_type = first.results[0].type
        inits = cls.zero_inits(first, 2, rewriter)
        body = Block(arg_types=[result_type.get_element_type()] * 5)
        value, shift, acc_s, acc_y, acc_yy = body.args
        old_args = first.regions[0].block.args
        mapping = {old_args[0]: value, old_args[1]: acc_s}
        for inner in _payload(first)[:-1]:
            body.add_op(inner.clone(value_mapper=mapping))
        total = mapping[_payload(first)[-1].operands[0]]
        y = arith.SubfOp(value, shift)
        total_y = arith.AddfOp(y.result, acc_y)
        yy = arith.MulfOp(y.result, y.result)
        total_yy = arith.AddfOp(yy.result, acc_yy)
        body.add_ops([y, total_y, yy, total_yy, YieldOp(total, total_y.result, total_yy.result)])
        x_map, out_map = du.indexing_maps(first)
        sums = GenericOp(
            [x, x], [du.dps_inits(first)[0], *inits], Region(body),
            [AffineMapAttr(m) for m in (x_map, shift_map, out_map, out_map, out_map)],
            first.properties["iterator_types"], [result_type] * 3,
        )
        rewriter.insert(sums, InsertPoint.before(first))
        return list(sums.results)

    @staticmethod
    def build_variance(op: Operation, operands: list[SSAValue], match: VarianceMatch, row_map: AffineMap,
                       rewriter: PatternRewriter) -> SSAValue:
        """Elementwise `(syy - d*sy) - d*(sy - N*d)` with `d = m(s) - k`: the exact sum of
        `(y - d)^2 = (x - m)^2`, from sums of small (shifted) terms."""
        result_type = op.results[0].type
        element = result_type.get_element_type()
        body = Block(arg_types=[element] * 5)
        s_arg, sum_y, sum_yy, shift = body.args[:4]
        mapping = {match.sum_arg: s_arg}
        for mean_op in match.mean_ops:
            body.add_op(mean_op.clone(value_mapper=mapping))
        mean_old = _single_yield_op(match.centered, "arith.subf").operands[1]
        mean = mapping.get(mean_old, s_arg)
        count = arith.ConstantOp(FloatAttr(float(reduced_element_count(op)), element))
        delta = arith.SubfOp(mean, shift)
        n_delta = arith.MulfOp(count.result, delta.result)
        rest = arith.SubfOp(sum_y, n_delta.result)
        tail = arith.MulfOp(delta.result, rest.result)
        cross = arith.MulfOp(delta.result, sum_y)
        head = arith.SubfOp(sum_yy, cross.result)
        variance = arith.SubfOp(head.result, tail.result)
        body.add_ops([count, delta, n_delta, rest, tail, cross, head, variance, YieldOp(variance.result)])
        rank = len(result_type.get_shape())
        identity = AffineMapAttr(AffineMap.identity(rank))
        empty = tensor.EmptyOp([], result_type)
        generic = GenericOp(
            operands, [empty.tensor], Region(body), [identity] * 3 + [AffineMapAttr(row_map), identity],
            [IteratorTypeAttr.parallel()] * rank, [result_type],
        )
        rewriter.insert([empty, generic])
        return generic.results[0]


def siblings(op: Operation) -> Operation | None:
    """A later reduction with the same input, maps and loops as `op`, whose operands exist
    before `op` (so the merged op can take `op`'s place)."""
    source = du.dps_inputs(op)[0]
    block = op.parent_block()
    if block is None:
        return None
    for use in source.uses:
        other = use.operation
        if other is op or other.parent_block() is not block or not is_single_input_reduction(other):
            continue
        if block.get_operation_index(other) < block.get_operation_index(op):
            continue
        if du.indexing_maps(other) != du.indexing_maps(op) or du.iterator_kinds(other) != du.iterator_kinds(op):
            continue
        init = du.dps_inits(other)[0].owner
        if isinstance(init, Operation) and init.parent_block() is block and block.get_operation_index(init) > block.get_operation_index(op):
            continue
        return other
    return None


class MergeSiblingReductions(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_single_input_reduction(op) or (other := siblings(op)) is None:
            return
        element_types = [op.results[0].type.get_element_type(), other.results[0].type.get_element_type()]
        body = Block(arg_types=[du.dps_inputs(op)[0].type.get_element_type(), *element_types])
        yielded = []
        for reduction, out_arg in ((op, body.args[1]), (other, body.args[2])):
            old_args = reduction.regions[0].block.args
            mapping = {old_args[0]: body.args[0], old_args[1]: out_arg}
            for inner in _payload(reduction)[:-1]:
                body.add_op(inner.clone(value_mapper=mapping))
            yielded.append(mapping.get(_payload(reduction)[-1].operands[0], _payload(reduction)[-1].operands[0]))
        body.add_op(YieldOp(*yielded))
        maps = du.indexing_maps(op)
        merged = GenericOp(
            [du.dps_inputs(op)[0]], [du.dps_inits(op)[0], du.dps_inits(other)[0]], Region(body),
            [AffineMapAttr(m) for m in (*maps, maps[-1])], op.properties["iterator_types"],
            [op.results[0].type, other.results[0].type],
        )
        rewriter.insert(merged, InsertPoint.before(op))
        other.results[0].replace_all_uses_with(merged.results[1])
        rewriter.erase(other)
        rewriter.replace(op, [], [merged.results[0]])


@dataclass(frozen=True)
class LinalgMergeSiblingReductionsPass(ModulePass):
    """Merge reductions over the same input into one multi-result generic.

    Options:
      rewrite-variance -- first compute `sum((x - m(sum(x)))^2)` from `sum(x)` and sums of
                          `x` shifted by each row's first element, in one reduction with
                          `sum(x)`, so a layer norm is one root (default false: IREE's
                          runtime measured the one-root form no faster on CPU and a merged
                          layer-norm reduction slower on CUDA; the module docstring states
                          the error bound).
    """

    name = "linalg-merge-sibling-reductions"

    rewrite_variance: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns: list[RewritePattern] = [MergeSiblingReductions()]
        if self.rewrite_variance:
            patterns.insert(0, ShiftedVariance())
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns)).rewrite_module(op)
