"""A `tensor.pad` of a `tensor.concat` of regions' results, written by those regions into one
filled buffer.

SqueezeNet's fire modules and GoogLeNet's Inception blocks concatenate their branches along the
channels and pad the concat for the max pool that follows. Region formation writes each branch
into its place of the concat buffer (no copy), but the pad of that buffer is a `slow_memcpy`
dispatch of its own, in IREE's own build too. Padding the spatial dims commutes with a concat
along the channels, so each branch's region can store its result straight into its place of the
*padded* buffer, the regions chained in block order through that buffer:

    %a = flow.dispatch.region -> (tensor<1x64x15x15xf32>) { ...; flow.return %va }
    %b = flow.dispatch.region -> (tensor<1x64x15x15xf32>) { ...; flow.return %vb }
    %c = tensor.concat dim(1) %a, %b : ... -> tensor<1x128x15x15xf32>
    %p = tensor.pad %c low[0, 0, 0, 0] high[0, 0, 2, 2] { yield %ninf }
->
    %fill = linalg.fill ins(%ninf) outs(tensor.empty() : tensor<1x128x17x17xf32>)
    %a = flow.dispatch.region -> (tensor<1x128x17x17xf32>) {
      ...; %ia = tensor.insert_slice %va into %fill[0, 0, 0, 0] [1, 64, 15, 15] [1, 1, 1, 1]
      flow.return %ia }
    %b = flow.dispatch.region -> (tensor<1x128x17x17xf32>) {
      ...; %ib = tensor.insert_slice %vb into %a[0, 64, 0, 0] [1, 64, 15, 15] [1, 1, 1, 1]
      flow.return %ib }

The fill becomes a `flow.tensor.splat`; IREE binds each region's destination read-write and
stores the branch in place, as it does for a single padded result (`padded_results.py`). Every
part must be the only use of a region's result (directly or through one static reshape: a flat
matmul's result expanded to an image), each region giving one part; the concat must be the pad's
only reader, and the pad must leave the concat dim alone. Parts come from contraction regions
and conv regions (NCHW, and channels-last ones that do not transpose, as in `padded_results.py`):
IREE 3.13 builds every such concat of the corpus
CNNs (squeezenet1_1's two NCHW conv branches, inception_mini's four contraction branches) and
computes bit-equal values (bench/RESULTS.md, "CNNs: concats written into their pool's padded
buffer").
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue

from fusionopt.dialects.flow import DispatchRegionOp, ReturnOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import moves_non_unit_dims
from fusionopt.transforms.common.use_def import sole_user
from fusionopt.transforms.dispatch.convert_to_flow import concat_pieces
from fusionopt.transforms.dispatch.padded_results import (
    RESHAPES,
    filled_buffer,
    has_usable_value,
    insert_before_return,
    is_contraction_region,
    transposes_in_region,
    rebuilt_returning,
)

_CONV_PREFIXES = ("linalg.conv_", "linalg.depthwise_conv_")


@dataclass
class Part:
    """One concat operand: result `index` of `region`, through `reshape` (or None), stored at
    `offsets` of the concat (the pad's low padding added when written)."""

    region: DispatchRegionOp
    index: int
    reshape: Operation | None
    offsets: list[int]


def is_conv_region(region_op: DispatchRegionOp) -> bool:
    return any(op.name.startswith(_CONV_PREFIXES) for op in region_op.body.block.ops)


def stores_padded(region_op: DispatchRegionOp) -> bool:
    """A region kind IREE 3.13 builds storing into part of a filled buffer (module docstring),
    but none whose epilogue transposes (`padded_results.py`: IREE builds a dispatch that writes
    wrong values)."""
    if region_op.result_dims or transposes_in_region(region_op):
        return False
    return is_contraction_region(region_op) or is_conv_region(region_op)


def _part(piece: SSAValue, offsets: list[int]) -> Part | None:
    value, reshape = piece, None
    owner = value.owner
    if isinstance(owner, Operation) and owner.name in RESHAPES and du.is_static_tensor(owner.results[0]):
        value, reshape = owner.operands[0], owner
        if sole_user(value) is not reshape or sole_user(piece) is None:
            return None
    owner = value.owner
    if not isinstance(owner, DispatchRegionOp) or sole_user(value) is None or not stores_padded(owner):
        return None
    if reshape is not None and moves_non_unit_dims(reshape) and stores_into_buffer(owner):
        return None
    return Part(owner, value.index, reshape, offsets)  # type: ignore[attr-defined]


def stores_into_buffer(region_op: DispatchRegionOp) -> bool:
    """Whether the region already stores a result into part of a buffer (`padded_results.py`'s
    padded image beside the flat result). A second such store, of the same contraction result
    split to an image (a reshape that moves non-unit dims), fails IREE 3.13's CPU codegen ("write
    affecting operations on global resources are restricted to workgroup distributed contexts":
    MobileViT's 1x1 conv whose 784 pixels become 28 x 28, padded for the 3x3 conv and
    concatenated with the block's input). Through a unit-dim expand it builds (inception_mini's
    1x1 branch, 16 x 16 x 16 -> 1 x 16 x 16 x 16)."""
    ret = region_op.body.block.last_op
    return any(isinstance(v.owner, Operation) and v.owner.name == "tensor.insert_slice" for v in ret.operands)


def concat_parts(pad: Operation) -> list[Part] | None:
    """The parts of the concat `pad` pads, when all of them qualify (module docstring)."""
    concat = pad.operands[0].owner
    if not isinstance(concat, Operation) or concat.name != "tensor.concat" or sole_user(concat.results[0]) is not pad:
        return None
    if not (du.is_static_tensor(pad.results[0]) and du.is_static_tensor(concat.results[0])):
        return None
    dim = concat.properties["dim"].value.data  # type: ignore[attr-defined]
    if pad.static_low.get_values()[dim] or pad.static_high.get_values()[dim]:  # type: ignore[attr-defined]
        return None
    parts = [_part(piece, offsets) for piece, offsets in concat_pieces(concat)]
    if any(p is None for p in parts) or len({p.region for p in parts}) != len(parts):  # type: ignore[union-attr]
        return None
    return sorted(parts, key=lambda p: _position(p.region))  # type: ignore[union-attr]


def _position(op: Operation) -> int:
    return list(op.parent_block().ops).index(op)  # type: ignore[union-attr]


def _store_part(part: Part, dest: SSAValue, low: list[int]) -> DispatchRegionOp:
    """`part`'s region rebuilt to return `dest` with the part inserted at its offsets."""
    region_op = part.region
    ret = region_op.body.block.last_op
    assert isinstance(ret, ReturnOp)
    offsets = [o + lo for o, lo in zip(part.offsets, low, strict=True)]
    insert = insert_before_return(ret, ret.operands[part.index], part.reshape, dest, offsets)
    operands = list(ret.operands)
    operands[part.index] = insert.results[0]
    rebuilt = rebuilt_returning(region_op, operands)
    for index, (old, new) in enumerate(zip(region_op.results, rebuilt.results, strict=True)):
        if index != part.index:
            old.replace_all_uses_with(new)
    region_op.detach()
    return rebuilt


def write_padded_concat(pad: Operation, parts: list[Part]) -> dict[DispatchRegionOp, DispatchRegionOp]:
    """Chain `parts`' regions through one filled buffer of the pad's type (module docstring);
    returns {old region: its rebuilt one}."""
    concat = pad.operands[0].owner
    low = list(pad.static_low.get_values())  # type: ignore[attr-defined]
    dest = filled_buffer(pad, parts[0].region)
    rebuilt: dict[DispatchRegionOp, DispatchRegionOp] = {}
    for part in parts:
        rebuilt[part.region] = _store_part(part, dest, low)
        dest = rebuilt[part.region].results[part.index]
    pad.results[0].replace_all_uses_with(dest)
    for op in [pad, concat, *(p.reshape for p in parts if p.reshape is not None), *rebuilt]:
        if op.parent is not None:
            op.detach()
        op.erase(safe_erase=False)
    return rebuilt


def write_padded_concats(block: Block, regions: list[DispatchRegionOp]) -> tuple[list[DispatchRegionOp], int]:
    """Let the regions of each qualifying padded concat of `block` write it. Returns `regions`
    (rebuilt ones in place of theirs) and how many concats were written so."""
    written, rebuilt = 0, {}
    for pad in [op for op in block.ops if op.name == "tensor.pad"]:
        parts = concat_parts(pad)
        if parts is not None and has_usable_value(pad, parts[0].region):
            rebuilt.update(write_padded_concat(pad, parts))
            written += 1
    return [rebuilt.get(r, r) for r in regions], written
