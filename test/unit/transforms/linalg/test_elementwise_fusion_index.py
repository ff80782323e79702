"""Index arithmetic behind linalg-fuse-elementwise: bounds, simplification, views, reshapes."""

from __future__ import annotations

from xdsl.ir.affine import AffineExpr

from fusionopt.transforms.linalg.elementwise_fusion_index import IndexSpace
from fusionopt.transforms.linalg.elementwise_fusion_views import sliced_dims
from fusionopt.transforms.lowering.graph_to_linalg_shape import group_dims

d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)


def test_bounds_follow_interval_arithmetic():
    space = IndexSpace([4, 8])
    assert space.bounds(d0 * 8 + d1) == (0, 31)
    assert space.bounds(d1 - 3) == (-3, 4)
    assert space.bounds(d1 // 2) == (0, 3)
    assert space.bounds((d1 - 3) % 5) == (0, 4)


def test_floordiv_and_mod_vanish_only_when_provably_trivial():
    space = IndexSpace([1, 64])
    assert space.floordiv(d1, 64) == AffineExpr.constant(0)
    assert space.mod(d1, 64) == d1
    assert space.mod(d1, 1) == AffineExpr.constant(0)
    assert space.mod(d1, 32) == d1 % 32          # d1 reaches 63: must stay
    assert space.floordiv(d1, 32) == d1 // 32


def test_clamp_keeps_in_range_reads_and_wraps_the_rest():
    space = IndexSpace([6])
    assert space.clamp_into(d0 - 1, 6) == (d0 - 1) % 6   # d0 - 1 is -1 at d0 = 0
    assert space.clamp_into(d0, 8) == d0
    assert space.is_never_in(d0 + 6, 0, 6)
    assert space.is_always_in(d0, 0, 6)


def test_simplify_rebuilds_composed_expressions():
    space = IndexSpace([1, 8])
    composed = (d0 * 8 + d1) // 8      # collapse of a unit dim, read back through expand
    assert space.simplify(composed) == AffineExpr.constant(0)
    assert space.simplify((d0 * 8 + d1) % 8) == d1


def test_rank_reducing_slice_dims():
    assert sliced_dims((1, 5), (5,)) == [None, 0]
    assert sliced_dims((4, 1, 3), (4, 3)) == [0, None, 1]
    assert sliced_dims((1, 1, 5), (1, 5)) == [0, None, 1]
    assert sliced_dims((2, 3), (2, 3)) == [0, 1]


def test_reshape_grouping_or_none():
    assert group_dims((1, 64), (64,)) == [[0, 1]]
    assert group_dims((4, 4, 2), (4, 8)) == [[0], [1, 2]]
    assert group_dims((64, 1, 1), (64, 1)) == [[0], [1, 2]]
    assert group_dims((1, 1), ()) == []
    assert group_dims((2, 3), (3, 2)) is None
    assert group_dims((4, 6), (8, 3)) is None
