"""`graph-to-dispatch` end to end on the small mlp_towers variant (horizontal fusion's target model, small and fast).

test/data/mlp_towers_small.mlir is examples/mlp_towers.mlir's model at width 16 (4 towers x 3
Linear+SiLU, f32). The full pipeline must leave at most 3 dispatches (one batched GEMM + bias +
SiLU per layer; IREE makes 12), compute what the input computes, and build with iree-compile
for llvm-cpu (and the built module must compute the same numbers).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_file, print_module
from fusionopt.stats import compute_stats
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, random_inputs, run_module

SMALL = Path(__file__).resolve().parents[1] / "data" / "mlp_towers_small.mlir"
IREE_COMPILE = shutil.which("iree-compile")
IREE_RUN = shutil.which("iree-run-module")
IREE_FLAGS = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
              "--iree-llvmcpu-target-cpu=generic"]
GRAPH_STAGES = "graph-simplify,graph-hoist-pointwise-above-slices,graph-horizontal-fuse-dots"


def regions(module):
    return [op for op in module.walk() if op.name == "flow.dispatch.region"]


def contractions_in(region) -> list[str]:
    return [op.name for op in region.walk() if op.name in ("linalg.matmul", "linalg.batch_matmul")]


@pytest.fixture(scope="module")
def pipeline_output():
    """The small model after `graph-to-dispatch`, checked to compute what the input computes."""
    return assert_pass_preserves_semantics(SMALL.read_text(), "graph-to-dispatch", seeds=(0, 1), rtol=1e-5, atol=1e-6)


def test_three_dispatches_one_gemm_each(pipeline_output):
    assert compute_stats(pipeline_output)["total"]["dispatches"] <= 3
    found = regions(pipeline_output)
    assert len(found) == 3
    assert [contractions_in(r) for r in found] == [["linalg.matmul"], ["linalg.batch_matmul"], ["linalg.batch_matmul"]]
    # Bias, SiLU and everything else live inside the regions: no compute kernel outside.
    assert compute_stats(pipeline_output)["total"]["kernels"] == 3


def test_without_horizontal_fusion_it_is_one_dispatch_per_linear():
    """The reference point (IREE's 12): the same lowering and dispatch formation, unbatched."""
    module = apply_pipeline(SMALL.read_text(), "convert-graph-to-linalg,dispatch-creation")
    assert compute_stats(module)["total"]["dispatches"] == 12


def test_bias_broadcasts_need_no_dispatch_without_elementwise_fusion():
    """form-dispatch-regions alone (no linalg-fuse-elementwise first) clones each bias
    broadcast into its epilogue's region instead of giving it a dispatch (3, not 6)."""
    lowered = apply_pipeline(SMALL.read_text(), f"{GRAPH_STAGES},convert-graph-to-linalg")
    assert sum(1 for op in lowered.walk() if op.name == "linalg.generic"
               and not any(o.name.startswith("arith.") for o in op.regions[0].walk())) == 3  # the broadcasts
    formed = assert_pass_preserves_semantics(print_module(lowered), "form-dispatch-regions", seeds=(0,))
    assert len(regions(formed)) == 3
    assert not [op for op in formed.body.walk() if op.name == "linalg.generic" and op.parent_op().name == "func.func"]


@pytest.mark.skipif(IREE_COMPILE is None, reason="iree-compile is not on PATH")
def test_output_builds_and_runs_with_iree(pipeline_output, tmp_path: Path):
    source = tmp_path / "towers.dispatch.mlir"
    source.write_text(print_module(pipeline_output))
    vmfb = tmp_path / "towers.vmfb"
    built = subprocess.run([IREE_COMPILE, str(source), *IREE_FLAGS, "-o", str(vmfb)],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr[-2000:]
    if IREE_RUN is None:
        pytest.skip("iree-run-module is not on PATH (built, not run)")
    original = parse_file(SMALL)
    (x,) = random_inputs(next(op for op in original.walk() if op.name == "func.func"), seed=3)
    expected = run_module(original, [x])[0]
    np.save(tmp_path / "x.npy", x)
    ran = subprocess.run([IREE_RUN, f"--module={vmfb}", "--device=local-task", "--function=mlp_towers",
                          f"--input=@{tmp_path / 'x.npy'}", f"--output=@{tmp_path / 'y.npy'}"],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr[-2000:]
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), expected, rtol=1e-5, atol=1e-6)
