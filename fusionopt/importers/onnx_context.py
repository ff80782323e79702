"""State shared by the ONNX importer's op handlers: the value environment and IR emission.

An ONNX value name maps to either
- a numpy array: known at import time (initializers in `inline` mode, `Constant`, folded
  shape computations). It only becomes an `arith.constant` when a graph op needs it as an
  operand (`ImportContext.ssa`), so shape operands (`Reshape`'s shape, `Slice`'s starts...)
  never appear in the IR, as in MIGraphX's and onnx-mlir's importers;
- an `SSAValue` of the function being built.

Every op emitted while a node is imported gets `loc("<node name>")` (an MLIR `NameLoc`), so
diagnostics and `--mlir-print-debuginfo` point back at the ONNX node.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from onnx import NodeProto, TensorProto, helper
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
    f16,
    f32,
    f64,
    i1,
    i32,
    i64,
    bf16,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from fusionopt.diagnostics import FusionError
from fusionopt.dialects.dense import numpy_to_dense

Value = SSAValue | np.ndarray

ONNX_TO_MLIR: dict[int, Attribute] = {
    TensorProto.FLOAT: f32,
    TensorProto.FLOAT16: f16,
    TensorProto.BFLOAT16: bf16,
    TensorProto.DOUBLE: f64,
    TensorProto.INT32: i32,
    TensorProto.INT64: i64,
    TensorProto.BOOL: i1,
}


# Quantized element types, carried as f32 holding their exact integers (`onnx_ops_quant.py`).
QUANTIZED_TYPES = {TensorProto.INT8: np.int8, TensorProto.UINT8: np.uint8,
                   TensorProto.INT16: np.int16, TensorProto.UINT16: np.uint16}
QUANTIZED_DTYPE_NAMES = {np.dtype(d).name for d in QUANTIZED_TYPES.values()}


class OnnxImportError(FusionError):
    """A model the importer cannot translate (unsupported op, dynamic shape, bad attribute)."""


def mlir_element(onnx_type: int, what: str) -> Attribute:
    if onnx_type not in ONNX_TO_MLIR:
        name = TensorProto.DataType.Name(onnx_type) if onnx_type in TensorProto.DataType.values() \
            else str(onnx_type)
        raise OnnxImportError(f"unsupported ONNX element type {name} ({what})")
    return ONNX_TO_MLIR[onnx_type]


def carried_element(onnx_type: int, what: str) -> Attribute:
    """The element type our IR gives an ONNX value: f32 for the quantized types."""
    return f32 if onnx_type in QUANTIZED_TYPES else mlir_element(onnx_type, what)


def numpy_dtype_of(element: Attribute) -> np.dtype:
    """The dtype import-time constants use for `element` (bf16 computes in float32)."""
    if isinstance(element, (Float32Type, BFloat16Type)):
        return np.dtype(np.float32)
    if isinstance(element, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element, Float64Type):
        return np.dtype(np.float64)
    return {1: np.dtype(np.bool_), 32: np.dtype(np.int32), 64: np.dtype(np.int64)}[
        element.width.data]  # type: ignore[attr-defined]


def element_of_array(array: np.ndarray) -> Attribute:
    # by name: bf16 arrays (onnx's `to_array` of a BFLOAT16 tensor) are ml_dtypes', not numpy's
    kinds = {"float32": f32, "float16": f16, "bfloat16": bf16, "float64": f64, "int32": i32, "int64": i64,
             "bool": i1}
    if array.dtype.name in QUANTIZED_DTYPE_NAMES:
        return f32
    if array.dtype.name not in kinds:
        raise OnnxImportError(f"unsupported constant element type {array.dtype}")
    return kinds[array.dtype.name]


def shape(value: Value) -> tuple[int, ...]:
    if isinstance(value, np.ndarray):
        return tuple(value.shape)
    assert isinstance(value.type, TensorType)
    return tuple(value.type.get_shape())


def element(value: Value) -> Attribute:
    if isinstance(value, np.ndarray):
        return element_of_array(value)
    assert isinstance(value.type, TensorType)
    return value.type.get_element_type()


class ImportContext:
    """The block being filled, the ONNX name -> value environment, and the current node."""

    def __init__(self, block: Block, opset: int):
        self.block = block
        self.opset = opset
        self.values: dict[str, Value] = {}
        self.node: NodeProto | None = None
        self._constants: dict[tuple, tuple[np.ndarray, SSAValue]] = {}  # (id, type) -> const
        self._splats: dict[tuple, SSAValue] = {}

    # -- environment ----------------------------------------------------------------------

    def lookup(self, name: str) -> Value:
        if name not in self.values:
            raise OnnxImportError(f"value '{name}' is used before it is defined{self.where()}")
        return self.values[name]

    def inputs(self, node: NodeProto) -> list[Value | None]:
        """The node's inputs; an empty name (an omitted optional input) gives None."""
        return [self.lookup(n) if n else None for n in node.input]

    def where(self) -> str:
        return f" (node '{self.node.name or self.node.op_type}')" if self.node is not None else ""

    def error(self, message: str) -> OnnxImportError:
        return OnnxImportError(f"{message}{self.where()}")

    def attr(self, name: str, default=None):
        assert self.node is not None
        for a in self.node.attribute:
            if a.name == name:
                return helper.get_attribute_value(a)
        return default

    def text_attr(self, name: str, default: str) -> str:
        """A string attribute (onnx gives bytes) as text."""
        raw = self.attr(name, default)
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    def constant_input(self, value: Value | None, what: str) -> np.ndarray:
        """An input the importer needs at import time (shape, axes, indices...)."""
        if not isinstance(value, np.ndarray):
            raise self.error(f"{what} must be a constant (static shapes only)")
        return value

    # -- emission -------------------------------------------------------------------------

    def emit(self, op: Operation) -> SSAValue:
        """Append `op` located at the current node; returns its single result."""
        if self.node is not None:
            op.location = NameLoc(StringAttr(self.node.name or self.node.op_type), NoneAttr())
        self.block.add_op(op)
        return op.results[0]

    def ssa(self, value: Value, like: Attribute | None = None) -> SSAValue:
        """`value` as an SSA value; numpy arrays become (cached) `arith.constant`s.

        `like` converts a constant to that element type first (ONNX scalars of another width)."""
        if isinstance(value, SSAValue):
            return value
        if like is None and value.dtype.name in QUANTIZED_DTYPE_NAMES:
            like = f32
        key = (id(value), like)
        if key not in self._constants:  # the array is stored too, so its id stays unique
            array = value if like is None else value.astype(numpy_dtype_of(like), copy=False)
            attr = numpy_to_dense(np.ascontiguousarray(array), self._tensor_type(array, like))
            self._constants[key] = (value, self.emit(arith.ConstantOp(attr)))
        return self._constants[key][1]

    @staticmethod
    def _tensor_type(value: np.ndarray, like: Attribute | None) -> TensorType:
        return TensorType(like if like is not None else element_of_array(value), list(value.shape))

    def splat(self, scalar: float | int | bool, out_shape: Sequence[int], elem: Attribute) -> SSAValue:
        """A compact splat constant of `out_shape` (dense<v>), one per (value, type)."""
        array = np.full(tuple(out_shape), scalar, dtype=numpy_dtype_of(elem))
        key = (array.reshape(-1)[:1].tobytes(), array.shape, elem)
        if key not in self._splats:
            self._splats[key] = self.ssa(array, elem)
        return self._splats[key]
