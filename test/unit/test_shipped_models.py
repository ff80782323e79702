"""Acceptance: the models shipped in `test/data/models` through both of our paths agree with
onnxruntime.

The models (`fusionopt.corpus.shipped_models()`: minilm_l6 and torchvision CNNs, exported like the
shared corpus by `bench/export_models.py`) go
- ONNX path: `fusion-translate --import-onnx M.args.onnx`, then `graph-to-dispatch`;
- linalg path: torch-mlir's `M.args.linalg.mlir`, then `dispatch-creation`;
and the numpy interpreter's result on the formed dispatches must match onnxruntime on
`M.args.onnx` within max|diff| / max|ref| < 1e-4, for every input family:
- images: N(0, 1) ("normal"), a constant 0.5 ("constant"), N(0, 1) + 100 ("offset");
- token ids: uniform in [0, 1024) with an all-ones mask ("normal"), and one repeated id with the
  last quarter of the keys masked out ("constant").
Weights are the same on both sides: conv kernels He-scaled (N(0, 2 / fan_in)) so activations
neither explode nor die through 20 layers, other tensors N(0, 0.1^2); the scales of
BatchNormalization and LayerNormalization are 1 + N(0, 0.1^2) (at N(0, 0.1^2) minilm's output
hardly depends on its tokens) and BatchNormalization's variance is uniform in [0.5, 1.5] (a
variance must be positive).
Each model's output must also depend on its input (normal and constant outputs differ), so a
network whose activations all died cannot pass by returning its biases.
"""

from __future__ import annotations

import json

import numpy as np
import onnx
import pytest

from fusionopt.corpus import model_file, shipped_models
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_file
from fusionopt.testing import apply_pipeline, run_module

ort = pytest.importorskip("onnxruntime", reason="onnxruntime (the reference) is not installed")

VOCAB = 1024
WEIGHT_STD = 0.1
REL_TOL = 1e-4
PATHS = ("onnx", "linalg")


def formed_module(name: str, path: str):
    if path == "onnx":
        imported = import_onnx(onnx.load(str(model_file(name, "args.onnx"))))
        return apply_pipeline(imported, "graph-to-dispatch")
    return apply_pipeline(parse_file(model_file(name, "args.linalg.mlir")), "dispatch-creation")


@pytest.fixture(scope="module", params=[(m, p) for m in shipped_models() for p in PATHS],
                ids=lambda mp: f"{mp[0]}-{mp[1]}")
def formed(request):
    name, path = request.param
    return name, formed_module(name, path)


def normalization_roles(model: onnx.ModelProto) -> dict[str, str]:
    """Graph input name -> "scale" / "var" for the scales of BatchNormalization and
    LayerNormalization nodes and the variances of BatchNormalization."""
    roles = {}
    for node in model.graph.node:
        if node.op_type in ("BatchNormalization", "LayerNormalization"):
            roles[node.input[1]] = "scale"
        if node.op_type == "BatchNormalization":
            roles[node.input[4]] = "var"
    return roles


def weight(shape: list[int], dtype: str, role: str | None, rng: np.random.Generator) -> np.ndarray:
    if role == "var":
        return rng.uniform(0.5, 1.5, size=shape).astype(dtype)
    values = rng.standard_normal(size=shape)
    if role == "scale":
        return (1 + WEIGHT_STD * values).astype(dtype)
    std = np.sqrt(2 / np.prod(shape[1:])) if len(shape) >= 3 else WEIGHT_STD
    return (std * values).astype(dtype)


def model_input(name: str, shape: list[int], dtype: str, family: str, rng) -> np.ndarray:
    if name == "attention_mask":
        mask = np.ones(shape, dtype=np.int64)
        if family == "constant":
            mask[..., -shape[-1] // 4:] = 0
        return mask
    if "int" in dtype:
        if family == "constant":
            return np.full(shape, VOCAB - 1, dtype=np.int64)
        return rng.integers(0, VOCAB, size=shape, dtype=np.int64)
    image = rng.standard_normal(size=shape).astype(np.float32)
    return {"normal": image, "constant": np.full(shape, 0.5, np.float32),
            "offset": image + np.float32(100)}[family]


def families(name: str) -> tuple[str, ...]:
    build = json.loads(model_file(name, "build.json").read_text())
    images = any("float" in dtype for _, dtype in build["inputs"].values())
    return ("normal", "constant", "offset") if images else ("normal", "constant")


def model_inputs(name: str, family: str, seed: int = 0) -> dict[str, np.ndarray]:
    """ONNX input name -> value, in the argument order of `@main_graph`."""
    build = json.loads(model_file(name, "build.json").read_text())
    roles = normalization_roles(onnx.load(str(model_file(name, "args.onnx")), load_external_data=False))
    rng = np.random.default_rng(seed)
    values = {n: model_input(n, shape, dtype.removeprefix("torch."), family, rng)
              for n, (shape, dtype) in build["inputs"].items()}
    # The weights do not depend on the family: the same network sees every input.
    weights_rng = np.random.default_rng(seed + 1)
    for _, onnx_name, shape, dtype in build["initializers_moved_to_inputs"]:
        values[onnx_name] = weight(shape, dtype, roles.get(onnx_name), weights_rng)
    return values


def relative_error(actual: np.ndarray, expected: np.ndarray) -> float:
    scale = float(np.max(np.abs(expected)))
    return float(np.max(np.abs(actual.astype(np.float64) - expected))) / scale


def test_shipped_models_listed():
    assert {"minilm_l6", "cnn/resnet18", "cnn/squeezenet1_1", "cnn/mobilenet_v3_small",
            "cnn/inception_mini"} <= set(shipped_models())


def test_formed_module_agrees_with_onnxruntime(formed):
    name, module = formed
    assert any(op.name == "flow.dispatch.region" for op in module.walk())
    session = ort.InferenceSession(str(model_file(name, "args.onnx")), providers=["CPUExecutionProvider"])
    outputs = {}
    for family in families(name):
        inputs = model_inputs(name, family)
        assert [i.name for i in session.get_inputs()] == list(inputs), "build.json order differs from the ONNX"
        (expected,) = session.run(None, inputs)
        (actual,) = run_module(module, list(inputs.values()))
        assert actual.shape == expected.shape and np.all(np.isfinite(expected))
        error = relative_error(actual, expected)
        assert error < REL_TOL, f"{name} on {family} inputs: max|diff|/max|ref| = {error:.2e}"
        outputs[family] = expected
    assert relative_error(outputs["constant"], outputs["normal"]) > 1e-2, "the output ignores the input"


def test_perturbed_weight_is_detected():
    """Negative control: one weight 0.1% off makes the same comparison fail."""
    name = "cnn/squeezenet1_1"
    inputs = model_inputs(name, "normal")
    session = ort.InferenceSession(str(model_file(name, "args.onnx")), providers=["CPUExecutionProvider"])
    (expected,) = session.run(None, inputs)
    perturbed = list(inputs.values())
    perturbed[1] = perturbed[1] * np.float32(1.001)
    (actual,) = run_module(parse_file(model_file(name, "args.linalg.mlir")), perturbed)
    assert relative_error(actual, expected) > REL_TOL


IREE_BUILT = ("minilm_l6", "cnn/squeezenet1_1", "cnn/mobilenet_v3_small")


@pytest.mark.parametrize("name", IREE_BUILT)
def test_iree_builds_formed_regions(name, tmp_path):
    """IREE compiles our regions for llvm-cpu as given (minilm's scaled, transposed Q/K heads
    once landed in the projection's region, which IREE's CPU codegen cannot tile)."""
    import shutil

    from fusionopt.iree_tools import compile_vmfb, target_flags
    from fusionopt.ir_io import print_module

    if shutil.which("iree-compile") is None:
        pytest.skip("iree-compile is not on PATH")
    source = tmp_path / f"{name.replace('/', '_')}.mlir"
    source.write_text(print_module(formed_module(name, "linalg")))
    vmfb = compile_vmfb(source, source.with_suffix(".vmfb"), target_flags("llvm-cpu"))
    assert vmfb.stat().st_size > 0
