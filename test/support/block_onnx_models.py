"""Blocks of today's architectures as ONNX files at real sizes, built with `onnx.helper` the way
torch's exporter writes them (opset 18: Gelu in its Erf form, SiLU as Sigmoid * x, BatchNorm
folded into conv biases, torch.roll as Slice + Concat), for `bench/block_builds.py` and
`test/unit/test_block_models_build.py`.

Each block is `BLOCK(args, **sizes) -> onnx.ModelProto`: batch 1, f32 (the Llama blocks also f16
and bf16), seeded random weights.
`args=False` keeps the weights as initializers (constants after import); `args=True` makes
every weight a graph input after the activations. Shapes, indices and the tables torch exports
as constants (RoPE's cos/sin, causal and shifted-window masks) stay initializers either way.

    python test/support/block_onnx_models.py DIR [--args]   # write every block at its real size

Blocks (`BLOCKS[name]`: the builder and its real sizes):
- convnext: 7x7 depthwise conv, LayerNorm over channels in NHWC, Linear 4x, Gelu, Linear back,
  layer scale, back to NCHW, residual (96 channels, 56x56).
- resnext: 1x1 conv, grouped 3x3 (32 groups, width 128), 1x1 conv, Relus, residual (256, 56x56).
- lraspp: LR-ASPP head: 1x1 conv + Relu branch times a pooled 1x1 conv + Sigmoid gate, bilinear
  Resize x2 (half_pixel), two 1x1 classifiers added (960 -> 128 at 28x28, low 40 at 56x56).
- vit: 16x16 stride-16 patch conv on 224x224, class token, position embedding, a pre-norm encoder
  layer: MultiheadAttention as torch exports it (sequence-first, one in-projection unflattened
  and split by Gather, heads by Reshape/Transpose, q and k each scaled by dh^-1/4, Gemm
  out-projection), MLP with Gelu, residuals (dim 384, 6 heads).
- mbconv: EfficientNet MBConv: 1x1 expand, depthwise 3x3, SiLU, squeeze-excite, 1x1 project,
  residual (24 -> 144 -> 24, SE 6, 56x56).
- swin: shifted-window attention: roll, window partition, attention per window with a relative
  position bias (gathered from its table) and the shift mask, window reverse, roll back, MLP
  (dim 96, 3 heads, window 7, 56x56).
- unet_up: ConvTranspose 2x2 stride 2, Concat with the skip, two 3x3 conv + Relu (256 -> 128,
  28x28 -> 56x56).
- inception_factorized: Inception-v3's factorized 7x7 branches: 1x1, 1x7 and 7x1 convs (pads
  along one axis), Relus, concat (768 -> 192 + 192 + 192 at 17x17, mid 128).
- swin_merge: Swin's patch merging: four strided slices (steps 2), concat, LayerNorm, Linear
  4C -> 2C, and a linear shortcut of the merged pixels (56x56, dim 96).
- r3d: R3D-18's basic block and the next stage's strided conv: 3 x 3 x 3 convs (pads 1) + bias +
  Relu, residual, then 64 -> 128 at stride 2 (64 channels, 8 frames of 28x28).
- r2plus1d: R(2+1)D-18's basic block: each conv a (1, 3, 3) conv + bias + Relu and a (3, 1, 1)
  conv + bias (torchvision's Conv2Plus1D, BatchNorms folded; 144 middle channels), Relu between,
  residual, Relu (64 channels, 8 frames of 28x28).
- llama: RMSNorm, RoPE (rotate-half), grouped-query attention (KV heads repeated by
  Unsqueeze/Expand/Reshape), causal mask, SwiGLU MLP (hidden 256, 8 heads, 2 KV heads, seq 64).
- llama_decode: the same block's KV-cache decode step: one token at position 63, past keys and
  values (63 tokens) as inputs, the new ones concatenated on, no mask.
- llama_f16, llama_decode_f16: both with `dtype="f16"`: weights, activations, I/O, RoPE tables and
  the causal mask (f16's lowest) in f16, as torch's f16 export of transformers' Llama writes them:
  RMSNorm's statistics and scaling and the attention softmax in f32 between Casts.
- llama_bf16, llama_decode_bf16: the same with `dtype="bf16"` (ml_dtypes' bfloat16; the causal
  mask at bf16's lowest, -3.39e38). onnxruntime's CPU provider has no bf16 Mul, so these run
  only in our interpreter and IREE.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/: run as a script too
from support.block_onnx_builder import BlockBuilder  # noqa: E402
from support.block_onnx_llama import llama, llama_decode  # noqa: E402


def convnext(args: bool, size: int = 56, dim: int = 96) -> onnx.ModelProto:
    b = BlockBuilder(11)
    x = b.input("x", (1, dim, size, size))
    y = b.conv2d(x, dim, dim, 7, group=dim)
    y = b.layer_norm(b.transpose(y, (0, 2, 3, 1)), dim)
    y = b.linear(b.gelu(b.linear(y, dim, 4 * dim)), 4 * dim, dim)
    y = b.node("Mul", [b.weight((dim,), 0.1, 0.5), y])
    y = b.node("Add", [x, b.transpose(y, (0, 3, 1, 2))])
    return b.block_model(y, (1, dim, size, size), args)


def resnext(args: bool, size: int = 56, channels: int = 256, width: int = 128, groups: int = 32) -> onnx.ModelProto:
    b = BlockBuilder(12)
    x = b.input("x", (1, channels, size, size))
    y = b.conv2d(x, channels, width, 1, relu=True)
    y = b.conv2d(y, width, width, 3, group=groups, relu=True)
    y = b.conv2d(y, width, channels, 1)
    return b.block_model(b.node("Relu", [b.node("Add", [y, x])]), (1, channels, size, size), args)


def lraspp(args: bool, size: int = 28, high: int = 960, low: int = 40, inter: int = 128,
           classes: int = 21) -> onnx.ModelProto:
    b = BlockBuilder(13)
    xh = b.input("high", (1, high, size, size))
    xl = b.input("low", (1, low, 2 * size, 2 * size))
    branch = b.conv2d(xh, high, inter, 1, relu=True)
    gate = b.node("Sigmoid", [b.conv2d(b.node("GlobalAveragePool", [xh]), high, inter, 1)])
    y = b.node("Mul", [branch, gate])
    y = b.node("Resize", [y, "", b.const([1, 1, 2, 2], np.float32)], mode="linear",
               coordinate_transformation_mode="pytorch_half_pixel")
    y = b.node("Add", [b.conv2d(xl, low, classes, 1), b.conv2d(y, inter, classes, 1)])
    return b.block_model(y, (1, classes, 2 * size, 2 * size), args)


def _mha(b: BlockBuilder, x: str, tokens: int, dim: int, heads: int) -> str:
    """nn.MultiheadAttention (batch_first) as torch exports F.multi_head_attention_forward:
    sequence-first, one in-projection to 3*dim unflattened to (3, dim) and split by Gather,
    heads by view + transpose, SDPA (both q and k scaled by dh^-1/4), out-projection Gemm."""
    dh = dim // heads
    proj = b.linear(b.transpose(x, (1, 0, 2)), dim, 3 * dim)  # tokens x 1 x 3*dim
    proj = b.node("Unsqueeze", [b.reshape(proj, (tokens, 1, 3, dim)), b.const([0])])
    proj = b.node("Squeeze", [b.transpose(proj, (3, 1, 2, 0, 4)), b.const([-2])])  # 3 x tokens x 1 x dim
    q, k, v = (b.reshape(b.transpose(b.reshape(b.take(proj, i), (tokens, heads, dh)), (1, 0, 2)),
                         (1, heads, tokens, dh)) for i in range(3))
    root_scale = b.scalar(1.0 / math.sqrt(math.sqrt(dh)))
    scores = b.node("MatMul", [b.node("Mul", [q, root_scale]),
                               b.node("Mul", [b.transpose(k, (0, 1, 3, 2)), root_scale])])
    y = b.node("MatMul", [b.node("Softmax", [scores], axis=-1), v])
    y = b.reshape(b.transpose(y, (2, 0, 1, 3)), (tokens, dim))
    y = b.node("Gemm", [y, b.weight((dim, dim), 1.0 / math.sqrt(dim)), b.weight((dim,), 0.1)], transB=1)
    return b.transpose(b.reshape(y, (tokens, 1, dim)), (1, 0, 2))


def _mlp(b: BlockBuilder, x: str, dim: int, hidden: int) -> str:
    return b.linear(b.gelu(b.linear(x, dim, hidden)), hidden, dim)


def vit(args: bool, image: int = 224, patch: int = 16, dim: int = 384, heads: int = 6) -> onnx.ModelProto:
    b = BlockBuilder(14)
    x = b.input("image", (1, 3, image, image))
    side = image // patch
    tokens = side * side + 1
    y = b.conv2d(x, 3, dim, patch, stride=patch, pad=0)
    y = b.transpose(b.reshape(y, (1, dim, side * side)), (0, 2, 1))
    y = b.node("Concat", [b.weight((1, 1, dim), 0.5), y], axis=1)
    y = b.node("Add", [y, b.weight((1, tokens, dim), 0.5)])
    y = b.node("Add", [y, _mha(b, b.layer_norm(y, dim), tokens, dim, heads)])
    y = b.node("Add", [y, _mlp(b, b.layer_norm(y, dim), dim, 4 * dim)])
    return b.block_model(y, (1, tokens, dim), args)


def mbconv(args: bool, size: int = 56, channels: int = 24, expand: int = 6, se: int = 6) -> onnx.ModelProto:
    b = BlockBuilder(15)
    x = b.input("x", (1, channels, size, size))
    wide = channels * expand
    y = b.silu(b.conv2d(x, channels, wide, 1))
    y = b.silu(b.conv2d(y, wide, wide, 3, group=wide))
    s = b.silu(b.conv2d(b.node("GlobalAveragePool", [y]), wide, se, 1))
    y = b.node("Mul", [y, b.node("Sigmoid", [b.conv2d(s, se, wide, 1)])])
    y = b.node("Add", [b.conv2d(y, wide, channels, 1), x])
    return b.block_model(y, (1, channels, size, size), args)


def _shift_mask(size: int, window: int, shift: int) -> np.ndarray:
    """Swin's attention mask for the shifted windows: -100 between tokens from different
    regions of the rolled image (torch computes it from shapes; the export folds it)."""
    regions = np.zeros((size, size), np.int64)
    bounds = (slice(0, -window), slice(-window, -shift), slice(-shift, None))
    for i, (hs, ws) in enumerate((h, w) for h in bounds for w in bounds):
        regions[hs, ws] = i
    n = size // window
    wins = regions.reshape(n, window, n, window).transpose(0, 2, 1, 3).reshape(n * n, window * window)
    mask = np.where(wins[:, :, None] != wins[:, None, :], -100.0, 0.0)
    return mask[None, :, None].astype(np.float32)


def _relative_index(window: int) -> np.ndarray:
    coords = np.stack(np.meshgrid(np.arange(window), np.arange(window), indexing="ij")).reshape(2, -1)
    rel = (coords[:, :, None] - coords[:, None, :]).transpose(1, 2, 0) + window - 1
    return (rel[..., 0] * (2 * window - 1) + rel[..., 1]).reshape(-1)


def swin(args: bool, size: int = 56, dim: int = 96, heads: int = 3, window: int = 7) -> onnx.ModelProto:
    b = BlockBuilder(16)
    shift = window // 2
    x = b.input("x", (1, size * size, dim))
    y = b.reshape(b.layer_norm(x, dim), (1, size, size, dim))
    y = b.roll(b.roll(y, -shift, 1, size), -shift, 2, size)
    y = _swin_attention(b, y, size, dim, heads, window, shift)
    y = b.roll(b.roll(y, shift, 1, size), shift, 2, size)
    y = b.node("Add", [x, b.reshape(y, (1, size * size, dim))])
    y = b.node("Add", [y, _mlp(b, b.layer_norm(y, dim), dim, 4 * dim)])
    return b.block_model(y, (1, size * size, dim), args)


def _swin_attention(b: BlockBuilder, x: str, size: int, dim: int, heads: int, window: int, shift: int) -> str:
    """Window partition, attention with relative position bias and shift mask, window reverse."""
    n, area, dh = size // window, window * window, dim // heads
    wins = b.reshape(b.transpose(b.reshape(x, (1, n, window, n, window, dim)), (0, 1, 3, 2, 4, 5)),
                     (n * n, area, dim))
    qkv = b.transpose(b.reshape(b.linear(wins, dim, 3 * dim), (n * n, area, 3, heads, dh)), (2, 0, 3, 1, 4))
    q, k, v = (b.take(qkv, i) for i in range(3))
    table = b.weight(((2 * window - 1) ** 2, heads), 0.5)
    bias = b.node("Gather", [table, b.const(_relative_index(window))], axis=0)
    bias = b.node("Unsqueeze", [b.transpose(b.reshape(bias, (area, area, heads)), (2, 0, 1)), b.const([0])])
    scores = b.node("MatMul", [b.node("Mul", [q, b.scalar(1.0 / math.sqrt(dh))]), b.transpose(k, (0, 1, 3, 2))])
    scores = b.reshape(b.node("Add", [scores, bias]), (1, n * n, heads, area, area))
    scores = b.node("Add", [scores, b.const(_shift_mask(size, window, shift), np.float32)])
    probs = b.node("Softmax", [b.reshape(scores, (n * n, heads, area, area))], axis=-1)
    y = b.transpose(b.node("MatMul", [probs, v]), (0, 2, 1, 3))
    y = b.linear(b.reshape(y, (n * n, area, dim)), dim, dim)
    y = b.transpose(b.reshape(y, (1, n, n, window, window, dim)), (0, 1, 3, 2, 4, 5))
    return b.reshape(y, (1, size, size, dim))


def _conv3d(b: BlockBuilder, x: str, cin: int, cout: int, stride: int = 1, relu: bool = True) -> str:
    w = b.weight((cout, cin, 3, 3, 3), 1.0 / math.sqrt(cin * 27))
    y = b.node("Conv", [x, w, b.weight((cout,), 0.1)], kernel_shape=[3, 3, 3], strides=[stride] * 3,
               pads=[1] * 6)
    return b.node("Relu", [y]) if relu else y


def r3d(args: bool, frames: int = 8, size: int = 28, channels: int = 64) -> onnx.ModelProto:
    b = BlockBuilder(19)
    x = b.input("x", (1, channels, frames, size, size))
    y = _conv3d(b, _conv3d(b, x, channels, channels), channels, channels, relu=False)
    y = b.node("Relu", [b.node("Add", [y, x])])
    y = _conv3d(b, y, channels, 2 * channels, stride=2)
    return b.block_model(y, (1, 2 * channels, frames // 2, size // 2, size // 2), args)


def _conv2plus1d(b: BlockBuilder, x: str, cin: int, cout: int, mid: int) -> str:
    w = b.weight((mid, cin, 1, 3, 3), 1.0 / math.sqrt(cin * 9))
    y = b.node("Relu", [b.node("Conv", [x, w, b.weight((mid,), 0.1)], kernel_shape=[1, 3, 3], pads=[0, 1, 1, 0, 1, 1])])
    w = b.weight((cout, mid, 3, 1, 1), 1.0 / math.sqrt(mid * 3))
    return b.node("Conv", [y, w, b.weight((cout,), 0.1)], kernel_shape=[3, 1, 1], pads=[1, 0, 0, 1, 0, 0])


def r2plus1d(args: bool, frames: int = 8, size: int = 28, channels: int = 64) -> onnx.ModelProto:
    mid = channels * channels * 27 // (channels * 9 + 3 * channels)  # torchvision's midplanes
    b = BlockBuilder(23)
    x = b.input("x", (1, channels, frames, size, size))
    y = _conv2plus1d(b, b.node("Relu", [_conv2plus1d(b, x, channels, channels, mid)]), channels, channels, mid)
    y = b.node("Relu", [b.node("Add", [y, x])])
    return b.block_model(y, (1, channels, frames, size, size), args)


def unet_up(args: bool, size: int = 28, cin: int = 256, cout: int = 128) -> onnx.ModelProto:
    b = BlockBuilder(17)
    x = b.input("x", (1, cin, size, size))
    skip = b.input("skip", (1, cout, 2 * size, 2 * size))
    w = b.weight((cin, cout, 2, 2), 1.0 / math.sqrt(cin * 4))
    up = b.node("ConvTranspose", [x, w, b.weight((cout,), 0.1)], kernel_shape=[2, 2], strides=[2, 2])
    y = b.node("Concat", [skip, up], axis=1)
    y = b.conv2d(b.conv2d(y, 2 * cout, cout, 3, relu=True), cout, cout, 3, relu=True)
    return b.block_model(y, (1, cout, 2 * size, 2 * size), args)


def inception_factorized(args: bool, size: int = 17, cin: int = 768, mid: int = 128) -> onnx.ModelProto:
    """Inception-v3's factorized 7x7 branches (its InceptionC at 17x17): 1x1, then 1x7 and 7x1
    convs (pads 3 along one axis only), each with its folded-BN bias and Relu; concat."""
    b = BlockBuilder(20)
    x = b.input("x", (1, cin, size, size))

    def conv(y: str, ci: int, co: int, kh: int, kw: int) -> str:
        w = b.weight((co, ci, kh, kw), 1.0 / math.sqrt(ci * kh * kw))
        y = b.node("Conv", [y, w, b.weight((co,), 0.1)], kernel_shape=[kh, kw],
                   pads=[(kh - 1) // 2, (kw - 1) // 2] * 2)
        return b.node("Relu", [y])

    one = conv(x, cin, 192, 1, 1)
    seven = conv(conv(conv(x, cin, mid, 1, 1), mid, mid, 1, 7), mid, 192, 7, 1)
    double = conv(x, cin, mid, 1, 1)
    for ci, co, kh, kw in ((mid, mid, 7, 1), (mid, mid, 1, 7), (mid, mid, 7, 1), (mid, 192, 1, 7)):
        double = conv(double, ci, co, kh, kw)
    y = b.node("Concat", [one, seven, double], axis=1)
    return b.block_model(y, (1, 576, size, size), args)


def swin_merge(args: bool, size: int = 56, dim: int = 96) -> onnx.ModelProto:
    """Swin's patch merging: the four pixels of each 2x2 patch by strided slices (`x[:, 0::2,
    1::2]` as torch exports it: Slice with steps 2), concatenated on channels, LayerNorm, Linear
    4C -> 2C without bias, plus a linear shortcut of the merged pixels."""
    b = BlockBuilder(21)
    x = b.input("x", (1, size, size, dim))
    parts = [b.node("Slice", [x, b.const([row, col]), b.const([size, size]), b.const([1, 2]), b.const([2, 2])])
             for row, col in ((0, 0), (1, 0), (0, 1), (1, 1))]
    merged = b.node("Concat", parts, axis=-1)
    y = b.linear(b.layer_norm(merged, 4 * dim), 4 * dim, 2 * dim, bias=False)
    # A shortcut projection of the merged pixels (the LayerNorm alone would cancel an offset
    # input, and the block's output would not show its input's offset).
    y = b.node("Add", [y, b.linear(merged, 4 * dim, 2 * dim)])
    return b.block_model(y, (1, size // 2, size // 2, 2 * dim), args)


@dataclass(frozen=True)
class Block:
    build: Callable[..., onnx.ModelProto]
    sizes: dict = field(default_factory=dict)  # the real sizes (the builder's defaults)


BLOCKS: dict[str, Block] = {
    "convnext": Block(convnext), "resnext": Block(resnext), "lraspp": Block(lraspp),
    "vit": Block(vit), "mbconv": Block(mbconv), "swin": Block(swin), "unet_up": Block(unet_up),
    "inception_factorized": Block(inception_factorized), "swin_merge": Block(swin_merge), "r3d": Block(r3d),
    "r2plus1d": Block(r2plus1d),
    "llama": Block(llama), "llama_decode": Block(llama_decode),
    "llama_f16": Block(llama, {"dtype": "f16"}), "llama_decode_f16": Block(llama_decode, {"dtype": "f16"}),
    "llama_bf16": Block(llama, {"dtype": "bf16"}), "llama_decode_bf16": Block(llama_decode, {"dtype": "bf16"}),
}


def build(name: str, args: bool = True, **sizes) -> onnx.ModelProto:
    return BLOCKS[name].build(args, **{**BLOCKS[name].sizes, **sizes})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--args", action="store_true", help="weights as graph inputs")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="these blocks (repeatable)")
    parser.add_argument("--size", action="append", default=[], metavar="KEY=N",
                        help="a size of the blocks' builder (e.g. past=2047 for llama_decode), in the file's name")
    opts = parser.parse_args(argv)
    sizes = {key: int(value) for key, _, value in (text.partition("=") for text in opts.size)}
    suffix = "".join(f".{key}{value}" for key, value in sizes.items())
    opts.folder.mkdir(parents=True, exist_ok=True)
    for name in opts.only or BLOCKS:
        path = opts.folder / (f"{name}{suffix}.args.onnx" if opts.args else f"{name}{suffix}.onnx")
        onnx.save(build(name, opts.args, **sizes), str(path))
        print(path)


if __name__ == "__main__":
    main()
