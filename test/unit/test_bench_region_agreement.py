"""bench/region_agreement.py: each formed region compiled alone and run by IREE and by the numpy
interpreter; a region IREE computes rightly reads "ok", SegFormer's transposed matmul stored
into a padded buffer (bench/iree_limits_found.py, IREE 3.13 writes wrong values, some outside the
buffer) reads "BAD" or takes the process down. Skipped without IREE."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline
from fusionopt.ir_io import print_module

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
import iree_limits_found  # noqa: E402

MATMUL_RELU = """func.func @main_graph(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %z : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
"""


def run_tool(formed: str, folder: Path) -> subprocess.CompletedProcess:
    path = folder / "formed.mlir"
    path.write_text(formed)
    return subprocess.run([sys.executable, str(BENCH / "region_agreement.py"), str(path)],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_a_region_iree_computes_rightly_reads_ok(tmp_path: Path):
    done = run_tool(print_module(apply_pipeline(MATMUL_RELU, "form-dispatch-regions")), tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| 0 |")]
    assert len(rows) == 1 and "| ok " in rows[0]


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_a_region_iree_miscompiles_reads_bad(tmp_path: Path):
    done = run_tool(iree_limits_found.TRANSPOSED_MATMUL_INTO_PADDED, tmp_path)
    assert done.returncode != 0 or "| BAD " in done.stdout, done.stdout


TWO_MATMULS = MATMUL_RELU.replace("-> tensor<16x32xf32> {\n", "-> tensor<16x4xf32> {\n", 1).replace(
    "  return %r : tensor<16x32xf32>\n}",
    """  %c = arith.constant dense<0.5> : tensor<32x4xf32>
  %e2 = tensor.empty() : tensor<16x4xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %m2 = linalg.matmul ins(%r, %c : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f2 : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %m2 : tensor<16x4xf32>
}""")


def test_regions_are_fed_the_values_the_module_computes():
    """`--inputs FAMILY`: region 1 (the second matmul) gets region 0's ReLU'd product of the
    family's inputs, not random values."""
    import numpy as np
    import region_agreement
    from fusionopt.interpreter.input_families import family_inputs
    from fusionopt.interpreter.runner import find_entry
    from fusionopt.ir_io import parse_module

    formed = parse_module(print_module(apply_pipeline(TWO_MATMULS, "form-dispatch-regions")))
    regions = [op for op in find_entry(formed, "main_graph").body.block.ops if op.name == "flow.dispatch.region"]
    values = region_agreement.activations(formed, "offset", seed=1)
    a, b = family_inputs(find_entry(formed, "main_graph"), "offset", 1)
    assert len(regions) == 2
    np.testing.assert_array_equal(region_agreement.region_arguments(regions[0], values)[0], a)
    fed = region_agreement.region_arguments(regions[1], values)[0]
    np.testing.assert_allclose(fed, np.maximum(a.astype(np.float64) @ b, 0), rtol=1e-5)
