"""Our dispatch regions judged by IREE's runtime (bench/RESULTS.md, "IREE runtime (llvm-cpu)").

    python bench/iree_runtime.py [--rounds N] [--iterations K] [--models m1,m2] [--profile]

Per shared model (/work/shared/models/M/M.args.linalg.mlir), three llvm-cpu builds, all with
`--iree-llvmcpu-target-cpu=host`:
  a. IREE's default dispatch formation on the original linalg file;
  b. IREE with `--iree-dispatch-creation-enable-aggressive-fusion`;
  c. ours: `fusion-opt M -p dispatch-creation` (IREE keeps our flow.dispatch.regions as given).
Dispatches = `flow.dispatch @` call sites after `--compile-to=flow` of the same input and flags;
"matmul-named" = those IREE names `*matmul*` (its codegen recognised a contraction; a
contraction it does not recognise is named `reduction` and gets reduction tiling, not matmul's).
All three run on identical inputs (input_ids in [0, 1024), attention_mask ones, float inputs
N(0,1), weights N(0, 0.1^2): see test/unit/test_onnx_agreement.py), checked first through
`iree.runtime` (c and b against a: rtol 1e-3, atol 5e-4), then timed with
`iree-benchmark-module` on one worker thread. The machine is shared, so the variants run
interleaved (a, b, c, a, b, c, ...) and each round is K calls; the table gives the median and the
minimum over rounds of the mean ms per call. `--profile` adds a per-dispatch breakdown of a and c
(`--dispatch_statistics`) to find where ours loses time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from fusionopt.iree_tools import (
    benchmark_command, benchmark_vmfb, compile_vmfb, cpu_flags, flow_dispatch_names, run_vmfb,
    save_inputs,
)

MODELS_DIR = Path("/work/shared/models")
MODELS = ["bert_mini", "gpt2_mini", "mlp_towers"]
FUNCTION = "main_graph"
VOCAB, WEIGHT_STD = 1024, 0.1
ATOL, RTOL = 5e-4, 1e-3
VARIANTS = {"a": [], "b": ["--iree-dispatch-creation-enable-aggressive-fusion"], "c": []}


def model_inputs(name: str, seed: int = 0) -> list[np.ndarray]:
    """Arguments of @main_graph in `M.build.json` order (model inputs, then weights)."""
    build = json.loads((MODELS_DIR / name / f"{name}.build.json").read_text())
    rng = np.random.default_rng(seed)
    values = []
    for input_name, (shape, torch_dtype) in build["inputs"].items():
        if input_name == "attention_mask":
            values.append(np.ones(shape, dtype=np.int64))
        elif "int" in torch_dtype:
            values.append(rng.integers(0, VOCAB, size=shape, dtype=np.int64))
        else:
            values.append(rng.standard_normal(size=shape).astype(torch_dtype.removeprefix("torch.")))
    for _, _, shape, dtype in build["initializers_moved_to_inputs"]:
        values.append((WEIGHT_STD * rng.standard_normal(size=shape)).astype(dtype))
    return values


def sources(name: str, work: Path) -> dict[str, Path]:
    """Input file of each variant; c is our dispatch-creation output."""
    model = MODELS_DIR / name / f"{name}.args.linalg.mlir"
    ours = work / f"{name}.dispatch.mlir"
    subprocess.run(["fusion-opt", str(model), "-p", "dispatch-creation", "-o", str(ours)], check=True)
    return {"a": model, "b": model, "c": ours}


def max_abs_diff(results: list[np.ndarray], reference: list[np.ndarray]) -> float:
    assert len(results) == len(reference)
    return max(float(np.max(np.abs(r.astype(np.float64) - e))) for r, e in zip(results, reference))


def agrees(results: list[np.ndarray], reference: list[np.ndarray]) -> bool:
    return all(np.allclose(r, e, rtol=RTOL, atol=ATOL) for r, e in zip(results, reference))


def timed_rounds(vmfbs: dict[str, Path], inputs: list[Path], rounds: int, iterations: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {key: [] for key in vmfbs}
    for _ in range(rounds):
        for key, vmfb in vmfbs.items():
            times[key].append(benchmark_vmfb(vmfb, inputs, FUNCTION, iterations).ms_per_call)
    return times


def dispatch_profile(vmfbs: dict[str, Path], inputs: list[Path], iterations: int) -> None:
    """Per-executable ms per call for a (IREE default) and c (ours), slowest first."""
    for key in ("a", "c"):
        run = benchmark_vmfb(vmfbs[key], inputs, FUNCTION, iterations, dispatch_statistics=True)
        print(f"  {key}: {run.ms_per_call:.3f} ms/call, of which {sum(run.dispatch_ms.values()):.3f} in "
              "dispatches; dispatch ms/call (calls):")
        for name, ms in sorted(run.dispatch_ms.items(), key=lambda kv: -kv[1]):
            print(f"    {ms:8.4f}  ({run.dispatch_calls[name]:.0f})  {name}")


def bench_model(name: str, work: Path, args: argparse.Namespace) -> str:
    flags = cpu_flags("host")
    srcs = sources(name, work)
    names = {k: flow_dispatch_names(srcs[k], flags + VARIANTS[k]) for k in VARIANTS}
    dispatches = {k: len(v) for k, v in names.items()}
    matmuls = {k: sum("matmul" in n for n in v) for k, v in names.items()}
    vmfbs = {k: compile_vmfb(srcs[k], work / f"{name}.{k}.vmfb", flags + VARIANTS[k]) for k in VARIANTS}
    inputs = model_inputs(name)
    results = {k: run_vmfb(vmfbs[k], inputs, FUNCTION) for k in VARIANTS}
    diff_c, diff_b = max_abs_diff(results["c"], results["a"]), max_abs_diff(results["b"], results["a"])
    ok = "yes" if agrees(results["c"], results["a"]) else "NO"
    files = save_inputs(inputs, work / f"{name}.inputs")
    times = timed_rounds(vmfbs, files, args.rounds, args.iterations)
    med = {k: statistics.median(v) for k, v in times.items()}
    low = {k: min(v) for k, v in times.items()}
    if args.profile:
        print(f"{name}: per-dispatch profile")
        dispatch_profile(vmfbs, files, args.iterations)
    return (f"| {name} | {dispatches['a']} / {dispatches['b']} / {dispatches['c']} "
            f"| {matmuls['a']} / {matmuls['b']} / {matmuls['c']} "
            f"| {med['a']:.3f} / {med['b']:.3f} / {med['c']:.3f} "
            f"| {low['a']:.3f} / {low['b']:.3f} / {low['c']:.3f} "
            f"| {med['c'] / med['a']:.2f}x | {low['c'] / low['a']:.2f}x "
            f"| {diff_c:.1e} ({ok}) | {diff_b:.1e} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved a,b,c rounds")
    parser.add_argument("--iterations", type=int, default=50, help="calls per round")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--profile", action="store_true", help="per-dispatch times of a and c")
    args = parser.parse_args()
    print("| model | dispatches a / b / c | matmul-named a / b / c | median ms a / b / c "
          "| min ms a / b / c | c/a median | c/a min | max abs diff c vs a (ok) | b vs a |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            print(bench_model(name, Path(tmp), args), flush=True)
    example = benchmark_command(Path("M.c.vmfb"), [Path("arg0.npy"), Path("...")], FUNCTION, args.iterations)
    print("\nper-round timing command:", " ".join(example))


if __name__ == "__main__":
    main()
