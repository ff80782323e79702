"""`linalg-horizontal-fuse-contractions`: the fused contraction computes what the sibling matmuls
computed (interpreter, every input family), IREE builds it with the CPU register tiles and
returns the untouched module's values, and on bert_mini / minilm_l6 exactly the Q, K, V
projections of each layer fuse (two IREE dispatches fewer per layer). With `across-inputs`,
towers' same-depth layers fuse too: mlp_towers (weights as arguments) is 3 IREE dispatches in
`dispatch-creation-llvm-cpu-fewest`, agreeing with IREE's default build of the input.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.corpus import CORPUS_MISSING, model_file
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.interpreter import FAMILIES, family_inputs, run_function
from fusionopt.ir_io import parse_file, parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_agrees, build_llvm_cpu
from support.lit_cases import lit_functions, with_sizes

ROOT = Path(__file__).parents[3]
LIT_CASES = ROOT / "lit" / "transforms" / "linalg" / "linalg-horizontal-fuse-contractions.mlir"
MINILM = ROOT / "data" / "models" / "minilm_l6" / "minilm_l6.args.linalg.mlir"
PASS = "linalg-horizontal-fuse-contractions"
TOWERS = "linalg-horizontal-fuse-contractions{max-results=4 across-inputs=true}"
# the CPU pipeline with the pass just before region formation (where it is meant to run)
CPU_HORIZONTAL = PIPELINES["dispatch-creation-llvm-cpu"].spec.replace(",form-dispatch-regions", f",{PASS},form-dispatch-regions")
assert PASS in CPU_HORIZONTAL  # the pipeline spells its stages out


# the lit file's cases by function name (CHECK lines dropped)
CASES = lit_functions(LIT_CASES)


@pytest.mark.parametrize("label", ["qkv", "two_plain"])
def test_fused_contraction_preserves_semantics(label):
    after = print_module(assert_pass_preserves_semantics(CASES[label], PASS))
    assert "linalg.generic" in after and "linalg.matmul" not in after and "linalg.batch_matmul" not in after


@pytest.mark.parametrize("label", ["towers", "chain_and_tower", "not_siblings"])
def test_tower_fusion_preserves_semantics(label):
    after = print_module(assert_pass_preserves_semantics(CASES[label], TOWERS))
    assert "linalg.generic" in after


def test_tiled_only_keeps_the_untileable_pair_apart():
    """gate/up at N = 688 (no whole 32-column tiles) stay matmuls; at N = 256 they fuse; values
    unchanged on random and adversarial inputs."""
    after = print_module(assert_pass_preserves_semantics(CASES["gate_up"], f"{PASS}{{tiled-only=true}}"))
    assert after.count("linalg.matmul") == 2 and after.count("linalg.generic") == 1


def test_chain_member_stays():
    """The matmul that reads another's result is left out of the group (it stays a matmul)."""
    text = print_module(apply_pipeline(CASES["chain_and_tower"], TOWERS))
    assert text.count("linalg.matmul") == 1


def test_non_siblings_stay():
    text = print_module(apply_pipeline(CASES["not_siblings"], PASS))
    assert text.count("linalg.matmul") == 8



def qkv_module(m: int = 64, k: int = 128, n: int = 128) -> str:
    """The lit case at bert_mini's size."""
    return with_sizes(CASES["qkv"], {"1x8x4": f"1x{m}x{k}", "4x16": f"{k}x{n}", "1x8x16": f"1x{m}x{n}",
                                        "tensor<16xf32>": f"tensor<{n}xf32>"})


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_with_cpu_tiles_and_agrees(tmp_path):
    text = qkv_module()
    fused = print_module(apply_pipeline(parse_module(text), CPU_HORIZONTAL))
    assert fused.count("flow.dispatch.region") == 1 and "vector_common_parallel = [1, 4, 16, 0]" in fused
    vmfbs = build_llvm_cpu({"plain": text, "fused": fused}, tmp_path)
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in FAMILIES:
        args = family_inputs(func, family, seed=2)
        for got, expected in zip(run_vmfb(vmfbs["fused"], args, "qkv"), run_vmfb(vmfbs["plain"], args, "qkv"), strict=True):
            assert_agrees(got, expected, family)


def test_minilm_qkv_projections_fuse():
    module = apply_pipeline(parse_file(MINILM), CPU_HORIZONTAL)
    fused = [op for op in module.walk() if op.name == "linalg.generic" and len(op.results) == 3 and "compilation_info" in op.attributes]
    assert len(fused) == 6  # one per layer
    assert sum(op.name == "flow.dispatch.region" for op in module.walk()) == 87 - 2 * 6


@pytest.mark.parametrize("label,pipeline", [("qkv", PASS), ("towers", TOWERS)])
@pytest.mark.parametrize("family", FAMILIES)
def test_interpreter_sums_each_result_as_its_matmul(family, label, pipeline):
    """fusion-run computes each result of the fused contraction as the matmul it replaced (BLAS,
    fused multiply-adds), not as a sum of separately rounded products: bit-equal on every
    family, overflow included (a product of two values near the f32 limit)."""
    before = parse_module(CASES[label])
    after = apply_pipeline(parse_module(CASES[label]), pipeline)
    func = next(op for op in before.walk() if op.name == "func.func")
    args = family_inputs(func, family, seed=4)
    for got, expected in zip(run_function(after, args), run_function(before, args), strict=True):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_mlp_towers_fewest_is_three_dispatches_equal_to_iree(tmp_path):
    """Weights as arguments: the four first layers share `x`, each deeper depth's four layers read
    different activations; each depth is one dispatch, and the concat of the heads is free."""
    source = model_file("mlp_towers", "args.linalg.mlir")
    if not source.is_file():
        pytest.skip(CORPUS_MISSING)
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(parse_file(str(source)), "dispatch-creation-llvm-cpu-fewest")))
    assert len(flow_dispatch_names(ours, cpu_flags())) == 3 < len(flow_dispatch_names(source, cpu_flags()))
    default_vmfb = compile_vmfb(source, tmp_path / "default.vmfb", cpu_flags())
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags())
    func = next(op for op in parse_file(str(source)).walk() if op.name == "func.func")
    for family in FAMILIES:
        args = family_inputs(func, family, seed=3)
        want = run_vmfb(default_vmfb, args, "main_graph")[0]
        assert_agrees(run_vmfb(ours_vmfb, args, "main_graph")[0], want, family)


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_mlp_towers_onnx_fewest_is_three_dispatches(tmp_path):
    onnx_file = model_file("mlp_towers", "args.onnx")
    if not onnx_file.is_file():
        pytest.skip(CORPUS_MISSING)
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(import_onnx(onnx_file), "graph-to-dispatch-llvm-cpu-fewest")))
    assert len(flow_dispatch_names(ours, cpu_flags())) == 3
