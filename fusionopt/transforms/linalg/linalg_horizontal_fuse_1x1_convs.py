"""`linalg-horizontal-fuse-1x1-convs`: stride-1 1x1 convolutions that read one input with the same
number of filters become one multi-result contraction, in IREE's own form of a 1x1 conv.

An Inception block's branches start with 1x1 convs over the block's input (the 1x1 branch and
the reductions in front of the 3x3 and 5x5 convs). With constant weights the graph level
batches them into one conv over concatenated filters (`graph-horizontal-fuse-convs`); with the
weights as function arguments (torch-mlir's files) that concat is a run-time copy, so this pass
batches them the way `linalg-horizontal-fuse-contractions` batches Q, K and V: one generic that
reads the input once and accumulates one output per weight.

    %a = conv_2d_nchw_fchw(%x, %wa)      %x3 = collapse %x : 1xCxHxW -> CxHxW
    %b = conv_2d_nchw_fchw(%x, %wb)  ->  %ab:2 = generic {maps: (c, h, w), (f, c) x 2, (f, h, w) x 2}
                                                 ins(%x3, %wa', %wb')    (out_i += x * w_i)
                                         %a = expand %ab#0 : FxHxW -> 1xFxHxW   (same for %b)

The loops are IREE's for a batch-1 1x1 conv once it has folded the unit batch dim: (f, h, w)
parallel and c reduced. Each result's elementwise epilogue (its sole reader, a generic without
`linalg.index` reading other operands per channel or per pixel) is moved to those loops too and
the expand_shape goes after it: IREE 3.13 builds the fused dispatch storing each epilogue's
result into its padded buffer only then (with a 4-D epilogue behind the expand_shape it fails
to configure it, "slice along dimension 3 runs out-of-bounds"; bench/iree_limits.py).

Members: `linalg.conv_2d_nchw_fchw` ops of one block with a 1x1 filter, stride 1, batch 1,
static f32 shapes, the same input, the same result type (so the same filter count: results of
different shapes cannot share one loop nest), each init a `linalg.fill`, each weight defined
before the first member. At most `max-results` per group, in block order.

Measured (bench/sibling_1x1_forms.py at dfad5b9, inception_mini's two blocks: a plain 1x1 branch and
two reductions padded by 1 and 2; time relative to IREE's own dispatch per conv): this form 0.78x
and 0.99x. All three convs in one dispatch, the smaller weights padded with zero filters to the
larger count at run time: 0.78x and 1.27x in these loops, 0.98x and 1.28x over flat pixels
(`linalg-conv-1x1-to-matmul`'s layout). So convs of different counts stay apart. On in
`dispatch-creation-llvm-cpu-fewest`: inception_mini 19 -> 17 IREE dispatches.

Statistics: `1x1 convs fused horizontally`, `epilogues moved to the rank-3 loops`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, Float32Type, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.iree_padded_producers import is_unit_stride_1x1_conv
from fusionopt.transforms.common.reshapes import collapse, expand
from fusionopt.transforms.common.use_def import sole_user
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import erase_dead_init_chain
from fusionopt.transforms.linalg.linalg_horizontal_fuse_contractions import (
    fill_scalar, fresh_fills, groups_of, multiply_accumulate_body,
)

# (f, h, w, c): the input read at (c, h, w), each weight at (f, c), each result at (f, h, w).
INPUT_MAP = AffineMap.from_callable(lambda f, h, w, c: (c, h, w))
WEIGHT_MAP = AffineMap.from_callable(lambda f, h, w, c: (f, c))
OUTPUT_MAP = AffineMap.from_callable(lambda f, h, w, c: (f, h, w))
DROP_BATCH = [[0, 1], [2], [3]]
FLATTEN_FILTER = [[0], [1, 2, 3]]


def member_key(op: Operation) -> tuple | None:
    """What members of one group share (the input, the result type), or None for an op that
    cannot be a member. Groups are formed as `linalg-horizontal-fuse-contractions` forms its
    own (`groups_of`: in block order, distinct weights, each computable where the first is)."""
    if not is_unit_stride_1x1_conv(op) or fill_scalar(du.dps_inits(op)[0]) is None:
        return None
    types = [v.type for v in (*du.dps_inputs(op), *du.dps_inits(op))]
    if any(not isinstance(t, TensorType) or not isinstance(t.element_type, Float32Type) for t in types):
        return None
    return du.dps_inputs(op)[0], op.results[0].type


def rank3_type(conv_result: TensorType) -> TensorType:
    """[1, F, H, W] -> [F, H, W]."""
    return TensorType(conv_result.element_type, conv_result.get_shape()[1:])


def filter_matrix(weight) -> Operation:
    """[F, C, 1, 1] -> [F, C]."""
    shape = weight.type.get_shape()
    return collapse(weight, FLATTEN_FILTER, TensorType(weight.type.element_type, shape[:2]))


def drop_batch_loop(value_map: AffineMap) -> AffineMap | None:
    """`value_map` over (n, f, h, w) as a map over (f, h, w): the identity loses the unit batch
    dim, a map that does not read n is renumbered; None for any other map."""
    if value_map == AffineMap.identity(4):
        return AffineMap.identity(3)
    if 0 in value_map.used_dims() or value_map.num_dims != 4 or value_map.num_symbols:
        return None
    dims = [AffineExpr.constant(0), *(AffineExpr.dimension(d) for d in range(3))]
    return value_map.replace_dims_and_symbols(dims, [], 3, 0)


def rank3_epilogue(expanded: Operation, rank3: SSAValue) -> Operation | None:
    """The elementwise generic that is the sole reader of `expanded` (the unit expand_shape of
    `rank3`), rebuilt over (f, h, w) and read back through a unit expand_shape; None when there
    is no such reader or it reads other [1, ...] operands in full, or its loop index."""
    user = sole_user(expanded.results[0])
    if not isinstance(user, GenericOp) or len(user.results) != 1 or not du.is_all_parallel(user):
        return None
    if any(op.name == "linalg.index" for op in user.body.walk()) or len(du.indexing_maps(user)) != len(user.operands):
        return None
    inputs = [rank3 if v is expanded.results[0] else v for v in du.dps_inputs(user)]
    maps = [drop_batch_loop(m) for m in du.indexing_maps(user)]
    in_maps = maps[:len(inputs)]
    if None in maps or maps[-1] != AffineMap.identity(3):
        return None
    if any(m == AffineMap.identity(3) and v is not rank3 for v, m in zip(inputs, in_maps, strict=True)):
        return None
    result_type = rank3.type
    empty = tensor.EmptyOp([], result_type)
    epilogue = GenericOp(inputs, [empty.tensor], user.body.clone(), [AffineMapAttr(m) for m in maps],
                         [IteratorTypeAttr.parallel()] * 3, [result_type])
    back = expand(epilogue.results[0], DROP_BATCH, user.results[0].type)
    rewriter = PatternRewriter(user)
    rewriter.insert([empty, epilogue, back], InsertPoint.before(user))
    rewriter.replace(user, [], [back.results[0]])
    expanded.detach()
    expanded.erase()
    return epilogue


def fuse_siblings(group: list[Operation]) -> None:
    """Replace `group` by one multi-result rank-3 contraction where its first member was, each
    member's result an expand_shape of its own result."""
    first = group[0]
    result_type = rank3_type(first.results[0].type)
    source = du.dps_inputs(first)[0]
    activation = collapse(source, DROP_BATCH, rank3_type(source.type))
    weights = [filter_matrix(du.dps_inputs(op)[1]) for op in group]
    fills, inits = fresh_fills(group, result_type)
    new_ops: list[Operation] = [activation, *weights, *fills]
    inputs = [activation.results[0], *(w.results[0] for w in weights)]
    maps = [INPUT_MAP, *[WEIGHT_MAP] * len(group), *[OUTPUT_MAP] * len(group)]
    body = multiply_accumulate_body([(0, 1 + i) for i in range(len(group))], len(inputs), result_type.element_type)
    fused = GenericOp(inputs, inits, body, [AffineMapAttr(m) for m in maps],
                      [IteratorTypeAttr.parallel()] * 3 + [IteratorTypeAttr.reduction()], [result_type] * len(group))
    expands = [expand(r, DROP_BATCH, op.results[0].type) for r, op in zip(fused.results, group, strict=True)]
    rewriter = PatternRewriter(first)
    rewriter.insert([*new_ops, fused, *expands], InsertPoint.before(first))
    for op, reshaped in zip(group, expands, strict=True):
        old_init = du.dps_inits(op)[0].owner
        rewriter.replace(op, [], [reshaped.results[0]])
        erase_dead_init_chain(old_init, rewriter)
    for reshaped, result in zip(expands, fused.results, strict=True):
        if rank3_epilogue(reshaped, result) is not None:
            pass_statistics.count("epilogues moved to the rank-3 loops")
    pass_statistics.count("1x1 convs fused horizontally", len(group))


@dataclass(frozen=True)
class LinalgHorizontalFuse1x1ConvsPass(ModulePass):
    """Sibling stride-1 1x1 convs over one input, same filter count -> one rank-3 multi-result
    contraction (IREE's own loops for a batch-1 1x1 conv).

    Options:
      max-results -- at most this many convs per fused op (4).
    """

    name = "linalg-horizontal-fuse-1x1-convs"
    max_results: int = 4

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_results < 2:
            raise ValueError(f"max-results must be at least 2, not {self.max_results}")
        blocks = [b for o in op.walk() for r in o.regions for b in r.blocks]
        for block in blocks:
            for group in groups_of(block, self.max_results, member_key):
                fuse_siblings(group)
