"""Building the fused `linalg.generic` of a fusion group.

`FusedKernelBuilder(group, options).build()` evaluates the root's result at the identity
index: every member is evaluated at the index tuple its consumer needs (views compose the
tuple, see elementwise_fusion_views), and every value is computed once per index tuple
(`value_at` memoises), which is what keeps a multi-use intermediate to one body value.
Leaves become `ins` operands with the composed affine map; splat constants become scalars
and integer iota constants become `linalg.index` arithmetic. A pad or concat selects
between its source and the pad value / next piece with its *own* validity predicate, so
`slice -> cos -> pad -> exp2` yields `exp2(pad value)` in padded positions, never
`exp2(cos(0))` (luminal issue #39).
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.transforms.common_subexpression_elimination import cse

from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.linalg.elementwise_fusion_index import IndexEmitter, IndexSpace, IndexTuple
from fusionopt.transforms.linalg.elementwise_fusion_utils import (
    FusionGroup,
    FusionOptions,
    bounds_possible,
    constant_kind,
    dense_constant,
    generic_loop_index,
    iota_parameters,
    pad_value,
    reads_at,
)
from fusionopt.transforms.linalg.elementwise_fusion_views import (
    Bound,
    concat_source_reads,
    pad_source_read,
)


class FusedKernelBuilder:
    """Builds the body of one fused generic; leaves are collected as it goes."""

    def __init__(self, group: FusionGroup, options: FusionOptions):
        self.group = group
        self.options = options
        result_type = group.root.results[0].type
        assert isinstance(result_type, TensorType)
        self.result_type = result_type
        self.space = IndexSpace(result_type.get_shape())
        self.block = Block()
        self.index = IndexEmitter(self.block, self.space)
        self.memo: dict[tuple[SSAValue, IndexTuple], SSAValue] = {}
        self.leaf_values: list[SSAValue] = []
        self.leaf_maps: list[AffineMapAttr] = []

    # ------------------------------------------------------------------ driver

    def build(self) -> tuple[Operation, GenericOp]:
        """Returns (init `tensor.empty`, fused generic); the caller inserts both."""
        result = self.value_at(self.group.root.results[0], self.space.identity())
        self.block.insert_arg(self.result_type.element_type, len(self.block.args))
        self.block.add_op(YieldOp(result))
        cse(self.block)
        empty = tensor.EmptyOp([], self.result_type)
        rank = len(self.space.sizes)
        fused = GenericOp(
            inputs=self.leaf_values,
            outputs=[empty.tensor],
            body=Region(self.block),
            indexing_maps=[*self.leaf_maps, AffineMapAttr(AffineMap.identity(rank))],
            iterator_types=[IteratorTypeAttr.parallel()] * rank,
            result_types=[self.result_type],
        )
        return empty, fused

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def value_at(self, value: SSAValue, index: IndexTuple) -> SSAValue:
        key = (value, index)
        if key not in self.memo:
            owner = value.owner
            if isinstance(owner, Operation) and self.group.contains(owner):
                self.memo[key] = self.member_at(owner, index)
            else:
                self.memo[key] = self.leaf_at(value, index)
        return self.memo[key]

    # ------------------------------------------------------------------ leaves

    def leaf_at(self, value: SSAValue, index: IndexTuple) -> SSAValue:
        kind = constant_kind(value, self.options)
        if kind == "splat":
            return self.splat_scalar(value)
        if kind == "iota":
            return self.iota_scalar(value, index)
        element_type = value.type.element_type  # type: ignore[attr-defined]
        arg = self.block.insert_arg(element_type, len(self.leaf_values))
        self.leaf_values.append(value)
        results = self.verifiable_results(index, value.type.get_shape())  # type: ignore[attr-defined]
        self.leaf_maps.append(AffineMapAttr(AffineMap(len(self.space.sizes), 0, results)))
        return arg

    def verifiable_results(self, index: IndexTuple, shape) -> IndexTuple:
        """Map results the linalg verifier accepts for an operand of `shape`.

        A bare `d_k` must match the operand dim exactly (it also defines the loop range), so
        a read of a sub-range (slice at offset 0) is written `d_k mod size`: the same index,
        since `d_k < size`, but a non-bare expression that is only bounds-checked.
        """
        results = []
        for expr, size in zip(index, shape):
            if isinstance(expr, AffineDimExpr) and self.space.sizes[expr.position] != size:
                assert self.space.sizes[expr.position] < size, "fused read out of bounds"
                expr = AffineBinaryOpExpr(AffineBinaryOpKind.Mod, expr, AffineExpr.constant(size))
            results.append(expr)
        return tuple(results)

    def splat_scalar(self, value: SSAValue) -> SSAValue:
        attr = dense_constant(value)
        assert attr is not None
        return self.scalar_constant(next(iter(attr.get_values())), attr.get_element_type())

    def scalar_constant(self, number, element_type) -> SSAValue:
        if isinstance(element_type, IntegerType):
            return self.add(arith.ConstantOp(IntegerAttr(int(number), element_type)))
        return self.add(arith.ConstantOp(FloatAttr(float(number), element_type)))

    def iota_scalar(self, value: SSAValue, index: IndexTuple) -> SSAValue:
        """`start + step * linear(index)`, computed from `linalg.index` values."""
        attr = dense_constant(value)
        assert attr is not None
        start, step = iota_parameters(attr)  # type: ignore[misc]
        shape = attr.get_shape()
        linear = AffineExpr.constant(0)
        for dim, expr in enumerate(index):
            stride = 1
            for size in shape[dim + 1 :]:
                stride *= size
            linear = linear + expr * stride
        linear = linear * step + start
        element_type = attr.get_element_type()
        as_index = self.index.value(self.space.simplify(linear))
        return self.add(arith.IndexCastOp(as_index, element_type))

    # ----------------------------------------------------------------- members

    def member_at(self, op: Operation, index: IndexTuple) -> SSAValue:
        match op.name:
            case "linalg.generic":
                return self.generic_at(op, index)
            case "linalg.fill":
                return op.operands[0]
            case "tensor.pad":
                return self.pad_at(op, index)
            case "tensor.concat":
                return self.concat_at(op, index)
            case _:  # pure views: one read at the composed index
                [(source, source_index)] = reads_at(op, index, self.space)
                return self.value_at(source, source_index)

    def generic_at(self, op: Operation, index: IndexTuple) -> SSAValue:
        loops = generic_loop_index(op, index)
        body = op.regions[0].block
        reads = reads_at(op, index, self.space)
        mapping: dict[SSAValue, SSAValue] = {}
        for arg, (source, source_index) in zip(body.args, reads):
            mapping[arg] = self.value_at(source, source_index)
        for body_op in body.ops:
            if isinstance(body_op, YieldOp) or body_op.name == "linalg.yield":
                return mapping.get(body_op.operands[0], body_op.operands[0])
            if body_op.name == "linalg.index":
                dim = body_op.dim.value.data  # type: ignore[attr-defined]
                mapping[body_op.results[0]] = self.index.value(loops[dim])
                continue
            self.block.add_op(body_op.clone(value_mapper=mapping))
        raise AssertionError("linalg.generic body without linalg.yield")

    def simplified(self, index: IndexTuple) -> IndexTuple:
        """The same simplification `reads_at` applies, so leaves match `collect_leaves`."""
        return tuple(self.space.simplify(e) for e in index)

    def predicate(self, bounds: tuple[Bound, ...]) -> SSAValue | None:
        conditions = []
        for bound in bounds:
            conditions += self.index.in_range(self.space, bound.expr, bound.lo, bound.hi)
        return self.index.all_of(conditions)

    def pad_at(self, op: Operation, index: IndexTuple) -> SSAValue:
        fill = self.pad_scalar(op)
        read = pad_source_read(op, index, self.space)
        if not bounds_possible(read.bounds, self.space):
            return fill
        inner = self.value_at(read.value, self.simplified(read.index))
        valid = self.predicate(read.bounds)
        return inner if valid is None else self.add(arith.SelectOp(valid, inner, fill))

    def pad_scalar(self, op: Operation) -> SSAValue:
        source = pad_value(op)
        if isinstance(source, Operation):  # a constant inside the pad region
            return self.add(source.clone())
        assert source is not None
        return source

    def concat_at(self, op: Operation, index: IndexTuple) -> SSAValue:
        """A chain of selects, last piece innermost: piece p where `i_axis < end_p`."""
        pieces = [r for r in concat_source_reads(op, index, self.space)
                  if bounds_possible(r.bounds, self.space)]
        result = self.value_at(pieces[-1].value, self.simplified(pieces[-1].index))
        for piece in reversed(pieces[:-1]):
            value = self.value_at(piece.value, self.simplified(piece.index))
            [bound] = piece.bounds
            upper = self.index.in_range(self.space, bound.expr, -(10**18), bound.hi)
            if not upper:  # this piece covers every remaining position
                result = value
                continue
            result = self.add(arith.SelectOp(upper[0], value, result))
        return result
