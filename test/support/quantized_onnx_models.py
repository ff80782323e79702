"""Small quantized ONNX models, as onnxruntime's quantization tools write them, for the
importer's quantized ops (fusionopt/importers/onnx_ops_quant.py):

- qdq_cnn: `quantize_static` (QDQ format, int8 activations, per-channel int8 weights) of a
  conv block: Conv 3x3 + Relu, depthwise Conv 3x3 + Relu, 1x1 Conv, residual Add,
  GlobalAveragePool, Flatten, Gemm;
- dynamic_mlp: `quantize_dynamic` (DynamicQuantizeLinear + MatMulInteger, int8 weights) of a
  two-layer MLP over [2, 8, 64] activations with a Gelu-free Relu and a residual Add.

Weights and calibration inputs are seeded, so the files are reproducible:

    python test/support/quantized_onnx_models.py test/data/onnx   # rewrite the committed files
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/: run as a script too
from support.onnx_single_node import x_to_y_model  # noqa: E402

CNN_INPUT = (1, 8, 12, 12)
MLP_INPUT = (2, 8, 64)


def _weights(rng, **shapes) -> list[onnx.TensorProto]:
    return [numpy_helper.from_array((0.3 * rng.standard_normal(s)).astype(np.float32), n)
            for n, s in shapes.items()]


def cnn_block() -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], group=16),
             helper.make_node("Relu", ["c2"], ["r2"]),
             helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"]),
             helper.make_node("Add", ["c3", "r1"], ["s"]),
             helper.make_node("GlobalAveragePool", ["s"], ["p"]),
             helper.make_node("Flatten", ["p"], ["f"]),
             helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1)]
    inits = _weights(rng, w1=(16, 8, 3, 3), b1=(16,), w2=(16, 1, 3, 3), b2=(16,), w3=(16, 16, 1, 1),
                     b3=(16,), wf=(10, 16), bf=(10,))
    return x_to_y_model(nodes, inits, CNN_INPUT, (1, 10))


def mlp() -> onnx.ModelProto:
    rng = np.random.default_rng(1)
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["m1"]),
             helper.make_node("Add", ["m1", "b1"], ["a1"]),
             helper.make_node("Relu", ["a1"], ["r1"]),
             helper.make_node("MatMul", ["r1", "w2"], ["m2"]),
             helper.make_node("Add", ["m2", "x"], ["y"])]
    inits = _weights(rng, w1=(64, 128), b1=(128,), w2=(128, 64))
    return x_to_y_model(nodes, inits, MLP_INPUT, MLP_INPUT)


class _Calibration:
    def __init__(self, shape, count: int = 4):
        rng = np.random.default_rng(2)
        self.feeds = iter([{"x": rng.standard_normal(shape).astype(np.float32)} for _ in range(count)])

    def get_next(self):
        return next(self.feeds, None)


def write(out: Path) -> list[Path]:
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_dynamic, quantize_static

    with tempfile.TemporaryDirectory() as tmp:
        cnn, dense = Path(tmp) / "cnn.onnx", Path(tmp) / "mlp.onnx"
        onnx.save(cnn_block(), cnn)
        onnx.save(mlp(), dense)
        targets = [out / "qdq_cnn.onnx", out / "dynamic_mlp.onnx"]
        quantize_static(str(cnn), str(targets[0]), _Calibration(CNN_INPUT), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
        quantize_dynamic(str(dense), str(targets[1]), weight_type=QuantType.QInt8)
    return targets


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    for path in write(parser.parse_args().out):
        print(path)
