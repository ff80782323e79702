"""`form-dispatch-regions{pads-into-gathers=true}` (opt-in): a `tensor.pad` whose only reader is
a window gather (an im2col patch copy) joins the gather's dispatch.

`linalg-strided-conv-to-im2col` turns a strided conv into a patch gather + matmul; the conv's
input pad sits at top level and IREE 3.13 makes it a `slow_memcpy` dispatch of its own, so a
strided conv costs three dispatches (pad copy, gather, matmul) where IREE's own formation spends
two (pad copy, conv). IREE builds the pad as a producer inside the gather's region and computes
it right (the gather reads the padded window directly, the padded buffer is never written),
with the pad's source a region result or a function argument, as long as the gather's innermost
extent (the conv's output width) is a power of two: at 3, 5, 6, 7, 10, 12, 14, 24, 48 or 112
output columns IREE 3.13's CPU codegen fails on the region ("failed to run translation"; 1-256
in powers of two build, measured on single-conv modules), so those pads stay copies.

Off by default: the gather with the pad in it measured 1.3-2.3x slower per dispatch (resnet18's
stem gather 114 -> 257 us) for 3 us of copy saved per pad (bench/RESULTS.md, "CNNs: dispatch
counts against IREE's"). Elsewhere a low pad stays at top level (`dispatch_utils.has_low_padding`:
behind a producer in a region IREE computes it wrongly; in a conv consumer's region the conv
runs 1.4-2.2x slower). Not built: the gather and its collapse inside the matmul's region (one
dispatch per strided conv) fails IREE 3.13's CPU codegen, with or without the pad there.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.window_ops import is_power_of_two


def is_window_gather(op: Operation) -> bool:
    """An all-parallel `linalg.generic` with one input that only copies it (the body yields the
    input's element) and reads it through a map that is not a projected permutation: a window
    or strided read, as the im2col patch gather writes."""
    if op.name != "linalg.generic" or not du.is_elementwise_linalg(op):
        return False
    if len(du.dps_inputs(op)) != 1 or len(op.results) != 1:
        return False
    block = op.regions[0].block
    yielded = block.last_op
    if yielded is None or len(block.ops) != 1 or yielded.operands[0] is not block.args[0]:
        return False
    read = du.operand_map(op, du.dps_inputs(op)[0])
    return read is not None and not read.is_projected_permutation(allow_zero_in_results=True)


def has_power_of_two_rows(value) -> bool:
    """The innermost extent of a static tensor is a power of two (module docstring)."""
    return is_power_of_two(value.type.get_shape()[-1])


def is_pad_of_window_gather(pad: Operation, consumer: Operation) -> bool:
    """`pad` is a static `tensor.pad` read only by `consumer`, a window gather whose innermost
    extent is a power of two."""
    if pad.name != "tensor.pad" or not is_window_gather(consumer):
        return False
    if not (du.is_static_tensor(consumer.results[0]) and has_power_of_two_rows(consumer.results[0])):
        return False
    uses = list(pad.results[0].uses)
    return len(uses) == 1 and uses[0].operation is consumer and du.is_static_tensor(pad.results[0]) and du.is_static_tensor(pad.operands[0])


def pull_pads_into(analysis, joins: Callable[[Operation, Operation], bool]) -> int:
    """Add each top-level pad read by one op only, in a group, to that group when `joins(pad,
    reader)` (after the groups are decided: no other rule of formation changes). Returns how
    many moved."""
    moved = 0
    for pad in analysis.ops:
        if pad.name != "tensor.pad" or pad in analysis.group_of or len(analysis.users[pad]) != 1:
            continue
        (reader,) = analysis.users[pad]
        group = analysis.group_of.get(reader)
        if group is None or not joins(pad, reader):
            continue
        if analysis.keeps_group_convex(group, pad):
            analysis.add(group, pad)
            moved += 1
    return moved


def pull_pads_into_gathers(analysis) -> int:
    """Add each top-level pad read only by a window gather to the gather's group."""
    return pull_pads_into(analysis, is_pad_of_window_gather)
