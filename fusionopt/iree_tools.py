"""Compile and run modules with IREE (our backend): `iree-compile`, `iree.runtime`, `iree-benchmark-module`.

IREE keeps pre-formed `flow.dispatch.region`s as given, so the same helpers compile IREE's own
dispatch formation (on the original linalg file) and ours (on `-p dispatch-creation` output),
and run both through IREE's runtime for a like-for-like comparison.

API
- `iree_available() -> bool`: `iree-compile`, `iree-benchmark-module` and `iree.runtime` exist.
- `cpu_flags(target_cpu="host") -> list[str]`: flags for the local llvm-cpu backend.
- `cuda_flags(sm="sm_80") -> list[str]`: flags for the CUDA backend (IREE 3.13 rejects sm_90;
  sm_80 PTX is JIT-compiled by the driver on newer GPUs). Building needs no GPU.
- `target_flags(target) -> list[str]`: `"llvm-cpu"` (host CPU) or `"cuda"`.
- `runtime_tools_dir() -> Path`: the folder of the wheel's `iree-run-module`,
  `iree-benchmark-module` (self-contained binaries: libc/libstdc++ only).
- `compiler_executable() -> str`: the `iree-compile` to run: the one on PATH, or, when that is
  the wheel's Python launcher, the native binary it would start (saves ~0.2 s a call).
- `iree_version() -> str`: `iree-compile --version`'s compiler line.
- `compile_vmfb(source, out, flags) -> Path`: `iree-compile source flags -o out`; raises
  `IreeError` carrying IREE's diagnostics on failure.
- `flow_dispatch_names(source, flags) -> list[str]`: the entry point of each `flow.dispatch @`
  call site after `--compile-to=flow`, e.g. `main_graph_dispatch_2_matmul_like_64x384x128_f32`
  (IREE names a dispatch after its root: `matmul`/`batch_matmul`/`matmul_like` when its codegen
  recognises a contraction, `reduction` otherwise).
- `count_flow_dispatches(source, flags) -> int`: how many such call sites (the count the shared
  models' README uses).
- `run_vmfb(vmfb, inputs, function, driver="local-sync") -> list[np.ndarray]`: results of
  `function` on `inputs` through `iree.runtime` (single-threaded `local-sync` by default, so runs
  are deterministic).
- `save_inputs(inputs, directory) -> list[Path]`: one `.npy` per argument, for the CLI tools.
- `benchmark_command(vmfb, input_files, function, iterations, dispatch_statistics=False,
  device="local-task")`: the `iree-benchmark-module` command line (`local-task` with 1 worker:
  `--task_topology_max_group_count=1`; `local-sync` is one thread by construction; `cuda`),
  timed after `WARMUP_SECONDS` of untimed calls.
- `benchmark_vmfb(...) -> BenchmarkRun`: run that command; mean ms per call and, with
  `dispatch_statistics`, ms per call of each executable entry point.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

COMPILE = "iree-compile"
BENCHMARK = "iree-benchmark-module"


class IreeError(RuntimeError):
    """An IREE tool failed; the message holds the command and the end of its diagnostics."""


def iree_available() -> bool:
    if shutil.which(COMPILE) is None or shutil.which(BENCHMARK) is None:
        return False
    try:
        import iree.runtime  # noqa: F401
    except ImportError:
        return False
    return True


def cpu_flags(target_cpu: str = "host") -> list[str]:
    return [
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        f"--iree-llvmcpu-target-cpu={target_cpu}",
    ]


def cuda_flags(sm: str = "sm_80") -> list[str]:
    return ["--iree-hal-target-device=cuda", f"--iree-cuda-target={sm}"]


TARGETS = ("llvm-cpu", "cuda")


def target_flags(target: str) -> list[str]:
    """Build flags per target name, so benchmarks name targets rather than spell flags."""
    if target == "llvm-cpu":
        return cpu_flags("host")
    if target == "cuda":
        return cuda_flags()
    raise ValueError(f"unknown target {target!r} (have: {', '.join(TARGETS)})")


def runtime_tools_dir() -> Path:
    """The wheel's runtime binaries (copied to a GPU machine that has no Python packages)."""
    import iree._runtime_libs as libs

    return Path(libs.__file__).resolve().parent


def _is_wheel_launcher(path: str) -> bool:
    """`path` is the iree-base-compiler wheel's console script (Python that starts the binary)."""
    try:
        with open(path, "rb") as script:
            return b"iree.compiler.tools.scripts" in script.read(4096)
    except OSError:
        return False


@functools.cache
def compiler_executable() -> str:
    """`iree-compile` as found on PATH, so a user's own build wins; when that is the wheel's
    launcher, the binary it runs (`binaries.find_tool`, which honours `IREE_TOOL_PATH`): the
    launcher's Python start-up is ~0.2 s of a ~0.5 s build of a small module, and the suite
    and the benchmarks build hundreds."""
    found = shutil.which(COMPILE)
    if found is None or not _is_wheel_launcher(found):
        return found or COMPILE
    try:
        from iree.compiler.tools.binaries import find_tool

        return find_tool(COMPILE)
    except (ImportError, ValueError):
        return found


def iree_version() -> str:
    lines = _run([compiler_executable(), "--version"], 60).stdout.splitlines()
    return next((line.strip() for line in lines if "compiler version" in line), "unknown")


def _run(cmd: list[str], timeout: float) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise IreeError(f"{' '.join(cmd)}\nexit {result.returncode}:\n{result.stderr[-4000:]}")
    return result


def compile_vmfb(source: Path, out: Path, flags: Sequence[str], timeout: float = 600) -> Path:
    _run([compiler_executable(), str(source), *flags, "-o", str(out)], timeout)
    return out


def flow_dispatch_names(source: Path, flags: Sequence[str], timeout: float = 600) -> list[str]:
    flow = _run([compiler_executable(), str(source), *flags, "--compile-to=flow"], timeout).stdout
    return re.findall(r"flow\.dispatch @[\w$.]+::@([\w$.]+)", flow)


def count_flow_dispatches(source: Path, flags: Sequence[str], timeout: float = 600) -> int:
    return len(flow_dispatch_names(source, flags, timeout))


def run_vmfb(vmfb: Path, inputs: Sequence[np.ndarray], function: str, driver: str = "local-sync") -> list[np.ndarray]:
    import iree.runtime as rt

    module = rt.load_vm_flatbuffer_file(str(vmfb), driver=driver)
    results = module[function](*inputs)
    if not isinstance(results, (tuple, list)):
        results = (results,)
    return [np.asarray(r.to_host() if hasattr(r, "to_host") else r) for r in results]


def save_inputs(inputs: Sequence[np.ndarray], directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = [directory / f"arg{i}.npy" for i in range(len(inputs))]
    for path, value in zip(paths, inputs):
        np.save(path, value)
    return paths


# Calls made before the timed ones: a module's first call pays one-time costs (first touch of its
# inline weights, allocations); mobilenet_v2 at 224x224 measured 18.6 ms per call over 3 cold calls
# against 9.4-11.9 ms warm. onnxruntime sessions are timed warm, and so is a deployed module.
WARMUP_SECONDS = 0.1


def benchmark_command(
    vmfb: Path, input_files: Sequence[Path], function: str, iterations: int, dispatch_statistics: bool = False,
    device: str = "local-task",
) -> list[str]:
    # One worker: the machine is shared and small, so a single thread gives the steadiest numbers
    # and compares dispatch formation rather than how well each variant parallelises.
    cmd = [BENCHMARK, f"--module={vmfb}", f"--function={function}", f"--device={device}"]
    if device == "local-task":
        cmd.append("--task_topology_max_group_count=1")
    cmd += [f"--benchmark_min_warmup_time={WARMUP_SECONDS}", f"--benchmark_min_time={iterations}x",
            "--benchmark_format=json"]
    cmd += [f"--input=@{path}" for path in input_files]
    if dispatch_statistics:
        cmd.append("--dispatch_statistics=true")
    return cmd


@dataclass
class BenchmarkRun:
    """One `iree-benchmark-module` run: mean wall ms per call, and ms per call of each dispatch."""

    ms_per_call: float
    dispatch_ms: dict[str, float] = field(default_factory=dict)
    dispatch_calls: dict[str, float] = field(default_factory=dict)


def _to_ms(row: dict) -> float:
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[row["time_unit"]]
    return row["real_time"] * scale


def parse_benchmark_json(text: str, function: str) -> BenchmarkRun:
    rows = json.loads(text[text.index("{"):])["benchmarks"]
    prefix = f"BM_{function}/"
    run = BenchmarkRun(ms_per_call=-1.0)
    for row in rows:
        name = row["name"].removeprefix(prefix)
        if name.startswith("process_time"):
            run.ms_per_call = _to_ms(row)
        elif "calls" in row:
            run.dispatch_ms[name] = _to_ms(row)
            run.dispatch_calls[name] = row["calls"]
    if run.ms_per_call < 0:
        raise IreeError(f"no timing row for {function} in the benchmark report")
    return run


def benchmark_vmfb(
    vmfb: Path, input_files: Sequence[Path], function: str, iterations: int,
    dispatch_statistics: bool = False, timeout: float = 600, device: str = "local-task",
) -> BenchmarkRun:
    cmd = benchmark_command(vmfb, input_files, function, iterations, dispatch_statistics, device)
    return parse_benchmark_json(_run(cmd, timeout).stdout, function)
