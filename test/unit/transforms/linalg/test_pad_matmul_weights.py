"""`linalg-pad-matmul-weights`: matmuls over constant weights with N columns no panel divides
compute N' (zeros appended) and are sliced back; the programs compute what they did on random and
adversarial inputs against a float64 run of the input, alone and through
`dispatch-creation-llvm-cpu` (where the padded weight is packed, in no more regions than without
the pass, plus the slice's copy); IREE builds a classifier head at its real size (1280 -> 1000) and
computes what its own build of the unpadded head computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.linalg.linalg_pad_conv_filters import panel_padded_size
from support.cpu_pipeline_cases import CPU, dense, packed_contractions, regions, runs_on_cpu_only, without_pass
from support.iree_pairs import assert_agrees, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-pad-matmul-weights"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-pad-matmul-weights.mlir"
FAMILIES = ("random", "constant", "offset", "zeros", "extreme")
# case -> matmuls whose weight was padded (their results sliced back)
PADDED = {"head": 1, "thousand": 1, "stays": 1, "large_slice": 0}


def sliced_matmuls(module) -> int:
    return sum(op.name == "tensor.extract_slice" for op in module.walk())


@pytest.mark.parametrize("name", sorted(PADDED))
def test_padded_matmuls_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS, families=FAMILIES)
    assert sliced_matmuls(after) == PADDED[name]


@pytest.mark.parametrize("name", ["head", "thousand"])
def test_through_the_cpu_pipeline_the_padded_weight_is_packed(name: str):
    text = lit_functions(LIT)[name]
    after = assert_pass_preserves_semantics(text, CPU, families=FAMILIES)
    before = apply_pipeline(text, without_pass(CPU, PASS))
    assert packed_contractions(after) == 1 and packed_contractions(before) == 0
    assert regions(after) == regions(before)


@pytest.mark.parametrize(("columns", "padded"), [
    (1000, 1024), (200, 224), (1001, 1024), (330, 352), (96, None), (256, None), (100, None), (40, None), (130, None),
])
def test_panel_padded_size(columns: int, padded: int | None):
    assert panel_padded_size(columns) == padded


def test_the_cpu_pipelines_pad_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


def classifier_head(inputs: int = 1280, classes: int = 1000, seed: int = 0) -> str:
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((inputs, classes)) * 0.03
    b = rng.standard_normal(classes) * 0.1
    out = f"tensor<1x{classes}xf32>"
    return f"""func.func @head(%x: tensor<1x{inputs}xf32>) -> {out} {{
  %w = arith.constant {dense(w)} : tensor<{inputs}x{classes}xf32>
  %b = arith.constant {dense(b)} : tensor<{classes}xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {out}
  %f = linalg.fill ins(%z : f32) outs(%e : {out}) -> {out}
  %m = linalg.matmul ins(%x, %w : tensor<1x{inputs}xf32>, tensor<{inputs}x{classes}xf32>) outs(%f : {out}) -> {out}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%m, %b : {out}, tensor<{classes}xf32>) outs(%e : {out}) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  }} -> {out}
  func.return %r : {out}
}}
"""


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_a_classifier_head_and_agrees(tmp_path: Path):
    text = classifier_head()
    vmfbs = build_llvm_cpu({"ours": print_module(apply_pipeline(text, CPU)),
                            "reference": print_module(parse_module(text))}, tmp_path)
    from fusionopt.iree_tools import run_vmfb

    rng = np.random.default_rng(1)
    for family, x in {"random": rng.standard_normal((1, 1280)), "offset": 1000.5 + rng.standard_normal((1, 1280))}.items():
        x = x.astype(np.float32)
        (got,), (expected,) = run_vmfb(vmfbs["ours"], [x], "head"), run_vmfb(vmfbs["reference"], [x], "head")
        assert got.shape == (1, 1000)
        assert_agrees(got, expected, family)
