"""ONNX Mod: `fmod=0` (integers, the divisor's sign, Python's %) and `fmod=1` (C's fmod, the
dividend's sign) against onnxruntime, on signs in every combination and values at the ends of
the integer ranges; at graph level, lowered to linalg (`arith.remsi` / `arith.remf`), and built
by IREE from `graph-to-dispatch-llvm-cpu` (a character-hash embedding as CANINE computes it)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import run_vmfb
from fusionopt.registry import iree_flags_of
from fusionopt.testing import apply_pipeline
from support.iree_pairs import build_llvm_cpu
from support.onnx_single_node import check, finish, make_model

ort = pytest.importorskip("onnxruntime")


def signed_pairs(dtype) -> tuple[np.ndarray, np.ndarray]:
    """Dividends and divisors of both signs, exact multiples, zero dividends and the range ends
    (never the minimum by -1, whose quotient overflows)."""
    info = np.iinfo(dtype)
    a = [7, -7, 7, -7, 6, -6, 0, 0, info.max, info.min, info.max, info.min, info.min + 1, 5, -5]
    b = [3, 3, -3, -3, 3, -3, 5, -5, 7, 7, -7, -7, info.max, info.max, info.min]
    return np.array(a, dtype), np.array(b, dtype)


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("fmod", [0, 1])
def test_integer_mod_matches_onnxruntime(dtype, fmod):
    a, b = signed_pairs(dtype)
    module = check(make_model("Mod", {"a": a, "b": b}, {}, fmod=fmod), {"a": a, "b": b})
    assert any(op.name == "graph.rem" for op in module.walk())


def test_integer_mod_by_a_constant_broadcast():
    a = np.array([[-9, -1, 0, 1, 9], [np.iinfo(np.int64).min, -16384, 16383, 16384, np.iinfo(np.int64).max]], np.int64)
    check(make_model("Mod", {"a": a}, {"b": np.array([16384], np.int64)}), {"a": a})


def test_float_fmod_keeps_the_dividends_sign():
    a = np.array([5.5, -5.5, 5.5, -5.5, 0.0, -0.0, 1e30, -3.0e-30, 7.0], np.float32)
    b = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 3.0, 1e-30, 7.0], np.float32)
    check(make_model("Mod", {"a": a, "b": b}, {}, fmod=1), {"a": a, "b": b})


def test_float_mod_without_fmod_is_refused():
    a = np.array([1.5], np.float32)
    with pytest.raises(Exception, match="fmod=0 is defined for integers only"):
        import_onnx(make_model("Mod", {"a": a, "b": a}, {}))


def hash_embedding_model(buckets: int, width: int) -> tuple:
    """ids -> the bucket (ids * 31) mod buckets (Python's mod: negative ids land in range),
    table[bucket] and (ids as float) fmod 7.5: CANINE's character hashing, plus a float
    remainder (Gather wraps a negative index: the bucket itself shows the sign)."""
    rng = np.random.default_rng(0)
    table = rng.standard_normal((buckets, width)).astype(np.float32)
    nodes = [helper.make_node("Mul", ["ids", "prime"], ["scaled"]),
             helper.make_node("Mod", ["scaled", "buckets"], ["bucket"]),
             helper.make_node("Gather", ["table", "bucket"], ["embedded"]),
             helper.make_node("Cast", ["ids"], ["ids_f"], to=TensorProto.FLOAT),
             helper.make_node("Mod", ["ids_f", "step"], ["rest"], fmod=1)]
    inits = [numpy_helper.from_array(np.array(31, np.int64), "prime"),
             numpy_helper.from_array(np.array(buckets, np.int64), "buckets"),
             numpy_helper.from_array(table, "table"), numpy_helper.from_array(np.array(7.5, np.float32), "step")]
    graph = helper.make_graph(nodes, "hash", [helper.make_tensor_value_info("ids", TensorProto.INT64, [2, 6])],
                              [helper.make_tensor_value_info("bucket", TensorProto.INT64, [2, 6]),
                               helper.make_tensor_value_info("embedded", TensorProto.FLOAT, [2, 6, width]),
                               helper.make_tensor_value_info("rest", TensorProto.FLOAT, [2, 6])], inits)
    return finish(graph)


def test_hash_embedding_built_by_iree_matches_onnxruntime(tmp_path):
    model = hash_embedding_model(buckets=97, width=16)
    pipeline = "graph-to-dispatch-llvm-cpu"
    formed = print_module(apply_pipeline(print_module(import_onnx(model)), pipeline))
    vmfb = build_llvm_cpu({"hash": formed}, tmp_path, iree_flags_of(pipeline))["hash"]
    big = np.iinfo(np.int64).max // 31  # the product stays in range
    ids = np.array([[0, 1, -1, 96, -97, 1114111], [big, -big, 12345, -12345, 98, -98]], np.int64)
    expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"ids": ids})
    got = run_vmfb(vmfb, [ids], "main_graph")
    assert (expected[0] >= 0).all()
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    np.testing.assert_allclose(got[2], expected[2], rtol=1e-6, atol=0)
