"""ONNX LSTM and GRU, unrolled at import (`onnx_ops_recurrent.py`): every direction, layout,
optional input and GRU's two reset forms against onnxruntime, at graph level and lowered, on
random inputs and adversarial ones (saturating gates, zeros, a large common offset); what is
not supported is refused plainly."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_context import OnnxImportError
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import apply_pipeline, run_module
from support.onnx_single_node import check, make_model

pytest.importorskip("onnxruntime")
rng = np.random.default_rng(0)
STEPS, BATCH, FEATURES, HIDDEN = 5, 2, 3, 4


def _inputs(family: str, shape) -> np.ndarray:
    if family == "random":
        return rng.standard_normal(shape).astype(np.float32)
    if family == "saturating":  # every gate's input far past where sigmoid / tanh flatten
        return np.resize(np.float32([40.0, -40.0, 90.0, -90.0]), shape).astype(np.float32)
    if family == "offset":
        return (1000 + rng.standard_normal(shape)).astype(np.float32)
    return np.zeros(shape, np.float32)


def _weights(gates: int, directions: int, bias: bool) -> dict[str, np.ndarray | None]:
    scale = 0.5
    return {
        "W": (scale * rng.standard_normal((directions, gates * HIDDEN, FEATURES))).astype(np.float32),
        "R": (scale * rng.standard_normal((directions, gates * HIDDEN, HIDDEN))).astype(np.float32),
        "B": (scale * rng.standard_normal((directions, 2 * gates * HIDDEN))).astype(np.float32) if bias else None,
    }


def _x(layout: int, family: str) -> np.ndarray:
    shape = (BATCH, STEPS, FEATURES) if layout else (STEPS, BATCH, FEATURES)
    return _inputs(family, shape)


FAMILIES = ["random", "saturating", "offset", "zeros"]
DIRECTIONS = {"forward": 1, "reverse": 1, "bidirectional": 2}


LSTM_ORDER = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]


def _lstm_constants(d: int) -> dict[str, np.ndarray | None]:
    return {**_weights(4, d, bias=True), "sequence_lens": None,
            "initial_h": rng.standard_normal((d, BATCH, HIDDEN)).astype(np.float32),
            "initial_c": rng.standard_normal((d, BATCH, HIDDEN)).astype(np.float32),
            "P": (0.5 * rng.standard_normal((d, 3 * HIDDEN))).astype(np.float32)}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("direction", sorted(DIRECTIONS))
def test_lstm_matches_onnxruntime(family, direction):
    x = _x(0, family)
    model = make_model("LSTM", {"X": x}, _lstm_constants(DIRECTIONS[direction]), n_outputs=3, hidden_size=HIDDEN,
                       direction=direction, order=LSTM_ORDER)
    check(model, {"X": x})


@pytest.mark.parametrize("direction", sorted(DIRECTIONS))
def test_lstm_batch_major_layout_is_the_time_major_result_transposed(direction):
    """onnxruntime refuses layout = 1, so it runs the time-major model on the transposed input."""
    import onnxruntime as ort

    const, x = _lstm_constants(DIRECTIONS[direction]), _x(0, "random")
    time_major = make_model("LSTM", {"X": x}, const, n_outputs=3, hidden_size=HIDDEN, direction=direction,
                            order=LSTM_ORDER)
    expected = ort.InferenceSession(time_major.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        None, {"X": x})
    batch_major = {**const, "initial_h": const["initial_h"].transpose(1, 0, 2),
                   "initial_c": const["initial_c"].transpose(1, 0, 2)}
    x_b = np.ascontiguousarray(x.transpose(1, 0, 2))
    model = make_model("LSTM", {"X": x_b}, batch_major, n_outputs=3, hidden_size=HIDDEN, direction=direction,
                       layout=1, order=LSTM_ORDER)
    for graph_level in (True, False):
        got = _run_ours(model, [x_b], lower=not graph_level)
        np.testing.assert_allclose(got[0], expected[0].transpose(2, 0, 1, 3), rtol=1e-5, atol=1e-6)
        for state, want in zip(got[1:], expected[1:]):
            np.testing.assert_allclose(state, want.transpose(1, 0, 2), rtol=1e-5, atol=1e-6)


def _run_ours(model, inputs, lower: bool) -> list[np.ndarray]:
    module = parse_module(print_module(import_onnx(model)))
    if lower:
        module = apply_pipeline(module, "convert-graph-to-linalg")
    return run_module(module, inputs)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("direction", sorted(DIRECTIONS))
@pytest.mark.parametrize("linear_before_reset", [0, 1])
def test_gru_matches_onnxruntime(family, direction, linear_before_reset):
    d = DIRECTIONS[direction]
    x = _x(0, family)
    const = {**_weights(3, d, bias=True), "sequence_lens": None,
             "initial_h": rng.standard_normal((d, BATCH, HIDDEN)).astype(np.float32)}
    model = make_model("GRU", {"X": x}, const, n_outputs=2, hidden_size=HIDDEN, direction=direction,
                       linear_before_reset=linear_before_reset,
                       order=["X", "W", "R", "B", "sequence_lens", "initial_h"])
    check(model, {"X": x})


@pytest.mark.parametrize("op,gates", [("LSTM", 4), ("GRU", 3)])
def test_without_bias_or_initial_state(op, gates):
    x = _x(0, "random")
    model = make_model(op, {"X": x}, _weights(gates, 1, bias=False), n_outputs=2, hidden_size=HIDDEN,
                       linear_before_reset=1) if op == "GRU" else \
        make_model(op, {"X": x}, _weights(gates, 1, bias=False), n_outputs=2, hidden_size=HIDDEN)
    check(model, {"X": x})


def test_weights_as_runtime_inputs():
    x, w = _x(0, "random"), _weights(4, 2, bias=True)
    runtime = {"X": x, "W": w["W"], "R": w["R"], "B": w["B"]}
    model = make_model("LSTM", runtime, {}, n_outputs=1, hidden_size=HIDDEN, direction="bidirectional")
    check(model, runtime)


def test_full_sequence_lengths_are_accepted():
    x = _x(0, "random")
    const = {**_weights(3, 1, bias=True), "sequence_lens": np.full(BATCH, STEPS, np.int32)}
    check(make_model("GRU", {"X": x}, const, hidden_size=HIDDEN, order=["X", "W", "R", "B", "sequence_lens"]),
          {"X": x})


@pytest.mark.parametrize("attrs,lengths,message", [
    ({}, np.array([STEPS, 2], np.int32), "sequence_lens shorter"),
    ({"clip": 3.0}, None, "clip are not supported"),
    ({"activations": ["HardSigmoid", "Tanh", "Tanh"]}, None, "activations"),
    ({"input_forget": 1}, None, "input_forget"),
])
def test_unsupported_forms_are_refused_plainly(attrs, lengths, message):
    x = _x(0, "random")
    const = {**_weights(4, 1, bias=True), "sequence_lens": lengths}
    model = make_model("LSTM", {"X": x}, const, hidden_size=HIDDEN, order=["X", "W", "R", "B", "sequence_lens"],
                       **attrs)
    with pytest.raises(OnnxImportError, match=message):
        import_onnx(model)


def test_a_state_of_the_wrong_size_is_refused_plainly():
    """torch's LSTM with `proj_size` exports initial states of the projection's size next to the
    full hidden size (onnxruntime rejects the model when it runs)."""
    x = _x(0, "random")
    const = {**_weights(4, 1, bias=True), "sequence_lens": None,
             "initial_h": np.zeros((1, BATCH, HIDDEN + 1), np.float32)}
    model = make_model("LSTM", {"X": x}, const, hidden_size=HIDDEN, order=LSTM_ORDER[:6])
    with pytest.raises(OnnxImportError, match=r"initial_h has shape \[1, 2, 5\], expected \[1, 2, 4\]"):
        import_onnx(model)
