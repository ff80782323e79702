"""A grouped conv's im2col op that reads a padded conv's channel slice reads the padded groups, for
`linalg-pad-conv-filters`: the slice moves below the group split and the reshapes after it, onto
whole groups, and the im2col op, whose batch dim is the groups, reads the padded tensor and
computes only its own groups.

RegNetX's 1x1 convs compute 416 of 400 filters (13 panels of 32) and the grouped 3x3 conv after
each reads 25 groups of 16 channels: N x H x W x 416 -> slice 400 -> split into 25 x 16 -> the
im2col op over H x W x 25 x 16. The slice was a copy in a dispatch of its own between the two
convs (12 a call, 5 us each at one thread, 12 us at two plus the dispatch's fork and join). Moved:

    %s = extract_slice %x [.., 0] [.., 400]           %e = expand_shape %x : .. x 416 -> .. x 26 x 16
    %e = expand_shape %s : .. x 400 -> .. x 25 x 16 ->  %s = extract_slice %e [.., 0, 0] [.., 25, 16]
    im2col ins(%s) (25 groups)                          im2col ins(%e) (still 25 groups out)

IREE's im2col op reads batch index g of its input for output group g, so an input with more
groups than the output has is read in its first groups only (built and checked against numpy at
RegNetX's 7x7 size: `test_padded_group_readers.py`). Exact: the same elements are read.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from fusionopt import pass_statistics
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand, reassociation
from fusionopt.transforms.linalg.padded_values import shape_of

IM2COL = "iree_linalg_ext.im2col"


def moved_slice(reshape: Operation, axis: int, sliced: int, full: int) -> tuple[int, int] | None:
    """(axis, full size) of `reshape`'s result that a slice of `sliced` of `full` entries along
    `axis` of its source becomes below it: an expand splitting `axis` into (groups, width), the
    width dividing both sizes (the slice cuts whole groups), or a collapse keeping `axis` a group
    of its own. None for any other reshape."""
    if not du.is_reshape(reshape) or not all(du.is_static_tensor(v) for v in (*reshape.operands, *reshape.results)):
        return None
    groups = reassociation(reshape)
    if reshape.name == "tensor.collapse_shape":
        return next(((k, full) for k, group in enumerate(groups) if group == [axis]), None)
    group = groups[axis]
    if len(group) != 2:
        return None
    width = shape_of(reshape.results[0])[group[1]]
    return (group[0], full // width) if sliced % width == 0 and full % width == 0 else None


def sink_below_reshape(reshape: Operation, cut: tensor.ExtractSliceOp, axis: int, rewriter: PatternRewriter
                       ) -> tensor.ExtractSliceOp:
    """`reshape(slice(x))` as `slice(reshape(x))` along the axis `moved_slice` names."""
    moved_to = moved_slice(reshape, axis, shape_of(cut.result)[axis], shape_of(cut.source)[axis])
    assert moved_to is not None
    shape = shape_of(reshape.results[0])
    shape[moved_to[0]] = moved_to[1]
    target = TensorType(reshape.results[0].type.get_element_type(), shape)  # type: ignore[attr-defined]
    make = collapse if reshape.name == "tensor.collapse_shape" else expand
    moved = make(cut.source, reassociation(reshape), target)
    sizes = shape_of(reshape.results[0])
    new_cut = tensor.ExtractSliceOp.from_static_parameters(moved.results[0], [0] * len(sizes), sizes)
    rewriter.replace(reshape, [moved, new_cut], [new_cut.result])
    if not cut.result.uses:
        rewriter.erase(cut)
    pass_statistics.count("channel slices moved below a group split")
    return new_cut


def is_padded_im2col_reader(op: Operation, value: SSAValue, axis: int) -> bool:
    """An im2col op reading `value`, sliced along one of its batch (group) dims from offset 0,
    with no input padding: its output groups index the unsliced input the same way."""
    if op.name != IM2COL or op.operands[0] is not value or value in op.operands[1:]:
        return False
    return axis in op.ints("batch_pos") and not op.ints("static_input_pad_low") and not op.ints("static_input_pad_high")  # type: ignore[attr-defined]


def read_unsliced(op: Operation, cut: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> None:
    """The im2col op `op` reads the slice's source (`is_padded_im2col_reader`)."""
    op.operands[0] = cut.source
    if not cut.result.uses:
        rewriter.erase(cut)
    pass_statistics.count("grouped im2col ops reading a padded conv's groups")
