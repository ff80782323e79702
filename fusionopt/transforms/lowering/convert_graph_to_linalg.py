"""`convert-graph-to-linalg`: lower every `graph` op to upstream linalg/tensor/arith/math.

The output uses only dialects `mlir-opt`/`iree-opt` know (func, arith, math, tensor, linalg),
so it round-trips through `iree-opt` and feeds `linalg-fuse-elementwise` and IREE alike.

Elementwise ops (unary, binary, compare, where, convert) become all-parallel, identity-map
`linalg.generic`s (scalar bodies: graph_to_linalg_scalar.py); data movement is lowered in
graph_to_linalg_shape.py, contractions/reductions/gather in graph_to_linalg_compute.py and
convolution/pooling in graph_to_linalg_conv.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from fusionopt.dialects import graph
from fusionopt.transforms.lowering.graph_to_linalg_builders import (
    BodyBuilder,
    build_generic,
    empty,
    identity,
    tensor_type,
)
from fusionopt.transforms.lowering.graph_to_linalg_compute import (
    COMPUTE_LOWERINGS,
    WIDE_MEAN_MIN_COUNT,
    is_wide_mean,
    lower_reduce,
)
from fusionopt.transforms.lowering.graph_to_linalg_conv import CONV_LOWERINGS
from fusionopt.transforms.lowering.graph_to_linalg_scalar import (
    binary_body,
    compare_body,
    convert_body,
    unary_body,
)
from fusionopt.transforms.lowering.graph_to_linalg_shape import SHAPE_LOWERINGS, Lowered


def elementwise_body(op: Operation, b: BodyBuilder, args):
    """The scalar computation of an elementwise graph op (args: inputs, then the out arg)."""
    operand_element = tensor_type(op.operands[0]).element_type
    result_element = tensor_type(op.results[0]).element_type
    if isinstance(op, graph.ElementwiseUnaryOp):
        return unary_body(op, b, args[0], result_element)
    if isinstance(op, graph.ElementwiseBinaryOp):
        return binary_body(op, b, args[:2], result_element)
    if isinstance(op, graph.CompareOp):
        return compare_body(op, b, args[:2], operand_element)
    if isinstance(op, graph.ConvertOp):
        return convert_body(b, args[0], operand_element, result_element)
    if isinstance(op, graph.WhereOp):
        return b.add(arith.SelectOp(args[0], args[1], args[2]))
    raise NotImplementedError(f"no elementwise lowering for {op.name}")


def is_elementwise_graph_op(op: Operation) -> bool:
    return isinstance(
        op,
        (graph.ElementwiseUnaryOp, graph.ElementwiseBinaryOp, graph.CompareOp, graph.ConvertOp, graph.WhereOp),
    )


def lower_elementwise(op: Operation) -> Lowered:
    result = tensor_type(op.results[0])
    rank = len(result.get_shape())
    init = empty(result.get_shape(), result.element_type)
    inputs = list(op.operands)
    generic = build_generic(
        inputs,
        [identity(rank)] * len(inputs),
        init.tensor,
        identity(rank),
        ["parallel"] * rank,
        lambda b, args: elementwise_body(op, b, args),
    )
    return [init, generic], generic.results[0]


def lowering_for(op: Operation):
    if is_elementwise_graph_op(op):
        return lower_elementwise
    return (SHAPE_LOWERINGS.get(type(op)) or COMPUTE_LOWERINGS.get(type(op))  # type: ignore[arg-type]
            or CONV_LOWERINGS.get(type(op)))  # type: ignore[arg-type]


class LowerGraphOp(RewritePattern):
    """Replace one `graph` op by its linalg/tensor lowering."""

    def __init__(self, wide_means: set[Operation]):
        self.wide_means = wide_means

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not op.name.startswith("graph."):
            return
        if op in self.wide_means:
            new_ops, value = lower_reduce(op, wide=True)  # type: ignore[arg-type]
            rewriter.replace(op, new_ops, [value])
            return
        lower = lowering_for(op)
        if lower is None:
            raise NotImplementedError(f"convert-graph-to-linalg: no lowering for {op.name}")
        new_ops, value = lower(op)
        rewriter.replace(op, new_ops, [value])


@dataclass(frozen=True)
class ConvertGraphToLinalg(ModulePass):
    """Lower every `graph` op to linalg, tensor, arith and math.

    Elementwise -> identity-map parallel `linalg.generic`; broadcast/transpose -> generic with
    the view in its input map; dot -> `linalg.matmul`/`linalg.batch_matmul` on a zero
    `linalg.fill`; reductions -> generic with `reduction` iterators; reshape ->
    `tensor.collapse_shape`/`expand_shape`; slice -> `tensor.extract_slice`; concat ->
    `tensor.concat`; pad -> `tensor.pad`; gather -> generic with `tensor.extract`; conv / pool
    -> `tensor.pad` + `linalg.conv_2d_nchw_fchw` / `depthwise_conv_2d_nchw_chw` /
    `conv_2d_ngchw_gfchw` / `pooling_nchw_max` / `pooling_nchw_sum` (graph_to_linalg_conv.py).

    `wide-means-from` (default 256, 0: never): a float mean over that many values or more (not a
    mean of squares) accumulates in f64 and rounds once (graph_to_linalg_compute.py,
    `WIDE_MEAN_MIN_COUNT`: IREE's lane-wise f32 sums of long rows drift by more than a
    normalisation after them tolerates); IREE demotes f64 to f32 unless told not to, so the
    module is built with `--iree-input-demote-f64-to-f32=false` (`iree_flags`). The CUDA
    pipeline sets 0: IREE 3.13's sm_80 codegen fails to distribute an f64 reduction.
    """

    name = "convert-graph-to-linalg"
    wide_means_from: int = WIDE_MEAN_MIN_COUNT

    @property
    def iree_flags(self) -> tuple[str, ...]:
        return ("--iree-input-demote-f64-to-f32=false",) if self.wide_means_from > 0 else ()

    def __post_init__(self) -> None:
        if self.wide_means_from < 0:
            raise ValueError(f"wide-means-from must be 0 (off) or a value count, not {self.wide_means_from}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        wide_means = {o for o in op.walk() if is_wide_mean(o, self.wide_means_from)}
        PatternRewriteWalker(LowerGraphOp(wide_means), apply_recursively=False).rewrite_module(op)
