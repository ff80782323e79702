"""`BlockBuilder`: the ONNX graph builder of the real-size blocks (block_onnx_models.py,
block_onnx_llama.py): named graph inputs, constants that stay initializers, and the layers torch
exports as several nodes, in f32, f16 or bf16."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/: run as a script too
from support.cnn_onnx_models import Builder, checked_model  # noqa: E402

# a block's `dtype` -> its weights' and I/O's
DTYPES = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


class BlockBuilder(Builder):
    """`Builder` with named graph inputs, constants that stay initializers, and the layers
    torch exports as several nodes."""

    def __init__(self, seed: int, dtype: str = "f32"):
        super().__init__(seed)
        self.inputs: list[onnx.ValueInfoProto] = []
        self.consts: list[onnx.TensorProto] = []
        self.dtype = np.dtype(DTYPES[dtype])

    @property
    def elem_type(self) -> int:
        return helper.np_dtype_to_tensor_dtype(self.dtype)

    def input(self, name: str, shape) -> str:
        self.inputs.append(helper.make_tensor_value_info(name, self.elem_type, list(shape)))
        return name

    def weight(self, shape, scale: float = 0.2, offset: float = 0.0) -> str:
        """The f32 weight rounded to the block's dtype (the same draws for every dtype)."""
        name = super().weight(shape, scale, offset)
        if self.dtype != np.float32:
            self.inits[-1] = numpy_helper.from_array(numpy_helper.to_array(self.inits[-1]).astype(self.dtype), name)
        return name

    def const(self, values, dtype=np.int64) -> str:
        name = f"c{len(self.consts)}"
        self.consts.append(numpy_helper.from_array(np.asarray(values, dtype=dtype), name))
        return name

    def scalar(self, value: float, dtype=None) -> str:
        return self.const(value, self.dtype if dtype is None else dtype)

    def cast(self, x: str, dtype) -> str:
        return self.node("Cast", [x], to=helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))

    def conv2d(self, x: str, cin: int, cout: int, k: int, stride: int = 1, group: int = 1,
               relu: bool = False, pad: int | None = None) -> str:
        w = self.weight((cout, cin // group, k, k), 1.0 / math.sqrt(cin // group * k * k))
        pad = k // 2 if pad is None else pad
        y = self.node("Conv", [x, w, self.weight((cout,), 0.1)], kernel_shape=[k, k],
                      strides=[stride] * 2, pads=[pad] * 4, group=group)
        return self.node("Relu", [y]) if relu else y

    def linear(self, x: str, din: int, dout: int, bias: bool = True) -> str:
        y = self.node("MatMul", [x, self.weight((din, dout), 1.0 / math.sqrt(din))])
        return self.node("Add", [y, self.weight((dout,), 0.1)]) if bias else y

    def layer_norm(self, x: str, dim: int) -> str:
        return self.node("LayerNormalization", [x, self.weight((dim,), 0.1, 1.0),
                                                self.weight((dim,), 0.1)], axis=-1, epsilon=1e-6)

    def gelu(self, x: str) -> str:
        erf = self.node("Erf", [self.node("Div", [x, self.scalar(math.sqrt(2.0))])])
        y = self.node("Mul", [x, self.node("Add", [erf, self.scalar(1.0)])])
        return self.node("Mul", [y, self.scalar(0.5)])

    def silu(self, x: str) -> str:
        return self.node("Mul", [x, self.node("Sigmoid", [x])])

    def reshape(self, x: str, shape) -> str:
        return self.node("Reshape", [x, self.const(shape)])

    def transpose(self, x: str, perm) -> str:
        return self.node("Transpose", [x], perm=list(perm))

    def slice(self, x: str, axis: int, start: int, end: int) -> str:
        return self.node("Slice", [x, self.const([start]), self.const([end]), self.const([axis])])

    def take(self, x: str, index: int, axis: int = 0) -> str:
        return self.node("Gather", [x, self.const(index)], axis=axis)

    def roll(self, x: str, shift: int, axis: int, n: int) -> str:
        """torch.roll as torch exports it: the last `shift` rows, then the rest."""
        cut = (n - shift) % n
        return self.node("Concat", [self.slice(x, axis, cut, n), self.slice(x, axis, 0, cut)], axis=axis)

    def attention(self, q: str, k: str, v: str, dh: int, bias: str | None = None,
                  nan_guard: bool = False) -> str:
        """softmax(q k^T / sqrt(dh) + bias) v over the last two dims; below f32 the softmax in
        f32 as transformers writes it (`softmax(..., dtype=torch.float32).to(dtype)`).
        `nan_guard`: the probabilities through Where(IsNaN(p), 0, p), as torch exports
        scaled_dot_product_attention with a mask."""
        scores = self.node("MatMul", [self.node("Mul", [q, self.scalar(1.0 / math.sqrt(dh))]),
                                      self.transpose(k, (0, 1, 3, 2))])
        if bias is not None:
            scores = self.node("Add", [scores, bias])
        if self.dtype == np.float32:
            probs = self.node("Softmax", [scores], axis=-1)
        else:
            probs = self.cast(self.node("Softmax", [self.cast(scores, np.float32)], axis=-1), self.dtype)
        if nan_guard:
            probs = self.node("Where", [self.node("IsNaN", [probs]), self.scalar(0.0), probs])
        return self.node("MatMul", [probs, v])

    def block_model(self, output: str, out_shape, args: bool) -> onnx.ModelProto:
        return checked_model(self.nodes, self.inputs, self.inits, self.consts, output, out_shape, args,
                             self.elem_type)
