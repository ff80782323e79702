"""An ONNX file as our tools read it: `import_onnx_file(path, dims, weights, progress, notes, tool)`.

`fusion-translate --import-onnx` and `fusion-opt MODEL.onnx` share it. The symbolic dims `dims`
names are pinned first (`onnx_dims.pin_dims`); a model whose inputs then have every size is
imported into the `graph` dialect (`onnx_import`), one with dims left symbolic into linalg on
tensors with `?` dims through IREE's ONNX importer (`onnx_dynamic`), which `notes` is told.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from xdsl.dialects.builtin import ModuleOp

from fusionopt.importers.onnx_context import OnnxImportError
from fusionopt.importers.onnx_dims import pin_dims
from fusionopt.importers.onnx_dynamic import dynamic_inputs, import_onnx_dynamic
from fusionopt.importers.onnx_import import import_onnx, load_model

def import_onnx_file(path: str, dims: Mapping[str, int] | None = None, weights: str = "inline", *,
                     progress: TextIO | None = None, notes: TextIO | None = None,
                     tool: str = "fusion-translate") -> ModuleOp:
    """The graph dialect when every input dim has a size (after `dims`), else IREE's importer's
    linalg with the dims left symbolic as `?` (said on `notes`, as `TOOL: note: ...`)."""
    model = pin_dims(load_model(path), dims or {})
    dynamic = dynamic_inputs(model)
    if not dynamic:
        return import_onnx(model, weights=weights, progress=progress)
    if weights != "inline":
        raise OnnxImportError(f"dynamic shape: {dynamic[0]}: --weights {weights} needs every "
                              "dim pinned (--dim NAME=N); dynamic dims import with inline weights")
    if notes is not None:
        notes.write(f"{tool}: note: {'; '.join(dynamic)}: kept dynamic (`?`) by importing with "
                    "IREE's ONNX importer into linalg on tensors, where the graph-to-dispatch-* "
                    "pipelines run their dispatch-creation stages only (--dim NAME=N pins it for "
                    "the graph dialect)\n")
    return import_onnx_dynamic(model, Path(path).name)
