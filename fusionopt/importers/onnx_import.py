"""Import an ONNX model into the `graph` dialect: `import_onnx(model_or_path) -> ModuleOp`.

The result is one `func.func @main_graph` whose arguments are the ONNX graph inputs in their
ONNX order (each carries `{onnx.name = "<input name>"}` and the name as SSA name hint), whose
body is `graph` ops plus `arith.constant dense<...>` for initializers, and whose results are
the graph outputs. Every op carries `loc("<ONNX node name>")`.

`weights` chooses what initializers become:
- `"inline"` (default): every initializer is an import-time constant (an `arith.constant` when
  a graph op uses it). Constant weights are what `graph-horizontal-fuse-dots` needs.
- `"args"`: float initializers with more than one element (the weights) become extra function
  arguments after the graph inputs, in initializer order (same `onnx.name` attribute); small
  and integer initializers (shapes, indices, scalars) stay constants because static shapes need
  them at import time.

Shapes: `onnx.shape_inference` runs first, every graph input must have a static shape, and
every value the importer builds is checked against the inferred type. Nodes whose inputs are
all known at import time are evaluated with ONNX's reference implementation (constant folding,
as MIGraphX's `propagate_constant`), so `Shape`/`ConstantOfShape`/`Constant` chains and ops
on constants only (e.g. `GatherElements` on buffers) never reach the IR.

Errors (unsupported op, dynamic shape, non-constant shape operand) raise `OnnxImportError`
(a `FusionError`): `unsupported ONNX op 'X' (node 'name')`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

import re
from pathlib import Path

import numpy as np
import onnx
from onnx import ModelProto, NodeProto, TensorProto, ValueInfoProto, numpy_helper
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, TensorType
from xdsl.ir import Block, Region, SSAValue

from fusionopt.importers.onnx_context import (
    ImportContext,
    OnnxImportError,
    Value,
    carried_element,
    element,
    element_of_array,
    mlir_element,
    shape,
)
from fusionopt.importers.onnx_dims import pin_dims
from fusionopt.importers.onnx_fold import fold_node, is_foldable
from fusionopt.importers.onnx_ops import HANDLERS as ELEMENTWISE_HANDLERS
from fusionopt.importers.onnx_ops_activations import HANDLERS as ACTIVATION_HANDLERS
from fusionopt.importers.onnx_ops_cnn import HANDLERS as CNN_HANDLERS
from fusionopt.importers.onnx_ops_einsum import HANDLERS as EINSUM_HANDLERS
from fusionopt.importers.onnx_ops_nn import HANDLERS as NN_HANDLERS
from fusionopt.importers.onnx_ops_quant import HANDLERS as QUANT_HANDLERS
from fusionopt.importers.onnx_ops_rearrange import HANDLERS as REARRANGE_HANDLERS
from fusionopt.importers.onnx_ops_recurrent import HANDLERS as RECURRENT_HANDLERS
from fusionopt.importers.onnx_ops_resample import HANDLERS as RESAMPLE_HANDLERS
from fusionopt.importers.onnx_ops_sample import HANDLERS as SAMPLE_HANDLERS
from fusionopt.importers.onnx_ops_spectral import HANDLERS as SPECTRAL_HANDLERS
from fusionopt.importers.onnx_ops_topk import HANDLERS as TOPK_HANDLERS
from fusionopt.progress import Progress

HANDLERS = {**ELEMENTWISE_HANDLERS, **NN_HANDLERS, **CNN_HANDLERS, **RESAMPLE_HANDLERS, **EINSUM_HANDLERS,
            **REARRANGE_HANDLERS, **ACTIVATION_HANDLERS, **QUANT_HANDLERS, **RECURRENT_HANDLERS,
            **SPECTRAL_HANDLERS, **SAMPLE_HANDLERS, **TOPK_HANDLERS}
SUPPORTED_OPS = tuple(sorted(HANDLERS))
WEIGHT_MODES = ("inline", "args")
ENTRY_NAME = "main_graph"

__all__ = ["OnnxImportError", "SUPPORTED_OPS", "import_onnx", "load_model"]


def load_model(model_or_path: ModelProto | str | Path) -> ModelProto:
    if isinstance(model_or_path, ModelProto):
        return model_or_path
    try:
        return onnx.load(str(model_or_path))
    except FileNotFoundError:
        raise OnnxImportError(f"could not open input file '{model_or_path}': No such file") from None
    except Exception as err:  # onnx raises DecodeError & co. for files that are not ONNX
        raise OnnxImportError(f"could not read ONNX model '{model_or_path}': {err}") from None


def import_onnx(
    model_or_path: ModelProto | str | Path, weights: str = "inline", *, progress: TextIO | None = None,
    dims: Mapping[str, int] | None = None,
) -> ModuleOp:
    """The model as a verified `builtin.module` holding `func.func @main_graph`. `progress`: a
    terminal for the node-by-node progress line (`fusionopt.progress`), None for none. `dims`:
    symbolic dims pinned to sizes before import (`onnx_dims.pin_dims`; `--dim NAME=N`)."""
    if weights not in WEIGHT_MODES:
        raise OnnxImportError(f"weights must be one of {', '.join(WEIGHT_MODES)}, got '{weights}'")
    model = pin_dims(load_model(model_or_path), dims or {})
    inferred, raw = shapes_apart_from_weights(model, restore=model is model_or_path)
    return GraphImporter(inferred, weights, progress, raw).run()


# Bytes above which an initializer is a weight, never a shape-like input that inference reads.
WEIGHT_BYTES = 4096


def infer_shapes(model: ModelProto) -> ModelProto:
    """ONNX's shape inference, on the model without its weights' bytes (it copies the model to
    C++ and back: a tenth of a second per 10 MB): they are put back in the result (and in
    `model`). Should an inference function read a weight after all, it fails strictly and runs
    on the whole model."""
    inferred, weights = shapes_apart_from_weights(model, restore=True)
    _put_back(inferred, weights)
    return inferred


def shapes_apart_from_weights(model: ModelProto, restore: bool) -> tuple[ModelProto, dict[str, bytes]]:
    """`infer_shapes` without putting the weights back in its result: (the inferred model, the
    stripped initializers' bytes by name), for the importer, which reads them from there
    without copying (each copy into or out of protobuf costs ~50 ms on RegNetX-400MF's 22 MB).
    `restore`: put them back in `model` too (the caller's); else it is left stripped."""
    weights = {t.name: t.raw_data for t in model.graph.initializer if len(t.raw_data) > WEIGHT_BYTES}
    for tensor in model.graph.initializer:
        if tensor.name in weights:
            tensor.ClearField("raw_data")
    try:
        inferred = _run_shape_inference(model)
    except OnnxImportError:
        inferred = None
    if restore or inferred is None:
        _put_back(model, weights)
    if inferred is None:
        return _run_shape_inference(model), {}
    return inferred, weights


def _put_back(model: ModelProto, weights: Mapping[str, bytes]) -> None:
    for tensor in model.graph.initializer:
        if tensor.name in weights:
            tensor.raw_data = weights[tensor.name]


def _run_shape_inference(model: ModelProto) -> ModelProto:
    try:
        return onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
    except Exception as err:  # InferenceError: the model itself is inconsistent
        raise OnnxImportError(f"ONNX shape inference failed: {err}") from None


def default_opset(model: ModelProto) -> int:
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            return entry.version
    raise OnnxImportError("the model does not import the default ONNX domain")


def _static_type(info: ValueInfoProto, what: str) -> TensorType:
    if not info.type.HasField("tensor_type"):
        raise OnnxImportError(f"{what} '{info.name}' is not a tensor")
    t = info.type.tensor_type
    if not t.HasField("shape"):
        raise OnnxImportError(f"dynamic shape: {what} '{info.name}' has an unknown rank "
                              "(only static shapes are supported)")
    dims = []
    for i, d in enumerate(t.shape.dim):
        if not d.HasField("dim_value"):
            if d.dim_param:
                hint = f"pin it with --dim {d.dim_param}=N"
                label = f"'{d.dim_param}'"
            else:
                hint, label = "only symbolic dims can be pinned (--dim NAME=N)", "unknown"
            raise OnnxImportError(f"dynamic shape: {what} '{info.name}' dim {i} is {label} "
                                  f"(only static shapes are supported: {hint})")
        dims.append(d.dim_value)
    return TensorType(mlir_element(t.elem_type, f"{what} '{info.name}'"), dims)


def ssa_name(onnx_name: str) -> str | None:
    """An SSA name hint for an ONNX name (MLIR allows [A-Za-z0-9_.$-])."""
    cleaned = re.sub(r"[^A-Za-z0-9_.$-]", "_", onnx_name)
    return cleaned if cleaned and not cleaned[0].isdigit() else None


def _is_weight(tensor: TensorProto) -> bool:
    is_float = tensor.data_type in (TensorProto.FLOAT, TensorProto.FLOAT16,
                                    TensorProto.BFLOAT16, TensorProto.DOUBLE)
    return is_float and int(np.prod(tensor.dims)) > 1


# Element types whose raw bytes are their numpy array as they are (little-endian).
RAW_DTYPES = {TensorProto.FLOAT: "<f4", TensorProto.DOUBLE: "<f8", TensorProto.FLOAT16: "<f2",
              TensorProto.INT32: "<i4", TensorProto.INT64: "<i8", TensorProto.INT8: "i1",
              TensorProto.UINT8: "u1", TensorProto.INT16: "<i2", TensorProto.UINT16: "<u2"}


def initializer_array(tensor: TensorProto, raw: bytes | None) -> np.ndarray:
    """The initializer's values; given its bytes kept apart, a read-only view of them (no copy,
    and `dense.numpy_to_dense` stores that same bytes object), else numpy's conversion."""
    if raw is not None and tensor.data_type in RAW_DTYPES:
        return np.frombuffer(raw, dtype=RAW_DTYPES[tensor.data_type]).reshape(tuple(tensor.dims))
    if raw is not None:
        tensor.raw_data = raw
    return numpy_helper.to_array(tensor)


def _is_ceil_mode_pool(node: NodeProto | None) -> bool:
    return (node is not None and node.op_type in ("MaxPool", "AveragePool")
            and any(a.name == "ceil_mode" and a.i for a in node.attribute))


class GraphImporter:
    """Builds `@main_graph` node by node (ONNX graphs are topologically sorted)."""

    def __init__(self, model: ModelProto, weights: str, progress: TextIO | None = None,
                 raw: Mapping[str, bytes] | None = None):
        self.progress = progress
        self.raw = raw or {}  # initializers' bytes kept apart from the model (`shapes_apart_from_weights`)
        self.graph = model.graph
        self.opset = default_opset(model)
        self.weights = weights
        self.inferred = {v.name: v for v in (*self.graph.value_info, *self.graph.output)}

    def run(self) -> ModuleOp:
        initializers = {t.name: t for t in self.graph.initializer}
        inputs = [i for i in self.graph.input if i.name not in initializers]
        arg_names = [i.name for i in inputs]
        arg_types = [_static_type(i, "input") for i in inputs]
        if self.weights == "args":
            moved = [t for t in self.graph.initializer if _is_weight(t)]
            arg_names += [t.name for t in moved]
            arg_types += [self._initializer_type(t) for t in moved]
        block = Block(arg_types=arg_types)
        ctx = ImportContext(block, self.opset)
        for name, arg in zip(arg_names, block.args):
            arg.name_hint = ssa_name(name)
            ctx.values[name] = arg
        for name, tensor in initializers.items():
            if name not in ctx.values:
                ctx.values[name] = initializer_array(tensor, self.raw.get(name))
        progress = Progress(self.progress, len(self.graph.node))
        try:
            for index, node in enumerate(self.graph.node):
                progress.step(index, f"{node.op_type} {node.name}")
                self.import_node(ctx, node)
        finally:
            progress.done()
        ctx.node = None
        results = [self._output(ctx, o) for o in self.graph.output]
        block.add_op(func.ReturnOp(*results))
        return self._module(block, arg_names, [r.type for r in results])

    @staticmethod
    def _initializer_type(tensor: TensorProto) -> TensorType:
        return TensorType(mlir_element(tensor.data_type, f"initializer '{tensor.name}'"),
                          list(tensor.dims))

    def import_node(self, ctx: ImportContext, node: NodeProto) -> None:
        ctx.node = node
        if node.domain not in ("", "ai.onnx"):
            raise ctx.error(f"unsupported ONNX op '{node.domain}.{node.op_type}'")
        ins = ctx.inputs(node)
        if is_foldable(node, ins):
            outs = fold_node(ctx, node, ins)
        elif node.op_type in HANDLERS:
            outs = HANDLERS[node.op_type](ctx, ins)
        else:
            raise ctx.error(f"unsupported ONNX op '{node.op_type}'")
        for i, name in enumerate(node.output):
            if not name:
                continue
            if i >= len(outs):
                raise ctx.error(f"output {i} of {node.op_type} is not supported")
            self._check_inferred(ctx, name, outs[i])
            if isinstance(outs[i], SSAValue) and outs[i].name_hint is None:
                outs[i].name_hint = ssa_name(name)
            ctx.values[name] = outs[i]

    def _check_inferred(self, ctx: ImportContext, name: str, value: Value) -> None:
        """Our result must have ONNX's inferred type (catches importer bugs early)."""
        info = self.inferred.get(name)
        if info is None or not info.type.tensor_type.HasField("shape"):
            return
        dims = [d.dim_value if d.HasField("dim_value") else None
                for d in info.type.tensor_type.shape.dim]
        ours = shape(value)
        same_shape = len(dims) == len(ours) and all(d is None or d == o for d, o in zip(dims, ours))
        expected_elem = carried_element(info.type.tensor_type.elem_type, f"value '{name}'")
        if not same_shape and _is_ceil_mode_pool(ctx.node):
            # ONNX's shape inference keeps a ceil_mode window that starts in the end padding;
            # onnxruntime and PyTorch drop it (as graph.pool does), so every later inferred
            # shape may be off by one: stop checking against them.
            self.inferred = {}
            return
        if not same_shape or element(value) != expected_elem:
            raise ctx.error(f"internal importer error: '{name}' was built as {list(ours)} x "
                            f"{element(value)} but ONNX infers {dims} x {expected_elem}")

    def _output(self, ctx: ImportContext, info: ValueInfoProto) -> SSAValue:
        value = ctx.lookup(info.name)
        if isinstance(value, np.ndarray):
            return ctx.ssa(value, element_of_array(value))
        return value

    def _module(self, block: Block, arg_names: list[str], result_types) -> ModuleOp:
        arg_attrs = ArrayAttr([DictionaryAttr({"onnx.name": StringAttr(n)}) for n in arg_names])
        fn = func.FuncOp(ENTRY_NAME, ([a.type for a in block.args], result_types),
                         Region(block), arg_attrs=arg_attrs)
        module = ModuleOp([fn])
        try:
            module.verify()
        except Exception as err:
            raise OnnxImportError(f"internal importer error: the imported IR does not verify: "
                                  f"{err}") from None
        return module
