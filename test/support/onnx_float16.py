"""An f32 ONNX model as the same model in f16 (what onnxconverter-common's
`convert_float_to_float16` makes, without that dependency): float initializers, graph inputs
and outputs, Constant tensors and Cast targets become FLOAT16; intermediate value_info is dropped
so the importer's shape inference re-derives it. Values past f16's range (a mask's -FLT_MAX)
become -inf / +inf, as the converter's do without clipping. `to_float16(model, BF16)` makes the
bf16 model alike (ml_dtypes' bfloat16, f32's range: nothing overflows)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, helper, numpy_helper

BF16 = np.dtype(ml_dtypes.bfloat16)


def _narrowed(tensor: TensorProto, dtype: np.dtype) -> None:
    if tensor.data_type == TensorProto.FLOAT:
        with np.errstate(over="ignore"):
            values = numpy_helper.to_array(tensor).astype(dtype)
        tensor.CopyFrom(numpy_helper.from_array(values, tensor.name))


def to_float16(model: onnx.ModelProto, dtype=np.float16) -> onnx.ModelProto:
    """`model` in `dtype` (np.float16 or BF16), see the module doc."""
    dtype = np.dtype(dtype)
    target = helper.np_dtype_to_tensor_dtype(dtype)
    converted = onnx.ModelProto()
    converted.CopyFrom(model)
    graph = converted.graph
    for tensor in graph.initializer:
        _narrowed(tensor, dtype)
    for info in (*graph.input, *graph.output):
        if info.type.tensor_type.elem_type == TensorProto.FLOAT:
            info.type.tensor_type.elem_type = target
    del graph.value_info[:]
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == AttributeProto.TENSOR:
                _narrowed(attr.t, dtype)
            if node.op_type == "Cast" and attr.name == "to" and attr.i == TensorProto.FLOAT:
                attr.i = target
    onnx.checker.check_model(converted)
    return converted
