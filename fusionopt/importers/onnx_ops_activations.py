"""ONNX activations and small elementwise ops the graph dialect has no op for, each composed of
graph ops in a form that is exact where the textbook formula cancels or overflows:

- Softplus: `relu(x) + log1p(exp(-|x|))` (onnxruntime's split at 0): `log(1 + exp(x))`
  overflows to inf from x = 89 and rounds the tail below x = -17 to 0;
- Elu, Selu, Celu: `expm1` on the negative side (`exp(x) - 1` cancels near 0);
- Mish: `x * tanh(softplus(x))`; Softsign: `x / (1 + |x|)`;
- LeakyRelu, PRelu, ThresholdedRelu: selects (`graph.where`), so -inf stays -inf and no
  `0 * inf` NaN appears;
- GreaterOrEqual / LessOrEqual: `greater or equal` (false on NaN, as ONNX says; `not less`
  would be true);
- Sum, Mean (variadic, broadcasting), Dropout (inference: the input; its optional mask output
  all true).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import i1

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import binary, broadcast_all, scaled
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape


def _constant_like(x: Value, value: float) -> np.ndarray:
    return np.array(value, dtype=numpy_dtype_of(element(x)))


def _select_negative(ctx: ImportContext, x: Value, negative: Value, positive: Value) -> Value:
    """`x < 0 ? negative : positive`, operands broadcast to x's shape."""
    x_, neg, pos = broadcast_all(ctx, [x, negative, positive], element(x))
    is_negative = ctx.emit(graph.LessOp(x_, ctx.splat(0.0, shape(x_), element(x))))
    return ctx.emit(graph.WhereOp(is_negative, neg, pos))


def _softplus(ctx: ImportContext, x: Value) -> Value:
    x = ctx.ssa(x)
    tail = ctx.emit(graph.Log1pOp(ctx.emit(graph.ExpOp(ctx.emit(graph.NegOp(ctx.emit(graph.AbsOp(x))))))))
    return ctx.emit(graph.AddOp(ctx.emit(graph.ReluOp(x)), tail))


def softplus(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    return [_softplus(ctx, ins[0])]


def mish(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    return [ctx.emit(graph.MulOp(x, ctx.emit(graph.TanhOp(_softplus(ctx, x)))))]


def softsign(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    one_plus = binary(ctx, graph.AddOp, ctx.emit(graph.AbsOp(x)), _constant_like(x, 1.0))
    return [ctx.emit(graph.DivOp(x, one_plus))]


def leaky_relu(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    return [_select_negative(ctx, x, scaled(ctx, x, float(ctx.attr("alpha", 0.01))), x)]


def prelu(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    return [_select_negative(ctx, x, binary(ctx, graph.MulOp, x, ins[1]), x)]


def thresholded_relu(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    above = ctx.emit(graph.GreaterOp(x, ctx.splat(float(ctx.attr("alpha", 1.0)), shape(x), element(x))))
    return [ctx.emit(graph.WhereOp(above, x, ctx.splat(0.0, shape(x), element(x))))]


def _scaled_expm1(ctx: ImportContext, x: Value, alpha: float, inner: float = 1.0) -> Value:
    """`alpha * expm1(x * inner)`."""
    return scaled(ctx, ctx.emit(graph.Expm1Op(ctx.ssa(scaled(ctx, x, inner)))), alpha)


def elu(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    return [_select_negative(ctx, x, _scaled_expm1(ctx, x, float(ctx.attr("alpha", 1.0))), x)]


def selu(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    alpha = float(ctx.attr("alpha", 1.67326319217681884765625))
    gamma = float(ctx.attr("gamma", 1.05070102214813232421875))
    return [scaled(ctx, _select_negative(ctx, x, _scaled_expm1(ctx, x, alpha), x), gamma)]


def celu(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ctx.ssa(ins[0])
    alpha = float(ctx.attr("alpha", 1.0))
    return [_select_negative(ctx, x, _scaled_expm1(ctx, x, alpha, 1.0 / alpha), x)]


def _or_equal(strict):
    def handler(ctx: ImportContext, ins: list[Value]) -> list[Value]:
        a, b = broadcast_all(ctx, ins[:2])
        equal = ctx.emit(graph.EqualOp(a, b))
        true = ctx.splat(True, shape(a), i1)
        return [ctx.emit(graph.WhereOp(ctx.emit(strict(a, b)), true, equal))]
    return handler


def sum_(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    values = broadcast_all(ctx, ins)
    total = values[0]
    for value in values[1:]:
        total = ctx.emit(graph.AddOp(total, value))
    return [total]


def mean(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    (total,) = sum_(ctx, ins)
    return [total if len(ins) == 1 else binary(ctx, graph.DivOp, total, _constant_like(total, len(ins)))]


def dropout(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """Inference: the input, and (if asked for) a mask of all true."""
    if len(ins) > 2 and ins[2] is not None and bool(np.any(ctx.constant_input(ins[2], "Dropout's training_mode"))):
        raise ctx.error("Dropout in training mode is not supported (it draws random numbers)")
    outs: list[Value] = [ins[0]]
    if len(ctx.node.output) > 1 and ctx.node.output[1]:
        outs.append(np.ones(shape(ins[0]), dtype=np.bool_))
    return outs


HANDLERS = {
    "Softplus": softplus, "Mish": mish, "Softsign": softsign, "LeakyRelu": leaky_relu, "PRelu": prelu,
    "ThresholdedRelu": thresholded_relu, "Elu": elu, "Selu": selu, "Celu": celu,
    "GreaterOrEqual": _or_equal(graph.GreaterOp), "LessOrEqual": _or_equal(graph.LessOp),
    "Sum": sum_, "Mean": mean, "Dropout": dropout,
}
