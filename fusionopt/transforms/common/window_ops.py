"""Shape queries on convolutions that the linalg passes (`linalg-conv-1x1-to-matmul`,
`linalg-strided-conv-to-im2col`, `linalg-depthwise-conv-drop-batch`) and the padded-1x1
handover to IREE (`iree_padded_producers`) all start from: which ops are a statically shaped
window op of a given name, and which of those are 1x1 NCHW convolutions."""

from __future__ import annotations

from xdsl.ir import Operation

from fusionopt.dialects.linalg_conv import WindowOp

CONV_NAME = "linalg.conv_2d_nchw_fchw"
NHWC_CONV_NAME = "linalg.conv_2d_nhwc_hwcf"


def static_window_shapes(op: Operation, name: str) -> list[tuple[int, ...]] | None:
    """The shapes of `op`'s inputs then outputs when `op` is the window op `name` and every
    shape is static; None otherwise."""
    if op.name != name or not isinstance(op, WindowOp):
        return None
    shapes = [tuple(value.type.get_shape()) for value in (*op.inputs, *op.outputs)]  # type: ignore[attr-defined]
    return None if any(d < 0 for shape in shapes for d in shape) else shapes


def is_power_of_two(n: int) -> bool:
    """IREE 3.13's CPU codegen builds a window gather fused into a region (a pad in the im2col
    gather's region, the im2col op in its matmul's region) only at power-of-two extents."""
    return n > 0 and n & (n - 1) == 0


def is_1x1_conv(op: Operation) -> bool:
    """A statically shaped NCHW/FCHW conv with a 1x1 window (any stride, any batch)."""
    return static_window_shapes(op, CONV_NAME) is not None and op.window_sizes() == (1, 1)  # type: ignore[attr-defined]


DEPTHWISE_NHWC = "linalg.depthwise_conv_2d_nhwc_hwc"
PAD_INSIDE_MAX_WINDOW = 5


def takes_its_pad_inside(op: Operation) -> bool:
    """A static channels-last depthwise conv with a window of at most 5x5 (any stride, any
    dilation): on llvm-cpu its input pad is computed in its own dispatch
    (`form-dispatch-regions{pads-into-depthwise}`, `padded_depthwise.py`), so the pad stays
    where that pass finds it (`linalg-sink-reshapes` leaves it above a collapse)."""
    shapes = static_window_shapes(op, DEPTHWISE_NHWC)
    return shapes is not None and max(shapes[1][:2]) <= PAD_INSIDE_MAX_WINDOW


def is_pad_computed_inside(pad: Operation) -> bool:
    """A `tensor.pad` whose one reader is such a depthwise conv, as its image: the pad that
    `pads-into-depthwise` forms into the conv's region."""
    readers = [use.operation for use in pad.results[0].uses]
    return (pad.name == "tensor.pad" and len(readers) == 1 and takes_its_pad_inside(readers[0])
            and readers[0].operands[0] is pad.results[0])
