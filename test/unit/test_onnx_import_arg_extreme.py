"""ONNX importer: ArgMax and ArgMin (fusionopt/importers/onnx_ops_nn.py, built from a max
reduction, compares and selects), each a one-node model imported, run at graph level and
lowered, and compared with onnxruntime and with numpy's argmax / argmin: ties take the first
index (the last with `select_last_index`), -inf and the f32 extremes are values like any other,
integers at their type's ends (ArgMin of int64's minimum must not overflow), a NaN wins."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.testing import apply_pipeline, run_module
from support.f16_checks import assert_builds_for_cuda
from support.onnx_single_node import check, make_model

pytest.importorskip("onnxruntime")

rng = np.random.default_rng(0)
I64 = np.iinfo(np.int64)


def tied(*shape) -> np.ndarray:
    """Few distinct values (ties in every row), -inf rows and the f32 extremes."""
    x = rng.integers(-2, 3, size=shape).astype(np.float32)
    x.reshape(-1, shape[-1])[0] = -np.inf
    x.reshape(-1)[[1, 5]] = [3.0e38, -3.0e38]
    return x


INTS = np.array([[I64.min, 5, I64.max, I64.min], [0, 0, -1, -1], [I64.max, I64.max, I64.min, 7]], dtype=np.int64)
CASES = [  # (id, input, attributes)
    ("codebook-distances", tied(1, 6, 16), {"axis": -1, "keepdims": 0}),
    ("middle-axis-kept", tied(2, 5, 3), {"axis": 1}),
    ("last-index", tied(3, 8), {"axis": 1, "select_last_index": 1}),
    ("int64-ends", INTS, {"axis": 1, "keepdims": 0}),
    ("int64-ends-last", INTS, {"axis": 0, "select_last_index": 1}),
]


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@pytest.mark.parametrize("name,x,attrs", CASES, ids=[c[0] for c in CASES])
def test_arg_extreme_matches_onnxruntime(op, name, x, attrs):
    check(make_model(op, {"x": x}, {}, **attrs), {"x": x})


@pytest.mark.parametrize("op,pick", [("ArgMax", np.argmax), ("ArgMin", np.argmin)])
def test_arg_extreme_ties_and_nans_as_numpy(op, pick):
    """onnxruntime leaves a NaN's rank unspecified: numpy (and a float64 run) picks the first NaN."""
    x = tied(4, 7)
    x[1, [2, 5]] = np.nan
    x[2, 6] = np.nan
    got = run_module(import_onnx(make_model(op, {"x": x}, {}, axis=1, keepdims=0)), [x])[0]
    np.testing.assert_array_equal(got, pick(x, axis=1))


def test_constant_input_folds_at_import():
    x = tied(3, 8)
    model = make_model("ArgMax", {}, {"x": x}, axis=1, select_last_index=1)
    module = import_onnx(model)
    assert not [op for op in module.walk() if op.name.startswith("graph.reduce")]
    want = x.shape[1] - 1 - np.argmax(x[:, ::-1], axis=1)
    np.testing.assert_array_equal(run_module(module, [])[0], want.reshape(3, 1))


@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="iree-compile is not installed")
def test_codebook_argmin_builds_for_cuda(tmp_path):
    """EnCodec's quantizer: ArgMin over 1024 codes a frame, in one region with its max. IREE's
    CUDA codegen cannot distribute that region with i64 ranks ("failed to distribute", as its
    own ArgMin import); the ranks are i32 and widened after the reduction."""
    x = tied(75, 1024)
    module = apply_pipeline(import_onnx(make_model("ArgMin", {"x": x}, {}, axis=1, keepdims=0)),
                            "graph-to-dispatch-cuda")
    np.testing.assert_array_equal(run_module(module, [x])[0], np.argmin(x, axis=1))
    assert_builds_for_cuda(module, tmp_path, "argmin")
