"""Lowering of `graph` data-movement ops to linalg/tensor.

Each `lower_*` returns the new ops (in order) and the value that replaces the graph op.
- broadcast / transpose: an all-parallel `linalg.generic` whose input map expresses the view
  (so `linalg-fuse-elementwise` sees an elementwise op; size-1 broadcast dims read index 0);
- reshape: `tensor.collapse_shape` or `tensor.expand_shape` when one shape is a grouping of
  the other, otherwise a collapse then an expand of the finest runs of dims with equal
  products (`reshape_segments`);
- slice: `tensor.extract_slice`; concat: `tensor.concat`; pad: `tensor.pad` yielding a constant.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IndexType, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from fusionopt.dialects import graph
from fusionopt.transforms.common.reshapes import collapse, expand
from fusionopt.transforms.lowering.graph_to_linalg_builders import (
    build_generic,
    empty,
    identity,
    scalar_attr,
    tensor_type,
)

Lowered = tuple[list[Operation], SSAValue]


def copy_generic(source: SSAValue, input_map: AffineMap, result: TensorType) -> Lowered:
    init = empty(result.get_shape(), result.element_type)
    rank = len(result.get_shape())
    generic = build_generic(
        [source], [input_map], init.tensor, identity(rank), ["parallel"] * rank, lambda b, args: args[0]
    )
    return [init, generic], generic.results[0]


def lower_broadcast(op: graph.BroadcastOp) -> Lowered:
    result = tensor_type(op.result)
    out_shape = result.get_shape()
    in_shape = tensor_type(op.input).get_shape()
    exprs = []
    for in_dim, out_dim in enumerate(op.dims_values):
        stretched = in_shape[in_dim] == 1 and out_shape[out_dim] != 1
        exprs.append(AffineExpr.constant(0) if stretched else AffineExpr.dimension(out_dim))
    return copy_generic(op.input, AffineMap(len(out_shape), 0, tuple(exprs)), result)


def lower_transpose(op: graph.TransposeOp) -> Lowered:
    # result dim i is input dim perm[i], so the input is read at (d_{perm^-1(k)})_k.
    perm = op.perm_values
    exprs = [AffineExpr.dimension(perm.index(k)) for k in range(len(perm))]
    return copy_generic(op.input, AffineMap(len(perm), 0, tuple(exprs)), tensor_type(op.result))


def group_dims(fine: tuple[int, ...], coarse: tuple[int, ...]) -> list[list[int]] | None:
    """Reassociation grouping `fine` dims into `coarse` dims, or None if impossible."""
    if not coarse:
        return [] if prod(fine) == 1 else None
    groups: list[list[int]] = []
    position = 0
    for size in coarse:
        if position >= len(fine):
            return None
        group, product = [position], fine[position]
        position += 1
        while product < size and position < len(fine):
            group.append(position)
            product *= fine[position]
            position += 1
        if product != size:
            return None
        groups.append(group)
    if position < len(fine):
        if any(fine[p] != 1 for p in range(position, len(fine))):
            return None
        groups[-1].extend(range(position, len(fine)))
    return groups


def lower_reshape(op: graph.ReshapeOp) -> Lowered:
    source, result = op.input, tensor_type(op.result)
    src_shape, dst_shape = tuple(tensor_type(source).get_shape()), tuple(result.get_shape())
    if src_shape == dst_shape:
        return [], source
    if len(dst_shape) < len(src_shape) and (groups := group_dims(src_shape, dst_shape)) is not None:
        new = collapse(source, groups, result)
        return [new], new.results[0]
    if len(dst_shape) > len(src_shape) and (groups := group_dims(dst_shape, src_shape)) is not None:
        new = expand(source, groups, result)
        return [new], new.results[0]
    segments = reshape_segments(src_shape, dst_shape)
    if segments is None:  # a zero-size dim: no segments to align
        segments = [(list(range(len(src_shape))), list(range(len(dst_shape))))]
    middle = TensorType(result.element_type, [prod(src_shape[d] for d in s) for s, _ in segments])
    ops: list[Operation] = []
    value = source
    if any(len(s) != 1 for s, _ in segments):
        ops.append(collapse(value, [s for s, _ in segments], middle))
        value = ops[-1].results[0]
    if any(len(d) != 1 for _, d in segments):
        ops.append(expand(value, [d for _, d in segments], result))
    return ops, ops[-1].results[0]


def reshape_segments(src: tuple[int, ...], dst: tuple[int, ...]) -> list[tuple[list[int], list[int]]] | None:
    """The finest runs of source and result dims with equal products: each run of source dims
    is collapsed to one dim that is expanded to its run of result dims.

    [65, 1, 384] -> [65, 6, 64] is ([0], [0]), ([1, 2], [1, 2]): a collapse of the unit dim and
    an expand of 384 to 6 x 64, where collapsing everything to 1-D first put two reshapes
    between the producer and its consumer (IREE 3.13 then keeps the whole producer on its 32 KB
    stack: ViT's head split at 65 tokens needs 99840 bytes). None with a zero-size dim."""
    if 0 in src or 0 in dst:
        return None
    segments: list[tuple[list[int], list[int]]] = []
    i = j = 0
    while i < len(src) and j < len(dst):
        s_dims, d_dims = [i], [j]
        s_prod, d_prod = src[i], dst[j]
        i, j = i + 1, j + 1
        while s_prod != d_prod:
            if s_prod < d_prod:
                s_dims.append(i)
                s_prod *= src[i]
                i += 1
            else:
                d_dims.append(j)
                d_prod *= dst[j]
                j += 1
        segments.append((s_dims, d_dims))
    segments[-1][0].extend(range(i, len(src)))  # trailing unit dims join the last run
    segments[-1][1].extend(range(j, len(dst)))
    return segments


def lower_slice(op: graph.SliceOp) -> Lowered:
    shape = list(tensor_type(op.input).get_shape())
    offsets, sizes = [0] * len(shape), list(shape)
    for axis, start, end in zip(op.axes_values, op.starts_values, op.ends_values):
        offsets[axis], sizes[axis] = start, end - start
    new = tensor.ExtractSliceOp(op.input, offsets, sizes, [1] * len(shape), op.result.type)
    return [new], new.results[0]


def lower_concat(op: graph.ConcatOp) -> Lowered:
    new = tensor.ConcatOp(list(op.inputs), op.axis_value, tensor_type(op.result))
    return [new], new.results[0]


def lower_pad(op: graph.PadOp) -> Lowered:
    result = tensor_type(op.result)
    rank = len(result.get_shape())
    block = Block(arg_types=[IndexType()] * rank)
    value = arith.ConstantOp(scalar_attr(op.value_value, result.element_type))
    block.add_ops([value, tensor.YieldOp(value.result)])
    new = tensor.PadOp(op.input, [], [], Region(block), op.low_values, op.high_values, result)
    return [new], new.results[0]


SHAPE_LOWERINGS = {
    graph.BroadcastOp: lower_broadcast,
    graph.TransposeOp: lower_transpose,
    graph.ReshapeOp: lower_reshape,
    graph.SliceOp: lower_slice,
    graph.ConcatOp: lower_concat,
    graph.PadOp: lower_pad,
}
