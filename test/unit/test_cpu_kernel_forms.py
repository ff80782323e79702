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


@needs_iree
def test_matmul_forms_agree(tmp_path):
    """Every matmul form (IREE's data-tiled build included) equals numpy's product on one
    projection group with weights packed in-function, one with a fused pack, and one attention group."""
    groups = ("bert_qkvo_64x128x128", "gpt2_qkv_64x128x384", "bert_qk_2x64x64x64")
    vmfbs, fns = forms.build("matmul-forms", tmp_path, ",".join(groups))
    names = [name for name, _ in fns]
    assert any(n.endswith("__mmt4d_fused") for n in names) and any(n.endswith("__mm_dt") for n in names)
    assert vmfbs[names[0]] != vmfbs[next(n for n in names if n.endswith("__mm_dt"))]
    rng = np.random.default_rng(1)
    for group in groups:
        first = next(name for name, types in fns if name.startswith(group + "__"))
        values = forms.arguments(dict(fns)[first], rng)
        batch = forms.cpu_matmul_forms.SHAPES[group][0]
        expected = [values[0] @ values[1]] if batch else [values[0] @ w for w in values[1:]]
        for name in (n for n in names if n.startswith(group + "__")):
            args = forms.cpu_matmul_forms.relayout(name, values)
            assert [list(a.shape) for a in args] == [s for s, _ in dict(fns)[name]], name
            got = run_vmfb(vmfbs[name], args, name)
            assert len(got) == len(expected), name
            for g, e in zip(got, expected):
                np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-4, err_msg=name)


def _softmax_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float) -> np.ndarray:
    scores = np.einsum("bmd,bkd->bmk", q.astype(np.float64), k.astype(np.float64)) * scale
    p = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.einsum("bmk,bkn->bmn", p / p.sum(axis=-1, keepdims=True), v.astype(np.float64))


@needs_iree
def test_attention_tiles_agree(tmp_path):
    """Every attention form (IREE's config, the pass's, the neighbours) computes softmax(Q K^T s) V,
    and the `__pass` forms are the ones the set's pipeline configures."""
    shapes = ((2, 16, 16, 64), (2, 16, 32, 32))
    text = forms.cpu_attention_forms.attention_tiles(shapes)
    vmfb = forms.compile_forms(text, "dispatch-attention-cpu-tiles", tmp_path, "attention")
    formed = (tmp_path / "attention.formed.mlir").read_text()
    assert formed.count("compilation_info =") == text.count("compilation_info =") + len(shapes)
    rng = np.random.default_rng(2)
    for heads, queries, keys, dim in shapes:
        group = forms.cpu_attention_forms.group_name(heads, queries, keys, dim)
        q, k, v = (rng.standard_normal(s, dtype=np.float32) for s in ((heads, queries, dim), (heads, keys, dim), (heads, keys, dim)))
        expected = _softmax_attention(q, k, v, forms.cpu_attention_forms.SCALE)
        names = [name for name, _ in forms.functions(text) if name.startswith(group + "__")]
        assert len(names) >= 3
        for name in names:
            np.testing.assert_allclose(run_vmfb(vmfb, [q, k, v], name)[0], expected, rtol=1e-4, atol=1e-5, err_msg=name)
