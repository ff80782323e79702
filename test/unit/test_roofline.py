"""The roofline estimate of `fusion-stats --device`: formula, per-kernel listing, tool output.

Expectations are computed by hand from a tiny region whose FLOPs and bytes are obvious, so a
change in the cost rules or the formula shows up here, not only in a benchmark.
"""

from __future__ import annotations

import json

import pytest

from fusionopt.device_profiles import (
    H100, PROFILES, DeviceProfile, estimate_seconds, estimate_stats, get_profile,
)
from fusionopt.ir_io import parse_module
from fusionopt.registry import make_context
from fusionopt.stats import compute_stats, kernel_costs
from fusionopt.tools.fusion_stats import main as fusion_stats_main

# exp -> neg on 4x8 f32 in one region (64 FLOPs, reads 128 B, writes 128 B), then a 4x8x16
# matmul left outside any region (2*4*16*8 = 1024 FLOPs, reads 128 + 512 B, writes 256 B).
IR = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = flow.dispatch.region -> (tensor<4x8xf32>) {
    %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      %n = arith.negf %v : f32
      linalg.yield %n : f32
    } -> tensor<4x8xf32>
    flow.return %x : tensor<4x8xf32>
  }
  %cst = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%cst : f32) outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%r, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
"""

TOY = DeviceProfile("toy", peak_flops=1e9, bandwidth_bytes_per_s=1e8, launch_s=1e-6)


def module():
    return parse_module(IR, "roofline.mlir", make_context(False))


def test_formula_takes_the_slower_of_compute_and_memory():
    # 1000 FLOPs at 1 GFLOP/s = 1 us; 100 B at 100 MB/s = 1 us: both 1 us, + 1 us launch.
    assert estimate_seconds(1000, 100, TOY) == pytest.approx(2e-6)
    assert estimate_seconds(4000, 100, TOY) == pytest.approx(5e-6)  # compute-bound
    assert estimate_seconds(0, 300, TOY) == pytest.approx(4e-6)  # memory-bound
    assert estimate_seconds(0, 0, TOY) == pytest.approx(TOY.launch_s)  # launch only


def test_profiles_exist_and_h100_is_published_not_fitted():
    assert set(PROFILES) == {"cpu", "h100"}
    assert (H100.peak_flops, H100.bandwidth_bytes_per_s, H100.launch_s) == (67e12, 3.35e12, 5e-6)
    assert "not fitted" in H100.notes.lower()
    assert "fitted" in PROFILES["cpu"].notes
    with pytest.raises(KeyError, match="known: cpu, h100"):
        get_profile("tpu")


def test_kernel_listing_has_hand_computed_flops_and_bytes():
    func = next(op for op in module().walk() if op.name == "func.func")
    region, matmul = kernel_costs(func)
    assert (region.kind, region.work, region.flops, region.bytes_read, region.bytes_written) == (
        "dispatch", "elementwise", 64, 128, 128)
    assert region.shape == (4, 8)
    assert (matmul.kind, matmul.root, matmul.work, matmul.shape) == (
        "unfused", "linalg.matmul", "contraction", (4, 16, 8))
    assert (matmul.flops, matmul.bytes_read, matmul.bytes_written) == (1024, 640, 256)


def test_listing_adds_up_to_the_stable_figures():
    mod = module()
    figures = compute_stats(mod)["functions"]["f"]
    func = next(op for op in mod.walk() if op.name == "func.func")
    kernels = kernel_costs(func)
    assert sum(k.flops for k in kernels) == figures["flops"]
    assert sum(k.bytes for k in kernels) == figures["bytes_moved"]
    assert len(kernels) == figures["kernels"] + figures["copies"]


def test_estimate_is_the_formula_per_kernel_and_summed():
    est = estimate_stats(module(), TOY)["functions"]["f"]
    region_us = 1 + max(64 / 1e3, 256 / 1e2)  # launch 1 us; 64 FLOP = 0.064 us; 256 B = 2.56 us
    matmul_us = 1 + max(1024 / 1e3, 896 / 1e2)
    assert [r["est_time_us"] for r in est["per_kernel"]] == pytest.approx([region_us, matmul_us])
    assert est["est_time_us"] == pytest.approx(region_us + matmul_us)


def test_tool_json_only_gains_keys(tmp_path, capsys):
    path = tmp_path / "m.mlir"
    path.write_text(IR)
    assert fusion_stats_main([str(path), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert fusion_stats_main([str(path), "--json", "--device", "h100"]) == 0
    priced = json.loads(capsys.readouterr().out)
    for name, figures in plain["functions"].items():
        assert {k: priced["functions"][name][k] for k in figures} == figures
    assert {k: priced["total"][k] for k in plain["total"]} == plain["total"]
    rows = priced["functions"]["f"]["per_kernel"]
    expected = [5 + max(64 / 67e6, 256 / 3.35e6), 5 + max(1024 / 67e6, 896 / 3.35e6)]
    assert [r["est_time_us"] for r in rows] == pytest.approx(expected, abs=1e-3)
    assert priced["device"] == "h100"


def test_tool_text_prints_a_per_kernel_table(tmp_path, capsys):
    path = tmp_path / "m.mlir"
    path.write_text(IR)
    assert fusion_stats_main([str(path), "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "est_time_us" in out and "(device cpu" in out
    assert "linalg.matmul" in out and "contraction" in out
