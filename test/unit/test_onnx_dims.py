"""Symbolic ONNX dims pinned at import (`import_onnx(dims=...)`, `fusion-translate --dim NAME=N`):
a transformers-style model with symbolic `batch` and `seq` whose shape computations (Shape of
the input feeding Range, Reshape and Expand) fold once the dims are pinned, compared with
onnxruntime on the same pinned inputs; the errors; the CLI flag; dims left unpinned imported
dynamic through IREE's ONNX importer and run at several sizes against onnxruntime."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers import onnx_dynamic
from fusionopt.importers.onnx_context import OnnxImportError
from fusionopt.importers.onnx_dims import parse_dims, pin_dims, symbolic_dims
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_module
from fusionopt.testing import apply_pipeline, run_module
from fusionopt.tools import fusion_translate

ort = pytest.importorskip("onnxruntime")

VOCAB, HIDDEN, HEADS, MAX_POS = 32, 8, 2, 16


def _const(name: str, values, dtype=np.int64) -> onnx.NodeProto:
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(values, dtype), name))


def symbolic_model() -> onnx.ModelProto:
    """input_ids [batch, seq] -> token + position embeddings (positions Range(0, seq)), heads split
    by a Reshape to Shape(x)[:2] ++ [HEADS, -1], a projection, merged back by Reshape to
    Shape(input_ids) ++ [-1], plus a bias Expanded to Shape(x)."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((VOCAB, HIDDEN)).astype(np.float32), "tok"),
             numpy_helper.from_array(rng.standard_normal((MAX_POS, HIDDEN)).astype(np.float32), "pos"),
             numpy_helper.from_array(rng.standard_normal((HIDDEN // HEADS, HIDDEN // HEADS)).astype(np.float32), "w"),
             numpy_helper.from_array(rng.standard_normal((HIDDEN,)).astype(np.float32), "b")]
    nodes = [
        helper.make_node("Gather", ["tok", "input_ids"], ["x0"]),
        helper.make_node("Shape", ["input_ids"], ["ids_shape"]),
        helper.make_node("Shape", ["input_ids"], ["seq_1"], start=1, end=2),
        helper.make_node("Squeeze", ["seq_1"], ["seq"]),
        _const("zero", 0), _const("one", 1),
        helper.make_node("Range", ["zero", "seq", "one"], ["positions"]),
        helper.make_node("Gather", ["pos", "positions"], ["p"]),
        helper.make_node("Add", ["x0", "p"], ["x"]),
        helper.make_node("Shape", ["x"], ["x_shape"]),
        helper.make_node("Shape", ["x"], ["x_bs"], end=2),
        _const("heads_tail", [HEADS, -1]),
        helper.make_node("Concat", ["x_bs", "heads_tail"], ["split_shape"], axis=0),
        helper.make_node("Reshape", ["x", "split_shape"], ["xh"]),
        helper.make_node("MatMul", ["xh", "w"], ["yh"]),
        _const("minus_one", [-1]),
        helper.make_node("Concat", ["ids_shape", "minus_one"], ["merge_shape"], axis=0),
        helper.make_node("Reshape", ["yh", "merge_shape"], ["y0"]),
        helper.make_node("Expand", ["b", "x_shape"], ["bias"]),
        helper.make_node("Add", ["y0", "bias"], ["y"]),
    ]
    graph_ = helper.make_graph(
        nodes, "symbolic",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "seq", HIDDEN])],
        inits,
        value_info=[helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", HIDDEN])])
    model = helper.make_model(graph_, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


@pytest.mark.parametrize("batch, seq", [(1, 5), (3, 16)])
def test_pinned_import_agrees_with_onnxruntime(batch: int, seq: int):
    model = symbolic_model()
    module = import_onnx(model, dims={"batch": batch, "seq": seq})
    text = str(module)
    assert f"tensor<{batch}x{seq}xi64>" in text and f"tensor<{batch}x{seq}x{HIDDEN}xf32>" in text
    ids = np.random.default_rng(seq).integers(0, VOCAB, (batch, seq)).astype(np.int64)
    ours = run_module(module, [ids])[0]
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    expected = session.run(None, {"input_ids": ids})[0]
    assert ours.shape == expected.shape == (batch, seq, HIDDEN)
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-5)


def test_pin_dims_fixes_inputs_outputs_and_value_info_only_for_named_dims():
    model = symbolic_model()
    assert symbolic_dims(model) == {"batch", "seq"}
    pinned = pin_dims(model, {"seq": 7})
    assert symbolic_dims(pinned) == {"batch"}
    x = next(v for v in pinned.graph.value_info if v.name == "x")
    assert [d.dim_param or d.dim_value for d in x.type.tensor_type.shape.dim] == ["batch", 7, HIDDEN]
    assert symbolic_dims(model) == {"batch", "seq"}  # the caller's model is not changed


def test_unpinned_dim_error_names_the_flag():
    with pytest.raises(OnnxImportError) as err:
        import_onnx(symbolic_model(), dims={"seq": 4})
    assert err.value.message == ("dynamic shape: input 'input_ids' dim 0 is 'batch' (only static shapes "
                                 "are supported: pin it with --dim batch=N)")


def test_unknown_dim_name_is_an_error():
    with pytest.raises(OnnxImportError, match=r"--dim sequence: the model's inputs have no symbolic dim "
                                              r"'sequence' \(they have: batch, seq\)"):
        import_onnx(symbolic_model(), dims={"batch": 1, "sequence": 4})


@pytest.mark.parametrize("text", ["seq", "seq=", "=4", "seq=0", "seq=-2", "seq=x"])
def test_bad_dim_spelling_is_an_error(text: str):
    with pytest.raises(OnnxImportError, match="--dim expects NAME=N"):
        parse_dims([text])


def test_same_dim_twice_must_agree():
    assert parse_dims(["seq=4", "batch=1", "seq=4"]) == {"seq": 4, "batch": 1}
    with pytest.raises(OnnxImportError, match="--dim seq is given twice"):
        parse_dims(["seq=4", "seq=8"])


# -- fusion-translate --dim -----------------------------------------------------------------------


@pytest.fixture
def model_path(tmp_path: Path) -> Path:
    path = tmp_path / "symbolic.onnx"
    onnx.save(symbolic_model(), path)
    return path


def test_cli_dim_flags_pin_the_import(model_path: Path, tmp_path: Path):
    out = tmp_path / "pinned.mlir"
    argv = ["--import-onnx", str(model_path), "--dim", "batch=2", "--dim", "seq=9", "-o", str(out)]
    assert fusion_translate.run(argv) == 0
    module = parse_module(out.read_text())
    assert "(%input_ids: tensor<2x9xi64>" in out.read_text()
    assert run_module(module, [np.zeros((2, 9), np.int64)])[0].shape == (2, 9, HIDDEN)


needs_iree_importer = pytest.mark.skipif(
    shutil.which("iree-import-onnx") is None or shutil.which("iree-opt") is None,
    reason="IREE's ONNX importer (iree-base-compiler) is not installed")


def _onnxruntime(model: onnx.ModelProto, ids: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"input_ids": ids})[0]


@needs_iree_importer
def test_cli_keeps_unpinned_dims_dynamic(model_path: Path, tmp_path: Path, capsys):
    out = tmp_path / "dynamic_batch.mlir"
    assert fusion_translate.run(["--import-onnx", str(model_path), "--dim", "seq=9", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "note: input 'input_ids' dim 0 is 'batch': kept dynamic (`?`)" in err and "Traceback" not in err
    text = out.read_text()
    assert "(%arg0: tensor<?x9xi64>) -> tensor<?x9x8xf32>" in text
    ids = np.random.default_rng(3).integers(0, VOCAB, (3, 9)).astype(np.int64)
    np.testing.assert_allclose(run_module(parse_module(text), [ids])[0], _onnxruntime(symbolic_model(), ids),
                               rtol=1e-5, atol=1e-5)


@needs_iree_importer
def test_dynamic_import_through_dispatch_creation_agrees_with_onnxruntime(model_path: Path, tmp_path: Path):
    """Both dims dynamic (torch-mlir's Reshape arithmetic multiplies them: `s0 * s1`, lowered to
    arith for xDSL), formed into dispatch regions, run at sizes nothing was specialised to."""
    out = tmp_path / "dynamic.mlir"
    assert fusion_translate.run(["--import-onnx", str(model_path), "-o", str(out)]) == 0
    assert "(%arg0: tensor<?x?xi64>) -> tensor<?x?x8xf32>" in out.read_text()
    formed = apply_pipeline(out.read_text(), "dispatch-creation-llvm-cpu")
    assert any(op.name == "flow.dispatch.region" for op in formed.walk())
    for batch, seq in [(1, 1), (2, 7), (3, 16)]:
        ids = np.random.default_rng(seq).integers(0, VOCAB, (batch, seq)).astype(np.int64)
        ids[0, 0], ids[-1, -1] = 0, VOCAB - 1  # the table's first and last rows
        np.testing.assert_allclose(run_module(formed, [ids])[0], _onnxruntime(symbolic_model(), ids),
                                   rtol=1e-5, atol=1e-5)


@needs_iree_importer
def test_dynamic_import_takes_inline_weights_only(model_path: Path, tmp_path: Path, capsys):
    out = tmp_path / "never.mlir"
    assert fusion_translate.run(["--import-onnx", str(model_path), "--weights", "args", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert ("error: dynamic shape: input 'input_ids' dim 0 is 'batch': --weights args needs every dim "
            "pinned (--dim NAME=N)") in err
    assert not out.exists()


def test_dynamic_import_without_iree_names_both_ways_out(model_path: Path, tmp_path: Path, capsys, monkeypatch):
    monkeypatch.setattr(onnx_dynamic.shutil, "which", lambda *args, **kwargs: None)
    out = tmp_path / "never.mlir"
    assert fusion_translate.run(["--import-onnx", str(model_path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "error: dynamic shape: importing symbolic dims needs IREE's ONNX importer" in err
    assert "pin every symbolic dim with --dim NAME=N" in err and not out.exists()


def test_cli_bad_dim_is_a_user_error(model_path: Path, capsys):
    assert fusion_translate.run(["--import-onnx", str(model_path), "--dim", "seq:9"]) == 1
    assert "error: --dim expects NAME=N with N a positive integer, got 'seq:9'" in capsys.readouterr().err
