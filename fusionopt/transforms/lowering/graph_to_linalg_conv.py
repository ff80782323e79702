"""Lowering of `graph.conv` / `graph.pool` to upstream linalg named ops, as torch-mlir writes
them (`fusionopt.dialects.linalg_conv`):

- explicit padding is a `tensor.pad` of the input (0 for conv and avg pool, -inf for max pool);
- conv, group 1: `linalg.conv_2d_nchw_fchw`; depthwise (group = C = F):
  `linalg.depthwise_conv_2d_nchw_chw` on the filter collapsed to C x kh x kw; other groups:
  `linalg.conv_2d_ngchw_gfchw` between `tensor.expand_shape`s (N x G x C/G x H x W input,
  G x F/G x C/G x kh x kw filter) and a `tensor.collapse_shape` of the result;
- the init is a zero `linalg.fill` (f16/bf16 accumulate in f32 and round once afterwards, as
  `fusionopt.graph_numpy` does);
- max pool: `linalg.pooling_nchw_max` into a -inf fill, the window a `tensor.empty` of the
  kernel's shape; avg pool: `linalg.pooling_nchw_sum` into a zero fill, then one elementwise
  generic divides by the window size (a scalar), or by a constant [OH, OW] count tensor where
  padding is not counted or `ceil_mode` windows run past the end padding;
- 1-D ops run as 2-D ops over a unit H (expand, then collapse the result);
- 3-D convs (video models): `linalg.conv_3d_ncdhw_fcdhw`, depthwise
  `linalg.depthwise_conv_3d_ncdhw_cdhw`, as torch-mlir writes them; the CNN passes, written for
  2-D windows, leave them to IREE's own conv kernels.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import Float64Type, IndexType, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from fusionopt.dialects import graph
from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.linalg_conv import (
    Conv2DNchwFchwOp,
    Conv2DNgchwGfchwOp,
    DepthwiseConv2DNchwChwOp,
    PoolingNchwMaxOp,
    PoolingNchwSumOp,
)
from fusionopt.dialects.linalg_conv_nd import CONV_ND_OPS
from fusionopt.graph_numpy import pad_spatial, window_view
from fusionopt.transforms.lowering.graph_to_linalg_builders import (
    build_generic,
    compute_type,
    empty,
    filled,
    identity,
    scalar_attr,
    tensor_type,
)
from fusionopt.transforms.lowering.graph_to_linalg_compute import cast_result
from fusionopt.transforms.lowering.graph_to_linalg_shape import Lowered, collapse, expand


def _reshaped(ops: list[Operation], value: SSAValue, groups, shape, fold: bool) -> SSAValue:
    ty = TensorType(tensor_type(value).element_type, list(shape))
    ops.append(collapse(value, groups, ty) if fold else expand(value, groups, ty))
    return ops[-1].results[0]


def _pad(ops: list[Operation], value: SSAValue, begin, end, fill: float) -> SSAValue:
    """`tensor.pad` of the two trailing (spatial) dims; nothing when all pads are zero."""
    if not any(begin) and not any(end):
        return value
    source = tensor_type(value)
    shape = source.get_shape()
    low, high = [0, 0, *begin], [0, 0, *end]
    result = TensorType(source.element_type, [d + lo + hi for d, lo, hi in zip(shape, low, high)])
    block = Block(arg_types=[IndexType()] * len(shape))
    constant = arith.ConstantOp(scalar_attr(fill, source.element_type))
    block.add_ops([constant, tensor.YieldOp(constant.result)])
    ops.append(tensor.PadOp(value, [], [], Region(block), low, high, result))
    return ops[-1].results[0]


def _as_2d(ops: list[Operation], value: SSAValue) -> SSAValue:
    """N x C x W -> N x C x 1 x W (1-D ops run as 2-D ones)."""
    n, c, w = tensor_type(value).get_shape()
    return _reshaped(ops, value, [[0], [1], [2, 3]], [n, c, 1, w], fold=False)


def _window_params(op, kernel):
    """kernel, strides, dilations, pads begin / end of `op` as a 2-D op (1-D: unit H)."""
    strides, dilations = list(op.strides_values), list(op.dilations_values)
    begin, end = (list(p) for p in op.pads_begin_end())
    kernel = list(kernel)[-len(strides):]
    if op.spatial_rank == 1:
        return [1, *kernel], [1, *strides], [1, *dilations], [0, *begin], [0, *end]
    return kernel, strides, dilations, begin, end


_CONV_3D = {cls.name: cls for cls in CONV_ND_OPS}
CONV_3D_NAME, DEPTHWISE_3D_NAME = "linalg.conv_3d_ncdhw_fcdhw", "linalg.depthwise_conv_3d_ncdhw_cdhw"


def lower_conv_3d(op: graph.ConvOp) -> Lowered:
    """A plain (group 1) or depthwise 3-D conv; the verifier admits no other grouping."""
    result = tensor_type(op.result)
    ops: list[Operation] = []
    strides, dilations = list(op.strides_values), list(op.dilations_values)
    begin, end = op.pads_begin_end()
    x, w = _pad(ops, op.input, begin, end, 0.0), op.filter
    f, _, *kernel = tensor_type(w).get_shape()
    name = CONV_3D_NAME
    if op.group_value > 1:
        w, name = _reshaped(ops, w, [[0, 1], [2], [3], [4]], [f, *kernel], fold=True), DEPTHWISE_3D_NAME
    ops += filled(result.get_shape(), compute_type(result.element_type), 0)
    ops.append(_CONV_3D[name]([x, w], [ops[-1].results[0]], strides, dilations))
    cast_ops, value = cast_result(ops[-1].results[0], result.element_type)
    return ops + cast_ops, value


def lower_conv(op: graph.ConvOp) -> Lowered:
    if op.spatial_rank == 3:
        return lower_conv_3d(op)
    result = tensor_type(op.result)
    out_shape = list(result.get_shape())
    one_d = len(out_shape) == 3
    ops: list[Operation] = []
    x, w = op.input, op.filter
    if one_d:
        x = _as_2d(ops, x)
        f, cg, k = tensor_type(w).get_shape()
        w = _reshaped(ops, w, [[0], [1], [2, 3]], [f, cg, 1, k], fold=False)
        out_shape = [out_shape[0], out_shape[1], 1, out_shape[2]]
    kernel, strides, dilations, begin, end = _window_params(op, tensor_type(w).get_shape()[2:])
    x = _pad(ops, x, begin, end, 0.0)
    acc = compute_type(result.element_type)
    n, c = tensor_type(x).get_shape()[:2]
    f = tensor_type(w).get_shape()[0]
    g = op.group_value
    if g == 1:
        ops += filled(out_shape, acc, 0)
        ops.append(Conv2DNchwFchwOp([x, w], [ops[-1].results[0]], strides, dilations))
        value = ops[-1].results[0]
    elif g == c and f == c:
        w = _reshaped(ops, w, [[0, 1], [2], [3]], [c, *kernel], fold=True)
        ops += filled(out_shape, acc, 0)
        ops.append(DepthwiseConv2DNchwChwOp([x, w], [ops[-1].results[0]], strides, dilations))
        value = ops[-1].results[0]
    else:
        h, wd = tensor_type(x).get_shape()[2:]
        x = _reshaped(ops, x, [[0], [1, 2], [3], [4]], [n, g, c // g, h, wd], fold=False)
        w = _reshaped(ops, w, [[0, 1], [2], [3], [4]], [g, f // g, c // g, *kernel], fold=False)
        grouped = [out_shape[0], g, f // g, *out_shape[2:]]
        ops += filled(grouped, acc, 0)
        ops.append(Conv2DNgchwGfchwOp([x, w], [ops[-1].results[0]], strides, dilations))
        value = _reshaped(ops, ops[-1].results[0], [[0], [1, 2], [3], [4]], out_shape, fold=True)
    if one_d:
        value = _reshaped(ops, value, [[0], [1], [2, 3]], result.get_shape(), fold=True)
    cast_ops, value = cast_result(value, result.element_type)
    return ops + cast_ops, value


def _divide(ops: list[Operation], value: SSAValue, count: np.ndarray) -> SSAValue:
    """value / count, count a scalar (all equal) or an [OH, OW] constant."""
    ty = tensor_type(value)
    shape = ty.get_shape()
    init = empty(shape, ty.element_type)
    ops.append(init)
    if np.all(count == count.reshape(-1)[0]):
        scalar = float(count.reshape(-1)[0])
        generic = build_generic(
            [value], [identity(4)], init.tensor, identity(4), ["parallel"] * 4,
            lambda b, args: b.add(arith.DivfOp(args[0], b.constant(scalar, ty.element_type))))
    else:
        counts = arith.ConstantOp(numpy_to_dense(
            np.ascontiguousarray(count.astype(np.float64 if isinstance(ty.element_type, Float64Type)
                                              else np.float32)),
            TensorType(ty.element_type, list(count.shape))))
        ops.append(counts)
        spatial = AffineMap(4, 0, (AffineExpr.dimension(2), AffineExpr.dimension(3)))
        generic = build_generic(
            [value, counts.result], [identity(4), spatial], init.tensor, identity(4),
            ["parallel"] * 4, lambda b, args: b.add(arith.DivfOp(args[0], args[1])))
    ops.append(generic)
    return generic.results[0]


def _avg_counts(in_sizes, kernel, strides, dilations, begin, end, extra, out, include_pad):
    """Number of counted positions per output pixel ([OH, OW]), as graph_numpy counts them."""
    ones = np.ones((1, 1, *in_sizes), dtype=np.float64)
    if include_pad:
        counted = pad_spatial(pad_spatial(ones, begin, end, 1), [0, 0], extra, 0)
    else:
        counted = pad_spatial(ones, begin, [e + x for e, x in zip(end, extra)], 0)
    return np.sum(window_view(counted, kernel, strides, dilations, out), axis=(-2, -1))[0, 0]


def lower_pool(op: graph.PoolOp) -> Lowered:
    result = tensor_type(op.result)
    out_shape = list(result.get_shape())
    one_d = len(out_shape) == 3
    ops: list[Operation] = []
    x = op.input
    if one_d:
        x = _as_2d(ops, x)
        out_shape = [out_shape[0], out_shape[1], 1, out_shape[2]]
    kernel, strides, dilations, begin, end = _window_params(op, op.kernel_values)
    in_sizes = tensor_type(x).get_shape()[2:]
    out = out_shape[2:]
    extra = [max(0, (o - 1) * s + (k - 1) * d + 1 - (size + b + e))
             for o, s, k, d, size, b, e in zip(out, strides, kernel, dilations, in_sizes, begin,
                                               end)]
    full_end = [e + x_ for e, x_ in zip(end, extra)]
    acc = compute_type(result.element_type)
    is_max = op.kind_value == "max"
    x = _pad(ops, x, begin, full_end, float("-inf") if is_max else 0.0)
    window = empty(kernel, acc)
    ops.append(window)
    ops += filled(out_shape, acc, float("-inf") if is_max else 0)
    named = PoolingNchwMaxOp if is_max else PoolingNchwSumOp
    ops.append(named([x, window.tensor], [ops[-1].results[0]], strides, dilations))
    value = ops[-1].results[0]
    if not is_max:
        counts = _avg_counts(in_sizes, kernel, strides, dilations, begin, end, extra, out,
                             op.count_include_pad_value)
        value = _divide(ops, value, counts)
    if one_d:
        value = _reshaped(ops, value, [[0], [1], [2, 3]], result.get_shape(), fold=True)
    cast_ops, value = cast_result(value, result.element_type)
    return ops + cast_ops, value


CONV_LOWERINGS = {graph.ConvOp: lower_conv, graph.PoolOp: lower_pool}
