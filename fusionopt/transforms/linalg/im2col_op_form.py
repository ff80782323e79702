"""A k x k conv with few filters as IREE's `iree_linalg_ext.im2col` + matmul, computed in one
dispatch (`linalg-strided-conv-to-im2col{im2col-op}`, default on).

The generic gather form of `linalg-strided-conv-to-im2col` costs a conv two dispatches (the
patch gather, the matmul); IREE's own build spends one (the conv). Measured on strided convs
(below); stride-1 ones take the same form (inception_mini's 24x16x16x16x3x3: 50.2 -> 18.4 us).
IREE 3.13 builds the `iree_linalg_ext.im2col` op *inside the matmul's dispatch*
(`form-dispatch-regions`'s `im2col-into-contractions`): the patches are computed per tile and
never written out. Its CPU codegen recomputes them for every filter tile, so it only pays with
few filters. Per dispatch inside the models (`bench/dispatch_profile.py`, us; bench/RESULTS.md,
"Strided convs with few filters: the im2col op in the matmul's dispatch"):

| conv (filters, taps) | gather + matmul | im2col op in the matmul |
|---|---:|---:|
| mobilenet stem 3->16 3x3/2 (16, 27) | 13.7 + 8.6 | 19.2 |
| inception stem 3->32 3x3/2 (32, 27) | 2.7 + 4.3 | 5.9 |
| resnet_mini 16->32 3x3/2 (32, 144) | 13.8 + 20.2 | 34.9 |
| resnet_mini 32->64 3x3/2 (64, 288) | 10.2 + 19.1 | 36.7 |
| resnet18 stem 3->64 7x7/2 (64, 147) | 61.2 + 139.3 | 397.8 |

Hence `is_few_filter_conv`: at most `MAX_FILTERS` filters and `MAX_PATCH` (C*KH*KW) taps, the
measured region; never a unit-height image under disjoint windows, which IREE 3.13 computes
wrongly in this form (`unit_height_disjoint`). IREE 3.13 also fails to build the fused region at some output pixel counts (196, 784, 961 and
22500 failed), so a power of two is required (4 to 1024 built), or, where a pipeline accepts it
(`im2col-op-pixel-multiple=64`), a multiple of 64: 64x64, 56x56, 40x40, 80x80, 96x96 and the
224x224 stems' 112x112 all built, with 16-128 filters and 27-576 taps. At 112x112 the op is
the slower form (mobilenet_v2's stem: 1.35 ms against the gather + matmul's 0.47 ms and IREE's
own conv's 1.6 ms), so only the fewest-dispatch pipeline takes it there, to match IREE's count,
and only within MAX_FILTERS and MAX_PATCH. Past them the op is slower than IREE's own conv:
densenet121's 7x7 stem (64 filters, 147 taps) took 19.4 ms as the op, 16.1 ms as IREE's conv
(7.8 ms as gather + matmul), and with the fewest pipeline's raised bounds densenet121's
stride-1 3x3 convs at 56x56 (32 filters, 1152 taps) and efficientnet_v2_s's stride-2 ones
(48-64 filters, 216-432 taps) took the op too: those models ran at 1.13x-1.14x of IREE
default's time (0.90x-0.92x without). A stem past the bounds (at most STEM_CHANNELS input
channels) therefore stays IREE's conv in that pipeline, one dispatch as in IREE's own build
(`stem_stays_conv`).
The op reads the padded image as the gather did: with the pad as the op's own input padding
the same stem took 33.9 us (IREE's padded-read path), and such an op in a region of its own
fails to build. So only `absorb-argument-pads` (the fewest-dispatch pipelines) takes the pad in,
and only a pad of a function argument (the image), which no dispatch could write instead: its
copy dispatch is saved. `absorb-pool-pads` (in no pipeline) takes a max pool's result's pad
too; that read measured 3.8x slower than the copy it saves.

Form (batch 1, NCHW; the unit batch dim collapsed away, a free reshape):

    %x3 = tensor.collapse_shape %x [[0, 1], [2], [3]]                  : C x H x W
    %pt = iree_linalg_ext.im2col strides dilations kernel_size offsets = [0, 0]
            output_sizes = [[OH, OW], [C, KH, KW]] batch_pos = [] m_pos = [1, 2] k_pos = [0]
            input_k_perm = [0, 1, 2] output_perm = [1, 0]                (K x P: filter-first matmul)
            ins(%x3) outs(tensor.empty : (C*KH*KW) x (OH*OW))
    then the same F x K . K x P matmul as the gather form.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, TensorType, i64
from xdsl.ir import BlockArgument, Operation, SSAValue

from fusionopt.dialects.iree_linalg_ext_im2col import Im2colOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse
from fusionopt.transforms.linalg.elementwise_fusion_utils import pad_value
from fusionopt.transforms.common.window_ops import is_power_of_two

MAX_FILTERS = 32
MAX_PATCH = 144
# A conv over at most this many channels reads the image: a stem.
STEM_CHANNELS = 4


def is_few_filter_conv(op: Operation, max_filters: int = MAX_FILTERS, max_patch: int = MAX_PATCH,
                       pixel_multiple: int = 0) -> bool:
    """A conv (already an im2col candidate) whose output pixel count IREE builds the fused region
    at: a power of two, with at most `max_filters` filters and `max_patch`-tap patches; or (with
    `pixel_multiple`) a multiple of it within MAX_FILTERS and MAX_PATCH (past them the op is
    slower than IREE's own conv, module docstring)."""
    f, c, kh, kw = op.inputs[1].type.get_shape()  # type: ignore[attr-defined]
    taps = c * kh * kw
    if unit_height_disjoint(op):
        return False
    if is_power_of_two(output_pixels(op)):
        return f <= max_filters and taps <= max_patch
    within_bounds = f <= min(max_filters, MAX_FILTERS) and taps <= min(max_patch, MAX_PATCH)
    return at_pixel_multiple(op, pixel_multiple) and within_bounds


def unit_height_disjoint(op: Operation) -> bool:
    """An image of height (or width) 1 under a window of that extent whose windows along the
    other dim do not overlap (stride >= kernel): a 1-D conv such as CANINE's downsampling. IREE
    3.13 builds the op's region for it and reads the row at stride 1, wrong values
    (bench/iree_limits_found.py, `im2col_unit_height_disjoint_windows`)."""
    h, w = op.inputs[0].type.get_shape()[2:]  # type: ignore[attr-defined]
    kh, kw = op.inputs[1].type.get_shape()[2:]  # type: ignore[attr-defined]
    sh, sw = op.stride_values()  # type: ignore[attr-defined]
    return (h == kh == 1 and sw >= kw) or (w == kw == 1 and sh >= kh)


def output_pixels(op: Operation) -> int:
    oh, ow = op.outputs[0].type.get_shape()[2:]  # type: ignore[attr-defined]
    return oh * ow


def at_pixel_multiple(op: Operation, pixel_multiple: int) -> bool:
    """The conv's output pixel count is a multiple of `pixel_multiple` (0: never)."""
    return pixel_multiple > 0 and output_pixels(op) % pixel_multiple == 0


def stem_stays_conv(op: Operation, pixel_multiple: int) -> bool:
    """A stem (at most STEM_CHANNELS input channels) at an output pixel count that is a multiple
    of `pixel_multiple`, past the op's bounds: IREE's own conv, one dispatch, beats the op there
    (module docstring)."""
    channels = op.inputs[1].type.get_shape()[1]  # type: ignore[attr-defined]
    return channels <= STEM_CHANNELS and at_pixel_multiple(op, pixel_multiple)


POOLING_PREFIX = "linalg.pooling_"


def i64_array(values) -> DenseArrayBase:
    """An i64 dense array property (the im2col op's positions, sizes and strides)."""
    return DenseArrayBase.from_list(i64, list(values))


def absorbable_pad(source: SSAValue, arguments: bool = True, pools: bool = False) -> Operation | None:
    """The static `tensor.pad` producing `source`, read only there, padding only H and W with one
    value, of a block argument (the image; with `arguments`) or of a pool's result (with
    `pools`): the im2col op can pad instead (no copy)."""
    pad = source.owner
    if not isinstance(pad, Operation) or pad.name != "tensor.pad" or len(list(source.uses)) != 1:
        return None
    padded = pad.operands[0]
    of_argument = arguments and isinstance(padded, BlockArgument)
    of_pool = pools and isinstance(padded.owner, Operation) and padded.owner.name.startswith(POOLING_PREFIX)
    if not (of_argument or of_pool) or not du.is_static_tensor(padded):
        return None
    low, high = pad.static_low.get_values(), pad.static_high.get_values()  # type: ignore[attr-defined]
    if any(low[:2]) or any(high[:2]) or not du.is_static_tensor(pad.results[0]):
        return None
    value = pad_value(pad)
    return pad if isinstance(value, SSAValue) or (isinstance(value, Operation) and value.name == "arith.constant") else None


def _padding(pad: Operation | None) -> tuple[list[Operation], tuple, tuple, list[SSAValue]]:
    """(ops to insert, low, high, pad value operand) of the im2col op's input padding (the pad of
    H and W as the 3-D image's dims (c, h, w)); none without a pad."""
    if pad is None:
        return [], (), (), []
    low = (0, *pad.static_low.get_values()[2:])  # type: ignore[attr-defined]
    high = (0, *pad.static_high.get_values()[2:])  # type: ignore[attr-defined]
    value = pad_value(pad)
    if isinstance(value, Operation):  # a constant in the pad's body (the ONNX importer's form)
        constant = value.clone()
        return [constant], low, high, [constant.results[0]]
    return [], low, high, [value]  # type: ignore[list-item]


def im2col_patches(op: Operation, absorb_argument_pad: bool = False, absorb_pool_pad: bool = False
                   ) -> tuple[list[Operation], SSAValue, Operation | None]:
    """The ops computing the (C*KH*KW) x (OH*OW) patches with the im2col op, the patches, and
    the pad absorbed: with `absorb_argument_pad` (`absorb_pool_pad`) the op reads a padded
    argument (pool result) unpadded, with the pad as its input padding (`absorbable_pad`; the
    pad is dead once the conv is replaced)."""
    pad = absorbable_pad(op.inputs[0], absorb_argument_pad, absorb_pool_pad)  # type: ignore[attr-defined]
    image = pad.operands[0] if pad is not None else op.inputs[0]  # type: ignore[attr-defined]
    element = image.type.get_element_type()
    _, c, h, w = image.type.get_shape()
    kh, kw = op.window_sizes()  # type: ignore[attr-defined]
    oh, ow = op.outputs[0].type.get_shape()[2:]  # type: ignore[attr-defined]
    image_3d = collapse(image, [[0, 1], [2], [3]], TensorType(element, [c, h, w]))
    patches_type = TensorType(element, [c * kh * kw, oh * ow])
    empty = tensor.EmptyOp([], patches_type)
    props = {
        "strides": i64_array(op.stride_values()), "dilations": i64_array(op.dilation_values()),  # type: ignore[attr-defined]
        "static_kernel_size": i64_array((kh, kw)), "static_offsets": i64_array((0, 0)),
        "static_output_sizes": ArrayAttr([i64_array((oh, ow)), i64_array((c, kh, kw))]),
        "batch_pos": i64_array(()), "m_pos": i64_array((1, 2)), "k_pos": i64_array((0,)),
        "input_k_perm": i64_array((0, 1, 2)), "output_perm": i64_array((1, 0)),
        "static_output_pad_low": i64_array(()), "static_output_pad_high": i64_array(()),
    }
    pad_ops, low, high, pad_operand = _padding(pad)
    props["static_input_pad_low"], props["static_input_pad_high"] = i64_array(low), i64_array(high)
    im2col = Im2colOp.build(
        operands=[image_3d.results[0], empty.tensor, [], [], [], [], [], [], [], pad_operand],
        result_types=[patches_type], properties=props,
    )
    return [image_3d, *pad_ops, empty, im2col], im2col.results[0], pad
