"""Carry a 1x1 conv's flat F x (H*W) result through its elementwise consumers.

`linalg-conv-1x1-to-matmul` computes a stride-1 1x1 conv as F x C . C x (H*W) and expands the
result back to 1 x F x H x W. That `tensor.expand_shape` is a real reshape: between the matmul
and its bias/activation/residual-add consumers it would split them into separate dispatches
(IREE's CPU backend does not tile and fuse through a reshape inside a dispatch). IREE itself
collapses the consumers' dimensions too (its CollapseDimensions); this pattern does the same
on the consumers we hand it: an all-parallel generic reading the expand through an identity
map is rewritten on the flat shape, its other operands read flat (identity operands through
a `tensor.collapse_shape`, free between dispatches; scalars, one-element tensors read at
(0, 0, 0, 0) (a dynamic quantization's scale) and per-channel vectors through the matching flat
maps), and its result expanded again, so the expand moves down the chain
until a consumer that needs the image layout (a pad, a 3x3 conv, a pool) reads it.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand, reassociation

FLAT_GROUPS = [[0, 1], [2, 3]]
_D = [AffineDimExpr(i) for i in range(4)]
IDENTITY_4D = (_D[0], _D[1], _D[2], _D[3])
CHANNEL_4D = (_D[1],)
FLAT_IDENTITY = AffineMap(2, 0, (_D[0], _D[1]))
FLAT_CHANNEL = AffineMap(2, 0, (_D[0],))
FLAT_SCALAR = AffineMap(2, 0, ())


def is_flat_expand(value: SSAValue) -> bool:
    """`value` = expand_shape of an F x (H*W) tensor into 1 x F x H x W."""
    owner = value.owner
    return isinstance(owner, Operation) and owner.name == "tensor.expand_shape" and reassociation(owner) == FLAT_GROUPS


def flat_type(ty: TensorType) -> TensorType:
    n, f, h, w = ty.get_shape()
    return TensorType(ty.get_element_type(), [n * f, h * w])


def flat_operand(value: SSAValue, operand_map: AffineMap) -> tuple[SSAValue, AffineMap, bool] | None:
    """How the flat generic reads `value` (the value, its map, whether through a new collapse);
    None if the map has no flat equivalent. Builds nothing: an op built for one operand would
    stay a user of its value if a later operand has no flat read."""
    if operand_map.num_symbols or operand_map.num_dims != 4:
        return None
    results = tuple(operand_map.results)
    if not results:
        return value, FLAT_SCALAR, False
    if all(isinstance(e, AffineConstantExpr) and e.value == 0 for e in results):
        return value, AffineMap(2, 0, results), False  # one element, read wherever the loops are
    if results == CHANNEL_4D:
        return value, FLAT_CHANNEL, False
    if results != IDENTITY_4D:
        return None
    if is_flat_expand(value):
        return value.owner.operands[0], FLAT_IDENTITY, False  # type: ignore[union-attr]
    return value, FLAT_IDENTITY, True


def flat_init(init: SSAValue) -> tuple[SSAValue, list[Operation]]:
    owner = init.owner
    if isinstance(owner, Operation) and owner.name == "tensor.empty" and not owner.operands:
        empty = tensor.EmptyOp([], flat_type(init.type))  # type: ignore[arg-type]
        return empty.tensor, [empty]
    op = collapse(init, FLAT_GROUPS, flat_type(init.type))  # type: ignore[arg-type]
    return op.results[0], [op]


def is_sinkable(op: Operation) -> bool:
    if op.name != "linalg.generic" or not du.is_all_parallel(op) or len(op.results) != 1:
        return False
    if any(o.name == "linalg.index" for o in op.regions[0].walk()):
        return False  # the body reads loop indices: flattening would change them
    result_type = op.results[0].type
    if not isinstance(result_type, TensorType) or len(result_type.get_shape()) != 4 or result_type.get_shape()[0] != 1:
        return False
    if tuple(du.result_map(op, 0).results) != IDENTITY_4D:  # type: ignore[union-attr]
        return False
    return any(is_flat_expand(v) and tuple(du.operand_map(op, v).results) == IDENTITY_4D for v in du.dps_inputs(op))  # type: ignore[union-attr]


class SinkFlatExpand(RewritePattern):
    """generic(expand(flat), ...) -> expand(generic_flat(flat, ...)) for all-parallel generics."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_sinkable(op):
            return
        reads = [flat_operand(v, m) for v, m in zip(du.dps_inputs(op), du.indexing_maps(op))]
        if any(read is None for read in reads):
            return
        new_ops: list[Operation] = []
        inputs, maps = [], []
        for value, read_map, through_collapse in reads:  # type: ignore[misc]
            if through_collapse:
                new_ops.append(collapse(value, FLAT_GROUPS, flat_type(value.type)))  # type: ignore[arg-type]
                value = new_ops[-1].results[0]
            inputs.append(value)
            maps.append(read_map)
        init, init_ops = flat_init(du.dps_inits(op)[0])
        new_ops += init_ops
        flat = GenericOp(
            inputs,
            [init],
            rewriter.move_region_contents_to_new_regions(op.regions[0]),
            [AffineMapAttr(m) for m in (*maps, FLAT_IDENTITY)],
            [IteratorTypeAttr.parallel()] * 2,
            [init.type],
        )
        back = expand(flat.results[0], FLAT_GROUPS, op.results[0].type)  # type: ignore[arg-type]
        old_init = du.dps_inits(op)[0].owner
        rewriter.replace(op, [*new_ops, flat, back], [back.results[0]])
        if isinstance(old_init, Operation) and old_init.name == "tensor.empty" and not old_init.results[0].uses:
            rewriter.erase(old_init)
        pass_statistics.count("elementwise consumers read the flat matmul")
