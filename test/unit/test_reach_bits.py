"""`use_def.downstream_bits`, the one-sweep reachability that `graph-horizontal-fuse-dots`
(`graph_ir.ReachCache`) and `linalg-horizontal-fuse-contractions` test independence with: on
an unrolled LSTM's graph it gives exactly the op sets `forward_reach` walks, and a use inside an
op's body counts for that op (a constant a generic's payload captures)."""

from __future__ import annotations

from pathlib import Path

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_module
from fusionopt.transforms.common.use_def import downstream_bits
from fusionopt.transforms.graph.graph_ir import ReachCache, forward_reach

DATA = Path(__file__).resolve().parents[1] / "data" / "onnx"


def _entry_block(module):
    return next(op for op in module.ops if op.name == "func.func").body.blocks[0]


def test_bits_are_the_walked_reach_on_an_unrolled_lstm():
    block = _entry_block(import_onnx(DATA / "lstm_tagger.onnx"))
    position, reached = downstream_bits(block)
    by_position = {i: op for op, i in position.items()}
    for op in block.ops:
        bits = reached[op]
        assert {by_position[i] for i in range(len(position)) if bits >> i & 1} == forward_reach(op)


def test_cache_independence_matches_the_walks():
    block = _entry_block(import_onnx(DATA / "gru_encoder.onnx"))
    dots = [op for op in block.ops if op.name == "graph.dot"]
    cache = ReachCache()
    for a in dots:
        for b in dots:
            if a is not b:
                walked = b not in forward_reach(a) and a not in forward_reach(b)
                assert cache.independent(a, b) == walked
    assert any(cache.independent(a, b) for a in dots for b in dots if a is not b)
    assert not all(cache.independent(a, b) for a in dots for b in dots if a is not b)


CAPTURE = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  func.return %g : tensor<4xf32>
}
"""


def test_a_use_inside_a_body_counts_for_the_op_that_holds_it():
    block = _entry_block(parse_module(CAPTURE))
    constant, empty, generic, _ = list(block.ops)
    position, reached = downstream_bits(block)
    assert reached[constant] >> position[generic] & 1
    assert reached[empty] >> position[generic] & 1
    assert not reached[generic] >> position[constant] & 1
