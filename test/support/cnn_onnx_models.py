"""Small CNN blocks as ONNX files, built with `onnx.helper`, for the conv graph passes
(`graph-fold-conv-affine`, `graph-horizontal-fuse-convs`) and the runtime bench.

Each model's weights are initializers (constants after import) in `NAME.onnx`; `NAME.args.onnx`
is the same graph with every initializer moved to a graph input (weights as function
arguments, after the image). Weights are seeded, so the files are reproducible:

    python test/support/cnn_onnx_models.py test/data/onnx   # rewrite the committed files
    python test/support/cnn_onnx_models.py DIR --scale 4 --size 56  # bigger, for the bench

Models (image 1 x 16 x 16 x 16; `scale` multiplies every channel count, `size` sets H = W):
- conv_bn_relu: Conv 3x3 (bias) -> BatchNormalization (one channel with var ~ 1e-9 next to
  eps = 1e-5, one large mean) -> Relu;
- conv_affine: Conv 3x3 (no bias) -> Mul by [F, 1, 1] -> Add [F, 1, 1] -> Relu;
- inception: three sibling 1x1 convs (+bias, Relu) over the image, two of them feeding a
  3x3 and a 5x5 conv, plus MaxPool -> 1x1 conv, the four branches concatenated;
- squeeze_excite: Conv 3x3 + Relu, GlobalAveragePool, 1x1 conv + Relu, 1x1 conv,
  HardSigmoid, Mul with the feature map.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 18


class Builder:
    """Collects nodes and seeded initializers of one graph; channel counts are multiplied by
    `scale` (`c(n)`), the image is 1 x c(16) x size x size."""

    def __init__(self, seed: int, scale: int = 1, size: int = 16):
        self.scale, self.size = scale, size
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.count = 0

    def c(self, channels: int) -> int:
        return channels * self.scale

    def out(self, channels: int) -> tuple[int, ...]:
        return (1, self.c(channels), self.size, self.size)

    def weight(self, shape, scale: float = 0.2, offset: float = 0.0) -> str:
        name = f"w{len(self.inits)}"
        data = (offset + scale * self.rng.standard_normal(shape)).astype(np.float32)
        self.inits.append(numpy_helper.from_array(data, name))
        return name

    def node(self, op: str, inputs: list[str], **attrs) -> str:
        self.count += 1
        out = f"t{self.count}"
        self.nodes.append(helper.make_node(op, inputs, [out], name=f"{op}_{self.count}", **attrs))
        return out

    def conv(self, x: str, cin: int, cout: int, k: int, bias: bool = True, relu: bool = True) -> str:
        cin, cout = self.c(cin), self.c(cout)
        ins = [x, self.weight((cout, cin, k, k), scale=1.0 / np.sqrt(cin * k * k))]
        if bias:
            ins.append(self.weight((cout,), 0.1))
        y = self.node("Conv", ins, kernel_shape=[k, k], pads=[k // 2] * 4)
        return self.node("Relu", [y]) if relu else y

    def model(self, output: str, out_shape, weights_as_inputs: bool) -> onnx.ModelProto:
        image = helper.make_tensor_value_info("image", TensorProto.FLOAT, list(self.out(16)))
        return checked_model(self.nodes, [image], self.inits, [], output, out_shape, weights_as_inputs)


def checked_model(nodes, inputs, weights, constants, output: str, out_shape, weights_as_inputs: bool,
                  output_type: int = TensorProto.FLOAT) -> onnx.ModelProto:
    """The opset-`OPSET` model of `nodes` with `weights` as initializers or, with
    `weights_as_inputs`, as graph inputs after `inputs` (`constants` stay initializers)."""
    inits = list(constants) + ([] if weights_as_inputs else list(weights))
    if weights_as_inputs:
        inputs = list(inputs) + [helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in weights]
    outputs = [helper.make_tensor_value_info(output, output_type, list(out_shape))]
    graph = helper.make_graph(nodes, "main_graph", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="fusionopt-test")
    model.ir_version = 9
    onnx.checker.check_model(model)
    return model


def conv_bn_relu(args: bool, scale: int = 1, size: int = 16) -> onnx.ModelProto:
    b = Builder(1, scale, size)
    y = b.conv("image", 16, 24, 3, relu=False)
    f = b.c(24)
    gamma, shift = b.weight((f,), 0.5, 1.0), b.weight((f,), 0.1)
    mean = b.weight((f,), 0.1)
    var = b.weight((f,), 0.2, 1.0)
    for arr_name, index, value in ((var, 3, 1e-9), (mean, 5, 50.0)):
        t = next(t for t in b.inits if t.name == arr_name)
        data = numpy_helper.to_array(t).copy()
        data[index] = value
        data = np.abs(data) if arr_name == var else data
        t.CopyFrom(numpy_helper.from_array(data.astype(np.float32), arr_name))
    y = b.node("BatchNormalization", [y, gamma, shift, mean, var], epsilon=1e-5)
    return b.model(b.node("Relu", [y]), b.out(24), args)


def conv_affine(args: bool, scale: int = 1, size: int = 16) -> onnx.ModelProto:
    b = Builder(2, scale, size)
    y = b.conv("image", 16, 24, 3, bias=False, relu=False)
    y = b.node("Mul", [y, b.weight((b.c(24), 1, 1), 0.5, 1.0)])
    y = b.node("Add", [y, b.weight((b.c(24), 1, 1), 0.3)])
    return b.model(b.node("Relu", [y]), b.out(24), args)


def inception(args: bool, scale: int = 1, size: int = 16) -> onnx.ModelProto:
    b = Builder(3, scale, size)
    b1 = b.conv("image", 16, 8, 1)
    b2 = b.conv(b.conv("image", 16, 8, 1), 8, 12, 3)
    b3 = b.conv(b.conv("image", 16, 4, 1), 4, 6, 5)
    pooled = b.node("MaxPool", ["image"], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b4 = b.conv(pooled, 16, 6, 1)
    return b.model(b.node("Concat", [b1, b2, b3, b4], axis=1), b.out(32), args)


def squeeze_excite(args: bool, scale: int = 1, size: int = 16) -> onnx.ModelProto:
    b = Builder(4, scale, size)
    y = b.conv("image", 16, 32, 3)
    squeezed = b.node("GlobalAveragePool", [y])
    s = b.conv(squeezed, 32, 8, 1)
    s = b.node("HardSigmoid", [b.conv(s, 8, 32, 1, relu=False)], alpha=1.0 / 6, beta=0.5)
    return b.model(b.node("Mul", [y, s]), b.out(32), args)


MODELS: dict[str, Callable[..., onnx.ModelProto]] = {
    "conv_bn_relu": conv_bn_relu,
    "conv_affine": conv_affine,
    "inception": inception,
    "squeeze_excite": squeeze_excite,
}


def file_name(name: str, args: bool) -> str:
    return f"{name}.args.onnx" if args else f"{name}.onnx"


def write_all(folder: Path, scale: int = 1, size: int = 16) -> list[Path]:
    written = []
    for name, build in MODELS.items():
        for args in (False, True):
            path = folder / file_name(name, args)
            onnx.save(build(args, scale, size), str(path))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--scale", type=int, default=1, help="channel multiplier")
    parser.add_argument("--size", type=int, default=16, help="image height and width")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    for path in write_all(args.folder, args.scale, args.size):
        print(path)


if __name__ == "__main__":
    main()
