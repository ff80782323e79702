"""The deployment protocol of the runtime benchmark (bench/iree_bench_deploy.py, bench/iree_bench_timing.py,
bench/iree_runtime.py).

Fast checks of the pieces: the `-dt` variant rule and its flags, the device flags per thread
count, onnxruntime's session options, the interleaved rounds, the build-time accounting and
the deployment table; then one small end-to-end run on a tiny inline-weight ONNX file (a 16x16
conv, 1 and 2 threads, two rounds), skipped without IREE.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt.iree_tools import iree_available

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import iree_bench_build as build  # noqa: E402
import iree_bench_deploy as deploy  # noqa: E402
import iree_bench_timing as timing  # noqa: E402
import iree_runtime  # noqa: E402

ONNX_INLINE = str(Path(__file__).resolve().parents[1] / "data" / "onnx" / "conv_affine.onnx")
needs_iree = pytest.mark.skipif(not iree_available(), reason="iree-compile / iree-benchmark-module / iree.runtime absent")
DT = ["--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all"]


def test_data_tiling_variants_compile_their_base_with_the_flags() -> None:
    assert build.data_tiling_base("iree-dt") == "iree-default"
    assert build.data_tiling_base("ours-onnx-llvm-cpu-dt") == "ours-onnx-llvm-cpu"
    assert build.data_tiling_base("ours-onnx-llvm-cpu") is None
    assert build.source_variant("ours-onnx-llvm-cpu-fewest-dt") == "ours-onnx-llvm-cpu-fewest"
    assert build.source_variant("aa") == "iree-default"
    plain = build.variant_flags("ours-onnx-llvm-cpu", "llvm-cpu")
    assert not set(DT) & set(plain)
    assert build.variant_flags("ours-onnx-llvm-cpu-dt", "llvm-cpu") == plain + DT
    assert build.variant_flags("iree-dt", "llvm-cpu") == build.variant_flags("iree-default", "llvm-cpu") + DT
    best = build.variant_flags("iree-best", "llvm-cpu")
    assert build.variant_flags("iree-best-dt", "llvm-cpu") == best + DT


def test_only_known_bases_take_the_suffix() -> None:
    for name in ("iree-dt", "ours-onnx-llvm-cpu-dt", "ours-llvm-cpu-fewest-dt", "aa", "ours"):
        assert build.is_build_variant(name), name
    for name in ("aa-dt", "ort", "ort-dt", "ours-bogus-dt", "ours-onnx-llvm-cpu-dt-dt", "dt"):
        assert not build.is_build_variant(name), name
    assert not any(v.endswith(build.DT_SUFFIX) for v in {*build.OURS_PIPELINES, *build.ONNX_PIPELINES})


def test_a_variant_replacing_no_pass_of_its_pipeline_is_an_error() -> None:
    import iree_bench_variants as variants

    pads_apart = build.ONNX_PIPELINES["ours-onnx-llvm-cpu-pads-apart"]
    assert "form-dispatch-regions," in pads_apart and "pads-into-depthwise" not in pads_apart
    with pytest.raises(ValueError, match="no such pass in the pipeline: form_dispatch_regions"):
        variants._expanded_with("graph-to-dispatch-llvm-cpu", form_dispatch_regions="form-dispatch-regions{aggressive=true}")


def test_options_accept_ort_dt_and_threads(capsys) -> None:
    args = iree_runtime.parse_args(["--variants", "ort,iree-dt,ours-onnx-llvm-cpu-dt,aa", "--threads", "1,2"])
    assert args.variants == ["iree-default", "ort", "iree-dt", "ours-onnx-llvm-cpu-dt", "aa"]
    assert args.threads == [1, 2]
    assert iree_runtime.iree_variants(args.variants) == ["iree-default", "iree-dt", "ours-onnx-llvm-cpu-dt", "aa"]
    for bad in (["--variants", "aa-dt"], ["--variants", "ours-bogus-dt"], ["--threads", "0"]):
        with pytest.raises(SystemExit):
            iree_runtime.parse_args(bad)
    assert "unknown: aa-dt" in capsys.readouterr().err
    assert not args.sched_batch and iree_runtime.parse_args(["--sched-batch"]).sched_batch


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="SCHED_BATCH is a Linux scheduling policy")
def test_batch_scheduling_reaches_the_processes_the_harness_starts() -> None:
    child = "import os; print(os.sched_getscheduler(0))"
    code = ("import os, subprocess, sys; sys.path.insert(0, sys.argv[1]); import iree_bench_timing as t; "
            f"before = os.sched_getscheduler(0); t.batch_scheduling(); print(before, os.sched_getscheduler(0), "
            f"subprocess.run([sys.executable, '-c', {child!r}], capture_output=True, text=True).stdout.strip())")
    run = subprocess.run([sys.executable, "-c", code, str(BENCH)], capture_output=True, text=True, check=True)
    assert run.stdout.split() == [str(os.SCHED_OTHER), str(os.SCHED_BATCH), str(os.SCHED_BATCH)]


def test_thread_counts_map_to_iree_devices() -> None:
    assert timing.device_flags(1) == ["--device=local-sync"]
    assert timing.device_flags(2) == ["--device=local-task", "--task_topology_max_group_count=2"]
    with pytest.raises(ValueError):
        timing.device_flags(0)
    cmd = timing.iree_command(Path("m.vmfb"), [Path("a.npy")], 7, 4)
    assert "--device=local-task" in cmd and "--task_topology_max_group_count=4" in cmd
    assert "--task_topology_max_group_count=1" not in cmd and "--device=local-sync" not in cmd
    assert "--benchmark_min_time=7x" in cmd and "--input=@a.npy" in cmd
    assert "--benchmark_min_warmup_time=0.1" in cmd  # timed warm, as onnxruntime's sessions are
    one = timing.iree_command(Path("m.vmfb"), [], 7, 1)
    assert "--device=local-sync" in one and not any("task_topology" in c for c in one)


def test_ort_session_options_per_thread_count() -> None:
    ort = pytest.importorskip("onnxruntime")
    for threads in (1, 2, 3):
        options = deploy.ort_session_options(threads)
        assert options.graph_optimization_level == ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        assert options.intra_op_num_threads == threads
        assert options.inter_op_num_threads == 1


def test_ort_runs_the_model_file_itself() -> None:
    pytest.importorskip("onnxruntime")
    assert deploy.ort_file(ONNX_INLINE) == Path(ONNX_INLINE)
    image = np.random.default_rng(0).standard_normal((1, 16, 16, 16)).astype(np.float32)
    runner = deploy.OrtRunner(Path(ONNX_INLINE), 2, [image])
    (out,) = runner.outputs([image])
    assert out.shape == (1, 24, 16, 16) and np.isfinite(out).all()
    (other,) = runner.outputs([image + 1])
    assert not np.array_equal(out, other)
    assert runner.ms_per_call(2) > 0
    with pytest.raises(ValueError, match="wants 1 inputs"):
        deploy.OrtRunner(Path(ONNX_INLINE), 1, [image, image])


def test_interleaved_rounds_shuffle_every_round_and_keep_the_old_order() -> None:
    calls: list = []
    runners = {key: (lambda key=key: calls.append(key) or 1.0) for key in [("a", 1), ("b", 1), ("a", 2), ("b", 2)]}
    times = timing.interleaved(runners, rounds=5, seed=3)
    assert all(len(t) == 5 for t in times.values())
    rounds = [calls[i:i + 4] for i in range(0, 20, 4)]
    assert all(sorted(r) == sorted(runners) for r in rounds)
    assert len({tuple(r) for r in rounds}) > 1
    import random

    order, expected = random.Random(3), []
    for _ in range(5):
        keys = list(runners)
        order.shuffle(keys)
        expected += keys
    assert calls == expected


def test_build_seconds_count_the_front_end_of_each_build() -> None:
    front = {"iree-default": 2.0, "ours-onnx-llvm-cpu": 5.0}
    compile_s = {"iree-default": 8.0, "iree-dt": 9.0, "ours-onnx-llvm-cpu": 4.0, "ours-onnx-llvm-cpu-dt": 6.5}
    variants = ["iree-default", "iree-dt", "ours-onnx-llvm-cpu", "ours-onnx-llvm-cpu-dt", "aa"]
    assert deploy.build_seconds(variants, front, compile_s) == {
        "iree-default": 10.0, "iree-dt": 11.0, "ours-onnx-llvm-cpu": 9.0, "ours-onnx-llvm-cpu-dt": 11.5}


def test_front_end_is_timed_once_per_source(tmp_path: Path, monkeypatch) -> None:
    made: list = []

    def fake_source(model: str, variant: str, work: Path) -> Path:
        made.append(variant)
        if variant == "ours":
            raise RuntimeError("unsupported ONNX op")
        return work / f"{variant}.mlir"

    monkeypatch.setattr(deploy, "variant_source", fake_source)
    seconds = deploy.front_end_seconds("m.onnx", tmp_path, ["iree-default", "iree-dt", "aa", "ours", "ours-onnx", "ours-onnx-dt"])
    assert set(seconds) == {"iree-default", "ours-onnx"} and made == ["iree-default", "ours", "ours-onnx"]
    assert all(s >= 0 for s in seconds.values())


def test_repeated_builds_keep_the_least_time(tmp_path: Path, monkeypatch) -> None:
    """Each variant recompiled repeats - 1 more times, in shuffled orders; the least kept."""
    compiled: list = []

    def fake_compile(source: Path, out: Path, flags: list[str]) -> Path:
        compiled.append((source.name, out.name, "--iree-opt-data-tiling" in flags))
        return out

    clock = iter([0.0, 1.0, 10.0, 14.0, 20.0, 21.0, 30.0, 36.0])  # start, end of each compile
    monkeypatch.setattr(deploy, "compile_vmfb", fake_compile)
    monkeypatch.setattr(deploy, "variant_source", lambda model, variant, work: work / f"{build.source_variant(variant)}.mlir")
    monkeypatch.setattr(deploy.time, "perf_counter", lambda: next(clock))
    first = {"iree-default": 5.0, "ours-onnx-dt": 2.0}
    least = deploy.least_compile_seconds("m.onnx", "llvm-cpu", tmp_path, first, repeats=3, seed=1)
    assert len(compiled) == 4 and {c[1] for c in compiled} == {"recompile.vmfb"}
    assert sorted(compiled) == sorted([("iree-default.mlir", "recompile.vmfb", False), ("ours-onnx.mlir", "recompile.vmfb", True)] * 2)
    durations = {}
    for (source, _, _), seconds in zip(compiled, (1.0, 4.0, 1.0, 6.0)):
        durations.setdefault(source, []).append(seconds)
    assert least == {"iree-default": min(5.0, *durations["iree-default.mlir"]),
                     "ours-onnx-dt": min(2.0, *durations["ours-onnx.mlir"])}
    assert deploy.least_compile_seconds("m.onnx", "llvm-cpu", tmp_path, first, repeats=1) == first
    assert deploy.least([{"a": 3.0, "b": 1.0}, {"a": 2.0}, {"a": 4.0, "b": 0.5}]) == {"a": 2.0, "b": 0.5}


def test_repeated_front_ends_go_to_fresh_folders(tmp_path: Path, monkeypatch) -> None:
    folders: list = []
    monkeypatch.setattr(deploy, "variant_source", lambda model, variant, work: folders.append(work) or work / "x.mlir")
    seconds = deploy.least_front_end_seconds("m.onnx", tmp_path, ["iree-default", "iree-dt"], repeats=3)
    assert folders == [tmp_path, tmp_path / "front-1", tmp_path / "front-2"] and set(seconds) == {"iree-default"}
    assert all(f.is_dir() for f in folders)


def _stats(**ms: tuple[float, float]) -> dict:
    return {k.replace("_", "-"): {"median": med, "min": low} for k, (med, low) in ms.items()}


def test_deployment_table_ratios_to_ort_and_iree_noise_and_build_time() -> None:
    stats = _stats(ort=(5.0, 4.0), iree_default=(40.0, 38.0), iree_dt=(20.0, 19.0), ours=(10.0, 9.0), aa=(42.0, 38.0))
    rows = [{"model": "/x/mobilenet_v2.inline.onnx", "threads": t, "variants": ["iree-default", "ort", "iree-dt", "ours", "aa"],
             "stats": stats, "build_s": {"iree-default": 8.0, "iree-dt": 9.0, "ours": 12.0}} for t in (1, 2)]
    lines = deploy.deployment_table(rows).splitlines()
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    assert head[:6] == ["model", "threads", *(f"{v} ms (median)" for v in ("ort", "iree-default", "iree-dt", "ours"))]
    assert head[6].startswith("A/A") and head[7] == "build s iree-default / iree-dt / ours"
    cells = [c.strip() for c in lines[2].strip("|").split("|")]
    assert cells[:3] == ["mobilenet_v2", "1", "5.00"]
    assert cells[3] == "40.00 (**8.00x** ort)"
    assert cells[4] == "20.00 (**4.00x** ort, 0.50x IREE)"
    assert cells[5] == "10.00 (**2.00x** ort, 0.25x IREE)"
    assert cells[6] == "1.05x (min 1.00x)"
    assert cells[7] == "8.0 / 9.0 (1.12x) / 12.0 (1.50x)"
    assert len(lines) == 4 and lines[3].split("|")[2].strip() == "2"
    low = [c.strip() for c in deploy.deployment_table(rows, "min").splitlines()[2].strip("|").split("|")]
    assert low[2:7] == ["4.00", "38.00 (**9.50x** ort)", "19.00 (**4.75x** ort, 0.50x IREE)",
                        "9.00 (**2.25x** ort, 0.24x IREE)", "1.05x (min 1.00x)"]


def test_deployment_table_without_ort_or_a_build() -> None:
    rows = [{"model": "bert_mini", "threads": 1, "variants": ["iree-default", "ours"],
             "stats": _stats(iree_default=(2.0, 2.0), ours=(1.0, 1.0)), "build_s": {"ours": 3.0}}]
    cells = [c.strip() for c in deploy.deployment_table(rows).splitlines()[2].strip("|").split("|")]
    assert cells == ["bert_mini", "1", "2.00", "1.00 (0.50x IREE)", "-", "- / 3.0"]


@needs_iree
def test_deployment_protocol_end_to_end(tmp_path: Path, capsys) -> None:
    """A tiny inline-weight ONNX file through the whole protocol: builds timed, ort checked
    against IREE, every (variant, threads) timed in the same rounds, one row per thread count."""
    out = tmp_path / "rows.json"
    iree_runtime.main(["--models", ONNX_INLINE, "--variants", "ort,iree-dt,ours-onnx-llvm-cpu-dt,aa",
                       "--families", "random", "--no-reference", "--threads", "1,2", "--rounds", "2",
                       "--iterations", "2", "--json", str(out)])
    rows = json.loads(out.read_text())
    assert [r["threads"] for r in rows] == [1, 2]
    for row in rows:
        assert set(row["times"]) == {"iree-default", "ort", "iree-dt", "ours-onnx-llvm-cpu-dt", "aa"}
        assert all(len(t) == 2 and min(t) > 0 for t in row["times"].values())
        assert set(row["build_s"]) == {"iree-default", "iree-dt", "ours-onnx-llvm-cpu-dt"}
        assert set(row["front_s"]) == {"iree-default", "ours-onnx-llvm-cpu"}
        assert row["build_s"]["iree-dt"] == pytest.approx(row["front_s"]["iree-default"] + row["compile_s"]["iree-dt"])
        assert all(s > 0 for s in row["build_s"].values())
    text = capsys.readouterr().out
    assert "| conv_affine | 2 |" in text and "x** ort" in text
    assert "| random | ort |" in text and "FAIL" not in text and "DIFF" not in text


def _iree_default_fails(monkeypatch) -> None:
    """iree-compile refuses IREE's own build (and its A/A copy), as on FNet's DFT."""
    from fusionopt.iree_tools import IreeError

    real = build.compile_vmfb

    def compile_vmfb(source, out, flags):
        if Path(out).name.split(".")[-3] in ("iree-default", "aa"):
            raise IreeError("iree-compile x\nexit 1:\nm.mlir:3:4: error: failed to legalize operation 'onnx.DFT'")
        return real(source, out, flags)

    monkeypatch.setattr(build, "compile_vmfb", compile_vmfb)


@needs_iree
def test_a_model_iree_cannot_build_is_timed_against_onnxruntime(tmp_path: Path, capsys, monkeypatch) -> None:
    """Without IREE's own build the run goes on with onnxruntime as the yardstick: ours timed
    and checked against it; without onnxruntime in the run nothing is left to compare with."""
    _iree_default_fails(monkeypatch)
    out = tmp_path / "rows.json"
    iree_runtime.main(["--models", ONNX_INLINE, "--variants", "ort,ours-onnx-llvm-cpu,aa", "--families", "random",
                       "--no-reference", "--threads", "1", "--rounds", "2", "--iterations", "2", "--json", str(out)])
    (row,) = json.loads(out.read_text())
    assert set(row["times"]) == {"ort", "ours-onnx-llvm-cpu"}
    assert set(row["build_s"]) == {"ours-onnx-llvm-cpu"}
    text = capsys.readouterr().out
    assert "IREE's own build fails; onnxruntime is the yardstick" in text
    assert "| random | ours-onnx-llvm-cpu |" in text and "(vs ort: IREE's own build fails)" in text
    assert "x** ort" in text and "FAIL" not in text and "DIFF" not in text
    with pytest.raises(RuntimeError, match="the baseline iree-default fails to build"):
        iree_runtime.main(["--models", ONNX_INLINE, "--variants", "ours-onnx-llvm-cpu", "--families", "random",
                           "--no-reference", "--rounds", "1", "--iterations", "1"])
