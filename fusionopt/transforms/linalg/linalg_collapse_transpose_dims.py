"""`linalg-collapse-transpose-dims`: a transposing copy (a one-input `linalg.generic` yielding its
input element, or a `linalg.transpose`) whose loops include dims that stay adjacent and in order
on both sides, or unit dims, runs over the collapsed dims: the input collapsed, the copy over
fewer loops, its result expanded back.

IREE's own dispatch formation collapses such dims (`CollapseDimensionsPass`) in the regions it
forms; in regions given to it, as ours are, it leaves the loops as written. A CNN's NCHW input
written channels last, 1x3x224x224 -> 1x224x224x3, then runs as a 4-D copy in 28 workgroups,
its innermost loop 3 elements long: 230-270 us inside the model (llvm-cpu, one thread, HAL
profile, three alternating rounds). Collapsed to 3x50176 -> 50176x3 it is IREE's own kernel for
that transpose, 784 workgroups: 105-130 us. ShuffleNetV2's channel shuffles (1x2x116x14x14 ->
1x116x2x14x14) collapse the image dims the same way (2x116x196 -> 116x2x196).

Rewrite (static shapes):

    %c = tensor.collapse_shape %x [groups of x's dims]
    %t = linalg.generic {the same permutation over the groups} ins(%c) outs(tensor.empty)
    %r = tensor.expand_shape %t [groups of the result's dims]

Groups: the result's non-unit dims that follow each other, in the same order, in the input
too; unit dims join a neighbouring group. Exact: the same elements copied to the same places
(row-major reshapes move no data). Between regions the reshapes are `flow.tensor.reshape`s.
Statistics: `transposes over collapsed dims`.
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand
from fusionopt.transforms.linalg.channels_last_propagation import is_copy_generic
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy

STATISTIC = "transposes over collapsed dims"


def transposed_dims(op: Operation) -> list[int] | None:
    """For a static transposing copy: per input dim, the result dim it is written to."""
    if op.name == "linalg.transpose":
        permutation = [int(p) for p in op.properties["permutation"].get_values()]  # type: ignore[union-attr]
        inverse = [0] * len(permutation)
        for result_dim, input_dim in enumerate(permutation):
            inverse[input_dim] = result_dim
        source = op.operands[0]
    elif is_copy_generic(op) and len(op.results) == 1:
        read, write = du.indexing_maps(op)
        if not du.is_identity_map(write) or not du.is_permutation_map(read):
            return None
        inverse = [e.position for e in read.results]  # type: ignore[attr-defined]
        source = du.dps_inputs(op)[0]
    else:
        return None
    if not (du.is_static_tensor(source) and du.is_static_tensor(op.results[0])):
        return None
    return None if inverse == sorted(inverse) else inverse


def result_groups(inverse: list[int], shape: list[int]) -> list[list[int]]:
    """Groups of result dims: runs of non-unit dims adjacent and in order in the input too,
    each unit dim joined to the group after it (the last group: before it)."""
    position = {result_dim: input_dim for input_dim, result_dim in enumerate(inverse)}
    kept = [d for d in range(len(shape)) if shape[d] != 1]
    groups: list[list[int]] = []
    for d in kept:
        previous = groups[-1][-1] if groups else None
        if previous is not None and position[d] == next_kept_input_dim(position[previous], inverse, shape):
            groups[-1].append(d)
        else:
            groups.append([d])
    return with_unit_dims(groups, len(shape))


def next_kept_input_dim(input_dim: int, inverse: list[int], shape: list[int]) -> int | None:
    """The input dim after `input_dim` that is not a unit dim."""
    return next((i for i in range(input_dim + 1, len(inverse)) if shape[inverse[i]] != 1), None)


def with_unit_dims(groups: list[list[int]], rank: int) -> list[list[int]]:
    """Contiguous reassociation groups: every dim between two groups joins the later one."""
    if not groups:
        return [list(range(rank))]
    starts = [0] + [group[0] for group in groups[1:]]
    ends = [group[0] for group in groups[1:]] + [rank]
    return [list(range(s, e)) for s, e in zip(starts, ends)]


def input_groups(groups: list[list[int]], inverse: list[int], shape: list[int]) -> tuple[list[list[int]], list[int]]:
    """The input dims as contiguous groups, in input order, and per input group the result
    group it is written to: a non-unit dim goes with its result dim's group, a unit dim with the
    next non-unit dim's (trailing ones with the last)."""
    group_of = {d: g for g, group in enumerate(groups) for d in group}
    keys: list[int | None] = [group_of[r] if shape[r] != 1 else None for r in inverse]
    following = next((k for k in reversed(keys) if k is not None), 0)
    for i in reversed(range(len(keys))):
        if keys[i] is None:
            keys[i] = following
        following = keys[i]
    spans: list[list[int]] = []
    written_to: list[int] = []
    for i, key in enumerate(keys):
        if written_to and written_to[-1] == key:
            spans[-1].append(i)
        else:
            spans.append([i])
            written_to.append(key)  # type: ignore[arg-type]
    return spans, written_to


def group_shape(groups: list[list[int]], shape: list[int]) -> list[int]:
    return [math.prod(shape[d] for d in group) for group in groups]


class CollapseTransposeDims(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        inverse = transposed_dims(op)
        if inverse is None:
            return
        shape = list(op.results[0].type.get_shape())  # type: ignore[attr-defined]
        groups = result_groups(inverse, shape)
        if len(groups) == len(shape):
            return
        spans, written_to = input_groups(groups, inverse, shape)
        source = op.operands[0]
        source_type = source.type
        folded = collapse(source, spans, TensorType(source_type.get_element_type(),  # type: ignore[attr-defined]
                                                    group_shape(spans, list(source_type.get_shape()))))  # type: ignore[attr-defined]
        # transpose_copy's order: per result group, the input group written to it
        order = [written_to.index(g) for g in range(len(groups))]
        copy_ops, copy = transpose_copy(folded.results[0], order)
        result = expand(copy, groups, op.results[0].type)  # type: ignore[arg-type]
        replace_conv(op, [folded, *copy_ops, result], result.results[0], rewriter, STATISTIC)


class LinalgCollapseTransposeDimsPass(ModulePass):
    """Transposing copies over collapsed dims: adjacent in-order dims merged, unit dims dropped
    (module docstring)."""

    name = "linalg-collapse-transpose-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(CollapseTransposeDims(), apply_recursively=False).rewrite_module(op)
