"""Region-grouping forms of one computation, as flow regions written out (the
`producer-reduction-consumer` set of `bench/cpu_kernel_forms.py`): which grouping of a producer,
a row reduction and its consumer IREE runs fastest."""

from __future__ import annotations

from kernel_ir import amap, t


def producer_reduction_consumer(rows: int = 1024, cols: int = 2048) -> str:
    x, r = t(rows, cols), t(rows)
    full, row = amap(2, "(d0, d1)"), amap(2, "(d0)")
    y = f"""%ey = tensor.empty() : {x}
    %y = linalg.generic {{indexing_maps = [{full}, {full}], iterator_types = ["parallel", "parallel"]}} ins(%x : {x}) outs(%ey : {x}) {{
    ^bb0(%a: f32, %o: f32):
      %d = arith.addf %a, %a : f32
      linalg.yield %d : f32
    }} -> {x}"""
    s_ = f"""%z0 = arith.constant 0.0 : f32
    %es = tensor.empty() : {r}
    %fs = linalg.fill ins(%z0 : f32) outs(%es : {r}) -> {r}
    %s = linalg.generic {{indexing_maps = [{full}, {row}], iterator_types = ["parallel", "reduction"]}} ins(%Y : {x}) outs(%fs : {r}) {{
    ^bb0(%a: f32, %o: f32):
      %d = arith.addf %a, %o : f32
      linalg.yield %d : f32
    }} -> {r}"""
    z = f"""%ez = tensor.empty() : {x}
    %z = linalg.generic {{indexing_maps = [{full}, {row}, {full}], iterator_types = ["parallel", "parallel"]}} ins(%Y, %S : {x}, {r}) outs(%ez : {x}) {{
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      linalg.yield %d : f32
    }} -> {x}"""
    one = f"""func.func @one_region(%x: {x}) -> {x} {{
  %r = flow.dispatch.region -> ({x}) {{
    {y}
    {s_.replace("%Y", "%y")}
    {z.replace("%Y", "%y").replace("%S", "%s")}
    flow.return %z : {x}
  }}
  return %r : {x}
}}"""
    iree = f"""func.func @iree_y_s_then_z(%x: {x}) -> {x} {{
  %ys:2 = flow.dispatch.region -> ({x}, {r}) {{
    {y}
    {s_.replace("%Y", "%y")}
    flow.return %y, %s : {x}, {r}
  }}
  %r = flow.dispatch.region -> ({x}) {{
    {z.replace("%Y", "%ys#0").replace("%S", "%ys#1")}
    flow.return %z : {x}
  }}
  return %r : {x}
}}"""
    ours = f"""func.func @ours_y_then_s_z(%x: {x}) -> {x} {{
  %yy = flow.dispatch.region -> ({x}) {{
    {y}
    flow.return %y : {x}
  }}
  %r = flow.dispatch.region -> ({x}) {{
    {s_.replace("%Y", "%yy")}
    {z.replace("%Y", "%yy").replace("%S", "%s")}
    flow.return %z : {x}
  }}
  return %r : {x}
}}"""
    return "\n".join([one, iree, ours])
