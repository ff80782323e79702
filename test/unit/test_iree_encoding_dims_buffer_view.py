"""IREE forms met in its DispatchCreation tests: `encoding_dims{...}` on the encoding ops,
`hal.buffer_view.dim`, an `index` `linalg.fill`, `#stream.parameter.named` globals. Each
parses, verifies, prints back the same, and runs in the interpreter where a model can hold it."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.diagnostics import FusionError
from fusionopt.interpreter import run_function
from fusionopt.ir_io import parse_module, print_module


def run(text: str, *inputs):
    return run_function(parse_module(text, "<test>"), list(inputs))


ENCODING_DIMS = """
#enc = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], iteration_sizes = [?, 2, 2]>
util.func public @main(%a: tensor<?x2xf32>, %m: index) -> tensor<?x2xf32> {
  %e = iree_encoding.set_encoding %a encoding_dims{%m} : tensor<?x2xf32> -> tensor<?x2xf32, #enc>
  %u = iree_encoding.unset_encoding %e encoding_dims{%m} : tensor<?x2xf32, #enc> -> tensor<?x2xf32>{%m}
  util.return %u : tensor<?x2xf32>
}
"""


def test_encoding_dims_round_trip_and_stay_identity():
    printed = print_module(parse_module(ENCODING_DIMS, "<test>"))
    assert "set_encoding %a encoding_dims{%m} : tensor<?x2xf32>" in printed
    assert "unset_encoding %e encoding_dims{%m} : tensor<?x2xf32, " in printed
    assert print_module(parse_module(printed, "<printed>")) == printed
    a = np.array([[1.0, -0.0], [np.inf, np.finfo(np.float32).max], [np.nan, -1e-38]], np.float32)
    (out,) = run(ENCODING_DIMS, a, np.int64(3))
    np.testing.assert_array_equal(out, a)


def test_encoding_dims_counted_against_dynamic_iteration_sizes():
    wrong = ENCODING_DIMS.replace("set_encoding %a encoding_dims{%m}", "set_encoding %a encoding_dims{%m, %m}")
    with pytest.raises(FusionError, match=r"expects 1 dynamic encoding dimension\(s\), but 2 provided"):
        parse_module(wrong, "<test>")


def test_buffer_view_dim_reads_the_view_shape():
    text = """
    util.func public @main(%v: !hal.buffer_view) -> (index, tensor<2x?xi32>) {
      %d = hal.buffer_view.dim<%v : !hal.buffer_view>[1] : index
      %t = hal.tensor.import %v : !hal.buffer_view -> tensor<2x?xi32>{%d}
      util.return %d, %t : index, tensor<2x?xi32>
    }
    """
    printed = print_module(parse_module(text, "<test>"))
    assert "hal.buffer_view.dim<%v : !hal.buffer_view>[1] : index" in printed
    view = np.array([[np.iinfo(np.int32).min, 0, 7], [1, 2, np.iinfo(np.int32).max]], np.int32)
    dim, tensor = run(text, view)
    assert dim == 3
    np.testing.assert_array_equal(tensor, view)


def test_buffer_view_dim_past_the_rank_is_an_error():
    text = """
    util.func public @main(%v: !hal.buffer_view) -> index {
      %d = hal.buffer_view.dim<%v : !hal.buffer_view>[2] : index
      util.return %d : index
    }
    """
    with pytest.raises(FusionError, match="dimension 2 of a buffer view of shape"):
        run(text, np.zeros((4, 5), np.float32))


def test_fill_with_an_index_value():
    text = """
    func.func @main(%c: index, %n: index) -> tensor<?xindex> {
      %e = tensor.empty(%n) : tensor<?xindex>
      %r = linalg.fill ins(%c : index) outs(%e : tensor<?xindex>) -> tensor<?xindex>
      return %r : tensor<?xindex>
    }
    """
    (out,) = run(text, np.int64(-5), np.int64(4))
    np.testing.assert_array_equal(np.asarray(out), np.full(4, -5))


def test_stream_parameter_global_round_trips():
    text = 'util.global private mutable @w = #stream.parameter.named<"model"::"w"> : tensor<1x1x10xf32>\n'
    printed = print_module(parse_module(text, "<test>"))
    assert '#stream.parameter.named<"model"::"w"> : tensor<1x1x10xf32>' in printed


def test_flow_bitcast_reinterprets_bytes_and_refuses_packed_bits():
    text = """
    util.func public @main(%a: tensor<2xf32>) -> tensor<2xi32> {
      %b = flow.tensor.bitcast %a : tensor<2xf32> -> tensor<2xi32>
      util.return %b : tensor<2xi32>
    }
    """
    a = np.array([-0.0, np.finfo(np.float32).max], np.float32)
    (out,) = run(text, a)
    np.testing.assert_array_equal(out, a.view(np.int32))
    packed = """
    util.func public @main(%a: tensor<4xi8>) -> tensor<4x8xi1, #iree_encoding.packed_storage> {
      %b = flow.tensor.bitcast %a : tensor<4xi8> -> tensor<4x8xi1, #iree_encoding.packed_storage>
      util.return %b : tensor<4x8xi1, #iree_encoding.packed_storage>
    }
    """
    with pytest.raises(FusionError, match="packed sub-byte encodings are not interpreted"):
        run(packed, np.array([1, 2, 3, -128], np.int8))


def test_expand_shape_of_a_0d_tensor():
    text = """
    func.func @main(%a: tensor<f32>) -> tensor<1x1x1xf32> {
      %e = tensor.expand_shape %a [] output_shape [1, 1, 1] : tensor<f32> into tensor<1x1x1xf32>
      return %e : tensor<1x1x1xf32>
    }
    """
    (out,) = run(text, np.array(-np.inf, np.float32))
    assert out.shape == (1, 1, 1) and out[0, 0, 0] == -np.inf
