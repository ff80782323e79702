"""Padded 3x3 convs + bias + ReLU over an NCHW image, as the ONNX import writes ResNet's convs,
for the tests of the dense-conv rewrites (`linalg-conv-winograd`)."""

from __future__ import annotations

import numpy as np

from support.cpu_pipeline_cases import dense

IDENT = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
CHANNEL = "affine_map<(d0, d1, d2, d3) -> (d1)>"


def dense_conv_weights(channels: int, filters: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The F x C x 3 x 3 filter (He-scaled, as a trained ResNet's) and the F biases."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((filters, channels, 3, 3)) * np.sqrt(2.0 / (9 * channels))
    return w.astype(np.float32), (0.1 * rng.standard_normal(filters)).astype(np.float32)


def conv_layer(source: str, index: int, channels: int, filters: int, height: int, width: int, seed: int,
               batch: int = 1) -> str:
    """Lines computing `%r{index}`: pad 1, the conv, + bias, ReLU over `source`."""
    w, bias = dense_conv_weights(channels, filters, seed + index)
    n = batch
    image, padded = f"tensor<{n}x{channels}x{height}x{width}xf32>", f"tensor<{n}x{channels}x{height + 2}x{width + 2}xf32>"
    result = f"tensor<{n}x{filters}x{height}x{width}xf32>"
    i = index
    return f"""  %w{i} = arith.constant {dense(w)} : tensor<{filters}x{channels}x3x3xf32>
  %b{i} = arith.constant {dense(bias)} : tensor<{filters}xf32>
  %p{i} = tensor.pad {source} low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : {image} to {padded}
  %e{i} = tensor.empty() : {result}
  %f{i} = linalg.fill ins(%z : f32) outs(%e{i} : {result}) -> {result}
  %y{i} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%p{i}, %w{i} : {padded}, tensor<{filters}x{channels}x3x3xf32>) outs(%f{i} : {result}) -> {result}
  %r{i} = linalg.generic {{indexing_maps = [{IDENT}, {CHANNEL}, {IDENT}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%y{i}, %b{i} : {result}, tensor<{filters}xf32>) outs(%e{i} : {result}) {{
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  }} -> {result}
"""


def dense_conv_block(channels: int, filters: int, height: int, width: int | None = None, seed: int = 0,
                     name: str = "block", layers: int = 1, batch: int = 1) -> str:
    """`func.func @name(%x: N x C x H x W)`: `layers` times pad 1, the 3x3 stride-1 conv over
    a constant filter (`dense_conv_weights`), + bias, ReLU (layers after the first over
    `filters` channels)."""
    width = height if width is None else width
    lines, source = [], "%x"
    for index in range(layers):
        lines.append(conv_layer(source, index, channels if index == 0 else filters, filters, height, width, seed, batch))
        source = f"%r{index}"
    image, result = f"tensor<{batch}x{channels}x{height}x{width}xf32>", f"tensor<{batch}x{filters}x{height}x{width}xf32>"
    body = "".join(lines)
    return f"""func.func @{name}(%x: {image}) -> {result} {{
  %z = arith.constant 0.0 : f32
{body}  func.return {source} : {result}
}}
"""


def dense_conv_f64(image: np.ndarray, channels: int, filters: int, seed: int = 0, layers: int = 1) -> np.ndarray:
    """`dense_conv_block`'s result for `image` (N x C x H x W), in float64."""
    x = image.astype(np.float64)
    for index in range(layers):
        w, bias = dense_conv_weights(channels if index == 0 else filters, filters, seed + index)
        padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        h, wd = x.shape[2:]
        out = np.zeros((x.shape[0], filters, h, wd))
        for i in range(3):
            for j in range(3):
                out += np.einsum("nchw,fc->nfhw", padded[:, :, i:i + h, j:j + wd], w[:, :, i, j].astype(np.float64))
        x = np.maximum(out + bias.astype(np.float64)[None, :, None, None], 0.0)
    return x
