"""Graph programs of luminal #39 for elementwise fusion.

`test/unit/transforms/linalg/test_elementwise_fusion.py` asserts what fusion makes of them
(`bench/elementwise_fusion.py`, in git at dfad5b9, reported their kernel counts and bytes moved at
realistic sizes). Shape-parametrised builders let the tests stay small.
"""

from __future__ import annotations

LUMINAL_TARGET = """
func.func @main(%a: tensor<10xf32>, %b: tensor<10xf32>, %d: tensor<10xf32>) -> tensor<10xf32> {
  %c = arith.constant dense<2.123> : tensor<f32>
  %0 = graph.exp2 %a : tensor<10xf32>
  %1 = graph.sin %b : tensor<10xf32>
  %2 = graph.sub %0, %1 : tensor<10xf32>
  %3 = graph.relu %2 : tensor<10xf32>
  %4 = graph.broadcast %c dims = [] : tensor<f32> -> tensor<10xf32>
  %5 = graph.div %4, %d : tensor<10xf32>
  %6 = graph.add %3, %5 : tensor<10xf32>
  return %6 : tensor<10xf32>
}"""
"""`(exp2(a) - sin(b)).relu() + c / d`: the luminal target, one kernel."""

MULTI_USE_EXP = """
func.func @main(%a: tensor<10xf32>) -> tensor<10xf32> {
  %b = graph.exp %a : tensor<10xf32>
  %s = graph.sin %b : tensor<10xf32>
  %c = graph.add %b, %s : tensor<10xf32>
  return %c : tensor<10xf32>
}"""
"""`b = exp(a); b + sin(b)`: an intermediate with two uses, computed once."""

SHARED_SQRT = """
func.func @main(%a: tensor<10xf32>) -> tensor<10xf32> {
  %s1 = graph.sqrt %a : tensor<10xf32>
  %e = graph.exp %s1 : tensor<10xf32>
  %s2 = graph.sqrt %a : tensor<10xf32>
  %n = graph.sin %s2 : tensor<10xf32>
  %r = graph.add %e, %n : tensor<10xf32>
  return %r : tensor<10xf32>
}"""
"""`sqrt(a).exp() + sqrt(a).sin()`: a repeated subexpression."""

SLICE_COS_PAD_EXP2 = """
func.func @main(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = graph.slice %x axes = [0] starts = [0] ends = [1] : tensor<2x5xf32> -> tensor<1x5xf32>
  %1 = graph.cos %0 : tensor<1x5xf32>
  %2 = graph.pad %1 low = [0, 0] high = [1, 0] value = 0.0 : tensor<1x5xf32> -> tensor<2x5xf32>
  %3 = graph.exp2 %2 : tensor<2x5xf32>
  return %3 : tensor<2x5xf32>
}"""
"""slice -> cos -> pad -> exp2 on `[2,5]`: the padded row must be exp2 of the pad value."""


def rotary_embedding(rows: int, cols: int) -> str:
    """`x * cos + rotate_half(x) * sin` on `[rows, cols]` (reshape, slices, neg, concat)."""
    full, pairs = f"tensor<{rows}x{cols}xf32>", f"tensor<{rows}x{cols // 2}x2xf32>"
    half = f"tensor<{rows}x{cols // 2}x1xf32>"
    return f"""
func.func @main(%x: {full}, %cos: {full}, %sin: {full}) -> {full} {{
  %p = graph.reshape %x : {full} -> {pairs}
  %x1 = graph.slice %p axes = [2] starts = [0] ends = [1] : {pairs} -> {half}
  %x2 = graph.slice %p axes = [2] starts = [1] ends = [2] : {pairs} -> {half}
  %n2 = graph.neg %x2 : {half}
  %r = graph.concat %n2, %x1 axis = 2 : ({half}, {half}) -> {pairs}
  %rf = graph.reshape %r : {pairs} -> {full}
  %a = graph.mul %x, %cos : {full}
  %b = graph.mul %rf, %sin : {full}
  %o = graph.add %a, %b : {full}
  return %o : {full}
}}"""


def transpose_broadcast_chain(rows: int, cols: int) -> str:
    """`exp(x)^T * broadcast(v) + y` with x `[rows, cols]`: views in the middle of a chain."""
    source, out, vec = f"tensor<{rows}x{cols}xf32>", f"tensor<{cols}x{rows}xf32>", f"tensor<{rows}xf32>"
    return f"""
func.func @main(%x: {source}, %v: {vec}, %y: {out}) -> {out} {{
  %e = graph.exp %x : {source}
  %t = graph.transpose %e perm = [1, 0] : {source} -> {out}
  %b = graph.broadcast %v dims = [1] : {vec} -> {out}
  %m = graph.mul %t, %b : {out}
  %s = graph.add %m, %y : {out}
  return %s : {out}
}}"""


def softmax_like(rows: int, cols: int) -> str:
    """`exp(x) / sum(exp(x), axis 1)` on `[rows, cols]`: the reduction stays its own kernel."""
    full, reduced = f"tensor<{rows}x{cols}xf32>", f"tensor<{rows}x1xf32>"
    return f"""
func.func @main(%x: {full}) -> {full} {{
  %e = graph.exp %x : {full}
  %s = graph.reduce_sum %e axes = [1] : {full} -> {reduced}
  %b = graph.broadcast %s dims = [0, 1] : {reduced} -> {full}
  %d = graph.div %e, %b : {full}
  return %d : {full}
}}"""
