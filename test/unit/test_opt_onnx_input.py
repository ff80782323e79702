"""`fusion-opt MODEL.onnx`: the ONNX file imported in the same process (as `fusion-translate
--import-onnx` imports it), then the pipeline: the output is byte-identical to the two-tool
route's; `--dim` pins a symbolic dim (and is refused on MLIR input); flags that need MLIR text
are refused; an import error is a user error."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from fusionopt.opt_main import main as fusion_opt
from fusionopt.tools import fusion_translate

DATA = Path(__file__).resolve().parents[1] / "data" / "onnx"


def run_opt(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = fusion_opt(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("model", "pipeline"), [
    ("conv_bn_relu.onnx", "graph-to-dispatch-llvm-cpu"),
    ("squeeze_excite.onnx", "graph-to-dispatch"),
    ("inception.onnx", "graph-simplify"),
])
def test_same_output_as_translate_then_opt(model: str, pipeline: str, tmp_path: Path):
    graph = tmp_path / "graph.mlir"
    assert fusion_translate.run(["--import-onnx", str(DATA / model), "-o", str(graph)]) == 0
    code, two_tools, err = run_opt([str(graph), "-p", pipeline])
    assert code == 0, err
    code, one_tool, err = run_opt([str(DATA / model), "-p", pipeline])
    assert code == 0, err
    assert one_tool == two_tools
    assert ("flow.dispatch.region" in one_tool) == pipeline.startswith("graph-to-dispatch")


def test_dim_pins_a_symbolic_dim():
    code, out, err = run_opt([str(DATA / "dynamic_shape.onnx"), "--dim", "batch=4", "-p", "convert-graph-to-linalg"])
    assert code == 0, err
    assert "tensor<4x3xf32>" in out and "?" not in out.split("func.func", 1)[1].split("{", 1)[0]


@pytest.mark.skipif(shutil.which("iree-import-onnx") is None, reason="IREE's ONNX importer is not installed")
def test_unpinned_dim_is_imported_dynamic():
    code, out, err = run_opt([str(DATA / "dynamic_shape.onnx"), "-p", "dispatch-creation-llvm-cpu"])
    assert code == 0, err
    assert "fusion-opt: note: input 'x' dim 0 is 'batch': kept dynamic" in err
    assert "(%arg0: tensor<?x3xf32>) -> tensor<?x3xf32>" in out and "flow.dispatch.region" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["-", "--dim", "seq=4"], "--dim applies to an ONNX input (MODEL.onnx)"),
    ([str(DATA / "conv_bn_relu.onnx"), "--split-input-file"], "--split-input-file needs MLIR text, not an ONNX input"),
    ([str(DATA / "conv_bn_relu.onnx"), "--verify-diagnostics"], "--verify-diagnostics needs MLIR text"),
    ([str(DATA / "dynamic_shape.onnx"), "--dim", "seq=4"], "--dim seq: the model's inputs have no symbolic dim 'seq'"),
    ([str(DATA / "unsupported_op.onnx")], "error: unsupported ONNX op 'Hardmax' (node 'the_node')"),
    ([str(DATA / "missing.onnx")], "could not open input file"),
])
def test_user_errors(argv: list[str], message: str):
    code, out, err = run_opt(argv)
    assert code == 1 and message in err and "Traceback" not in err and out == ""
