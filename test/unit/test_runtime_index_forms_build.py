"""The forms of ONNX GatherND and ScatterElements with indices computed in the graph (CLIP's
pooled token, GroupViT's argmax one-hot), and of the ArgMax of CLIP's int32 ids, build with `iree-compile` for llvm-cpu (host) and for
CUDA sm_80 (no GPU needed) from the pipeline of each target, and IREE's CPU run agrees with
onnxruntime, indices at the range ends and negative included. Integer reductions are what
IREE's CUDA codegen fails to distribute, so the forms avoid them or count in i32."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.iree_tools import compile_vmfb, iree_available, run_vmfb, target_flags
from fusionopt.ir_io import print_module
from fusionopt.testing import apply_pipeline
from support.onnx_single_node import make_model

ort = pytest.importorskip("onnxruntime")
pytestmark = pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and iree.runtime) is not installed")

rng = np.random.default_rng(7)
CASES = {
    "argmax-int32": ("ArgMax", {"x": np.array([[3, 2**31 - 1, -2**31, 2**31 - 1, 0]], np.int32)}, {"axis": -1}),
    "gathernd": ("GatherND", {"d": rng.standard_normal((2, 16, 8)).astype(np.float32),
                              "i": np.array([[0, 15], [1, -16], [-1, 3]], dtype=np.int64)}, {}),
    "scatter-one-hot": ("ScatterElements", {"data": np.zeros((1, 5, 9), np.float32),
                                            "indices": np.array([[[0, 4, -1, 2, 2, -5, 3, 1, 0]]], np.int64),
                                            "updates": np.ones((1, 1, 9), np.float32)}, {"axis": 1}),
    "scatter-rows": ("ScatterElements", {"data": rng.standard_normal((4, 8)).astype(np.float32),
                                         "indices": np.array([[1, 0, 3, 1, 2, 2, 0, 3], [3, 2, 1, 0, -1, -2, -3, -4]],
                                                             np.int64),
                                         "updates": rng.standard_normal((2, 8)).astype(np.float32)}, {"axis": 0}),
}


def _model(name):
    op, runtime, attrs = CASES[name]
    order = ["data", "indices", "updates"] if op == "ScatterElements" else None
    return make_model(op, runtime, {}, **({"order": order} if order else {}), **attrs), runtime


@pytest.mark.parametrize("name", CASES)
def test_iree_builds_for_cpu_and_agrees_with_onnxruntime(name, tmp_path):
    model, runtime = _model(name)
    source = tmp_path / "m.mlir"
    source.write_text(print_module(apply_pipeline(import_onnx(model), "graph-to-dispatch-llvm-cpu")))
    vmfb = compile_vmfb(source, tmp_path / "m.vmfb", target_flags("llvm-cpu"))
    (got,) = run_vmfb(vmfb, list(runtime.values()), "main_graph")
    (want,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, runtime)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", CASES)
def test_iree_builds_for_cuda_sm80(name, tmp_path):
    model, _ = _model(name)
    source = tmp_path / "m.mlir"
    source.write_text(print_module(apply_pipeline(import_onnx(model), "graph-to-dispatch-cuda")))
    assert compile_vmfb(source, tmp_path / "m.vmfb", target_flags("cuda")).stat().st_size > 0
