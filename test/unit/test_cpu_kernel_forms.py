"""bench/cpu_kernel_forms.py: the forms it times compute the same values (else its ratios mean nothing).

Each set's functions are compiled with IREE for llvm-cpu and run on one input; every form must
agree with the first (ours). Skipped when the IREE tools are absent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt.iree_tools import iree_available, run_vmfb

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import cpu_kernel_forms as forms  # noqa: E402

needs_iree = pytest.mark.skipif(not iree_available(), reason="iree-compile / iree-benchmark-module / iree.runtime absent")


def _inputs(name: str, shapes: list[list[int]], rng: np.random.Generator) -> list[np.ndarray]:
    # Weights scaled by 1/sqrt(fan-in) so chained matmuls stay finite.
    return [(rng.standard_normal(s) / (np.sqrt(s[0]) if len(s) == 2 and s[0] == s[1] else 1)).astype(np.float32)
            for s in shapes]


def _run_all(text: str, through_dispatch_creation: bool, tmp_path: Path) -> dict[str, np.ndarray]:
    vmfb = forms.compile_forms(text, through_dispatch_creation, tmp_path, "forms")
    fns = forms.functions(text)
    first_inputs = _inputs(fns[0][0], fns[0][1], np.random.default_rng(0))
    results = {}
    for name, shapes in fns:
        args = list(first_inputs)
        if name == "qk_nn_given_kt":  # takes K^T [heads, dim, keys] where the others take K [keys, heads, dim]
            args[1] = np.ascontiguousarray(first_inputs[1].transpose(1, 2, 0))
        assert [list(a.shape) for a in args] == shapes
        results[name] = run_vmfb(vmfb, args, name)[0]
    return results


@needs_iree
@pytest.mark.parametrize("name", ["kt-projection", "kt-in-region", "softmax-argmax"])
def test_forms_agree(name, tmp_path):
    make, ours = forms.SETS[name]
    results = _run_all(make(), ours, tmp_path)
    first = next(iter(results.values()))
    assert len(results) >= 2 and np.isfinite(first).all()
    for form, value in results.items():
        np.testing.assert_allclose(value, first, rtol=1e-4, atol=1e-4, err_msg=form)


@needs_iree
def test_tile_configs_agree(tmp_path):
    results = _run_all(forms.matmul_tiles(layers=2, m=16, k=64), False, tmp_path)
    first = results["iree_choice"]
    assert set(results) == set(forms.TILE_CONFIGS) and np.isfinite(first).all() and np.abs(first).max() > 0
    for form, value in results.items():
        np.testing.assert_allclose(value, first, rtol=1e-4, atol=1e-5, err_msg=form)


def test_functions_reads_signatures():
    assert forms.functions("func.func @f(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2xf32> {") == [
        ("f", [[2, 3], [4]])]
