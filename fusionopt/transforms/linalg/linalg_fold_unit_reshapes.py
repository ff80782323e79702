"""`linalg-fold-unit-reshapes`: read through reshapes that only add or drop size-1 dims.

torch-mlir surrounds almost every op with `tensor.expand_shape`/`collapse_shape` that insert or
remove unit dims (`2x64x64 -> 1x2x64x64`, `1x64x1 -> 1x64`). Inside a dispatch such a reshape
blocks IREE's tile-and-fuse (its CPU backend rejects the region: "write ... restricted to
workgroup distributed contexts"), and between dispatches it splits fusion groups. Because a
unit dim is only ever indexed at 0, a linalg op can read the reshape's *source* directly:

- through `expand_shape`: drop the map results of the inserted unit dims;
- through `collapse_shape`: put a constant `0` at each collapsed unit dim of the source --
  except into a contraction: a constant map result is not a projected permutation, so IREE
  would no longer see a matmul (it tiles it as a plain reduction, several times slower). The
  contraction keeps reading the `collapse_shape`, which stays outside dispatch regions.

A `linalg.transpose` reading such a reshape is rewritten as the equivalent `linalg.generic`
(named ops have fixed maps). The reshape is erased once nothing reads it. A fold is skipped
when it would leave a loop that no map mentions (its trip count would be lost).

The converse on results: a `linalg.generic` writing through constant-0 output map results
(`(d0, d1, d2) -> (d0, d1, 0)`, how torch-mlir keeps reduced dims) computes the rank-reduced
tensor instead and re-expands it with a unit `tensor.expand_shape`, which its consumers then
fold away. IREE's CPU backend cannot tile+fuse a reduction whose output map holds a constant
(measured: the region fails to compile), but handles the rank-reduced form. Not when every
output dim is constant: the rank-0 form needs an `expand_shape` that xDSL cannot verify.
Option `constants-into-reductions` (the pass class).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ArrayAttr, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import reassociation, reassociation_attr


def unit_reshape_source_exprs(reshape: Operation, result_exprs: list[AffineExpr]) -> list[AffineExpr] | None:
    """Map results on the reshape's source, given those on its result; None if a group holds
    more than one non-unit dim (a real reshape, not just unit dims)."""
    src_shape = reshape.operands[0].type.get_shape()
    res_shape = reshape.results[0].type.get_shape()
    groups = reassociation(reshape)
    if any(not group for group in groups):  # malformed (an empty group): leave it alone
        return None
    if reshape.name == "tensor.expand_shape":  # group i: result dims of source dim i
        exprs = []
        for group in groups:
            non_unit = [d for d in group if res_shape[d] != 1]
            if len(non_unit) > 1:
                return None
            exprs.append(result_exprs[(non_unit or group)[0]])
        return exprs
    exprs = [AffineConstantExpr(0)] * len(src_shape)  # collapse: group i = source dims of result i
    for i, group in enumerate(groups):
        non_unit = [d for d in group if src_shape[d] != 1]
        if len(non_unit) > 1:
            return None
        exprs[(non_unit or group)[0]] = result_exprs[i]
    return list(exprs)


def has_constant_result(exprs) -> bool:
    return any(isinstance(e, AffineConstantExpr) for e in exprs)


def transpose_as_generic(op: Operation) -> GenericOp:
    source, init = op.operands[0], op.operands[1]
    body = Block(arg_types=[source.type.get_element_type(), init.type.get_element_type()])
    body.add_op(YieldOp(body.args[0]))
    maps = [AffineMapAttr(m) for m in du.indexing_maps(op)]
    iterators = [IteratorTypeAttr.parallel()] * len(maps[0].data.results)
    return GenericOp([source], [init], Region(body), maps, iterators, [init.type])


def _all_loops_mentioned(maps: list[AffineMap]) -> bool:
    """Every loop is read through one of `maps`. A contraction's inputs must read all its loops
    between them: one whose unit row loop only its output reads (a patch matmul's [1, OW] rows
    with the lhs read as [OW, K]) IREE 3.13 compiles 6.7x slower (one Zen 4 core)."""
    used: set[int] = set()
    for m in maps:
        used |= m.used_dims()
    return used == set(range(maps[0].num_dims))


class FoldUnitReshapeIntoConsumer(RewritePattern):
    def __init__(self, constants_into_reductions: bool = True):
        self.constants_into_reductions = constants_into_reductions

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in ("linalg.generic", "linalg.transpose"):
            return
        maps = du.indexing_maps(op)
        inputs = list(du.dps_inputs(op))
        new_inputs: list[SSAValue] = list(inputs)
        is_contraction = du.is_contraction(op)
        keeps_constants_out = is_contraction or (not self.constants_into_reductions and du.has_reduction_loops(op))
        for index, value in enumerate(inputs):
            reshape = value.owner
            if not isinstance(reshape, Operation) or not du.is_reshape(reshape):
                continue
            if not isinstance(reshape.operands[0].type, TensorType):
                continue
            exprs = unit_reshape_source_exprs(reshape, list(maps[index].results))
            if exprs is None or (keeps_constants_out and has_constant_result(exprs)):
                continue
            candidate = list(maps)
            candidate[index] = AffineMap(maps[index].num_dims, 0, tuple(exprs))
            if not _all_loops_mentioned(candidate[:len(inputs)] if is_contraction else candidate):
                continue
            maps, new_inputs[index] = candidate, reshape.operands[0]
        if new_inputs == inputs:
            return
        target = op
        if op.name == "linalg.transpose":
            target = transpose_as_generic(op)
            rewriter.replace(op, target)
        old = [v.owner for v in inputs]
        for index, value in enumerate(new_inputs):
            target.operands[index] = value
        du.set_indexing_maps(target, maps)
        rewriter.handle_operation_modification(target)
        for reshape in old:
            if isinstance(reshape, Operation) and du.is_reshape(reshape) and not reshape.results[0].uses:
                rewriter.erase(reshape)


def dropping_groups(rank: int, kept: list[int]) -> list[list[int]]:
    """Reassociation groups that merge every dropped dim into the nearest kept dim (left first)."""
    if not kept:
        return []
    groups: list[list[int]] = [[] for _ in kept]
    for dim in range(rank):
        owner = max((i for i, k in enumerate(kept) if k <= dim), default=0)
        groups[owner].append(dim)
    return groups


def reassociation_dropping(rank: int, kept: list[int]) -> ArrayAttr:
    """`dropping_groups` as a reassociation attribute."""
    return reassociation_attr(dropping_groups(rank, kept))


def reduced_init(init: SSAValue, reduced_type: TensorType, reassoc: ArrayAttr, rewriter: PatternRewriter) -> SSAValue:
    """The init in the reduced shape: a fresh fill when it is a fill of a static shape, else a
    unit collapse (a fresh dynamic tensor.empty would need its sizes)."""
    fill = init.owner
    if isinstance(fill, Operation) and fill.name == "linalg.fill" and reduced_type.has_static_shape():
        empty = tensor.EmptyOp([], reduced_type)
        new_fill = FillOp([fill.operands[0]], [empty.tensor], [reduced_type])
        rewriter.insert([empty, new_fill])
        return new_fill.results[0]
    collapse = tensor.CollapseShapeOp(
        operands=[init], result_types=[reduced_type], properties={"reassociation": reassoc}
    )
    rewriter.insert(collapse)
    return collapse.result


def dynamic_sizes(value: SSAValue, rewriter: PatternRewriter) -> list[SSAValue]:
    """`tensor.dim` of each dynamic dim of `value`, in order (an expand_shape's output_shape)."""
    sizes = []
    for i, size in enumerate(value.type.get_shape()):  # type: ignore[attr-defined]
        if size == DYNAMIC_INDEX:
            index = arith.ConstantOp(IntegerAttr(i, IndexType()))
            dim = tensor.DimOp(value, index)
            rewriter.insert([index, dim])
            sizes.append(dim.result)
    return sizes


class DropConstantOutputDims(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.generic" or len(op.results) != len(du.dps_inits(op)):
            return
        maps = du.indexing_maps(op)
        num_inputs = len(du.dps_inputs(op))
        out_maps = maps[num_inputs:]
        if not any(isinstance(e, AffineConstantExpr) for m in out_maps for e in m.results):
            return
        if any(m.results and all(isinstance(e, AffineConstantExpr) for e in m.results) for m in out_maps):
            # Every output dim constant (a full reduction into tensor<1x..x1>): the reduced
            # result would be rank 0, re-expanded by an `expand_shape` with no reassociation
            # groups. MLIR accepts that; xDSL's verifier rejects it, so the op stays as it is.
            return
        new_inits, new_out_maps, expands = [], [], []
        for init, out_map in zip(du.dps_inits(op), out_maps):
            kept = [i for i, e in enumerate(out_map.results) if not isinstance(e, AffineConstantExpr)]
            shape = init.type.get_shape()
            reduced_type = TensorType(init.type.get_element_type(), [shape[i] for i in kept])
            reassoc = reassociation_dropping(len(shape), kept)
            new_inits.append(reduced_init(init, reduced_type, reassoc, rewriter))
            new_out_maps.append(AffineMap(out_map.num_dims, 0, tuple(out_map.results[i] for i in kept)))
            expands.append((reassoc, init.type))
        new_op = GenericOp(
            list(du.dps_inputs(op)),
            new_inits,
            rewriter.move_region_contents_to_new_regions(op.regions[0]),
            [AffineMapAttr(m) for m in maps[:num_inputs] + new_out_maps],
            list(op.properties["iterator_types"].data),
            [v.type for v in new_inits],
        )
        rewriter.insert(new_op)
        results = []
        for result, init, (reassoc, full_type) in zip(new_op.results, du.dps_inits(op), expands):
            expand = tensor.ExpandShapeOp(result, dynamic_sizes(init, rewriter), reassoc, full_type.get_shape(), full_type)
            rewriter.insert(expand)
            results.append(expand.result)
        old_inits = [v.owner for v in du.dps_inits(op)]
        rewriter.replace(op, [], results)
        _erase_dead_init_chain(old_inits, rewriter)


def _dropped_unit_positions(collapse: Operation) -> list[int] | None:
    """Source dims a unit-only `collapse_shape` drops (all but one unit dim of each group, the
    group's non-unit dim kept); None when a group merges two non-unit dims."""
    shape = collapse.operands[0].type.get_shape()
    dropped: list[int] = []
    for group in reassociation(collapse):
        non_unit = [d for d in group if shape[d] != 1]
        if len(non_unit) > 1 or not group:
            return None
        kept = (non_unit or group)[0]
        dropped.extend(d for d in group if d != kept)
    return dropped


def _without_loops(m: AffineMap, loops: list[int]) -> AffineMap:
    """`m` with each of `loops` (extent 1) read at 0 and the other loops renumbered."""
    new_dims, next_dim = [], 0
    for d in range(m.num_dims):
        if d in loops:
            new_dims.append(AffineConstantExpr(0))
        else:
            new_dims.append(AffineDimExpr(next_dim))
            next_dim += 1
    return m.replace_dims_and_symbols(new_dims, [], next_dim, 0)


def _body_reads_loop_indices(op: Operation) -> bool:
    return any(inner.name == "linalg.index" for inner in op.regions[0].walk())


def _only_split_after(collapse: Operation) -> bool:
    """Every reader of the collapse's result splits it again (`expand_shape`): the pair is a
    reshape that is neither a pure collapse nor a pure expand (197x1x384 -> 197x6x64)."""
    uses = list(collapse.results[0].uses)
    return bool(uses) and all(use.operation.name == "tensor.expand_shape" for use in uses)


class FoldUnitCollapseIntoProducer(RewritePattern):
    """An elementwise generic whose one result only a unit-dim `collapse_shape` reads, which is
    split again, computes the collapsed tensor itself: the dropped dims' loops (extent 1) go,
    their reads become 0. Collapses read otherwise (into a matmul, a reduction) stay: folding
    those too split LayerNorm regions (measured on ViT: 108 -> 132 CUDA dispatches)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "tensor.collapse_shape" or not op.results[0].type.has_static_shape():
            return
        if not _only_split_after(op):
            return
        producer = op.operands[0].owner
        if not (isinstance(producer, GenericOp) and du.is_elementwise_linalg(producer)):
            return
        if len(producer.results) != 1 or not op.operands[0].has_one_use() or _body_reads_loop_indices(producer):
            return
        dropped_positions = _dropped_unit_positions(op)
        out_map = du.indexing_maps(producer)[-1]
        if not dropped_positions or not du.is_permutation_map(out_map):
            return
        loops = [out_map.results[p].position for p in dropped_positions]  # type: ignore[attr-defined]
        maps = [_without_loops(m, loops) for m in du.indexing_maps(producer)]
        maps[-1] = maps[-1].drop_results([p in dropped_positions for p in range(len(out_map.results))])
        iterators = [it for i, it in enumerate(producer.properties["iterator_types"].data) if i not in loops]
        init = tensor.EmptyOp([], op.results[0].type)
        rewriter.insert(init)
        new_op = GenericOp(
            list(du.dps_inputs(producer)), [init.tensor],
            rewriter.move_region_contents_to_new_regions(producer.regions[0]),
            [AffineMapAttr(m) for m in maps], iterators, [op.results[0].type],
        )
        rewriter.insert(new_op)
        old_init = [v.owner for v in du.dps_inits(producer)]
        rewriter.replace(op, [], new_op.results)
        rewriter.erase(producer)
        _erase_dead_init_chain(old_init, rewriter)


def _erase_dead_init_chain(ops: list, rewriter: PatternRewriter) -> None:
    """The replaced op's fill/empty inits, once nothing else uses them."""
    worklist = [o for o in ops if isinstance(o, Operation)]
    while worklist:
        op = worklist.pop()
        if op.parent is None or op.name not in ("linalg.fill", "tensor.empty") or any(r.uses for r in op.results):
            continue
        worklist.extend(o.owner for o in op.operands if isinstance(o.owner, Operation))
        rewriter.erase(op)


@dataclass(frozen=True)
class LinalgFoldUnitReshapesPass(ModulePass):
    """Make linalg ops read the source of unit-dim reshapes through adjusted maps.

    `constants-into-reductions` (default true): a collapse folds into a reduction's input map as
    constant-0 results. The CUDA pipelines set false, as for contractions: IREE 3.13's sm_80
    codegen fails to distribute a reduction reading its input that way ("'func.func' op failed
    to distribute": ConvNeXt's head LayerNorm over 1 x 768 x 1 x 1 channels read channels last),
    and builds it reading the collapse.

    `collapses-into-producers` (default false): an elementwise generic whose result only a
    unit-dim collapse reads computes the collapsed tensor (its unit loops dropped). The CUDA
    pipelines set true: IREE 3.13's sm_80 codegen stages a region's whole intermediate in shared
    memory when a transposing generic reads an elementwise one's result through a unit-dim
    collapse and a split (a quantized ViT's head split: 302592 bytes, the limit 166912), and
    builds the region with the collapse folded into the producer."""

    name = "linalg-fold-unit-reshapes"
    constants_into_reductions: bool = True
    collapses_into_producers: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns: list[RewritePattern] = [DropConstantOutputDims(),
                                          FoldUnitReshapeIntoConsumer(self.constants_into_reductions)]
        if self.collapses_into_producers:
            patterns.append(FoldUnitCollapseIntoProducer())
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns)).rewrite_module(op)
