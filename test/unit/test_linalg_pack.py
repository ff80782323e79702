"""linalg.pack / linalg.unpack in the interpreter (fusionopt.interpreter.linalg_pack) against
independent element-by-element loops written from the op definition, with padding, outer
permutations, dynamic tiles, and the pack -> unpack round trip being the identity."""

from __future__ import annotations

import itertools

import numpy as np

from fusionopt.ir_io import parse_module
from fusionopt.testing import run_module

PACK = """func.func @main(%src: tensor<13x15xf32>, %dest: tensor<8x2x8x2xf32>, %pad: f32) -> (tensor<8x2x8x2xf32>, tensor<13x15xf32>) {
  %0 = linalg.pack %src padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %dest : tensor<13x15xf32> -> tensor<8x2x8x2xf32>
  %1 = tensor.empty() : tensor<13x15xf32>
  %2 = linalg.unpack %0 outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %1 : tensor<8x2x8x2xf32> -> tensor<13x15xf32>
  return %0, %2 : tensor<8x2x8x2xf32>, tensor<13x15xf32>
}"""

DYNAMIC = """func.func @main(%src: tensor<20x1x12xf32>, %dest: tensor<10x1x?x?x2xf32>, %t: index) -> tensor<10x1x?x?x2xf32> {
  %0 = linalg.pack %src inner_dims_pos = [2, 0] inner_tiles = [%t, 2] into %dest : tensor<20x1x12xf32> -> tensor<10x1x?x?x2xf32>
  return %0 : tensor<10x1x?x?x2xf32>
}"""


def test_pack_with_padding_and_outer_perm_then_unpack():
    rng = np.random.default_rng(0)
    src = (rng.standard_normal((13, 15)) + 1e4).astype(np.float32)
    pad = np.float32(-np.inf)
    packed, back = (np.asarray(r) for r in run_module(parse_module(PACK), [src, np.zeros((8, 2, 8, 2), np.float32), pad]))
    want = np.empty((8, 2, 8, 2), np.float32)
    # outer_dims_perm = [1, 0]: packed[j_outer, i_outer, i_tile, j_tile]
    for jo, io, it, jt in itertools.product(range(8), range(2), range(8), range(2)):
        i, j = io * 8 + it, jo * 2 + jt
        want[jo, io, it, jt] = src[i, j] if i < 13 and j < 15 else pad
    np.testing.assert_array_equal(packed, want)
    np.testing.assert_array_equal(back, src)


def test_pack_dynamic_tile_non_adjacent_dims():
    src = np.arange(240, dtype=np.float32).reshape(20, 1, 12)
    got = np.asarray(run_module(parse_module(DYNAMIC), [src, np.zeros((10, 1, 3, 4, 2), np.float32), np.int64(4)])[0])
    want = np.empty((10, 1, 3, 4, 2), np.float32)
    # inner_dims_pos = [2, 0], tiles [4, 2]: packed[a_outer, b, c_outer, c_tile, a_tile]
    for ao, co, ct, at in itertools.product(range(10), range(3), range(4), range(2)):
        want[ao, 0, co, ct, at] = src[ao * 2 + at, 0, co * 4 + ct]
    np.testing.assert_array_equal(got, want)
