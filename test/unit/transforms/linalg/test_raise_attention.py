"""`linalg-raise-attention` and the `iree_linalg_ext.attention` op it produces.

- equivalence: the raised programs compute what the decomposed ones do, on random and
  adversarial inputs, against a float64 reference (`assert_pass_preserves_semantics`);
- IREE interop: `iree-opt` 3.13 re-reads what we print (custom and generic form) and we re-read
  what it prints; `iree-compile` builds the raised programs (llvm-cpu and CUDA sm_80);
- interpreter = IREE: our numpy semantics of the op equal IREE's runtime, including rows masked
  entirely with -inf (NaN in both) and with -FLT_MAX (uniform after the pass's mask clamp);
- the models: bert_mini / gpt2_mini get one attention op per layer (skipped without the corpus).

The cases are the `// -----` functions of the lit test test/lit/transforms/linalg/linalg-raise-attention.mlir.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from fusionopt.corpus import model_dir
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.interpreter import find_entry
from fusionopt.interpreter.input_families import FAMILIES, family_inputs
from fusionopt.ir_io import parse_file, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, cuda_flags, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, parse_module, run_module
from fusionopt.transforms.common import dispatch_utils as du
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "linalg" / "linalg-raise-attention.mlir"
PASS = "linalg-raise-attention"
POSITIVE = ("bert_like", "gpt2_causal", "select_mask", "torch_sdpa_guarded", "onnx_isnan_guarded", "unscaled_scores")
NEGATIVE = ("probs_used_elsewhere", "no_softmax", "softmax_wrong_dim", "not_nan_select_kept",
            "unscaled_scores_used_elsewhere")
# `extreme` (values near the f32 limits) makes Q.K overflow; IREE's exp2 form scales the scores
# by log2 e, so a score in (FLT_MAX / log2 e, FLT_MAX] is inf there but finite in the decomposed
# form: the pass's documented exactness limit, not a rounding difference.
FAMILIES_EXACT = tuple(f for f in FAMILIES if f != "extreme")
IREE_OPT = shutil.which("iree-opt")


def cases() -> dict[str, str]:
    return lit_functions(LIT)


def raised(name: str) -> str:
    return print_module(apply_pipeline(cases()[name], PASS))


@pytest.mark.parametrize("name", POSITIVE)
def test_raised_programs_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(cases()[name], PASS, families=FAMILIES_EXACT)
    ops = [op.name for op in after.walk()]
    assert ops.count("iree_linalg_ext.attention") == 1
    assert "math.exp" not in ops


@pytest.mark.parametrize("name", NEGATIVE)
def test_not_raised(name: str):
    after = assert_pass_preserves_semantics(cases()[name], PASS, seeds=(0,), families=("random",))
    assert "iree_linalg_ext.attention" not in [op.name for op in after.walk()]


def test_fully_masked_rows_stay_uniform():
    """bert's padding mask with every key masked (-FLT_MAX): the decomposed form gives mean(V);
    so must the raised one (the clamp keeps IREE's mask * log2 e finite)."""
    before = cases()["select_mask"]
    after = raised("select_mask")
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 4, 8)).astype(np.float32) for _ in range(3))
    keep = np.zeros(4, np.int64)
    expected = run_module(before, [q, k, v, keep])[0]
    actual = run_module(after, [q, k, v, keep])[0]
    np.testing.assert_allclose(actual, np.broadcast_to(v.mean(axis=1, keepdims=True), v.shape), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


ATTENTION = """
func.func @att(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %m: tensor<4xf32>) -> tensor<2x4x8xf32> {
  %s = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x4x8xf32>
  %r = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s, %m : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, f32, tensor<4xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<2x4x8xf32>
  return %r : tensor<2x4x8xf32>
}
"""


# ---- IREE interop -----------------------------------------------------------------------------


def iree_opt(text: str, tmp_path: Path, *flags: str) -> str:
    src = tmp_path / "in.mlir"
    src.write_text(text)
    result = subprocess.run([IREE_OPT, str(src), *flags], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not on PATH")
@pytest.mark.parametrize("generic", [False, True])
@pytest.mark.parametrize("name", POSITIVE)
def test_iree_opt_reads_what_we_print(name: str, generic: bool, tmp_path: Path):
    ours = print_module(apply_pipeline(cases()[name], PASS), generic=generic)
    iree_first = iree_opt(ours, tmp_path)
    assert "iree_linalg_ext.attention <indexing_maps = [" in iree_first
    ours_again = print_module(parse_module(iree_first, "iree.mlir"), generic=generic)
    assert iree_opt(ours_again, tmp_path) == iree_first


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not on PATH")
def test_iree_rejects_what_our_verifier_rejects(tmp_path: Path):
    """A mask whose size disagrees with the key dim it indexes is invalid for both."""
    text = ATTENTION.replace("%m: tensor<4xf32>", "%m: tensor<5xf32>").replace("f32, tensor<4xf32>)", "f32, tensor<5xf32>)")
    with pytest.raises(Exception, match="d2 has size 4 and 5"):
        apply_pipeline(text, [])
    src = tmp_path / "bad.mlir"
    src.write_text(text)
    assert subprocess.run([IREE_OPT, str(src)], capture_output=True, text=True).returncode != 0
    apply_pipeline(ATTENTION, [])  # the unmodified op verifies


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed")
@pytest.mark.parametrize("name", POSITIVE)
def test_iree_builds_and_runs_the_raised_op_like_our_interpreter(name: str, tmp_path: Path):
    src = tmp_path / f"{name}.mlir"
    src.write_text(raised(name))
    vmfb = compile_vmfb(src, tmp_path / f"{name}.vmfb", cpu_flags("host"))
    compile_vmfb(src, tmp_path / f"{name}.cuda.vmfb", cuda_flags("sm_80"))  # builds without a GPU
    module = parse_file(src)
    entry = find_entry(module)
    rng = np.random.default_rng(1)
    inputs = [rng.standard_normal(arg.type.get_shape()).astype(np.float32) for arg in entry.args[:3]]
    mask = np.array([0.0, -np.inf, 0.5, -3.4e38], np.float32)
    extra = {"bert_like": [mask], "torch_sdpa_guarded": [mask], "onnx_isnan_guarded": [mask],
             "select_mask": [np.array([1, 0, 1, 1])]}
    inputs += extra.get(name, [])
    assert len(inputs) == len(entry.args)
    ours = run_module(module, inputs)[0]
    iree = run_vmfb(vmfb, inputs, entry.sym_name.data)[0]
    np.testing.assert_allclose(iree, ours, rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed")
def test_interpreter_matches_iree_on_fully_masked_rows(tmp_path: Path):
    """Rows masked entirely: -inf gives NaN in IREE and in our interpreter; -FLT_MAX (unclamped,
    written by hand) overflows to -inf in IREE's mask * log2 e, NaN as well."""
    text = ATTENTION
    src = tmp_path / "att.mlir"
    src.write_text(text)
    vmfb = compile_vmfb(src, tmp_path / "att.vmfb", cpu_flags("host"))
    module = parse_file(src)
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((2, 4, 8)).astype(np.float32) for _ in range(3))
    for mask, all_nan in (
        (np.array([0.0, -np.inf, 1.0, -1e30], np.float32), False),
        (np.full(4, -np.inf, np.float32), True),
        (np.full(4, np.finfo(np.float32).min, np.float32), True),
    ):
        ours = run_module(module, [q, k, v, mask])[0]
        iree = run_vmfb(vmfb, [q, k, v, mask], "att")[0]
        assert np.isnan(ours).all() == all_nan and np.isnan(iree).all() == all_nan
        np.testing.assert_allclose(iree, ours, rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed")
def test_guarded_rows_masked_entirely_are_zero(tmp_path: Path):
    """torch's guard turns a row masked entirely with -inf (NaN probabilities) into zeros, and
    into NaN where V's column holds an inf (0 * inf): the decomposed program, the raised one and
    IREE's build of the raised one all agree."""
    src = tmp_path / "guarded.mlir"
    src.write_text(raised("torch_sdpa_guarded"))
    vmfb = compile_vmfb(src, tmp_path / "guarded.vmfb", cpu_flags("host"))
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((1, 4, 16)).astype(np.float32) for _ in range(3))
    mask = np.full(4, -np.inf, np.float32)
    for v_inf in (False, True):
        if v_inf:
            v[0, 2, 5] = np.inf  # key 2, head 0, column 5
        before = run_module(cases()["torch_sdpa_guarded"], [q, k, v, mask])[0]
        after = run_module(parse_file(src), [q, k, v, mask])[0]
        iree = run_vmfb(vmfb, [q, k, v, mask], "torch_sdpa_guarded")[0]
        expected = np.zeros_like(before)
        expected[:, :, 5] = np.nan if v_inf else 0.0
        for result in (before, after, iree):
            np.testing.assert_array_equal(result, expected)


# ---- the models -------------------------------------------------------------------------------

STAGES_WITH_RAISE = (
    "linalg-fold-unit-reshapes,linalg-fold-transpose-into-matmul,linalg-fuse-elementwise{aggressive=false},"
    "linalg-merge-sibling-reductions,linalg-raise-attention,linalg-interchange-for-fusion,"
    "form-dispatch-regions,cse,canonicalize"
)


@pytest.mark.parametrize("model, layers, dispatches", [("bert_mini", 2, 21), ("gpt2_mini", 2, 16), ("minilm_l6", 6, 63)])
def test_models_get_one_attention_dispatch_per_layer(model: str, layers: int, dispatches: int):
    """minilm_l6 (torch's guarded softmax, Q and K copied out scaled): its copies fold into the
    attention, its guard joins the attention's dispatch, and a small reduction of V gives the
    guarded rows' values: 4 dispatches per layer fewer (87 -> 63)."""
    path = model_dir(model) / f"{model}.args.linalg.mlir"
    if not path.exists():
        pytest.skip(f"model corpus not present ({path})")
    after = apply_pipeline(path.read_text(), STAGES_WITH_RAISE)
    names = [op.name for op in after.walk()]
    assert names.count("iree_linalg_ext.attention") == layers
    assert names.count("linalg.transpose") == 0
    assert names.count("flow.dispatch.region") == dispatches


@pytest.mark.parametrize("model, layers, linalg_regions, onnx_regions",
                         [("bert_mini", 2, 17, 17), ("gpt2_mini", 2, 16, 17), ("minilm_l6", 6, 45, 45)])
def test_fewest_pipelines_raise_every_layer(model: str, layers: int, linalg_regions: int, onnx_regions: int):
    """dispatch-creation-llvm-cpu-fewest on torch-mlir's linalg and graph-to-dispatch-llvm-cpu-fewest
    on the ONNX file (our importer: minilm_l6's guard is its IsNaN, not (p oeq p)) raise every
    layer's attention and give it a CPU tile (IREE default: 37, 37, 101 dispatches)."""
    linalg, onnx_file = (model_dir(model) / f"{model}.args.{ext}" for ext in ("linalg.mlir", "onnx"))
    if not (linalg.exists() and onnx_file.exists()):
        pytest.skip(f"model corpus not present ({linalg.parent})")
    formed = {"linalg": apply_pipeline(linalg.read_text(), "dispatch-creation-llvm-cpu-fewest"),
              "onnx": apply_pipeline(print_module(import_onnx(onnx_file)), "graph-to-dispatch-llvm-cpu-fewest")}
    for path, module in formed.items():
        ops = list(module.walk())
        attention = [op for op in ops if op.name == "iree_linalg_ext.attention"]
        assert len(attention) == layers and all("compilation_info" in op.attributes for op in attention), path
        assert [op.name for op in ops].count("flow.dispatch.region") == {"linalg": linalg_regions, "onnx": onnx_regions}[path]


def test_minilm_guard_reductions_join_the_attention_dispatches():
    """With form-dispatch-regions{guards-into-attention}, the reduction of V each guard reads is
    computed in its attention's dispatch: one dispatch per layer fewer (63 -> 57)."""
    path = model_dir("minilm_l6") / "minilm_l6.args.linalg.mlir"
    if not path.exists():
        pytest.skip(f"model corpus not present ({path})")
    after = apply_pipeline(path.read_text(), STAGES_WITH_RAISE.replace(
        "form-dispatch-regions", "form-dispatch-regions{guards-into-attention=true}"))
    regions = [op for op in after.walk() if op.name == "flow.dispatch.region"]
    assert len(regions) == 57
    with_attention = [r for r in regions if any(o.name == "iree_linalg_ext.attention" for o in r.walk())]
    assert len(with_attention) == 6
    assert all(sum(du.has_reduction_loops(o) for o in r.walk() if o.name == "linalg.generic") == 1
               for r in with_attention)


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed")
@pytest.mark.parametrize("formation, generics", [
    ("form-dispatch-regions", 1),  # the V reduction in a dispatch of its own
    ("form-dispatch-regions{guards-into-attention=true}", 2),  # in the attention's (llvm-cpu)
])
def test_iree_builds_the_formed_guarded_attention(formation: str, generics: int, tmp_path: Path):
    """Our regions of the guarded case (the attention with the guard as its epilogue, the V
    reduction on its own or in the attention's region) build in IREE and compute what the
    input program does."""
    formed = apply_pipeline(cases()["torch_sdpa_guarded"], STAGES_WITH_RAISE.replace("form-dispatch-regions", formation))
    regions = [op for op in formed.walk() if op.name == "flow.dispatch.region"]
    (attention_region,) = [r for r in regions if any(o.name == "iree_linalg_ext.attention" for o in r.walk())]
    assert [o.name for o in attention_region.walk()].count("linalg.generic") == generics
    src = tmp_path / "formed.mlir"
    src.write_text(print_module(formed))
    vmfb = compile_vmfb(src, tmp_path / "formed.vmfb", cpu_flags("host"))
    before = parse_module(cases()["torch_sdpa_guarded"])
    for family in FAMILIES_EXACT:
        inputs = family_inputs(find_entry(before), family, seed=4)
        expected = run_module(before, inputs)[0]
        got = run_vmfb(vmfb, inputs, "torch_sdpa_guarded")[0]
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=family)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5, err_msg=family)
