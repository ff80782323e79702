"""numpy semantics of the ops added for IREE's and MLIR's own files: util (calls, barrier,
globals), iree_encoding / iree_tensor_ext (identity and bitcast), flow.tensor.constant, the
upstream tensor ops (rank, generate, gather, scatter), and dynamic (`?`) shapes in fusion-run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.diagnostics import FusionError
from fusionopt.interpreter import family_inputs, find_entry, run_function
from fusionopt.ir_io import parse_module
from fusionopt.tools.fusion_run import run as fusion_run


def run(text: str, *inputs):
    return run_function(parse_module(text, "<test>"), list(inputs))


def test_util_call_barrier_and_globals():
    text = """
    util.global private mutable @acc = dense<1.0> : tensor<4xf32>
    util.func private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
      %b = arith.addf %a, %a : tensor<4xf32>
      util.return %b : tensor<4xf32>
    }
    util.func public @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %g = util.global.load @acc : tensor<4xf32>
      %b = util.optimization_barrier %a : tensor<4xf32>
      %c = util.call @twice(%b) : (tensor<4xf32>) -> tensor<4xf32>
      %d = arith.addf %c, %g : tensor<4xf32>
      util.global.store %d, @acc : tensor<4xf32>
      %e = util.global.load @acc : tensor<4xf32>
      util.return %g, %e : tensor<4xf32>, tensor<4xf32>
    }
    """
    a = np.array([1, -2, 3.5, 0], np.float32)
    initial, stored = run(text, a)
    np.testing.assert_array_equal(initial, np.ones(4, np.float32))
    np.testing.assert_array_equal(stored, 2 * a + 1)


def test_global_without_value_is_an_error():
    text = """
    util.global private mutable @g : tensor<2xf32>
    util.func public @main() -> tensor<2xf32> {
      %v = util.global.load @g : tensor<2xf32>
      util.return %v : tensor<2xf32>
    }
    """
    with pytest.raises(FusionError, match="read before anything was stored"):
        run(text)


def test_encodings_barriers_are_identity_and_bitcast_reinterprets():
    text = """
    #enc = #iree_encoding.testing<>
    util.func public @main(%a: tensor<?x2xf32>, %n: index) -> (tensor<?x2xf32>, tensor<?x2xi32>, tensor<?x4xf16>) {
      %e = iree_encoding.set_encoding %a : tensor<?x2xf32> -> tensor<?x2xf32, #enc>
      %u = iree_encoding.unset_encoding %e : tensor<?x2xf32, #enc> -> tensor<?x2xf32>{%n}
      %s = iree_tensor_ext.compute_barrier.start %u : tensor<?x2xf32>{%n} -> tensor<?x2xf32>
      %t = iree_tensor_ext.compute_barrier.end %s : tensor<?x2xf32>{%n} -> tensor<?x2xf32>
      %b = iree_tensor_ext.bitcast %t : tensor<?x2xf32>{%n} -> tensor<?x2xi32>{%n}
      %h = iree_tensor_ext.bitcast %t : tensor<?x2xf32>{%n} -> tensor<?x4xf16>{%n}
      util.return %t, %b, %h : tensor<?x2xf32>, tensor<?x2xi32>, tensor<?x4xf16>
    }
    """
    a = np.array([[1.0, -0.0], [np.inf, 3.25], [-1e-30, 2.0]], np.float32)
    same, as_int, as_half = run(text, a, np.int64(3))
    np.testing.assert_array_equal(same, a)
    np.testing.assert_array_equal(as_int, a.view(np.int32))
    np.testing.assert_array_equal(as_half.view(np.uint16), a.view(np.uint16).reshape(3, 4))


def test_flow_tensor_constant():
    text = """
    util.func public @main() -> tensor<3xf32> {
      %c = flow.tensor.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
      util.return %c : tensor<3xf32>
    }
    """
    np.testing.assert_array_equal(run(text)[0], np.array([1, 2, 3], np.float32))
    parameter = text.replace("dense<[1.0, 2.0, 3.0]> : tensor<3xf32>", '#flow.parameter.named<"m"::"w"> : tensor<3xf32>')
    with pytest.raises(FusionError, match="its data is not in the IR"):
        run(parameter)


def test_tensor_rank_generate_gather_scatter():
    text = """
    func.func @main(%t: tensor<4x5x6xf32>, %i: tensor<1x3x2xindex>, %m: index)
        -> (index, tensor<?x3xf32>, tensor<1x3x4x1x1xf32>, tensor<1x3x4xf32>, tensor<4x5x6xf32>) {
      %r = tensor.rank %t : tensor<4x5x6xf32>
      %g = tensor.generate %m {
      ^bb0(%a: index, %b: index):
        %s = arith.muli %a, %b : index
        %f = arith.index_cast %s : index to i64
        %v = arith.sitofp %f : i64 to f32
        tensor.yield %v : f32
      } : tensor<?x3xf32>
      %k = tensor.gather %t[%i] gather_dims([1, 2]) : (tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<1x3x4x1x1xf32>
      %k2 = tensor.gather %t[%i] gather_dims([1, 2]) : (tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<1x3x4xf32>
      %z = arith.constant dense<0.0> : tensor<4x5x6xf32>
      %s = tensor.scatter %k into %z[%i] scatter_dims([1, 2]) unique : (tensor<1x3x4x1x1xf32>, tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<4x5x6xf32>
      return %r, %g, %k, %k2, %s : index, tensor<?x3xf32>, tensor<1x3x4x1x1xf32>, tensor<1x3x4xf32>, tensor<4x5x6xf32>
    }
    """
    t = np.arange(120, dtype=np.float32).reshape(4, 5, 6)
    idx = np.array([[[0, 5], [4, 0], [2, 3]]], np.int64)
    rank, gen, gathered, reduced, scattered = run(text, t, idx, np.int64(2))
    assert int(rank) == 3
    np.testing.assert_array_equal(gen, np.outer(np.arange(2), np.arange(3)).astype(np.float32))
    expected = np.stack([t[:, j, k] for j, k in idx[0]])[None]  # (1, 3, 4)
    np.testing.assert_array_equal(gathered, expected.reshape(1, 3, 4, 1, 1))
    np.testing.assert_array_equal(reduced, expected)
    want = np.zeros_like(t)
    for j, k in idx[0]:
        want[:, j, k] = t[:, j, k]
    np.testing.assert_array_equal(scattered, want)


def test_gather_index_out_of_range_is_an_error():
    text = """
    func.func @main(%t: tensor<4x5xf32>, %i: tensor<2x1xindex>) -> tensor<2x4x1xf32> {
      %k = tensor.gather %t[%i] gather_dims([1]) : (tensor<4x5xf32>, tensor<2x1xindex>) -> tensor<2x4x1xf32>
      return %k : tensor<2x4x1xf32>
    }
    """
    with pytest.raises(FusionError, match="out of bounds"):
        run(text, np.zeros((4, 5), np.float32), np.array([[1], [5]], np.int64))


DYNAMIC = """
func.func @main(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%d) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x8xf32>, tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  %c = tensor.collapse_shape %r [[0, 1]] : tensor<?x8xf32> into tensor<?xf32>
  %n = tensor.dim %c, %c0 : tensor<?xf32>
  %x = tensor.expand_shape %c [[0, 1]] output_shape [%d, 8] : tensor<?xf32> into tensor<?x8xf32>
  return %x : tensor<?x8xf32>
}
"""


def test_dynamic_dims_bind_from_inputs():
    a, b = np.ones((5, 8), np.float32), np.full((5, 8), 2, np.float32)
    (out,) = run(DYNAMIC, a, b)
    np.testing.assert_array_equal(out, a + b)


def test_dynamic_dims_in_made_up_inputs():
    entry = find_entry(parse_module(DYNAMIC, "<test>"))
    assert [x.shape for x in family_inputs(entry, "random", dynamic_size=3)] == [(3, 8), (3, 8)]
    assert [x.shape for x in family_inputs(entry, "random")] == [(4, 8), (4, 8)]


def test_static_dims_still_checked():
    with pytest.raises(FusionError, match="input 0 has shape"):
        run(DYNAMIC, np.ones((5, 7), np.float32), np.ones((5, 8), np.float32))


def test_fusion_run_dynamic_size_flag(tmp_path: Path, capsys):
    path = tmp_path / "dyn.mlir"
    path.write_text(DYNAMIC)
    assert fusion_run([str(path), "--dynamic-size", "3"]) == 0
    assert "result0: 3x8 float32" in capsys.readouterr().out


def test_arith_casts_on_tensors_remf_and_index_castui():
    text = """
    func.func @main(%t: tensor<4xf32>, %ti: tensor<4xi8>, %y: tensor<4xf32>)
        -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xindex>, tensor<4xindex>) {
      %0 = arith.extsi %ti : tensor<4xi8> to tensor<4xi32>
      %1 = arith.uitofp %ti : tensor<4xi8> to tensor<4xf32>
      %2 = arith.remf %t, %y : tensor<4xf32>
      %3 = arith.index_castui %ti : tensor<4xi8> to tensor<4xindex>
      %4 = arith.index_cast %ti : tensor<4xi8> to tensor<4xindex>
      return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xindex>, tensor<4xindex>
    }
    """
    t = np.array([5.5, -5.5, 7.0, -0.0], np.float32)
    y = np.array([2.0, 2.0, -3.0, 1.0], np.float32)
    ti = np.array([-1, 127, -128, 3], np.int8)
    ext, ufp, rem, ucast, scast = run(text, t, ti, y)
    np.testing.assert_array_equal(ext, ti.astype(np.int32))
    np.testing.assert_array_equal(ufp, ti.view(np.uint8).astype(np.float32))
    np.testing.assert_array_equal(rem, np.fmod(t, y))
    assert np.signbit(rem[1]) and np.signbit(rem[3])  # the sign of the dividend, -0.0 kept
    np.testing.assert_array_equal(ucast, [255, 127, 128, 3])
    np.testing.assert_array_equal(scast, [-1, 127, -128, 3])


SCATTER_ADD = """
util.func public @main(%upd: tensor<3x1x4xf32>, %idx: tensor<3x1xi32>, %orig: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%upd, %idx : tensor<3x1x4xf32>, tensor<3x1xi32>) outs(%orig : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<8x4xf32>
  util.return %0 : tensor<8x4xf32>
}
"""


def test_scatter_accumulates_in_batch_order():
    upd = np.arange(12, dtype=np.float32).reshape(3, 1, 4)
    idx = np.array([[2], [5], [2]], np.int32)  # row 2 twice: both updates add up
    (out,) = run(SCATTER_ADD, upd, idx, np.ones((8, 4), np.float32))
    want = np.ones((8, 4), np.float32)
    for (row,), u in zip(idx, upd):
        want[row] += u[0]
    np.testing.assert_array_equal(out, want)


def test_scatter_overwrite_and_out_of_range():
    overwrite = SCATTER_ADD.replace("%s = arith.addf %a, %b : f32\n    iree_linalg_ext.yield %s", "iree_linalg_ext.yield %a")
    upd = np.full((3, 1, 4), 7, np.float32)
    (out,) = run(overwrite, upd, np.array([[0], [7], [3]], np.int32), np.zeros((8, 4), np.float32))
    assert out[[0, 7, 3]].tolist() == [[7.0] * 4] * 3 and out.sum() == 7 * 12
    with pytest.raises(FusionError, match="outside"):
        run(overwrite, upd, np.array([[0], [8], [3]], np.int32), np.zeros((8, 4), np.float32))


def test_softmax_matches_float64_reference_on_adversarial_rows():
    text = """
    func.func @main(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
      %e = tensor.empty() : tensor<3x4xf32>
      %r = linalg.softmax dimension(1) ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
      return %r : tensor<3x4xf32>
    }
    """
    x = np.array([[1000.5, 1000.5, 1000.5, 1000.5], [1e30, -1e30, 0, 3], [-2, -1, 0, 1]], np.float32)
    (out,) = run(text, x)
    ref = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-7)
    assert out.dtype == np.float32


def test_mmt4d_and_batch_mmt4d_are_tiled_matmuls():
    text = """
    func.func @main(%a: tensor<2x1x3x4x2xi8>, %b: tensor<2x5x3x8x2xi8>, %c: tensor<1x2x4x8xf32>, %d: tensor<1x2x4x8xf32>)
        -> (tensor<2x1x5x4x8xi32>, tensor<1x1x4x4xf32>) {
      %z = arith.constant 0 : i32
      %e = tensor.empty() : tensor<2x1x5x4x8xi32>
      %f = linalg.fill ins(%z : i32) outs(%e : tensor<2x1x5x4x8xi32>) -> tensor<2x1x5x4x8xi32>
      %0 = linalg.batch_mmt4d ins(%a, %b : tensor<2x1x3x4x2xi8>, tensor<2x5x3x8x2xi8>) outs(%f : tensor<2x1x5x4x8xi32>) -> tensor<2x1x5x4x8xi32>
      %zf = arith.constant 1.0 : f32
      %e2 = tensor.empty() : tensor<1x1x4x4xf32>
      %f2 = linalg.fill ins(%zf : f32) outs(%e2 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
      %1 = linalg.mmt4d ins(%c, %d : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%f2 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
      return %0, %1 : tensor<2x1x5x4x8xi32>, tensor<1x1x4x4xf32>
    }
    """
    rng = np.random.default_rng(0)
    a = np.array(rng.integers(-128, 128, (2, 1, 3, 4, 2)), np.int8)  # the ends of i8 included
    a.flat[0], a.flat[1] = -128, 127
    b = np.array(rng.integers(-128, 128, (2, 5, 3, 8, 2)), np.int8)
    c, d = rng.standard_normal((2, 1, 2, 4, 8)).astype(np.float32)
    batched, tiled = run(text, a, b, c, d)
    np.testing.assert_array_equal(batched, np.einsum("bmkxz,bnkyz->bmnxy", a.astype(np.int64), b.astype(np.int64)))
    np.testing.assert_allclose(tiled, 1 + np.einsum("mkxz,nkyz->mnxy", c.astype(np.float64), d.astype(np.float64)), rtol=1e-5)


def test_hal_tensor_boundary_ops_pass_values_through():
    text = """
    util.func public @main(%a: tensor<3xf32>, %b: tensor<2xi32>, %fence: !hal.fence) -> (tensor<3xf32>, tensor<2xi32>) {
      %r:2 = hal.tensor.barrier join(%a, %b : tensor<3xf32>, tensor<2xi32>) => %fence : !hal.fence
      %v = hal.tensor.export %r#0 "out" : tensor<3xf32> -> !hal.buffer_view
      %t = hal.tensor.import wait(%fence) => %v "in" : !hal.buffer_view -> tensor<3xf32>
      util.return %t, %r#1 : tensor<3xf32>, tensor<2xi32>
    }
    """
    a = np.array([np.finfo(np.float32).max, -0.0, np.nan], np.float32)
    b = np.array([np.iinfo(np.int32).min, np.iinfo(np.int32).max], np.int32)
    ta, tb = run(text, a, b, None)
    np.testing.assert_array_equal(ta, a)
    np.testing.assert_array_equal(tb, b)


def test_check_expectations_hold_or_fail_the_run():
    template = """
    func.func @main(%a: tensor<3xf32>) {{
      %b = arith.addf %a, %a : tensor<3xf32>
      %c = arith.mulf %a, %a : tensor<3xf32>
      check.expect_almost_eq(%b, %c{tol}) : tensor<3xf32>
      return
    }}
    """
    two = np.array([2, 2, 2], np.float32)  # 2 + 2 == 2 * 2
    assert run(template.format(tol=""), two) == []
    off = np.array([2, 2, 2.01], np.float32)  # differs by 0.0099: fails at IREE's default 1e-4
    with pytest.raises(FusionError, match="check.expect_almost_eq failed"):
        run(template.format(tol=""), off)
    assert run(template.format(tol=", atol 1.0e-01"), off) == []


WORKGROUPS = """
util.func public @main(%a: tensor<?x4xf32>, %b: tensor<4xf32>, %n: index) -> (tensor<?x4xf32>, tensor<4xf32>) {
  %r:2 = flow.dispatch.workgroups[%n](%a, %b, %n) : (tensor<?x4xf32>{%n}, tensor<4xf32>, index) -> (tensor<?x4xf32>{%n}, %b) =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %acc: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>,
       %m: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
    %c1 = arith.constant 1 : index
    %k = iree_tensor_ext.dispatch.workload.ordinal %m, 0 : index
    %o = flow.dispatch.tie_shape %out : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%k}
    %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%k, 4], strides = [1, 1]
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%m} -> tensor<?x4xf32>
    %row = iree_tensor_ext.dispatch.tensor.load %in, offsets = [%c1, 0], sizes = [1, 4], strides = [1, 1]
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%m} -> tensor<4xf32>
    %s = iree_tensor_ext.dispatch.tensor.load %acc, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>> -> tensor<4xf32>
    %d = arith.addf %t, %t : tensor<?x4xf32>
    %e = arith.addf %s, %row : tensor<4xf32>
    iree_tensor_ext.dispatch.tensor.store %d, %o, offsets = [0, 0], sizes = [%m, 4], strides = [1, 1]
        : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%m}
    iree_tensor_ext.dispatch.tensor.store %e, %acc, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>
    flow.return
  } count(%w: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%w)
    flow.return %x, %y, %z : index, index, index
  }
  util.return %r#0, %r#1 : tensor<?x4xf32>, tensor<4xf32>
}
"""


def test_dispatch_workgroups_loads_stores_and_ties_in_place():
    a = np.array([[1, 2, 3, 4], [-1e30, 0.5, np.inf, -0.0], [7, 8, 9, 10]], np.float32)
    b = np.array([1e30, -2, 0, 3], np.float32)
    doubled, accumulated = run(WORKGROUPS, a, b, np.int64(3))
    np.testing.assert_array_equal(doubled, a + a)
    np.testing.assert_array_equal(accumulated, b + a[1])
    np.testing.assert_array_equal(b, np.array([1e30, -2, 0, 3], np.float32))  # the caller's copy is untouched
