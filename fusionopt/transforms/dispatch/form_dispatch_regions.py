"""`form-dispatch-regions`: wrap fusion groups in `flow.dispatch.region`s (IREE's FormDispatchRegions).

The fusion decision lives in `fusion_groups.py` (roots, producer/consumer rules, one root per
region); this file only materialises it:
0. compute a root whose result is only read through slices once per slice when that forms
   fewer dispatches (`sliced_roots.py`: horizontally fused dots whose slices' consumers could
   not join the root's region);
1. condense each group into one node and topologically reorder the block (groups are convex,
   so the condensed graph is a DAG; the original order breaks ties);
2. move each group's ops into a `flow.dispatch.region` returning the values used outside it;
3. clone cheap producers (fills, `tensor.empty`, small constants, index math, non-contiguous
   slices) into every region that uses them (IREE's CloneProducersIntoDispatchRegions), so each
   region is self-contained and no dispatch is spent on them;
   A group rooted at a 1x1 conv that only a `tensor.pad` reads is not formed: IREE forms it and
   writes the pad in its dispatch (`common/iree_padded_producers.py`);
4. unless `convert-to-flow=false`, convert what is left outside regions with the same
   contiguity rules (`convert_to_flow.convert_block_to_flow`): contiguous slices become
   `flow.tensor.slice/update`, reshapes `flow.tensor.reshape`, lone fills `flow.tensor.splat`,
   and non-contiguous copies get a region of their own.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from fusionopt import pass_statistics
from fusionopt.dialects.util import functions_with_body
from fusionopt.transforms.common.iree_padded_producers import MIN_PIXELS, is_iree_padded_1x1, is_iree_padded_kxk
from fusionopt.transforms.dispatch.region_dims import add_result_dims

from fusionopt.dialects.flow import DispatchRegionOp, ReturnOp
from fusionopt.transforms.dispatch.convert_to_flow import convert_block_to_flow
from fusionopt.transforms.dispatch.attention_guard_regions import pull_guard_reductions_into_attention
from fusionopt.transforms.dispatch.im2col_producers import pull_im2col_into_contractions
from fusionopt.transforms.dispatch.padded_concats import write_padded_concats
from fusionopt.transforms.dispatch.padded_gathers import pull_pads_into_gathers
from fusionopt.transforms.dispatch.padded_depthwise import pull_pads_into_depthwise_convs
from fusionopt.transforms.dispatch.padded_pools import pull_pads_into_pools
from fusionopt.transforms.dispatch.padded_results import PADDED_RESULTS_MAX_ELEMENTS, write_pads_in_regions
from fusionopt.transforms.dispatch.fusion_decision import decide_fusion_groups
from fusionopt.transforms.dispatch.fusion_groups import CHAIN_STARTS, FusionAnalysis, FusionGroup
from fusionopt.transforms.dispatch.sliced_roots import split_sliced_roots
from fusionopt.transforms.dispatch.iree_rules import region_forming_blocks
from fusionopt.transforms.dispatch.region_cloning import clone_producers_into_regions, erase_dead_clonables

Node = Operation | FusionGroup


def topological_nodes(analysis: FusionAnalysis) -> list[Node]:
    """Ungrouped ops and groups in an order where every node follows what it uses."""
    node_of: dict[Operation, Node] = {op: analysis.group_of.get(op, op) for op in analysis.ops}
    key: dict[int, int] = {}
    nodes: list[Node] = []
    for op in analysis.ops:
        node = node_of[op]
        if id(node) not in key:
            key[id(node)] = analysis.position[op]
            nodes.append(node)
    deps: dict[int, set[int]] = {id(n): set() for n in nodes}
    dependents: dict[int, list[Node]] = {id(n): [] for n in nodes}
    for node in nodes:
        for member in _ops_of(node):
            for producer in analysis.producers[member]:
                source = node_of[producer]
                if source is not node and id(source) not in deps[id(node)]:
                    deps[id(node)].add(id(source))
                    dependents[id(source)].append(node)
    ready = [(key[id(n)], i, n) for i, n in enumerate(nodes) if not deps[id(n)]]
    heapq.heapify(ready)
    order: list[Node] = []
    index_of = {id(n): i for i, n in enumerate(nodes)}
    while ready:
        _, _, node = heapq.heappop(ready)
        order.append(node)
        for dependent in dependents[id(node)]:
            deps[id(dependent)].discard(id(node))
            if not deps[id(dependent)]:
                heapq.heappush(ready, (key[id(dependent)], index_of[id(dependent)], dependent))
    if len(order) != len(nodes):
        raise AssertionError("fusion groups are not convex: cyclic dependence between regions")
    return order


def _ops_of(node: Node) -> list[Operation]:
    return list(node.ops) if isinstance(node, FusionGroup) else [node]


def values_escaping(ops: list[Operation]) -> list[SSAValue]:
    """Results of `ops` used by anything outside them (these become the region's results)."""
    members = set(ops)
    escaping: list[SSAValue] = []
    for op in ops:
        for result in op.results:
            if any(_top_op_in(use.operation, members) is None for use in result.uses):
                escaping.append(result)
    return escaping


def _top_op_in(op: Operation | None, members: set[Operation]) -> Operation | None:
    while op is not None:
        if op in members:
            return op
        op = op.parent_op()
    return None


def build_region(ops: list[Operation]) -> DispatchRegionOp:
    """Move `ops` (already in a valid order, detached) into a new dispatch region."""
    escaping = values_escaping(ops)
    body = Block()
    for op in ops:
        body.add_op(op)
    body.add_op(ReturnOp(escaping))
    region_op = DispatchRegionOp([v.type for v in escaping], Region(body))
    for value, result in zip(escaping, region_op.results):
        for use in list(value.uses):
            if use.operation.parent_op() is not region_op and not _inside(use.operation, region_op):
                use.operation.operands[use.index] = result
    return region_op


def _inside(op: Operation, ancestor: Operation) -> bool:
    while op is not None:
        if op is ancestor:
            return True
        op = op.parent_op()
    return False


def rebuild_block(block: Block, analysis: FusionAnalysis) -> list[DispatchRegionOp]:
    order = topological_nodes(analysis)
    for op in analysis.ops:
        op.detach()
    regions: list[DispatchRegionOp] = []
    for node in order:
        if isinstance(node, FusionGroup):
            members = sorted(node.ops, key=analysis.position.__getitem__)
            region_op = build_region(members)
            block.add_op(region_op)
            add_result_dims(region_op)
            regions.append(region_op)
        else:
            block.add_op(node)
    return regions


def leave_padded_1x1_to_iree(analysis: FusionAnalysis, options: FormDispatchRegionsPass) -> None:
    """Drop the groups rooted at a 1x1 conv (with `padded-kxk-min-pixels`, a stride-1 k x k
    conv; with `padded-strided-kxk` too, a strided one) only a pad reads: their ops stay bare
    linalg."""
    def left(root):
        return is_iree_padded_1x1(root, options.padded_min_pixels) or is_iree_padded_kxk(
            root, options.padded_kxk_min_pixels, options.padded_strided_kxk)

    for group in [g for g in analysis.groups if left(g.root)]:
        analysis.groups.remove(group)
        for op in group.ops:
            del analysis.group_of[op]
        pass_statistics.count("padded 1x1 convs left to IREE")


def form_regions_in_block(block: Block, options: FormDispatchRegionsPass, split_slices: bool = True
                          ) -> list[DispatchRegionOp]:
    """Form `block`'s regions with the pass's `options` (`split_slices`: first try computing
    roots read only through disjoint slices per slice, forming each trial the same way)."""
    if split_slices:
        def trial(copy: Block) -> None:
            form_regions_in_block(copy, options, split_slices=False)
            convert_block_to_flow(copy)

        if split := split_sliced_roots(block, trial):
            pass_statistics.count("roots split per slice", split)
    analysis = decide_fusion_groups(block, options.aggressive, options.reduction_chains, options.reduction_forks,
                                    options.transposes_across_reshapes, options.full_reduction_consumers)
    if analysis.forks_left and split_slices:  # counted once, not in split_sliced_roots' trials
        pass_statistics.count("reduction region ends kept out (reduction-forks=false)", len(analysis.forks_left))
    leave_padded_1x1_to_iree(analysis, options)
    if options.im2col_into_contractions and (moved := pull_im2col_into_contractions(analysis)):
        pass_statistics.count("im2col ops formed into their matmul's region", moved)
    if options.guards_into_attention and (moved := pull_guard_reductions_into_attention(analysis)):
        pass_statistics.count("attention NaN-guard reductions formed into the attention's region", moved)
    if options.pads_into_gathers and (moved := pull_pads_into_gathers(analysis)):
        pass_statistics.count("pads formed into their im2col gather's region", moved)
    if options.pads_into_pools and (moved := pull_pads_into_pools(analysis, options.pads_into_pools)):
        pass_statistics.count("pads formed into their pool's region", moved)
    if options.pads_into_depthwise and (moved := pull_pads_into_depthwise_convs(analysis)):
        pass_statistics.count("pads formed into their depthwise conv's region", moved)
    regions = rebuild_block(block, analysis)
    # Regions already in the input (IREE's clone_producers tests start from them) get their
    # cheap producers cloned in like the new ones.
    clone_producers_into_regions([op for op in block.ops if isinstance(op, DispatchRegionOp)])
    erase_dead_clonables(block)
    if options.padded_results:
        regions, taken = write_pads_in_regions(regions, options.padded_results, options.padded_shared_results)
        if taken:
            pass_statistics.count("pads written by their producer's region", taken)
    if options.padded_concats:
        regions, written = write_padded_concats(block, regions)
        if written:
            pass_statistics.count("padded concats written by their parts' regions", written)
    return regions


@dataclass(frozen=True)
class FormDispatchRegionsPass(ModulePass):
    """Group linalg ops into `flow.dispatch.region`s, one root per region.

    Options:
      aggressive      -- also fuse elementwise producers of a root's inputs (not only of its
                         init) when every use lands in the same region (IREE's
                         `aggressive-fusion`). Default false.
      convert-to-flow -- convert the ops left outside regions to flow ops in the same pass
                         (slices/updates/reshapes/splats). Default true.
      reduction-chains -- which chains of reductions over the same rows, joined by
                         row-wise elementwise ops, form one region as IREE's aggressive
                         fusion does: `none`; `normalization` (default: a sum first, e.g.
                         a layer norm's mean then variance: one dispatch, exact two-pass
                         numerics, as fast as two dispatches on llvm-cpu); `all` (also
                         softmax's max, exp, sum: measured 1.8x slower on llvm-cpu).
      reduction-forks -- a reduction's region may end in several ops none of the others
                         read (two epilogues of one normalisation: GPT-NeoX's LayerNorms
                         of one input); default true (llvm-cpu builds it). false: the
                         region keeps one end and each other starts a region of its own,
                         as in IREE's formation (one use fused per op): IREE 3.13's sm_80
                         codegen fails on the fork ("failed to distribute").
      full-reduction-consumers -- a reduction to one element (over every loop) may take
                         consumers into its region (default true: llvm-cpu builds it). false:
                         it is a region of its own: IREE 3.13's sm_80 codegen cannot
                         distribute such a root with any consumer, even one of one element
                         (DynamicQuantizeLinear's range and scale, "failed to distribute").
      transposes-across-reshapes -- an elementwise-only region may transpose on both sides
                         of a reshape that splits or merges dims (MaxViT's window partitions,
                         MobileViT's unfold into patches); default false: it transposes on one
                         side only. As one region IREE 3.13 stages the middle tensor whole: out
                         of sm_80's shared memory (MaxViT), over llvm-cpu's 32 KB stack
                         (MobileViT's 144 x 28 x 28 unfold, bench/iree_limits_found.py).
      padded-min-pixels -- a 1x1 conv (with its epilogue) that only a tensor.pad reads, over
                         at least this many output pixels, gets no region: IREE forms it and
                         writes the pad in its dispatch instead of a copy (16; 0: off).
      padded-kxk-min-pixels -- the same for stride-1 k x k convs (1, the default: all of them;
                         IREE writes the pad, its conv kernel measured as fast as ours in
                         the resnets, bench/RESULTS.md; 0: off).
      padded-strided-kxk -- strided k x k convs too (IREE's strided conv kernel then: it saves
                         the copy, for the fewest-dispatch pipelines); default false.
      pads-into-gathers -- a conv's low pad read only by its im2col patch gather joins the
                         gather's region: no copy dispatch, but the gather measured 1.3-2.3x
                         slower (bench/RESULTS.md); default false.
      pads-into-pools -- a pad read only by an NCHW max or sum pool of at most this many
                         output pixels joins the pool's region: no copy dispatch
                         (`padded_pools.py`: larger stride-1 pools measured up to 1.4x
                         slower); 0 (default): off.
      pads-into-depthwise -- a pad read only by a channels-last depthwise conv with a window
                         of at most 3x3 joins the conv's region: IREE reads the padded
                         window from the unpadded input, where its producer's region would
                         store into a splat IREE fills slowly (`padded_depthwise.py`; the
                         llvm-cpu pipelines; MobileNetV2 0.84x); default false.
      padded-results -- a contraction region whose result (of at most this many elements)
                         only a tensor.pad reads writes the pad itself, into a fill, as
                         IREE's own regions do: no copy dispatch (`padded_results.py`;
                         8192; 0: off).
      padded-shared-results -- also a contraction region's result that other ops read
                         besides the pad of its reshape to an image: the region writes it plain and
                         padded (one more store, no copy dispatch; `padded_results.py` says
                         which forms IREE 3.13 builds); default false.
      padded-concats -- a tensor.pad of a tensor.concat of contraction or conv regions'
                         results (a fire module's or Inception block's output in front of
                         its max pool): the regions store their parts straight into the
                         padded buffer, chained through it (`padded_concats.py`); default
                         false.
      im2col-into-contractions -- an iree_linalg_ext.im2col read only by a contraction
                         joins the contraction's region (`im2col_producers.py`; IREE's rule,
                         false: a region of its own); default true.
      guards-into-attention -- the reduction over keys of 0 * V that a raised attention's
                         NaN guard reads joins the attention's region
                         (`attention_guard_regions.py`; llvm-cpu builds it, IREE 3.13's
                         sm_80 codegen fails on it); default false.
    """

    name = "form-dispatch-regions"

    aggressive: bool = False
    convert_to_flow: bool = True
    reduction_chains: str = "normalization"
    reduction_forks: bool = True
    full_reduction_consumers: bool = True
    transposes_across_reshapes: bool = False
    padded_min_pixels: int = MIN_PIXELS
    padded_kxk_min_pixels: int = 1
    padded_strided_kxk: bool = False
    pads_into_gathers: bool = False
    pads_into_pools: int = 0
    pads_into_depthwise: bool = False
    padded_results: int = PADDED_RESULTS_MAX_ELEMENTS
    padded_shared_results: bool = False
    padded_concats: bool = False
    im2col_into_contractions: bool = True
    guards_into_attention: bool = False

    def __post_init__(self) -> None:
        if self.pads_into_pools < 0:
            raise ValueError(f"pads-into-pools must be 0 (off) or a pixel count, not {self.pads_into_pools}")
        if self.reduction_chains not in CHAIN_STARTS and self.reduction_chains != "none":
            raise ValueError(f"reduction-chains must be none, normalization or all, not '{self.reduction_chains}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Collect first: rebuilding a body while walking it would revisit the moved ops.
        # Every block of a multi-block body (cf.br) forms its own regions; values from
        # dominating blocks are captured from above like function arguments; bodies of scf
        # ops form their own regions too.
        # All blocks form their regions before any is converted: a slice in one block read by
        # a region in a later block is cloned into that region, not copied out first.
        blocks = [b for func in functions_with_body(op) for b in region_forming_blocks(list(func.body.blocks))]
        for block in blocks:
            regions = form_regions_in_block(block, self)
            pass_statistics.count("regions formed", len(regions))
        for block in blocks:
            erase_dead_clonables(block)  # originals cloned into regions of later blocks
        if self.convert_to_flow:
            for block in blocks:
                convert_block_to_flow(block)
