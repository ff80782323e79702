"""`graph-to-dispatch` end to end on examples/mlp_towers.mlir (bench/RESULTS.md, "end to end: mlp_towers").

    python bench/end_to_end.py [--model examples/mlp_towers.mlir] [--repeat N] [--no-iree]

Rows: the module at each stage of the `graph-to-dispatch` pipeline (see fusionopt/registry.py):
  input -> after horizontal fusion (graph-simplify, hoist, horizontal) -> after lowering
  (convert-graph-to-linalg) -> after dispatch-creation.
Columns from `fusionopt.stats.compute_stats`: dots (graph.dot + linalg contractions), kernels,
dispatches, copies, bytes_moved. IREE rows: IREE 3.13's count from ../shared/models/README.md
(12), and IREE's own `iree-compile --compile-to=flow` on our lowered linalg, both without
horizontal fusion (the same model as IREE's) and with it (what IREE makes of our batched GEMMs).
Also: wall time of the whole `fusion-opt MODEL -p graph-to-dispatch` command (best of N, next to
`fusion-opt MODEL`, parse+print alone), whether
iree-compile builds the final output for llvm-cpu, and the numbers: our interpreter on the input
vs on the output, and IREE's executable of the output (`iree-run-module`) vs the input.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from fusionopt.ir_io import parse_file, print_module
from fusionopt.stats import compute_stats
from fusionopt.testing import apply_pipeline, random_inputs, run_module
from fusionopt.transforms.common import dispatch_utils as du

ROOT = Path(__file__).resolve().parents[1]
IREE_README_DISPATCHES = 12  # ../shared/models/README.md, mlp_towers, IREE default
GRAPH_STAGES = "graph-simplify,graph-hoist-pointwise-above-slices,graph-horizontal-fuse-dots"


def _dispatch_creation_bench():
    """bench/dispatch_creation.py: one IREE counting rule, timer and build check for both benches."""
    spec = importlib.util.spec_from_file_location("dispatch_creation_bench", ROOT / "bench/dispatch_creation.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def count_dots(module) -> int:
    return sum(1 for op in module.walk() if op.name == "graph.dot" or du.is_contraction(op))


def figures(module) -> dict[str, int]:
    total = compute_stats(module)["total"]
    keys = ("kernels", "dispatches", "copies", "bytes_moved")
    return {"dots": count_dots(module), **{k: total[k] for k in keys}}


def stages(model: Path):
    """(label, module) after each stage; each module is an independent copy."""
    source = parse_file(model)
    yield "input", source
    text = print_module(source)
    horizontal = apply_pipeline(text, GRAPH_STAGES)
    yield "after horizontal fusion", horizontal
    lowered = apply_pipeline(print_module(horizontal), "convert-graph-to-linalg")
    yield "after lowering", lowered
    yield "after dispatch-creation", apply_pipeline(print_module(lowered), "dispatch-creation")


def iree_run(vmfb: Path, x: np.ndarray, work: Path) -> np.ndarray:
    np.save(work / "x.npy", x)
    subprocess.run(["iree-run-module", f"--module={vmfb}", "--device=local-task", "--function=mlp_towers",
                    f"--input=@{work / 'x.npy'}", f"--output=@{work / 'y.npy'}"], check=True, capture_output=True)
    return np.load(work / "y.npy")


def print_row(label: str, row: dict) -> None:
    cells = " | ".join(str(row.get(k, "")) for k in ("dots", "kernels", "dispatches", "copies", "bytes_moved"))
    print(f"| {label} | {cells} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=ROOT / "examples/mlp_towers.mlir")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-iree", action="store_true")
    args = parser.parse_args()
    use_iree = not args.no_iree and shutil.which("iree-compile") is not None
    print("| stage | dots | kernels | dispatches | copies | bytes_moved |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shared = _dispatch_creation_bench()
        modules = dict(stages(args.model))
        for label, module in modules.items():
            print_row(label, figures(module))
        print_row("IREE 3.13 (models/README.md)", {"dispatches": IREE_README_DISPATCHES})
        final = work / "final.mlir"
        final.write_text(print_module(modules["after dispatch-creation"]))
        if use_iree:
            iree_figures = shared.iree_figures
            plain = work / "plain.linalg.mlir"
            plain.write_text(print_module(apply_pipeline(parse_file(args.model), "convert-graph-to-linalg")))
            print_row("IREE on our lowering, no horizontal fusion", iree_figures(plain, work))
            batched = work / "batched.linalg.mlir"
            batched.write_text(print_module(modules["after lowering"]))
            print_row("IREE on our lowering after horizontal fusion", iree_figures(batched, work))
        seconds = shared.best_wall(["fusion-opt", str(args.model), "-p", "graph-to-dispatch", "-o", str(work / "o.mlir")],
                            args.repeat)
        plain_s = shared.best_wall(["fusion-opt", str(args.model), "-o", str(work / "p.mlir")], args.repeat)
        print(f"\n`fusion-opt {args.model.name} -p graph-to-dispatch`: {seconds:.2f} s wall (best of {args.repeat}; "
              f"parse+print alone {plain_s:.2f} s)")
        source = modules["input"]
        x = random_inputs(next(op for op in source.walk() if op.name == "func.func"), seed=0)
        expected = run_module(source, x)[0]
        ours = run_module(modules["after dispatch-creation"], x)[0]
        print(f"interpreter, output vs input: max |diff| = {np.max(np.abs(ours - expected)):.3g}")
        if use_iree:
            vmfb = work / "final.vmfb"
            built = shared.compiles(final, vmfb)
            print(f"iree-compile (llvm-cpu) builds the output: {'yes' if built else 'NO'}")
            if built and shutil.which("iree-run-module"):
                got = iree_run(vmfb, x[0], work)
                print(f"iree-run-module of the output vs our interpreter on the input: "
                      f"max |diff| = {np.max(np.abs(got - expected)):.3g} (max |y| = {np.max(np.abs(expected)):.3g})")


if __name__ == "__main__":
    sys.exit(main())
