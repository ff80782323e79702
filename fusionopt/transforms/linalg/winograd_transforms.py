"""Winograd F(2x2, 3x3) for a channels-last 3x3 conv: its transform matrices, the constant
filter's transform, and the ops of the three stages (`linalg_conv_winograd.py` rewrites with
them).

Each 2x2 block of outputs (a tile; TH x TW of them) is computed from its 4x4 input window:

    V = B^T d B / 4          (input transform: 16 values a tile and input channel)
    M = sum over c of U * V  (16 matmuls, one per (a, b): TH*TW x C times C x F)
    y = A^T M A              (output transform: 2x2 outputs a tile and filter)
    U = 4 G g G^T            (filter transform, at build time in float64 from the constant g)

B^T = [[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]], G = [[1, 0, 0], [1/2, 1/2, 1/2],
[1/2, -1/2, 1/2], [0, 0, 1]], A^T = [[1, 1, 1, 0], [0, 1, -1, -1]] (Lavin & Gray, "Fast
Algorithms for Convolutional Neural Networks", 2016): 16 multiplies a tile and channel pair
where the direct conv takes 36. The factor 1/4 keeps V within the input's range (a V value sums
four inputs): near the f32 limits the input transform does not overflow where the direct conv
would not; the 4 moves into U exactly (a power of two).

Both transforms are all-parallel generics that IREE vectorises over the channels: the input one
over loops (k, ty, tx, c) reads the 16 strided slices of the padded image a tile's window
covers, each with its coefficient vector over k (B^T[a, i] B^T[b, j] / 4 for k = 4a + b); the
output one over (ty, p, tx, q, f) reads the 16 M_k with their 2x2 coefficients A^T[p, a] A^T[q, b].
Written as reductions over the window instead, IREE left them scalar (6.8 ms against the direct
conv's 2.1 ms at 56x56x64); a multi-result generic writing the 16 V_k into one buffer does not
build (its results become stack buffers).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, math, tensor
from xdsl.dialects.builtin import AffineMapAttr, Float32Type, FloatAttr, TensorType
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.linalg import BatchMatmulOp, GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand

B_T = np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]], np.float64)
G = np.array([[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]], np.float64)
A_T = np.array([[1, 1, 1, 0], [0, 1, -1, -1]], np.float64)
INPUT_SCALE = 0.25  # V's scale (module docstring); U carries its inverse
TAPS = 16  # values of a 4x4 window, and of V / M per tile


# G g G^T for every (c, f) at once: entry (4a + b, 3i + j) is G[a, i] G[b, j], over U's scale
FILTER_TRANSFORM = np.kron(G, G) / INPUT_SCALE


def transformed_filter(hwcf: np.ndarray) -> np.ndarray:
    """U for a 3 x 3 x C x F filter, as 16 x C x F (k = 4a + b), computed in float64 (one 16 x 9
    product over the taps: 3x faster than two contractions over a ResNet's filters, the same
    float32 values)."""
    channels, filters = hwcf.shape[2:]
    taps = hwcf.reshape(9, channels * filters).astype(np.float64)
    return (FILTER_TRANSFORM @ taps).astype(np.float32).reshape(TAPS, channels, filters)


def input_coefficients() -> np.ndarray:
    """16 x 16: row 4i + j holds, over k = 4a + b, the weight of window value (i, j) in V_k."""
    return (np.einsum("ai,bj->ijab", B_T, B_T) * INPUT_SCALE).reshape(TAPS, TAPS)


def output_coefficients() -> np.ndarray:
    """16 x 2 x 2: entry k = 4a + b holds, over (p, q), the weight of M_k in output (p, q)."""
    return np.einsum("pa,qb->abpq", A_T, A_T).reshape(TAPS, 2, 2)


def f32_tensor(shape: list[int]) -> TensorType:
    return TensorType(Float32Type(), shape)


def constant(array: np.ndarray) -> arith.ConstantOp:
    return arith.ConstantOp(numpy_to_dense(np.ascontiguousarray(array, np.float32), f32_tensor(list(array.shape))))


def rows_of(value: SSAValue, shape: list[int]) -> list[Operation]:
    """Each row r of `value` (R x shape) as its own `shape` tensor (rank-reduced slices)."""
    full = value.type.get_shape()  # type: ignore[attr-defined]
    zeros = [0] * len(shape)
    return [tensor.ExtractSliceOp(value, [r, *zeros], [1, *shape], [1] * len(full), f32_tensor(shape))
            for r in range(full[0])]


def dot_body(terms: int) -> Region:
    """(v_0 .. v_T-1, c_0 .. c_T-1, out) -> fma(v_T-1, c_T-1, ... v_0 * c_0); `out` unread."""
    block = Block(arg_types=[Float32Type()] * (2 * terms + 1))
    values, weights = block.args[:terms], block.args[terms:2 * terms]
    total = arith.MulfOp(values[0], weights[0])
    block.add_op(total)
    for value, weight in zip(values[1:], weights[1:]):
        total = math.FmaOp(value, weight, total.results[0])
        block.add_op(total)
    block.add_op(YieldOp(total.results[0]))
    return Region(block)


def parallel_generic(inputs: list[SSAValue], maps: list[AffineMap], result: TensorType) -> list[Operation]:
    """An empty `result` and the all-parallel dot generic over `inputs` (values, then weights)
    writing it with an identity map."""
    empty = tensor.EmptyOp([], result)
    rank = len(result.get_shape())
    all_maps = [*maps, AffineMap.identity(rank)]
    generic = GenericOp(inputs, [empty.tensor], dot_body(len(inputs) // 2), [AffineMapAttr(m) for m in all_maps],
                        [IteratorTypeAttr.parallel()] * rank, [result])
    return [empty, generic]


def pixel_shape(batch: int, tiles: tuple[int, int]) -> list[int]:
    """The tile dims a transform iterates: TH x TW at batch 1 (IREE 3.13 loads a unit-batch slice
    rank-reduced and expands it again, which its tiling does not see through), else N x TH x TW."""
    return list(tiles) if batch == 1 else [batch, *tiles]


def window_slices(image: SSAValue, tiles: tuple[int, int]) -> list[Operation]:
    """For each window position (i, j), the (N x) TH x TW x C slice of the padded N x HP x WP x C
    `image` it reads in every tile: from (i, j), stride 2."""
    batch, _, _, channels = image.type.get_shape()  # type: ignore[attr-defined]
    th, tw = tiles
    result = f32_tensor([*pixel_shape(batch, tiles), channels])
    return [tensor.ExtractSliceOp(image, [0, i, j, 0], [batch, th, tw, channels], [1, 2, 2, 1], result)
            for i in range(4) for j in range(4)]


def input_transform(image: SSAValue, tiles: tuple[int, int]) -> list[Operation]:
    """V as 16 x (N x) TH x TW x C over loops (k, [n,] ty, tx, c); the generic last."""
    batch, _, _, channels = image.type.get_shape()  # type: ignore[attr-defined]
    pixels = pixel_shape(batch, tiles)
    rank = len(pixels) + 2
    slices = window_slices(image, tiles)
    table = constant(input_coefficients())
    weights = rows_of(table.result, [TAPS])
    inputs = [s.results[0] for s in slices] + [w.results[0] for w in weights]
    return [*slices, table, *weights, *parallel_generic(inputs, window_maps(rank), f32_tensor([TAPS, *pixels, channels]))]


def window_maps(rank: int) -> list[AffineMap]:
    """The input transform's reads over loops (k, [n,] ty, tx, c): a slice's ([n,] ty, tx, c) and
    a coefficient vector's (k)."""
    dims = [AffineDimExpr(i) for i in range(rank)]
    return [AffineMap(rank, 0, tuple(dims[1:]))] * TAPS + [AffineMap(rank, 0, (dims[0],))] * TAPS


def transform_maps(op: Operation) -> list[AffineMap] | None:
    """The indexing maps of a one-result generic over 32 inputs (a transform's 16 values and 16
    weights) whose loops are all parallel, else None."""
    if not isinstance(op, GenericOp) or len(op.inputs) != 2 * TAPS or len(op.outputs) != 1 or not du.is_all_parallel(op):
        return None
    return [m.data for m in op.indexing_maps.data]


def is_input_transform(op: Operation) -> bool:
    """`op` is an input transform's generic (`input_transform`): loops (k, [n,] ty, tx, c), 16
    slices read ([n,] ty, tx, c) and 16 coefficient vectors read (k), a 16 x ... result."""
    maps = transform_maps(op)
    if maps is None or maps[-1].num_dims not in (4, 5) or op.results[0].type.get_shape()[0] != TAPS:  # type: ignore[attr-defined]
        return False
    rank = maps[-1].num_dims
    return maps == [*window_maps(rank), AffineMap.identity(rank)]


def tile_products(transformed: SSAValue, filters: np.ndarray) -> list[Operation]:
    """M = V x U per k: 16 x (N x) TH x TW x F, the batch matmul over the tiles flattened; last."""
    shape = list(transformed.type.get_shape())  # type: ignore[attr-defined]
    pixels, channels, count = shape[1:-1], shape[-1], filters.shape[-1]
    groups = [[0], list(range(1, len(shape) - 1)), [len(shape) - 1]]
    tiles = int(np.prod(pixels))
    flat = collapse(transformed, groups, f32_tensor([TAPS, tiles, channels]))
    weights = constant(filters)
    product_type = f32_tensor([TAPS, tiles, count])
    zero = arith.ConstantOp(FloatAttr(0.0, Float32Type()))
    empty = tensor.EmptyOp([], product_type)
    fill = FillOp([zero.result], [empty.tensor], [product_type])
    matmul = BatchMatmulOp([flat.results[0], weights.result], [fill.results[0]], [product_type])
    tiled = expand(matmul.results[0], groups, f32_tensor([TAPS, *pixels, count]))
    return [flat, weights, zero, empty, fill, matmul, tiled]


def block_maps(batched: bool) -> tuple[list[AffineMap], int]:
    """The output transform's reads over loops ([n,] ty, p, tx, q, f): a product's (n, ty, tx, f)
    and a weight's (p, q); and the loop count."""
    rank = 6 if batched else 5
    dims = [AffineDimExpr(i) for i in range(rank)]
    *lead, ty, p, tx, q, f = dims
    return [AffineMap(rank, 0, (*lead, ty, tx, f))] * TAPS + [AffineMap(rank, 0, (p, q))] * TAPS, rank


def output_transform(products: SSAValue) -> list[Operation]:
    """y as (N x) TH x 2 x TW x 2 x F over loops ([n,] ty, p, tx, q, f); the generic last."""
    shape = list(products.type.get_shape())  # type: ignore[attr-defined]
    *lead, th, tw, count = shape[1:]
    blocks = rows_of(products, shape[1:])
    table = constant(output_coefficients())
    weights = rows_of(table.result, [2, 2])
    maps, _ = block_maps(bool(lead))
    inputs = [b.results[0] for b in blocks] + [w.results[0] for w in weights]
    return [*blocks, table, *weights, *parallel_generic(inputs, maps, f32_tensor([*lead, th, 2, tw, 2, count]))]


def is_output_transform(op: Operation) -> bool:
    """`op` is an output transform's generic (`output_transform`): loops ([n,] ty, p, tx, q, f),
    all parallel, 16 products read ([n,] ty, tx, f) and 16 2x2 weights read (p, q)."""
    maps = transform_maps(op)
    if maps is None or maps[-1].num_dims not in (5, 6):
        return False
    expected, rank = block_maps(maps[-1].num_dims == 6)
    return maps == [*expected, AffineMap.identity(rank)]


def conv_output(blocks: SSAValue, height: int, width: int) -> list[Operation]:
    """The (N x) TH x 2 x TW x 2 x F blocks as the conv's N x H x W x F result (a slice drops the
    last tile's row / column where H / W is odd); the result last."""
    *lead, th, _, tw, _, count = blocks.type.get_shape()  # type: ignore[attr-defined]
    n = len(lead)
    groups = [[0]] * n + [[n, n + 1], [n + 2, n + 3], [n + 4]]
    ops: list[Operation] = [collapse(blocks, groups, f32_tensor([*lead, 2 * th, 2 * tw, count]))]
    if (height, width) != (2 * th, 2 * tw):
        ops.append(tensor.ExtractSliceOp(ops[-1].results[0], [0] * (n + 3), [*lead, height, width, count],
                                         [1] * (n + 3), f32_tensor([*lead, height, width, count])))
    if not lead:
        ops.append(expand(ops[-1].results[0], [[0, 1], [2], [3]], f32_tensor([1, height, width, count])))
    return ops
