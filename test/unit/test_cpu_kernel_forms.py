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


def _inputs(args, rng: np.random.Generator) -> list[np.ndarray]:
    # Square weights scaled by 1/sqrt(fan-in) so chained matmuls stay finite.
    return [a / np.float32(np.sqrt(a.shape[0])) if a.ndim == 2 and a.shape[0] == a.shape[1] and a.dtype == np.float32 else a
            for a in forms.arguments(args, rng)]


def _run_all(text: str, pipeline: str | None, tmp_path: Path) -> dict[str, np.ndarray]:
    vmfb = forms.compile_forms(text, pipeline, tmp_path, "forms")
    fns = forms.functions(text)
    first_inputs = _inputs(fns[0][1], np.random.default_rng(0))
    results = {}
    for name, types in fns:
        args = list(first_inputs)
        if name == "qk_nn_given_kt":  # takes K^T [heads, dim, keys] where the others take K [keys, heads, dim]
            args[1] = np.ascontiguousarray(first_inputs[1].transpose(1, 2, 0))
        assert [list(a.shape) for a in args] == [s for s, _ in types]
        results[name] = run_vmfb(vmfb, args, name)[0]
    return results


@needs_iree
@pytest.mark.parametrize("name", ["kt-projection", "kt-in-region", "softmax-argmax", "position-gather",
                                  "producer-reduction-consumer"])
def test_forms_agree(name, tmp_path):
    make, pipeline = forms.SETS[name]
    results = _run_all(make(), pipeline, tmp_path)
    first = next(iter(results.values()))
    assert len(results) >= 2 and np.isfinite(first).all()
    for form, value in results.items():
        np.testing.assert_allclose(value, first, rtol=1e-4, atol=1e-4, err_msg=form)


@needs_iree
def test_tile_configs_agree(tmp_path):
    results = _run_all(forms.matmul_tiles(layers=2, m=16, k=64), None, tmp_path)
    first = results["iree_choice"]
    assert set(results) == set(forms.TILE_CONFIGS) and np.isfinite(first).all() and np.abs(first).max() > 0
    for form, value in results.items():
        np.testing.assert_allclose(value, first, rtol=1e-4, atol=1e-5, err_msg=form)


def test_functions_reads_signatures():
    assert forms.functions("func.func @f(%a: tensor<2x3xf32>, %b: tensor<4xi64>) -> tensor<2xf32> {") == [
        ("f", [([2, 3], "f32"), ([4], "i64")])]


def test_gather_set_bypasses_only_the_fold():
    spec = forms.pipeline_spec("WITHOUT_GATHER_FOLD")
    assert "linalg-fold-constant-gather-indices" not in spec and "form-dispatch-regions" in spec


def test_the_fold_writes_the_loop_index_form(tmp_path):
    """`gather_loop_index` is what the pass makes of `gather_asserts` (so the set times the pass)."""
    from fusionopt.ir_io import print_module
    from fusionopt.testing import apply_pipeline

    text = forms.position_gather()
    (asserts,) = [c for c in text.split("func.func")[1:2]]
    folded = print_module(apply_pipeline("func.func" + asserts, "linalg-fold-constant-gather-indices"))
    assert "cf.assert" not in folded and "tensor.extract %positions[%0, %col]" in folded
