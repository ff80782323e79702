"""A padded grouped 3x3 conv + ReLU over an NCHW image, as the ONNX import writes it, for the
tests of the grouped-conv rewrites (`grouped_conv_channels_last`, `grouped_conv_depthwise`)."""

from __future__ import annotations

import numpy as np

from support.cpu_pipeline_cases import dense


def grouped_block(groups: int, size: int, stride: int, batch: int = 1, width: int = 16, name: str = "block",
                  seed: int = 0) -> str:
    """A padded grouped 3x3 conv over an NCHW image (`width` channels and filters per group, a
    constant filter) and a ReLU: the form the ONNX import writes."""
    w = np.random.default_rng(seed).standard_normal((groups, width, width, 3, 3)) * 0.1
    g, c, s, out = groups, groups * width, size + 2, size // stride
    image, split = f"tensor<{batch}x{c}x{size}x{size}xf32>", f"tensor<{batch}x{g}x{width}x{s}x{s}xf32>"
    grouped, result = f"tensor<{batch}x{g}x{width}x{out}x{out}xf32>", f"tensor<{batch}x{c}x{out}x{out}xf32>"
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    return f"""func.func @{name}(%x: {image}) -> {result} {{
  %z = arith.constant 0.0 : f32
  %w = arith.constant {dense(w)} : tensor<{g}x{width}x{width}x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : {image} to tensor<{batch}x{c}x{s}x{s}xf32>
  %xg = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [{batch}, {g}, {width}, {s}, {s}] : tensor<{batch}x{c}x{s}x{s}xf32> into {split}
  %e = tensor.empty() : {grouped}
  %f = linalg.fill ins(%z : f32) outs(%e : {grouped}) -> {grouped}
  %y = linalg.conv_2d_ngchw_gfchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}} ins(%xg, %w : {split}, tensor<{g}x{width}x{width}x3x3xf32>) outs(%f : {grouped}) -> {grouped}
  %yc = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : {grouped} into {result}
  %er = tensor.empty() : {result}
  %r = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%yc : {result}) outs(%er : {result}) {{
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  }} -> {result}
  func.return %r : {result}
}}
"""
