"""The one timer of bench/: interleaved rounds, and `iree-benchmark-module` as one runner in them.

Why interleaved: on a shared machine, load comes in bursts. Every round calls every runner once,
in a seeded shuffled order, so a burst hits all variants alike and no variant always goes first;
a runner's figure is then its ms per call in each round (median and min over rounds are the
report's, bench/iree_bench_report.py). bench/iree_runtime.py times its variants (and onnxruntime,
bench/iree_bench_deploy.py) with `interleaved`; a script that only has vmfbs calls `timed_rounds`.

Threads: 1 is `--device=local-sync` (one thread, the steadiest figures); N > 1 is
`--device=local-task --task_topology_max_group_count=N`.

`batch_scheduling()` (iree_runtime.py `--sched-batch`) runs the harness and all it starts under
Linux's SCHED_BATCH. Why: at N worker threads on a machine of N cores, the thread that called the
module (here `iree-benchmark-module`'s main thread) waits for the call's last semaphore signal; the
worker that signals wakes it, the kernel places it on the worker's core (wake-affine) and it
preempts the worker, then spins (`pause`, no yield) in `iree_async_semaphore_multi_wait` until that
worker's callback marks itself complete, which the worker can only do once it runs again: up to
a scheduler slice a call (perf on regnet_x_400mf at two workers on two vCPUs: 89% of the main
thread's samples in that loop, the main thread 26-44% busy). SCHED_BATCH turns off wake-up
preemption, so the worker finishes its callback first. onnxruntime's pool does not wait this way;
its times are alike under both policies.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import tempfile
from collections.abc import Callable, Hashable
from functools import partial
from pathlib import Path

from fusionopt.iree_tools import IreeError, benchmark_command, parse_benchmark_json

FUNCTION = "main_graph"


def device_flags(threads: int) -> list[str]:
    """`iree-benchmark-module` device flags for `threads` worker threads."""
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    if threads == 1:
        return ["--device=local-sync"]
    return ["--device=local-task", f"--task_topology_max_group_count={threads}"]


def iree_command(vmfb: Path, input_files: list[Path], iterations: int, threads: int,
                 function: str = FUNCTION) -> list[str]:
    """benchmark_command's, with the device flags of `threads`."""
    cmd = benchmark_command(vmfb, input_files, function, iterations, device="local-sync")
    at = cmd.index("--device=local-sync")
    return cmd[:at] + device_flags(threads) + cmd[at + 1:]


def iree_ms_per_call(vmfb: Path, input_files: list[Path], iterations: int, threads: int,
                     function: str = FUNCTION) -> float:
    """Mean ms per call of `function` over `iterations` calls (one `iree-benchmark-module` run)."""
    cmd = iree_command(vmfb, input_files, iterations, threads, function)
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise IreeError(f"{' '.join(cmd)}\nexit {result.returncode}:\n{result.stderr[-4000:]}")
    return parse_benchmark_json(result.stdout, function).ms_per_call


def batch_scheduling() -> None:
    """This process, and the threads and processes it starts from now on, under SCHED_BATCH
    (module docstring: why). Linux only."""
    if not hasattr(os, "SCHED_BATCH"):
        raise OSError("SCHED_BATCH is a Linux scheduling policy; this platform has none")
    os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def interleaved(runners: dict[Hashable, Callable[[], float]], rounds: int, seed: int = 0) -> dict:
    """key -> ms of each round; every round calls all runners once, in a seeded shuffled order."""
    order = random.Random(seed)
    times: dict = {key: [] for key in runners}
    for _ in range(rounds):
        keys = list(runners)
        order.shuffle(keys)
        for key in keys:
            times[key].append(runners[key]())
    return times


def timed_rounds(vmfbs: dict[str, Path], inputs: list[Path], rounds: int, iterations: int,
                 seed: int = 0, threads: int = 1) -> dict[str, list[float]]:
    """variant -> ms per call of each round; every round runs all variants in a shuffled order."""
    runners = {v: partial(iree_ms_per_call, path, inputs, iterations, threads) for v, path in vmfbs.items()}
    return interleaved(runners, rounds, seed)


def medians_and_minimums(times: dict[str, list[float]]) -> tuple[dict[str, float], dict[str, float]]:
    """(variant -> median ms, variant -> least ms) of `timed_rounds`' rounds."""
    return ({v: statistics.median(t) for v, t in times.items()}, {v: min(t) for v, t in times.items()})


def shape_sweep_arguments(argv: list[str] | None, description: str, shapes: str, iterations: int) -> argparse.Namespace:
    """`--shapes` (comma-separated), `--rounds`, `--iterations`, `--threads` of a benchmark that
    times builds of one op or block per shape, its heading printed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--shapes", default=shapes)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=iterations)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"median (min) ms per call of {args.rounds} interleaved rounds, {args.threads} thread(s)")
    return args


def timed_shape(builds: Callable[[str, Path], dict[str, Path]], shape: str, arrays: list, args: argparse.Namespace
                ) -> tuple[dict[str, float], dict[str, float]]:
    """(median, least) ms per call of each variant `builds(shape, folder)` makes, run on `arrays`
    (saved beside them in a temporary folder) as `shape_sweep_arguments` says."""
    from fusionopt.iree_tools import save_inputs

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        inputs = save_inputs(arrays, folder)
        times = timed_rounds(builds(shape, folder), inputs, args.rounds, args.iterations, threads=args.threads)
    return medians_and_minimums(times)


def comparison_row(label: str, med: dict[str, float], low: dict[str, float], columns: tuple[str, str],
                   new: str, old: str, digits: int) -> str:
    """A table row: `label`, the two `columns`' median (min) ms, new / old, and aa / old (A/A)."""
    cells = " | ".join(f"{med[c]:.{digits}f} ({low[c]:.{digits}f})" for c in columns)
    return f"| {label} | {cells} | **{med[new] / med[old]:.2f}x** | {med['aa'] / med[old]:.2f}x |"


def spec_builds(text: str, specs: dict[str, str], folder: Path, stem: str) -> dict[str, Path]:
    """label -> vmfb of the module `text` through each pipeline spec (built with the flags the
    spec asks for), and `aa`, a copy of the first: one op or block's A/B build."""
    import shutil

    from fusionopt import registry
    from fusionopt.ir_io import print_module
    from fusionopt.iree_tools import compile_vmfb, target_flags
    from fusionopt.testing import apply_pipeline

    vmfbs = {}
    for label, spec in specs.items():
        source = folder / f"{stem}.{label}.mlir"
        source.write_text(print_module(apply_pipeline(text, spec)))
        vmfbs[label] = compile_vmfb(source, source.with_suffix(".vmfb"),
                                    [*target_flags("llvm-cpu"), *registry.iree_flags_of(spec)])
    vmfbs["aa"] = Path(shutil.copyfile(vmfbs[next(iter(specs))], folder / f"{stem}.aa.vmfb"))
    return vmfbs


def pass_builds(text: str, pipeline: str, pass_name: str, folder: Path, stem: str,
                labels: tuple[str, str]) -> dict[str, Path]:
    """`spec_builds` of the registered `pipeline` without and with the pass `pass_name`, keyed by
    `labels` (the caller puts test/ on the path, as the A/B benchmarks do)."""
    from support.cpu_pipeline_cases import without_pass

    return spec_builds(text, {labels[0]: without_pass(pipeline, pass_name), labels[1]: pipeline}, folder, stem)
