"""1x1 convolutions whose result only a `tensor.pad` reads: left to IREE's own dispatch formation.

IREE 3.13 writes a `tensor.pad` into the dispatch of its producer (a fill of the padded buffer,
then the producer stores into its interior) when that dispatch is all rank-3 ops: it folds the
unit batch dim of a 1x1 conv, turns the conv into a C x H x W matmul-like contraction and
fuses the epilogue and the pad's insert. A pad whose source is one of *our* regions cannot get
that treatment (a 4-D root, or a flat matmul behind a reshape) and becomes a `slow_memcpy`
dispatch of its own, one extra dispatch per padded conv input (18 in mobilenet_mini, 4 in
inception_mini). So such a conv, its elementwise epilogue and the pad stay outside our regions
and in the conv's original form: IREE forms that subgraph exactly as it would in its own
pipeline, and our regions take the padded result as input.

Measured threshold (bench/RESULTS.md, "CNNs: pads written by IREE's 1x1 producers"): IREE's
rank-3 matmul-like form is fast from 4x4 pixels up (`24x8x8x56` 2.8 us, `16x16x16x32` 4.5 us)
but 2.4x slower than our flat matmul at 2x2 (`336x2x2x56` 43 vs 18 us for three sites), so
only convs with at least `MIN_PIXELS` output pixels are handed over.

`linalg-conv-1x1-to-matmul` (keeps the conv) and `form-dispatch-regions` (forms no region for
it) must agree on which convs these are, hence one predicate here. Stride-1 k x k convs only a
pad reads are left to IREE the same way (`is_iree_padded_kxk`, `form-dispatch-regions{padded-kxk-min-pixels}`,
only formation decides it): IREE folds their unit batch dim, runs its own conv kernel and
writes the pad in that dispatch. Its kernel measured as fast as our 4-D named op in our region
on every such conv of resnet_mini and resnet18 (2x2 to 32x32 pixels), and the copy is saved,
so all of them are left (threshold 1 pixel). Strided ones only with
`form-dispatch-regions{padded-strided-kxk}` (the fewest-dispatch pipelines): IREE's strided conv
kernel is the slow one `linalg-strided-conv-to-im2col` avoids, but it writes the pad.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.window_ops import CONV_NAME, is_1x1_conv, static_window_shapes

# Output pixels (H * W) from which IREE's own form of a padded 1x1 conv is the faster one.
MIN_PIXELS = 16


def is_unit_stride_1x1_conv(op: Operation) -> bool:
    """A static batch-1 NCHW conv with a 1x1 filter, stride 1: IREE's 1x1-to-matmul case."""
    if not is_1x1_conv(op):
        return False
    x, out = op.operands[0].type.get_shape(), op.results[0].type.get_shape()  # type: ignore[attr-defined]
    return x[0] == 1 and x[2:] == out[2:]


def padded_consumer(value: SSAValue) -> Operation | None:
    """The `tensor.pad` that is the only reader of `value`, through single-use elementwise
    linalg ops reading it with identity maps (the conv's epilogue), if there is one."""
    while True:
        uses = list(value.uses)
        if len(uses) != 1:
            return None
        user = uses[0].operation
        if user.name == "tensor.pad":
            return user if uses[0].index == 0 else None
        if not du.is_elementwise_linalg(user) or len(user.results) != 1:
            return None
        value_map = du.operand_map(user, value)
        if value_map is None or not du.is_identity_map(value_map):
            return None
        if user.results[0].type != value.type:
            return None
        value = user.results[0]


def is_iree_padded_1x1(op: Operation, min_pixels: int = MIN_PIXELS) -> bool:
    """A 1x1 conv whose (epilogue's) result only a pad reads, over at least `min_pixels`
    output pixels: formed by IREE, not by us (module docstring). `min_pixels=0` turns it off."""
    if min_pixels <= 0 or not is_unit_stride_1x1_conv(op):
        return False
    height, width = op.results[0].type.get_shape()[2:]  # type: ignore[attr-defined]
    return height * width >= min_pixels and padded_consumer(op.results[0]) is not None


def is_window_conv(op: Operation, unit_stride: bool = True) -> bool:
    """A static batch-1 NCHW conv with a window larger than 1x1 and dilation 1 (and with
    `unit_stride`, stride 1)."""
    shapes = static_window_shapes(op, CONV_NAME)
    if shapes is None or shapes[0][0] != 1 or op.window_sizes() == (1, 1):  # type: ignore[attr-defined]
        return False
    if unit_stride and op.stride_values() != (1, 1):  # type: ignore[attr-defined]
        return False
    return op.dilation_values() == (1, 1)  # type: ignore[attr-defined]


def is_iree_padded_kxk(op: Operation, min_pixels: int, strided: bool = False) -> bool:
    """A stride-1 (with `strided`, any stride) k x k conv whose (epilogue's) result only a pad
    reads, over at least `min_pixels` output pixels (0 turns it off). IREE forms it in its
    rank-3 form and writes the pad in the conv's dispatch; the conv kernel is then IREE's, not
    ours (module docstring)."""
    if min_pixels <= 0 or not is_window_conv(op, unit_stride=not strided):
        return False
    height, width = op.results[0].type.get_shape()[2:]  # type: ignore[attr-defined]
    return height * width >= min_pixels and padded_consumer(op.results[0]) is not None
