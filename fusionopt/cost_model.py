"""Per-op cost rules used by `fusion-stats`: element sizes, tensor bytes, FLOPs of one op.

The rules (documented for users in docs/cost-model.md) are deliberately simple and static, so that
a fusion pass changes the figures only by changing *where* values live (kernel boundaries),
never by changing how much arithmetic one op is said to do:

- a `linalg` structured op (generic or named) costs  iteration points x arithmetic body ops;
  named contractions (matmul, batch_matmul, ...) cost 2 per iteration point (one mul, one add);
- `linalg.reduce` iterates over its input, `linalg.map` over its result;
- `graph` elementwise ops cost one per result element, `graph.dot` 2*M*N*K per batch,
  `graph` reductions one per input element, data-movement ops (broadcast, transpose, ...) zero;
- `arith`/`math` ops applied to whole tensors cost one per result element; on scalars zero
  (host-side index/shape math, not device work).

Ops are matched by name (`op.name`) so that this module does not import the `graph`/`flow`
dialect modules: it works on any module those dialects (or none) produced.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    ShapedType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr

# Named linalg ops whose payload is one multiply and one add per iteration point.
CONTRACTION_OPS = frozenset(
    {
        "linalg.matmul",
        "linalg.batch_matmul",
        "linalg.matvec",
        "linalg.vecmat",
        "linalg.batch_matvec",
        "linalg.batch_vecmat",
        "linalg.dot",
        "linalg.batch_reduce_matmul",
        "linalg.matmul_transpose_a",
        "linalg.matmul_transpose_b",
        "linalg.batch_matmul_transpose_a",
        "linalg.batch_matmul_transpose_b",
        # convolutions: 2 * N*F*OH*OW*(C/groups)*KH*KW, the product of their loop ranges
        "linalg.conv_2d_nchw_fchw",
        "linalg.conv_2d_nhwc_hwcf",
        "linalg.conv_2d_nhwc_fhwc",
        "linalg.conv_2d_ngchw_fgchw",
        "linalg.conv_2d_ngchw_gfchw",
        "linalg.depthwise_conv_2d_nchw_chw",
        "linalg.depthwise_conv_2d_nhwc_hwc",
    }
)

GRAPH_ELEMENTWISE_OPS = frozenset(
    "graph." + n
    for n in (
        "add sub mul div max min pow neg abs exp exp2 log sqrt rsqrt recip sin cos tanh "
        "sigmoid relu erf greater equal less where convert"
    ).split()
)
GRAPH_REDUCTION_OPS = frozenset({"graph.reduce_sum", "graph.reduce_max", "graph.reduce_mean"})

# Body ops that are not arithmetic: constants are materialised once, not per element.
_NON_ARITH_BODY_OPS = frozenset({"arith.constant"})


def element_bytes(element_type: Attribute) -> int:
    """Bytes one element occupies in memory (i1 is stored as a byte, like IREE does)."""
    width = getattr(element_type, "bitwidth", None)
    if isinstance(element_type, IndexType):
        return 8
    if width is None:
        # complex<...> and other composite element types: sum of their parts when known.
        inner = getattr(element_type, "element_type", None)
        return 2 * element_bytes(inner) if inner is not None else 4
    return max(1, (int(width) + 7) // 8)


def num_elements(shaped: ShapedType) -> int:
    """Static element count; dynamic dimensions (unsupported by fusionopt) count as 1."""
    return math.prod(max(d, 1) for d in shaped.get_shape())


def is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType)


def tensor_bytes(value: SSAValue) -> int:
    """Bytes of a tensor value; 0 for scalars (they travel as push constants, not memory)."""
    if not is_tensor(value):
        return 0
    ttype = value.type
    assert isinstance(ttype, TensorType)
    return num_elements(ttype) * element_bytes(ttype.get_element_type())


def is_arithmetic_body_op(op: Operation) -> bool:
    """An `arith`/`math` op doing per-element work (index arithmetic is address math)."""
    if not (op.name.startswith("arith.") or op.name.startswith("math.")):
        return False
    if op.name in _NON_ARITH_BODY_OPS:
        return False
    return not any(isinstance(r.type, IndexType) for r in op.results)


def count_arithmetic_ops(region: Region) -> int:
    return sum(1 for op in region.walk() if is_arithmetic_body_op(op))


def _indexing_maps(op: Operation) -> list | None:
    getter = getattr(op, "get_indexing_maps", None)
    maps = getter() if getter is not None else op.attributes.get("indexing_maps")
    if not isinstance(maps, ArrayAttr):
        return None
    return [m.data for m in maps.data if isinstance(m, AffineMapAttr)]


def loop_ranges(op: Operation) -> tuple[int, ...] | None:
    """Static iteration space of a structured op, read off its indexing maps.

    Each loop's range is the size of the first operand dimension indexed by that loop alone
    (the same inference MLIR uses for static shapes). None when the op has no usable maps.
    """
    maps = _indexing_maps(op)
    if not maps or len(maps) != len(op.operands):
        return None
    ranges: dict[int, int] = {}
    for operand, amap in zip(op.operands, maps, strict=True):
        if not isinstance(operand.type, ShapedType):
            continue
        shape = operand.type.get_shape()
        for dim, expr in zip(shape, amap.results, strict=False):
            if isinstance(expr, AffineDimExpr):
                ranges.setdefault(expr.position, dim)
    num_loops = maps[0].num_dims
    if len(ranges) != num_loops:
        return None
    return tuple(max(ranges[i], 1) for i in range(num_loops))


def _result_elements(op: Operation) -> int:
    return sum(num_elements(r.type) for r in op.results if isinstance(r.type, ShapedType))


def _operand_elements(op: Operation, index: int) -> int:
    operand_type = op.operands[index].type
    return num_elements(operand_type) if isinstance(operand_type, ShapedType) else 0


def _contraction_flops(op: Operation) -> int:
    ranges = loop_ranges(op)
    if ranges is not None:
        return 2 * math.prod(ranges)
    # No maps available: out[..., m, n] = sum_k lhs[..., m, k] * rhs[..., k, n].
    lhs_type = op.operands[0].type
    k = lhs_type.get_shape()[-1] if isinstance(lhs_type, ShapedType) else 1
    return 2 * _result_elements(op) * max(k, 1)


def _linalg_flops(op: Operation) -> int:
    if op.name in CONTRACTION_OPS:
        return _contraction_flops(op)
    if not op.regions:
        return 0
    body_ops = count_arithmetic_ops(op.regions[0])
    if body_ops == 0:
        return 0
    if op.name == "linalg.reduce":
        return _operand_elements(op, 0) * body_ops
    ranges = loop_ranges(op)
    points = math.prod(ranges) if ranges is not None else _result_elements(op)
    return points * body_ops


def _graph_flops(op: Operation) -> int:
    if op.name in GRAPH_ELEMENTWISE_OPS:
        return _result_elements(op)
    if op.name in GRAPH_REDUCTION_OPS:
        return _operand_elements(op, 0)
    if op.name == "graph.dot":
        lhs_type = op.operands[0].type
        k = lhs_type.get_shape()[-1] if isinstance(lhs_type, ShapedType) else 1
        return 2 * _result_elements(op) * max(k, 1)
    return 0  # broadcast, reshape, transpose, slice, concat, pad, gather: data movement


def op_flops(op: Operation) -> int:
    """FLOPs of one op (its payload included); 0 for data movement and scalar host math."""
    if op.name.startswith("linalg."):
        return _linalg_flops(op)
    if op.name.startswith("graph."):
        return _graph_flops(op)
    if is_arithmetic_body_op(op) and any(is_tensor(r) for r in op.results):
        return _result_elements(op)
    return 0
