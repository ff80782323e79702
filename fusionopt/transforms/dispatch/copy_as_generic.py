"""Non-contiguous copies as tileable `linalg.generic`s (the body of IREE's "slow copy" dispatches).

A `flow.dispatch.region` holding a bare `tensor.extract_slice`/`insert_slice` has no tileable
root: IREE 3.13's CPU backend rejects it ("write affecting operations on global resources are
restricted to workgroup distributed contexts", measured). Written as a generic over the result
that gathers its elements with `tensor.extract`, the copy tiles like any elementwise op:

- extract_slice: `out[i] = src[offset + i * stride]` (dims a rank-reducing slice drops read
  their offset);
- insert_slice: `out[i] = in_window(i) ? src[(i - offset) / stride] : dest[i]`, the source
  index clamped to 0 outside the window so the gather never reads out of bounds.

Only static offsets/sizes/strides are handled (`rewrite_copy` returns None otherwise).
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import IndexOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap

from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du


def _const(block: Block, value: int) -> SSAValue:
    op = arith.ConstantOp(IntegerAttr(value, IndexType()))
    block.add_op(op)
    return op.result


def _add(block: Block, op: Operation) -> SSAValue:
    block.add_op(op)
    return op.results[0]


def _result_dims_of_source(sizes: list[int], result_shape: tuple[int, ...]) -> list[int | None]:
    """For each source dim, the result dim it maps to (None for dims a rank-reducing slice drops)."""
    if len(sizes) == len(result_shape):
        return list(range(len(sizes)))
    mapping: list[int | None] = []
    next_dim = 0
    for size in sizes:
        keep = next_dim < len(result_shape) and result_shape[next_dim] == size and (
            size != 1 or len(sizes) - len(mapping) <= len(result_shape) - next_dim
        )
        mapping.append(next_dim if keep else None)
        next_dim += 1 if keep else 0
    return mapping


def extract_as_generic(op: Operation) -> GenericOp | None:
    params = du.static_slice_params(op)
    if params is None:
        return None
    offsets, sizes, strides = params
    source, result_type = op.operands[0], op.results[0].type
    dims = _result_dims_of_source(sizes, tuple(result_type.get_shape()))
    element = result_type.get_element_type()
    body = Block(arg_types=[element])
    indices = []
    for offset, stride, dim in zip(offsets, strides, dims):
        if dim is None:
            indices.append(_const(body, offset))
            continue
        i = _add(body, IndexOp(dim))
        scaled = _add(body, arith.MuliOp(i, _const(body, stride)))
        indices.append(_add(body, arith.AddiOp(scaled, _const(body, offset))))
    value = _add(body, tensor.ExtractOp(source, indices, element))
    body.add_op(YieldOp(value))
    return _generic_over(result_type, [], body)


def insert_as_generic(op: Operation) -> GenericOp | None:
    params = du.static_slice_params(op)
    if params is None:
        return None
    offsets, sizes, strides = params
    source, dest = op.operands[0], op.operands[1]
    dims = _result_dims_of_source(sizes, tuple(source.type.get_shape()))
    element = dest.type.get_element_type()
    body = Block(arg_types=[element, element])
    inside: SSAValue | None = None
    source_indices: list[SSAValue] = []
    zero = _const(body, 0)
    for d, (offset, size, stride) in enumerate(zip(offsets, sizes, strides)):
        i = _add(body, IndexOp(d))
        rel = _add(body, arith.SubiOp(i, _const(body, offset)))
        in_dim = _add(body, arith.AndIOp(
            _add(body, arith.CmpiOp(rel, zero, "sge")),
            _add(body, arith.CmpiOp(rel, _const(body, size * stride), "slt")),
        ))
        if stride != 1:
            aligned = _add(body, arith.CmpiOp(_add(body, arith.RemSIOp(rel, _const(body, stride))), zero, "eq"))
            in_dim = _add(body, arith.AndIOp(in_dim, aligned))
            rel = _add(body, arith.DivSIOp(rel, _const(body, stride)))
        inside = in_dim if inside is None else _add(body, arith.AndIOp(inside, in_dim))
        if dims[d] is not None:
            source_indices.append(rel)
    assert inside is not None
    safe = [_add(body, arith.SelectOp(inside, index, zero)) for index in source_indices]
    value = _add(body, tensor.ExtractOp(source, safe, element))
    body.add_op(YieldOp(_add(body, arith.SelectOp(inside, value, body.args[0]))))
    return _generic_over(dest.type, [dest], body)


def _generic_over(result_type: TensorType, inputs: list[SSAValue], body: Block) -> GenericOp:
    rank = len(result_type.get_shape())
    identity = AffineMapAttr(AffineMap.identity(rank))
    empty = tensor.EmptyOp([], result_type)
    generic = GenericOp(
        inputs, [empty.tensor], Region(body), [identity] * (len(inputs) + 1),
        [IteratorTypeAttr.parallel()] * rank, [result_type],
    )
    generic.empty_init = empty  # type: ignore[attr-defined]  # not yet in a block
    return generic


def rewrite_copy(op: Operation) -> list[Operation] | None:
    """[tensor.empty, generic] computing `op` (a static extract/insert_slice), else None."""
    builder = {"tensor.extract_slice": extract_as_generic, "tensor.insert_slice": insert_as_generic}.get(op.name)
    generic = builder(op) if builder else None
    if generic is None:
        return None
    return [generic.empty_init, generic]  # type: ignore[attr-defined]
