"""`dispatch-transpose-unit-loops`: a transposing generic alone in its region computes without the
unit loops its input does not read. The lit cases compute what the input program computes on
random and adversarial inputs (against a float64 run) and fire where they should only; the CPU
pipelines run it, the CUDA ones do not; IREE builds ViT's scaled K region (197 keys of 6 x 64
read from rows of 1152) as a transpose, not a broadcast, bit for bit what the region computed
before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.dispatch.transpose_unit_loops import unread_unit_loops
from support.cpu_pipeline_cases import runs_on_cpu_only
from support.iree_pairs import build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "dispatch-transpose-unit-loops"
LIT = LIT_TRANSFORMS / "dispatch" / "dispatch-transpose-unit-loops.mlir"
# case -> generics left with unit loops their transposed input does not read
UNREAD_LEFT = {"scaled_keys": 0, "left_alone": 2}


def with_unread_unit_loops(module) -> int:
    return sum(op.name == "linalg.generic" and unread_unit_loops(op) is not None for op in module.walk())


def scaled_keys_region(keys: int = 197, heads: int = 6, dim: int = 64) -> str:
    """vit_s16_6l's K region as the CPU pipeline forms it: a [keys, 1, 3 * heads * dim] QKV
    row slice, viewed [keys, heads, dim], scaled by 1/sqrt(dim) and written [1, heads, dim, keys]."""
    width, row = heads * dim, 3 * heads * dim
    out = f"tensor<1x{heads}x{dim}x{keys}xf32>"
    return f"""func.func @main_graph(%qkv: tensor<{keys}x1x{row}xf32>) -> {out} {{
  %r = flow.dispatch.region -> ({out}) {{
    %s = tensor.extract_slice %qkv[0, 0, {width}] [{keys}, 1, {width}] [1, 1, 1] : tensor<{keys}x1x{row}xf32> to tensor<{keys}x1x{width}xf32>
    %c = tensor.collapse_shape %s [[0], [1, 2]] : tensor<{keys}x1x{width}xf32> into tensor<{keys}x{width}xf32>
    %x = tensor.expand_shape %c [[0], [1, 2]] output_shape [{keys}, {heads}, {dim}] : tensor<{keys}x{width}xf32> into tensor<{keys}x{heads}x{dim}xf32>
    %e = tensor.empty() : {out}
    %t = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%x : tensor<{keys}x{heads}x{dim}xf32>) outs(%e : {out}) {{
    ^bb0(%a: f32, %o: f32):
      %k = arith.constant 0.353553385 : f32
      %m = arith.mulf %a, %k : f32
      linalg.yield %m : f32
    }} -> {out}
    flow.return %t : {out}
  }}
  func.return %r : {out}
}}"""


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(UNREAD_LEFT)


@pytest.mark.parametrize("name", sorted(UNREAD_LEFT))
def test_the_lit_cases_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS)
    assert with_unread_unit_loops(after) == UNREAD_LEFT[name]


def test_the_cpu_pipelines_run_it_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_scaled_keys_as_a_transpose_bit_for_bit(tmp_path: Path):
    text = scaled_keys_region()
    ours = print_module(apply_pipeline(text, PASS))
    (tmp_path / "ours.mlir").write_text(ours)
    (tmp_path / "before.mlir").write_text(text)
    [ours_name] = flow_dispatch_names(tmp_path / "ours.mlir", cpu_flags("host"))
    [before_name] = flow_dispatch_names(tmp_path / "before.mlir", cpu_flags("host"))
    assert "elementwise_transpose" in ours_name and "elementwise_broadcast" in before_name
    vmfbs = build_llvm_cpu({"ours": ours, "before": print_module(parse_module(text))}, tmp_path)
    rng = np.random.default_rng(0)
    for qkv in (rng.standard_normal((197, 1, 1152)), 1000.5 + rng.standard_normal((197, 1, 1152))):
        image = qkv.astype(np.float32)
        np.testing.assert_array_equal(run_vmfb(vmfbs["ours"], [image], "main_graph")[0],
                                      run_vmfb(vmfbs["before"], [image], "main_graph")[0])
