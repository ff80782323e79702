"""`linalg-split-k-contractions`: a contraction with little parallel work and a long reduction
becomes S partial contractions over K/S each (one op, S as an outer parallel loop) and a sum
over S into the original accumulator.

Why (CUDA): IREE 3.13's f32 matmul kernels for sm_80 give each 64x64 output tile one workgroup
that walks the whole reduction; a transformer at batch 1 and 64 tokens has 2 to 24 such tiles
per projection, so 2 to 24 of an H100's 132 SMs work and the rest idle. Measured per kernel
with Nsight Compute (bench/RESULTS.md, "GPU per-dispatch"): [64,384]x[384,384] takes 160 us,
[64,1536]x[1536,384] 630 us, and projections are 90 % of bert_mini's and minilm_l6's GPU time.
Splitting K multiplies the workgroups by S and divides each one's walk by S; the partial sums
(S x M x N values) are summed by a reduction whose dispatch also takes the epilogue (bias,
GELU, residual). IREE's own `--iree-dispatch-creation-split-matmul-reduction` does this too, but
only when asked and with one ratio for every matmul; here S is chosen per contraction.
Not for llvm-cpu: one core already has all the parallel work it can use, and the partial sums
are extra traffic (in `dispatch-creation-cuda` only).

    out[p..] = init[p..] + sum_k f(a[..k..], b[..k..])
 -> part[s, p..] = sum_{kc} f(a'[..s, kc..], b'[..s, kc..])      (a', b': k expanded to [S, K/S])
    out[p..]     = init[p..] + sum_s part[s, p..]

Applied to a contraction (named matmul/batch_matmul or a generic) that:
- has exactly one reduction loop, of static extent K >= 2 * `chunk`, with a divisor S >= 2 of
  K such that K / S >= `chunk` (the largest such S);
- accumulates by addition: its body yields `acc + x` with `x` independent of `acc` (float),
  so a sum of partial sums is the same sum in another order;
- has at most `max-outputs` output elements and no parallel loop of extent > 1 that every
  input reads (batched attention contractions already fill the GPU with their batch);
- is not a vector product (a single row or column on one side: IREE's matvec kernel already
  spreads K; split, mlp_towers' [1,256] layers measured 1.24x slower on the H100);
- reads the reduction loop in each input as one plain dimension (a projected permutation),
  and has no `linalg.index` in its body.
Numerics: the same products, summed in another order (as any GPU kernel's tiling does); the
partial sums start at zero and the original accumulator is added once.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, FloatAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg_generic import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import expand
from fusionopt.transforms.linalg.contraction_loops import loop_roles


@dataclass(frozen=True)
class SplitChoice:
    """When a contraction is split and into how many parts (see module doc)."""

    chunk: int
    max_outputs: int

    def parts(self, op: Operation) -> int | None:
        """S for `op`, or None to leave it."""
        kinds, extents = du.iterator_kinds(op), du.loop_extents(op)
        reductions = [d for d, kind in enumerate(kinds) if kind != "parallel"]
        if len(reductions) != 1 or None in extents:
            return None
        k = extents[reductions[0]]
        outputs = 1
        for d, kind in enumerate(kinds):
            outputs *= extents[d] if kind == "parallel" else 1
        if outputs > self.max_outputs or has_wide_batch(op, extents) or is_vector_product(op, extents):
            return None
        return next((s for s in range(k // self.chunk, 1, -1) if k % s == 0), None)


def has_wide_batch(op: Operation, extents: list[int]) -> bool:
    """A parallel loop of extent > 1 that every input reads (a batch: attention's heads)."""
    batch, _ = loop_roles(op)
    return any(extents[d] > 1 for d in batch)


def is_vector_product(op: Operation, extents: list[int]) -> bool:
    """One side of the product is a single row or column (matvec, vecmat): IREE gives those
    its warp-reduction kernel, which already spreads K over the threads."""
    a, b = (m.used_dims() for m in du.indexing_maps(op)[:2])
    kinds = du.iterator_kinds(op)
    rows = [extents[d] for d in a - b if kinds[d] == "parallel"]
    columns = [extents[d] for d in b - a if kinds[d] == "parallel"]
    return prod(rows) == 1 or prod(columns) == 1


def accumulates_by_addition(op: Operation) -> bool:
    """The body yields `acc + x` (float) with `x` computed without the accumulator."""
    block = op.regions[0].block
    acc = block.args[-1]
    yielded = block.last_op.operands[0] if block.last_op and block.last_op.operands else None
    add = getattr(yielded, "owner", None)
    if not isinstance(add, arith.AddfOp) or acc not in add.operands or add.operands[0] is add.operands[1]:
        return False
    other = add.operands[1] if add.operands[0] is acc else add.operands[0]
    return not depends_on(other, acc)


def depends_on(value: SSAValue, arg: SSAValue) -> bool:
    if value is arg:
        return True
    owner = value.owner
    return isinstance(owner, Operation) and any(depends_on(o, arg) for o in owner.operands)


def splittable(op: Operation) -> bool:
    if not du.is_contraction(op) or len(du.dps_inits(op)) != 1 or not op.regions:
        return False
    if any(o.name == "linalg.index" for o in op.regions[0].block.ops):
        return False  # loop indices would move with the new loop
    maps = du.indexing_maps(op)
    return (bool(maps) and all(m.is_projected_permutation() for m in maps)
            and all(du.is_static_tensor(v) for v in (*du.dps_inputs(op), *du.dps_inits(op)))
            and accumulates_by_addition(op))


def shifted(m: AffineMap, k: int) -> AffineMap:
    """`m` over the split loops: loop 0 is s, old loop d is d + 1; k (now kc) is read as [s, kc]."""
    results = []
    for e in m.results:
        if e.position == k:
            results.append(AffineDimExpr(0))
        results.append(AffineDimExpr(e.position + 1))
    return AffineMap(m.num_dims + 1, 0, tuple(results))


def split_input(value: SSAValue, m: AffineMap, k: int, parts: int) -> tuple[list[Operation], SSAValue]:
    """`value` with the dimension that reads loop k expanded to [S, K/S] (no copy)."""
    positions = [i for i, e in enumerate(m.results) if e.position == k]
    if not positions:
        return [], value
    shape = list(value.type.get_shape())
    at = positions[0]
    groups, new_shape, j = [], [], 0
    for i, size in enumerate(shape):
        group = [j, j + 1] if i == at else [j]
        new_shape += [parts, size // parts] if i == at else [size]
        groups.append(group)
        j += len(group)
    op = expand(value, groups, TensorType(value.type.element_type, new_shape))
    return [op], op.results[0]


def partial_contraction(op: Operation, parts: int, k: int) -> tuple[list[Operation], SSAValue]:
    """part[s, p..] = the contraction over one chunk of k, from zero."""
    maps = du.indexing_maps(op)
    init = du.dps_inits(op)[0]
    out_type = init.type
    ops: list[Operation] = []
    inputs = []
    for value, m in zip(du.dps_inputs(op), maps):
        new_ops, split = split_input(value, m, k, parts)
        ops += new_ops
        inputs.append(split)
    part_type = TensorType(out_type.element_type, [parts, *out_type.get_shape()])
    zero = arith.ConstantOp(FloatAttr(0.0, out_type.element_type))
    empty = tensor.EmptyOp([], part_type)
    fill = FillOp([zero.result], [empty.tensor], [part_type])
    out_map = maps[len(inputs)]
    part_map = AffineMap(out_map.num_dims + 1, 0, (AffineDimExpr(0), *(AffineDimExpr(e.position + 1) for e in out_map.results)))
    kinds = ["parallel"] + du.iterator_kinds(op)
    generic = GenericOp(
        inputs, [fill.results[0]], op.regions[0].clone(),
        ArrayAttr([AffineMapAttr(shifted(m, k)) for m in maps[: len(inputs)]] + [AffineMapAttr(part_map)]),
        [IteratorTypeAttr(IteratorType(kind)) for kind in kinds], [part_type],
    )
    return ops + [zero, empty, fill, generic], generic.results[0]


def sum_of_parts(part: SSAValue, init: SSAValue) -> GenericOp:
    """out[p..] = init[p..] + sum_s part[s, p..] (s innermost, a reduction)."""
    rank = len(init.type.get_shape())
    element = init.type.element_type
    read = AffineMap(rank + 1, 0, (AffineDimExpr(rank), *(AffineDimExpr(d) for d in range(rank))))
    write = AffineMap(rank + 1, 0, tuple(AffineDimExpr(d) for d in range(rank)))
    body = Block(arg_types=[element, element])
    add = arith.AddfOp(body.args[1], body.args[0])
    body.add_ops([add, YieldOp(add.result)])
    kinds = [IteratorType.PARALLEL] * rank + [IteratorType.REDUCTION]
    return GenericOp([part], [init], Region(body), ArrayAttr([AffineMapAttr(read), AffineMapAttr(write)]),
                     [IteratorTypeAttr(kind) for kind in kinds], [init.type])


@dataclass
class SplitK(RewritePattern):
    choice: SplitChoice

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not du.is_linalg(op) or not splittable(op):
            return
        parts = self.choice.parts(op)
        if parts is None:
            return
        k = du.iterator_kinds(op).index("reduction")
        ops, part = partial_contraction(op, parts, k)
        total = sum_of_parts(part, du.dps_inits(op)[0])
        rewriter.insert([*ops, total], InsertPoint.before(op))
        rewriter.replace(op, [], [total.results[0]])
        pass_statistics.count("contractions split along K")


@dataclass(frozen=True)
class LinalgSplitKContractionsPass(ModulePass):
    """Split the reduction of small-output contractions into partial sums (see module doc).

    Options:
      chunk       -- the least reduction length each part keeps (32: per-kernel timings on an
                     H100, bench/RESULTS.md); S is the largest divisor of K with K / S >= chunk.
      max-outputs -- split only contractions with at most this many output elements (131072:
                     64 tokens x 2048 features; larger outputs already fill the GPU).
    """

    name = "linalg-split-k-contractions"

    chunk: int = 32
    max_outputs: int = 131072

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = SplitK(SplitChoice(self.chunk, self.max_outputs))
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
