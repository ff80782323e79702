"""`linalg-raise-attention`: decomposed attention in linalg -> one `iree_linalg_ext.attention`.

Recognises, as torch-mlir and our ONNX importer emit it after `linalg-fold-unit-reshapes`,
`linalg-fold-transpose-into-matmul` and `linalg-fuse-elementwise` (bert_mini, gpt2_mini):

    qk  = contraction(Q, K)                      (mulf/addf body, zero-filled init; any maps)
    x   = elementwise(qk[, mask])                qk * C + mask | qk * C | qk + mask
    mx  = max-reduction of x over one dim kd     (maximumf; extra unused argmax results allowed)
    e   = exp(x - mx)
    s   = sum-reduction of e over kd
    p   = e / s                                  (optionally through a unit-dim collapse_shape)
    out = contraction(p, V) reducing exactly kd  (zero-filled init)

and replaces it with one `iree_linalg_ext.attention` (IREE 3.13 syntax, dialects/iree_linalg_ext.py)
whose maps are the composed ones (Q, K, V read where they are: no transposes), with scale C
(1.0 without a multiply) and the mask as the optional operand (unit dims dropped by a
`tensor.collapse_shape`). `form-dispatch-regions` makes it a root (one dispatch).
It does not raise when any intermediate (scores, max, exponentials, sums, probabilities) has
another user, when the softmax is not over the dim that the second contraction reduces, or when
the two contractions or the softmax pieces do not match exactly (e.g. a `divf` scale).

Numerics: IREE computes `exp2` on scores and mask scaled by log2 e (dialect docstring), so a
finite mask value below -FLT_MAX / log2 e overflows to -inf there; a row masked only with
-FLT_MAX (bert's padding mask, gpt2's causal mask constants) would become NaN instead of the
uniform row the decomposed form gives. The pass therefore passes the mask through a clamp of
its finite values to [-max/4, max/4] of the float type (-inf, +inf and NaN kept): exact unless
two different mask values beyond 8.5e37 compete in one row.

Not in `dispatch-creation` (opt-in): measured slower on CPU, on the kernel and on whole models.
IREE 3.13 llvm-cpu, `--iree-llvmcpu-target-cpu=host`, `--device=local-sync`:
- bert_mini's attention core (2 heads, 64x64, head dim 64, additive [64] mask), 7 interleaved
  rounds of 200 calls: decomposed as `dispatch-creation` forms it (4 dispatches) 31-34 us per
  call; one `iree_linalg_ext.attention` (1 dispatch) 606-649 us. Without mask, or with Q/K/V
  contiguous as [2,64,64]: 612 us. IREE's CPU strategy (LinalgExtTileAndVectorize) tiles the
  online attention one query row at a time (`vector_common_parallel = [1, 1, 16, 0, 0]`).
- Whole models, `python bench/iree_runtime.py --models bert_mini,gpt2_mini --variants
  iree-default,ours,ours-attention,aa --rounds 15 --iterations 50 --families
  random,constant,mask` (`ours-attention` = dispatch-creation with this pass after
  linalg-merge-sibling-reductions, one interleaved run): median (min) ms
  bert_mini ours 0.710 (0.603) vs ours-attention 1.159 (1.088), dispatches 27 -> 21;
  gpt2_mini ours 0.734 (0.569) vs ours-attention 1.385 (1.042), dispatches 22 -> 16;
  IREE default 0.710 (0.621) / 0.694 (0.607); outputs agree on all three families.
Both forms build for CUDA (sm_80); GPU timings pending (no GPU in this session).

Exactness limit (inherent in IREE's exp2 form, so also in our interpreter of the op): a scaled
score above FLT_MAX / log2 e (~2.4e38) overflows in the attention op where the decomposed form
is still finite (the `extreme` input family with overflowing dot products shows it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    DenseIntOrFPElementsAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt.dialects.iree_linalg_ext import AttentionOp, classify_dims
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du

# ---- small matchers ---------------------------------------------------------------------------


def _owner(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) else None


def _uses(value: SSAValue) -> int:
    return du.use_count(value)


def _body(op: Operation) -> list[Operation]:
    return list(op.regions[0].block.ops)


def _float_constant(value: SSAValue) -> float | None:
    op = _owner(value)
    if op is not None and op.name == "arith.constant":
        attr = op.properties.get("value") or op.attributes.get("value")
        if isinstance(attr, FloatAttr):
            return float(attr.value.data)
    return None


def _is_fill_of(value: SSAValue, accept) -> bool:
    op = _owner(value)
    if op is None or op.name != "linalg.fill":
        return False
    c = _float_constant(op.operands[0])
    return c is not None and accept(c)


def _all_dims(m: AffineMap) -> list[int] | None:
    if not all(isinstance(e, AffineDimExpr) for e in m.results):
        return None
    return [e.position for e in m.results]  # type: ignore[attr-defined]


def _drop_dim_map(rank: int, kd: int) -> AffineMap:
    return AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d != kd))


def _is_mul_add_contraction(op: Operation | None) -> bool:
    """A 2-input contraction whose body is exactly out + a * b (named matmuls included)."""
    if op is None or not du.is_contraction(op) or len(du.dps_inputs(op)) != 2 or len(op.results) != 1:
        return False
    if op.name == "linalg.generic":
        ops = _body(op)
        if [o.name for o in ops] != ["arith.mulf", "arith.addf", "linalg.yield"]:
            return False
        a, b, out = op.regions[0].block.args
        mul, add, yld = ops
        if set(mul.operands) != {a, b} or set(add.operands) != {out, mul.results[0]}:
            return False
        if yld.operands[0] is not add.results[0]:
            return False
    maps = du.indexing_maps(op)
    if any(_all_dims(m) is None for m in maps):
        return False
    return _is_fill_of(du.dps_inits(op)[0], lambda c: c == 0.0)


def _row_reduction(op: Operation | None, rank: int) -> int | None:
    """The single reduced dim `kd` of a generic reading a rank-`rank` input through the identity
    and writing (each output) through the identity minus kd; None otherwise."""
    if op is None or op.name != "linalg.generic":
        return None
    kinds = du.iterator_kinds(op)
    reduced = [d for d, k in enumerate(kinds) if k == "reduction"]
    if len(kinds) != rank or len(reduced) != 1:
        return None
    kd = reduced[0]
    maps = du.indexing_maps(op)
    n_in = len(du.dps_inputs(op))
    if not all(du.is_identity_map(m) for m in maps[:n_in]):
        return None
    if not all(m == _drop_dim_map(rank, kd) for m in maps[n_in:]):
        return None
    return kd


def _elementwise_rows(op: Operation | None, rank: int, kd: int) -> bool:
    """A 2-input all-parallel generic: input 0 identity, input 1 the rows (identity minus kd)."""
    if op is None or op.name != "linalg.generic" or len(du.dps_inputs(op)) != 2 or len(op.results) != 1:
        return False
    maps = du.indexing_maps(op)
    return (
        du.is_all_parallel(op)
        and len(maps) == 3
        and du.is_identity_map(maps[0])
        and maps[1] == _drop_dim_map(rank, kd)
        and du.is_identity_map(maps[2])
    )


def _body_is(op: Operation, names: list[str]) -> bool:
    return [o.name for o in _body(op)] == names


# ---- the match ---------------------------------------------------------------------------------


@dataclass
class AttentionMatch:
    qk: Operation
    x: Operation
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


def _scale_and_mask(x: Operation, qk_value: SSAValue) -> tuple[float, SSAValue | None] | None:
    """x's body as qk * C + m, m + qk * C, qk * C, C * qk, qk + m or m + qk."""
    block = x.regions[0].block
    ins = du.dps_inputs(x)
    args = block.args[: len(ins)]
    qk_arg = args[list(ins).index(qk_value)]
    other = [a for a, v in zip(args, ins) if v is not qk_value]
    if len(other) > 1:
        return None
    ops = _body(x)
    yielded = ops[-1].operands[0]
    # constants defined in the body are allowed, nothing else
    compute = [o for o in ops[:-1] if o.name != "arith.constant"]
    scale = 1.0
    mask_arg = None
    if len(compute) == 2 and [o.name for o in compute] == ["arith.mulf", "arith.addf"]:
        mul, add = compute
        if add.results[0] is not yielded or mul.results[0] not in add.operands:
            return None
        mask_arg = [v for v in add.operands if v is not mul.results[0]]
        scaled = mul
    elif len(compute) == 1 and compute[0].name == "arith.mulf":
        scaled = compute[0]
        if scaled.results[0] is not yielded:
            return None
    elif len(compute) == 1 and compute[0].name == "arith.addf":
        add = compute[0]
        if add.results[0] is not yielded or qk_arg not in add.operands:
            return None
        mask_arg = [v for v in add.operands if v is not qk_arg]
        scaled = None
    else:
        return None
    if scaled is not None:
        if qk_arg not in scaled.operands:
            return None
        c_val = [v for v in scaled.operands if v is not qk_arg]
        c = _float_constant(c_val[0]) if len(c_val) == 1 else None
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


def match_attention(pv: Operation) -> AttentionMatch | None:
    if not _is_mul_add_contraction(pv):
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
    if _uses(p_value) != 1:
        return None
    collapse = None
    src = _owner(p_value)
    if src is not None and src.name == "tensor.collapse_shape":
        collapse = src
        p_value = src.operands[0]
        if _uses(p_value) != 1:
            return None
        src = _owner(p_value)
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
    s = _owner(s_value)
    kd = _row_reduction(s, rank + 0) if s is not None and len(du.dps_inputs(s)) == 1 else None
    if kd is None or not _elementwise_rows(p, rank, kd) or not _body_is(p, ["arith.divf", "linalg.yield"]):
        return None
    div = _body(p)[0]
    pa = p.regions[0].block.args
    if list(div.operands) != [pa[0], pa[1]]:
        return None
    # s = sum_kd e
    if du.dps_inputs(s)[0] is not e_value or len(s.results) != 1 or _uses(s.results[0]) != 1:
        return None
    if not _body_is(s, ["arith.addf", "linalg.yield"]) or set(_body(s)[0].operands) != set(s.regions[0].block.args):
        return None
    if not _is_fill_of(du.dps_inits(s)[0], lambda c: c == 0.0):
        return None
    # e = exp(x - mx)
    e = _owner(e_value)
    if not _elementwise_rows(e, rank, kd) or _uses(e_value) != 2:
        return None
    if not _body_is(e, ["arith.subf", "math.exp", "linalg.yield"]):
        return None
    sub, exp, _ = _body(e)
    ea = e.regions[0].block.args
    if list(sub.operands) != [ea[0], ea[1]] or exp.operands[0] is not sub.results[0]:
        return None
    x_value, mx_value = du.dps_inputs(e)
    # mx = max_kd x (first result; other results must be unused)
    mx = _owner(mx_value)
    if mx is None or _row_reduction(mx, rank) != kd or len(du.dps_inputs(mx)) != 1:
        return None
    if mx.results[0] is not mx_value or _uses(mx_value) != 1 or any(_uses(r) for r in mx.results[1:]):
        return None
    if du.dps_inputs(mx)[0] is not x_value:
        return None
    mb = mx.regions[0].block
    yielded0 = _body(mx)[-1].operands[0]
    ymax = _owner(yielded0)
    if ymax is None or ymax.name != "arith.maximumf" or set(ymax.operands) != {mb.args[0], mb.args[1]}:
        return None
    if not _is_fill_of(du.dps_inits(mx)[0], lambda c: c == float("-inf") or c <= -3.4e38):
        return None
    # x = qk * C (+ mask)
    x = _owner(x_value)
    if x is None or x.name != "linalg.generic" or len(x.results) != 1 or _uses(x_value) != 2:
        return None
    if not du.is_all_parallel(x) or not du.is_identity_map(du.indexing_maps(x)[-1]):
        return None
    qk = None
    for v in du.dps_inputs(x):
        cand = _owner(v)
        if _is_mul_add_contraction(cand) and _uses(v) == 1:
            qk = cand
            qk_value = v
    if qk is None:
        return None
    sm = _scale_and_mask(x, qk_value)
    if sm is None:
        return None
    scale, mask = sm
    x_maps = du.indexing_maps(x)
    x_ins = list(du.dps_inputs(x))
    a_qk = _all_dims(x_maps[x_ins.index(qk_value)])
    if a_qk is None or len(set(a_qk)) != len(a_qk):
        return None
    float_types = {v.type.get_element_type() for v in (*du.dps_inputs(qk), v_value, pv.results[0], x_value)}  # type: ignore[attr-defined]
    if len(float_types) != 1 or not isinstance(next(iter(float_types)), Float16Type | Float32Type | Float64Type):
        return None
    live = sorted(set(a_qk))
    if kd not in live or any(t_shape[d] != 1 for d in range(rank) if d not in live):
        return None
    # attention dims: live T dims first, then k1 dims, then n dims
    att_of_t = {t: i for i, t in enumerate(live)}
    next_dim = len(live)
    # qk contraction space -> attention space
    qk_maps = du.indexing_maps(qk)
    qk_out = _all_dims(qk_maps[2])
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
        groups = [[int(i.value.data) for i in g.data] for g in collapse.properties["reassociation"].data]
        p_to_t = []
        for g in groups:
            non_unit = [d for d in g if t_shape[d] != 1]
            if len(non_unit) > 1:
                return None
            p_to_t.append((non_unit or g)[0])
    else:
        p_to_t = list(range(rank))
    a_p = _all_dims(pv_maps[p_index])
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
        return AffineMap(next_dim, 0, tuple(AffineDimExpr(table[d]) for d in _all_dims(m)))  # type: ignore[union-attr]

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
    return AttentionMatch(qk, x, mx, e, s, p, collapse, pv, query, key, v_value, scale, mask, mask_dims, maps)


# ---- the rewrite -------------------------------------------------------------------------------


def _mask_limit(et) -> float:
    return float(np.finfo({16: np.float16, 32: np.float32, 64: np.float64}[et.bitwidth]).max) / 4


def _in_range(c: float, limit: float) -> bool:
    return bool(np.isinf(c) or np.isnan(c) or -limit <= c <= limit)


def _clamped(c: float, limit: float) -> float:
    return c if _in_range(c, limit) else float(np.clip(c, -limit, limit))


def _insert_after_definition(value: SSAValue, ops: list[Operation], rewriter: Rewriter) -> None:
    owner = _owner(value)
    if owner is not None:
        rewriter.insert_op(ops, InsertPoint.after(owner))
    else:
        rewriter.insert_op(ops, InsertPoint.at_start(value.owner))  # type: ignore[arg-type]


def _yielded_constants(op: Operation) -> list[Operation] | None:
    """The arith.constant ops a single-result parallel generic can yield (directly or through
    selects), when those are the only values it yields; None otherwise."""
    if op.name != "linalg.generic" or len(op.results) != 1 or not du.is_all_parallel(op):
        return None
    leaves: list[Operation] = []
    todo = [_body(op)[-1].operands[0]]
    while todo:
        v = todo.pop()
        d = _owner(v)
        if d is not None and d.name == "arith.constant" and _float_constant(v) is not None:
            leaves.append(d)
        elif d is not None and d.name == "arith.select" and d.parent is op.regions[0].block:
            todo += [d.operands[1], d.operands[2]]
        else:
            return None
    return leaves


def safe_mask(mask: SSAValue, rewriter: Rewriter, memo: dict[SSAValue, SSAValue]) -> SSAValue:
    """`mask` with finite values clamped to [-max/4, max/4] of its float type, so that IREE's
    `mask * log2 e` cannot overflow (-inf, +inf and NaN kept). Constants are folded; a generic
    that yields only constants (bert's `select(keep, 0, -FLT_MAX)`) is cloned with clamped
    constants; anything else goes through a clamping generic. One result per mask value."""
    if mask in memo:
        return memo[mask]
    mtype = mask.type
    assert isinstance(mtype, TensorType)
    et = mtype.get_element_type()
    limit = _mask_limit(et)
    owner = _owner(mask)
    result: SSAValue | None = None
    if owner is not None and owner.name == "arith.constant":
        attr = owner.properties.get("value") or owner.attributes.get("value")
        if isinstance(attr, DenseIntOrFPElementsAttr):
            values = [float(x) for x in attr.get_values()]
            if all(_in_range(c, limit) for c in values):
                result = mask
            else:
                clamped = [_clamped(c, limit) for c in values]
                new = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(mtype, clamped))
                _insert_after_definition(mask, [new], rewriter)
                result = new.result
    elif owner is not None and (leaves := _yielded_constants(owner)) is not None:
        if all(_in_range(_float_constant(c.result), limit) for c in leaves):  # type: ignore[arg-type]
            result = mask
        else:
            clone = owner.clone()
            body_map = dict(zip(owner.regions[0].block.walk(), clone.regions[0].block.walk(), strict=True))
            for leaf in leaves:
                original = _float_constant(leaf.result)
                if _in_range(original, limit):  # type: ignore[arg-type]
                    continue
                fixed = arith.ConstantOp(FloatAttr(_clamped(original, limit), et))  # type: ignore[arg-type]
                target = body_map.get(leaf)
                if target is not None:  # defined in the body: replace there
                    rewriter.insert_op(fixed, InsertPoint.before(target))
                    target.results[0].replace_all_uses_with(fixed.result)
                    rewriter.erase_op(target)
                else:  # captured from above: re-point the clone's uses
                    clone_block = clone.regions[0].block
                    rewriter.insert_op(fixed, InsertPoint.at_start(clone_block))
                    leaf.result.replace_uses_with_if(
                        fixed.result, lambda use: du.is_inside(use.operation, clone)
                    )
            _insert_after_definition(mask, [clone], rewriter)
            result = clone.results[0]
    if result is None:
        rank = len(mtype.get_shape())
        empty = tensor.EmptyOp([], mtype)
        body = Block(arg_types=[et, et])
        m = body.args[0]
        lo = arith.ConstantOp(FloatAttr(-limit, et))
        hi = arith.ConstantOp(FloatAttr(limit, et))
        ninf = arith.ConstantOp(FloatAttr(float("-inf"), et))
        pinf = arith.ConstantOp(FloatAttr(float("inf"), et))
        below = arith.CmpfOp(m, lo.result, "olt")
        not_ninf = arith.CmpfOp(m, ninf.result, "one")
        low = arith.AndIOp(below.result, not_ninf.result)
        above = arith.CmpfOp(m, hi.result, "ogt")
        not_pinf = arith.CmpfOp(m, pinf.result, "one")
        high = arith.AndIOp(above.result, not_pinf.result)
        sel_hi = arith.SelectOp(high.result, hi.result, m)
        sel_lo = arith.SelectOp(low.result, lo.result, sel_hi.result)
        body.add_ops([lo, hi, ninf, pinf, below, not_ninf, low, above, not_pinf, high, sel_hi, sel_lo, YieldOp(sel_lo.result)])
        identity = AffineMapAttr(AffineMap.identity(rank))
        clamp = GenericOp([mask], [empty.tensor], Region(body), [identity, identity], [IteratorTypeAttr.parallel()] * rank, [mtype])
        _insert_after_definition(mask, [empty, clamp], rewriter)
        result = clamp.results[0]
    memo[mask] = result
    return result


def _transpose_consumer(value: SSAValue) -> Operation | None:
    """The only user of `value` when it is a pure copy generic (a transpose, maybe adding unit
    dims) writing through the identity."""
    if _uses(value) != 1:
        return None
    user = next(iter(value.uses)).operation
    if user.name != "linalg.generic" or len(du.dps_inputs(user)) != 1 or not du.is_all_parallel(user):
        return None
    ops = _body(user)
    if len(ops) != 1 or ops[0].operands[0] is not user.regions[0].block.args[0]:
        return None
    maps = du.indexing_maps(user)
    ins, outs = _all_dims(maps[0]), _all_dims(maps[1])
    if ins is None or outs is None or len(set(outs)) != len(outs) or len(set(ins)) != len(ins):
        return None
    shape = user.results[0].type.get_shape()
    if set(ins) - set(outs) or any(shape[j] != 1 for j, loop in enumerate(outs) if loop not in ins):
        return None
    return user


def rewrite(match: AttentionMatch, memo: dict[SSAValue, SSAValue]) -> AttentionOp:
    rewriter = Rewriter()
    pv = match.pv
    at = InsertPoint.before(pv)
    mask = match.mask
    if mask is not None:
        mask = safe_mask(mask, rewriter, memo)
        mtype = mask.type
        assert isinstance(mtype, TensorType)
        shape = mtype.get_shape()
        kept = [i for i, d in enumerate(match.mask_dims) if d is not None]
        if len(kept) != len(shape):
            groups: list[list[int]] = [[] for _ in kept]
            for dim in range(len(shape)):
                owner = max((i for i, k in enumerate(kept) if k <= dim), default=0)
                groups[owner].append(dim)
            reduced = TensorType(mtype.get_element_type(), [shape[i] for i in kept])
            collapse = tensor.CollapseShapeOp(
                operands=[mask],
                result_types=[reduced],
                properties={"reassociation": ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in g]) for g in groups])},
            )
            rewriter.insert_op(collapse, at)
            mask = collapse.results[0]
    out_type = pv.results[0].type
    assert isinstance(out_type, TensorType)
    et = out_type.get_element_type()
    m = dict(match.maps)
    # A transpose after the second contraction becomes the attention's output map (IREE's
    # attention writes any projected permutation), so no copy is left behind.
    transpose = _transpose_consumer(pv.results[0])
    expand_groups: list[list[int]] | None = None
    if transpose is not None:
        t_in = _all_dims(du.indexing_maps(transpose)[0])
        t_out = _all_dims(du.indexing_maps(transpose)[1])
        full = transpose.results[0].type
        assert t_in is not None and t_out is not None and isinstance(full, TensorType)
        out_att = [e.position for e in m["output"].results]  # type: ignore[attr-defined]
        kept = [j for j in range(len(full.get_shape())) if t_out[j] in t_in]
        m["output"] = AffineMap(
            m["output"].num_dims, 0, tuple(AffineDimExpr(out_att[t_in.index(t_out[j])]) for j in kept)
        )
        out_type = TensorType(et, [full.get_shape()[j] for j in kept])
        if len(kept) != len(full.get_shape()):
            expand_groups = [[] for _ in kept]
            for dim in range(len(full.get_shape())):
                owner = max((i for i, k in enumerate(kept) if k <= dim), default=0)
                expand_groups[owner].append(dim)
    scale = arith.ConstantOp(FloatAttr(match.scale, et))
    empty = tensor.EmptyOp([], out_type)
    ordered = [m["query"], m["key"], m["value"], AffineMap(m["query"].num_dims, 0, ())]
    if mask is not None:
        ordered.append(m["mask"])
    ordered.append(m["output"])
    attention = AttentionOp(match.query, match.key, match.value, scale.result, mask, empty.tensor, ordered)
    rewriter.insert_op([scale, empty, attention], at)
    dead: list[Operation | None] = []
    if transpose is not None:
        full = transpose.results[0].type
        result: SSAValue = attention.result
        if expand_groups is not None:
            reassoc = ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in g]) for g in expand_groups])
            expand = tensor.ExpandShapeOp(result, [], reassoc, full.get_shape(), full)  # type: ignore[union-attr]
            rewriter.insert_op(expand, InsertPoint.before(transpose))
            result = expand.result
        transpose.results[0].replace_all_uses_with(result)
        dead.append(transpose)
    else:
        pv.results[0].replace_all_uses_with(attention.result)
    dead += [pv, match.collapse, match.p, match.s, match.e, match.mx, match.x, match.qk]
    inits = []
    for op in dead:
        if op is None:
            continue
        inits += [_owner(v) for v in du.dps_inits(op)] if op.name != "tensor.collapse_shape" else []
        rewriter.erase_op(op)
    # zero-filled inits and their empties that nothing reads any more
    for op in inits:
        while op is not None and op.name in ("linalg.fill", "tensor.empty") and all(not r.uses for r in op.results):
            nxt = _owner(op.operands[-1]) if op.name == "linalg.fill" else None
            rewriter.erase_op(op)
            op = nxt
    return attention


@dataclass(frozen=True)
class LinalgRaiseAttentionPass(ModulePass):
    """Raise QK^T (x scale) (+ mask) -> softmax -> . V to `iree_linalg_ext.attention`."""

    name = "linalg-raise-attention"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        memo: dict[SSAValue, SSAValue] = {}
        replaced: set[Operation] = set()
        changed = True
        while changed:
            changed = False
            for candidate in list(op.walk()):
                if candidate.parent is None:
                    continue
                found = match_attention(candidate)
                if found is not None:
                    if found.mask is not None and (owner := _owner(found.mask)) is not None:
                        replaced.add(owner)
                    rewrite(found, memo)
                    changed = True
                    break
        # masks whose every reader was raised (their clamped copies replaced them)
        for mask_op in replaced:
            if mask_op.parent is not None and all(not r.uses for r in mask_op.results):
                Rewriter().erase_op(mask_op)


__all__ = ["AttentionMatch", "LinalgRaiseAttentionPass", "match_attention"]
