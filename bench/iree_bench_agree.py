"""Do the variants compute the same numbers? Checked on every input family before timing.

A faster build that returns NaN is not faster, so bench/iree_runtime.py runs each CPU vmfb through
`iree.runtime` on each family and reports, per variant: max |variant - iree-default|, max
|variant - float64 reference| (the numpy interpreter on `M.args.linalg.mlir` in float64, when
it offers `float64=True`; otherwise float32, labelled so), and NaN / inf counts. Verdicts:
- FAIL: NaN/inf where iree-default has none (the issue's repro: 0.01 everywhere -> bert NaN);
- DIFF: finite but not within rtol 1e-3 / atol 5e-4 (scaled by the output's magnitude) of
  iree-default (IREE's tiled f32 sums are reassociated relative to ours, hence the tolerance);
- ok otherwise.
The same comparison reads outputs saved by the GPU script (`compare_saved_outputs`).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from iree_bench_onnx import is_onnx_path, reference_module

from fusionopt.corpus import model_file
from fusionopt.interpreter import run_function
from fusionopt.ir_io import parse_file
from fusionopt.iree_tools import run_vmfb

REFERENCE_VARIANT = "iree-default"
FUNCTION = "main_graph"
RTOL, ATOL = 1e-3, 5e-4


@dataclass
class Agreement:
    """One variant's outputs on one family, measured against the yardstick (iree-default, or
    onnxruntime where IREE's own build fails) and the reference."""

    variant: str
    diff_default: float
    diff_reference: float | None
    nan: int
    inf: int
    verdict: str
    reference_scale: float = 1.0
    yardstick: str = REFERENCE_VARIANT


def nonfinite(results: list[np.ndarray]) -> tuple[int, int]:
    """(NaN count, inf count) over all float results."""
    floats = [np.asarray(r) for r in results if np.issubdtype(np.asarray(r).dtype, np.floating)]
    return sum(int(np.isnan(r).sum()) for r in floats), sum(int(np.isinf(r).sum()) for r in floats)


def max_abs_diff(results: list[np.ndarray], expected: list[np.ndarray]) -> float:
    """NaN when any element pair differs in NaN-ness (a NaN hides no error); inf likewise."""
    assert len(results) == len(expected), "result counts differ"
    worst = 0.0
    for r, e in zip(results, expected):
        a, b = np.asarray(r, dtype=np.float64), np.asarray(e, dtype=np.float64)
        same_special = (np.isnan(a) & np.isnan(b)) | ((a == b) & np.isinf(a))
        with np.errstate(invalid="ignore"):  # inf - inf where both are the same infinity: 0 below
            diff = np.where(same_special, 0.0, np.abs(a - b))
        if diff.size:
            worst = float(np.nan) if np.isnan(diff).any() else max(worst, float(diff.max()))
        if np.isnan(worst):
            return worst
    return worst


def magnitude(results: list[np.ndarray]) -> float:
    """Largest finite |value| (at least 1e-30): scales absolute differences to relative ones."""
    finite = [np.abs(np.asarray(r, dtype=np.float64)) for r in results]
    finite = [f[np.isfinite(f)] for f in finite]
    return max([1e-30] + [float(f.max()) for f in finite if f.size])


def close(results: list[np.ndarray], expected: list[np.ndarray]) -> bool:
    """Within RTOL, and ATOL scaled by the expected output's largest finite magnitude."""
    for r, e in zip(results, expected):
        e64 = np.asarray(e, dtype=np.float64)
        finite = np.abs(e64[np.isfinite(e64)])
        scale = max(1.0, float(finite.max())) if finite.size else 1.0
        if not np.allclose(r, e64, rtol=RTOL, atol=ATOL * scale, equal_nan=True):
            return False
    return True


def verdict(results: list[np.ndarray], default: list[np.ndarray]) -> str:
    if sum(nonfinite(results)) and not sum(nonfinite(default)):
        return "FAIL"
    return "ok" if close(results, default) else "DIFF"


def reference_outputs(model: str, inputs: list[np.ndarray]) -> tuple[list[np.ndarray], str]:
    """The input program on the numpy interpreter: float64 when supported (else float32)."""
    module = (reference_module(model) if is_onnx_path(model) else
              parse_file(model_file(model, "args.linalg.mlir")))
    if "float64" in inspect.signature(run_function).parameters:
        return run_function(module, inputs, FUNCTION, float64=True), "f64 interp"
    return run_function(module, inputs, FUNCTION), "f32 interp"


def compare(outputs: dict[str, list[np.ndarray]], reference: list[np.ndarray] | None,
            yardstick: str = REFERENCE_VARIANT) -> list[Agreement]:
    """Every variant against `yardstick` (which must be among `outputs`) and the reference."""
    default = outputs[yardstick]
    scale = magnitude(reference) if reference is not None else 1.0
    rows = []
    for variant, results in outputs.items():
        nan, inf = nonfinite(results)
        ref = max_abs_diff(results, reference) if reference is not None else None
        rows.append(Agreement(variant, max_abs_diff(results, default), ref, nan, inf,
                              verdict(results, default), scale, yardstick))
    return rows


def check_family(model: str, vmfbs: dict[str, Path], inputs: list[np.ndarray],
                 reference: bool = True, others: dict | None = None,
                 yardstick: str = REFERENCE_VARIANT) -> tuple[list[Agreement], str]:
    """Run every CPU vmfb on `inputs`, and every `others[name](inputs) -> outputs` (onnxruntime);
    the reference label says which interpreter precision."""
    outputs = {v: run_vmfb(path, inputs, FUNCTION) for v, path in vmfbs.items()}
    outputs.update({name: run(inputs) for name, run in (others or {}).items()})
    ref, label = reference_outputs(model, inputs) if reference else (None, "none")
    return compare(outputs, ref, yardstick), label


def _fmt(value: float | None, scale: float | None = None) -> str:
    if value is None:
        return "-"
    return f"{value:.2e}" if scale is None else f"{value:.2e} (rel {value / scale:.1e})"


def agreement_table(rows: dict[tuple[str, str], list[Agreement]], label: str) -> str:
    """Markdown: one line per (model, family, variant)."""
    lines = [f"| model | family | variant | max abs diff vs iree-default | max abs diff vs {label} (rel: / largest abs ref value) "
             "| NaN | inf | verdict |", "|---|---|---|---:|---:|---:|---:|---|"]
    for (model, family), agreements in rows.items():
        for a in agreements:
            against = "" if a.yardstick == REFERENCE_VARIANT else f" (vs {a.yardstick}: IREE's own build fails)"
            lines.append(f"| {model} | {family} | {a.variant} | {_fmt(a.diff_default)}{against} | {_fmt(a.diff_reference, a.reference_scale)} "
                         f"| {a.nan} | {a.inf} | {a.verdict} |")
    return "\n".join(lines)


def compare_saved_outputs(folder: Path, reference=None) -> dict[tuple[str, str], list[Agreement]]:
    """Outputs the GPU script saved as `outputs/M/FAMILY/VARIANT.rN.npy`, compared as on CPU;
    `reference(model, family)` -> the expected outputs (or None)."""
    rows = {}
    for family_dir in sorted(p for p in folder.glob("outputs/*/*") if p.is_dir()):
        outputs: dict[str, list[np.ndarray]] = {}
        for path in sorted(family_dir.glob("*.npy")):
            variant = path.name.split(".r")[0]
            outputs.setdefault(variant, []).append(np.load(path))
        outputs = dict(sorted(outputs.items(), key=lambda kv: kv[0] != REFERENCE_VARIANT))
        if REFERENCE_VARIANT in outputs:
            model, family = family_dir.parent.name, family_dir.name
            expected = reference(model, family) if reference else None
            rows[(model, family)] = compare(outputs, expected)
    return rows
