"""Symbolic ONNX dims pinned to sizes before import, as onnxruntime's `make_dynamic_shape_fixed`
does: every `dim_param` NAME in the graph's inputs, outputs and intermediate `value_info` that
`dims` names becomes `dim_value` N.

The importer then sees static input shapes, so the shape computations transformers exports carry
(`Shape` of a symbolic input feeding `Reshape`, `Expand`, `Range`, ...) fold at import like any
other constant subgraph (`onnx_fold`), and ONNX's shape inference (run by the importer after
this) re-derives the intermediate shapes from the pinned inputs. It relies on each NAME meaning
one size everywhere in the graph (ONNX's own contract for a dim_param).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from onnx import ModelProto, ValueInfoProto

from fusionopt.importers.onnx_context import OnnxImportError


def parse_dim(text: str) -> tuple[str, int]:
    """`NAME=N` (N a positive integer) as (NAME, N), as `fusion-translate --dim` spells it."""
    name, sep, size = text.partition("=")
    if not sep or not name.strip() or not size.strip().isdigit() or int(size) < 1:
        raise OnnxImportError(f"--dim expects NAME=N with N a positive integer, got '{text}'")
    return name.strip(), int(size)


def parse_dims(texts: Iterable[str]) -> dict[str, int]:
    dims: dict[str, int] = {}
    for text in texts:
        name, size = parse_dim(text)
        if dims.get(name, size) != size:
            raise OnnxImportError(f"--dim {name} is given twice ({dims[name]} and {size})")
        dims[name] = size
    return dims


def _value_infos(model: ModelProto) -> Iterable[ValueInfoProto]:
    graph = model.graph
    return (*graph.input, *graph.output, *graph.value_info)


def symbolic_dims(model: ModelProto) -> set[str]:
    """Every `dim_param` name in the graph's inputs, outputs and value_info."""
    return {d.dim_param for info in _value_infos(model) if info.type.HasField("tensor_type")
            for d in info.type.tensor_type.shape.dim if d.dim_param}


def pin_dims(model: ModelProto, dims: Mapping[str, int]) -> ModelProto:
    """A copy of `model` with each symbolic dim that `dims` names fixed to its size. A name the
    model's graph inputs do not carry is an error (a typo would otherwise pin nothing)."""
    if not dims:
        return model
    input_dims = {d.dim_param for info in model.graph.input if info.type.HasField("tensor_type")
                  for d in info.type.tensor_type.shape.dim if d.dim_param}
    unknown = sorted(set(dims) - input_dims)
    if unknown:
        have = ", ".join(sorted(input_dims)) or "none"
        raise OnnxImportError(f"--dim {unknown[0]}: the model's inputs have no symbolic dim "
                              f"'{unknown[0]}' (they have: {have})")
    pinned = ModelProto()
    pinned.CopyFrom(model)
    for info in _value_infos(pinned):
        if not info.type.HasField("tensor_type"):
            continue
        for d in info.type.tensor_type.shape.dim:
            if d.dim_param in dims:
                d.dim_value = dims[d.dim_param]  # sets the oneof: the dim_param is dropped
    return pinned
