"""The attention tail of MIGraphX #2818 (`test/data/onnx/attn_tail.args.onnx`, weights as
arguments, and its linalg form `test/data/attn_tail.args.linalg.mlir`): ONNX ->
graph-to-dispatch and linalg -> dispatch-creation are 3 dispatches each (QKV projection,
probabilities x V with the V heads read in place, output projection; IREE's own import: 4, a
transpose of the V heads of its own), computing what the input program computes (random and
adversarial inputs against a float64 run) and what IREE's own build of the file computes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.interpreter import FAMILIES, family_inputs, run_function
from fusionopt.ir_io import parse_file, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_same_semantics
from support.attention_onnx_models import attn_tail
from support.iree_pairs import assert_agrees

ROOT = Path(__file__).resolve().parents[4]
ONNX_FILE = ROOT / "test" / "data" / "onnx" / "attn_tail.args.onnx"
LINALG_FILE = ROOT / "test" / "data" / "attn_tail.args.linalg.mlir"
PIPELINES = ("graph-to-dispatch", "graph-to-dispatch-llvm-cpu-fewest")
LINALG_PIPELINES = ("dispatch-creation", "dispatch-creation-llvm-cpu-fewest")
IREE_MISSING = "IREE compiler/runtime or iree-import-onnx not installed"


def test_committed_file_is_the_generators():
    assert onnx.load(ONNX_FILE).SerializeToString() == attn_tail().SerializeToString()


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_three_regions_computing_the_same(pipeline: str):
    graph = import_onnx(ONNX_FILE)
    formed = apply_pipeline(import_onnx(ONNX_FILE), pipeline)
    assert sum(op.name == "flow.dispatch.region" for op in formed.walk()) == 3
    assert_same_semantics(graph, formed, pipeline, seeds=(0,))


@pytest.mark.parametrize("family", ["random", "constant", "offset", "zeros", "mask"])
def test_regions_agree_with_onnxruntime(family: str):
    ort = pytest.importorskip("onnxruntime")
    formed = apply_pipeline(import_onnx(ONNX_FILE), "graph-to-dispatch-llvm-cpu-fewest")
    func = next(op for op in import_onnx(ONNX_FILE).walk() if op.name == "func.func")
    inputs = family_inputs(func, family, seed=1)
    session = ort.InferenceSession(str(ONNX_FILE), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    (want,) = session.run(None, dict(zip(names, inputs)))
    (got,) = run_function(formed, inputs)
    assert_agrees(np.asarray(got), want, family, rtol=1e-4)


@pytest.mark.parametrize("pipeline", LINALG_PIPELINES)
def test_linalg_three_regions_computing_the_same(pipeline: str):
    formed = apply_pipeline(parse_file(str(LINALG_FILE)), pipeline)
    assert sum(op.name == "flow.dispatch.region" for op in formed.walk()) == 3
    assert_same_semantics(parse_file(str(LINALG_FILE)), formed, pipeline, seeds=(0,))


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
def test_iree_builds_the_linalg_form_in_three_dispatches(tmp_path: Path):
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(parse_file(str(LINALG_FILE)), "dispatch-creation")))
    assert len(flow_dispatch_names(ours, cpu_flags())) == 3 < len(flow_dispatch_names(LINALG_FILE, cpu_flags()))
    _assert_builds_agree(ours, LINALG_FILE, tmp_path)


@pytest.mark.skipif(not iree_available() or shutil.which("iree-import-onnx") is None, reason=IREE_MISSING)
def test_iree_builds_three_dispatches_and_agrees(tmp_path: Path):
    theirs, ours = tmp_path / "theirs.mlir", tmp_path / "ours.mlir"
    subprocess.run(["iree-import-onnx", str(ONNX_FILE), "-o", str(theirs)], check=True, capture_output=True)
    ours.write_text(print_module(apply_pipeline(import_onnx(ONNX_FILE), "graph-to-dispatch")))
    assert len(flow_dispatch_names(ours, cpu_flags())) == 3 < len(flow_dispatch_names(theirs, cpu_flags()))
    _assert_builds_agree(ours, theirs, tmp_path)


def _assert_builds_agree(ours: Path, theirs: Path, tmp_path: Path) -> None:
    """Our build computes what IREE's build of its own input computes."""
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags())
    theirs_vmfb = compile_vmfb(theirs, tmp_path / "theirs.vmfb", cpu_flags())
    func = next(op for op in import_onnx(ONNX_FILE).walk() if op.name == "func.func")
    for family in FAMILIES:
        inputs = family_inputs(func, family, seed=0)
        assert_agrees(run_vmfb(ours_vmfb, inputs, "main_graph")[0], run_vmfb(theirs_vmfb, inputs, "main_graph")[0], family)
