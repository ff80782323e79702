"""An f32 ONNX model as the same model in f16 (what onnxconverter-common's
`convert_float_to_float16` makes, without that dependency): float initializers, graph inputs
and outputs, Constant tensors and Cast targets become FLOAT16; intermediate value_info is dropped
so the importer's shape inference re-derives it. Values past f16's range (a mask's -FLT_MAX)
become -inf / +inf, as the converter's do without clipping."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, numpy_helper


def _to_f16(tensor: TensorProto) -> None:
    if tensor.data_type == TensorProto.FLOAT:
        with np.errstate(over="ignore"):
            values = numpy_helper.to_array(tensor).astype(np.float16)
        tensor.CopyFrom(numpy_helper.from_array(values, tensor.name))


def to_float16(model: onnx.ModelProto) -> onnx.ModelProto:
    converted = onnx.ModelProto()
    converted.CopyFrom(model)
    graph = converted.graph
    for tensor in graph.initializer:
        _to_f16(tensor)
    for info in (*graph.input, *graph.output):
        if info.type.tensor_type.elem_type == TensorProto.FLOAT:
            info.type.tensor_type.elem_type = TensorProto.FLOAT16
    del graph.value_info[:]
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == AttributeProto.TENSOR:
                _to_f16(attr.t)
            if node.op_type == "Cast" and attr.name == "to" and attr.i == TensorProto.FLOAT:
                attr.i = TensorProto.FLOAT16
    onnx.checker.check_model(converted)
    return converted
