"""A small ONNX model for the importer's DFT (fusionopt/importers/onnx_ops_spectral.py), written
with onnx.helper as torch exports `torch.fft.fftn(x, dim=(1, 2)).real` (FNet's token mixing):

- fourier_mixing: x [1, 8, 6]; its imaginary parts concatenated as zeros ([1, 8, 6, 2]), a DFT
  over the hidden dim (axis 2), one over the sequence (axis 1), the real part gathered and added
  back to x (FNet's residual).

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


if __name__ == "__main__":
    save_models_main(__doc__.splitlines()[0], {"fourier_mixing": fourier_mixing})
