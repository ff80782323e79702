"""Small recurrent ONNX models for the importer's LSTM and GRU (fusionopt/importers/
onnx_ops_recurrent.py), written with onnx.helper as torch exports them:

- lstm_tagger: a batch-major [1, 12, 8] sequence made time-major by a Transpose, a bidirectional
  LSTM of 16 units (biases, no initial state), its [12, 2, 1, 16] states as [12, 32] rows and a
  Gemm to 5 tags per step;
- gru_encoder: a [10, 1, 8] sequence through a forward GRU of 16 units with
  `linear_before_reset = 1` (torch's form) and an initial state, then a reverse GRU with
  `linear_before_reset = 0` over its states, the last state through a Gemm to 4 outputs.

Weights are seeded, so the files are reproducible:

    python test/support/recurrent_onnx_models.py test/data/onnx   # rewrite the committed files
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/: run as a script too
from support.onnx_single_node import x_to_y_model  # noqa: E402

HIDDEN = 16


def _weights(rng, **shapes) -> list[onnx.TensorProto]:
    return [numpy_helper.from_array((0.4 * rng.standard_normal(s)).astype(np.float32), n)
            for n, s in shapes.items()]


def lstm_tagger() -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    shape = numpy_helper.from_array(np.array([12, 2 * HIDDEN], np.int64), "rows")
    nodes = [helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0, 2]),
             helper.make_node("LSTM", ["t", "w", "r", "b"], ["states"], hidden_size=HIDDEN,
                              direction="bidirectional"),
             helper.make_node("Reshape", ["states", "rows"], ["flat"]),
             helper.make_node("Gemm", ["flat", "wf", "bf"], ["y"], transB=1)]
    inits = _weights(rng, w=(2, 4 * HIDDEN, 8), r=(2, 4 * HIDDEN, HIDDEN), b=(2, 8 * HIDDEN),
                     wf=(5, 2 * HIDDEN), bf=(5,))
    return x_to_y_model(nodes, inits + [shape], (1, 12, 8), (12, 5))


def gru_encoder() -> onnx.ModelProto:
    rng = np.random.default_rng(1)
    shape = numpy_helper.from_array(np.array([1, HIDDEN], np.int64), "row")
    nodes = [helper.make_node("GRU", ["x", "w1", "r1", "b1", "", "h1"], ["s1"], hidden_size=HIDDEN,
                              linear_before_reset=1),
             helper.make_node("Squeeze", ["s1", "axis1"], ["s1_flat"]),
             helper.make_node("GRU", ["s1_flat", "w2", "r2", "b2"], ["", "last"], hidden_size=HIDDEN,
                              direction="reverse"),
             helper.make_node("Reshape", ["last", "row"], ["flat"]),
             helper.make_node("Gemm", ["flat", "wf", "bf"], ["y"], transB=1)]
    inits = _weights(rng, w1=(1, 3 * HIDDEN, 8), r1=(1, 3 * HIDDEN, HIDDEN), b1=(1, 6 * HIDDEN),
                     h1=(1, 1, HIDDEN), w2=(1, 3 * HIDDEN, HIDDEN), r2=(1, 3 * HIDDEN, HIDDEN),
                     b2=(1, 6 * HIDDEN), wf=(4, HIDDEN), bf=(4,))
    axis = numpy_helper.from_array(np.array([1], np.int64), "axis1")
    return x_to_y_model(nodes, inits + [shape, axis], (10, 1, 8), (1, 4))


def write(out: Path) -> list[Path]:
    targets = {out / "lstm_tagger.onnx": lstm_tagger(), out / "gru_encoder.onnx": gru_encoder()}
    for path, model in targets.items():
        onnx.checker.check_model(model)
        onnx.save(model, path)
    return list(targets)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    for path in write(parser.parse_args().out):
        print(path)
