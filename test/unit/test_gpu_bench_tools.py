"""The GPU benchmark tools that run without a GPU here: the Nsight Compute table reader
(bench/gpu_dispatch_table.py) and the argument checks of the GPU-side scripts.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
import gpu_dispatch_table  # noqa: E402

HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
          '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"')


def ncu_csv(path: Path, calls: list[list[tuple[str, float]]]) -> Path:
    """An ncu --csv log: a profiler banner, then one row per launch (times in ns)."""
    rows, i = ["==PROF== Connected to process 1", HEADER], 0
    for call in calls:
        for name, ns in call:
            rows.append(f'"{i}","1","iree-benchmark-module","h","{name}","1","13","(32, 8, 1)","(6, 1, 1)",'
                        f'"0","9.0","Command line profiler metrics","gpu__time_duration.sum","ns","{ns:,.0f}"')
            i += 1
    path.write_text("\n".join(rows) + "\n")
    return path


def test_dispatch_table_counts_the_last_call_and_sums_shared_dispatches(tmp_path: Path) -> None:
    warm_up = [("main_graph_dispatch_0_matmul_f32", 900_000), ("main_graph_dispatch_1_reduce_f32", 9_000),
               ("main_graph_dispatch_0_matmul_f32", 800_000)]
    timed = [("main_graph_dispatch_0_matmul_f32", 1_000), ("main_graph_dispatch_1_reduce_f32", 2_000),
             ("main_graph_dispatch_0_matmul_f32", 3_000)]
    rows = gpu_dispatch_table.launches(ncu_csv(tmp_path / "m.ours.csv", [warm_up, timed, timed]))
    assert len(rows) == 9 and rows[0][2] == pytest.approx(900.0)
    call = gpu_dispatch_table.last_call(rows)
    assert [us for _, _, us in call] == pytest.approx([1.0, 2.0, 3.0])
    table = gpu_dispatch_table.per_dispatch(call)
    assert table["0_matmul_f32"][:2] == (2, "(6, 1, 1)") and table["0_matmul_f32"][2] == pytest.approx(4.0)
    report = gpu_dispatch_table.report(tmp_path / "m.ours.csv", top=1)
    assert "3 kernel launches, 6.0 us" in report and "| 0_matmul_f32 | 2 | (6, 1, 1) | 4.0 | 67% |" in report
    assert "1_reduce_f32" not in report  # --top 1


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(BENCH / script), *args], capture_output=True, text=True, timeout=60)


def test_gpu_scripts_refuse_incomplete_arguments(tmp_path: Path) -> None:
    assert run("gpu_run_bundles.sh").returncode == 2
    assert run("gpu_run_bundles.sh", "--archive", str(tmp_path / "a.tgz")).returncode == 2
    assert run("gpu_dispatch_times.sh", "--bundle", str(tmp_path)).returncode == 2  # no --out


@pytest.mark.skipif(shutil.which("ncu") is not None, reason="ncu is installed: the missing-ncu message cannot show")
def test_dispatch_times_says_when_ncu_is_missing(tmp_path: Path) -> None:
    result = run("gpu_dispatch_times.sh", "--bundle", str(tmp_path), "--out", str(tmp_path / "o"), "m:v")
    assert result.returncode == 2 and "ncu not found" in result.stderr
