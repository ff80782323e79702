"""`linalg-horizontal-fuse-contractions`: matmuls that read one activation with different weights
(an attention layer's Q, K and V projections) become one multi-result contraction.

IREE's `FuseHorizontalContractions` (its `--iree-dispatch-creation-enable-fuse-horizontal-
contractions` flag) builds the same form at dispatch creation: one `linalg.generic` whose body
multiplies the shared input by each weight and accumulates into one output per weight; region
formation then puts it and each result's epilogue in one dispatch. This pass does it at linalg
level, for weights that are function arguments (no runtime concat of the weights), so the
activation is read once and IREE gets one dispatch where it had one per projection:

    %q = linalg.batch_matmul ins(%x, %wq) outs(fill)     %qkv:3 = linalg.generic {maps: x, wq, wk, wv,
    %k = linalg.batch_matmul ins(%x, %wk) outs(fill)  ->          out x 3} ins(%x, %wq, %wk, %wv)
    %v = linalg.batch_matmul ins(%x, %wv) outs(fill)              outs(fill, fill, fill)
                                                               (out_i += x * w_i)

Opt-in (not in a pipeline; run it just before `form-dispatch-regions`: the passes before that
read single-result contractions). Measured on IREE's llvm-cpu backend (bench/RESULTS.md,
"Matmul register tiles on CPU"): with IREE's own tile for the fused root bert_mini is 1.32x
slower than with three matmuls (IREE's best flags lose the same way); with the register tile
`dispatch-matmul-cpu-tiles` gives it (4 rows x 16 columns per result) bert_mini is as fast
(1.00x, two dispatches fewer per layer) but minilm_l6 1.05x-1.13x slower, whatever the tile.
So it saves dispatches (bert_mini 27 -> 23, minilm_l6 87 -> 75) at no gain on this CPU; the
GPU, where IREE's own horizontal fusion is what makes its best flags fast, is unmeasured.

Members of a group: `linalg.matmul` / `linalg.batch_matmul` ops of one block with the same first
input, the same indexing maps, operand types and (float) element type, each second input a
different value, each init a `linalg.fill` of a value defined before the first member (or a
constant, cloned there), and every second input defined before the first member too. The fused op goes where the first member
was, with fresh fills; at most `max-results` (3) members per group, in block order.

With `across-inputs`, same-shaped matmuls over *different* activations fuse too, once the shared
ones have: parallel towers at one depth (mlp_towers' second and third layers), into one generic
with an (activation, weight) input pair per result. No member may read another's result,
directly or through other ops; what the later members read is moved in front of the first
member (nothing moved reads a member, so the order stays valid). mlp_towers with its weights as
arguments becomes 3 IREE dispatches (IREE: 12) at IREE default's time (1.00x; the towers apart,
10 dispatches, 1.07x: bench/RESULTS.md, "mlp_towers in three dispatches"). On in
`dispatch-creation-llvm-cpu-fewest`, with `max-results=4`.

Statistics: `matmuls fused horizontally`, `matmuls over different activations fused`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, MemRefType, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.use_def import downstream_bits
from fusionopt.transforms.dispatch.matmul_cpu_tiles import DispatchMatmulCpuTilesPass
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import erase_dead_init_chain

NAMED_MATMULS = ("linalg.matmul", "linalg.batch_matmul")


def defined_before(value: SSAValue, op: Operation) -> bool:
    """`value` is available in front of `op`: a block argument, defined in an enclosing block,
    or by an op before `op` in its block."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return True
    if owner.parent_block() is not op.parent_block():
        return True
    return owner.is_before_in_block(op)


def fill_scalar(init: SSAValue) -> SSAValue | None:
    """The scalar a `linalg.fill` init fills with, else None."""
    owner = init.owner
    return owner.inputs[0] if isinstance(owner, FillOp) else None


def group_key(op: Operation) -> tuple | None:
    """What members of one group share: the activation, the maps, the operand types."""
    if op.name not in NAMED_MATMULS or len(op.results) != 1 or not isinstance(op.results[0].type, TensorType):
        return None
    if op.attributes:  # a config or marker of its own (IREE's compilation_info) would be lost
        return None
    element = op.results[0].type.element_type
    types = tuple(v.type for v in (*du.dps_inputs(op), *du.dps_inits(op)))
    if not isinstance(element, AnyFloat) or any(getattr(t, "element_type", None) != element for t in types):
        return None
    if not all(isinstance(t, TensorType) and t.has_static_shape() for t in types):
        return None  # (the fused result's empty would need the dynamic sizes)
    return (du.dps_inputs(op)[0], op.name, tuple(du.indexing_maps(op)), types)


def movable_scalar(value: SSAValue | None, first: Operation) -> bool:
    """`value` exists in front of `first`, or is a constant that can be cloned there."""
    if value is None:
        return False
    return defined_before(value, first) or (isinstance(value.owner, Operation) and value.owner.name == "arith.constant")


def scalar_before(value: SSAValue, first: Operation) -> tuple[list[Operation], SSAValue]:
    """`value` usable in front of `first`: itself, or a clone of its constant (returned to insert)."""
    if defined_before(value, first):
        return [], value
    constant = value.owner.clone()  # type: ignore[union-attr]
    return [constant], constant.results[0]


def can_join(op: Operation, first: Operation) -> bool:
    """`op` can be computed where `first` is: its weight exists there, and its fill's value (or a
    clone of that constant)."""
    return movable_scalar(fill_scalar(du.dps_inits(op)[0]), first) and defined_before(du.dps_inputs(op)[1], first)


def groups_of(block: Block, max_results: int,
              key_of: Callable[[Operation], tuple | None] = group_key) -> list[list[Operation]]:
    """Sibling matmul groups of `block` (module docstring), each of 2..max_results members;
    `key_of` says what members share (None: not a member)."""
    by_key: dict[tuple, list[Operation]] = defaultdict(list)
    for op in block.ops:
        key = key_of(op)
        if key is not None:
            by_key[key].append(op)
    groups = []
    for members in by_key.values():
        while len(members) >= 2:
            first, rest = members[0], members[1:]
            if not movable_scalar(fill_scalar(du.dps_inits(first)[0]), first):
                members = rest
                continue
            weights = {du.dps_inputs(first)[1]}
            group = [first]
            for op in rest:
                if len(group) < max_results and can_join(op, first) and du.dps_inputs(op)[1] not in weights:
                    group.append(op)
                    weights.add(du.dps_inputs(op)[1])
            if len(group) >= 2:
                groups.append(group)
            members = [op for op in rest if op not in group]
    return groups


def later_producers(op: Operation, first: Operation, order: dict[Operation, int]) -> set[Operation]:
    """The ops of `op`'s block from `first` on whose results `op` reads, directly or through
    others (values read inside nested bodies, a captured constant say, count too)."""
    block, seen, stack = op.parent_block(), set(), [op]
    while stack:
        for nested in stack.pop().walk():
            for value in nested.operands:
                owner = value.owner
                if isinstance(owner, Operation) and owner.parent_block() is block and order[owner] >= order[first] \
                        and owner not in seen:
                    seen.add(owner)
                    stack.append(owner)
    return seen


def movable(op: Operation) -> bool:
    """`op` computes values only (tensors and scalars: no buffers, no calls), so running it
    earlier changes nothing else."""
    if op.name.startswith(("func.call", "memref.", "bufferization.")):
        return False
    return not any(isinstance(v.type, MemRefType) for v in (*op.operands, *op.results))


def tower_group(block: Block, max_results: int,
                accept: Callable[[list[Operation]], bool] = lambda group: True) -> tuple[list[Operation], set[Operation]] | None:
    """The first group of 2..max_results same-shaped matmuls over different activations (parallel
    towers at one depth) that `accept`s, none reading another's result, in block order, what the
    later ones read `movable`, and those ops (`hoist_producers` moves them); else None."""
    order = {op: i for i, op in enumerate(block.ops)}
    reads_group = _group_reader(block, order)
    by_key: dict[tuple, list[Operation]] = defaultdict(list)
    for op in block.ops:
        key = group_key(op)
        if key is not None and fill_scalar(du.dps_inits(op)[0]) is not None:
            by_key[key[1:]].append(op)
    for members in by_key.values():
        for start, first in enumerate(members):
            group, operands, moved = [first], {du.dps_inputs(first)}, set()
            for op in members[start + 1:]:
                if len(group) == max_results or du.dps_inputs(op) in operands or reads_group(op, group):
                    continue
                producers = later_producers(op, first, order)
                if all(movable(p) for p in producers):
                    group.append(op)
                    operands.add(du.dps_inputs(op))
                    moved |= producers
            if len(group) >= 2 and accept(group):
                return group, moved
    return None


def _group_reader(block: Block, order: dict[Operation, int]) -> Callable[[Operation, list[Operation]], bool]:
    """Whether an op reads a member of a group, directly or through others: a bit test on
    `use_def.downstream_bits` (a walk per candidate took minutes on an unrolled GRU's 400
    matvecs), the walk where the block is not in dataflow order."""
    bits = downstream_bits(block)
    if bits is None:
        return lambda op, group: bool(later_producers(op, group[0], order) & set(group))
    position, reached = bits
    return lambda op, group: any((reached[member] >> position[op]) & 1 for member in group)


def loses_register_tile(group: list[Operation]) -> bool:
    """Each member alone gets `dispatch-matmul-cpu-tiles`' register tile (whole or peeled) but
    their fused op would not (each result's M and N whole multiples of its share of the tile)."""
    defaults = DispatchMatmulCpuTilesPass()
    tile = defaults.register_tile()
    shape = group[0].results[0].type.get_shape()  # type: ignore[attr-defined]
    if len(shape) < 2:
        return False
    m, n = shape[-2], shape[-1]
    alone = tile.fits(m, n) or (defaults.partial_tiles and tile.peelable(m, n))
    return alone and not tile.per_result(len(group)).fits(m, n)


def hoist_producers(group: list[Operation], moved: set[Operation]) -> None:
    """Move `moved`, what the later members read (and what that reads), in front of the first
    member, in block order, so one op there can compute them all. Nothing moved reads a member
    (the group's members are independent), so every move keeps its operands defined before it."""
    first = group[0]
    block = first.parent_block()
    order = {op: i for i, op in enumerate(block.ops)}
    for op in sorted(moved, key=order.__getitem__):
        op.detach()
        block.insert_op_before(op, first)


def multiply_accumulate_body(pairs: list[tuple[int, int]], n_inputs: int, element) -> Region:
    """`^bb(in_1..in_k, o_1..o_n): yield o_i + in_a * in_b`, (a, b) the i-th of `pairs`."""
    block = Block(arg_types=[element] * (n_inputs + len(pairs)))
    ins, outs = block.args[:n_inputs], block.args[n_inputs:]
    sums = []
    for (a, b), o in zip(pairs, outs, strict=True):
        product = arith.MulfOp(ins[a], ins[b])
        total = arith.AddfOp(o, product)
        block.add_ops([product, total])
        sums.append(total.result)
    block.add_op(YieldOp(*sums))
    return Region(block)


def contraction_operands(group: list[Operation], shared: bool) -> tuple[list[SSAValue], list, list[tuple[int, int]]]:
    """(inputs, their maps, the input pair of each result) of the fused op: the shared activation
    once and each weight, or each member's activation and weight in turn."""
    maps = du.indexing_maps(group[0])
    if shared:
        inputs = [du.dps_inputs(group[0])[0], *(du.dps_inputs(op)[1] for op in group)]
        return inputs, [maps[0]] + [maps[1]] * len(group), [(0, 1 + i) for i in range(len(group))]
    inputs = [v for op in group for v in du.dps_inputs(op)]
    return inputs, [maps[0], maps[1]] * len(group), [(2 * i, 2 * i + 1) for i in range(len(group))]


def fresh_fills(group: list[Operation], result_type: TensorType) -> tuple[list[Operation], list[SSAValue]]:
    """(ops to insert in front of the group's first member, the inits they make): a fill of
    `result_type` with each member's fill value."""
    new_ops: list[Operation] = []
    inits = []
    for op in group:
        scalar_ops, scalar = scalar_before(fill_scalar(du.dps_inits(op)[0]), group[0])
        empty = tensor.EmptyOp([], result_type)
        fill = FillOp([scalar], [empty.tensor], [result_type])
        new_ops += [*scalar_ops, empty, fill]
        inits.append(fill.results[0])
    return new_ops, inits


def fuse_group(group: list[Operation], shared: bool = True) -> None:
    """Replace `group` by one multi-result generic where its first member was."""
    first = group[0]
    result_type = first.results[0].type
    new_ops, inits = fresh_fills(group, result_type)
    inputs, in_maps, pairs = contraction_operands(group, shared)
    map_attrs = [AffineMapAttr(m) for m in (*in_maps, *[du.indexing_maps(first)[2]] * len(group))]
    fused = GenericOp(inputs, inits, multiply_accumulate_body(pairs, len(inputs), result_type.element_type), map_attrs,
                      list(first.get_iterator_types().data), [result_type] * len(group))
    rewriter = PatternRewriter(first)
    rewriter.insert([*new_ops, fused], InsertPoint.before(first))
    for index, op in enumerate(group):
        old_init = du.dps_inits(op)[0].owner
        rewriter.replace(op, [], [fused.results[index]])
        erase_dead_init_chain(old_init, rewriter)
    pass_statistics.count("matmuls fused horizontally", len(group))
    if not shared:
        pass_statistics.count("matmuls over different activations fused", len(group))


@dataclass(frozen=True)
class LinalgHorizontalFuseContractionsPass(ModulePass):
    """Sibling matmuls over one activation -> one multi-result contraction generic.

    Options:
      max-results -- at most this many matmuls per fused op (3: Q, K, V).
      across-inputs -- then also fuse same-shaped matmuls over different activations that do not
        read each other's results (parallel towers at one depth), moving what they read first.
      tiled-only -- leave a group apart when each matmul alone gets `dispatch-matmul-cpu-tiles`'
        register tile (whole or peeled) and their fused op would not (per result, M and N whole
        tiles): IREE gives that its generic kernel, and a Llama block's gate and up projections
        (N = 688, two results of 32 columns) took 1,568 us where the two matmuls take 2 x 241
        us. Groups no tile fits either way (one-row matvecs: mlp_towers) still fuse. Off by
        default; on in the fewest pipeline.
    """

    name = "linalg-horizontal-fuse-contractions"
    max_results: int = 3
    across_inputs: bool = False
    tiled_only: bool = False

    def accepts(self, group: list[Operation]) -> bool:
        return not self.tiled_only or not loses_register_tile(group)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = [b for o in op.walk() for r in o.regions for b in r.blocks]
        for block in blocks:
            for group in groups_of(block, self.max_results):
                if self.accepts(group):
                    fuse_group(group)
                else:
                    pass_statistics.count("sibling matmul groups left apart: no CPU register tile fits")
            while self.across_inputs and (found := tower_group(block, self.max_results, self.accepts)) is not None:
                group, moved = found
                hoist_producers(group, moved)
                fuse_group(group, shared=False)
