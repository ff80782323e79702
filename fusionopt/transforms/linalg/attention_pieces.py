"""The pieces of decomposed attention, one matcher each, for `linalg-raise-attention`
(attention_match.py puts them together): the two mul/add contractions, the softmax's row
reductions and row-wise elementwise ops, its division (torch's NaN-guarded form too), and the
operand types the raised op accepts."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    f32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from fusionopt.transforms.linalg.attention_casts import WIDEN, compute_ops, uncast, uncast_all
from fusionopt.transforms.linalg.attention_guard import is_nan_test
from fusionopt.transforms.common import dispatch_utils as du


def owner_op(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) else None


def use_count(value: SSAValue) -> int:
    return du.use_count(value)


def payload_ops(op: Operation) -> list[Operation]:
    return list(op.regions[0].block.ops)


def float_constant(value: SSAValue) -> float | None:
    op = owner_op(value)
    if op is not None and op.name == "arith.constant":
        attr = op.properties.get("value") or op.attributes.get("value")
        if isinstance(attr, FloatAttr):
            return float(attr.value.data)
    return None


def is_fill_of(value: SSAValue, accept) -> bool:
    op = owner_op(value)
    if op is None or op.name != "linalg.fill":
        return False
    c = float_constant(op.operands[0])
    return c is not None and accept(c)


def all_dims(m: AffineMap) -> list[int] | None:
    if not all(isinstance(e, AffineDimExpr) for e in m.results):
        return None
    return [e.position for e in m.results]  # type: ignore[attr-defined]


def drop_dim_map(rank: int, kd: int) -> AffineMap:
    return AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d != kd))


def is_mul_add_contraction(op: Operation | None) -> bool:
    """A 2-input contraction whose body is exactly out + a * b (named matmuls included)."""
    if op is None or not du.is_contraction(op) or len(du.dps_inputs(op)) != 2 or len(op.results) != 1:
        return False
    if op.name == "linalg.generic":
        ops = compute_ops(op, WIDEN)  # f16 operands widened into an f32 accumulator
        if [o.name for o in ops] != ["arith.mulf", "arith.addf", "linalg.yield"]:
            return False
        a, b, out = op.regions[0].block.args
        mul, add, yld = ops
        if set(uncast_all(mul.operands, WIDEN)) != {a, b} or set(uncast_all(add.operands, WIDEN)) != {out, mul.results[0]}:
            return False
        if uncast(yld.operands[0], WIDEN) is not add.results[0] or mul.results[0].type != out.type:
            return False  # (products rounded below the accumulator's type are another program)
    maps = du.indexing_maps(op)
    if any(all_dims(m) is None for m in maps):
        return False
    return is_fill_of(du.dps_inits(op)[0], lambda c: c == 0.0)


def row_reduction(op: Operation | None, rank: int, in_map: AffineMap | None = None) -> int | None:
    """The single reduced dim `kd` of a generic reading a rank-`rank` input through the identity
    (or `in_map`) and writing (each output) through the identity minus kd; None otherwise."""
    if op is None or op.name != "linalg.generic":
        return None
    kinds = du.iterator_kinds(op)
    reduced = [d for d, k in enumerate(kinds) if k == "reduction"]
    if len(kinds) != rank or len(reduced) != 1:
        return None
    kd = reduced[0]
    maps = du.indexing_maps(op)
    n_in = len(du.dps_inputs(op))
    if not all(du.is_identity_map(m) if in_map is None else m == in_map for m in maps[:n_in]):
        return None
    if not all(m == drop_dim_map(rank, kd) for m in maps[n_in:]):
        return None
    return kd


def elementwise_rows(op: Operation | None, rank: int, kd: int, first_map: AffineMap | None = None) -> bool:
    """A 2-input all-parallel generic: input 0 identity (or `first_map`), input 1 the rows
    (identity minus kd)."""
    if op is None or op.name != "linalg.generic" or len(du.dps_inputs(op)) != 2 or len(op.results) != 1:
        return False
    maps = du.indexing_maps(op)
    return (
        du.is_all_parallel(op)
        and len(maps) == 3
        and (du.is_identity_map(maps[0]) if first_map is None else maps[0] == first_map)
        and maps[1] == drop_dim_map(rank, kd)
        and du.is_identity_map(maps[2])
    )


def body_is(op: Operation, names: list[str]) -> bool:
    return [o.name for o in compute_ops(op)] == names


def division_kind(p: Operation) -> bool | None:
    """p's body e / s: False; torch's NaN-guarded form select(isnan(e / s), 0, e / s): True."""
    ops = compute_ops(p)
    args = p.regions[0].block.args
    if not ops or ops[0].name != "arith.divf" or uncast_all(ops[0].operands) != [args[0], args[1]]:
        return None
    quotient, rest = ops[0].results[0], [o for o in ops[1:] if o.name != "arith.constant"]
    if [o.name for o in rest] == ["linalg.yield"]:
        return False if uncast(rest[0].operands[0]) is quotient else None
    if [o.name for o in rest] not in (["arith.cmpf", "arith.select", "linalg.yield"],
                                      ["arith.cmpf", "arith.select", "arith.select", "linalg.yield"]):
        return None
    select, yielded = rest[-2:]
    guarded = (is_nan_test(select.operands[0], quotient) and uncast(select.operands[2]) is quotient
               and float_constant(select.operands[1]) == 0.0 and yielded.operands[0] is select.results[0])
    return True if guarded else None


def operand_types_fit(qk: Operation, v_value: SSAValue, pv: Operation, x_value: SSAValue) -> bool:
    """Q, K and V of one float type; the scores and the result in it too, or in f32 when it is
    f16 or bf16 (the f32 accumulators of mixed-precision attention)."""
    operand_types = {v.type.get_element_type() for v in (*du.dps_inputs(qk), v_value)}  # type: ignore[attr-defined]
    if len(operand_types) != 1:
        return False
    et = next(iter(operand_types))
    if not isinstance(et, Float16Type | BFloat16Type | Float32Type | Float64Type):
        return False
    allowed = {et, f32} if isinstance(et, Float16Type | BFloat16Type) else {et}
    return all(v.type.get_element_type() in allowed for v in (pv.results[0], x_value))  # type: ignore[attr-defined]
