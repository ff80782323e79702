"""IREE 3.13's CPU stack limit on a chain of same-row reductions in one region (a LayerNorm's
mean accumulated in f64, the centred values, their squares, the squares' sum: the form
`convert-graph-to-linalg` gives a long mean): bench/iree_limits.py prints these with its other
cases and test/unit/test_iree_limits.py pins them.

- `instance_norm_chain_2x16x56x56` fails ("exceeded stack allocation limit of 32768 bytes ...
  Got 50176"): a chain over two reduced loops (an InstanceNorm's pixels) is tiled along its rows
  and a tile's centred rows are kept whole on the stack, min(8, the power of two <= rows / 8)
  rows a tile (RAFT's InstanceNorm over 2 x 32 channels of 112 x 112 pixels needed 401472
  bytes). It is why `form-dispatch-regions` chains such reductions only while
  `reduction_chains.chain_fits_stack`; `instance_norm_chain_2x24x28x28` (4 rows of 3136 bytes)
  builds, and so does `layer_norm_chain_64_rows_of_8192`: a chain over one loop is tiled along it.
"""

from __future__ import annotations

import math

_CHAIN = """func.func @main_graph(%x: tensor<{rows}x{width}xf32>) -> (tensor<{rows}x{width}xf32>, tensor<{rows}xf32>) {{
  %c, %v = flow.dispatch.region -> (tensor<{rows}x{width}xf32>, tensor<{rows}xf32>) {{
    %z64 = arith.constant 0.0 : f64
    %e64 = tensor.empty() : tensor<{rows}xf64>
    %f64 = linalg.fill ins(%z64 : f64) outs(%e64 : tensor<{rows}xf64>) -> tensor<{rows}xf64>
    %z = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<{rows}xf32>
    %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<{rows}xf32>) -> tensor<{rows}xf32>
    %s = linalg.generic {{indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r)>], iterator_types = ["parallel", "reduction"]}} ins(%x : tensor<{rows}x{width}xf32>) outs(%f64 : tensor<{rows}xf64>) {{
    ^bb0(%in: f32, %acc: f64):
      %w = arith.extf %in : f32 to f64
      %a = arith.addf %acc, %w : f64
      linalg.yield %a : f64
    }} -> tensor<{rows}xf64>
    %e2 = tensor.empty() : tensor<{rows}x{width}xf32>
    %d = linalg.generic {{indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r)>, affine_map<(r, d) -> (r, d)>], iterator_types = ["parallel", "parallel"]}} ins(%x, %s : tensor<{rows}x{width}xf32>, tensor<{rows}xf64>) outs(%e2 : tensor<{rows}x{width}xf32>) {{
    ^bb0(%in: f32, %sum: f64, %o: f32):
      %n = arith.constant {width}.0 : f64
      %m = arith.divf %sum, %n : f64
      %m32 = arith.truncf %m : f64 to f32
      %y = arith.subf %in, %m32 : f32
      linalg.yield %y : f32
    }} -> tensor<{rows}x{width}xf32>
    %sq = linalg.generic {{indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r, d)>], iterator_types = ["parallel", "parallel"]}} ins(%d : tensor<{rows}x{width}xf32>) outs(%e2 : tensor<{rows}x{width}xf32>) {{
    ^bb0(%in: f32, %o: f32):
      %p = arith.mulf %in, %in : f32
      linalg.yield %p : f32
    }} -> tensor<{rows}x{width}xf32>
    %q = linalg.generic {{indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r)>], iterator_types = ["parallel", "reduction"]}} ins(%sq : tensor<{rows}x{width}xf32>) outs(%f : tensor<{rows}xf32>) {{
    ^bb0(%in: f32, %acc: f32):
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }} -> tensor<{rows}xf32>
    flow.return %d, %q : tensor<{rows}x{width}xf32>, tensor<{rows}xf32>
  }}
  return %c, %v : tensor<{rows}x{width}xf32>, tensor<{rows}xf32>
}}
"""


def chain_case(rows: tuple[int, ...], reduced: tuple[int, ...]) -> str:
    """`_CHAIN` over rows of shape `rows`, each reducing a block of shape `reduced`."""
    letters = "abcdefgh"[:len(rows) + len(reduced)]
    row_dims = letters[:len(rows)]
    shape = "x".join(map(str, (*rows, *reduced)))
    row_shape = "x".join(map(str, rows))
    text = _CHAIN.replace("tensor<{rows}x{width}xf32>", f"tensor<{shape}xf32>")
    text = text.replace("tensor<{rows}xf64>", f"tensor<{row_shape}xf64>").replace("tensor<{rows}xf32>", f"tensor<{row_shape}xf32>")
    every = ", ".join(letters)
    text = text.replace("affine_map<(r, d) -> (r, d)>", f"affine_map<({every}) -> ({every})>")
    text = text.replace("affine_map<(r, d) -> (r)>", f"affine_map<({every}) -> ({', '.join(row_dims)})>")
    parallel = ", ".join(['"parallel"'] * len(rows))
    reduction = ", ".join(['"reduction"'] * len(reduced))
    text = text.replace('iterator_types = ["parallel", "reduction"]', f"iterator_types = [{parallel}, {reduction}]")
    text = text.replace('iterator_types = ["parallel", "parallel"]',
                        "iterator_types = [" + ", ".join(['"parallel"'] * len(letters)) + "]")
    return text.format(width=math.prod(reduced))


CASES = {
    "instance_norm_chain_2x16x56x56": chain_case((2, 16), (56, 56)),
    "instance_norm_chain_2x24x28x28": chain_case((2, 24), (28, 28)),
    "layer_norm_chain_64_rows_of_8192": chain_case((64,), (8192,)),
}
