"""What one dispatch costs IREE's runtime, by thread count: a chain of N tiny dispatches
(tanh of a 64x64 tensor each, ~1 us of work) timed as the deployment protocol runs one and two
threads (`local-sync`; `local-task` with 2 workers), interleaved; prints us per call, us per
dispatch, and each setting's ratio to local-sync.

    python bench/dispatch_overhead.py [--dispatches 20] [--rounds 5] [--iterations 200]

Why: at two threads our CNN builds gain less than onnxruntime does (mobilenet_v2 1.18x faster
at two threads, onnxruntime 1.65x; bench/RESULTS.md); this is the share of that which a
dispatch's fork and join cost, whatever it computes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from iree_bench_timing import interleaved, iree_ms_per_call  # noqa: E402

from fusionopt.iree_tools import compile_vmfb, save_inputs, target_flags  # noqa: E402

IDENTITY = "affine_map<(d0, d1) -> (d0, d1)>"
TENSOR = "tensor<64x64xf32>"
SETTINGS = {"local-sync": 1, "local-task, 2 workers": 2}


def chain_program(dispatches: int) -> str:
    """`main_graph(x)`: `dispatches` pre-formed regions, each tanh of the previous result."""
    lines, previous = [f"func.func @main_graph(%x: {TENSOR}) -> {TENSOR} {{"], "%x"
    for i in range(dispatches):
        lines.append(
            f"  %r{i} = flow.dispatch.region -> ({TENSOR}) {{\n"
            f"    %e{i} = tensor.empty() : {TENSOR}\n"
            f"    %g{i} = linalg.generic {{indexing_maps = [{IDENTITY}, {IDENTITY}], iterator_types = "
            f"[\"parallel\", \"parallel\"]}} ins({previous} : {TENSOR}) outs(%e{i} : {TENSOR}) {{\n"
            f"    ^bb0(%a: f32, %o: f32):\n      %t = math.tanh %a : f32\n      linalg.yield %t : f32\n"
            f"    }} -> {TENSOR}\n    flow.return %g{i} : {TENSOR}\n  }}")
        previous = f"%r{i}"
    lines.append(f"  func.return {previous} : {TENSOR}\n}}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dispatches", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "chain.mlir"
        source.write_text(chain_program(args.dispatches))
        vmfb = compile_vmfb(source, Path(folder) / "chain.vmfb", target_flags("llvm-cpu"))
        inputs = save_inputs([np.random.default_rng(0).random((64, 64), dtype=np.float32)], Path(folder))
        runners = {name: partial(iree_ms_per_call, vmfb, inputs, args.iterations, threads)
                   for name, threads in SETTINGS.items()}
        times = interleaved(runners, args.rounds)
    base = statistics.median(times["local-sync"])
    print(f"{args.dispatches} dispatches of ~1 us of work; median (min) of {args.rounds} interleaved rounds")
    print("| device | us per call | us per dispatch | / local-sync |")
    print("|---|---:|---:|---:|")
    for name, rounds in times.items():
        median = statistics.median(rounds)
        print(f"| {name} | {median * 1e3:.1f} ({min(rounds) * 1e3:.1f}) | {median * 1e3 / args.dispatches:.1f} "
              f"| {median / base:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
