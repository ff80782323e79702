"""`linalg-sink-reshapes`: move a reshape of a root's result below its elementwise consumers.

A `tensor.expand_shape` or `tensor.collapse_shape` between a root (contraction, convolution,
reduction) and the elementwise generic that reads it puts a reshape inside the root's dispatch.
IREE 3.13's CPU codegen cannot tile and fuse through a non-trivial reshape there:

- a matmul whose rows are split by an expand (ConvNeXt's Linear over [1, H, W, C]; ONNX
  `MatMul(x[1, 8, 8, 16], w)` + bias) fails with "'vector.store' op write affecting operations
  on global resources are restricted to workgroup distributed contexts", at every size;
- a grouped conv whose (groups, channels) result is collapsed to channels before its bias +
  ReLU materialises a whole tile on the stack ("exceeded stack allocation limit of 32768
  bytes" at 56x56).

IREE never has these reshapes inside its own dispatches: its BubbleUpExpandShapes moves them
towards the arguments, and SinkReshapes moves the ones blocked at a named op below that op's
consumers by changing the consumers' loops (MLIR's fusion of reshapes by collapsing /
expanding). This pass does the second half for our pipelines, after elementwise fusion:

    %r = expand_shape(root(...))            %g = generic over root's shape (root(...), V')
    %g = generic(%r, V)               ->    %r = expand_shape(%g)

and the same for a collapse (the consumer then iterates the root's finer shape). The consumer
must be an all-parallel, single-result generic with an identity output map that reads the
reshape through an identity map and does not read `linalg.index` (its loops change). A collapse
may also be read through a permutation or with unit loops left unread (a packed conv's epilogue
that transposes to NCHW, or writes [1, M, N] from [M, N]): the moved consumer walks the
collapse's source in order and writes its result transposed, which IREE fuses. A reshape of the
elementwise epilogue of a root (a residual add) moves too when every reader can take it, so it
never sits between two elementwise ops of the root's region. Each
other operand V is read through a projected permutation that keeps each reassociation group
whole and in order, or its non-unit dims whole and in order (a per-channel bias, a residual
of the same shape), or does not read it (a broadcast); V is reshaped the same way (outside any
dispatch: a free `flow.tensor.reshape`), or, when V is another root's result collapsed alike and
read only here, read as it is (two packed convs' sum).
Two reshapes in a row move one after the other: a grouped conv's P x G x F matmul result
(`linalg-conv-channels-last`) is split into N x H x W x G x F and merged into N x H x W x (G*F)
before its bias and ReLU, which then ran as a dispatch of their own (RegNetX 400MF: 120 -> 98
regions, ~10% faster at two threads; bench/RESULTS.md, "Grouped conv epilogues in the matmul's
dispatch").
Only reshapes that split or merge two or more non-unit dims are moved: unit-dim reshapes are
`linalg-fold-unit-reshapes`' business and build. Exact: the same elements are computed.
Why our own code: xDSL has no reshape propagation, and MLIR's is C++.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, IndexType, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand, moves_non_unit_dims, reassociation
from fusionopt.transforms.common.window_ops import is_pad_computed_inside
from fusionopt.transforms.linalg.winograd_transforms import is_output_transform


def is_sinkable_reshape(reshape: Operation) -> bool:
    if not du.is_reshape(reshape) or not all(du.is_static_tensor(v) for v in (*reshape.operands, *reshape.results)):
        return False
    source = reshape.operands[0].owner
    if not (reshapes_root_or_epilogue(reshape) or reshapes_reshaped_root(reshape)) or not moves_non_unit_dims(reshape):
        return False
    return du.is_root_op(source) or only_elementwise_readers(reshape)  # type: ignore[arg-type]


def reshapes_reshaped_root(reshape: Operation) -> bool:
    """The reshape's source is itself a reshape of a root or a root's epilogue: a grouped conv's
    P x G x F matmul result split into N x H x W x G x F, then merged into N x H x W x (G*F)
    for its bias and ReLU. The outer reshape moves first; the inner one then meets the consumer
    and moves on its own, so the epilogue ends in the root's region."""
    source = reshape.operands[0].owner
    return isinstance(source, Operation) and du.is_reshape(source) and reshapes_root_or_epilogue(source)


def reshapes_root_or_epilogue(reshape: Operation) -> bool:
    """The reshape's source is a root, a root's elementwise epilogue (`is_root_epilogue`) or a
    Winograd output transform, which IREE tiles as the producer of the conv's epilogue: through
    the collapse of its 2x2 blocks it cannot fuse and recomputed the transform per tile (a
    56x56x64 conv's output transform and ReLU 2.3 ms, the transform alone 0.09)."""
    source = reshape.operands[0].owner
    return isinstance(source, Operation) and (du.is_root_op(source) or is_root_epilogue(source)
                                               or is_output_transform(source))


def is_root_epilogue(op: Operation) -> bool:
    """An elementwise generic over a root's result (a residual add after a packed projection):
    its region joins the root's, so a reshape of its result would sit inside that region too,
    between it and the next elementwise op (an RMS norm's square)."""
    if op.name != "linalg.generic" or len(op.results) != 1 or not du.is_all_parallel(op):
        return False
    return any(_is_root_result(v) for v in du.dps_inputs(op))


def only_elementwise_readers(reshape: Operation) -> bool:
    """Every reader of the reshape can take it below itself: none is a root (a layer norm's
    mean), whose region the reshape would then split from the elementwise ops after it."""
    value = reshape.results[0]
    return all(is_sinkable_consumer(use.operation, value) for use in value.uses)


def is_sinkable_consumer(op: Operation, reshaped: SSAValue) -> bool:
    if op.name != "linalg.generic" or len(op.results) != 1 or not du.is_all_parallel(op):
        return False
    if any(inner.name == "linalg.index" for inner in op.regions[0].walk()):
        return False
    if op.regions[0].block.args[-1].uses:
        return False  # the body reads the init: a new empty init would change the values
    out_map = du.result_map(op, 0)
    if out_map is None or not du.is_identity_map(out_map) or not du.is_static_tensor(op.results[0]):
        return False
    reads = [m for v, m in zip(du.dps_inputs(op), du.indexing_maps(op)) if v is reshaped]
    if not reads or any(m != reads[0] for m in reads):
        return False
    if reshaped.owner.name == "tensor.collapse_shape":  # type: ignore[union-attr]
        return reads_all_but_unit_loops(op, reads[0])
    return du.is_identity_map(reads[0])


def reads_all_but_unit_loops(op: Operation, read_map: AffineMap) -> bool:
    """`read_map` reads each loop at most once, in any order, with no constant results, and
    every loop it does not read has extent 1 (an epilogue writing [1, M, N] from [M, N])."""
    if not read_map.is_projected_permutation():
        return False
    read = du.dims_read(read_map)
    extents = du.loop_extents(op)
    return None not in read and all(extents[d] == 1 for d in range(read_map.num_dims) if d not in read)


def reshaped_read_map(op: Operation, reshaped: SSAValue) -> AffineMap:
    return next(m for v, m in zip(du.dps_inputs(op), du.indexing_maps(op)) if v is reshaped)


@dataclass(frozen=True)
class Read:
    """How the moved consumer reads one operand: `source` through `map`, after the reshape
    `(builder, groups, type)` of `source` when there is one. Nothing is built until every
    operand of the consumer has a read (`build`)."""

    source: SSAValue
    map: AffineMap
    reshape: tuple | None = None

    def build(self) -> tuple[list[Operation], SSAValue]:
        if self.reshape is None:
            return [], self.source
        make, groups, target = self.reshape
        op = make(self.source, groups, target)
        return [op], op.results[0]


class LoopChange:
    """How the consumer's loops change with the move: `groups[k]` lists the fine loops that
    make coarse loop k (the reshape's reassociation). Moving an expand makes the consumer
    iterate the coarse loops; moving a collapse, the fine ones (`new_rank` of them)."""

    def __init__(self, reshape: Operation, read_map: AffineMap):
        self.groups = reassociation(reshape)
        self.to_coarse = reshape.name == "tensor.expand_shape"
        fine = reshape.results[0] if self.to_coarse else reshape.operands[0]
        self.fine_shape = list(fine.type.get_shape())  # type: ignore[attr-defined]
        self.new_rank = len(self.groups) if self.to_coarse else len(self.fine_shape)
        self.output_map = AffineMap.identity(self.new_rank)
        self.output_groups = self.groups
        self.reshaped_read = AffineMap.identity(self.new_rank)
        if not self.to_coarse and not du.is_identity_map(read_map):
            self._transpose_in_output(read_map)

    def _transpose_in_output(self, read_map: AffineMap) -> None:
        """A collapse read through a permutation (a transposing epilogue), or with unit loops it
        does not read (an epilogue writing [1, M, N]): the moved consumer still walks the
        collapse's source in order (IREE fuses an epilogue that reads its root in its own loop
        order, as `linalg-interchange-for-fusion` makes it), after the unread unit loops, and
        writes its result transposed: consumer loop l, which read the collapsed dim p, becomes
        the fine loops of group p, and the output holds them in the consumer's loop order."""
        positions = du.dims_read(read_map)
        unread = [loop for loop in range(read_map.num_dims) if loop not in positions]
        shift, source_rank = len(unread), len(self.fine_shape)
        reshape_groups = self.groups
        self.groups = [[shift + d for d in reshape_groups[positions.index(loop)]] if loop in positions
                       else [unread.index(loop)] for loop in range(read_map.num_dims)]
        self.fine_shape = [1] * shift + self.fine_shape
        self.new_rank = shift + source_rank
        self.reshaped_read = AffineMap(self.new_rank, 0, tuple(AffineDimExpr(shift + d) for d in range(source_rank)))
        order = [d for group in self.groups for d in group]
        self.output_map = AffineMap(self.new_rank, 0, tuple(AffineDimExpr(d) for d in order))
        sizes = [len(group) for group in self.groups]
        starts = [sum(sizes[:k]) for k in range(len(sizes))]
        self.output_groups = [list(range(start, start + size)) for start, size in zip(starts, sizes)]

    def operand(self, value: SSAValue, operand_map: AffineMap) -> Read | None:
        """How the moved consumer reads `value` in the new loops, or None if it cannot."""
        try:
            dims = du.dims_read(operand_map)
        except ValueError:
            return None
        if self.to_coarse:
            return self._coarse_operand(value, dims)
        return self._fine_operand(value, dims)

    def _coarse_operand(self, value: SSAValue, dims: list[int | None]):
        owner_group = {d: k for k, group in enumerate(self.groups) for d in group}
        groups: list[list[int]] = []
        exprs: list[AffineExpr] = []
        position = 0
        while position < len(dims):
            dim = dims[position]
            if dim is None:
                groups.append([position])
                exprs.append(AffineExpr.constant(0))
                position += 1
                continue
            span = self._group_span(dims[position:], self.groups[owner_group[dim]])
            if span is None:
                return None  # reads part of a group, or out of order: no coarse equivalent
            groups.append(list(range(position, position + span)))
            exprs.append(AffineDimExpr(owner_group[dim]))
            position += span
        return self._reshaped(value, groups, exprs, collapse_value=True)

    def _group_span(self, dims: list[int | None], group: list[int]) -> int | None:
        """How many of the operand's leading `dims` read coarse loop `group`: all of its fine
        loops in order, or all of its non-unit ones (a per-channel bias over the expand of
        [C, P] to [1, C, H, W] reads only C: the unit loop is always 0), else None."""
        if dims[:len(group)] == group:
            return len(group)
        non_unit = [d for d in group if self.fine_shape[d] != 1]
        if non_unit and dims[:len(non_unit)] == non_unit:
            return len(non_unit)
        return None

    def _fine_operand(self, value: SSAValue, dims: list[int | None]):
        shape = list(value.type.get_shape())  # type: ignore[attr-defined]
        groups: list[list[int]] = []
        exprs: list[AffineExpr] = []
        new_shape: list[int] = []
        for position, dim in enumerate(dims):
            start = len(new_shape)
            if dim is None:
                new_shape.append(shape[position])
                exprs.append(AffineExpr.constant(0))
            else:
                fine = self.groups[dim]
                new_shape += [self.fine_shape[d] for d in fine]
                exprs += [AffineDimExpr(d) for d in fine]
            groups.append(list(range(start, len(new_shape))))
        return self._reshaped(value, groups, exprs, collapse_value=False, new_shape=new_shape)

    def _reshaped(self, value, groups, exprs, collapse_value: bool, new_shape=None) -> Read:
        new_map = AffineMap(self.new_rank, 0, tuple(exprs))
        if all(len(g) == 1 for g in groups):
            return Read(value, new_map)
        element = value.type.get_element_type()  # type: ignore[attr-defined]
        if collapse_value:
            shape = value.type.get_shape()  # type: ignore[attr-defined]
            target = TensorType(element, [prod(shape[d] for d in g) for g in groups])
        else:
            target = TensorType(element, new_shape)
        if (source := _undone_reshape(value, groups, target)) is not None:
            return Read(source, new_map)  # the operand is the inverse reshape of a value: read that
        return Read(value, new_map, (collapse if collapse_value else expand, groups, target))

    def new_shape(self, old_shape: list[int]) -> list[int]:
        if self.to_coarse:
            return [prod(old_shape[d] for d in g) for g in self.groups]
        return [self.fine_shape[d] for group in self.groups for d in group]


def _undone_reshape(value: SSAValue, groups: list[list[int]], target: TensorType) -> SSAValue | None:
    """The source of `value` when `value` is a reshape with these groups from a `target`-typed
    value (collapsing an expand, or expanding a collapse, gives the expand's source back)."""
    owner = value.owner
    if isinstance(owner, Operation) and du.is_reshape(owner) and reassociation(owner) == groups:
        if owner.operands[0].type == target:
            return owner.operands[0]
    return None


def _reads_raw_root(read: Read, value: SSAValue) -> bool:
    """The moved consumer reads a root's result as it is: `value` itself, or the source of a
    reshape only this consumer reads that the move undoes (a residual add of two roots whose
    results are collapsed the same way, as packed 1x1 convs leave them)."""
    if read.reshape is not None:
        return False
    return read.source is value or value.has_one_use()


def _is_root_result(value: SSAValue) -> bool:
    return isinstance(value.owner, Operation) and du.is_root_op(value.owner)


class SinkReshapeBelowConsumer(RewritePattern):
    """generic(reshape(root), V...) -> reshape(generic over root's shape(root, V'...)).

    A reshape this pattern built for an operand of a moved consumer (`Read.build`) is never
    moved itself: moving it would undo the move before (Swin V2's post-norm residual add, a
    layer norm's epilogue over a projection's heads beside a flat operand, flipped between the
    two layouts forever)."""

    def __init__(self) -> None:
        self.built_for_reads: set[Operation] = set()

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.generic":
            return
        for value in du.dps_inputs(op):
            reshape = value.owner
            if reshape in self.built_for_reads:
                continue
            if isinstance(reshape, Operation) and is_sinkable_reshape(reshape) and is_sinkable_consumer(op, value):
                if self._sink(op, reshape, rewriter):
                    return

    def _sink(self, op: Operation, reshape: Operation, rewriter: PatternRewriter) -> bool:
        change = LoopChange(reshape, reshaped_read_map(op, reshape.results[0]))
        reads: list[Read] = []
        for value, operand_map in zip(du.dps_inputs(op), du.indexing_maps(op)):
            if value is reshape.results[0]:
                reads.append(Read(reshape.operands[0], change.reshaped_read))
                continue
            read = change.operand(value, operand_map)
            if read is None or _is_root_result(read.source) and not _reads_raw_root(read, value):
                # Reading another root's result reshaped (a new reshape, or the source of
                # one undone that others read too) would put a sinkable reshape in front of the
                # consumer again, or make that root's region return its raw result for another
                # consumer: a residual add of two roots in different layouts would flip between
                # them forever. One root reaches it through a reshape either way: it stays.
                return False
            reads.append(read)
        new_ops: list[Operation] = []
        inputs, maps = [], []
        for read in reads:
            ops, value = read.build()
            new_ops += ops
            self.built_for_reads.update(ops)
            inputs.append(value)
            maps.append(read.map)
        result_type: TensorType = op.results[0].type  # type: ignore[assignment]
        new_type = TensorType(result_type.get_element_type(), change.new_shape(list(result_type.get_shape())))
        init = tensor.EmptyOp([], new_type)
        moved = GenericOp(
            inputs,
            [init.tensor],
            rewriter.move_region_contents_to_new_regions(op.regions[0]),
            [AffineMapAttr(m) for m in (*maps, change.output_map)],
            [IteratorTypeAttr.parallel()] * change.new_rank,
            [new_type],
        )
        back = (expand if change.to_coarse else collapse)(moved.results[0], change.output_groups, result_type)
        read_before = [v.owner for v in du.dps_inputs(op)]
        rewriter.replace(op, [*new_ops, init, moved, back], [back.results[0]])
        for owner in {reshape, *read_before}:  # the moved reshape and any the move undid
            if isinstance(owner, Operation) and du.is_reshape(owner) and not owner.results[0].uses:
                rewriter.erase(owner)
        pass_statistics.count("reshapes sunk below an elementwise consumer")
        return True


class SinkCollapseBelowPad(RewritePattern):
    """pad(collapse(x)) -> collapse(pad(x)) when the pad leaves every merged dim alone (a packed
    conv's result padded for the next 5x5 depthwise conv): region formation then writes the pad
    into the root's region as it does an unreshaped root's (else IREE copies it). Not for a 3x3
    depthwise conv's pad, which its own dispatch computes on llvm-cpu."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tensor.PadOp) or op.low or op.high:
            return
        reshape = op.source.owner
        if not isinstance(reshape, Operation) or reshape.name != "tensor.collapse_shape":
            return
        groups = reassociation(reshape)
        low, high = list(op.static_low.get_values()), list(op.static_high.get_values())
        if not reshapes_root_or_epilogue(reshape):
            return
        if not du.is_static_tensor(op.results[0]) or any(len(g) > 1 and (low[k] or high[k]) for k, g in enumerate(groups)):
            return
        if any(arg.uses for arg in op.regions[0].block.args):
            return  # a padding value that depends on the position
        if is_pad_computed_inside(op):
            return  # the pad goes into the depthwise conv's dispatch (llvm-cpu), the collapse stays free
        fine_low = [low[k] if len(g) == 1 else 0 for k, g in enumerate(groups) for _ in g]
        fine_high = [high[k] if len(g) == 1 else 0 for k, g in enumerate(groups) for _ in g]
        source = reshape.operands[0]
        shape = [d + a + b for d, a, b in zip(source.type.get_shape(), fine_low, fine_high)]  # type: ignore[attr-defined]
        padded = tensor.PadOp(source, [], [], padding_body(op, len(shape)), fine_low, fine_high,
                              TensorType(op.results[0].type.element_type, shape), op.properties.get("nofold"))  # type: ignore[attr-defined]
        back = collapse(padded.results[0], groups, op.results[0].type)  # type: ignore[arg-type]
        rewriter.replace(op, [padded, back], [back.results[0]])
        if not reshape.results[0].uses:
            rewriter.erase(reshape)
        pass_statistics.count("collapses sunk below a pad")


def padding_body(pad: tensor.PadOp, rank: int) -> Region:
    """`pad`'s body (its padding value, position-independent) for a pad of `rank` dims."""
    block = Block(arg_types=[IndexType()] * rank)
    mapping: dict = {}
    for inner in pad.regions[0].block.ops:
        block.add_op(inner.clone(value_mapper=mapping))
    return Region(block)


class LinalgSinkReshapesPass(ModulePass):
    """Move non-unit reshapes of root results below their elementwise consumers (module
    docstring). No options."""

    name = "linalg-sink-reshapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = GreedyRewritePatternApplier([SinkReshapeBelowConsumer(), SinkCollapseBelowPad()])
        PatternRewriteWalker(patterns, apply_recursively=True).rewrite_module(op)
