"""Recurrent ONNX models (test/data/onnx/lstm_tagger.onnx: a bidirectional LSTM;
gru_encoder.onnx: GRUs in both reset forms, one reverse; built by
test/support/recurrent_onnx_models.py) through each CPU pipeline and IREE, on every input
family: the build agrees with a float64 run of the import to 1e-5 of the output's magnitude, NaN
exactly where that run has NaN, and with onnxruntime likewise. A -inf in the input ("mask")
makes a gate's input `inf - inf`: NaN in float64 and in ours, while onnxruntime's clamped
sigmoid and tanh turn that NaN into finite states, so onnxruntime is compared where the float64
run is finite. IREE's own ONNX route cannot lower torch's bidirectional GRU; ours unrolls the
steps at import."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from fusionopt.iree_tools import iree_available
from support.onnx_family_runs import CPU_PIPELINES, assert_model_agrees

pytest.importorskip("onnxruntime")

DATA = Path(__file__).resolve().parents[1] / "data" / "onnx"


@pytest.mark.skipif(not iree_available(), reason="iree-compile absent")
@pytest.mark.parametrize("pipeline", CPU_PIPELINES)
@pytest.mark.parametrize("name", ["lstm_tagger", "gru_encoder"])
def test_recurrent_model_builds_and_agrees(name, pipeline, tmp_path):
    assert_model_agrees(onnx.load(DATA / f"{name}.onnx"), pipeline, tmp_path, onnxruntime_where_finite=True)
