"""ONNX models whose inputs keep symbolic dims: imported with `?` dims through IREE's ONNX importer.

`import_onnx_dynamic(path, dims) -> ModuleOp` runs `iree-import-onnx` (torch-mlir's importer,
shipped in `iree-base-compiler`) and then `iree-opt` with torch-mlir's
`torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline`, and
parses the result: one `func.func @main_graph` in linalg on tensors, a `?` for every dim still
symbolic (with its shape arithmetic and `tensor.dim`s), weights inline as `dense_resource`
blobs. This is the file IREE's own ONNX route compiles, so our `dispatch-creation-*` pipelines
take it as they take any torch-mlir output, and IREE builds the result.

Why not our importer: the `graph` dialect is static-shaped by design (horizontal fusion,
reassociation and the cost model all read sizes), and a dynamic linalg importer of our own
would duplicate torch-mlir's ONNX lowering, which IREE maintains. Pinning with `--dim NAME=N`
(`onnx_dims`) keeps the graph route; a model with some dims pinned and others not comes here
pinned. Weights come inline only (torch-mlir's importer keeps initializers in the module).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import onnx
from onnx import ModelProto
from xdsl.dialects.builtin import ModuleOp

from fusionopt.importers.onnx_context import OnnxImportError
from fusionopt.importers.onnx_import import infer_shapes

IMPORTER = "iree-import-onnx"
OPTIMIZER = "iree-opt"
# `lower-affine` last: torch-mlir's shape arithmetic can be semi-affine (`s0 * s1`, a Reshape
# over two dynamic dims), which xDSL's affine maps cannot hold; as arith ops it parses.
TORCH_TO_LINALG = ("builtin.module(torch-onnx-to-torch-backend-pipeline,"
                   "torch-backend-to-linalg-on-tensors-backend-pipeline,func.func(lower-affine))")
TOOL_TIMEOUT_SECONDS = 1800


def dynamic_inputs(model: ModelProto) -> list[str]:
    """`input 'NAME' dim I is 'SYMBOL'` (or of unknown rank) for every input dim without a size."""
    found = []
    for info in model.graph.input:
        tensor = info.type.tensor_type
        if not tensor.HasField("shape"):
            found.append(f"input '{info.name}' has an unknown rank")
            continue
        for i, dim in enumerate(tensor.shape.dim):
            if not dim.HasField("dim_value"):
                found.append(f"input '{info.name}' dim {i} is '{dim.dim_param or '?'}'")
    return found


def _find_tool(name: str) -> str:
    """An IREE tool on PATH, else next to this Python (a venv's bin/)."""
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        raise OnnxImportError(
            f"dynamic shape: importing symbolic dims needs IREE's ONNX importer ({name} not found; "
            "`pip install iree-base-compiler`), or pin every symbolic dim with --dim NAME=N")
    return found


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=TOOL_TIMEOUT_SECONDS)
    if result.returncode != 0:  # the last line says why (a Python traceback's exception, an MLIR error)
        lines = result.stderr.strip().splitlines() or ["(no diagnostics)"]
        raise OnnxImportError(f"{Path(command[0]).name} failed (exit {result.returncode}): {lines[-1][:2000]}")


def linalg_text(model: ModelProto, work: Path) -> str:
    """torch-mlir's linalg-on-tensors text for `model` (written into `work`)."""
    onnx_path, torch_path, linalg_path = work / "model.onnx", work / "torch.mlir", work / "linalg.mlir"
    # iree-import-onnx checks the model fully: outputs need their types, which exporters (and
    # hand-written models) may leave to inference (our importer's, run without the weights' bytes).
    onnx.save_model(infer_shapes(model), onnx_path)
    _run([_find_tool(IMPORTER), str(onnx_path), "-o", str(torch_path)])
    _run([_find_tool(OPTIMIZER), f"--pass-pipeline={TORCH_TO_LINALG}", str(torch_path), "-o", str(linalg_path)])
    return linalg_path.read_text()


def import_onnx_dynamic(model: ModelProto, source_name: str = "model.onnx") -> ModuleOp:
    """`model` in linalg on tensors, its dynamic dims `?` (pin some first with `pin_dims`)."""
    from fusionopt.ir_io import parse_module  # the parser loads every dialect: only when used

    with tempfile.TemporaryDirectory(prefix="fusionopt-onnx-") as work:
        text = linalg_text(model, Path(work))
    return parse_module(text, f"{source_name} (torch-mlir linalg)")
