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
- `scan_growing_buffers_38_steps` fails ("failed to solve for usage analysis"): an unrolled scan
  (RecurrentGemma's RG-LRU over 64 tokens), each step a dispatch on the one before, its rows so
  far copied into a buffer one row larger and the step written after them. The stream usage
  solver moves one step a round and stops at 32 rounds; 34 steps build. It is why
  graph-canonicalize flattens nested concats (`FlattenNestedConcats`):
  `scan_one_buffer_64_steps`, every step written once into one buffer, builds.

CUDA sm_80 (`CUDA_CASES`):
- `gathered_matvecs_in_payload` fails ("failed to distribute"): 64 rows each times its own of 8
  [64, 64] matrices, loaded by `tensor.extract` in the contraction's payload (what
  `linalg-gather-into-contraction` makes; at 32 x [32, 32] it builds). It is why that pass runs
  only in the llvm-cpu pipelines; `gathered_matvecs_copied` (the gather's copy, then
  `linalg.batch_matmul`) builds.
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


_STEP = """  %h{n} = flow.dispatch.region -> (tensor<1x256xf32>) {{
    %e = tensor.empty() : tensor<1x256xf32>
    %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins({h} : tensor<1x256xf32>) outs(%e : tensor<1x256xf32>) {{
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    }} -> tensor<1x256xf32>
    flow.return %r : tensor<1x256xf32>
  }}
  %v{n} = flow.tensor.reshape %h{n} : tensor<1x256xf32> -> tensor<1x1x256xf32>
  %i{n} = arith.constant {row} : index
"""


def scan_case(steps: int, one_buffer: bool) -> str:
    """`steps` chained dispatches, each step's row written into a [steps, 1, 256] result: into one
    buffer (`one_buffer`), or after the rows so far copied into a buffer one row larger."""
    lines = [f"func.func @main_graph(%x: tensor<1x256xf32>) -> tensor<{steps}x1x256xf32> {{",
             "  %c0 = arith.constant 0 : index"]
    if one_buffer:
        lines.append(f"  %p0 = flow.tensor.empty : tensor<{steps}x1x256xf32>")
    for n in range(1, steps + 1):
        lines.append(_STEP.format(n=n, h=f"%h{n - 1}" if n > 1 else "%x", row=n - 1).rstrip("\n"))
        rows = steps if one_buffer else n
        target = f"%p{n - 1}" if one_buffer else f"%g{n}"
        if not one_buffer and n == 1:
            lines.append("  %p1 = flow.tensor.reshape %v1 : tensor<1x1x256xf32> -> tensor<1x1x256xf32>")
            continue
        if not one_buffer:
            lines.append(f"  %e{n} = flow.tensor.empty : tensor<{n}x1x256xf32>")
            lines.append(f"  %g{n} = flow.tensor.update %p{n - 1}, %e{n}[%c0, %c0, %c0] : "
                         f"tensor<{n - 1}x1x256xf32> -> %e{n} as tensor<{n}x1x256xf32>")
        lines.append(f"  %p{n} = flow.tensor.update %v{n}, {target}[%i{n}, %c0, %c0] : "
                     f"tensor<1x1x256xf32> -> {target} as tensor<{rows}x1x256xf32>")
    lines.append(f"  return %p{steps} : tensor<{steps}x1x256xf32>\n}}\n")
    return "\n".join(lines)


_GATHERED = """func.func @main_graph(%ids: tensor<64xi64>, %x: tensor<64x64x1xf32>, %w: tensor<8x64x64xf32>) -> tensor<64x64x1xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64x1xf32>) -> tensor<64x64x1xf32>
{body}  return %r : tensor<64x64x1xf32>
}}
"""
_IN_PAYLOAD = """  %r = linalg.generic {indexing_maps = [affine_map<(s, o, n, h) -> (s)>, affine_map<(s, o, n, h) -> (s, h, n)>, affine_map<(s, o, n, h) -> (s, o, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ids, %x : tensor<64xi64>, tensor<64x64x1xf32>) outs(%f : tensor<64x64x1xf32>) {
  ^bb0(%id: i64, %xv: f32, %acc: f32):
    %i = arith.index_cast %id : i64 to index
    %o = linalg.index 1 : index
    %h = linalg.index 3 : index
    %wv = tensor.extract %w[%i, %o, %h] : tensor<8x64x64xf32>
    %p = arith.mulf %wv, %xv : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<64x64x1xf32>
"""
_COPIED = """  %e0 = tensor.empty() : tensor<64x64x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(s, o, h) -> (s)>, affine_map<(s, o, h) -> (s, o, h)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<64xi64>) outs(%e0 : tensor<64x64x64xf32>) {
  ^bb0(%id: i64, %out: f32):
    %i = arith.index_cast %id : i64 to index
    %o = linalg.index 1 : index
    %h = linalg.index 2 : index
    %wv = tensor.extract %w[%i, %o, %h] : tensor<8x64x64xf32>
    linalg.yield %wv : f32
  } -> tensor<64x64x64xf32>
  %r = linalg.batch_matmul ins(%g, %x : tensor<64x64x64xf32>, tensor<64x64x1xf32>) outs(%f : tensor<64x64x1xf32>) -> tensor<64x64x1xf32>
"""
CUDA_CASES = {
    "gathered_matvecs_in_payload": _GATHERED.format(body=_IN_PAYLOAD),
    "gathered_matvecs_copied": _GATHERED.format(body=_COPIED),
}

CASES = {
    "scan_growing_buffers_38_steps": scan_case(38, one_buffer=False),
    "scan_growing_buffers_34_steps": scan_case(34, one_buffer=False),
    "scan_one_buffer_64_steps": scan_case(64, one_buffer=True),
    "instance_norm_chain_2x16x56x56": chain_case((2, 16), (56, 56)),
    "instance_norm_chain_2x24x28x28": chain_case((2, 24), (28, 28)),
    "layer_norm_chain_64_rows_of_8192": chain_case((64,), (8192,)),
}
