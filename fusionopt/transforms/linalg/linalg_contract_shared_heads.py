"""`linalg-contract-shared-heads`: a batched contraction whose operand is grouped-query
attention's repeat of shared K/V heads reads the shared heads, the batch split into
(kv head, group).

Llama-family decoders store 2 K/V heads for 8 query heads and repeat each 4 times before Q.K^T
and P.V (transformers' `repeat_kv`: unsqueeze, expand, reshape). Decomposed, as the CPU
pipelines keep short attention, the repeat is a generic writing [kv, group, keys, dim] that a
collapse turns into the 8 heads the batch_matmul reads: a dispatch that copies K or V four
times. The decode step at 2047 past tokens spent 61 of its 167 us of dispatches there (one
thread; bench/RESULTS.md "Decoders at long sequences").

    R  = generic(...) : [.., kv, g, n, k]   (its value ignores the g loop)
    X  = collapse(R)  : [kv*g, n, k]
    C  = contraction(A : [kv*g, m, k], X) : [kv*g, m, n]
->
    R' = generic(...) : [.., kv, n, k]      (`linalg-shrink-broadcast-generics`' shrunk form)
    C' = contraction(expand(A) : [kv, g, m, k], collapse(R') : [kv, n, k]) : [kv, g, m, n]
    C  = collapse(C')

the group becoming a second M dim of the contraction, as `linalg-raise-attention{shared-kv-heads}`
does for the attention op. Each output element is the same products and sums (IREE's build of
the 64-token Llama: bit-identical logits). Measured, one thread, the decode step: past 2047
0.191 -> 0.116 ms (f16: 0.161 -> 0.123), past 511 0.068 -> 0.052 ms (two threads 0.80x /
0.82x); the 64-token Llama's prefill unchanged (its K repeat carries RoPE and a scaled transpose
before Q.K^T, which this does not look through; its V repeat goes).

Applied to a float batch contraction (linalg.batch_matmul, f16 x f16 -> f32 included, or a
generic with a mulf/addf body of one type) with static shapes whose batch loop is the first dim
of all three operands, when the operand's collapse chain comes from a single-use all-parallel
generic through identity output maps, merging (kv, g) (with unit dims) into the batch dim and
keeping the other dims.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ArrayAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand
from fusionopt.transforms.linalg.channels_last_propagation import is_copy_generic
from fusionopt.transforms.linalg.linalg_shrink_broadcast_generics import loops_the_value_depends_on, reads_its_init, shrunk_generic


@dataclass(frozen=True)
class SharedHeads:
    """The repeat generic, the loop it ignores (its result's dim `group_dim`), kv and g, and the
    collapses from its result to the contraction's operand."""

    repeat: Operation
    group_dim: int
    kv: int
    groups: int
    collapses: list[Operation]


def collapse_chain_source(value: SSAValue) -> tuple[SSAValue, list[Operation]] | None:
    """The value under one or more single-use tensor.collapse_shape ops, and those ops."""
    chain = []
    while isinstance(value.owner, Operation) and value.owner.name == "tensor.collapse_shape":
        if du.use_count(value) != 1:
            return None
        chain.append(value.owner)
        value = value.owner.operands[0]
    return (value, chain) if chain else None


def repeated_heads(value: SSAValue) -> SharedHeads | None:
    """`value` [kv*g, rest...] is a collapse of a generic's [units.., kv, g, rest...] whose
    value ignores the g loop."""
    found = collapse_chain_source(value)
    if found is None or du.use_count(found[0]) != 1 or not isinstance(found[0].owner, Operation):
        return None
    repeat, collapses = found[0].owner, found[1]
    if (repeat.name != "linalg.generic" or len(repeat.results) != 1 or not du.is_all_parallel(repeat)
            or reads_its_init(repeat)):
        return None
    out_map = du.result_map(repeat, 0)
    source, target = repeat.results[0].type.get_shape(), value.type.get_shape()
    if out_map is None or out_map != AffineMap.identity(len(source)) or -1 in source or -1 in target:
        return None
    lead = next((i for i, size in enumerate(source) if size != 1), None)
    if lead is None or lead + 1 >= len(source) or list(source[lead + 2:]) != list(target[1:]):
        return None
    kv, groups = source[lead], source[lead + 1]
    if groups == 1 or target[0] != kv * groups or (lead + 1) in loops_the_value_depends_on(repeat):
        return None
    return SharedHeads(repeat, lead + 1, kv, groups, collapses)


def batch_contraction(op: Operation) -> bool:
    """A static float contraction of two inputs whose first loop is a batch dim read first by
    every operand, with a mulf/addf body (named or generic)."""
    if not du.is_contraction(op) or len(du.dps_inputs(op)) != 2 or len(op.results) != 1:
        return False
    maps = du.indexing_maps(op)
    if len(maps) != 3 or not all(m.results and m.results[0] == AffineDimExpr(0) for m in maps):
        return False
    if du.iterator_kinds(op)[0] != "parallel":
        return False
    values = (*du.dps_inputs(op), op.results[0])
    if not all(du.is_static_tensor(v) for v in values):
        return False
    types = [v.type for v in values]
    given, result = types[0].element_type, types[2].element_type
    if types[1].element_type != given or not (isinstance(given, AnyFloat) and isinstance(result, AnyFloat)):
        return False
    # A named op widens its inputs to the result's type (f16 x f16 -> f32); a generic's body may
    # do anything, so it takes one type throughout.
    return given == result or (op.name == "linalg.batch_matmul" and result.bitwidth > given.bitwidth)


def split_batch(m: AffineMap, with_group: bool) -> AffineMap:
    """`m` over loops (kv, g, rest...) from (batch, rest...): dim 0 -> (kv[, g]), others shift."""
    head = (AffineDimExpr(0), AffineDimExpr(1)) if with_group else (AffineDimExpr(0),)
    rest = tuple(AffineDimExpr(e.position + 1) for e in m.results[1:])  # type: ignore[attr-defined]
    return AffineMap(m.num_dims + 1, 0, head + rest)


def mul_add_body(given, result) -> Region:
    """out + a * b in `result`'s type, the inputs (of type `given`) widened first if narrower."""
    block = Block(arg_types=[given, given, result])
    lhs, rhs = block.args[0], block.args[1]
    if given != result:
        widened = [arith.ExtFOp(lhs, result), arith.ExtFOp(rhs, result)]
        block.add_ops(widened)
        lhs, rhs = widened[0].result, widened[1].result
    product = arith.MulfOp(lhs, rhs)
    total = arith.AddfOp(block.args[2], product.result)
    block.add_ops([product, total, YieldOp(total.result)])
    return Region(block)


def heads_split(value: SSAValue, kv: int, groups: int) -> Operation:
    """[kv*g, rest...] -> [kv, g, rest...]."""
    shape = value.type.get_shape()
    groups_of = [[0, 1], *[[i + 1] for i in range(1, len(shape))]]
    return expand(value, groups_of, TensorType(value.type.element_type, [kv, groups, *shape[1:]]))


def shared_source(shrunk: SSAValue, kv: int) -> Operation | None:
    """The shrunk repeat [units.., kv, rest...] as [kv, rest...] (None: already so)."""
    shape = shrunk.type.get_shape()
    lead = next(i for i, size in enumerate(shape) if size != 1)
    if lead == 0:
        return None
    groups_of = [list(range(lead + 1)), *[[i] for i in range(lead + 1, len(shape))]]
    return collapse(shrunk, groups_of, TensorType(shrunk.type.element_type, [kv, *shape[lead + 1:]]))


def unrepeated(shrunk: Operation, rewriter: PatternRewriter) -> SSAValue:
    """The shrunk repeat's value: its input itself when it is a plain copy (`repeat_kv` of a
    cache read as it is), which is then erased."""
    (source,) = du.dps_inputs(shrunk) if len(du.dps_inputs(shrunk)) == 1 else (None,)
    identity = all(m == AffineMap.identity(m.num_dims) for m in du.indexing_maps(shrunk))
    if source is None or not is_copy_generic(shrunk) or not identity or source.type != shrunk.results[0].type:
        return shrunk.results[0]
    empty = du.dps_inits(shrunk)[0].owner
    rewriter.erase_op(shrunk)
    if isinstance(empty, Operation) and empty.name == "tensor.empty" and not empty.results[0].uses:
        rewriter.erase_op(empty)
    return source


class ReadSharedHeads(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not batch_contraction(op):
            return
        inputs = list(du.dps_inputs(op))
        found = [(i, h) for i, v in enumerate(inputs) if (h := repeated_heads(v)) is not None]
        if len(found) != 1:
            return
        index, heads = found[0]
        shrunk, _ = shrunk_generic(heads.repeat, [heads.group_dim], rewriter)
        kept = unrepeated(shrunk, rewriter)
        made: list[Operation] = []
        shared = shared_source(kept, heads.kv)
        made += [shared] if shared is not None else []
        other = heads_split(inputs[1 - index], heads.kv, heads.groups)
        init = heads_split(du.dps_inits(op)[0], heads.kv, heads.groups)
        made += [other, init]
        maps = du.indexing_maps(op)
        operands = [None, None]
        operands[index] = shared.results[0] if shared is not None else kept
        operands[1 - index] = other.results[0]
        new_maps = [split_batch(m, with_group=(i != index)) for i, m in enumerate(maps)]
        iterators = [IteratorTypeAttr(IteratorType.PARALLEL if k == "parallel" else IteratorType.REDUCTION)
                     for k in ["parallel", *du.iterator_kinds(op)]]
        body = mul_add_body(inputs[0].type.element_type, op.results[0].type.element_type)
        contraction = GenericOp(operands, [init.results[0]], body,
                                ArrayAttr([AffineMapAttr(m) for m in new_maps]), iterators, [init.results[0].type])
        result = collapse(contraction.results[0], [[0, 1], *[[i + 1] for i in range(1, len(maps[2].results))]],
                          op.results[0].type)
        rewriter.insert([*made, contraction, result], InsertPoint.before(op))
        rewriter.replace_op(op, [], [result.results[0]])
        for reshape in heads.collapses:
            rewriter.erase_op(reshape)
        init_of_repeat = du.dps_inits(heads.repeat)[0].owner
        rewriter.erase_op(heads.repeat)
        if isinstance(init_of_repeat, Operation) and init_of_repeat.name == "tensor.empty" and not init_of_repeat.results[0].uses:
            rewriter.erase_op(init_of_repeat)
        pass_statistics.count("contractions reading shared K/V heads")


@dataclass(frozen=True)
class LinalgContractSharedHeadsPass(ModulePass):
    """A batch contraction reading grouped-query attention's repeated K/V heads reads the
    shared heads, its batch split into (kv head, group) (module docstring). No options."""

    name = "linalg-contract-shared-heads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ReadSharedHeads(), apply_recursively=False).rewrite_module(op)
