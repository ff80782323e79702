"""The fusion analysis behind `form-dispatch-regions` (IREE's `decideFusableLinalgOps`): the
groups of top-level ops that will share a dispatch (`FusionGroup`, `FusionAnalysis`) and the
predicates saying whether a producer or a consumer may join a group (`is_fusable_with_producer`,
`is_fusable_with_consumer`). The order in which groups take ops is `fusion_decision.py`'s.

Invariants the predicates keep:
- one root per group: roots never join another group, so a region never holds two
  contractions or a contraction and a reduction. The one exception, with
  `reduction_chains` (reduction_chains.py), is a chain of reductions over the same rows joined by elementwise ops
  (softmax's max then sum, a layer norm's mean then variance): IREE's aggressive fusion
  keeps such a chain in one region (its `softmax_like_fusion` test) and codegens it as one
  kernel tiled along the rows, with the input program's exact two-pass numerics;
- convexity: an op joins only if no path leaves the group and comes back into it, so the
  groups condense into a DAG and each can become a single region.
Rules taken from IREE's tests (dequantizations cloned, packs, mmt4d, aggressive input fusion)
are predicates in iree_rules.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr

from fusionopt.cost_model import tensor_bytes
from fusionopt.transforms.common import consumer_walks as cw
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import moves_non_unit_dims
from fusionopt.transforms.dispatch.reduction_chains import (  # noqa: F401  (re-exported)
    CHAIN_STARTS,
    forks_reduction_group,
    is_sum_reduction,
    reduces_same_rows,
)
from fusionopt.transforms.dispatch.iree_rules import (
    broadcasts_through_constant,
    clones_into_consumers,
    encoding_joins_producer,
    expands_into_reduction,
    ext_root_takes_producer,
    init_producer_escapes_only,
    is_dequantization_like,
    is_full_reduction,
    pack_joins_producer,
    reads_reshape_at_constant,
    reads_stored_i1,
    reshape_read_at_constant,
    reshape_stops_tiling,
    reshape_then_reorders,
    takes_consumers,
    takes_input_producers,
)


@dataclass(eq=False)
class FusionGroup:
    """Ops that will share one dispatch. `root` is the group's single root op."""

    index: int
    root: Operation
    ops: set[Operation] = field(default_factory=set)
    # Earlier reductions of a reduction chain (see `chain_reductions`); `root` is the last.
    chained: list[Operation] = field(default_factory=list)

    def is_root_result(self, value: SSAValue) -> bool:
        return value.owner is self.root or value.owner in self.chained

    @property
    def is_elementwise_only(self) -> bool:
        return not du.is_root_op(self.root)


class FusionAnalysis:
    """Use/def facts about one block, computed once, plus the groups decided so far."""

    def __init__(self, block: Block, aggressive: bool, reduction_forks: bool = True,
                 transposes_across_reshapes: bool = False, full_reduction_consumers: bool = True):
        self.block = block
        self.aggressive = aggressive
        # False: an elementwise-only region transposes on one side of a reshape only
        # (`transposes_twice_across_reshape`).
        self.transposes_across_reshapes = transposes_across_reshapes
        # False: a reduction's region ends in one op (`forks_reduction_group`); the consumers
        # left out for that are recorded in `forks_left`.
        self.reduction_forks = reduction_forks
        # False: a reduction to one element takes no consumer (`is_full_reduction`).
        self.full_reduction_consumers = full_reduction_consumers
        self.forks_left: set[Operation] = set()
        self.ops = list(block.ops)
        self.position = {op: i for i, op in enumerate(self.ops)}
        self.producers: dict[Operation, list[Operation]] = {}
        self.users: dict[Operation, set[Operation]] = {op: set() for op in self.ops}
        for op in self.ops:
            producers: list[Operation] = []
            for value in du.values_used_inside(op):
                defining = du.defining_op_in(block, value)
                if defining is not None and defining not in producers:
                    producers.append(defining)
                    self.users[defining].add(op)
            self.producers[op] = producers
        self.group_of: dict[Operation, FusionGroup] = {}
        self.groups: list[FusionGroup] = []

    # -- bookkeeping ------------------------------------------------------------------------

    def new_group(self, root: Operation) -> FusionGroup:
        group = FusionGroup(len(self.groups), root)
        self.groups.append(group)
        self.add(group, root)
        return group

    def add(self, group: FusionGroup, op: Operation) -> None:
        group.ops.add(op)
        self.group_of[op] = group

    def remove(self, group: FusionGroup, op: Operation) -> None:
        group.ops.discard(op)
        del self.group_of[op]

    def all_uses_in(self, op: Operation, group: FusionGroup) -> bool:
        users = self.users[op]
        return bool(users) and all(self.group_of.get(u) is group for u in users)

    def depends_on_group(self, op: Operation, group: FusionGroup) -> bool:
        """True if `op` (outside `group`) transitively uses a value computed in `group`.

        Other groups are treated as single nodes (a region depends on everything any of its
        ops uses). Ops placed before the group's first op cannot depend on it: pruned.
        """
        first = min(self.position[o] for o in group.ops)
        seen: set[Operation] = set()
        stack = [op]
        while stack:
            current = stack.pop()
            if current in seen or self.position[current] < first:
                continue
            seen.add(current)
            if self.group_of.get(current) is group:
                return True
            other = self.group_of.get(current)
            members = other.ops if other is not None else (current,)
            for member in members:
                stack.extend(p for p in self.producers[member] if p not in seen)
        return False

    def merge_lone_root(self, group: FusionGroup, target: FusionGroup) -> bool:
        """Move the root of the one-op `group` into `target` (dropping `group`) if `target`
        stays convex. Returns whether it moved."""
        if not self.keeps_group_convex(target, group.root):
            return False
        self.groups.remove(group)
        self.remove(group, group.root)
        self.add(target, group.root)
        return True

    def keeps_group_convex(self, group: FusionGroup, candidate: Operation) -> bool:
        """Adding `candidate` must not create a path group -> outside -> group."""
        for producer in self.producers[candidate]:
            if self.group_of.get(producer) is group:
                continue
            if self.depends_on_group(producer, group):
                return False
        return True


# --- predicates (IREE: isRootOp / isFusableWithConsumer / isFusableWithProducer) ----------


def is_consumer_kind(op: Operation, group: FusionGroup) -> bool:
    """Ops that may follow the group's ops into its dispatch.

    Slices are not among them: a contiguous slice becomes a `flow.tensor.slice` between
    dispatches, and a non-contiguous one is cloned into each *consumer's* dispatch as an
    indexed read (a region returning slices of its own result fails IREE's CPU codegen).
    Nor is `tensor.insert_slice`, even into a fill (IREE's rule): IREE 3.13 fails to compile
    such a pre-formed region (measured), so the insert stays outside as a
    `flow.tensor.update` of a splat when contiguous, or a copy dispatch when not.
    A pad joins only an elementwise group (luminal's slice -> pointwise -> pad), never with low
    padding (`dispatch_utils.has_low_padding`: IREE 3.13 computes it wrongly inside a region);
    padding a conv's or matmul's result inside its dispatch fails IREE 3.13's CPU codegen
    (squeezenet's -inf pad before a ceil-mode max pool: "large vector sizes" on the conv's
    bias). Such pads stay at top level for IREE to write as fill + insert."""
    if op.name == "tensor.pad":
        return group.is_elementwise_only and not du.has_low_padding(op)
    return du.is_elementwise_linalg(op) or du.is_reshape(op)


def is_fusable_with_consumer(analysis: FusionAnalysis, group: FusionGroup, consumer: Operation) -> bool:
    if consumer in analysis.group_of or du.is_root_op(consumer) or du.is_clonable_into_dispatch(consumer):
        return False
    if not group.is_elementwise_only and not takes_consumers(group.root):
        return False  # iree_rules: mmt4d microkernels, LinalgExt roots other than attention
    if consumer.name == "linalg.pack":
        return pack_joins_producer(consumer) and analysis.keeps_group_convex(group, consumer)
    if consumer.name == "iree_encoding.set_encoding":
        return encoding_joins_producer(consumer) and analysis.keeps_group_convex(group, consumer)
    if not is_consumer_kind(consumer, group) or transposes_twice_across_reshape(analysis, group, consumer):
        return False
    if du.is_reshape(consumer) and reshape_stops_tiling(group.root, group.is_elementwise_only, consumer):
        return False
    if not group.is_elementwise_only and is_dequantization_like(consumer):
        return False  # iree_rules: a widening cast stays out of a root's dispatch
    if (du.is_convolution(group.root) or du.is_contraction(group.root)) and _replicates_group_value(analysis, group, consumer):
        return False
    if not analysis.full_reduction_consumers and is_full_reduction(group.root):
        return False
    if not analysis.reduction_forks and forks_reduction_group(analysis, group, consumer):
        analysis.forks_left.add(consumer)
        return False
    for value in _values_from_group(analysis, group, consumer):
        if not du.is_linalg(consumer):
            continue
        if gathers_group_value(consumer, value) or reads_stored_i1(consumer, value, group.ops | {group.root}):
            return False
        operand_maps = du.operand_maps(consumer, value)
        if not operand_maps:
            return False  # only read inside the payload (e.g. tensor.extract): not tileable
        if not all(m.is_projected_permutation(allow_zero_in_results=True) for m in operand_maps):
            return False
        if group.is_elementwise_only:
            if reads_reshape_at_constant(consumer, value, group.ops, group.root):
                return False
            continue
        if group.is_root_result(value):
            if not cw.reads_root_result_compatibly(value.owner, consumer, value):
                return False
            if broadcasts_through_constant(consumer, value):
                return False
        elif not cw.reads_in_loop_order(consumer, value) or reshape_then_reorders(consumer, value, group.ops, group.root):
            # A transposing read of the root's epilogue (or of a reshape of it) cannot be
            # tiled along the root's loops: IREE 3.13 rejects such a region ("failed on
            # workgroup distribution verification"). It starts a dispatch of its own.
            return False
    return analysis.keeps_group_convex(group, consumer)


def _values_from_group(analysis: FusionAnalysis, group: FusionGroup, op: Operation) -> list[SSAValue]:
    return [
        v
        for v in du.values_used_inside(op)
        if (d := du.defining_op_in(analysis.block, v)) is not None and analysis.group_of.get(d) is group
    ]


def transposes_twice_across_reshape(analysis: FusionAnalysis, group: FusionGroup, op: Operation) -> bool:
    """`op` transposes, and the elementwise-only `group` already holds a transpose and a reshape
    that splits or merges dims: one region would transpose on both sides of the reshape.
    IREE 3.13 stages such a region's whole tensor: in sm_80's shared memory (MaxViT's
    block-to-grid partition, three transposes between reshapes: "uses 802816 bytes of shared
    memory; exceeded the limit of 166912 bytes"), on llvm-cpu's stack (MobileViT's unfold:
    "exceeded stack allocation limit of 32768 bytes")."""
    if analysis.transposes_across_reshapes or not group.is_elementwise_only or not cw.is_transposing(op):
        return False
    members = [*group.ops, group.root]
    return (any(cw.is_transposing(m) for m in members)
            and any(du.is_reshape(m) and moves_non_unit_dims(m) for m in members))


def is_fusable_with_producer(
    analysis: FusionAnalysis, group: FusionGroup, producer: Operation, consumer: Operation
) -> bool:
    """A producer joins when every use of it is in the group. Cheap ops are cloned instead.

    Without `aggressive`, a contraction/reduction root only takes the producer of its init
    (an elementwise op on a matmul's LHS keeps its own dispatch, as in IREE)."""
    if producer in analysis.group_of or du.is_root_op(producer) or du.is_clonable_into_dispatch(producer):
        return False
    if clones_into_consumers(producer):
        return False  # cloned into each consumer's region instead (iree_rules)
    if transposes_twice_across_reshape(analysis, group, producer):
        return False
    if consumer.name in du.EXT_ROOT_NAMES and consumer.name != "iree_linalg_ext.attention":
        return _ext_root_takes(analysis, group, producer, consumer)
    if producer.name == "iree_encoding.unset_encoding":
        # IREE fuses unset_encoding -> elementwise consumers (its root_on_unset_encoding): the
        # decoded tensor is read in the consumer's dispatch instead of written out first.
        fits = du.is_elementwise_linalg(consumer) and analysis.all_uses_in(producer, group)
        return fits and analysis.keeps_group_convex(group, producer)
    if consumer.name == "linalg.pack" and not pack_joins_producer(consumer):
        return False
    if du.has_low_padding(producer):
        # A low pad stays at top level, where IREE writes it itself (fill + insert): inside a
        # pre-formed region with its producer IREE 3.13 computes it wrongly, and inside the
        # consumer conv's region it builds right but the conv runs 2.2x (resnet_mini) / 1.4x
        # (mobilenet_mini) slower than with the pad outside (bench/RESULTS.md, CNN section).
        return False
    if not (du.is_elementwise_linalg(producer) or du.is_reshape(producer)):
        return False
    if group.is_elementwise_only and reshape_read_at_constant(producer, consumer):
        return False
    if gathers_from(consumer, producer) or reads_windows_of(consumer, producer):
        return False
    feeds_init = any(v.owner is producer for v in du.dps_inits(consumer))
    if not analysis.all_uses_in(producer, group) and not (
        analysis.aggressive and feeds_init and init_producer_escapes_only(producer, consumer)
    ):
        return False
    if not group.is_elementwise_only and not feeds_init and not expands_into_reduction(producer, consumer):
        if not analysis.aggressive or not takes_input_producers(consumer):
            return False
    return analysis.keeps_group_convex(group, producer)


# The largest producer result a consumer may gather from in the same region: IREE keeps the
# whole value on the stack, whose limit on CPU is 32 KB (a quarter of it, for the rest).
GATHER_SOURCE_MAX_BYTES = 8192


def gathers_from(consumer: Operation, producer: Operation) -> bool:
    """The consumer reads a result of `producer` of more than GATHER_SOURCE_MAX_BYTES inside its
    payload (`tensor.extract` at computed indices), not through an indexing map. IREE cannot
    tile such a read along the consumer's loops, so in one region it keeps the whole producer
    on the stack (a bilinear Resize's two separable passes at 32x32 -> 256x256: 688128 bytes >
    32 KB). A small one (BERT's 64-token mask) is cheaper in the region than as a dispatch."""
    return any(read_in_payload(consumer, result) and not fits_on_stack(result) for result in producer.results)


def reads_windows_of(consumer: Operation, producer: Operation) -> bool:
    """The consumer reads a result of the elementwise `producer` through overlapping windows
    (a patch copy's `ow * s + kw` with more window positions than elements, kw > s): elements
    are read by several iterations, so in one region the producer would be recomputed for each
    (a GroupNorm + GELU in wav2vec2's first patch copy: 35 ms against 2 ms apart), and IREE
    leaves the fused copy scalar. Non-overlapping windows (ConvNeXt's 2x2 stride-2 patches)
    read each element once and still take their producer."""
    if "indexing_maps" not in consumer.properties or not du.is_elementwise_linalg(producer):
        return False
    extents = du.loop_extents(consumer)
    for result in producer.results:
        read = du.operand_map(consumer, result)
        shape = result.type.get_shape() if isinstance(result.type, TensorType) else ()
        if read is not None and any(overlaps(expr, size, extents) for expr, size in zip(read.results, shape)):
            return True
    return False


def overlaps(expr, size: int, extents: list[int | None]) -> bool:
    """A compound map result whose loops take more positions than the `size` elements it reads
    (a pigeonhole: some element is read twice)."""
    if isinstance(expr, (AffineDimExpr, AffineConstantExpr)):
        return False
    dims = sorted(expr.used_dims())
    positions = 1
    for d in dims:
        if extents[d] is None:
            return True  # a dynamic window: assume it overlaps
        positions *= extents[d]
    return positions > size


def read_in_payload(consumer: Operation, value: SSAValue) -> bool:
    """`value` is used inside the consumer's payload (not only as its operand)."""
    return any(use.operation is not consumer and consumer.is_ancestor(use.operation) for use in value.uses)


def gathers_group_value(consumer: Operation, value: SSAValue) -> bool:
    """The consumer reads the group's `value` inside its payload (`tensor.extract`) as well as
    through an operand, or reads a value too big for the stack there (`gathers_from`'s rule).
    Read both ways, IREE 3.13's CPU codegen tiles the producer into the consumer's loop and
    leaves the payload's read of the whole value behind ("operand #0 does not dominate this
    use": Gemma 3's query norm feeding a rotary rotate-half, which reads the normed heads at
    rotated indices and in place)."""
    return read_in_payload(consumer, value) and (value in consumer.operands or not fits_on_stack(value))


def fits_on_stack(value: SSAValue) -> bool:
    return du.is_static_tensor(value) and tensor_bytes(value) <= GATHER_SOURCE_MAX_BYTES


def _ext_root_takes(analysis: FusionAnalysis, group: FusionGroup, producer: Operation, consumer: Operation) -> bool:
    """Only through the operand iree_rules.ext_root_takes_producer allows."""
    if not ext_root_takes_producer(consumer, producer, analysis.aggressive):
        return False
    if not du.is_elementwise_linalg(producer) or not analysis.all_uses_in(producer, group):
        return False
    return analysis.keeps_group_convex(group, producer)


def _replicates_group_value(analysis: FusionAnalysis, group: FusionGroup, consumer: Operation) -> bool:
    """The consumer iterates a loop of extent > 1 that its read of a group value does not index
    (a squeeze-excite scale: `x * conv(pooled)[n, c, 0, 0]`). IREE 3.13's CPU codegen fails to
    build a convolution dispatch with such a consumer ("failed to run translation"), nor the
    matmul a 1x1 conv becomes ("failed on workgroup distribution verification"), so it starts
    a dispatch of its own. Reduction roots keep such consumers (a layer norm's normalisation
    reads its row statistics that way, and IREE builds it)."""
    if not du.is_linalg(consumer):
        return False
    extents = du.loop_extents(consumer)
    for value in _values_from_group(analysis, group, consumer):
        operand_map = du.operand_map(consumer, value)
        if operand_map is None:
            continue
        read = {e.position for e in operand_map.results if isinstance(e, AffineDimExpr)}
        if any(extent != 1 and loop not in read for loop, extent in enumerate(extents)):
            return True
    return False
