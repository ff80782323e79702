"""`dispatch-creation` on the shared models next to IREE 3.13 (bench/RESULTS.md, "dispatch-creation").

    python bench/dispatch_creation.py [--repeat N] [--no-iree]

Per model:
- ours: `fusion-opt M.args.linalg.mlir -p dispatch-creation`, figures from
  `fusionopt.stats.compute_stats` (dispatches, copies, bytes_moved);
- IREE: dispatch count from `iree-compile --compile-to=flow` (the README's command) on the same
  file, copies = `flow.tensor.slice/update` ops plus `slow_memcpy` dispatches, bytes_moved with
  the same rule as ours (each dispatch reads its distinct operands whole and writes its results,
  copies read and write their update) from the flow IR's types;
- speed (the issue's target): wall time of `fusion-opt M -p dispatch-creation` against
  `fusion-opt M` (parse + print alone), both measured in this run, best of N;
- whether `iree-compile` builds our output for llvm-cpu.
Needs ../shared/models; IREE columns need `iree-compile` on PATH.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from fusionopt.ir_io import parse_file
from fusionopt.stats import compute_stats
from fusionopt.corpus import corpus_dir

MODELS_DIR = corpus_dir()
MODELS = ["bert_mini", "gpt2_mini", "mlp_towers"]
IREE = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
BYTES = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i64": 8, "i32": 4, "i1": 1, "i8": 1}


def tensor_bytes(spec: str) -> int:
    *dims, element = spec.split("x")
    count = 1
    for d in dims:
        count *= int(d)
    return count * BYTES[element]


def types_in(text: str) -> list[int]:
    return [tensor_bytes(t) for t in re.findall(r"tensor<([0-9x]*[a-z0-9]+)>", text)]


def iree_figures(model: Path, workdir: Path) -> dict[str, int]:
    """Dispatches, copies and bytes moved of IREE's own flow IR for `model`."""
    flow = workdir / "iree.flow.mlir"
    subprocess.run(["iree-compile", str(model), *IREE, "--compile-to=flow", "-o", str(flow)],
                   check=True, capture_output=True)
    dispatches = copies = moved = 0
    for line in flow.read_text().splitlines():
        if "flow.dispatch @" in line:
            dispatches += 1
            copies += "slow_memcpy" in line
            operands, _, results = line.split(" : (", 1)[1].partition(") -> ")
            names = re.search(r"\((.*?)\) :", line).group(1).split(", ")
            sizes = types_in("(" + operands + ")")
            moved += sum(dict(zip(names, sizes)).values()) + sum(types_in(results))
        elif "flow.tensor.update" in line or "flow.tensor.slice" in line:
            copies += 1
            moved += 2 * types_in(line.split(" : ", 1)[1])[0]
    return {"dispatches": dispatches, "copies": copies, "bytes_moved": moved}


def best_wall(cmd: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def compiles(path: Path, vmfb: Path) -> bool:
    """Whether `iree-compile` builds `path` for llvm-cpu (the executable goes to `vmfb`)."""
    result = subprocess.run(["iree-compile", str(path), *IREE, "--iree-llvmcpu-target-cpu=generic",
                             "-o", str(vmfb)], capture_output=True)
    return result.returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-iree", action="store_true")
    args = parser.parse_args()
    use_iree = not args.no_iree and shutil.which("iree-compile") is not None
    print("| model | dispatches (ours / IREE) | copies (ours / IREE) | bytes_moved (ours / IREE) "
          "| dispatch-creation s | parse+print s | ratio | iree-compile builds ours |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in MODELS:
            model = MODELS_DIR / name / f"{name}.args.linalg.mlir"
            out = work / f"{name}.dispatch.mlir"
            ours_s = best_wall(["fusion-opt", str(model), "-p", "dispatch-creation", "-o", str(out)], args.repeat)
            plain_s = best_wall(["fusion-opt", str(model), "-o", str(work / "plain.mlir")], args.repeat)
            ours = compute_stats(parse_file(out))["total"]
            iree = iree_figures(model, work) if use_iree else {}
            builds = ("yes" if compiles(out, work / "out.vmfb") else "NO") if use_iree else "n/a"
            cell = lambda key: f"{ours[key]} / {iree.get(key, 'n/a')}"  # noqa: E731
            print(f"| {name} | {cell('dispatches')} | {cell('copies')} | {cell('bytes_moved')} "
                  f"| {ours_s:.2f} | {plain_s:.2f} | {ours_s / plain_s:.2f}x | {builds} |")


if __name__ == "__main__":
    main()
