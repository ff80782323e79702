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
- `epilogue_kept_dim_broadcast` fails ("failed to run translation"): an MoE layer's RMSNorm (a
  sum of squares over [1, 64, 256], the normalising epilogue) whose output, its unit dim kept,
  a copy repeats for each of a token's 2 experts, read at (0, d0, d2) over 64 x 2 x 256 in the
  norm's region (Mixtral's and Qwen2-MoE's batched experts, the target-neutral pipelines).
  `epilogue_collapsed_broadcast` (the copy reading a `tensor.collapse_shape` of the output to
  [64, 256] in the region, what `dispatch-unit-dim-reads` makes) builds.
- `reshape_then_unit_dim_dropped` overflows the stack ("Got 57600 bytes"): Mask2Former's
  attention masks, an elementwise op over [1, 100, 12, 12] merged to [1, 100, 144] in the region
  and compared with 0.5 over [100, 144], read at (0, d0, d1). It is why an elementwise group
  takes no consumer that reads a value behind a reshape at a constant index
  (`iree_rules.reads_reshape_at_constant`, `reshape_read_at_constant`);
  `reshape_then_unit_dim_kept` (the comparison over [1, 100, 144]) builds.
- `i1_stored_and_widened` fails (the write-conflict message, on the i1 `vector.store`): the
  same comparison stored as a region result and widened to i64 in the region, at any size. It
  is why a group takes no consumer of an i1 value that is used outside it too
  (`iree_rules.reads_stored_i1`); `i1_widened_only` (the i64 result alone) builds.
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


_NORM_THEN_REPEAT = """func.func @main_graph(%x: tensor<1x64x256xf32>, %y: tensor<1x64x256xf32>) -> (tensor<1x64x256xf32>, tensor<64x2x256xf32>) {{
  %r:2 = flow.dispatch.region -> (tensor<1x64x256xf32>, tensor<64x2x256xf32>) {{
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x64xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
    %s = linalg.generic {{indexing_maps = [{identity}, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%x : tensor<1x64x256xf32>) outs(%f : tensor<1x64xf32>) {{
    ^bb0(%a: f32, %o: f32):
      %t = arith.addf %o, %a : f32
      linalg.yield %t : f32
    }} -> tensor<1x64xf32>
    %e2 = tensor.empty() : tensor<1x64x256xf32>
    %n = linalg.generic {{indexing_maps = [{identity}, affine_map<(d0, d1, d2) -> (d0, d1)>, {identity}], iterator_types = [{loops}]}} ins(%y, %s : tensor<1x64x256xf32>, tensor<1x64xf32>) outs(%e2 : tensor<1x64x256xf32>) {{
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    }} -> tensor<1x64x256xf32>
{between}    %e3 = tensor.empty() : tensor<64x2x256xf32>
    %b = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> {read}>, {identity}], iterator_types = [{loops}]}} ins({source}) outs(%e3 : tensor<64x2x256xf32>) {{
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }} -> tensor<64x2x256xf32>
    flow.return %n, %b : tensor<1x64x256xf32>, tensor<64x2x256xf32>
  }}
  return %r#0, %r#1 : tensor<1x64x256xf32>, tensor<64x2x256xf32>
}}
"""
_COLLAPSE = ("    %c = tensor.collapse_shape %n [[0, 1], [2]] : tensor<1x64x256xf32> into tensor<64x256xf32>\n")


def _repeat(read: str, source: str, between: str = "") -> str:
    return _NORM_THEN_REPEAT.format(identity=_IDENTITY3, loops=_LOOPS3, read=read, source=source, between=between)


CASES.update({
    "epilogue_kept_dim_broadcast": _repeat("(0, d0, d2)", "%n : tensor<1x64x256xf32>"),
    "epilogue_collapsed_broadcast": _repeat("(d0, d2)", "%c : tensor<64x256xf32>", _COLLAPSE),
})


_SIGMOID_MERGED = """func.func @main_graph(%a: tensor<1x100x12x12xf32>) -> {out} {{
  %r = flow.dispatch.region -> ({out}) {{
    %e = tensor.empty() : tensor<1x100x12x12xf32>
    %s = linalg.generic {{indexing_maps = [{identity4}, {identity4}], iterator_types = [{loops4}]}} ins(%a : tensor<1x100x12x12xf32>) outs(%e : tensor<1x100x12x12xf32>) {{
    ^bb0(%x: f32, %o: f32):
      %y = math.exp %x : f32
      linalg.yield %y : f32
    }} -> tensor<1x100x12x12xf32>
    %c = tensor.collapse_shape %s [[0], [1], [2, 3]] : tensor<1x100x12x12xf32> into tensor<1x100x144xf32>
    %m = tensor.empty() : {out}
    %b = linalg.generic {{indexing_maps = [{read}, {write}], iterator_types = [{loops}]}} ins(%c : tensor<1x100x144xf32>) outs(%m : {out}) {{
    ^bb0(%x: f32, %o: i1):
      %h = arith.constant 5.000000e-01 : f32
      %l = arith.cmpf olt, %x, %h : f32
      linalg.yield %l : i1
    }} -> {out}
    flow.return %b : {out}
  }}
  return %r : {out}
}}
"""
_COMPARE_WIDEN = """func.func @main_graph(%a: tensor<100x144xf32>) -> ({results}) {{
  %r{count} = flow.dispatch.region -> ({results}) {{
    %m = tensor.empty() : tensor<100x144xi1>
    %w = tensor.empty() : tensor<100x144xi64>
    %b = linalg.generic {{indexing_maps = [{identity2}, {identity2}], iterator_types = [{loops2}]}} ins(%a : tensor<100x144xf32>) outs(%m : tensor<100x144xi1>) {{
    ^bb0(%x: f32, %o: i1):
      %h = arith.constant 5.000000e-01 : f32
      %l = arith.cmpf olt, %x, %h : f32
      linalg.yield %l : i1
    }} -> tensor<100x144xi1>
    %i = linalg.generic {{indexing_maps = [{identity2}, {identity2}], iterator_types = [{loops2}]}} ins(%b : tensor<100x144xi1>) outs(%w : tensor<100x144xi64>) {{
    ^bb0(%x: i1, %o: i64):
      %e = arith.extui %x : i1 to i64
      linalg.yield %e : i64
    }} -> tensor<100x144xi64>
    flow.return {returned}
  }}
  return {returns}
}}
"""
_IDENTITY2 = "affine_map<(d0, d1) -> (d0, d1)>"


def _merged(out: str, read: str, write: str, loops: str) -> str:
    return _SIGMOID_MERGED.format(out=out, read=read, write=write, loops=loops, identity4=_IDENTITY4, loops4=_LOOPS4)


def _widen(stored: bool) -> str:
    results = "tensor<100x144xi1>, tensor<100x144xi64>" if stored else "tensor<100x144xi64>"
    return _COMPARE_WIDEN.format(results=results, count=":2" if stored else "", identity2=_IDENTITY2,
                                 loops2=", ".join(['"parallel"'] * 2), returned=f"{'%b, ' if stored else ''}%i : {results}",
                                 returns=f"{'%r#0, %r#1' if stored else '%r'} : {results}")


CASES.update({
    "reshape_then_unit_dim_dropped": _merged("tensor<100x144xi1>", "affine_map<(d0, d1) -> (0, d0, d1)>",
                                             _IDENTITY2, ", ".join(['"parallel"'] * 2)),
    "reshape_then_unit_dim_kept": _merged("tensor<1x100x144xi1>", _IDENTITY3, _IDENTITY3, _LOOPS3),
    "i1_stored_and_widened": _widen(True),
    "i1_widened_only": _widen(False),
})
