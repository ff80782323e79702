"""Front-end seconds on an ONNX model: `fusion-translate --import-onnx`, then `fusion-opt -p
PIPELINE --time-passes` split into startup (interpreter and imports), parse, verifier, passes
and output; `fusion-opt MODEL.onnx -p PIPELINE` (one process, the same output, checked); against
`iree-import-onnx` on the same file. Each figure is the least of N runs.

    python bench/frontend_time.py MODEL.onnx [--runs 3] [--pipeline graph-to-dispatch-llvm-cpu]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PHASE = re.compile(r"^\s+([\d.]+) \(\s*[\d.]+%\)\s+(\S.*)$", re.M)
COLUMNS = (
    "import", "startup", "parse", "verifier", "passes", "output", "fusion-opt", "total", "one process",
    "iree-import-onnx",
)


def timed(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return seconds, done.stderr


def tool(name: str) -> list[str]:
    return [sys.executable, "-m", f"fusionopt.tools.{name}"]


def one_run(model: str, pipeline: str, work: Path) -> dict[str, float]:
    graph, out = str(work / "graph.mlir"), str(work / "out.mlir")
    imported, _ = timed([*tool("fusion_translate"), "--import-onnx", model, "-o", graph])
    opt, report = timed([*tool("fusion_opt"), graph, "-p", pipeline, "--time-passes", "-o", out])
    phases = {name.strip(): float(seconds) for seconds, name in PHASE.findall(report)}
    timed_total = phases["Total"]
    one, _ = timed([*tool("fusion_opt"), model, "-p", pipeline, "-o", str(work / "one.mlir")])
    if (work / "one.mlir").read_text() != Path(out).read_text():
        sys.exit(f"fusion-opt {model} and fusion-translate | fusion-opt printed different modules")
    iree, _ = timed(["iree-import-onnx", model, "-o", str(work / "iree.mlir")])
    return {
        "import": imported,
        "startup": opt - timed_total,
        "parse": phases["parser"],
        "verifier": phases["(verifier)"],
        "passes": timed_total - phases["parser"] - phases["(verifier)"] - phases["output"],
        "output": phases["output"],
        "fusion-opt": opt,
        "total": imported + opt,
        "one process": one,
        "iree-import-onnx": iree,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pipeline", default="graph-to-dispatch-llvm-cpu")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        runs = [one_run(args.model, args.pipeline, Path(work)) for _ in range(args.runs)]
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---:|" * len(COLUMNS))
    print("| " + " | ".join(f"{min(run[c] for run in runs):.2f}" for c in COLUMNS) + " |")


if __name__ == "__main__":
    main()
