"""Parse / verify / print speed of fusionopt against plain xDSL and iree-opt.

Generates modules of ~2k, 10k, 20k (and with --large 100k) ops and times, on the same file:
  - `ours`:  fusionopt.ir_io (parse_module = parse + verify, print_module), in process;
  - `xdsl`:  plain xDSL 0.74 (its own Context with xDSL's dialects, Parser, verify, Printer);
  - CLIs end to end (parse + verify + print, process start-up included): fusion-opt,
    xdsl-opt, iree-opt.
The "upstream" module uses only func/arith/math/tensor/linalg ops so every tool reads it. When
the graph dialect is available, a "graph" module (graph ops interleaved with linalg.generic)
is timed for ours only (xDSL and iree-opt do not know graph ops).

Targets: ours/xdsl throughput >= 0.9; cost(100k) / cost(10k) <= 12.

    python bench/parse_print.py [--large] [--repeat N] [--no-cli] [--profile]

--profile runs cProfile over our parse of the 20k-op module and prints the top functions, and
times parsing with the garbage collector disabled for comparison.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.util
import io
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import get_all_dialects as xdsl_dialects
from xdsl.parser import Parser
from xdsl.printer import Printer

from fusionopt.ir_io import parse_module, print_module

TENSOR = "tensor<8x16xf32>"
MAP = "#map = affine_map<(d0, d1) -> (d0, d1)>"
GENERIC_OPS = 4  # linalg.generic + addf + mulf + yield


def generic(result: str, lhs: str, rhs: str) -> str:
    return (
        f"    {result} = linalg.generic {{indexing_maps = [#map, #map, #map], "
        f'iterator_types = ["parallel", "parallel"]}} ins({lhs}, {rhs} : {TENSOR}, {TENSOR}) '
        f"outs(%e : {TENSOR}) {{\n"
        f"    ^bb0(%in: f32, %in_1: f32, %out: f32):\n"
        f"      %s = arith.addf %in, %in_1 : f32\n"
        f"      %p = arith.mulf %s, %cst : f32\n"
        f"      linalg.yield %p : f32\n"
        f"    }} -> {TENSOR}\n"
    )


def upstream_step(i: int, prev: str) -> tuple[str, int]:
    """One step of the upstream body: a generic, tensor arith/math and a reshape round trip."""
    text = generic(f"%g{i}", prev, "%arg1")
    text += f"    %a{i} = arith.addf %g{i}, %arg0 : {TENSOR}\n"
    text += f"    %x{i} = math.exp %a{i} : {TENSOR}\n"
    text += f"    %c{i} = tensor.collapse_shape %x{i} [[0, 1]] : {TENSOR} into tensor<128xf32>\n"
    text += (
        f"    %r{i} = tensor.expand_shape %c{i} [[0, 1]] output_shape [8, 16] : "
        f"tensor<128xf32> into {TENSOR}\n"
    )
    return text, GENERIC_OPS + 4


def graph_step(i: int, prev: str) -> tuple[str, int]:
    """One step of the graph body: graph elementwise/layout ops around a linalg.generic."""
    text = generic(f"%g{i}", prev, "%arg1")
    text += f"    %a{i} = graph.add %g{i}, %arg0 : {TENSOR}\n"
    text += f"    %x{i} = graph.exp %a{i} : {TENSOR}\n"
    text += f"    %t{i} = graph.transpose %x{i} perm = [1, 0] : {TENSOR} -> tensor<16x8xf32>\n"
    text += f"    %u{i} = graph.transpose %t{i} perm = [1, 0] : tensor<16x8xf32> -> {TENSOR}\n"
    text += f"    %r{i} = graph.mul %u{i}, %arg1 : {TENSOR}\n"
    return text, GENERIC_OPS + 5


def generate(n_ops: int, step=upstream_step, steps_per_func: int = 50) -> str:
    """A module of about `n_ops` ops: functions of `steps_per_func` steps each."""
    _, ops_per_step = step(0, "%arg0")
    per_func = steps_per_func * ops_per_step + 4  # + func, constant, empty, return
    parts = [MAP, "module {"]
    for f in range(max(1, round(n_ops / per_func))):
        parts.append(
            f"  func.func @f{f}(%arg0: {TENSOR}, %arg1: {TENSOR}) -> {TENSOR} {{\n"
            f"    %cst = arith.constant 1.000000e+00 : f32\n"
            f"    %e = tensor.empty() : {TENSOR}\n"
        )
        prev = "%arg0"
        for i in range(steps_per_func):
            text, _ = step(i, prev)
            parts.append(text)
            prev = f"%r{i}"
        parts.append(f"    return {prev} : {TENSOR}\n  }}")
    parts.append("}")
    return "\n".join(parts) + "\n"


def count_ops(module) -> int:
    return sum(1 for _ in module.walk()) - 1  # the builtin.module itself is not counted


@dataclass
class Timing:
    parse: float
    verify: float
    print: float

    @property
    def total(self) -> float:
        return self.parse + self.verify + self.print


def best(times: list[Timing]) -> Timing:
    return min(times, key=lambda t: t.total)


clock = time.process_time  # CPU seconds: other processes on the machine do not inflate them


def time_ours(text: str) -> tuple[Timing, int]:
    start = clock()
    module = parse_module(text, "bench.mlir")  # parse + verify
    parsed = clock()
    module.verify()
    verified = clock()
    print_module(module)
    printed = clock()
    verify = verified - parsed
    return Timing(max(parsed - start - verify, 0.0), verify, printed - verified), count_ops(module)


def plain_xdsl_context() -> Context:
    ctx = Context()
    for name, factory in xdsl_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def time_xdsl(text: str) -> Timing:
    start = clock()
    module = Parser(plain_xdsl_context(), text, name="bench.mlir").parse_module()
    parsed = clock()
    module.verify()
    verified = clock()
    Printer(stream=io.StringIO()).print_op(module)
    return Timing(parsed - start, verified - parsed, clock() - verified)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_cli(command: list[str], repeat: int) -> float | None:
    if shutil.which(command[0]) is None:
        return None
    runs = []
    for _ in range(repeat):
        start = children_cpu()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        runs.append(children_cpu() - start)
        if done.returncode != 0:
            print(f"  {command[0]} failed: {done.stderr.strip()[:300]}", file=sys.stderr)
            return None
    return min(runs)


def rate(ops: int, seconds: float | None) -> str:
    return "n/a" if not seconds else f"{ops / seconds:,.0f}"


def bench_size(n_ops: int, step, repeat: int, cli: bool, with_peers: bool) -> dict:
    text = generate(n_ops, step)
    repeat = repeat if n_ops < 50000 else 1  # the 100k size takes minutes per run
    ours_runs, xdsl_runs, ops = [], [], 0
    for _ in range(repeat):  # interleaved, so a burst of machine load hits both alike
        timing, ops = time_ours(text)
        ours_runs.append(timing)
        if with_peers:
            xdsl_runs.append(time_xdsl(text))
    row = {"ops": ops, "ours": best(ours_runs)}
    if with_peers:
        row["xdsl"] = best(xdsl_runs)
    if cli:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as handle:
            handle.write(text)
        path = handle.name
        row["fusion-opt"] = time_cli(["fusion-opt", path], repeat)
        if with_peers:
            row["xdsl-opt"] = time_cli(["xdsl-opt", path], repeat)
            row["iree-opt"] = time_cli(["iree-opt", path], repeat)
        Path(path).unlink()
    return row


def report(kind: str, rows: list[dict]) -> None:
    print(f"\n### {kind} module")
    print("CPU seconds (best of the runs); CLIs: whole process incl. start-up.")
    print("| ops | tool | parse s | verify s | print s | total s | ops/s |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for row in rows:
        for tool in ("ours", "xdsl"):
            if tool in row:
                t = row[tool]
                print(
                    f"| {row['ops']} | {tool} (in-process) | {t.parse:.3f} | {t.verify:.3f} | "
                    f"{t.print:.3f} | {t.total:.3f} | {rate(row['ops'], t.total)} |"
                )
        for tool in ("fusion-opt", "xdsl-opt", "iree-opt"):
            if tool in row:
                secs = row[tool]
                shown = "failed/missing" if secs is None else f"{secs:.3f}"
                print(f"| {row['ops']} | {tool} (CLI, end to end) | | | | {shown} | {rate(row['ops'], secs)} |")
    report_ratios(rows)


def report_ratios(rows: list[dict]) -> None:
    for row in rows:
        if "xdsl" in row:
            ratio = row["xdsl"].total / row["ours"].total
            verdict = "ok" if ratio >= 0.9 else "BELOW TARGET"
            print(f"- {row['ops']} ops: ours/xDSL throughput = {ratio:.2f} (target >= 0.9: {verdict})")
        if row.get("fusion-opt") and row.get("xdsl-opt"):
            print(f"  CLI fusion-opt/xdsl-opt throughput = {row['xdsl-opt'] / row['fusion-opt']:.2f}")
        if row.get("iree-opt") and row.get("fusion-opt"):
            print(f"  iree-opt is {row['fusion-opt'] / row['iree-opt']:.1f}x faster than fusion-opt (CLI)")
    small = next((r for r in rows if 9000 <= r["ops"] <= 11000), None)
    large = next((r for r in rows if r["ops"] >= 90000), None)
    if small and large:
        growth = large["ours"].total / small["ours"].total
        size_ratio = large["ops"] / small["ops"]
        verdict = "ok" if growth <= 12 else "ABOVE TARGET"
        print(f"- linearity: time({large['ops']}) / time({small['ops']}) = {growth:.2f} "
              f"for {size_ratio:.1f}x the ops (target <= 12: {verdict})")


def profile_parse(n_ops: int) -> None:
    text = generate(n_ops)
    profiler = cProfile.Profile()
    profiler.enable()
    module = parse_module(text, "bench.mlir")
    profiler.disable()
    print(f"\n### cProfile: our parse_module on {count_ops(module)} ops (top 25 by own time)")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
    print(out.getvalue())
    for disabled in (False, True):
        if disabled:
            gc.disable()
        start = clock()
        parse_module(text, "bench.mlir")
        elapsed = clock() - start
        gc.enable()
        print(f"- parse_module with gc {'disabled' if disabled else 'enabled '}: {elapsed:.3f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true", help="also run the 100k-op size (minutes)")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs per measurement")
    parser.add_argument("--no-cli", action="store_true", help="skip the command-line tools")
    parser.add_argument("--profile", action="store_true", help="cProfile our parse at 20k ops")
    parser.add_argument("--kind", choices=("all", "upstream", "graph", "none"), default="all",
                        help="which module(s) to time (none: only --profile)")
    args = parser.parse_args(argv)
    sizes = [2000, 10000, 20000] + ([100000] if args.large else [])
    kinds = [("upstream (func/arith/math/tensor/linalg)", upstream_step, True)]
    if importlib.util.find_spec("fusionopt.dialects.graph") is not None:
        kinds.append(("graph + linalg.generic (ours only)", graph_step, False))
    else:
        print("note: fusionopt.dialects.graph not available; graph module skipped")
    kinds = [k for k in kinds if args.kind == "all" or k[0].startswith(args.kind)]
    for _, step, _ in kinds:  # warm-up: lazy dialect imports must not be charged to one size
        time_ours(generate(200, step))
    time_xdsl(generate(200))
    for kind, step, with_peers in kinds:
        rows = [bench_size(n, step, args.repeat, not args.no_cli, with_peers) for n in sizes]
        report(kind, rows)
        sys.stdout.flush()
    if args.profile:
        profile_parse(20000)


if __name__ == "__main__":
    main()
