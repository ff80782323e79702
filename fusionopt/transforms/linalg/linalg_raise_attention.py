"""`linalg-raise-attention`: decomposed attention in linalg -> one `iree_linalg_ext.attention`.

Recognises, as torch-mlir and our ONNX importer emit it after `linalg-fold-unit-reshapes`,
`linalg-fold-transpose-into-matmul` and `linalg-fuse-elementwise` (bert_mini, gpt2_mini):

    qk  = contraction(Q, K)                      (mulf/addf body, zero-filled init; any maps)
    x   = elementwise(qk[, mask])                qk * C + mask | qk * C | qk + mask, or qk itself
                                                 (read without its unit dims: torch's exported MHA)
    mx  = max-reduction of x over one dim kd     (maximumf; extra unused argmax results allowed)
    e   = exp(x - mx)
    s   = sum-reduction of e over kd
    p   = e / s                                  (optionally through a unit-dim collapse_shape)
    out = contraction(p, V) reducing exactly kd  (zero-filled init)

and replaces it with one `iree_linalg_ext.attention` (IREE 3.13 syntax, dialects/iree_linalg_ext.py)
whose maps are the composed ones (Q, K, V read where they are: no transposes), with scale C
(1.0 without a multiply) and the mask as the optional operand (unit dims dropped by a
`tensor.collapse_shape`). `form-dispatch-regions` makes it a root (one dispatch).
torch's masked softmax, p = select(isnan(e / s), 0, e / s) (minilm_l6), is raised too (option
`nan-guards`, default on): the guard moves after the op in the form that keeps every input's
value (attention_guard.py). Copies that feed Q, K or V (torch's transposes to [heads, seq, dim],
constant factors such as 1/sqrt(sqrt(dim)) on Q and K) fold into the op's maps and scale
(attention_operands.py), so minilm_l6's layer loses those dispatches as well.
Grouped-query attention (Llama's 8 query heads over 2 K/V heads, each K/V head repeated 4 times
by a broadcast generic and a collapse_shape) reads the shared K/V heads in place of the repeat
(option `shared-kv-heads`, default on; attention_groups.py): the query heads split into (kv head,
group), the group a second M dim of the op, which IREE 3.13 builds for llvm-cpu and CUDA. The
`llama` block's attention then reads K and V of [2, 64, 32] instead of [8, 64, 32] and its
repeat's dispatch is gone (`llama_decode`: both repeats' dispatches); the values are the same bit
for bit (our interpreter and IREE's llvm-cpu runtime).
It does not raise when any intermediate (scores, max, exponentials, sums, probabilities) has
another user, when the softmax is not over the dim that the second contraction reduces, or when
the two contractions or the softmax pieces do not match exactly (e.g. a `divf` scale).

f16 and bf16 attention is raised as our importer and torch-mlir write it, f32 accumulators and
each elementwise op's widen / compute / round-back casts looked through (attention_casts.py):
f16 operands, scale and result (the final transpose's rounding), scores in f32, as IREE computes
them; the op rounds less often than the decomposed form did. That includes a copy that only
rounds the scores to the operands' type before an f32 softmax (torch's f16 export of
transformers' `softmax(dtype=float32)`, the f16 Llama decode step), never a narrower rounding.

Numerics: IREE computes `exp2` on scores and mask scaled by log2 e (dialect docstring), so a
finite mask value below -FLT_MAX / log2 e overflows to -inf there; a row masked only with
-FLT_MAX (bert's padding mask, gpt2's causal mask constants) would become NaN instead of the
uniform row the decomposed form gives. The pass therefore passes the mask through a clamp of
its finite values to [-max/4, max/4] of the float type (-inf, +inf and NaN kept): exact unless
two different mask values beyond 8.5e37 compete in one row.

Not in `dispatch-creation` (in `dispatch-creation-cuda`): measured slower on CPU, on the kernel
and on whole models.
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
Most of that is IREE's CPU tile for the op: with `dispatch-attention-cpu-tiles`' (in the CPU
pipelines) the raised models take 1.09x-1.12x of the decomposed CPU pipeline's time (bench/RESULTS.md
"Attention on CPU: register tiles"), still slower, so the CPU pipelines do not raise those.
Long sequences are the other way round: the decomposed form writes the scores and reads them
back, from memory once they outgrow the caches, so the llvm-cpu pipelines raise attention whose
scores take 16 MB or more (`min-scores-bytes`; Llama's 8 heads at 768 tokens and up, 0.67x-0.77x
of the decomposed time at one thread; bench/RESULTS.md, "Decoders at long sequences").
On CUDA (sm_80 PTX on an H100, bench/RESULTS.md "IREE runtime: CUDA (H100)") the raised form is
not slower: bert_mini 1.00x (ours 1.03x), gpt2_mini 0.89x (ours 0.95x) of IREE default, so
`dispatch-creation-cuda` runs this pass.

Exactness limit (inherent in IREE's exp2 form, so also in our interpreter of the op): a scaled
score above FLT_MAX / log2 e (~2.4e38) overflows in the attention op where the decomposed form
is still finite (the `extreme` input family with overflowing dot products shows it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import BFloat16Type, Float16Type, FloatAttr, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt import pass_statistics
from fusionopt.cost_model import tensor_bytes
from fusionopt.dialects.iree_linalg_ext import AttentionOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand
from fusionopt.transforms.linalg.attention_casts import compute_ops, uncast
from fusionopt.transforms.linalg.attention_groups import read_shared, shared_heads, split_groups, split_heads, split_type, widened
from fusionopt.transforms.linalg.attention_guard import guarded, zero_times_value
from fusionopt.transforms.linalg.attention_match import AttentionMatch, match_attention
from fusionopt.transforms.linalg.attention_mask import safe_mask
from fusionopt.transforms.linalg.attention_operands import erase_dead_chain, fold_chain, read_source
from fusionopt.transforms.linalg.attention_pieces import all_dims, owner_op, use_count
from fusionopt.transforms.linalg.linalg_fold_unit_reshapes import dropping_groups


def _transpose_consumer(value: SSAValue) -> Operation | None:
    """The only user of `value` when it is a pure copy generic (a transpose, maybe adding unit
    dims, maybe rounding an f32 accumulator to f16 / bf16) writing through the identity."""
    if use_count(value) != 1:
        return None
    user = next(iter(value.uses)).operation
    if user.name != "linalg.generic" or len(du.dps_inputs(user)) != 1 or not du.is_all_parallel(user):
        return None
    ops = compute_ops(user)
    if len(ops) != 1 or uncast(ops[0].operands[0]) is not user.regions[0].block.args[0]:
        return None
    maps = du.indexing_maps(user)
    ins, outs = all_dims(maps[0]), all_dims(maps[1])
    if ins is None or outs is None or len(set(outs)) != len(outs) or len(set(ins)) != len(ins):
        return None
    shape = user.results[0].type.get_shape()
    if set(ins) - set(outs) or any(shape[j] != 1 for j, loop in enumerate(outs) if loop not in ins):
        return None
    return user


def _reduced_mask(match: AttentionMatch, rewriter: Rewriter, at: InsertPoint, memo: dict[SSAValue, SSAValue]) -> SSAValue | None:
    """The mask clamped (attention_mask.py) and without the dims the attention does not index."""
    if match.mask is None:
        return None
    mask = safe_mask(match.mask, rewriter, memo)
    mtype = mask.type
    assert isinstance(mtype, TensorType)
    shape = mtype.get_shape()
    kept = [i for i, d in enumerate(match.mask_dims) if d is not None]
    if len(kept) == len(shape):
        return mask
    reduced = TensorType(mtype.get_element_type(), [shape[i] for i in kept])
    reshape = collapse(mask, dropping_groups(len(shape), kept), reduced)
    rewriter.insert_op(reshape, at)
    return reshape.results[0]


@dataclass
class _Output:
    """What the attention writes: its type and map, and the reshape back to what was read."""

    type: TensorType
    transpose: Operation | None  # a copy after P.V that the output map absorbs
    expand_groups: list[list[int]] | None  # unit dims the transpose added back
    split: tuple[TensorType, list[list[int]]] | None = None  # heads split into (kv head, group)


def _output(match: AttentionMatch, m: dict[str, AffineMap]) -> _Output:
    """A transpose after the second contraction becomes the attention's output map (IREE's
    attention writes any projected permutation), so no copy is left behind."""
    out_type = match.pv.results[0].type
    assert isinstance(out_type, TensorType)
    transpose = _transpose_consumer(match.pv.results[0])
    if transpose is None:
        return _Output(out_type, None, None)
    t_in = all_dims(du.indexing_maps(transpose)[0])
    t_out = all_dims(du.indexing_maps(transpose)[1])
    full = transpose.results[0].type
    assert t_in is not None and t_out is not None and isinstance(full, TensorType)
    out_att = [e.position for e in m["output"].results]  # type: ignore[attr-defined]
    kept = [j for j in range(len(full.get_shape())) if t_out[j] in t_in]
    m["output"] = AffineMap(m["output"].num_dims, 0, tuple(AffineDimExpr(out_att[t_in.index(t_out[j])]) for j in kept))
    # (the result rounded to f16 / bf16 by the transpose: its element type)
    reduced = TensorType(full.get_element_type(), [full.get_shape()[j] for j in kept])
    groups = dropping_groups(len(full.get_shape()), kept) if len(kept) != len(full.get_shape()) else None
    return _Output(reduced, transpose, groups)


def _read_operands(match: AttentionMatch, m: dict[str, AffineMap], out: _Output, shared_kv_heads: bool,
                   rewriter: Rewriter, at: InsertPoint) -> tuple[dict[str, SSAValue], float, list[SSAValue]]:
    """Q, K and V as the attention reads them (copies folded, shared K/V heads read once), the
    factor folded copies contribute to the scale, and the old operands left to erase."""
    operands = {"query": match.query, "key": match.key, "value": match.value}
    plan = shared_heads(m, match.key, match.value) if shared_kv_heads and not match.nan_guard else None
    factor, folded = 1.0, []
    for role in ("query", "key", "value") if plan is None else ("query",):
        if (chain := fold_chain(operands[role], scalable=role != "value")) is not None:
            folded.append(operands[role])
            operands[role], m[role] = read_source(chain, m[role], rewriter, at)
            factor *= chain.factor
    if plan is None:
        return operands, factor, folded
    operands["query"], m["query"] = split_heads(operands["query"], m["query"], plan, rewriter, at)
    for role, rep in (("key", plan.key), ("value", plan.value)):
        folded.append(operands[role])
        operands[role], m[role] = read_shared(rep, m[role], plan, rewriter, at)
        if (chain := fold_chain(operands[role], scalable=role == "key")) is not None:
            folded.append(operands[role])
            operands[role], m[role] = read_source(chain, m[role], rewriter, at)
            factor *= chain.factor
    if "mask" in m:
        m["mask"] = widened(m["mask"], plan.head)
    position = [e.position for e in m["output"].results].index(plan.head)  # type: ignore[attr-defined]
    out.split = (out.type, split_groups(len(out.type.get_shape()), position))
    out.type = split_type(out.type, position, plan.key.sizes)
    m["output"] = widened(m["output"], plan.head, plan.key.kv_outer)
    pass_statistics.count("grouped-query attentions reading shared K/V heads")
    return operands, factor, folded


def rewrite(match: AttentionMatch, memo: dict[SSAValue, SSAValue], shared_kv_heads: bool = True) -> AttentionOp:
    rewriter = Rewriter()
    pv = match.pv
    at = InsertPoint.before(pv)
    mask = _reduced_mask(match, rewriter, at, memo)
    # The scale in the operands' type (f16 attention: an f16 scale, scores in f32 regardless).
    scale_type = match.query.type.get_element_type()  # type: ignore[attr-defined]
    m = dict(match.maps)
    out = _output(match, m)
    operands, factor, folded = _read_operands(match, m, out, shared_kv_heads, rewriter, at)
    scale = arith.ConstantOp(FloatAttr(match.scale * factor, scale_type))
    empty = tensor.EmptyOp([], out.type)
    ordered = [m["query"], m["key"], m["value"], AffineMap(m["query"].num_dims, 0, ())]
    if mask is not None:
        ordered.append(m["mask"])
    ordered.append(m["output"])
    attention = AttentionOp(operands["query"], operands["key"], operands["value"], scale.result, mask, empty.tensor, ordered)
    rewriter.insert_op([scale, empty, attention], at)
    result: SSAValue = attention.result
    if match.nan_guard:
        keys_loop = next(d for d, role in attention.dim_classes().items() if role == "k2")
        zeros, loops = zero_times_value(operands["value"], m["value"], keys_loop, rewriter, InsertPoint.before(attention))
        result = guarded(result, m["output"], zeros, loops, rewriter, at)
    if out.split is not None:
        merge = collapse(result, out.split[1], out.split[0])
        rewriter.insert_op(merge, at)
        result = merge.results[0]
    _replace_and_erase(match, out, result, folded, rewriter)
    return attention


def _replace_and_erase(match: AttentionMatch, out: _Output, result: SSAValue, folded: list[SSAValue], rewriter: Rewriter) -> None:
    dead: list[Operation | None] = []
    if out.transpose is not None:
        full = out.transpose.results[0].type
        if out.expand_groups is not None:
            op = expand(result, out.expand_groups, full)  # type: ignore[arg-type]
            rewriter.insert_op(op, InsertPoint.before(out.transpose))
            result = op.results[0]
        out.transpose.results[0].replace_all_uses_with(result)
        dead.append(out.transpose)
    else:
        match.pv.results[0].replace_all_uses_with(result)
    dead += [match.pv, match.collapse, match.p, match.s, match.e, match.mx, match.x, match.qk]
    inits = []
    for op in dead:
        if op is None:
            continue
        inits += [owner_op(v) for v in du.dps_inits(op)] if op.name != "tensor.collapse_shape" else []
        rewriter.erase_op(op)
    # zero-filled inits and their empties that nothing reads any more
    for op in inits:
        while op is not None and op.name in ("linalg.fill", "tensor.empty") and all(not r.uses for r in op.results):
            nxt = owner_op(op.operands[-1]) if op.name == "linalg.fill" else None
            rewriter.erase_op(op)
            op = nxt
    for operand in folded:
        erase_dead_chain(operand, rewriter)


@dataclass(frozen=True)
class LinalgRaiseAttentionPass(ModulePass):
    """Raise QK^T (x scale) (+ mask) -> softmax -> . V to `iree_linalg_ext.attention`.

    Options:
      nan-guards -- also raise softmaxes whose probabilities go through select(isnan(p), 0, p)
                    (true), the guard then applied to the attention's output.
      shared-kv-heads -- grouped-query attention reads its shared K/V heads in place of their
                    repeat (true): the query heads split into (kv head, group), the group an
                    M dim of the op (attention_groups.py).
      min-scores-bytes -- raise only attentions whose scores (Q.K^T, all heads) take at least
                    this many bytes (0, default: all; static shapes).
    """

    name = "linalg-raise-attention"
    nan_guards: bool = True
    shared_kv_heads: bool = True
    min_scores_bytes: int = 0

    def _takes(self, found: AttentionMatch) -> bool:
        scores = found.qk.results[0]
        return (self.nan_guards or not found.nan_guard) and (
            self.min_scores_bytes == 0
            or (du.is_static_tensor(scores) and tensor_bytes(scores) >= self.min_scores_bytes))

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
                if found is not None and self._takes(found):
                    if found.mask is not None and (owner := owner_op(found.mask)) is not None:
                        replaced.add(owner)
                    narrow = isinstance(found.query.type.get_element_type(), Float16Type | BFloat16Type)  # type: ignore[attr-defined]
                    rewrite(found, memo, self.shared_kv_heads)
                    pass_statistics.count("attentions raised")
                    if narrow:
                        pass_statistics.count("f16/bf16 attentions raised (scores in f32)")
                    changed = True
                    break
        # masks whose every reader was raised (their clamped copies replaced them)
        for mask_op in replaced:
            if mask_op.parent is not None and all(not r.uses for r in mask_op.results):
                Rewriter().erase_op(mask_op)


__all__ = ["AttentionMatch", "LinalgRaiseAttentionPass", "match_attention"]
