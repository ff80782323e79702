"""ONNX importer on the real models, its canonical forms, its errors and `fusion-translate`.

Models: `test/data/onnx/*.args.onnx` (copies of ../shared/models/*/M.args.onnx, every weight
a graph input). Inputs as in test_onnx_agreement.py: input_ids in [0, 1024), attention_mask all
ones, float model inputs ~ N(0, 1), weights ~ N(0, 0.1^2) (its docstring explains why not 1).
The `.inline.onnx` files (weights as initializers, ~2.3 MB) are only in ../shared.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from xdsl.dialects.builtin import NameLoc

from fusionopt.dialects import graph
from fusionopt.importers.onnx_context import OnnxImportError
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import apply_pipeline, run_module
from fusionopt.tools.fusion_translate import run as translate
from fusionopt.corpus import CORPUS_MISSING, corpus_dir

ort = pytest.importorskip("onnxruntime")

DATA = Path(__file__).resolve().parents[1] / "data" / "onnx"
SHARED = corpus_dir()
MODEL_INPUTS = {"bert_mini": ["input_ids", "attention_mask"], "gpt2_mini": ["input_ids"],
                "mlp_towers": ["x"]}
WEIGHT_STD = 0.1
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=CORPUS_MISSING)


def onnx_inputs(model: onnx.ModelProto, name: str, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    initialized = {t.name for t in model.graph.initializer}
    values = {}
    for info in model.graph.input:
        if info.name in initialized:
            continue
        shape = [d.dim_value for d in info.type.tensor_type.shape.dim]
        if info.name == "attention_mask":
            values[info.name] = np.ones(shape, np.int64)
        elif info.type.tensor_type.elem_type == TensorProto.INT64:
            values[info.name] = rng.integers(0, 1024, size=shape, dtype=np.int64)
        else:
            std = 1.0 if info.name in MODEL_INPUTS[name] else WEIGHT_STD
            values[info.name] = (std * rng.standard_normal(shape)).astype(np.float32)
    return values


def assert_agrees_with_ort(module, path: Path, values: dict[str, np.ndarray]) -> float:
    expected = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, values)
    actual = run_module(module, list(values.values()))
    worst = 0.0
    for a, e in zip(actual, expected, strict=True):
        assert a.shape == e.shape
        np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5)
        worst = max(worst, float(np.max(np.abs(a - e))))
    return worst


def count(module, op_class) -> int:
    return sum(isinstance(op, op_class) for op in module.walk())


@pytest.mark.parametrize("name", sorted(MODEL_INPUTS))
def test_args_model_agrees_with_onnxruntime(name: str) -> None:
    path = DATA / f"{name}.args.onnx"
    model = onnx.load(path)
    start = time.perf_counter()
    module = import_onnx(path)
    assert time.perf_counter() - start < 5.0
    module = parse_module(print_module(module))  # printed IR re-parses and verifies
    fn = next(op for op in module.walk() if op.name == "func.func")
    assert fn.sym_name.data == "main_graph"
    onnx_names = [i.name for i in model.graph.input]
    assert [d.data["onnx.name"].data for d in fn.arg_attrs.data] == onnx_names
    assert assert_agrees_with_ort(module, path, onnx_inputs(model, name)) < 1e-4


def test_bert_padding_mask_agrees_with_onnxruntime() -> None:
    """Zeros in attention_mask exercise Cast -> GatherND -> And -> Where for real."""
    path = DATA / "bert_mini.args.onnx"
    values = onnx_inputs(onnx.load(path), "bert_mini", seed=3)
    values["attention_mask"][0, 40:] = 0
    assert_agrees_with_ort(import_onnx(path), path, values)


def test_mlp_towers_structure() -> None:
    module = import_onnx(DATA / "mlp_towers.args.onnx")
    assert count(module, graph.DotOp) == 12
    assert count(module, graph.SigmoidOp) == 12
    assert count(module, graph.ConcatOp) == 1
    # transB = 1 on a runtime weight must stay an explicit transpose (weights are arguments)
    assert count(module, graph.TransposeOp) == 12


def test_ops_carry_onnx_node_names_as_locations() -> None:
    module = import_onnx(DATA / "gpt2_mini.args.onnx")
    dots = [op for op in module.walk() if isinstance(op, graph.DotOp)]
    assert all(isinstance(d.location, NameLoc) for d in dots)
    assert "node_addmm" in {d.location.desc.data for d in dots}
    text = print_module(module, debuginfo=True)
    assert 'loc("node_addmm")' in text
    parse_module(text)


# -- canonical forms for the graph passes ---------------------------------------------------

def gemm_model(weight_const: bool, bias_shape: tuple[int, ...]) -> onnx.ModelProto:
    rng = np.random.default_rng(1)
    w = rng.standard_normal((8, 4)).astype(np.float32)  # [N, K], used with transB = 1
    b = rng.standard_normal(bias_shape).astype(np.float32)
    inits = [onnx.numpy_helper.from_array(b, "b")]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])]
    if weight_const:
        inits.append(onnx.numpy_helper.from_array(w, "w"))
    else:
        inputs.append(helper.make_tensor_value_info("w", TensorProto.FLOAT, [8, 4]))
    node = helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1)
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 8])
    model = helper.make_model(helper.make_graph([node], "g", inputs, [out], inits),
                              opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


@pytest.mark.parametrize("bias_shape", [(8,), (1, 8)])
def test_gemm_with_constant_weight_is_a_linear_layer(bias_shape) -> None:
    """dot(x, W[K, N] constant) + broadcast(b[N]) dims = [1]: what horizontal fusion matches."""
    from fusionopt.transforms.graph.horizontal_linear import match_linear

    module = import_onnx(gemm_model(True, bias_shape))
    assert count(module, graph.TransposeOp) == 0  # folded at import time
    dot = next(op for op in module.walk() if isinstance(op, graph.DotOp))
    linear = match_linear(dot)
    assert linear is not None and linear.bias is not None
    assert tuple(linear.bias.type.get_shape()) == (8,)


def test_weights_args_mode_moves_initializers_to_arguments() -> None:
    model = gemm_model(True, (8,))
    module = import_onnx(model, weights="args")
    fn = next(op for op in module.walk() if op.name == "func.func")
    assert [d.data["onnx.name"].data for d in fn.arg_attrs.data] == ["x", "b", "w"]
    values = [np.ones((3, 4), np.float32)] + [onnx.numpy_helper.to_array(t)
                                              for t in model.graph.initializer]
    expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]
                                    ).run(None, {"x": values[0]})
    np.testing.assert_allclose(run_module(module, values)[0], expected[0], rtol=1e-5, atol=1e-6)


@needs_shared
def test_inline_mlp_towers_fuses_12_dots_into_3() -> None:
    path = SHARED / "mlp_towers" / "mlp_towers.inline.onnx"
    module = import_onnx(path)
    values = onnx_inputs(onnx.load(path), "mlp_towers")
    assert count(module, graph.DotOp) == 12
    fused = apply_pipeline(module, "graph-horizontal-fuse-dots")
    assert count(fused, graph.DotOp) == 3
    assert_agrees_with_ort(fused, path, values)


@needs_shared
@pytest.mark.parametrize("name", ["bert_mini", "gpt2_mini"])
def test_inline_model_agrees_with_onnxruntime(name: str) -> None:
    path = SHARED / name / f"{name}.inline.onnx"
    assert_agrees_with_ort(import_onnx(path), path, onnx_inputs(onnx.load(path), name))


# -- errors -----------------------------------------------------------------------------------

def one_node(op: str, x_dims, **attrs) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, x_dims)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    node = helper.make_node(op, ["x"], ["y"], name="the_node", **attrs)
    model = helper.make_model(helper.make_graph([node], "g", [x], [y]),
                              opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


def test_unsupported_op_is_a_clear_error() -> None:
    with pytest.raises(OnnxImportError) as err:
        import_onnx(one_node("Hardmax", [2, 3]))
    assert err.value.message == "unsupported ONNX op 'Hardmax' (node 'the_node')"


def test_dynamic_shape_is_rejected() -> None:
    with pytest.raises(OnnxImportError, match=r"dynamic shape: input 'x' dim 0 is 'batch'"):
        import_onnx(one_node("Relu", ["batch", 3]))


def test_runtime_reshape_shape_is_rejected() -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    s = helper.make_tensor_value_info("s", TensorProto.INT64, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    node = helper.make_node("Reshape", ["x", "s"], ["y"], name="r")
    model = helper.make_model(helper.make_graph([node], "g", [x, s], [y]))
    with pytest.raises(OnnxImportError, match=r"Reshape's shape operand must be a constant.*'r'"):
        import_onnx(model)


def test_slice_with_a_zero_step_is_rejected() -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    inits = [onnx.numpy_helper.from_array(np.array([v], np.int64), n)
             for n, v in (("st", 0), ("en", 8), ("ax", 0), ("sp", 0))]
    node = helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"], name="s")
    model = helper.make_model(helper.make_graph([node], "g", [x], [y], inits))
    with pytest.raises(OnnxImportError, match="'step' cannot be 0|a step of 0"):
        import_onnx(model)


def test_bad_weights_mode_is_rejected() -> None:
    with pytest.raises(OnnxImportError, match="weights must be one of inline, args"):
        import_onnx(DATA / "mlp_towers.args.onnx", weights="external")


# -- fusion-translate -------------------------------------------------------------------------

def test_cli_writes_output_file(tmp_path: Path) -> None:
    out = tmp_path / "m.mlir"
    assert translate(["--import-onnx", str(DATA / "mlp_towers.args.onnx"), "-o", str(out)]) == 0
    module = parse_module(out.read_text())
    assert count(module, graph.DotOp) == 12
    assert [p.name for p in tmp_path.iterdir()] == ["m.mlir"]  # no temp file left behind


def test_cli_error_exits_1_and_keeps_existing_output(tmp_path: Path, capsys) -> None:
    model_path, out = tmp_path / "bad.onnx", tmp_path / "m.mlir"
    onnx.save(one_node("Hardmax", [2]), model_path)
    out.write_text("previous")
    assert translate(["--import-onnx", str(model_path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "error: unsupported ONNX op 'Hardmax' (node 'the_node')"
    assert out.read_text() == "previous"
    assert translate(["--import-onnx", str(tmp_path / "missing.onnx")]) == 1
    assert "could not open input file" in capsys.readouterr().err
