"""Tables of the IREE runtime benchmark, and its section in bench/RESULTS.md.

Why the A/A column: `aa` is the same module as iree-default loaded separately, so aa/iree-default
would be 1.00x on a quiet machine; how far it strays is how far any other ratio in the same run
can be trusted.
"""

from __future__ import annotations

import datetime
import os
import re
import statistics
import subprocess
from pathlib import Path

from fusionopt.iree_tools import WARMUP_SECONDS

SECTION = "## IREE runtime (CPU and CUDA)"
RATIOS = (("ours", "iree-default"), ("ours", "iree-best"), ("ours-onnx", "iree-default"),
          ("ours-onnx", "iree-best"), ("ours-llvm-cpu", "iree-default"), ("ours-llvm-cpu", "iree-best"),
          ("ours-onnx-llvm-cpu", "iree-default"), ("iree-best", "iree-default"), ("aa", "iree-default"))


def summarize(times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """variant -> {"median": ms, "min": ms} over rounds."""
    return {v: {"median": statistics.median(t), "min": min(t)} for v, t in times.items() if t}


def ratio_cells(stats: dict[str, dict[str, float]]) -> list[tuple[str, str]]:
    """(header, "median-ratio (min-ratio)") for each ratio whose two variants were timed."""
    cells = []
    for num, den in RATIOS:
        if num in stats and den in stats:
            label = "A/A noise aa/iree-default" if num == "aa" else f"{num}/{den}"
            med = stats[num]["median"] / stats[den]["median"]
            low = stats[num]["min"] / stats[den]["min"]
            cells.append((label, f"{med:.2f}x ({low:.2f}x)"))
    return cells


def timing_table(rows: list[dict]) -> str:
    """rows: {"model", "target", "variants", "dispatches", "stats"}; one line per model/target.

    Per-variant figures are "a / b / c" in the `variants` order named in the header.
    """
    if not rows:
        return ""
    variants = list(dict.fromkeys(v for row in rows for v in row["variants"]))  # a failed build: "-"
    order = " / ".join(variants)
    ratio_headers = list(dict.fromkeys(label for row in rows for label, _ in ratio_cells(row["stats"])))
    head = (["model", "target", f"dispatches {order}", f"median ms {order}", f"min ms {order}"]
            + [f"{h} median (min)" for h in ratio_headers])
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for row in rows:
        stats = row["stats"]
        cells = [row["model"], row["target"],
                 " / ".join(str(row["dispatches"].get(v, "-")) for v in variants),
                 " / ".join(f"{stats[v]['median']:.3f}" if v in stats else "-" for v in variants),
                 " / ".join(f"{stats[v]['min']:.3f}" if v in stats else "-" for v in variants)]
        ratios = dict(ratio_cells(stats))
        cells += [ratios.get(label, "-") for label in ratio_headers]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine() -> str:
    """CPU model and core count (lscpu), for the record next to the numbers."""
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
        model = re.search(r"Model name:\s*(.+)", text)
        name = model.group(1).strip() if model else "unknown CPU"
    except (OSError, subprocess.SubprocessError):
        name = "unknown CPU"
    return f"{name}, {os.cpu_count()} cores"


def section(command: str, iree_version: str, body: str, title: str = SECTION) -> str:
    date = datetime.date.today().isoformat()
    return (f"{title}\n\nCommand: `{command}`; machine: {machine()}; date: {date}; {iree_version}.\n"
            "Protocol: variants interleaved round by round in a seeded shuffled order, each round "
            f"`iree-benchmark-module --benchmark_min_warmup_time={WARMUP_SECONDS} --benchmark_min_time=Kx` (CPU: `--device=local-sync`, one "
            "thread); ms = mean per call of a round, median (min) over rounds. `aa` is a second, "
            "separately loaded copy of iree-default: aa/iree-default is the run's noise.\n\n"
            f"{body.strip()}\n")


def write_section(results_md: Path, text: str) -> None:
    """Replace the section `text` starts with (its heading line, up to the next `## `
    heading) in `results_md`, or append it."""
    title = text.split("\n", 1)[0]
    old = results_md.read_text() if results_md.is_file() else ""
    start = old.find(title + "\n")
    if start < 0:
        results_md.write_text(old.rstrip("\n") + "\n\n" + text)
        return
    nxt = old.find("\n## ", start + len(title))
    tail = old[nxt + 1:] if nxt >= 0 else ""
    results_md.write_text(old[:start] + text + ("\n" + tail if tail else ""))
