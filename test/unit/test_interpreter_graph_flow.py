"""graph, flow and func ops in the numpy interpreter."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.interpreter.graph import GraphFunctions
from fusionopt.testing import run_module


def run(text: str, *inputs, entry: str | None = None) -> list[np.ndarray]:
    return run_module(text, [np.asarray(x) for x in inputs], entry)


def test_every_graph_op_class_has_an_implementation() -> None:
    from fusionopt.dialects.graph import Graph

    registered = {op_type for op_type, _ in GraphFunctions()._impls()}
    assert set(Graph.operations) <= registered


def test_graph_program_matches_numpy() -> None:
    text = """
    func.func @f(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>) {
      %d = graph.dot %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
      %bb = graph.broadcast %b dims = [1] : tensor<4xf32> -> tensor<2x4xf32>
      %s = graph.add %d, %bb : tensor<2x4xf32>
      %r = graph.relu %s : tensor<2x4xf32>
      %m = graph.reduce_max %r axes = [1] : tensor<2x4xf32> -> tensor<2x1xf32>
      return %r, %m : tensor<2x4xf32>, tensor<2x1xf32>
    }"""
    rng = np.random.default_rng(0)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in [(2, 3), (3, 4), (4,)])
    r, m = run(text, x, w, b)
    expected = np.maximum(x @ w + b, 0)
    np.testing.assert_allclose(r, expected, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(m, expected.max(axis=1, keepdims=True), rtol=1e-6, atol=1e-6)


def test_flow_dispatch_region_and_tensor_ops() -> None:
    text = """
    func.func @f(%a: tensor<4x8xf32>, %v: f32) -> (tensor<4x8xf32>, tensor<32xf32>, tensor<2x3xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %r = flow.dispatch.region -> (tensor<4x8xf32>) {
        %d = arith.addf %a, %a : tensor<4x8xf32>
        flow.return %d : tensor<4x8xf32>
      }
      %s = flow.tensor.slice %r[%c1, %c2 for %c2, %c3] : tensor<4x8xf32> -> tensor<2x3xf32>
      %p = flow.tensor.splat %v : tensor<2x3xf32>
      %u = flow.tensor.update %p, %r[%c0, %c1] : tensor<2x3xf32> -> %r as tensor<4x8xf32>
      %t = flow.tensor.reshape %u : tensor<4x8xf32> -> tensor<32xf32>
      return %r, %t, %s : tensor<4x8xf32>, tensor<32xf32>, tensor<2x3xf32>
    }"""
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    r, t, s = run(text, a, np.float32(-1))
    assert r.tolist() == (2 * a).tolist()
    assert s.tolist() == (2 * a)[1:3, 2:5].tolist()
    updated = 2 * a
    updated[0:2, 1:4] = -1
    assert t.tolist() == updated.ravel().tolist()


CALLS = """
func.func private @double(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = arith.addf %x, %x : tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = func.call @double(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %b = func.call @double(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %b : tensor<3xf32>
}
func.func @other(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
"""


def test_func_call_and_entry_selection() -> None:
    x = np.array([1, 2, 3], np.float32)
    assert run(CALLS, x)[0].tolist() == [4, 8, 12]  # two public functions: `main` is chosen
    assert run(CALLS, x, entry="other")[0].tolist() == [1, 2, 3]


def test_wrong_input_count_is_a_user_error() -> None:
    from fusionopt.diagnostics import FusionError

    with pytest.raises(FusionError, match="takes 1 arguments, got 2"):
        run(CALLS, np.zeros(3, np.float32), np.zeros(3, np.float32))
