"""Recognising decomposed attention in linalg for `linalg-raise-attention`: QK^T (x scale)
(+ mask) -> max / exp / sum / div softmax -> .V, as torch-mlir and our ONNX importer emit it
after unit-reshape and transpose folding (the pass module's docstring has the whole rule; the
single pieces' matchers are in attention_pieces.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from fusionopt.dialects.iree_linalg_ext import classify_dims
from fusionopt.transforms.linalg.attention_casts import compute_ops, uncast, uncast_all
from fusionopt.transforms.linalg.attention_pieces import (
    all_dims,
    body_is,
    division_kind,
    elementwise_rows,
    float_constant,
    is_fill_of,
    is_mul_add_contraction,
    operand_types_fit,
    owner_op,
    payload_ops,
    row_reduction,
    use_count,
)
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import reassociation


# ---- the match ---------------------------------------------------------------------------------


@dataclass
class AttentionMatch:
    qk: Operation
    x: Operation | None  # None: the softmax reads the scores directly
    mx: Operation
    e: Operation
    s: Operation
    p: Operation
    collapse: Operation | None
    pv: Operation
    query: SSAValue
    key: SSAValue
    value: SSAValue
    scale: float
    mask: SSAValue | None
    mask_dims: list[int | None]  # per mask tensor dim: attention dim, or None (unit, dropped)
    maps: dict[str, AffineMap] = field(default_factory=dict)
    nan_guard: bool = False  # the probabilities were select(isnan(p), 0, p) (torch's masked softmax)


def _scale_and_mask(x: Operation, qk_value: SSAValue) -> tuple[float, SSAValue | None] | None:
    """x's body as qk * C + m, m + qk * C, qk * C, C * qk, qk + m, m + qk, or qk itself through
    casts alone (an f16 program's f32 scores rounded to f16 and widened back for the softmax:
    the ONNX MatMul's f16 result, then transformers' `softmax(dtype=float32)`)."""
    block = x.regions[0].block
    ins = du.dps_inputs(x)
    args = block.args[: len(ins)]
    qk_arg = args[list(ins).index(qk_value)]
    other = [a for a, v in zip(args, ins) if v is not qk_value]
    if len(other) > 1:
        return None
    ops = compute_ops(x)
    yielded = uncast(ops[-1].operands[0])
    # constants defined in the body are allowed, nothing else
    compute = [o for o in ops[:-1] if o.name != "arith.constant"]
    scale = 1.0
    mask_arg = None
    if len(compute) == 2 and [o.name for o in compute] == ["arith.mulf", "arith.addf"]:
        mul, add = compute
        if add.results[0] is not yielded or mul.results[0] not in uncast_all(add.operands):
            return None
        mask_arg = [v for v in uncast_all(add.operands) if v is not mul.results[0]]
        scaled = mul
    elif len(compute) == 1 and compute[0].name == "arith.mulf":
        scaled = compute[0]
        if scaled.results[0] is not yielded:
            return None
    elif len(compute) == 1 and compute[0].name == "arith.addf":
        add = compute[0]
        if add.results[0] is not yielded or qk_arg not in uncast_all(add.operands):
            return None
        mask_arg = [v for v in uncast_all(add.operands) if v is not qk_arg]
        scaled = None
    elif not compute and yielded is qk_arg and _rounds_only_to_operand_type(x, qk_value):
        scaled = None
    else:
        return None
    if scaled is not None:
        if qk_arg not in uncast_all(scaled.operands):
            return None
        c_val = [v for v in uncast_all(scaled.operands) if v is not qk_arg]
        c = float_constant(c_val[0]) if len(c_val) == 1 else None
        if c is None:
            return None
        scale = c
    if mask_arg is not None:
        if len(mask_arg) != 1 or not other or mask_arg[0] is not other[0]:
            return None
        return scale, ins[list(args).index(other[0])]
    if other:
        return None
    return scale, None


def _rounds_only_to_operand_type(x: Operation, qk_value: SSAValue) -> bool:
    """Every rounding in x's body is to the element type of the scores' operands (an f16
    program's own rounding, which the raised op skips as it skips the others), none narrower
    (an f32 program's scores rounded to f16 would be a different program)."""
    qk = owner_op(qk_value)
    assert qk is not None
    operand_type = du.dps_inputs(qk)[0].type.get_element_type()  # type: ignore[attr-defined]
    return all(o.results[0].type == operand_type for o in x.regions[0].block.ops if o.name == "arith.truncf")


def _direct_scores_read(e: Operation | None) -> AffineMap | None:
    """The map through which `e` (exp(x - mx)) reads x when x is the QK contraction's result
    itself, used only by the max and by `e` (torch's exported softmax over unscaled scores:
    the ViT's attention, its 1/sqrt(sqrt(d)) factors on Q and K), else None."""
    if e is None or e.name != "linalg.generic" or not du.dps_inputs(e):
        return None
    x_value = du.dps_inputs(e)[0]
    if not is_mul_add_contraction(owner_op(x_value)) or use_count(x_value) != 2:
        return None
    read = du.indexing_maps(e)[0]
    return read if all_dims(read) is not None else None


def _scaled_scores(x_value: SSAValue) -> tuple[Operation, Operation, SSAValue, float, SSAValue | None] | None:
    """x = qk * C (+ mask): (x, qk, qk's value, C, mask), else None."""
    x = owner_op(x_value)
    if x is None or x.name != "linalg.generic" or len(x.results) != 1 or use_count(x_value) != 2:
        return None
    if not du.is_all_parallel(x) or not du.is_identity_map(du.indexing_maps(x)[-1]):
        return None
    qk = qk_value = None
    for v in du.dps_inputs(x):
        cand = owner_op(v)
        if is_mul_add_contraction(cand) and use_count(v) == 1:
            qk, qk_value = cand, v
    if qk is None or (sm := _scale_and_mask(x, qk_value)) is None:
        return None
    return x, qk, qk_value, sm[0], sm[1]


def match_attention(pv: Operation) -> AttentionMatch | None:
    if not is_mul_add_contraction(pv):
        return None
    pv_maps = du.indexing_maps(pv)
    kinds = du.iterator_kinds(pv)
    for p_index in (0, 1):
        found = _match_from(pv, p_index, pv_maps, kinds)
        if found is not None:
            return found
    return None


def _match_from(pv: Operation, p_index: int, pv_maps: list[AffineMap], pv_kinds: list[str]) -> AttentionMatch | None:
    p_value = du.dps_inputs(pv)[p_index]
    v_value = du.dps_inputs(pv)[1 - p_index]
    if use_count(p_value) != 1:
        return None
    collapse = None
    src = owner_op(p_value)
    if src is not None and src.name == "tensor.collapse_shape":
        collapse = src
        p_value = src.operands[0]
        if use_count(p_value) != 1:
            return None
        src = owner_op(p_value)
    p = src
    if p is None or p.name != "linalg.generic" or len(p.results) != 1:
        return None
    t_type = p.results[0].type
    assert isinstance(t_type, TensorType)
    t_shape = list(t_type.get_shape())
    rank = len(t_shape)
    # p = e / s
    e_value, s_value = du.dps_inputs(p) if len(du.dps_inputs(p)) == 2 else (None, None)
    if e_value is None:
        return None
    s = owner_op(s_value)
    kd = row_reduction(s, rank + 0) if s is not None and len(du.dps_inputs(s)) == 1 else None
    if kd is None or not elementwise_rows(p, rank, kd) or (nan_guard := division_kind(p)) is None:
        return None
    # s = sum_kd e
    if du.dps_inputs(s)[0] is not e_value or len(s.results) != 1 or use_count(s.results[0]) != 1:
        return None
    if not body_is(s, ["arith.addf", "linalg.yield"]) or set(uncast_all(compute_ops(s)[0].operands)) != set(s.regions[0].block.args):
        return None
    if not is_fill_of(du.dps_inits(s)[0], lambda c: c == 0.0):
        return None
    # e = exp(x - mx); x may be the scores themselves, read without their unit dims
    e = owner_op(e_value)
    x_read = _direct_scores_read(e)
    if not elementwise_rows(e, rank, kd, x_read) or use_count(e_value) != 2:
        return None
    if not body_is(e, ["arith.subf", "math.exp", "linalg.yield"]):
        return None
    sub, exp, _ = compute_ops(e)
    ea = e.regions[0].block.args
    if uncast_all(sub.operands) != [ea[0], ea[1]] or uncast(exp.operands[0]) is not sub.results[0]:
        return None
    x_value, mx_value = du.dps_inputs(e)
    # mx = max_kd x (first result; other results must be unused)
    mx = owner_op(mx_value)
    if mx is None or row_reduction(mx, rank, x_read) != kd or len(du.dps_inputs(mx)) != 1:
        return None
    if mx.results[0] is not mx_value or use_count(mx_value) != 1 or any(use_count(r) for r in mx.results[1:]):
        return None
    if du.dps_inputs(mx)[0] is not x_value:
        return None
    mb = mx.regions[0].block
    yielded0 = uncast(payload_ops(mx)[-1].operands[0])
    ymax = owner_op(yielded0)
    if ymax is None or ymax.name != "arith.maximumf" or set(uncast_all(ymax.operands)) != {mb.args[0], mb.args[1]}:
        return None
    if not is_fill_of(du.dps_inits(mx)[0], lambda c: c == float("-inf") or c <= -3.4e38):
        return None
    if x_read is not None:  # the softmax reads the scores directly: scale 1, no mask
        x, qk, qk_value, scale, mask = None, owner_op(x_value), x_value, 1.0, None
        a_qk = all_dims(x_read)
    else:
        found = _scaled_scores(x_value)
        if found is None:
            return None
        x, qk, qk_value, scale, mask = found
        x_maps = du.indexing_maps(x)
        x_ins = list(du.dps_inputs(x))
        a_qk = all_dims(x_maps[x_ins.index(qk_value)])
    if a_qk is None or len(set(a_qk)) != len(a_qk):
        return None
    if not operand_types_fit(qk, v_value, pv, x_value):
        return None
    live = sorted(set(a_qk))
    if kd not in live or any(t_shape[d] != 1 for d in range(rank) if d not in live):
        return None
    # attention dims: live T dims first, then k1 dims, then n dims
    att_of_t = {t: i for i, t in enumerate(live)}
    next_dim = len(live)
    # qk contraction space -> attention space
    qk_maps = du.indexing_maps(qk)
    qk_out = all_dims(qk_maps[2])
    qk_kinds = du.iterator_kinds(qk)
    if qk_out is None:
        return None
    c2att: dict[int, int] = {}
    for j, c in enumerate(qk_out):
        c2att[c] = att_of_t[a_qk[j]]
    for c, kind in enumerate(qk_kinds):
        if c not in c2att:
            if kind != "reduction":
                return None
            c2att[c] = next_dim
            next_dim += 1
    if any(qk_kinds[c] == "reduction" for c in qk_out):
        return None
    # P' dims -> T dims
    if collapse is not None:
        groups = reassociation(collapse)
        p_to_t = []
        for g in groups:
            non_unit = [d for d in g if t_shape[d] != 1]
            if len(non_unit) > 1:
                return None
            p_to_t.append((non_unit or g)[0])
    else:
        p_to_t = list(range(rank))
    a_p = all_dims(pv_maps[p_index])
    if a_p is None:
        return None
    e2att: dict[int, int] = {}
    for i, ed in enumerate(a_p):
        t = p_to_t[i]
        if t not in att_of_t:
            return None
        e2att[ed] = att_of_t[t]
    kd_att = att_of_t[kd]
    for ed, kind in enumerate(pv_kinds):
        if (kind == "reduction") != (e2att.get(ed) == kd_att):
            return None  # the second contraction must reduce exactly the softmax dim
        if ed not in e2att:
            e2att[ed] = next_dim
            next_dim += 1

    def remap(m: AffineMap, table: dict[int, int]) -> AffineMap:
        return AffineMap(next_dim, 0, tuple(AffineDimExpr(table[d]) for d in all_dims(m)))  # type: ignore[union-attr]

    qk_in = list(du.dps_inputs(qk))
    m0, m1 = remap(qk_maps[0], c2att), remap(qk_maps[1], c2att)
    dims0 = {e.position for e in m0.results}  # type: ignore[attr-defined]
    dims1 = {e.position for e in m1.results}  # type: ignore[attr-defined]
    if (kd_att in dims0) == (kd_att in dims1):
        return None
    if kd_att in dims1:
        query, key, q_map, k_map = qk_in[0], qk_in[1], m0, m1
    else:
        query, key, q_map, k_map = qk_in[1], qk_in[0], m1, m0
    v_map = remap(pv_maps[1 - p_index], e2att)
    o_map = remap(pv_maps[2], e2att)
    classes = classify_dims(q_map, k_map, v_map, o_map)
    if len(classes) != next_dim or [d for d, c in classes.items() if c == "k2"] != [kd_att]:
        return None
    maps = {"query": q_map, "key": k_map, "value": v_map, "output": o_map}
    mask_dims: list[int | None] = []
    if mask is not None:
        mask_type = mask.type
        if not isinstance(mask_type, TensorType) or mask_type.get_element_type() != t_type.get_element_type():
            return None
        m_map = x_maps[x_ins.index(mask)]
        for expr, size in zip(m_map.results, mask_type.get_shape(), strict=True):
            if isinstance(expr, AffineDimExpr) and expr.position in att_of_t:
                mask_dims.append(att_of_t[expr.position])
            elif size == 1:
                mask_dims.append(None)
            else:
                return None
        kept = [d for d in mask_dims if d is not None]
        if not kept or len(set(kept)) != len(kept) or any(classes[d] not in ("batch", "m", "k2") for d in kept):
            return None
        maps["mask"] = AffineMap(next_dim, 0, tuple(AffineDimExpr(d) for d in kept))
    return AttentionMatch(qk, x, mx, e, s, p, collapse, pv, query, key, v_value, scale, mask, mask_dims, maps, nan_guard)
