"""Graph-dialect text of a normalisation over the last axis, for the tests that build one (a
LayerNorm's statistics as the ONNX importer writes them: two-pass mean and variance)."""

from __future__ import annotations


def normalised_lines(value: str, shape: tuple[int, ...], epsilon: float) -> str:
    """`%y = (value - mean) * rsqrt(var + epsilon)` over the last axis of `value` (a tensor of
    `shape`), one op a line."""
    full = f"tensor<{'x'.join(map(str, shape))}xf32>"
    kept = f"tensor<{'x'.join(map(str, (*shape[:-1], 1)))}xf32>"
    dims = list(range(len(shape)))
    last = [len(shape) - 1]
    return f"""  %m = graph.reduce_mean {value} axes = {last} : {full} -> {kept}
  %mb = graph.broadcast %m dims = {dims} : {kept} -> {full}
  %c = graph.sub {value}, %mb : {full}
  %sq = graph.mul %c, %c : {full}
  %v = graph.reduce_mean %sq axes = {last} : {full} -> {kept}
  %eps = arith.constant dense<{epsilon:.1e}> : {kept}
  %ve = graph.add %v, %eps : {kept}
  %r = graph.rsqrt %ve : {kept}
  %rb = graph.broadcast %r dims = {dims} : {kept} -> {full}
  %y = graph.mul %c, %rb : {full}
"""
