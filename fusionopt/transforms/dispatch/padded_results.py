"""A `tensor.pad` of a region's result, written by that region into a filled buffer.

IREE's own formation (DispatchCreation: pad -> fill + `tensor.insert_slice`, the insert fused
into its producer's dispatch) has a conv's dispatch store its result into the interior of the
padded buffer, which is filled once (a splat, no dispatch). A pad at top level whose source is
one of *our* regions gets no such treatment and becomes a `slow_memcpy` dispatch of its own:
one per strided conv in the resnets (the pad before the next 3x3 conv reads the flat
im2col-matmul's result through an `expand_shape`). So the region takes the pad over in IREE's
form:

    %r = flow.dispatch.region -> (tensor<32x256xf32>) { ... flow.return %v }
    %e = tensor.expand_shape %r ...  : tensor<1x32x16x16xf32>       (optional)
    %p = tensor.pad %e low[0, 0, 1, 1] high[0, 0, 1, 1] { yield %c }
->
    %fill = linalg.fill ins(%c) outs(tensor.empty() : tensor<1x32x18x18xf32>)
    %r = flow.dispatch.region -> (tensor<1x32x18x18xf32>) {
      ...; %ve = tensor.expand_shape %v ...
      %ins = tensor.insert_slice %ve into %fill[0, 0, 1, 1] [1, 32, 16, 16] [1, 1, 1, 1]
      flow.return %ins }

The fill stays outside the region, as in IREE's own regions (it becomes a `flow.tensor.splat` that
the dispatch takes read-write). IREE 3.13 builds this for contraction roots (measured on every such
pad of the corpus CNNs, outputs bit-equal to the copy form); only those regions take it
(`is_contraction_region`). With a conv root (mobilenet_v3_small's 576-filter 1x1 convs at 2x2
pixels, 576 -> 576x6x6, when they were still conv roots) the module built but crashed at run time
(segfault), so NCHW conv regions keep the copy. A channels-last conv region
(`linalg.conv_2d_nhwc_hwcf` root, `linalg-conv-channels-last`) writes its pad at any size when it
stores in the conv's own layout: IREE builds it, the values are bit-equal, and the conv + padded
store took 58-59 us against 56-59 us for conv + copy at 32x32x16 and 8x8x64 (bench/RESULTS.md,
"CNNs channels last"), one dispatch fewer. No region whose epilogue transposes takes it: a
channels-last conv's going back to NCHW for a grouped or NCHW-only reader (regnet's grouped
convs), a contraction's written NCHW (SegFormer's 1x1 convs as 3136 x 32 . 32 x 128 matmuls
stored as 1 x 128 x 3136): IREE 3.13 then fails to build it, or builds a dispatch that writes
wrong values, some outside the buffer (a crash on local-sync, heap corruption in a process;
`channels_last_conv_transposed_into_padded` in bench/iree_limits.py,
`transposed_matmul_into_padded` in bench/iree_limits_found.py). The pad must be the only
reader of the region's result, static, and pad with a value defined outside it or a constant
yielded from its body (the ONNX importer's form; the constant is cloned in front of the fill).

With `shared` (`form-dispatch-regions{padded-shared-results}`, on in the fewest-dispatch
pipelines) a contraction region whose result is expanded to an image that the pad reads, while
other ops read the result or the image too, returns both, the flat result and the padded image:
one more store instead of a copy dispatch. squeezenet1_1's squeeze 1x1 convs feed an expand 1x1
conv and, padded, an expand 3x3 conv (8 copies fewer, the same time); a residual block's output
(an im2col-op matmul's) feeds the next residual add and, padded, the next 3x3 conv (resnet_mini
6 fewer; bench/RESULTS.md, "CNNs in IREE's own dispatch count"). IREE 3.13 fails to build the
double store of one value without the reshape in between, and in conv regions (channels-last:
resnet18; NCHW: resnet_mini), so neither takes it.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr

from fusionopt.dialects.flow import DispatchRegionOp, ReturnOp
from fusionopt.transforms.common import consumer_walks as cw
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.window_ops import NHWC_CONV_NAME
from fusionopt.transforms.linalg.elementwise_fusion_utils import pad_value
from fusionopt.transforms.linalg.linalg_pack_conv_filters import is_packed_contraction
from fusionopt.transforms.linalg.channel_slices import pad_keeps_axis

RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape")

# Results up to this many elements write their pad. Storing into the padded buffer costs the
# contraction about what the copy dispatch cost at 4096-8192 elements (resnet_mini's strided
# convs: +1.6-2.2 us against 1-2 us of copy), but 7 us more at the mobilenets' 16x1024 stem
# (bench/RESULTS.md, "CNNs: pads written by contraction regions").
PADDED_RESULTS_MAX_ELEMENTS = 8192
# Channels-last conv regions write their pads at every size (module docstring).
ANY_SIZE = 2**62


def is_contraction_region(region_op: DispatchRegionOp) -> bool:
    """A region whose ops include a linalg contraction (a matmul-like root, or several computed
    in one loop nest)."""
    return any(du.is_contraction(op) or du.is_multi_result_contraction(op) for op in region_op.body.block.ops)


def padded_result(region_op: DispatchRegionOp, index: int, max_elements: int,
                  shared: bool = False) -> tuple[Operation | None, Operation] | None:
    """(reshape or None, pad) when result `index`, of at most `max_elements` elements, is read
    only by a static constant-valued `tensor.pad`, directly or through one static reshape (the
    result's only reader). With `shared`, also a pad of a reshape of the result when others
    read the result or the reshape too: the region then writes both (`write_pad_in_region`).
    Only through a reshape (a flat matmul's result expanded to an image): IREE 3.13 fails to
    build a region that stores one value both plain and into the padded buffer ("write
    affecting operations on global resources are restricted to workgroup distributed
    contexts")."""
    result = region_op.results[index]
    if not du.is_static_tensor(result) or prod(result.type.get_shape()) > max_elements:
        return None
    found = _shared_pad(result) if shared else _sole_pad(result)
    if found is None or in_a_region(found[1]):
        return None
    if not du.is_static_tensor(found[1].results[0]) or not has_usable_value(found[1], region_op):
        return None
    return found


def has_usable_value(pad: Operation, region_op: Operation) -> bool:
    """The pad yields a constant of its body (the ONNX importer's form) or a value readable in
    front of `region_op`, of the pad's element type: a fill there can take it."""
    value = pad_value(pad)
    if isinstance(value, Operation):
        value = value.results[0]
    elif not isinstance(value, SSAValue) or not readable_before(value, region_op):
        return False
    return value.type == pad.results[0].type.element_type


def _sole_pad(result: SSAValue) -> tuple[Operation | None, Operation] | None:
    """(reshape or None, pad): the pad is the only reader of `result` or of its only reader, a
    static reshape."""
    value, reshape = result, None
    user = du.sole_user(result)
    if user is not None and user.name in RESHAPES and du.is_static_tensor(user.results[0]):
        value, reshape = user.results[0], user
    pad = du.sole_user(value)
    if pad is None or pad.name != "tensor.pad" or pad.operands[0] is not value:
        return None
    return reshape, pad


def in_a_region(op: Operation) -> bool:
    """`op` is already in a dispatch region (a pad formed into its depthwise conv's)."""
    return isinstance(op.parent_op(), DispatchRegionOp)


def _shared_pad(result: SSAValue) -> tuple[Operation | None, Operation] | None:
    """(reshape, pad) for a pad (as the source) of a static reshape of `result` (the first
    such), or the only pad `_sole_pad` finds."""
    if (sole := _sole_pad(result)) is not None:
        return sole
    for use in result.uses:
        reshape = use.operation
        if reshape.name not in RESHAPES or not du.is_static_tensor(reshape.results[0]):
            continue
        for reader in reshape.results[0].uses:
            if reader.operation.name == "tensor.pad" and reader.index == 0:
                return reshape, reader.operation
    return None


def readable_before(value: SSAValue, region_op: Operation) -> bool:
    """`value` can be read just before `region_op`, where the fill goes: defined outside its
    block or before it in the block, or a constant after it (`fill_value` moves it up)."""
    owner = value.owner
    if not isinstance(owner, Operation) or not region_op.is_before_in_block(owner):
        return True  # a block argument, defined before the region, or in another block
    return owner.name == "arith.constant"


def fill_value(pad: Operation, region_op: Operation) -> SSAValue:
    """The pad's value, available before `region_op`: a constant of the pad's body is cloned
    there, a constant after the region moved there (`padded_result` checked the rest)."""
    value = pad_value(pad)
    block: Block = region_op.parent_block()  # type: ignore[assignment]
    if isinstance(value, Operation):
        constant = value.clone()
        block.insert_op_before(constant, region_op)
        return constant.results[0]
    owner = value.owner  # type: ignore[union-attr]
    if isinstance(owner, Operation) and region_op.is_before_in_block(owner):
        owner.detach()
        block.insert_op_before(owner, region_op)
    return value  # type: ignore[return-value]


def filled_buffer(pad: Operation, region_op: Operation) -> SSAValue:
    """A fill of the pad's type with its value, in front of `region_op` (IREE makes it a splat
    that the region stores into)."""
    padded_type: TensorType = pad.results[0].type  # type: ignore[assignment]
    empty = tensor.EmptyOp([], padded_type)
    fill = FillOp([fill_value(pad, region_op)], [empty.tensor], [padded_type])
    region_op.parent_block().insert_ops_before([empty, fill], region_op)  # type: ignore[union-attr]
    return fill.results[0]


def write_pad_in_region(region_op: DispatchRegionOp, index: int, reshape: Operation | None,
                        pad: Operation) -> DispatchRegionOp:
    """The region rebuilt to return the padded tensor (module docstring): as result `index`
    when the pad was its only reader, else as a new last result."""
    fill = filled_buffer(pad, region_op)
    ret = region_op.body.block.last_op
    assert isinstance(ret, ReturnOp)
    shared = _sole_pad(region_op.results[index]) is None  # others read the result too
    low = list(pad.static_low.get_values())  # type: ignore[attr-defined]
    insert = insert_before_return(ret, ret.operands[index], reshape, fill, low)
    operands = list(ret.operands)
    if shared:
        operands.append(insert.results[0])
    else:
        operands[index] = insert.results[0]
    rebuilt = rebuilt_returning(region_op, operands)
    pad.results[0].replace_all_uses_with(rebuilt.results[-1] if shared else rebuilt.results[index])
    for op in (pad, reshape):
        if op is not None and not any(r.uses for r in op.results):
            op.detach()
            op.erase()
    for old, new in zip(region_op.results, rebuilt.results):
        if old.uses:
            old.replace_all_uses_with(new)
    region_op.detach()
    region_op.erase()
    return rebuilt


def insert_before_return(ret: ReturnOp, value: SSAValue, reshape: Operation | None, dest: SSAValue,
                         offsets: list[int]) -> Operation:
    """`value` (reshaped like the region's reader did) inserted into `dest` at `offsets`, just
    before the region's return."""
    body = ret.parent_block()
    if reshape is not None:
        inner = reshape.clone()
        inner.operands[0] = value
        body.insert_op_before(inner, ret)  # type: ignore[union-attr]
        value = inner.results[0]
    insert = tensor.InsertSliceOp.from_static_parameters(value, dest, offsets, list(value.type.get_shape()))  # type: ignore[attr-defined]
    body.insert_op_before(insert, ret)  # type: ignore[union-attr]
    return insert


def rebuilt_returning(region_op: DispatchRegionOp, operands: list[SSAValue]) -> DispatchRegionOp:
    """A region with `region_op`'s body returning `operands`, inserted in front of it (the
    caller moves the old results' uses over and removes `region_op`)."""
    ret = region_op.body.block.last_op
    assert isinstance(ret, ReturnOp)
    ret.operands = operands
    rebuilt = DispatchRegionOp([o.type for o in operands], region_op.detach_region(region_op.body))
    region_op.parent_block().insert_op_before(rebuilt, region_op)  # type: ignore[union-attr]
    return rebuilt


def is_channels_last_conv_region(region_op: DispatchRegionOp) -> bool:
    """A region whose root is an NHWC/HWCF conv (`linalg-conv-channels-last`), or such a conv's
    packed form (`linalg-pack-conv-filters`; a linear layer's too), which stores in its layout."""
    return any(op.name == NHWC_CONV_NAME or is_packed_contraction(op) for op in region_op.body.block.ops)


def conv_store_builds(region_op: DispatchRegionOp, pad: Operation) -> bool:
    """IREE 3.13's conv pipeline fails to configure a `linalg.conv_2d_nhwc_hwcf` region storing
    into a buffer padded along W or C but not along H ("slice along dimension 3 runs
    out-of-bounds"; any filter, `channels_last_conv_into_column_padded` in bench/iree_limits.py):
    Inception-v3's 7x1 convs feeding 1x7 ones. With H padded it builds (every W and C pad)."""
    if not any(op.name == NHWC_CONV_NAME for op in region_op.body.block.ops):
        return True
    return len(pad.results[0].type.get_shape()) > 1 and not pad_keeps_axis(pad, 1)  # type: ignore[attr-defined]


def transposes_in_region(region_op: DispatchRegionOp) -> bool:
    """A region in which an elementwise op transposes (a map that does not read its loop dims in
    order): no padded store, whatever its root (module docstring)."""
    return any(cw.is_transposing(op) for op in region_op.body.block.ops)


def is_windowed_generic(op: Operation) -> bool:
    """A generic reduction reading an input through a sliding window (a map result that adds
    loop dims, e.g. `d2 * 2 + d6`): a convolution generalized from its named op."""
    if op.name != "linalg.generic" or not du.has_reduction_loops(op):
        return False
    maps = du.indexing_maps(op)[:len(du.dps_inputs(op))]
    return any(not isinstance(e, (AffineDimExpr, AffineConstantExpr)) for m in maps for e in m.results)


def pad_limit(region_op: DispatchRegionOp, max_elements: int) -> int:
    """How large a result `region_op` writes its pad for: `max_elements` for contraction
    regions, any size for channels-last conv regions that keep their layout, none for others
    (module docstring) nor for a generalized conv's (r3d_18's 3-D convs: IREE 3.13 fails, "slice
    along dimension 4 runs out-of-bounds")."""
    if region_op.result_dims or any(is_windowed_generic(op) for op in region_op.body.block.ops):
        return 0
    if transposes_in_region(region_op):
        return 0
    if is_channels_last_conv_region(region_op):
        return ANY_SIZE
    return max_elements if is_contraction_region(region_op) else 0


def returns_type(region_op: DispatchRegionOp, padded_type) -> bool:
    """`region_op` already returns a tensor of `padded_type`. A second padded buffer of that type
    is not written: IREE merges the two equal splats into one buffer, which both stores then
    claim, and fails to build the region ("write affecting operations on global resources are
    restricted to workgroup distributed contexts"; bench/iree_limits.py)."""
    return any(result.type == padded_type for result in region_op.results)


def write_pads_in_regions(regions: list[DispatchRegionOp], max_elements: int,
                          shared: bool = False) -> tuple[list[DispatchRegionOp], int]:
    """Let each contraction or channels-last conv region write the pad of a result only a pad
    reads (with `shared`, also one that others read too: written twice), if the result has at
    most `max_elements` elements (contraction regions; module docstring). Returns the regions
    (rebuilt ones in place of theirs) and how many pads were taken over."""
    taken, kept = 0, []
    for region_op in regions:
        limit = pad_limit(region_op, max_elements)
        # IREE 3.13's conv pipeline (ConvTileAndDecomposeExpert) fails to translate a
        # channels-last conv region storing both (resnet18): shared pads only for contractions
        # (NCHW conv regions write no pads at all, `pad_limit`).
        shares = shared and not is_channels_last_conv_region(region_op)
        if limit > 0:
            for index in range(len(region_op.results)):
                found = padded_result(region_op, index, limit, shares)
                if (found is not None and not returns_type(region_op, found[1].results[0].type)
                        and conv_store_builds(region_op, found[1])):
                    region_op = write_pad_in_region(region_op, index, *found)
                    taken += 1
        kept.append(region_op)
    return kept, taken
