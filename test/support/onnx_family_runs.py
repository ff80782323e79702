"""An ONNX model built by IREE from a CPU pipeline's regions and run on every input family beside
a float64 run of its import and onnxruntime: the shared steps of the tests that hold a pipeline's
build to onnxruntime's accuracy on adversarial inputs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from onnx import helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.interpreter import find_entry, run_function
from fusionopt.interpreter.input_families import FAMILIES, family_inputs
from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import run_vmfb
from fusionopt.registry import iree_flags_of
from fusionopt.testing import apply_pipeline
from support.iree_pairs import build_llvm_cpu


def gelu(nodes: list, x: str, out: str) -> None:
    """x * 0.5 * (1 + erf(x / sqrt 2)), as torch exports nn.GELU (initializers `sqrt2`, `one`,
    `half`)."""
    nodes += [helper.make_node("Div", [x, "sqrt2"], [f"{out}_s"]), helper.make_node("Erf", [f"{out}_s"], [f"{out}_e"]),
              helper.make_node("Add", [f"{out}_e", "one"], [f"{out}_p"]), helper.make_node("Mul", [x, f"{out}_p"], [f"{out}_m"]),
              helper.make_node("Mul", [f"{out}_m", "half"], [out])]


def assert_close_with_nans(got: np.ndarray, want: np.ndarray, what: str) -> None:
    """NaN exactly where `want` has NaN, elsewhere within 1e-5 of `want`'s magnitude (at least 1)."""
    assert np.array_equal(np.isnan(got), np.isnan(want)), f"{what}: NaN positions differ"
    finite = ~np.isnan(want)
    scale = float(np.abs(want[finite]).max(initial=0.0))
    error = float(np.abs(got[finite].astype(np.float64) - want[finite]).max(initial=0.0))
    assert error <= 1e-5 * max(scale, 1.0), f"{what}: off by {error:.3g} (outputs up to {scale:.3g})"


def worst_error(got: np.ndarray, reference: np.ndarray) -> float:
    """The largest |got - reference| where the reference is finite."""
    finite = np.isfinite(reference)
    return float(np.abs(got[finite].astype(np.float64) - reference[finite]).max(initial=0.0))


def family_runs(model, pipeline: str, folder: Path, seed: int,
                check_formed: Callable[[str], None] | None = None) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """family -> (float64 reference, ours, onnxruntime's) for the one-input ONNX `model` (input
    `x`), ours built by IREE from `pipeline`'s regions (`check_formed` sees them first)."""
    import onnxruntime as ort

    graph = print_module(import_onnx(model))
    formed = print_module(apply_pipeline(graph, pipeline))
    if check_formed is not None:
        check_formed(formed)
    vmfb = build_llvm_cpu({"formed": formed}, folder, iree_flags_of(pipeline))["formed"]
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    module = parse_module(graph)
    func = find_entry(module)
    runs = {}
    for family in FAMILIES:
        args = family_inputs(func, family, seed=seed)
        (reference,) = run_function(module, args, func, float64=True)
        runs[family] = (np.asarray(reference, np.float64), run_vmfb(vmfb, args, "main_graph")[0],
                        session.run(None, {"x": args[0]})[0])
    return runs


def adversarial_signals(shape: tuple[int, ...], scale_extreme: float) -> dict[str, np.ndarray]:
    """family -> a float64 signal of `shape` (seed 1): N(0, 1), a large common offset (1000 +
    N(0, 1)), constant (3.5), zeros, and extremes (`scale_extreme` x N(0, 1), scaled so that the
    model's outputs stay finite)."""
    family_rng = np.random.default_rng(1)
    signals = {"random": family_rng.standard_normal(shape), "offset": 1000.0 + family_rng.standard_normal(shape),
               "constant": np.full(shape, 3.5), "zeros": np.zeros(shape),
               "extreme": scale_extreme * family_rng.standard_normal(shape)}
    assert set(signals) <= set(FAMILIES) | {"constant"}
    return signals


# The CPU pipelines a model test builds through IREE.
CPU_PIPELINES = ["graph-to-dispatch-llvm-cpu", "graph-to-dispatch-llvm-cpu-fewest", "graph-to-dispatch"]


def assert_model_agrees(model, pipeline: str, folder: Path, onnxruntime_where_finite: bool = False) -> None:
    """`model` built from `pipeline` agrees, on every input family, with a float64 run of its
    import and with onnxruntime (`assert_close_with_nans`); with `onnxruntime_where_finite`,
    onnxruntime only on the families where the float64 run has no NaN (its clamped activations
    turn a NaN into finite values)."""
    for family, (reference, ours, onnxruntime) in family_runs(model, pipeline, folder, seed=0).items():
        assert_close_with_nans(ours, reference, f"{family} against float64")
        if not onnxruntime_where_finite or not np.isnan(reference).any():
            assert_close_with_nans(ours, onnxruntime, f"{family} against onnxruntime")
