"""ONNX files as benchmark models (bench/iree_runtime.py `--models path/to/X.onnx`).

A model named by a path ending in `.onnx` (not a corpus model) has no torch-mlir linalg file,
so the baseline is what an IREE user gets from that file: `iree-import-onnx X.onnx`, then
`iree-compile` (`iree-default`, `iree-best`, `aa`). `ours-onnx` is `fusion-opt X.onnx
-p graph-to-dispatch` (the import in-process); the variants that start from the
linalg file do not apply. Inputs follow the ONNX graph inputs: the first (the image) gets the
family's raw values, the others (weights, in a `.args.onnx` file) are weights as in
`iree_bench_inputs`. The reference is our import of the file (the input program) on the numpy
interpreter in float64.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import onnx
from onnx import helper

LINALG_ONLY = "needs the corpus's torch-mlir linalg file (not applicable to an ONNX file model)"


def is_onnx_path(model: str) -> bool:
    return model.endswith(".onnx")


def iree_source(model: str, work_dir: Path) -> Path:
    """`iree-import-onnx` output for the ONNX file (made once into `work_dir`)."""
    out = work_dir / f"{Path(model).name}.iree.mlir"
    if not out.is_file():
        result = subprocess.run(["iree-import-onnx", model, "-o", str(out)], capture_output=True,
                                text=True)
        if result.returncode != 0:
            raise RuntimeError(f"iree-import-onnx {model}\nexit {result.returncode}:\n"
                               f"{result.stderr[-4000:]}")
    return out


def graph_inputs(model: str) -> list[tuple[str, list[int], np.dtype]]:
    """(name, shape, dtype) of the graph inputs that are not initializers, in order."""
    graph = onnx.load(model).graph
    inits = {t.name for t in graph.initializer}
    found = []
    for info in graph.input:
        if info.name in inits:
            continue
        tensor = info.type.tensor_type
        dtype = helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        found.append((info.name, [d.dim_value for d in tensor.shape.dim], np.dtype(dtype)))
    return found


def onnx_inputs(model: str, family: str, seed: int, model_input, weight) -> list[np.ndarray]:
    """Arguments in graph-input order: `model_input(name, shape, dtype, family, rng)` for the
    first, `weight(name, shape, dtype, family, rng)` for the rest. Token ids are taken modulo
    the table they index (`gather_rows`; a vocabulary under the family's range): an
    out-of-range index is undefined, and onnxruntime refuses it."""
    rng = np.random.default_rng(seed)
    rows = gather_rows(model)
    values = []
    for index, (name, shape, dtype) in enumerate(graph_inputs(model)):
        value = (model_input(name, shape, dtype, family, rng) if index == 0 else
                 weight(name, shape, dtype, family, rng))
        values.append(value % rows[name] if name in rows else value)
    return values


# Ops that only move an input's ids (XLNet transposes its ids to [seq, batch] before the lookup).
_ID_VIEWS = ("Transpose", "Reshape", "Squeeze", "Unsqueeze", "Flatten", "Identity")


def gather_rows(model: str) -> dict[str, int]:
    """Integer graph inputs that index the rows of a constant table (an embedding's `Gather`
    on axis 0, directly or through `_ID_VIEWS`): input -> the fewest rows of such a table."""
    graph = onnx.load(model).graph
    source = {i.name: i.name for i in graph.input if np.issubdtype(
        helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type), np.integer)}
    tables = {t.name: t.dims[0] for t in graph.initializer if t.dims}
    rows: dict[str, int] = {}
    for node in graph.node:
        if node.op_type in _ID_VIEWS and node.input[0] in source:
            source[node.output[0]] = source[node.input[0]]
        axis = next((a.i for a in node.attribute if a.name == "axis"), 0)
        if node.op_type == "Gather" and axis == 0 and node.input[1] in source and node.input[0] in tables:
            name = source[node.input[1]]
            rows[name] = min(rows.get(name, tables[node.input[0]]), tables[node.input[0]])
    return rows


def reference_module(model: str):
    """Our import of the ONNX file: the program the float64 reference runs."""
    from fusionopt.importers.onnx_import import import_onnx

    return import_onnx(model)
