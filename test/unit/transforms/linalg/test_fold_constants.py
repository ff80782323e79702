"""`linalg-fold-constants`: constants moved in numpy compute the same bits, and the CPU pipeline
leaves IREE no dispatch that reads only constants (which it would JIT-compile to evaluate)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.dialects import arith

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_module, print_module
from fusionopt.registry import PIPELINES
from fusionopt.stats import compute_stats
from fusionopt.testing import apply_pipeline, assert_same_semantics, run_module
from fusionopt.transforms.common.use_def import values_captured_by

LIT_CASES = Path(__file__).parents[3] / "lit" / "transforms" / "linalg" / "linalg-fold-constants.mlir"
PASS = "linalg-fold-constants"
FOLDED_CASES = ("depthwise_filter", "slice_then_reshape", "padded_filter", "special_values")


def lit_case(label: str) -> str:
    (case,) = [c for c in LIT_CASES.read_text().split("// -----") if f"@{label}(" in c]
    return case


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("label", FOLDED_CASES)
def test_a_folded_function_returns_the_same_bits_from_constants_alone(label):
    source = lit_case(label)
    after = apply_pipeline(source, PASS)
    ops = {op.name for op in after.walk()} - {"builtin.module", "func.func", "func.return"}
    assert ops == {"arith.constant"}
    for before_value, after_value in zip(run_module(source, []), run_module(after, []), strict=True):
        assert same_bits(np.asarray(before_value), np.asarray(after_value))


def depthwise_conv_model(channels: int = 16, size: int = 10):
    """An ONNX depthwise Conv (group = channels) with a constant [C, 1, 3, 3] filter and bias,
    the form torchvision's exports give the pipeline (its filter is transposed to (kh, kw, c))."""
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((channels, 1, 3, 3)).astype(np.float32)
    weight[0, 0, 0, 0], weight[1, 0, 1, 1] = -0.0, 3.0e38  # bits a copy must keep
    bias = rng.standard_normal(channels).astype(np.float32)
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], group=channels, pads=[1, 1, 1, 1])
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, size, size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, size, size])],
        [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return parse_module(print_module(import_onnx(model)))


def cpu_pipeline(fold: bool) -> str:
    spec = PIPELINES["graph-to-dispatch-llvm-cpu"].spec.replace(
        "dispatch-creation-llvm-cpu", PIPELINES["dispatch-creation-llvm-cpu"].spec)
    return spec if fold else spec.replace(f"{PASS},", "")


def constant_only_regions(module) -> int:
    """Dispatch regions that read nothing but constants: IREE evaluates each at compile time."""
    return sum(
        all(isinstance(value.owner, arith.ConstantOp) for value in values_captured_by(op))
        for op in module.walk() if op.name == "flow.dispatch.region"
    )


def test_the_cpu_pipeline_leaves_no_region_of_constants_and_the_same_semantics():
    source = depthwise_conv_model()
    unfolded = apply_pipeline(print_module(source), cpu_pipeline(fold=False))
    folded = apply_pipeline(print_module(source), cpu_pipeline(fold=True))
    assert PASS in PIPELINES["dispatch-creation-llvm-cpu"].spec
    assert constant_only_regions(unfolded) >= 1  # the filter transpose the pass is for
    assert constant_only_regions(folded) == 0
    dispatches = [compute_stats(m)["total"]["dispatches"] for m in (unfolded, folded)]
    assert dispatches[1] == dispatches[0] - constant_only_regions(unfolded)
    assert_same_semantics(print_module(source), folded, "the CPU pipeline with constants folded",
                          families=("random", "offset", "zeros", "extreme"))


def test_folding_changes_no_bit_of_the_pipeline_output():
    source = print_module(depthwise_conv_model())
    unfolded = apply_pipeline(source, cpu_pipeline(fold=False))
    folded = apply_pipeline(source, cpu_pipeline(fold=True))
    image = np.random.default_rng(1).standard_normal((1, 16, 10, 10)).astype(np.float32) * 1e3 + 5e3
    (expected,), (got,) = run_module(unfolded, [image]), run_module(folded, [image])
    assert same_bits(np.asarray(expected), np.asarray(got))
