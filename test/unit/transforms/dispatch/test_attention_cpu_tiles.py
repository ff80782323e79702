"""`dispatch-attention-cpu-tiles`: the config changes no value (interpreter, every input family),
IREE builds what the pass prints and computes what IREE's own config does and what a float64 run
of the input program does, on random and adversarial inputs; the CPU pipelines configure the
attention ops a program brings (bert_mini's, once raised) and none where there are none.

The cases are the `// -----` functions of test/lit/transforms/dispatch/dispatch-attention-cpu-tiles.mlir.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.corpus import model_dir
from fusionopt.interpreter import find_entry, run_function
from fusionopt.interpreter.input_families import FAMILIES, family_inputs
from fusionopt.ir_io import parse_file, print_module
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, parse_module
from support.iree_pairs import assert_agrees, build_llvm_cpu
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "dispatch" / "dispatch-attention-cpu-tiles.mlir"
PASS = "dispatch-attention-cpu-tiles"
CONFIGURED = ("bert_layer", "two_batch_dims_head_dim_32", "head_dim_128_causal", "grouped_query_two_m_dims", "dividing_tiles")
# `extreme` makes Q.K overflow, and IREE's exp2 form scales the scores by log2 e first: a score in
# (FLT_MAX / log2 e, FLT_MAX] is inf there and finite in the float64 run (the op's documented
# limit, see dialects/iree_linalg_ext.py), whatever the tile.
FAMILIES_EXACT = tuple(f for f in FAMILIES if f != "extreme")


def cases() -> dict[str, str]:
    return lit_functions(LIT)


def attention_configs(module) -> list[str]:
    return [str(op.attributes["compilation_info"]) for op in module.walk()
            if op.name == "iree_linalg_ext.attention" and "compilation_info" in op.attributes]


@pytest.mark.parametrize("name", CONFIGURED)
def test_config_preserves_semantics(name):
    after = assert_pass_preserves_semantics(cases()[name], PASS, seeds=(0,))
    assert len(attention_configs(after)) == 1


def test_partial_tiles_are_configured_only_with_the_option():
    after = assert_pass_preserves_semantics(cases()["partial_tiles"], PASS, seeds=(0,))
    assert len(attention_configs(after)) == 2
    assert attention_configs(apply_pipeline(cases()["partial_tiles"], f"{PASS}{{partial-tiles=false}}")) == []


def test_left_to_iree():
    """Outside a region, f16, untileable query or key counts, a head dim over 256, a tuner's config."""
    for name in ("untiled", "configured_stays"):
        before = print_module(parse_module(cases()[name]))
        assert print_module(apply_pipeline(cases()[name], PASS)) == before


def test_printed_form_reads_back():
    printed = print_module(apply_pipeline(cases()["bert_layer"], PASS))
    assert print_module(parse_module(printed)) == printed
    assert "vector_common_parallel = [1, 8, 0, 0, 64], vector_reduction = [0, 0, 8, 0, 0]" in printed


def float64_runs(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    module = parse_module(text)
    return run_function(module, args, find_entry(module), float64=True)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("name, configs", [("bert_layer", 1), ("two_batch_dims_head_dim_32", 1), ("partial_tiles", 2),
                                           ("grouped_query_two_m_dims", 1), ("dividing_tiles", 1)])
def test_iree_builds_and_agrees(name, configs, tmp_path):
    """Partial tiles too: IREE masks the rows and keys past the last whole tile."""
    text = cases()[name]
    tiled = print_module(apply_pipeline(text, PASS))
    assert len(attention_configs(parse_module(tiled))) == configs
    vmfbs = build_llvm_cpu({"plain": text, "tiled": tiled}, tmp_path)
    func = find_entry(parse_module(text))
    for family in FAMILIES_EXACT:
        args = family_inputs(func, family, seed=3)
        references = float64_runs(text, args)
        for got, plain, reference in zip(run_vmfb(vmfbs["tiled"], args, name), run_vmfb(vmfbs["plain"], args, name),
                                         references, strict=True):
            # IREE's own tile sums the keys in other blocks: equal up to rounding, same NaN rows
            assert_agrees(got, plain, family, rtol=1e-4)
            assert np.array_equal(np.isnan(got), np.isnan(reference)), family
            sure = np.isfinite(reference)
            np.testing.assert_allclose(got[sure], reference[sure], rtol=1e-4,
                                       atol=1e-5 * float(np.abs(reference[sure]).max(initial=1.0)), err_msg=family)


def test_cpu_pipeline_configures_what_it_is_given():
    """An attention op at top level gets its region from form-dispatch-regions, then its tile."""
    top = cases()["bert_layer"].replace("%r = flow.dispatch.region -> (tensor<64x2x64xf32>) {", "").replace(
        "    flow.return %a : tensor<64x2x64xf32>\n  }\n  func.return %r", "  func.return %a")
    assert "flow.dispatch.region" not in top
    after = apply_pipeline(top, "dispatch-creation-llvm-cpu")
    assert len(attention_configs(after)) == 1
    assert sum(op.name == "flow.dispatch.region" for op in after.walk()) == 1


def test_bert_mini_attention_only_when_raised():
    """dispatch-creation-llvm-cpu raises no attention (the decomposed form is faster on CPU);
    raised first, both of bert_mini's layers get the head-dim-64 tile."""
    linalg = model_dir("bert_mini") / "bert_mini.args.linalg.mlir"
    if not linalg.exists():
        pytest.skip(f"model corpus not present ({linalg})")
    assert attention_configs(apply_pipeline(parse_file(linalg), "dispatch-creation-llvm-cpu")) == []
    with_raise = PIPELINES["dispatch-creation"].spec.replace(
        "linalg-merge-sibling-reductions", "linalg-merge-sibling-reductions,linalg-raise-attention")
    configs = attention_configs(apply_pipeline(parse_file(linalg), f"{with_raise},{PASS}"))
    assert len(configs) == 2 and all("vector_common_parallel = [1, 8, 0, 0, 64]" in c for c in configs)
