"""`form-dispatch-regions{pads-into-depthwise}` (the llvm-cpu pipelines): the `tensor.pad` of
a channels-last depthwise conv's input, read by that conv only, is computed in the conv's
dispatch, for windows up to 5x5.

Otherwise the pad's producer writes it (`padded_results.py`, IREE's own form): the producer's
dispatch stores its result into a padded buffer that IREE first fills with a `flow.tensor.splat`.
IREE 3.13's runtime fills it with a 4-byte pattern loop outside any dispatch: a 1x114x114x96
buffer (5 MB, MobileNetV2's second expansion) took ~0.6 ms on one core, twice the depthwise conv
it feeds, and no dispatch profile shows it. In the conv's dispatch IREE reads the padded window
straight from the unpadded input: no buffer filled, nothing copied, the values bit-equal.

Measured on single inverted-residual pieces at ImageNet sizes (a 1x1 expansion + pad + depthwise
conv, `test/support/depthwise_blocks.py`; llvm-cpu, one thread, median of 5 interleaved runs,
against the producer-written pad): 3x3 windows 0.46x-0.70x (56x56 stride 2 to 7x7 stride 1,
dilation 2 too); 5x5 windows 1.0x-2.0x (28x28 stride 1: the conv with the pad inside ran 4x
slower) while the conv stepped one tap at a time. With a whole row of 5 taps a step
(`depthwise_cpu_tiles.WHOLE_ROW_WINDOWS`) the 5x5 convs with their pad inside run as fast as
without (mnasnet1_0: 28x28x128 62 -> 56 us, 7x7x1152 71 -> 67), and the pad copies and the
splat fills before them are gone: mnasnet1_0 0.93x-0.96x of its time (bench/RESULTS.md, "5x5
depthwise convs with their pads inside"). Larger windows keep the pad apart (a copy dispatch in
the llvm-cpu pipelines, which store no padded results; `window_ops.is_pad_computed_inside`).
Whole models, 3x3: MobileNetV2 1.37x -> 1.15x of onnxruntime's time at one thread, 1.97x ->
1.43x at two (bench/RESULTS.md).
"""

from __future__ import annotations

from xdsl.ir import Operation

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.window_ops import is_pad_computed_inside
from fusionopt.transforms.dispatch.padded_gathers import pull_pads_into


def is_pad_of_depthwise_conv(pad: Operation, reader: Operation) -> bool:
    """`pad`, static, is the image input of `reader`, its one reader, a depthwise conv that
    computes its pad (`window_ops.is_pad_computed_inside`)."""
    return is_pad_computed_inside(pad) and du.is_static_tensor(pad.operands[0])


def pull_pads_into_depthwise_convs(analysis) -> int:
    """Add each top-level pad read only by such a depthwise conv to the conv's group."""
    return pull_pads_into(analysis, is_pad_of_depthwise_conv)
