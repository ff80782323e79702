"""Small ONNX models for the importer's DFT (fusionopt/importers/onnx_ops_spectral.py), written
with onnx.helper as torch exports `torch.fft.fftn(x, dim=(1, 2)).real` (FNet's token mixing) and
`irfft(rfft(x) * conj(rfft(x)))` (Autoformer's auto-correlation):

- fourier_mixing: x [1, 8, 6]; its imaginary parts concatenated as zeros ([1, 8, 6, 2]), a DFT
  over the hidden dim (axis 2), one over the sequence (axis 1), the real part gathered and added
  back to x (FNet's residual).
- autocorrelation: x [1, 12, 4]; the one-sided spectrum over time (12 -> 7 bins), its power
  (re^2 + im^2, the imaginary parts zeros), the half-spectrum inverse back to 12 steps: each
  channel's circular auto-correlation.

    python test/support/spectral_onnx_models.py test/data/onnx   # rewrite the committed file
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/: run as a script too
from support.onnx_single_node import save_models_main, x_to_y_model  # noqa: E402


def fourier_mixing(seq: int = 8, hidden: int = 6) -> onnx.ModelProto:
    nodes = [helper.make_node("Unsqueeze", ["x", "last"], ["real"]),
             helper.make_node("Concat", ["real", "zeros"], ["complex"], axis=-1),
             helper.make_node("DFT", ["complex"], ["over_hidden"], axis=2, inverse=0, onesided=0),
             helper.make_node("DFT", ["over_hidden"], ["spectrum"], axis=1, inverse=0, onesided=0),
             helper.make_node("Gather", ["spectrum", "zero"], ["mixed"], axis=3),
             helper.make_node("Add", ["x", "mixed"], ["y"])]
    inits = [numpy_helper.from_array(np.array([-1], np.int64), "last"),
             numpy_helper.from_array(np.zeros((1, seq, hidden, 1), np.float32), "zeros"),
             numpy_helper.from_array(np.array(0, np.int64), "zero")]
    return x_to_y_model(nodes, inits, [1, seq, hidden], [1, seq, hidden], "fourier_mixing")


def autocorrelation(steps: int = 12, channels: int = 4) -> onnx.ModelProto:
    bins = steps // 2 + 1
    nodes = [helper.make_node("Unsqueeze", ["x", "last"], ["real"]),
             helper.make_node("DFT", ["real", "steps"], ["spectrum"], axis=1, inverse=0, onesided=1),
             helper.make_node("Mul", ["spectrum", "spectrum"], ["squares"]),
             helper.make_node("ReduceSum", ["squares", "last"], ["power"], keepdims=1),
             helper.make_node("Concat", ["power", "zeros"], ["complex"], axis=-1),
             helper.make_node("DFT", ["complex", "steps"], ["signal"], axis=1, inverse=1, onesided=1),
             helper.make_node("Squeeze", ["signal", "last"], ["y"])]
    inits = [numpy_helper.from_array(np.array([-1], np.int64), "last"),
             numpy_helper.from_array(np.array(steps, np.int64), "steps"),
             numpy_helper.from_array(np.zeros((1, bins, channels, 1), np.float32), "zeros")]
    return x_to_y_model(nodes, inits, [1, steps, channels], [1, steps, channels], "autocorrelation")


if __name__ == "__main__":
    save_models_main(__doc__.splitlines()[0], {"fourier_mixing": fourier_mixing, "autocorrelation": autocorrelation})
