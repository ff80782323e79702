"""`dispatch-matmul-cpu-tiles`: the config changes no value (interpreter, every input family),
IREE builds what the pass prints and returns the same values as without the config on random
and adversarial inputs (float64 reference), and on the corpus the pass configures exactly the
transformers' weight matmuls and nothing of the CNNs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt import pass_statistics
from fusionopt.interpreter import FAMILIES, family_inputs
from fusionopt.ir_io import parse_file, parse_module, print_module
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import without_pass
from support.iree_pairs import assert_agrees, build_llvm_cpu
from support.lit_cases import lit_functions, with_sizes

ROOT = Path(__file__).parents[3]
LIT_CASES = ROOT / "lit" / "transforms" / "dispatch" / "dispatch-matmul-cpu-tiles.mlir"
MODELS = ROOT / "data" / "models"
PASS = "dispatch-matmul-cpu-tiles"


# the lit file's cases by function name (CHECK lines dropped)
CASES = lit_functions(LIT_CASES)



@pytest.mark.parametrize("label", ["batch_one_weight", "plain_and_batched_weight"])
def test_config_preserves_semantics(label):
    after = print_module(assert_pass_preserves_semantics(CASES[label], PASS))
    assert "vector_common_parallel = [1, 4, 64, 0]" in after


def test_printed_form_reads_back():
    """The config is IREE's attribute syntax, kept as opaque text: fusion-opt reads its own output
    back unchanged, and reads the config where MLIR also takes it (after `outs`)."""
    printed = print_module(apply_pipeline(parse_module(CASES["batch_one_weight"]), PASS))
    assert print_module(parse_module(printed)) == printed
    configured = print_module(parse_module(CASES["configured_stays"]))
    assert "linalg.matmul {compilation_info = #iree_codegen.compilation_info<" in configured


def ffn_module(m: int = 64, k: int = 1536, n: int = 384) -> str:
    """minilm_l6's FFN2 region: [1, M, K] x [K, N] + bias, as dispatch-creation forms it."""
    return with_sizes(CASES["batch_one_weight"], {"1x8x16": f"1x{m}x{k}", "16x128": f"{k}x{n}", "1x8x128": f"1x{m}x{n}",
                                                     "tensor<128xf32>": f"tensor<{n}xf32>"})


def float64_reference(args: list[np.ndarray]) -> np.ndarray:
    x, w, b = (a.astype(np.float64) for a in args)
    return x @ w + b


def build_both(text: str, folder: Path) -> dict:
    """IREE modules of `text` as given and after the pass (which must configure something)."""
    tiled = print_module(apply_pipeline(parse_module(text), PASS))
    assert "compilation_info =" in tiled
    return build_llvm_cpu({"plain": text, "tiled": tiled}, folder)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_and_agrees(tmp_path):
    text = ffn_module()
    vmfbs = build_both(text, tmp_path)
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in FAMILIES:
        args = family_inputs(func, family, seed=3)
        got = run_vmfb(vmfbs["tiled"], args, "batch_one_weight")[0]
        assert_agrees(got, run_vmfb(vmfbs["plain"], args, "batch_one_weight")[0], family)
        reference = float64_reference(args)
        sure = np.isfinite(got) & (np.abs(reference) < np.finfo(np.float32).max / 2)
        np.testing.assert_allclose(got[sure], reference[sure], rtol=1e-3,
                                   atol=1e-4 * float(np.abs(reference[sure]).max(initial=0.0)), err_msg=family)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_small_tiles_and_agrees(tmp_path):
    """Four-row matrices (one 4-row workgroup) and the [1, K, N] weight form."""
    assert_tiled_build_agrees("plain_and_batched_weight", 5, tmp_path)


def assert_tiled_build_agrees(label: str, seed: int, folder: Path) -> None:
    """IREE's builds of lit case `label` with and without the pass agree on every family."""
    assert "compilation_info =" in print_module(apply_pipeline(parse_module(CASES[label]), PASS))
    assert_build_agrees_with_iree(CASES[label], label, "", seed, folder)


def configured(module) -> list[str]:
    return [op.name for op in module.walk() if "compilation_info" in op.attributes]


def test_minilm_weight_matmuls_only():
    module = apply_pipeline(parse_file(MODELS / "minilm_l6" / "minilm_l6.args.linalg.mlir"), "dispatch-creation-llvm-cpu")
    # 24 Q/K/V/output projections, 6 FFN1, 6 FFN2; the batch-12 attention contractions keep IREE's tile
    assert configured(module) == ["linalg.batch_matmul"] * 36
    assert sum(op.name == "flow.dispatch.region" for op in module.walk()) == 87


def test_cnn_convs_untouched():
    """resnet18's convs are conv named ops and its head an NT matmul of one row: no matmul tile.
    `dispatch-conv-kxk-cpu-tiles` configures some of its 3x3 convs; this pass only the four 3x3
    convs at 8 x 8 pixels that are im2col contractions written as generics (128 filters x 576 or
    1152 x 64 pixels: 0.93x-0.95x of IREE's own tile's time, each alone, one thread)."""
    def generic_matmuls(module) -> list[str]:
        return [str(op.operands[0].type) for op in module.walk()
                if op.name == "linalg.generic" and "compilation_info" in op.attributes]

    linalg = parse_file(MODELS / "cnn" / "resnet18" / "resnet18.args.linalg.mlir")
    module = apply_pipeline(linalg, "dispatch-creation-llvm-cpu")
    assert set(configured(module)) == {"linalg.conv_2d_nhwc_hwcf", "linalg.generic"}
    assert sorted(generic_matmuls(module)) == ["tensor<128x1152xf32>"] * 3 + ["tensor<128x576xf32>"]
    without_kxk = without_pass("dispatch-creation-llvm-cpu", "dispatch-conv-kxk-cpu-tiles")
    module = apply_pipeline(parse_file(MODELS / "cnn" / "resnet18" / "resnet18.args.linalg.mlir"), without_kxk)
    assert configured(module) == ["linalg.generic"] * 4


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_workgroups_dividing_m_and_agrees(tmp_path):
    """Rows per workgroup dividing M (12 and 24 here; attn_tail's M = 348 gets 116)."""
    assert_pass_preserves_semantics(CASES["rows_dividing_m"], PASS)
    assert_tiled_build_agrees("rows_dividing_m", 7, tmp_path)


@pytest.mark.parametrize(("label", "configured"), [("partial_tiles", 4), ("batched_generic", 1), ("generic_matmul", 1)])
def test_partial_tiles_preserve_semantics(label, configured):
    after = print_module(assert_pass_preserves_semantics(CASES[label], PASS))
    assert after.count("enable_loop_peeling = true") == configured


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("label", ["partial_tiles", "batched_generic", "generic_matmul"])
def test_iree_builds_partial_tiles_and_agrees(label, tmp_path):
    """Peeled remainder rows (M = 6), columns (N = 80 or 70) and both in a batch of 3, named
    batch_matmul and generic; a 2-D matmul as a generic."""
    assert_tiled_build_agrees(label, 11, tmp_path)


# The generic matmul case at wav2vec2's fourth feature-encoder conv (512 filters x 512 channels
# x 3 taps over 199 frames, as im2col): 23 ms in IREE's own tile, 3.0 ms with the pass's.
WAV2VEC2_CONV = {"8x16": "512x1536", "16x80": "1536x199", "8x80": "512x199", "16x64": "1536x64", "8x64": "512x64",
                 "16x32": "1536x32", "8x32": "512x32"}


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_a_conv1d_generic_matmul_at_real_size_and_agrees(tmp_path):
    text = with_sizes(CASES["generic_matmul"], WAV2VEC2_CONV)
    assert print_module(apply_pipeline(parse_module(text), PASS)).count("enable_loop_peeling = true") == 1
    assert_build_agrees_with_iree(text, "generic_matmul", "", 13, tmp_path)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_vit_attention_values_and_agrees(tmp_path):
    """The ViT's probabilities times V (6 heads, 197 tokens, V in [T, H, d]) as the generic."""
    text = with_sizes(CASES["batched_generic"], {"3x6x9": "6x197x197", "9x3x70": "197x6x64", "3x6x70": "6x197x64"})
    assert "6x197x64xf32" in text and "3x6" not in text
    assert_pass_preserves_semantics(text, PASS, families=("random",))
    vmfbs = build_both(text, tmp_path)
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in FAMILIES:
        args = family_inputs(func, family, seed=17)
        (got,), (theirs,) = (run_vmfb(vmfbs[v], args, "batched_generic") for v in ("tiled", "plain"))
        assert_agrees(got, theirs, family)


def contraction_region(name: str, op: str, lhs: str, rhs: str, out: str) -> str:
    return f"""  %{name} = flow.dispatch.region -> (tensor<{out}>) {{
    %e = tensor.empty() : tensor<{out}>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{out}>) -> tensor<{out}>
    %c = {op} ins(%{name}_l, %{name}_r : tensor<{lhs}>, tensor<{rhs}>) outs(%f : tensor<{out}>) -> tensor<{out}>
    flow.return %c : tensor<{out}>
  }}
"""


def vit_contractions(tokens: int = 197, hidden: int = 384, ffn: int = 1536, heads: int = 6, head: int = 64) -> str:
    """A ViT's FFN1 matmul ([T, D] x [D, F]) and attention scores ([H, T, d] x [H, d, T]) at 197
    tokens, one region each: both leave partial 4 x 64 register tiles."""
    shapes = {"ffn": ("linalg.matmul", f"{tokens}x{hidden}xf32", f"{hidden}x{ffn}xf32", f"{tokens}x{ffn}xf32"),
              "qk": ("linalg.batch_matmul", f"{heads}x{tokens}x{head}xf32", f"{heads}x{head}x{tokens}xf32",
                     f"{heads}x{tokens}x{tokens}xf32")}
    args = ", ".join(f"%{n}_l: tensor<{l}>, %{n}_r: tensor<{r}>" for n, (_, l, r, _) in shapes.items())
    results = ", ".join(f"tensor<{o}>" for *_, o in shapes.values())
    body = "".join(contraction_region(n, *s) for n, s in shapes.items())
    return (f"func.func @vit({args}) -> ({results}) {{\n  %zero = arith.constant 0.0 : f32\n{body}"
            f"  func.return %ffn, %qk : {results}\n}}\n")


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_vit_sizes_and_agrees(tmp_path):
    """At the ViT's sizes IREE's peeled build agrees with float64 wherever the exact result is an
    f32 (and is finite there, but for `extreme`), and with IREE's own build wherever that one is
    finite. On `extreme`
    inputs every exact score overflows: IREE's own masked kernel sums them to NaN in 92% of
    the places, the peeled one to the overflow's infinity."""
    text = vit_contractions()
    assert print_module(apply_pipeline(parse_module(text), PASS)).count("enable_loop_peeling = true") == 2
    vmfbs = build_both(text, tmp_path)
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in FAMILIES:
        args = [a.astype(np.float64) for a in family_inputs(func, family, seed=13)]
        references = (args[0] @ args[1], np.einsum("hmk,hkn->hmn", args[2], args[3]))
        inputs = [a.astype(np.float32) for a in args]
        plain = run_vmfb(vmfbs["plain"], inputs, "vit")
        for got, theirs, reference in zip(run_vmfb(vmfbs["tiled"], inputs, "vit"), plain, references, strict=True):
            sure = np.abs(reference) < np.finfo(np.float32).max / 2
            if family != "extreme":  # there partial sums overflow even where the exact sum does not
                assert np.isfinite(got[sure]).all(), family
            sure &= np.isfinite(got)
            scale = float(np.abs(reference[sure]).max(initial=0.0))
            np.testing.assert_allclose(got[sure], reference[sure], rtol=1e-3, atol=1e-4 * scale, err_msg=family)
            both = np.isfinite(theirs)
            assert_agrees(got[both], theirs[both], family)


def split_rows_statistics(text: str, pipeline: str) -> tuple[str, dict[str, int]]:
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting(pipeline, stats):
        after = print_module(assert_pass_preserves_semantics(text, pipeline))
    return after, stats.runs[0][1]


SPLIT = "peeled matmuls split over row workgroups"
REMAINDERS = "peeled matmuls given column workgroups with a remainder"


def test_column_remainders_and_split_rows_preserve_semantics_and_are_counted():
    """Every input family: the configs change no value. By default the three N = 80 matmuls get
    64-column workgroups and a remainder; without column-remainders two of them (M = 16 and 12,
    one workgroup each otherwise) are split over rows instead; each is counted."""
    after, counts = split_rows_statistics(CASES["split_rows"], PASS)
    assert "distribution = [16, 64, 0]" in after and "distribution = [12, 64, 0]" in after
    assert counts.get(REMAINDERS) == 3 and SPLIT not in counts
    split, counts = split_rows_statistics(CASES["split_rows"], f"{PASS}{{column-remainders=false}}")
    assert "distribution = [8, 80, 0]" in split and split.count("distribution = [4, 80, 0]") == 2
    assert counts.get(SPLIT) == 2 and REMAINDERS not in counts
    whole, counts = split_rows_statistics(CASES["split_rows"], f"{PASS}{{column-remainders=false split-rows=false}}")
    assert "distribution = [16, 80, 0]" in whole and SPLIT not in counts and REMAINDERS not in counts


def assert_build_agrees_with_iree(text: str, function: str, options: str, seed: int, folder: Path) -> None:
    """IREE's builds of `text` as given and after the pass with `options` agree on every family."""
    tiled = print_module(apply_pipeline(parse_module(text), f"{PASS}{options}"))
    vmfbs = build_llvm_cpu({"plain": text, "tiled": tiled}, folder)
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in FAMILIES:
        args = family_inputs(func, family, seed=seed)
        for got, theirs in zip(run_vmfb(vmfbs["tiled"], args, function), run_vmfb(vmfbs["plain"], args, function),
                               strict=True):
            assert_agrees(got, theirs, family)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("options", ["", "{column-remainders=false}"])
def test_iree_builds_column_remainders_and_split_rows_and_agree(options, tmp_path):
    """Remainder column workgroups ([16, 64] over N = 80) and row-split ones ([8, 80] of 16 rows,
    [4, 80] of 12) build and agree with IREE's own build on random and adversarial inputs."""
    assert_build_agrees_with_iree(CASES["split_rows"], "split_rows", options, 19, tmp_path)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_decoder_lm_head_and_agrees(tmp_path):
    """A decoder's LM head (64 tokens x 256 . 256 x 1000 vocabulary) gets 64-column workgroups
    (16, the last one of 40 columns); IREE's build agrees with its own and with float64 on every
    family."""
    text = lm_head_module()
    tiled = print_module(apply_pipeline(parse_module(text), PASS))
    assert "distribution = [64, 64, 0]" in tiled and "enable_loop_peeling = true" in tiled
    vmfbs = build_llvm_cpu({"plain": text, "tiled": tiled}, tmp_path)
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in FAMILIES:
        args = family_inputs(func, family, seed=23)
        (got,), (theirs,) = (run_vmfb(vmfbs[v], args, "lm_head") for v in ("tiled", "plain"))
        assert_agrees(got, theirs, family)
        with np.errstate(invalid="ignore", over="ignore"):  # the extreme family's inf * 0
            reference = args[0].astype(np.float64) @ args[1].astype(np.float64)
        sure = np.isfinite(got) & (np.abs(reference) < np.finfo(np.float32).max / 2)
        np.testing.assert_allclose(got[sure], reference[sure], rtol=1e-3,
                                   atol=1e-4 * float(np.abs(reference[sure]).max(initial=0.0)), err_msg=family)


def lm_head_module(m: int = 64, k: int = 256, n: int = 1000) -> str:
    return (f"func.func @lm_head(%x: tensor<{m}x{k}xf32>, %w: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{\n"
            f"  %zero = arith.constant 0.0 : f32\n"
            + contraction_region("r", "linalg.matmul", f"{m}x{k}xf32", f"{k}x{n}xf32", f"{m}x{n}xf32")
            .replace("%r_l", "%x").replace("%r_r", "%w")
            + f"  func.return %r : tensor<{m}x{n}xf32>\n}}\n")
