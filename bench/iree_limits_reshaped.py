"""IREE 3.13's llvm-cpu codegen on a reduction's consumer behind a unit-dim reshape in one region:
bench/iree_limits.py prints these with its other cases and test/unit/test_iree_limits.py pins them.

- `reduction_unit_expand_then_transposed_write` fails ("write affecting operations on global
  resources are restricted to workgroup distributed contexts"): RT-DETR's deformable attention,
  a sum over 8 x 32 x 300 rows of 12 samples, expanded by a trailing unit dim and written
  transposed to [1, 300, 1, 8, 32] (batch 1 an unread unit loop) in the sum's region. So do
  `reduction_unit_expand_then_unit_loop` (the write in order, the unread unit loop kept) and
  `reduction_unit_expand_epilogue_then_transposed_write` (an elementwise op in order between the
  expand and the transposing write). IREE tiles such a consumer apart from the reduction.
  It is why `form-dispatch-regions` gives a root's group no consumer that walks a value behind a
  reshape other than one to one (`iree_rules.reshape_then_reorders`).
- What builds: `reduction_then_transposed_write` (the same transposing write on the sum itself),
  `reduction_epilogue_then_transposed_write` (behind an elementwise op, no reshape) and
  `reduction_unit_expand_then_copy` (behind the expand, read and written one to one).
"""

from __future__ import annotations

_SUM = """func.func @main_graph(%a: tensor<8x32x300x12xf32>) -> {out} {{
  %r = flow.dispatch.region -> ({out}) {{
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x32x300xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32x300xf32>) -> tensor<8x32x300xf32>
    %s = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins(%a : tensor<8x32x300x12xf32>) outs(%f : tensor<8x32x300xf32>) {{
    ^bb0(%x: f32, %y: f32):
      %q = arith.addf %y, %x : f32
      linalg.yield %q : f32
    }} -> tensor<8x32x300xf32>
{between}    %t = tensor.empty() : {out}
    %w = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{loops}]}} ins({source}) outs(%t : {out}) {{
    ^bb0(%u: f32, %v: f32):
      linalg.yield %u : f32
    }} -> {out}
    flow.return %w : {out}
  }}
  return %r : {out}
}}
"""
_EXPAND = ("    %x = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [8, 32, 300, 1] : "
           "tensor<8x32x300xf32> into tensor<8x32x300x1xf32>\n")
_EXP = """    %g = tensor.empty() : {shape}
    %h = linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{loops}]}} ins({value} : {shape}) outs(%g : {shape}) {{
    ^bb0(%u: f32, %v: f32):
      %m = math.exp %u : f32
      linalg.yield %m : f32
    }} -> {shape}
"""
_IDENTITY4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
_IDENTITY3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
_TRANSPOSE4 = _IDENTITY4 + ", affine_map<(d0, d1, d2, d3) -> (d2, d3, d0, d1)>"
_LOOPS3, _LOOPS4, _LOOPS5 = (", ".join(['"parallel"'] * n) for n in (3, 4, 5))
_EXPANDED = "tensor<8x32x300x1xf32>"


def _case(out: str, maps: str, loops: str, source: str, between: str = "") -> str:
    return _SUM.format(out=out, maps=maps, loops=loops, source=source, between=between)


def _exp(value: str, shape: str, identity: str, loops: str) -> str:
    return _EXP.format(value=value, shape=shape, identity=identity, loops=loops)


CASES = {
    "reduction_unit_expand_then_transposed_write": _case(
        "tensor<1x300x1x8x32xf32>", "affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>, "
        "affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4, d1, d2)>", _LOOPS5, f"%x : {_EXPANDED}", _EXPAND),
    "reduction_unit_expand_then_unit_loop": _case(
        "tensor<1x8x32x300x1xf32>", "affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>, "
        "affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>", _LOOPS5, f"%x : {_EXPANDED}", _EXPAND),
    "reduction_unit_expand_epilogue_then_transposed_write": _case(
        "tensor<300x1x8x32xf32>", _TRANSPOSE4, _LOOPS4, f"%h : {_EXPANDED}",
        _EXPAND + _exp("%x", _EXPANDED, _IDENTITY4, _LOOPS4)),
    "reduction_then_transposed_write": _case(
        "tensor<300x8x32xf32>", _IDENTITY3 + ", affine_map<(d0, d1, d2) -> (d2, d0, d1)>", _LOOPS3,
        "%s : tensor<8x32x300xf32>"),
    "reduction_epilogue_then_transposed_write": _case(
        "tensor<300x8x32xf32>", _IDENTITY3 + ", affine_map<(d0, d1, d2) -> (d2, d0, d1)>", _LOOPS3,
        "%h : tensor<8x32x300xf32>", _exp("%s", "tensor<8x32x300xf32>", _IDENTITY3, _LOOPS3)),
    "reduction_unit_expand_then_copy": _case(
        _EXPANDED, f"{_IDENTITY4}, {_IDENTITY4}", _LOOPS4, f"%x : {_EXPANDED}", _EXPAND),
}
