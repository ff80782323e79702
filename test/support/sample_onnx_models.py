"""A small ONNX model for the importer's GridSample (fusionopt/importers/onnx_ops_sample.py),
written with onnx.helper: a flow-driven warp as RAFT and optical-flow models compute it.

- flow_warp: x [1, 4, 6, 6]; its first two channels, channels last and scaled by 0.1, offset an
  identity grid (the flow); x sampled at that grid (bilinear, zeros padding, align_corners 1).

    python test/support/sample_onnx_models.py test/data/onnx   # rewrite the committed file
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/: run as a script too
from support.onnx_single_node import save_models_main, x_to_y_model  # noqa: E402


def identity_grid(size: int) -> np.ndarray:
    ramp = np.linspace(-1.0, 1.0, size, dtype=np.float32)
    gy, gx = np.meshgrid(ramp, ramp, indexing="ij")
    return np.stack([gx, gy], axis=-1)[None]


def flow_warp(channels: int = 4, size: int = 6) -> onnx.ModelProto:
    nodes = [helper.make_node("Slice", ["x", "start", "end", "axis"], ["flow_cf"]),
             helper.make_node("Transpose", ["flow_cf"], ["flow"], perm=[0, 2, 3, 1]),
             helper.make_node("Mul", ["flow", "scale"], ["scaled"]),
             helper.make_node("Add", ["base", "scaled"], ["grid"]),
             helper.make_node("GridSample", ["x", "grid"], ["y"], mode="bilinear", padding_mode="zeros",
                              align_corners=1)]
    inits = [numpy_helper.from_array(np.array([0], np.int64), "start"),
             numpy_helper.from_array(np.array([2], np.int64), "end"),
             numpy_helper.from_array(np.array([1], np.int64), "axis"),
             numpy_helper.from_array(np.array(0.1, np.float32), "scale"),
             numpy_helper.from_array(identity_grid(size), "base")]
    shape = [1, channels, size, size]
    return x_to_y_model(nodes, inits, shape, shape, "flow_warp")


if __name__ == "__main__":
    save_models_main(__doc__.splitlines()[0], {"flow_warp": flow_warp})
