"""Dispatch-creation passes on small IR: every lit case computes the same numbers after its pass,
IREE accepts and compiles the regions we form, and the analysis predicates behave.

The lit files under test/lit/transforms/<stage>/ check *what* each pass does; this module proves the
rewrites are semantics-preserving on the very same inputs (numpy interpreter, random inputs)
and that `iree-compile` turns every formed region into a dispatch it can build.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fusionopt.ir_io import parse_module
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.fusion_decision import decide_fusion_groups
from support.iree_pairs import assert_builds_together

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms"
IREE_COMPILE = shutil.which("iree-compile")

PASS_FILES = {
    "form-dispatch-regions": "dispatch/form-dispatch-regions.mlir",
    "form-dispatch-regions{aggressive=true}": "dispatch/form-dispatch-regions.mlir",
    "form-dispatch-regions{reduction-chains=all}": "dispatch/form-dispatch-regions.mlir",
    "form-dispatch-regions{reduction-chains=none}": "dispatch/form-dispatch-regions.mlir",
    "form-dispatch-regions{padded-min-pixels=16}": "dispatch/form-dispatch-regions-padded-1x1.mlir",
    "form-dispatch-regions{padded-min-pixels=0}": "dispatch/form-dispatch-regions-padded-1x1.mlir",
    "convert-to-flow": "dispatch/convert-to-flow.mlir",
    "linalg-fold-transpose-into-matmul": "linalg/linalg-fold-transpose-into-matmul.mlir",
    "linalg-fold-transpose-into-matmul{row-major-activations=true}": "linalg/linalg-fold-transpose-into-matmul.mlir",
    "linalg-fold-unit-reshapes": "linalg/linalg-fold-unit-reshapes.mlir",
    "linalg-interchange-for-fusion": "linalg/linalg-interchange-for-fusion.mlir",
    "linalg-merge-sibling-reductions": "linalg/linalg-merge-sibling-reductions.mlir",
    "linalg-merge-sibling-reductions{rewrite-variance=true}": "linalg/linalg-merge-sibling-reductions.mlir",
    "dispatch-creation": "dispatch/form-dispatch-regions.mlir",
    "dispatch-hoist-dense-constants": "dispatch/dispatch-hoist-dense-constants.mlir",
}


def lit_cases(filename: str) -> list[str]:
    text = (LIT / filename).read_text()
    return [chunk for chunk in text.split("// -----") if "func.func" in chunk]


def function_names(text: str) -> list[str]:
    return [
        line.strip()[len("func.func @"):].split("(")[0]
        for line in text.splitlines()
        if line.strip().startswith("func.func @")
    ]


# IREE's region rules (iree_rules.py) have their own lit file, checked with both modes.
IREE_RULES_FILE = "dispatch/form-dispatch-regions-iree-rules.mlir"
# LinalgExt roots and encoding ops (their own file, same two modes).
EXT_ROOTS_FILE = "dispatch/form-dispatch-regions-ext-roots.mlir"
PASS_FILE_PAIRS = [*PASS_FILES.items()] + [
    (pipeline, filename)
    for filename in (IREE_RULES_FILE, EXT_ROOTS_FILE)
    for pipeline in ("form-dispatch-regions", "form-dispatch-regions{aggressive=true}")
]


def _case(pipeline: str, filename: str, index: int, entry: str):
    return pytest.param(pipeline, filename, index, entry, id=f"{pipeline}-{entry}")


CASES = [
    _case(pipeline, filename, index, entry)
    for pipeline, filename in PASS_FILE_PAIRS
    for index, chunk in enumerate(lit_cases(filename))
    for entry in function_names(chunk)
]


@pytest.mark.parametrize("pipeline,filename,index,entry", CASES)
def test_lit_case_preserves_semantics(pipeline: str, filename: str, index: int, entry: str):
    text = lit_cases(filename)[index]
    assert_pass_preserves_semantics(text, pipeline, seeds=(0,), rtol=1e-5, atol=1e-5, entry=entry)


GENERIC_CPU = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
               "--iree-llvmcpu-target-cpu=generic"]


@pytest.mark.skipif(IREE_COMPILE is None, reason="iree-compile is not on PATH")
def test_formed_regions_compile_with_iree(tmp_path: Path):
    """Every region `dispatch-creation` forms on the lit inputs builds for llvm-cpu."""
    formed = [apply_pipeline(text, "dispatch-creation") for text in lit_cases("dispatch/form-dispatch-regions.mlir")]
    assert_builds_together(formed, tmp_path, GENERIC_CPU)


@pytest.mark.skipif(IREE_COMPILE is None, reason="iree-compile is not on PATH")
@pytest.mark.parametrize("pipeline", ["form-dispatch-regions", "form-dispatch-regions{aggressive=true}"])
def test_iree_rule_regions_compile_with_iree(tmp_path: Path, pipeline: str):
    """The regions IREE's rules give (cloned dequantizations, regions in scf bodies, dynamic
    slices read inside a dispatch, row statistics in a chain, multi-result init fusion) build."""
    formed = [apply_pipeline(text, pipeline) for text in lit_cases(IREE_RULES_FILE)]
    assert_builds_together(formed, tmp_path, GENERIC_CPU)


# --- analysis predicates -------------------------------------------------------------------

CHAIN = """
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m1 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<8x16xf32>
  %m2 = linalg.matmul ins(%g, %b : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %m2 : tensor<8x16xf32>
}
"""


def _ops(module, name):
    return [op for op in module.walk() if op.name == name]


def test_root_and_clonable_predicates():
    module = parse_module(CHAIN)
    matmul = _ops(module, "linalg.matmul")[0]
    generic = _ops(module, "linalg.generic")[0]
    fill = _ops(module, "linalg.fill")[0]
    assert du.is_root_op(matmul) and du.is_contraction(matmul)
    assert not du.is_root_op(generic) and du.is_elementwise_linalg(generic)
    assert not du.is_root_op(fill) and du.is_clonable_into_dispatch(fill)
    assert du.is_clonable_into_dispatch(_ops(module, "tensor.empty")[0])
    assert not du.is_clonable_into_dispatch(generic)


def test_one_root_per_group_and_consumer_joins_first_root():
    module = parse_module(CHAIN)
    block = _ops(module, "func.func")[0].body.block
    analysis = decide_fusion_groups(block)
    roots_per_group = [sum(du.is_root_op(op) for op in g.ops) for g in analysis.groups]
    assert roots_per_group == [1, 1]
    negate = _ops(module, "linalg.generic")[0]
    first_matmul = _ops(module, "linalg.matmul")[0]
    assert analysis.group_of[negate] is analysis.group_of[first_matmul]


@pytest.mark.parametrize(
    "sizes,full,expected",
    [
        ([1, 1, 4], (5, 24, 48), True),  # partial innermost, unit outer dims
        ([1, 2, 48], (5, 24, 48), True),  # full innermost, then partial
        ([1, 2, 24], (5, 24, 48), False),  # partial innermost under a non-unit dim
        ([5, 24, 48], (5, 24, 48), True),
        ([2, 8], (4, 16), False),
    ],
)
def test_contiguity_rule(sizes, full, expected):
    params = ([0] * len(sizes), sizes, [1] * len(sizes))
    assert du.is_contiguous_slice(params, full) is expected


def test_strided_slice_is_never_contiguous():
    assert not du.is_contiguous_slice(([0, 0], [2, 16], [2, 1]), (4, 16))


def bias_add_region(result: str, source: str, bias: str) -> str:
    """A region adding a 64-value bias (`bias`, literal values) to `source`, an 8x64 tensor."""
    return f"""
  %{result} = flow.dispatch.region -> (tensor<8x64xf32>) {{
    %b = arith.constant dense<{bias}> : tensor<64xf32>
    %e = tensor.empty() : tensor<8x64xf32>
    %y = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}} ins(%{source}, %b : tensor<8x64xf32>, tensor<64xf32>) outs(%e : tensor<8x64xf32>) {{
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    }} -> tensor<8x64xf32>
    flow.return %y : tensor<8x64xf32>
  }}"""


@pytest.mark.skipif(IREE_COMPILE is None, reason="iree-compile is not on PATH")
def test_regions_equal_but_for_their_biases_build_one_executable(tmp_path: Path):
    """Two bias adds with 64 different values each (256 bytes: IREE would clone them into
    their dispatches): two executables as formed, one after the pass with its IREE flag, and
    the module still computes the same (IREE's run against the interpreter's)."""
    import subprocess

    import numpy as np

    from fusionopt import registry
    from fusionopt.interpreter.runner import run_function
    from fusionopt.ir_io import print_module
    from fusionopt.iree_tools import compile_vmfb, iree_available, run_vmfb
    from fusionopt.pipeline_spec import build_passes, parse_pipeline

    rng = np.random.default_rng(0)
    biases = ["[" + ", ".join(f"{v:.6f}" for v in rng.standard_normal(64)) + "]" for _ in range(2)]
    text = ("func.func @two_biases(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {"
            + bias_add_region("r0", "x", biases[0]) + bias_add_region("r1", "r0", biases[1])
            + "\n  func.return %r1 : tensor<8x64xf32>\n}\n")
    hoisted = apply_pipeline(text, "dispatch-hoist-dense-constants")
    pipeline = parse_pipeline("dispatch-hoist-dense-constants", registry.PIPELINES)
    flags = registry.iree_flags_for(build_passes(pipeline, registry.get_all_passes()))
    counts = []
    for module_text, extra in ((text, []), (print_module(hoisted), flags)):
        source = tmp_path / f"m{len(counts)}.mlir"
        source.write_text(module_text)
        flow = subprocess.run([IREE_COMPILE, str(source), *GENERIC_CPU, *extra, "--compile-to=flow"],
                              capture_output=True, text=True, check=True).stdout
        counts.append(flow.count("flow.executable private"))
    assert counts == [2, 1]
    if iree_available():
        x = rng.standard_normal((8, 64)).astype(np.float32)
        vmfb = compile_vmfb(tmp_path / "m1.mlir", tmp_path / "m1.vmfb", [*GENERIC_CPU, *flags])
        (got,) = run_vmfb(vmfb, [x], "two_biases")
        (want,) = run_function(parse_module(text), [x])
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
