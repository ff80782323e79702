"""`linalg-merge-sibling-reductions`: one multi-result generic for reductions over the same input.

A layer norm reduces its input twice: `s = sum(x)` then `v = sum((x - m(s))^2)`. The second
reduction reads the first one's result, so each is a dispatch root and the layer norm costs
two dispatches (IREE: "2 layer-norm reductions"). Two rewrites make it one root:

1. `VarianceFromSums` (option `rewrite-variance`, default true): with `m` any function of `s`
   alone (the mean `s / N`), `sum((x - m)^2) = (ss - m*s) - m*(s - N*m)` where
   `ss = sum(x*x)`. The new `ss` reduction reads `x` like `s` does (a sibling); the small
   elementwise op computing the variance from `(s, ss)` fuses as the root's consumer.
   Numerics: exact algebra, but the subtraction loses precision when |mean| >> stddev
   (the textbook one-pass-variance caveat); disable it for such data.
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
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.utils import dispatch_utils as du


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


def centered_parts(op: Operation) -> tuple[SSAValue, SSAValue, list[Operation]] | None:
    """For `d = x - m(s)` (two inputs): (x, s, the payload ops computing m from s)."""
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
    return inputs[x_index], inputs[1 - x_index], mean_ops


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


class VarianceFromSums(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_sum_reduction(op) or not isinstance(square := du.dps_inputs(op)[0].owner, Operation):
            return
        centered = square_source(square)
        if centered is None or not isinstance(centered.owner, Operation):
            return
        parts = centered_parts(centered.owner)
        if parts is None:
            return
        x, s, mean_ops = parts
        first = s.owner
        if not (isinstance(first, Operation) and is_sum_reduction(first) and du.dps_inputs(first)[0] is x):
            return
        if du.indexing_maps(first) != du.indexing_maps(op) or du.iterator_kinds(first) != du.iterator_kinds(op):
            return
        sum_squares = self.build_sum_of_squares(first, rewriter)
        variance = self.build_variance(op, s, sum_squares, mean_ops, centered.owner, rewriter)
        rewriter.replace(op, [], [variance])
        if not any(r.uses for r in square.results):
            rewriter.erase(square)

    @staticmethod
    def build_sum_of_squares(first: Operation, rewriter: PatternRewriter) -> SSAValue:
        """`ss = sum(x*x)`, placed right after `s = sum(x)` (its init before it) so the two
        are siblings that `MergeSiblingReductions` can merge at `s`'s position."""
        element = first.results[0].type.get_element_type()
        with_insert = InsertPoint.after(first)
        zero = arith.ConstantOp(FloatAttr(0.0, element))
        empty = tensor.EmptyOp([], first.results[0].type)
        fill = FillOp([zero.result], [empty.tensor], [first.results[0].type])
        body = Block(arg_types=[element, element])
        square = arith.MulfOp(body.args[0], body.args[0])
        total = arith.AddfOp(square.result, body.args[1])
        body.add_ops([square, total, YieldOp(total.result)])
        ss = GenericOp(
            [du.dps_inputs(first)[0]], [fill.results[0]], Region(body),
            first.properties["indexing_maps"], first.properties["iterator_types"], [first.results[0].type],
        )
        rewriter.insert([zero, empty, fill], InsertPoint.before(first))
        rewriter.insert(ss, with_insert)
        return ss.results[0]

    @staticmethod
    def build_variance(op, s, ss, mean_ops, centered, rewriter) -> SSAValue:
        """Elementwise `(ss - m*s) - m*(s - N*m)` over the reduced shape."""
        result_type = op.results[0].type
        element = result_type.get_element_type()
        body = Block(arg_types=[element, element, element])
        s_arg_old = [a for a in centered.regions[0].block.args if centered.operands[a.index] is s][0]
        mapping = {s_arg_old: body.args[0]}
        for mean_op in mean_ops:
            body.add_op(mean_op.clone(value_mapper=mapping))
        mean = mapping[_single_yield_op(centered, "arith.subf").operands[1]] if mean_ops else body.args[0]
        count = arith.ConstantOp(FloatAttr(float(reduced_element_count(op)), element))
        n_m = arith.MulfOp(count.result, mean)
        s_minus = arith.SubfOp(body.args[0], n_m.result)
        tail = arith.MulfOp(mean, s_minus.result)
        m_s = arith.MulfOp(mean, body.args[0])
        head = arith.SubfOp(body.args[1], m_s.result)
        variance = arith.SubfOp(head.result, tail.result)
        body.add_ops([count, n_m, s_minus, tail, m_s, head, variance, YieldOp(variance.result)])
        rank = len(result_type.get_shape())
        identity = AffineMapAttr(AffineMap.identity(rank))
        empty = tensor.EmptyOp([], result_type)
        generic = GenericOp(
            [s, ss], [empty.tensor], Region(body), [identity] * 3,
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
      rewrite-variance -- first rewrite `sum((x - m(sum(x)))^2)` as a function of `sum(x)` and
                          `sum(x*x)` so a layer norm's two reductions become siblings
                          (default true; see the module docstring for the numerics caveat).
    """

    name = "linalg-merge-sibling-reductions"

    rewrite_variance: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns: list[RewritePattern] = [MergeSiblingReductions()]
        if self.rewrite_variance:
            patterns.insert(0, VarianceFromSums())
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns)).rewrite_module(op)
