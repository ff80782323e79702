"""ONNX importer: the activations composed of graph ops (fusionopt/importers/onnx_ops_activations.py),
the two ops they added to the graph dialect (`graph.log1p`, `graph.expm1`), and LogSoftmax and
ReduceLogSumExp (onnx_ops_nn.py). Each op is a
one-node model imported, run at graph level and lowered, and compared with onnxruntime on
inputs with infinities, values near the f32 limits, zeros and tiny values; the forms that avoid
cancellation and overflow are checked against float64 with a relative tolerance, where
onnxruntime's absolute one would hide them."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.testing import apply_pipeline, run_module
from support.onnx_single_node import check, make_model

pytest.importorskip("onnxruntime")

rng = np.random.default_rng(0)
EDGES = np.float32([np.inf, -np.inf, 3.0e38, -3.0e38, 0.0, -0.0, 1e-30, -1e-30, 88.0, 89.0, 100.0,
                    -17.0, -30.0, -100.0, 1e-8, -1e-8])


def adversarial(*shape) -> np.ndarray:
    x = (3 * rng.standard_normal(shape)).astype(np.float32).reshape(-1)
    x[:EDGES.size] = EDGES[:x.size]
    return x.reshape(shape)


X = adversarial(4, 16)

# (id, op, attrs, extra constant inputs)
CASES = [
    ("softplus", "Softplus", {}, {}),
    ("mish", "Mish", {}, {}),
    ("softsign", "Softsign", {}, {}),
    ("leaky-relu", "LeakyRelu", {"alpha": 0.1}, {}),
    ("thresholded-relu", "ThresholdedRelu", {"alpha": 0.5}, {}),
    ("elu", "Elu", {"alpha": 0.7}, {}),
    ("selu", "Selu", {}, {}),
    ("celu", "Celu", {"alpha": 2.0}, {}),
]


@pytest.mark.parametrize("name,op,attrs,const", CASES, ids=[c[0] for c in CASES])
def test_activation_matches_onnxruntime(name, op, attrs, const):
    check(make_model(op, {"x": X}, const, **attrs), {"x": X})


def test_prelu_broadcasts_its_slope():
    x = adversarial(2, 3, 4, 4)
    slope = np.float32([0.1, -0.5, 2.0]).reshape(3, 1, 1)
    check(make_model("PRelu", {"x": x}, {"slope": slope}), {"x": x})


@pytest.mark.parametrize("op", ["GreaterOrEqual", "LessOrEqual"])
def test_or_equal_compares_like_onnxruntime_nan_included(op):
    a = np.float32([1.0, 2.0, np.nan, -np.inf, np.inf, 0.0, -0.0, 3.0])
    b = np.float32([1.0, 1.0, 1.0, -np.inf, 1.0, -0.0, 0.0, np.nan])
    check(make_model(op, {"a": a, "b": b}, {}), {"a": a, "b": b})


def test_sum_and_mean_broadcast_three_operands():
    a, b, c = adversarial(2, 3), adversarial(3), adversarial(1, 3)
    for op in ("Sum", "Mean"):
        check(make_model(op, {"a": a, "b": b, "c": c}, {}), {"a": a, "b": b, "c": c})


def test_dropout_at_inference_is_the_input_and_a_true_mask():
    x = adversarial(3, 5)
    check(make_model("Dropout", {"x": x}, {}, n_outputs=2), {"x": x})


def _graph_and_lowered(op: str, x: np.ndarray, **attrs) -> list[np.ndarray]:
    module = import_onnx(make_model(op, {"x": x}, {}, **attrs))
    lowered = apply_pipeline(module.clone(), "convert-graph-to-linalg")
    return [run_module(module, [x])[0], run_module(lowered, [x])[0]]


def test_softplus_keeps_its_tail_and_does_not_overflow():
    x = np.float32([-80.0, -30.0, -17.0, -1.0, 0.0, 1.0, 88.0, 89.0, 1000.0])  # -100: a subnormal result
    want = np.logaddexp(0.0, x.astype(np.float64))
    for got in _graph_and_lowered("Softplus", x):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_elu_is_exact_near_zero():
    x = np.float32([-1e-8, -1e-6, -1e-3, -1.0, -50.0])
    want = 0.5 * np.expm1(x.astype(np.float64))
    for got in _graph_and_lowered("Elu", x, alpha=0.5):
        np.testing.assert_allclose(got, want, rtol=1e-6)


# LogSoftmax and ReduceLogSumExp (fusionopt/importers/onnx_ops_nn.py): shifted by the rows'
# finite max, so a large common offset neither overflows nor cancels, a -inf mask stays -inf and
# an all -inf row's log-sum-exp is -inf.
ROWS = np.float32([[1.0, 2.0, 3.0, 4.0],
                   [1000.0, 1000.5, 999.0, 1001.0],
                   [-np.inf, 0.5, -np.inf, 1.5],
                   [3.0e38, -3.0e38, 0.0, 1.0],
                   [-80.0, -90.0, -100.0, -85.0]])


@pytest.mark.parametrize("axis", [-1, 0])
def test_log_softmax_matches_onnxruntime_and_float64(axis):
    check(make_model("LogSoftmax", {"x": ROWS}, {}, axis=axis), {"x": ROWS})
    wide = ROWS.astype(np.float64)
    want = wide - np.max(wide, axis=axis, keepdims=True)
    want = (want - np.log(np.sum(np.exp(want), axis=axis, keepdims=True))).astype(np.float32)  # -6e38 is -inf in f32
    for got in _graph_and_lowered("LogSoftmax", ROWS, axis=axis):
        finite = np.isfinite(want)
        np.testing.assert_array_equal(np.isfinite(got), finite)
        np.testing.assert_allclose(got[finite], want[finite], rtol=1e-6, atol=1e-5)


def test_reduce_log_sum_exp_matches_onnxruntime_and_keeps_masked_rows():
    x = np.concatenate([ROWS, np.full((1, 4), -np.inf, np.float32)])
    check(make_model("ReduceLogSumExp", {"x": x}, {"axes": np.array([1], np.int64)}, keepdims=0), {"x": x})
    got = run_module(import_onnx(make_model("ReduceLogSumExp", {"x": x}, {"axes": np.array([1], np.int64)},
                                            keepdims=0)), [x])[0]
    assert got[-1] == -np.inf and got[1] > 1000.0


@pytest.mark.parametrize("pipeline", ["graph-to-dispatch-llvm-cpu", "graph-to-dispatch-llvm-cpu-fewest",
                                      "graph-to-dispatch", "graph-to-dispatch-cuda"])
def test_log_softmax_keeps_its_values_through_the_pipelines(pipeline):
    """No softmax or attention rewrite takes the log-softmax's max-shift-exp-sum for a softmax."""
    x = (ROWS[:4] + np.float32(0.25)).repeat(16, axis=1)
    module = import_onnx(make_model("LogSoftmax", {"x": x}, {}))
    want = run_module(module, [x])[0]
    got = run_module(apply_pipeline(module.clone(), pipeline), [x])[0]
    np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-6, atol=1e-5)
