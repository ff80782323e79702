"""Time `fusion-run` on every shared model (bench/RESULTS.md, section "fusion-run").

    python bench/run_models.py [--repeat N]

For each model: wall time of the whole command `fusion-run M.args.linalg.mlir --int-range 0,1024`
(process start, imports, parse, run; best of N) and its CPU time (user + sys, best of N: the
figure that does not depend on what else the machine runs), then in-process parse and execute
times (best of N). Needs ../shared/models.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as fusion-run does (see tools/fusion_run.py)

import argparse  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from fusionopt.interpreter import find_entry, random_inputs, run_function  # noqa: E402
from fusionopt.ir_io import parse_file  # noqa: E402
from fusionopt.corpus import corpus_dir

MODELS_DIR = corpus_dir()
MODELS = ["bert_mini", "gpt2_mini", "mlp_towers"]


def best_of(repeat: int, action) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = action()
        best = min(best, time.perf_counter() - start)
    return best, value


def time_model(name: str, repeat: int) -> dict[str, float]:
    path = MODELS_DIR / name / f"{name}.args.linalg.mlir"
    command = ["fusion-run", str(path), "--int-range", "0,1024"]
    cli, cpu = float("inf"), float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        cli = min(cli, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    parse, module = best_of(repeat, lambda: parse_file(path))
    inputs = random_inputs(find_entry(module), 0, (0, 1024))
    run_function(module, inputs)  # warm-up: first-use imports and caches
    execute, _ = best_of(repeat, lambda: run_function(module, inputs))
    ops = sum(1 for _ in module.walk())
    return {"ops": ops, "cli": cli, "cpu": cpu, "parse": parse, "execute": execute}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not MODELS_DIR.is_dir():
        print(f"{MODELS_DIR} not found", file=sys.stderr)
        return 1
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| model | ops | fusion-run wall (whole command) | fusion-run CPU | parse | execute |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in MODELS:
        t = time_model(name, args.repeat)
        print(f"| {name} | {t['ops']} | {t['cli']:.2f} s | {t['cpu']:.2f} s | {t['parse']:.2f} s | {t['execute']:.3f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
