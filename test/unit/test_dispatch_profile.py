"""bench/dispatch_profile.py and bench/fit_cost_model.py on tiny IR: name parsing, matching, profiling.

The pure parts (dispatch names -> "what it computes", the LOSS rule, the fit) run everywhere;
the profiling part compiles a two-region module with IREE, runs the HAL-profiled benchmark
and checks that each `flow.dispatch` call site gets a time and pairs with our region of the
same index. That part is skipped when the IREE tools are absent.
"""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

import pytest

from fusionopt.device_profiles import DeviceProfile, estimate_seconds
from fusionopt.ir_io import parse_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available
from fusionopt.registry import make_context
from fusionopt.stats import KernelCost, kernel_costs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import dispatch_profile as dp  # noqa: E402
import fit_cost_model as fit  # noqa: E402

# Two regions: exp on 4x8, then a 4x8x16 matmul of its result.
IR = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main_graph(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = flow.dispatch.region -> (tensor<4x8xf32>) {
    %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    flow.return %x : tensor<4x8xf32>
  }
  %m = flow.dispatch.region -> (tensor<4x16xf32>) {
    %cst = arith.constant 0.0 : f32
    %o = tensor.empty() : tensor<4x16xf32>
    %z = linalg.fill ins(%cst : f32) outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
    %y = linalg.matmul ins(%r, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
    flow.return %y : tensor<4x16xf32>
  }
  return %m : tensor<4x16xf32>
}
"""


@pytest.mark.parametrize(
    ("name", "root", "shape", "key"),
    [
        ("main_graph_dispatch_3_batch_matmul_1x64x128x128_f32", "batch_matmul", "1x64x128x128", "contraction 64x128x128"),
        ("main_graph_dispatch_7_matmul_64x128x128_f32", "matmul", "64x128x128", "contraction 64x128x128"),
        ("main_graph_dispatch_6_matmul_like_2x64x64x64_f32", "matmul_like", "2x64x64x64", "contraction 2x64x64x64"),
        ("main_graph_dispatch_0_slow_memcpy", "slow_memcpy", "", "copy -"),
        ("main_graph_dispatch_5_softmax_2x64x64xf32_dispatch_tensor_store", "softmax", "2x64x64", "reduction 2x64x64"),
        ("main_graph_dispatch_0_elementwise_broadcast_1x64x128_i64xi64xf32", "elementwise_broadcast", "1x64x128",
         "elementwise 64x128"),
        ("main_graph_dispatch_2_horizontal_multi_contract_1x64x128x128_f32", "horizontal_multi_contract",
         "1x64x128x128", "contraction(horizontal) 64x128x128"),
    ],
)
def test_dispatch_names_reduce_to_what_they_compute(name, root, shape, key):
    assert dp.parse_dispatch_name(name) == (root, shape)
    assert dp.work_key(root, shape) == key


def test_loss_needs_margin_and_non_overlapping_repeats():
    assert dp.is_loss([12.0, 12.5, 13.0], [10.0, 10.2, 10.4], noise=0.1)
    assert not dp.is_loss([10.5, 10.6, 10.7], [10.0, 10.2, 10.4], noise=0.1)  # within noise
    assert not dp.is_loss([12.0, 12.5, 13.0], [10.0, 10.2, 12.1], noise=0.1)  # ranges overlap


def kernel(flops: int, nbytes: int, work: str = "contraction") -> KernelCost:
    return KernelCost("dispatch", "linalg.matmul", work, (64, 64, 64), flops, nbytes, 0)


def test_fit_recovers_constants_of_synthetic_samples():
    truth = DeviceProfile("cpu", 5e10, 2e10, 3e-6)
    costs = [(f, b) for f in (1e3, 1e5, 1e6, 1e7, 1e8) for b in (1e3, 1e5, 1e6, 1e7)]
    samples = [fit.Sample("m", i, "d", kernel(int(f), int(b)), estimate_seconds(f, b, truth))
               for i, (f, b) in enumerate(costs)]
    got = fit.fit(samples)
    med, worst = fit.error_summary(got, samples)
    assert worst < 0.02
    assert math.isclose(got.peak_flops, truth.peak_flops, rel_tol=0.05)
    assert math.isclose(got.bandwidth_bytes_per_s, truth.bandwidth_bytes_per_s, rel_tol=0.05)
    assert math.isclose(got.launch_s, truth.launch_s, rel_tol=0.05)


def site(index: int, name: str) -> dp.SiteRow:
    root, shape = dp.parse_dispatch_name(name)
    return dp.SiteRow("m", "ours", 0, index, name, root, shape, dp.work_key(root, shape), 1000.0)


def test_matching_fails_loudly_when_counts_or_kinds_differ():
    rows = [site(0, "f_dispatch_0_matmul_64x64x64_f32")]
    with pytest.raises(SystemExit, match="1 dispatch call sites, we formed 2"):
        fit.match_sites("m", rows, [kernel(1, 1), kernel(1, 1)])
    with pytest.raises(SystemExit, match="site 0"):
        fit.match_sites("m", rows, [kernel(1, 1, work="elementwise")])
    (sample,) = fit.match_sites("m", rows, [kernel(1, 1)])
    assert sample.seconds == pytest.approx(1e-6)


needs_iree = pytest.mark.skipif(
    not (iree_available() and shutil.which("iree-profile")),
    reason="iree-compile / iree-benchmark-module / iree-profile / iree.runtime absent",
)


@needs_iree
def test_profiled_call_sites_pair_with_our_regions(tmp_path):
    source = tmp_path / "two.mlir"
    source.write_text(IR)
    flags = cpu_flags("generic")
    build = dp.Build("two", "ours", compile_vmfb(source, tmp_path / "two.vmfb", flags),
                     flow_dispatch_names(source, flags))
    assert len(build.sites) == 2
    import numpy as np

    inputs = [np.ones((4, 8), np.float32), np.ones((8, 16), np.float32)]
    files = dp.save_inputs(inputs, tmp_path / "in")
    times = dp.site_times_ns(build, dp.profile_build(build, files, 5, tmp_path))
    assert len(times) == 2 and all(t > 0 for t in times)
    rows = [dp.SiteRow("two", "ours", 0, i, n, *dp.parse_dispatch_name(n), "", t)
            for i, (n, t) in enumerate(zip(build.sites, times))]
    func = next(op for op in parse_module(IR, "two.mlir", make_context(False)).walk() if op.name == "func.func")
    samples = fit.match_sites("two", rows, [k for k in kernel_costs(func) if k.kind == "dispatch"])
    assert [s.kernel.work for s in samples] == ["elementwise", "contraction"]
    assert "matmul" in samples[1].dispatch


def test_named_conv_roots_keep_their_digits_and_match_irees_conv_names():
    ours = "main_graph_dispatch_1_conv_2d_nchw_fchw_1x16x32x32x3x3x3_f32"
    iree = "main_graph_dispatch_3_conv_16x32x32x3x3x3_f32"
    assert dp.parse_dispatch_name(ours) == ("conv_2d_nchw_fchw", "1x16x32x32x3x3x3")
    assert dp.work_key(*dp.parse_dispatch_name(ours)) == dp.work_key(*dp.parse_dispatch_name(iree))
    depthwise = "main_graph_dispatch_2_depthwise_conv_2d_nchw_chw_1x32x32x16x3x3_f32"
    assert dp.work_key(*dp.parse_dispatch_name(depthwise)) == "contraction 32x32x16x3x3"
