"""Lowering of `graph` contractions, reductions and gathers to linalg.

- dot: `linalg.matmul` (rank 2) / `linalg.batch_matmul` (rank 3; higher ranks collapse their
  batch dims first and expand the result) into a zero `linalg.fill`. f16/bf16 accumulate in
  f32 and integers in i64 (as fusionopt/graph_numpy.py does), then one elementwise generic
  rounds or wraps to the result type.
- reduce_sum / reduce_max / reduce_mean: a `linalg.generic` with `reduction` iterators writing
  the kept-as-1 dims through a constant-0 output map; mean divides in a second generic. Integer
  sums accumulate in their own type (the same bits as i64 wrapped), integer means in i64.
- gather: a parallel generic over the result that reads the index operand and `tensor.extract`s
  from the table (negative indices count from the end, like ONNX).
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IndexType, IntegerType, TensorType, f64, i64
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from fusionopt.dialects import graph
from fusionopt.dialects.linalg import BatchMatmulOp, MatmulOp
from fusionopt.transforms.graph.graph_ir import constant_splat_value
from fusionopt.transforms.lowering.graph_to_linalg_builders import (
    BodyBuilder,
    build_generic,
    compute_type,
    empty,
    filled,
    identity,
    tensor_type,
)
from fusionopt.transforms.lowering.graph_to_linalg_scalar import convert_body
from fusionopt.transforms.lowering.graph_to_linalg_shape import Lowered, collapse, expand


def accumulator_type(element: Attribute) -> Attribute:
    if isinstance(element, IntegerType):
        return i64
    return compute_type(element)


def cast_result(value: SSAValue, element: Attribute) -> Lowered:
    """Elementwise round/wrap of an accumulator tensor to `element` (nothing if equal)."""
    source = tensor_type(value)
    if source.element_type == element:
        return [], value
    shape = source.get_shape()
    init = empty(shape, element)
    rank = len(shape)
    generic = build_generic(
        [value], [identity(rank)], init.tensor, identity(rank), ["parallel"] * rank,
        lambda b, args: convert_body(b, args[0], source.element_type, element),
    )
    return [init, generic], generic.results[0]


def lower_dot(op: graph.DotOp) -> Lowered:
    lhs, rhs, result = op.lhs, op.rhs, tensor_type(op.result)
    shape = tuple(result.get_shape())
    ops: list[Operation] = []
    if len(shape) > 3:  # fold all batch dims into one
        batch = prod(shape[:-2])
        groups = [list(range(len(shape) - 2)), [len(shape) - 2], [len(shape) - 1]]
        flat = []
        for value in (lhs, rhs):
            vshape = tensor_type(value).get_shape()
            ty = TensorType(tensor_type(value).element_type, [batch, *vshape[-2:]])
            ops.append(collapse(value, groups, ty))
            flat.append(ops[-1].results[0])
        lhs, rhs = flat
    acc = accumulator_type(result.element_type)
    acc_shape = [*(tensor_type(lhs).get_shape()[:-1]), tensor_type(rhs).get_shape()[-1]]
    ops += filled(acc_shape, acc, 0)
    contraction = (MatmulOp if len(acc_shape) == 2 else BatchMatmulOp)([lhs, rhs], [ops[-1].results[0]])
    ops.append(contraction)
    value = contraction.results[0]
    if len(shape) > 3:
        ops.append(expand(value, [list(range(len(shape) - 2)), [len(shape) - 2], [len(shape) - 1]],
                          TensorType(acc, list(shape))))
        value = ops[-1].results[0]
    cast_ops, value = cast_result(value, result.element_type)
    return ops + cast_ops, value


def reduction_init(op: graph.ReduceOp, acc: Attribute) -> float | int:
    if not isinstance(op, graph.ReduceMaxOp):
        return 0
    if isinstance(acc, IntegerType):
        return -(2 ** (acc.width.data - 1))
    return float("-inf")


# convert-graph-to-linalg's default `wide-means-from`: a float mean over at least this many
# elements accumulates in f64 (`is_wide_mean`). IREE's CPU codegen sums a reduction in vector
# lanes, each a sequential sum of count / 16 values, so an f32 sum's error grows with the count,
# and a normalisation after it amplifies that error by the ratio of the values' offset to their
# spread: wav2vec2's GroupNorm over 3199 frames of audio at 1000.5 + 0.01 N(0, 1) came out 0.68
# from float64 (IREE's own build too; numpy's pairwise sum 0.012), MaxViT's squeeze-excite pools
# over 56 x 56 and 28 x 28 activations of ~8e3 0.36 on offset images (onnxruntime 7e-3). Up to
# 256 values (16 a lane) the f32 sum is within twice the error of numpy's pairwise one.
WIDE_MEAN_MIN_COUNT = 256


def lower_reduce(op: graph.ReduceOp, wide: bool = False) -> Lowered:
    """A reduction; `wide` (a mean `is_wide_mean` chose): accumulated in f64, rounded once."""
    source, result = op.input, tensor_type(op.result)
    element = result.element_type
    is_max = isinstance(op, graph.ReduceMaxOp)
    # An integer sum accumulates in its own type: the same low bits as an i64 sum wrapped after
    # (addition modulo 2^n), and IREE's CUDA codegen cannot distribute an i64 sum (a count of
    # i1 entries summed in i32, onnx_ops_nn._widened_bools).
    own_type = is_max or (isinstance(op, graph.ReduceSumOp) and isinstance(element, IntegerType))
    acc = f64 if wide else (compute_type(element) if own_type else accumulator_type(element))
    rank = len(result.get_shape())
    axes = set(op.axes_values)
    ops = filled(result.get_shape(), acc, reduction_init(op, acc))
    out_map = AffineMap(rank, 0, tuple(
        AffineExpr.constant(0) if d in axes else AffineExpr.dimension(d) for d in range(rank)))
    iterators = ["reduction" if d in axes else "parallel" for d in range(rank)]

    def body(b: BodyBuilder, args):
        x = convert_body(b, args[0], tensor_type(source).element_type, acc)
        if is_max:
            return b.add((arith.MaxSIOp if isinstance(acc, IntegerType) else arith.MaximumfOp)(args[1], x))
        return b.add((arith.AddiOp if isinstance(acc, IntegerType) else arith.AddfOp)(args[1], x))

    generic = build_generic([source], [identity(rank)], ops[-1].results[0], out_map, iterators, body)
    ops.append(generic)
    value = generic.results[0]
    if isinstance(op, graph.ReduceMeanOp):
        count = prod(tensor_type(source).get_shape()[a] for a in axes)
        mean_ops, value = divide_by(value, count)
        ops += mean_ops
    cast_ops, value = cast_result(value, element)
    return ops + cast_ops, value


def is_wide_mean(op: Operation, wide_from: int) -> bool:
    """A float mean over `wide_from` or more values (0: none), not of squares: a square has no
    offset a normalisation would then cancel (a variance's centred squares, RMSNorm's x ** 2),
    and its sum's error stays relative to the sum. Decided on the graph ops, before lowering."""
    if not isinstance(op, graph.ReduceMeanOp) or isinstance(tensor_type(op.result).element_type, IntegerType):
        return False
    count = prod(tensor_type(op.input).get_shape()[a] for a in op.axes_values)
    return 0 < wide_from <= count and not is_square(op.input)


def is_square(value: SSAValue) -> bool:
    """`value` is x * x or x ** 2."""
    op = value.owner
    if isinstance(op, graph.MulOp):
        return op.lhs == op.rhs
    return isinstance(op, graph.PowOp) and constant_splat_value(op.rhs) == 2


def divide_by(value: SSAValue, count: int) -> Lowered:
    ty = tensor_type(value)
    rank = len(ty.get_shape())
    init = empty(ty.get_shape(), ty.element_type)
    is_int = isinstance(ty.element_type, IntegerType)

    def body(b: BodyBuilder, args):
        divisor = b.constant(count, ty.element_type)
        return b.add((arith.DivSIOp if is_int else arith.DivfOp)(args[0], divisor))

    generic = build_generic([value], [identity(rank)], init.tensor, identity(rank), ["parallel"] * rank, body)
    return [init, generic], generic.results[0]


def lower_gather(op: graph.GatherOp) -> Lowered:
    table, indices, result = op.table, op.indices, tensor_type(op.result)
    axis, rank = op.axis_value, len(result.get_shape())
    index_rank = len(tensor_type(indices).get_shape())
    table_shape = tensor_type(table).get_shape()
    index_map = AffineMap(rank, 0, tuple(AffineExpr.dimension(axis + k) for k in range(index_rank)))
    init = empty(result.get_shape(), result.element_type)

    def body(b: BodyBuilder, args):
        raw = b.add(arith.IndexCastOp(args[0], IndexType()))
        size = b.constant(table_shape[axis], IndexType())
        zero = b.constant(0, IndexType())
        negative = b.add(arith.CmpiOp(raw, zero, "slt"))
        position = b.add(arith.SelectOp(negative, b.add(arith.AddiOp(raw, size)), raw))
        coords = []
        for dim in range(len(table_shape)):
            if dim == axis:
                coords.append(position)
            else:
                result_dim = dim if dim < axis else dim + index_rank - 1
                coords.append(b.add(IndexOp(result_dim)))
        return b.add(tensor.ExtractOp(table, coords, result.element_type))

    generic = build_generic([indices], [index_map], init.tensor, identity(rank), ["parallel"] * rank, body)
    return [init, generic], generic.results[0]


COMPUTE_LOWERINGS = {
    graph.DotOp: lower_dot,
    graph.ReduceSumOp: lower_reduce,
    graph.ReduceMaxOp: lower_reduce,
    graph.ReduceMeanOp: lower_reduce,
    graph.GatherOp: lower_gather,
}
