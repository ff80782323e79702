"""A channels-last depthwise conv that reads a padded conv's channel slice computes the padded
channels too, for `linalg-pad-conv-filters`: its filter and init padded with zeros, the slice
moved below it.

MobileNet-style blocks expand with a 1x1 conv whose filter count (MnasNet's 72 and 120) the pass
pads to a multiple of 16, then slice back for the depthwise conv, which IREE 3.13 then vectorises
in partial vectors: a 5x5 depthwise conv at 28x28 over 120 channels 290-350 us alone, over 128
150-205 us (onnxruntime's NCHWc layout computes 128 too). Padded, the depthwise conv reads the
expansion's padded result and its own epilogue computes the padded channels; the slice stops at
the projection 1x1 conv, which reads it in its region.

The filter must be a dense constant, or a reshape or transposing copy of one (the channels-last
rewrite's HWC copy of the CHW filter, folded to a constant later): the padded filter is computed
here, in numpy. The init must be a fill or a constant bias broadcast (`padded_init`). Exact: the
first channels are the same products summed in the same order; the padded ones are never read.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.linalg_conv import DepthwiseConv2DNhwcHwcOp
from fusionopt.transforms.linalg.constant_arrays import constant_array

DEPTHWISE = "linalg.depthwise_conv_2d_nhwc_hwc"
CHANNELS = 3  # NHWC image, HWC filter: the channel is the last dim


def is_padded_depthwise_reader(op: Operation, value: SSAValue, axis: int) -> bool:
    """A depthwise conv reading `value`, sliced along its channels, as its image, over a filter
    `constant_array` evaluates."""
    return (op.name == DEPTHWISE and axis == CHANNELS and op.operands[0] is value
            and op.operands[1] is not value and constant_array(op.operands[1]) is not None)


def padded_filter(op: Operation, size: int) -> ConstantOp:
    """The depthwise conv's KH x KW x C filter with zero channels up to `size`."""
    array = constant_array(op.operands[1])
    assert array is not None
    padded = np.pad(array, [(0, 0), (0, 0), (0, size - array.shape[-1])])
    element = op.operands[1].type.get_element_type()  # type: ignore[attr-defined]
    return ConstantOp(numpy_to_dense(padded, TensorType(element, list(padded.shape))))


def padded_depthwise(op: Operation, image: SSAValue, init: SSAValue, size: int) -> list[Operation]:
    """`op` over the `size`-channel `image` and `init`: its filter padded, same window."""
    weight = padded_filter(op, size)
    conv = DepthwiseConv2DNhwcHwcOp(inputs=[image, weight.result], outputs=[init],
                                    strides=list(op.stride_values()), dilations=list(op.dilation_values()))  # type: ignore[attr-defined]
    return [weight, conv]


def erase_dead_producers(op: Operation | object, rewriter: PatternRewriter) -> None:
    """Erase `op` and then its operands' producers while nothing reads them (the replaced
    conv's filter copy and the constant it read, left to no reader)."""
    if not isinstance(op, Operation) or op.parent is None or any(r.uses for r in op.results):
        return
    producers = [value.owner for value in op.operands]
    rewriter.erase(op)
    for producer in producers:
        erase_dead_producers(producer, rewriter)
