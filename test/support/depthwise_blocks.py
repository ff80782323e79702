"""Inverted-residual pieces at chosen sizes: a 1x1 expansion conv (bias, ReLU6) whose result is
padded for a k x k depthwise conv (bias, ReLU6), channels last, constant weights; for the tests
of `form-dispatch-regions{pads-into-depthwise}`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from support.cpu_pipeline_cases import dense

IDENTITY_4D = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
CHANNEL_4D = "affine_map<(d0, d1, d2, d3) -> (d3)>"


@dataclass(frozen=True)
class Depthwise:
    size: int  # input height and width
    channels: int  # into the expansion conv
    filters: int  # out of it, the depthwise conv's channels
    kernel: int = 3
    stride: int = 1
    dilation: int = 1

    @property
    def name(self) -> str:
        return (f"dw_{self.size}x{self.size}_{self.channels}to{self.filters}_k{self.kernel}"
                f"s{self.stride}d{self.dilation}")

    @property
    def pad(self) -> int:
        return self.dilation * (self.kernel // 2)

    @property
    def out_size(self) -> int:
        padded = self.size + 2 * self.pad
        return (padded - self.dilation * (self.kernel - 1) - 1) // self.stride + 1


def _image(size: int, channels: int) -> str:
    return f"tensor<1x{size}x{size}x{channels}xf32>"


def _bias_relu6(result: str, source: str, bias: str, shape: str, channels: int) -> str:
    return (f"  {result} = linalg.generic {{indexing_maps = [{IDENTITY_4D}, {CHANNEL_4D}, {IDENTITY_4D}], "
            f"iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} "
            f"ins({source}, {bias} : {shape}, tensor<{channels}xf32>) outs({source} : {shape}) {{\n"
            f"  ^bb0(%a: f32, %b: f32, %o: f32):\n"
            f"    %s = arith.addf %a, %b : f32\n    %m = arith.maximumf %s, %zero : f32\n"
            f"    %n = arith.minimumf %m, %six : f32\n    linalg.yield %n : f32\n  }} -> {shape}\n")


def depthwise_function(block: Depthwise, rng: np.random.Generator, name: str | None = None) -> str:
    """`func.func @<name>(image) -> depthwise result` for `block`."""
    b, h, c, f, k = block, block.size, block.channels, block.filters, block.kernel
    expanded, padded, out = _image(h, f), _image(h + 2 * b.pad, f), _image(b.out_size, f)
    w1, b1 = rng.standard_normal((1, 1, c, f)) / np.sqrt(c), rng.standard_normal(f) * 0.1
    w2, b2 = rng.standard_normal((k, k, f)) / k, rng.standard_normal(f) * 0.1
    attrs = f"dilations = dense<{b.dilation}> : tensor<2xi64>, strides = dense<{b.stride}> : tensor<2xi64>"
    one = "dense<1> : tensor<2xi64>"
    return (
        f"func.func @{name or b.name}(%x: {_image(h, c)}) -> {out} {{\n"
        f"  %zero = arith.constant 0.0 : f32\n  %six = arith.constant 6.0 : f32\n"
        f"  %w1 = arith.constant {dense(w1)} : tensor<1x1x{c}x{f}xf32>\n"
        f"  %b1 = arith.constant {dense(b1)} : tensor<{f}xf32>\n"
        f"  %w2 = arith.constant {dense(w2)} : tensor<{k}x{k}x{f}xf32>\n"
        f"  %b2 = arith.constant {dense(b2)} : tensor<{f}xf32>\n"
        f"  %e1 = tensor.empty() : {expanded}\n"
        f"  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : {expanded}) -> {expanded}\n"
        f"  %c1 = linalg.conv_2d_nhwc_hwcf {{dilations = {one}, strides = {one}}} ins(%x, %w1 : {_image(h, c)}, "
        f"tensor<1x1x{c}x{f}xf32>) outs(%f1 : {expanded}) -> {expanded}\n"
        + _bias_relu6("%r1", "%c1", "%b1", expanded, f)
        + f"  %p = tensor.pad %r1 low[0, {b.pad}, {b.pad}, 0] high[0, {b.pad}, {b.pad}, 0] {{\n"
        f"  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):\n    tensor.yield %zero : f32\n"
        f"  }} : {expanded} to {padded}\n"
        f"  %e2 = tensor.empty() : {out}\n"
        f"  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : {out}) -> {out}\n"
        f"  %c2 = linalg.depthwise_conv_2d_nhwc_hwc {{{attrs}}} ins(%p, %w2 : {padded}, tensor<{k}x{k}x{f}xf32>) "
        f"outs(%f2 : {out}) -> {out}\n"
        + _bias_relu6("%r2", "%c2", "%b2", out, f)
        + f"  func.return %r2 : {out}\n}}\n"
    )
