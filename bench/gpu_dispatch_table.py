"""Per-dispatch GPU time tables from Nsight Compute CSVs (bench/gpu_dispatch_times.sh).

    python bench/gpu_dispatch_table.py FOLDER/bert_mini.iree-default.csv FOLDER/bert_mini.ours.csv ...
        [--top 12]

Each CSV holds one row per kernel launch of `iree-benchmark-module --benchmark_min_time=Nx`
(the warm-up call and the N timed calls). Per file: the launches of one call are those of the last
call (the warm-up call pays first-use costs); a kernel is named by its dispatch
(`main_graph_dispatch_12_batch_matmul_1x64x384x384_f32`, printed from its ordinal on), and a
dispatch used several times per call (one executable shared by several layers) is summed. Printed per file: the sum of kernel
times per call and the dispatches that take most of it, with their grid.
"""

from __future__ import annotations

import argparse
import csv
import re
from collections import defaultdict
from pathlib import Path

METRIC = "gpu__time_duration.sum"


def launches(path: Path) -> list[tuple[str, str, float]]:
    """(kernel name, grid, microseconds) per launch, in launch order."""
    lines = [line for line in path.read_text().splitlines() if line.startswith('"')]
    rows = list(csv.DictReader(lines))
    scale = {"ns": 1e-3, "us": 1.0, "usecond": 1.0, "nsecond": 1e-3, "ms": 1e3, "msecond": 1e3}
    return [(r["Kernel Name"], r["Grid Size"], float(r["Metric Value"].replace(",", "")) * scale[r["Metric Unit"]])
            for r in rows if r["Metric Name"] == METRIC]


def last_call(rows: list[tuple[str, str, float]]) -> list[tuple[str, str, float]]:
    """The launches of the last call: the run is a whole number of identical calls, so the
    period is the shortest one that splits the launch sequence into equal name lists."""
    names = [r[0] for r in rows]
    for period in range(1, len(names) + 1):
        if len(names) % period == 0 and all(names[i] == names[i % period] for i in range(len(names))):
            return rows[-period:]
    return rows


def per_dispatch(rows: list[tuple[str, str, float]]) -> dict[str, tuple[int, str, float]]:
    """dispatch name -> (uses per call, grid, total microseconds per call)."""
    table: dict[str, list] = defaultdict(lambda: [0, "", 0.0])
    for name, grid, us in rows:
        entry = table[re.sub(r"^.*?_dispatch_(?=\d)", "", name)]
        entry[0] += 1
        entry[1] = grid
        entry[2] += us
    return {k: tuple(v) for k, v in table.items()}


def report(path: Path, top: int) -> str:
    call = last_call(launches(path))
    table = per_dispatch(call)
    total = sum(us for _, _, us in call)
    lines = [f"### {path.stem}: {len(call)} kernel launches, {total:.1f} us of kernel time per call",
             "", "| dispatch | uses | grid | us per call | share |", "|---|---:|---|---:|---:|"]
    for name, (uses, grid, us) in sorted(table.items(), key=lambda kv: -kv[1][2])[:top]:
        lines.append(f"| {name} | {uses} | {grid} | {us:.1f} | {us / total:.0%} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)
    print("\n\n".join(report(p, args.top) for p in args.csv))


if __name__ == "__main__":
    main()
