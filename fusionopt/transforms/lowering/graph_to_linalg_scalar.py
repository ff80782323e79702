"""Scalar bodies for elementwise `graph` ops (arith/math on one element).

Numerics follow fusionopt/graph_numpy.py: f16/bf16 are extended to f32, computed, and
truncated once; `max`/`min`/`relu` propagate NaN (`arith.maximumf`/`minimumf`); integer
division is `arith.divsi`, its remainder `arith.remsi` (floats: `arith.remf`); `sigmoid` is
`1 / (1 + exp(-x))`; comparisons are ordered (`cmpf ogt/oeq/olt`), signed for integers and
unsigned for i1; `convert` float -> int maps NaN to 0 and saturates (ONNX Cast), anything -> i1
is `x != 0`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerType, f32
from xdsl.ir import Attribute, Operation, SSAValue

from fusionopt.dialects import arith as fusion_arith
from fusionopt.dialects import graph
from fusionopt.transforms.lowering.graph_to_linalg_builders import (
    BodyBuilder,
    compute_type,
    is_low_precision_float,
)

FLOAT_UNARY = {
    graph.ExpOp: math.ExpOp,
    graph.Exp2Op: math.Exp2Op,
    graph.LogOp: math.LogOp,
    graph.Log1pOp: math.Log1pOp,
    graph.Expm1Op: math.ExpM1Op,
    graph.RoundOp: math.RoundEvenOp,
    graph.FloorOp: math.FloorOp,
    graph.CeilOp: math.CeilOp,
    graph.SqrtOp: math.SqrtOp,
    graph.RsqrtOp: math.RsqrtOp,
    graph.SinOp: math.SinOp,
    graph.CosOp: math.CosOp,
    graph.TanhOp: math.TanhOp,
    graph.ErfOp: math.ErfOp,
    graph.AbsOp: math.AbsFOp,
    graph.NegOp: arith.NegfOp,
}
FLOAT_BINARY = {
    graph.AddOp: arith.AddfOp,
    graph.SubOp: arith.SubfOp,
    graph.MulOp: arith.MulfOp,
    graph.DivOp: arith.DivfOp,
    graph.RemOp: fusion_arith.RemFOp,
    graph.MaxOp: arith.MaximumfOp,
    graph.MinOp: arith.MinimumfOp,
    graph.PowOp: math.PowFOp,
}
INT_BINARY = {
    graph.AddOp: arith.AddiOp,
    graph.SubOp: arith.SubiOp,
    graph.MulOp: arith.MuliOp,
    graph.DivOp: arith.DivSIOp,
    graph.RemOp: arith.RemSIOp,
    graph.MaxOp: arith.MaxSIOp,
    graph.MinOp: arith.MinSIOp,
}
FLOAT_COMPARE = {graph.GreaterOp: "ogt", graph.EqualOp: "oeq", graph.LessOp: "olt"}
INT_COMPARE = {graph.GreaterOp: "sgt", graph.EqualOp: "eq", graph.LessOp: "slt"}
BOOL_COMPARE = {graph.GreaterOp: "ugt", graph.EqualOp: "eq", graph.LessOp: "ult"}


def is_int(element: Attribute) -> bool:
    return isinstance(element, IntegerType)


def widen(b: BodyBuilder, value: SSAValue, element: Attribute) -> SSAValue:
    return b.add(arith.ExtFOp(value, compute_type(element))) if is_low_precision_float(element) else value


def narrow(b: BodyBuilder, value: SSAValue, element: Attribute) -> SSAValue:
    return b.add(arith.TruncFOp(value, element)) if is_low_precision_float(element) else value


def unary_body(op: Operation, b: BodyBuilder, x: SSAValue, element: Attribute) -> SSAValue:
    if is_int(element):
        return int_unary(op, b, x, element)
    wide = compute_type(element)
    x = widen(b, x, element)
    kind = type(op)
    if kind in FLOAT_UNARY:
        y = b.add(FLOAT_UNARY[kind](x))
    elif kind is graph.RecipOp:
        y = b.add(arith.DivfOp(b.constant(1.0, wide), x))
    elif kind is graph.ReluOp:
        y = b.add(arith.MaximumfOp(x, b.constant(0.0, wide)))
    elif kind is graph.SigmoidOp:
        one = b.constant(1.0, wide)
        e = b.add(math.ExpOp(b.add(arith.NegfOp(x))))
        y = b.add(arith.DivfOp(one, b.add(arith.AddfOp(one, e))))
    else:
        raise NotImplementedError(f"no lowering for {op.name} on {element}")
    return narrow(b, y, element)


def int_unary(op: Operation, b: BodyBuilder, x: SSAValue, element: Attribute) -> SSAValue:
    match op:
        case graph.NegOp():
            return b.add(arith.SubiOp(b.constant(0, element), x))
        case graph.AbsOp():
            return b.add(math.AbsIOp(x))
        case graph.ReluOp():
            return b.add(arith.MaxSIOp(x, b.constant(0, element)))
    raise NotImplementedError(f"no lowering for {op.name} on {element}")


def binary_body(op: Operation, b: BodyBuilder, args: Sequence[SSAValue], element: Attribute) -> SSAValue:
    kind = type(op)
    if is_int(element):
        return b.add(INT_BINARY[kind](args[0], args[1]))
    lhs, rhs = widen(b, args[0], element), widen(b, args[1], element)
    return narrow(b, b.add(FLOAT_BINARY[kind](lhs, rhs)), element)


def compare_body(op: Operation, b: BodyBuilder, args: Sequence[SSAValue], element: Attribute) -> SSAValue:
    kind = type(op)
    if is_int(element):
        table = BOOL_COMPARE if element.width.data == 1 else INT_COMPARE  # type: ignore[attr-defined]
        return b.add(arith.CmpiOp(args[0], args[1], table[kind]))
    lhs, rhs = widen(b, args[0], element), widen(b, args[1], element)
    return b.add(arith.CmpfOp(lhs, rhs, FLOAT_COMPARE[kind]))


def convert_body(b: BodyBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    if src == dst:
        return x
    if is_int(dst) and dst.width.data == 1:  # type: ignore[attr-defined]
        zero = b.constant(0, src)
        return b.add(arith.CmpiOp(x, zero, "ne") if is_int(src) else arith.CmpfOp(x, zero, "une"))
    if is_int(src) and is_int(dst):
        return int_to_int(b, x, src, dst)
    if is_int(src):
        unsigned = src.width.data == 1  # type: ignore[attr-defined]
        wide = compute_type(dst)
        y = b.add(arith.UIToFPOp(x, wide) if unsigned else arith.SIToFPOp(x, wide))
        return narrow(b, y, dst)
    if is_int(dst):
        return float_to_int(b, x, src, dst)
    return float_to_float(b, x, src, dst)


def int_to_int(b: BodyBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    src_width, dst_width = src.width.data, dst.width.data  # type: ignore[attr-defined]
    if dst_width < src_width:
        return b.add(arith.TruncIOp(x, dst))
    return b.add(arith.ExtUIOp(x, dst) if src_width == 1 else arith.ExtSIOp(x, dst))


def float_to_float(b: BodyBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    src_bits, dst_bits = src.bitwidth, dst.bitwidth  # type: ignore[attr-defined]
    if src_bits < dst_bits or (src_bits == dst_bits and src != dst):
        x = b.add(arith.ExtFOp(x, compute_type(src))) if is_low_precision_float(src) else x
        if x.type == dst:
            return x
        return b.add(arith.ExtFOp(x, dst) if x.type.bitwidth < dst_bits else arith.TruncFOp(x, dst))  # type: ignore[attr-defined]
    if src_bits == 64 and is_low_precision_float(dst):
        x = b.add(arith.TruncFOp(x, f32))  # f64 -> f32 -> f16/bf16, as graph_numpy rounds
    return b.add(arith.TruncFOp(x, dst))


def largest_float_below(bound: float, element: Attribute) -> float:
    """The largest `element` value below `bound` (so `fptosi` never overflows)."""
    dtype = np.float64 if element.bitwidth == 64 else np.float32  # type: ignore[attr-defined]
    return float(np.nextafter(dtype(bound), dtype(0)))


def float_to_int(b: BodyBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """Truncate toward zero, NaN -> 0, saturate to the integer range (no poison)."""
    width = dst.width.data  # type: ignore[attr-defined]
    wide = compute_type(src)
    x = widen(b, x, src)
    lo, hi = -(2 ** (width - 1)), largest_float_below(2.0 ** (width - 1), wide)
    clamped = b.add(arith.MaximumfOp(b.add(arith.MinimumfOp(x, b.constant(hi, wide))),
                                     b.constant(float(lo), wide)))
    is_nan = b.add(arith.CmpfOp(x, x, "uno"))
    as_int = b.add(arith.FPToSIOp(clamped, dst))
    # The largest float below 2^(w-1) is below INT_MAX too (f32 has no 2^31 - 1): at or past
    # 2^(w-1) the result saturates to INT_MAX exactly, as graph_numpy (ONNX Cast) does.
    too_big = b.add(arith.CmpfOp(x, b.constant(2.0 ** (width - 1), wide), "oge"))
    saturated = b.add(arith.SelectOp(too_big, b.constant(2 ** (width - 1) - 1, dst), as_int))
    return b.add(arith.SelectOp(is_nan, b.constant(0, dst), saturated))
