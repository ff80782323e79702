"""A small strided stem conv as IREE's `iree_linalg_ext.im2col` + matmul, its input pad absorbed
(`linalg-strided-conv-to-im2col{im2col-op-stems=true}`, opt-in).

The generic gather form of `linalg-strided-conv-to-im2col` costs a stem three dispatches (the
pad copy, the gather, the matmul). IREE 3.13 builds the `iree_linalg_ext.im2col` op *in the
matmul's dispatch* (`form-dispatch-regions{im2col-into-contractions=true}`), reading the
unpadded image with the op's own input padding: one dispatch, and as few dispatches as IREE's
own build on mobilenet_mini (55) and inception_mini (21 vs 22). (A region of its own with the
padding fails IREE 3.13's CPU build.) Its codegen recomputes the patches for every filter tile,
so only convs with few filters and short patches were candidates (single-conv modules, conv +
pad, ms per call, IREE default 1.00x; bench/strided_conv_forms.py --pad-inside):

| conv | gather form (3 dispatches) | im2col op (1 dispatch) |
|---|---:|---:|
| mobilenet stem 3->16 3x3/2, 64x64 | 0.57x | 0.35x |
| inception stem 3->32 3x3/2, 32x32 | 0.39x | 0.36x |
| resnet_mini 16->32 3x3/2 | 0.35x | 0.64x |
| resnet18 stem 3->64 7x7/2 | 0.28x | 0.77x |

But inside the models the fused stem is the slower one: mobilenet_mini's stem took 33.9 us as
one dispatch against 8.0 + 11.6 + 1.8 us for matmul, gather and pad copy (per-dispatch profile),
and the whole model measured 5 % slower (bench/RESULTS.md, "CNNs: pads written by contraction
regions, the im2col op"). Runtime is the judge: opt-in. `is_small_stem`: at most
`MAX_FILTERS` filters and `MAX_PATCH` (C*KH*KW) taps, and a power-of-two output pixel count
(IREE 3.13 failed to build the fused region at 784 and 961 pixels; 4 to 1024 in powers of two
built).

Form (batch 1, NCHW; the unit batch dim collapsed away, a free reshape):

    %x3 = tensor.collapse_shape %x [[0, 1], [2], [3]]                  : C x H x W
    %pt = iree_linalg_ext.im2col strides dilations kernel_size offsets = [0, 0]
            output_sizes = [[OH, OW], [C, KH, KW]] batch_pos = [] m_pos = [1, 2] k_pos = [0]
            input_k_perm = [0, 1, 2] output_perm = [1, 0]                (K x P: filter-first matmul)
            (input_pad_low = [0, t, l] input_pad_high = [0, b, r] pad_value(%c))
            ins(%x3) outs(tensor.empty : (C*KH*KW) x (OH*OW))
    then the same F x K . K x P matmul as the gather form.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, TensorType, i64
from xdsl.ir import Operation, SSAValue

from fusionopt.dialects.iree_linalg_ext_im2col import Im2colOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse
from fusionopt.transforms.linalg.elementwise_fusion_utils import pad_value

MAX_FILTERS = 32
MAX_PATCH = 32


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def is_small_stem(op: Operation) -> bool:
    """A conv (already an im2col candidate) with few filters, short patches and a power-of-two
    output pixel count (module docstring)."""
    f, c, kh, kw = op.inputs[1].type.get_shape()  # type: ignore[attr-defined]
    oh, ow = op.outputs[0].type.get_shape()[2:]  # type: ignore[attr-defined]
    return f <= MAX_FILTERS and c * kh * kw <= MAX_PATCH and _is_power_of_two(oh * ow)


def absorbable_pad(source: SSAValue) -> Operation | None:
    """The static `tensor.pad` producing `source`, read only there, padding only H and W with
    a value defined outside it: the im2col op pads instead."""
    pad = source.owner
    if not isinstance(pad, Operation) or pad.name != "tensor.pad" or len(list(source.uses)) != 1:
        return None
    if not (du.is_static_tensor(pad.results[0]) and du.is_static_tensor(pad.operands[0])):
        return None
    low, high = pad.static_low.get_values(), pad.static_high.get_values()  # type: ignore[attr-defined]
    if any(low[:2]) or any(high[:2]) or not isinstance(pad_value(pad), SSAValue):
        return None
    return pad


def _ints(values) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def im2col_patches(op: Operation) -> tuple[list[Operation], SSAValue, Operation | None]:
    """The ops computing the (C*KH*KW) x (OH*OW) patches with the im2col op, the patches, and
    the pad it absorbed (to erase once the conv is replaced), if any."""
    source = op.inputs[0]  # type: ignore[attr-defined]
    pad = absorbable_pad(source)
    image = pad.operands[0] if pad is not None else source
    element = image.type.get_element_type()  # type: ignore[attr-defined]
    _, c, h, w = image.type.get_shape()  # type: ignore[attr-defined]
    kh, kw = op.window_sizes()  # type: ignore[attr-defined]
    oh, ow = op.outputs[0].type.get_shape()[2:]  # type: ignore[attr-defined]
    image_3d = collapse(image, [[0, 1], [2], [3]], TensorType(element, [c, h, w]))
    patches_type = TensorType(element, [c * kh * kw, oh * ow])
    empty = tensor.EmptyOp([], patches_type)
    props = {
        "strides": _ints(op.stride_values()), "dilations": _ints(op.dilation_values()),  # type: ignore[attr-defined]
        "static_kernel_size": _ints((kh, kw)), "static_offsets": _ints((0, 0)),
        "static_output_sizes": ArrayAttr([_ints((oh, ow)), _ints((c, kh, kw))]),
        "batch_pos": _ints(()), "m_pos": _ints((1, 2)), "k_pos": _ints((0,)),
        "input_k_perm": _ints((0, 1, 2)), "output_perm": _ints((1, 0)),
        "static_output_pad_low": _ints(()), "static_output_pad_high": _ints(()),
    }
    low, high, pad_operand = (), (), []
    if pad is not None:  # the pad of H and W, as the 3-D image's dims (c, h, w)
        low = (0, *pad.static_low.get_values()[2:])  # type: ignore[attr-defined]
        high = (0, *pad.static_high.get_values()[2:])  # type: ignore[attr-defined]
        pad_operand = [pad_value(pad)]
    props["static_input_pad_low"], props["static_input_pad_high"] = _ints(low), _ints(high)
    im2col = Im2colOp.build(
        operands=[image_3d.results[0], empty.tensor, [], [], [], [], [], [], [], pad_operand],
        result_types=[patches_type], properties=props,
    )
    return [image_3d, empty, im2col], im2col.results[0], pad
