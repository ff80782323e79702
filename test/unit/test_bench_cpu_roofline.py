"""bench/cpu_roofline.py: multiply-adds counted from an ONNX graph by hand-checkable rules, and
each timing row set against the FMA peak."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
import numpy as np

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "cpu_roofline.py"
sys.path.insert(0, str(SCRIPT.parent))

import cpu_roofline  # noqa: E402

# Grouped conv 1x8x10x10 -> 1x4x10x10 (2 groups, 3x3, pad 1): 400 outputs x 4 inputs x 9 taps;
# MatMul 40x10 . 10x6 (after a reshape): 240 outputs x 10; Gemm with transA (6x40)^T . 6x5:
# 200 outputs x 6.
CONV = 4 * 10 * 10 * (4 * 3 * 3)
MATMUL = 40 * 6 * 10
GEMM = 40 * 5 * 6


def tiny_model(path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 10, 10])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [40, 5])
    weights = [numpy_helper.from_array(np.ones(shape, np.float32), name) for name, shape in
               (("w", (4, 4, 3, 3)), ("m", (10, 6)), ("g", (6, 5)))]
    shape = numpy_helper.from_array(np.array([40, 10], np.int64), "shape")
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], group=2, pads=[1, 1, 1, 1]),
        helper.make_node("Reshape", ["c", "shape"], ["r"]),
        helper.make_node("MatMul", ["r", "m"], ["p"]),
        helper.make_node("Reshape", ["p", "shape6"], ["q"]),
        helper.make_node("Gemm", ["q", "g"], ["y"], transA=1),
    ]
    shape6 = numpy_helper.from_array(np.array([6, 40], np.int64), "shape6")
    graph = helper.make_graph(nodes, "g", [x], [y], [*weights, shape, shape6])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def test_model_macs_counts_conv_matmul_and_transposed_gemm(tmp_path):
    path = tmp_path / "tiny.onnx"
    tiny_model(path)
    assert cpu_roofline.model_macs(str(path)) == CONV + MATMUL + GEMM


def test_rows_set_each_variant_against_the_peak(monkeypatch):
    monkeypatch.setattr(cpu_roofline, "model_macs", lambda path: 3_000_000_000)
    # 3 GMAC at a peak of 100 GMAC/s a core on two threads: 15 ms at the peak.
    run = [{"model": "/x/m.inline.onnx", "threads": 2, "times": {"ort": [40.0, 20.0, 60.0], "ours": [25.0, 35.0]}}]
    (line,) = cpu_roofline.roofline_rows(run, 100.0, ["ours", "ort"])
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells == ["m", "2", "3.00", "15.00", "30.00 (100, 50%)", "40.00 (75, 38%)", "0.38x"]


def test_main_prints_a_row_per_model_and_thread_count(tmp_path):
    path = tmp_path / "tiny.onnx"
    tiny_model(path)
    run = tmp_path / "run.json"
    rows = [{"model": str(path), "threads": t, "times": {"ort": [1.0], "ours-onnx-llvm-cpu": [0.5]}} for t in (1, 2)]
    run.write_text(json.dumps(rows))
    out = subprocess.run([sys.executable, str(SCRIPT), str(run), "--peak-gmacs", "10"],
                         capture_output=True, text=True, check=True).stdout
    assert "FMA peak 10.0" in out
    assert [line.split("|")[2].strip() for line in out.splitlines() if line.startswith("| tiny")] == ["1", "2"]


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")),
                    reason="no C compiler to build the FMA loop")
def test_fma_peak_is_a_plausible_rate():
    # At least one 256-bit FMA per ns on any x86 CPU with FMA; far under a 1e4 G/s fantasy.
    assert 4.0 < cpu_roofline.fma_peak_gmacs(runs=1) < 1e4
