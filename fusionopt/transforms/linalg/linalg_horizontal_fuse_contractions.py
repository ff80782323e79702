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
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
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


def groups_of(block: Block, max_results: int) -> list[list[Operation]]:
    """Sibling matmul groups of `block` (module docstring), each of 2..max_results members."""
    by_key: dict[tuple, list[Operation]] = defaultdict(list)
    for op in block.ops:
        key = group_key(op)
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


def multiply_accumulate_body(count: int, element) -> Region:
    """`^bb(x, w_1..w_n, o_1..o_n): yield o_i + x * w_i`."""
    block = Block(arg_types=[element] * (1 + 2 * count))
    x, weights, outs = block.args[0], block.args[1:1 + count], block.args[1 + count:]
    sums = []
    for w, o in zip(weights, outs, strict=True):
        product = arith.MulfOp(x, w)
        total = arith.AddfOp(o, product)
        block.add_ops([product, total])
        sums.append(total.result)
    block.add_op(YieldOp(*sums))
    return Region(block)


def fuse_group(group: list[Operation]) -> None:
    """Replace `group` by one multi-result generic where its first member was."""
    first = group[0]
    maps = du.indexing_maps(first)
    result_type = first.results[0].type
    new_ops: list[Operation] = []
    inits = []
    for op in group:
        scalar_ops, scalar = scalar_before(fill_scalar(du.dps_inits(op)[0]), first)
        empty = tensor.EmptyOp([], result_type)
        fill = FillOp([scalar], [empty.tensor], [result_type])
        new_ops += [*scalar_ops, empty, fill]
        inits.append(fill.results[0])
    inputs = [du.dps_inputs(first)[0], *(du.dps_inputs(op)[1] for op in group)]
    map_attrs = [AffineMapAttr(maps[0])] + [AffineMapAttr(maps[1])] * len(group) + [AffineMapAttr(maps[2])] * len(group)
    fused = GenericOp(inputs, inits, multiply_accumulate_body(len(group), result_type.element_type), map_attrs,
                      list(first.get_iterator_types().data), [result_type] * len(group))
    rewriter = PatternRewriter(first)
    rewriter.insert([*new_ops, fused], InsertPoint.before(first))
    for index, op in enumerate(group):
        old_init = du.dps_inits(op)[0].owner
        rewriter.replace(op, [], [fused.results[index]])
        erase_dead_init_chain(old_init, rewriter)
    pass_statistics.count("matmuls fused horizontally", len(group))


@dataclass(frozen=True)
class LinalgHorizontalFuseContractionsPass(ModulePass):
    """Sibling matmuls over one activation -> one multi-result contraction generic.

    Options:
      max-results -- at most this many matmuls per fused op (3: Q, K, V).
    """

    name = "linalg-horizontal-fuse-contractions"
    max_results: int = 3

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = [b for o in op.walk() for r in o.regions for b in r.blocks]
        for block in blocks:
            for group in groups_of(block, self.max_results):
                fuse_group(group)
