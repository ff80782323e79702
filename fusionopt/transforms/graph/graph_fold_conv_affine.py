"""`graph-fold-conv-affine`: fold per-output-channel affine ops into a convolution's constant
weights and bias (MIGraphX `simplify_algebra` `find_mul_conv` / `find_add_convs`, ONNX Runtime's
Conv+BatchNormalization fusion).

With `y = conv(x, W)` (W an `arith.constant`), `b`, `s`, `t` channel constants
(`conv_channels`: varying only along dim 1, e.g. an inference BatchNormalization's scale and
shift as the importer writes them):
- `(y [+ b]) * s`, `s * (y [+ b])` -> `conv(x, W * s[f]) [+ b * s]`;
- `(y [+ b]) / s`                  -> `conv(x, W / s[f]) [+ b / s]`;
- `(y + b) + t`, `(y + b) - t`     -> `y + (b + t)`, `y + (b - t)`: one bias add;
- `y + t`, `y - t` with `t` in another form -> `y + broadcast(t[F]) dims = [1]` (the canonical
  bias that lowering and `graph-horizontal-fuse-convs` read).
The conv (and the bias add) must have no other user. Group convs (depthwise too) qualify: row f
of W produces output channel f whatever the group.

Numerics: the new weights and bias are computed in float64 from the stored constants and
rounded once to the element type (`fusionopt.graph_numpy.store`), so `(y + b) * s + t` becomes
one product per weight and one rounded bias. A fold is refused when a folded value is not
finite or a nonzero product falls below the smallest normal number (an extreme BatchNorm scale
would overflow or flush the weights where the unfolded program stays finite).

With weights that are function arguments nothing folds: the affine stays elementwise and
dispatch formation fuses it into the convolution's dispatch as its epilogue.

Statistics: `scales folded into conv weights`, `shifts folded into conv bias`,
`bias adds made canonical`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.transforms.dead_code_elimination import region_dce

from fusionopt import pass_statistics
from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.dialects.graph_base import element_of, is_float
from fusionopt.graph_numpy import numpy_dtype, store
from fusionopt.interpreter.values import float_info
from fusionopt.transforms.graph.conv_channels import (
    bias_add_of,
    canonical_bias,
    channel_vector,
    other_operand,
)
from fusionopt.transforms.graph.graph_ir import OpBuilder, dense_constant


@dataclass(frozen=True)
class BiasedConv:
    """`conv` and, when present, its sole user `add(conv, b)`; `value` is what follows reads."""

    conv: graph.ConvOp
    add: graph.AddOp | None
    bias: np.ndarray | None

    @property
    def value(self) -> SSAValue:
        return (self.add or self.conv).result


def biased_conv(value: SSAValue) -> BiasedConv | None:
    """`value` as `conv [+ b]` with one reader (every op of the chain single-use)."""
    if not value.has_one_use():
        return None
    owner = value.owner
    if isinstance(owner, graph.ConvOp):
        return BiasedConv(owner, None, None)
    if isinstance(owner, graph.AddOp):
        for candidate in owner.operands:
            if isinstance(candidate.owner, graph.ConvOp) and (found := bias_add_of(candidate)):
                return BiasedConv(candidate.owner, owner, found[1])
    return None


def rounded(values: np.ndarray, like: SSAValue) -> np.ndarray | None:
    """`values` (float64) rounded once to the element type of `like`; None when a value is not
    finite or a nonzero one would fall below the smallest normal number."""
    element = element_of(like)
    with np.errstate(over="ignore"):  # an overflow is caught below, as a refusal
        out = store(values, element)
    wide = out.astype(np.float64)
    tiny = float(float_info(numpy_dtype(element)).tiny)
    if not np.all(np.isfinite(wide)) or np.any((values != 0) & (np.abs(wide) < tiny)):
        return None
    return out


def _emit(b: OpBuilder, conv: graph.ConvOp, weight: SSAValue, bias: np.ndarray | None) -> SSAValue:
    y = b.add(graph.ConvOp(conv.input, weight, conv.strides_values, conv.dilations_values,
                           conv.pads_values, conv.group_value))
    if bias is None:
        return y
    return b.add(graph.AddOp(y, canonical_bias(b, bias, y)))


class FoldChannelScaleIntoConv(RewritePattern):
    """`(conv(x, W) [+ b]) * s` -> `conv(x, W * s) [+ b * s]`; `/ s` likewise."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, graph.MulOp):
            orders = ((op.lhs, op.rhs), (op.rhs, op.lhs))
        elif isinstance(op, graph.DivOp):
            orders = ((op.lhs, op.rhs),)
        else:
            return
        for value, scale in orders:
            found = biased_conv(value)
            attr = dense_constant(found.conv.filter) if found else None
            factor = channel_vector(scale)
            if attr is None or factor is None or not is_float(element_of(value)):
                continue
            apply = np.divide if isinstance(op, graph.DivOp) else np.multiply
            w = dense_to_numpy(attr).astype(np.float64)
            with np.errstate(all="ignore"):  # a division by 0 gives inf: refused below
                weight = rounded(apply(w, factor.reshape(-1, *[1] * (w.ndim - 1))),
                                 found.conv.filter)
                bias = None if found.bias is None else apply(found.bias, factor)
            if weight is None or (bias is not None and rounded(bias, value) is None):
                continue
            b = OpBuilder(op, rewriter)
            constant = b.add(ConstantOp(numpy_to_dense(weight, found.conv.filter.type)))
            rewriter.replace(op, [], [_emit(b, found.conv, constant, bias)])
            pass_statistics.count("scales folded into conv weights")
            return


def _is_canonical_bias(value: SSAValue) -> bool:
    owner = value.owner
    return (isinstance(owner, graph.BroadcastOp) and owner.dims_values == (1,)
            and len(owner.input.type.get_shape()) == 1 and dense_constant(owner.input) is not None)


class FoldChannelShiftIntoBias(RewritePattern):
    """`(conv [+ b]) + t` / `- t` -> `conv + (b + t)` / `(b - t)`, one canonical bias add."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, graph.AddOp):
            orders, sign = ((op.lhs, op.rhs), (op.rhs, op.lhs)), 1.0
        elif isinstance(op, graph.SubOp):
            orders, sign = ((op.lhs, op.rhs),), -1.0
        else:
            return
        for value, shift in orders:
            if isinstance(value.owner, graph.ConvOp) and sign > 0 and _is_canonical_bias(shift):
                return  # already the canonical bias add
            found = biased_conv(value)
            t = channel_vector(shift)
            if found is None or t is None or other_operand(op, value) is None:
                continue
            total = sign * t if found.bias is None else found.bias + sign * t
            if rounded(total, value) is None:
                continue
            b = OpBuilder(op, rewriter)
            y = found.conv.result
            rewriter.replace(op, [], [b.add(graph.AddOp(y, canonical_bias(b, total, y)))])
            pass_statistics.count("shifts folded into conv bias" if found.add else
                                  "bias adds made canonical")
            return


@dataclass(frozen=True)
class GraphFoldConvAffinePass(ModulePass):
    """Fold per-channel mul / div / add / sub by constants into constant conv weights and one
    bias add (see the module docstring). Options: none."""

    name = "graph-fold-conv-affine"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        applier = GreedyRewritePatternApplier([FoldChannelScaleIntoConv(),
                                               FoldChannelShiftIntoBias()])
        PatternRewriteWalker(applier, post_walk_func=region_dce).rewrite_module(op)
