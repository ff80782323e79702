"""Held-out whole models (ONNX, weights inline): does every pipeline's output build, agree, and how fast?

    python bench/heldout_models.py M.inline.onnx [M2.inline.onnx ...] [--variants ...]
        [--families random,offset] [--rounds 5] [--iterations 5] [--no-time] [--keep DIR]
        [--json OUT.json]

The models come from `bench/export_models.py --forms inline` (`HELDOUT_MODELS`: torchvision at
224x224, random weights). Per model, each variant of bench/iree_bench_build.py that applies to an
ONNX file (`iree-default`: `iree-import-onnx` + `iree-compile`; `ours-onnx*`: `fusion-opt M.onnx
-p` the graph pipeline, the import in-process) is compiled for llvm-cpu (host) in two steps (`--compile-to=flow`,
whose `flow.dispatch` call sites are the dispatch count, then `--compile-from=flow`). A variant that
does not build gets IREE's first error line and the regions its errors point at, each compiled
alone (bench/block_builds.py's extractor: op signature, argument types, IREE's error; the region
modules are kept under `--keep`). Built variants run through IREE's runtime (local-sync) on each input family
(image only: the weights are the model's) and are compared with onnxruntime (max|diff| /
max|ref|) and with iree-default. Timing (bench/iree_bench_timing.py `timed_rounds`): interleaved rounds,
one thread, with `aa`, a separately loaded copy of iree-default, whose ratio is the noise.

A model whose inputs keep symbolic dims (`M.dynamic.onnx`) is built dynamic by every variant
(our ONNX front end imports it through IREE's importer with `?` dims) and run at the sizes of
`--sizes NAME=N[,N...]`, each family at each size.

`--target cuda` (sm_80, no GPU needed) builds only: each variant (default `iree-default` and
`ours-onnx-cuda`, i.e. `graph-to-dispatch-cuda`) compiled for CUDA, its dispatch count, and the
failing regions compiled alone for CUDA; nothing is run or timed.
"""

from __future__ import annotations

import argparse
import bisect
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from block_builds import REGION, first_error, iree_build, onnxruntime_outputs, region_modules, relative_error  # noqa: E402
from iree_bench_build import variant_flags, variant_source  # noqa: E402
from iree_bench_onnx import graph_inputs  # noqa: E402
from iree_bench_timing import timed_rounds  # noqa: E402

from fusionopt.interpreter.input_families import family_values  # noqa: E402
from fusionopt.iree_tools import compiler_executable, run_vmfb, save_inputs  # noqa: E402

VARIANTS = ("iree-default", "ours-onnx", "ours-onnx-llvm-cpu", "ours-onnx-llvm-cpu-fewest")
CUDA_VARIANTS = ("iree-default", "ours-onnx-cuda")
ENTRY = "main_graph"


def image_inputs(model: Path, family: str, seed: int, sizes: dict[str, int] | None = None) -> dict[str, np.ndarray]:
    """The model's inputs of `family`; a symbolic dim takes its size from `sizes`."""
    rng = np.random.default_rng(seed)
    return {name: np.asarray(family_values(shape, dtype, family, rng, (0, 16))).astype(dtype)
            for name, shape, dtype in sized_inputs(model, sizes or {})}


def sized_inputs(model: Path, sizes: dict[str, int]) -> list[tuple[str, list[int], np.dtype]]:
    symbolic = {info.name: [d.dim_param for d in info.type.tensor_type.shape.dim]
                for info in onnx.load(str(model), load_external_data=False).graph.input}
    found = []
    for name, shape, dtype in graph_inputs(str(model)):
        params = symbolic.get(name, [""] * len(shape))
        missing = [p for p in params if p and p not in sizes]
        if missing:
            raise SystemExit(f"{model.name}: input '{name}' has symbolic dim '{missing[0]}': give --sizes {missing[0]}=N")
        found.append((name, [sizes[p] if p else d for p, d in zip(params, shape)], dtype))
    return found


def size_runs(texts: list[str]) -> list[dict[str, int]]:
    """`--sizes seq=1,17 --sizes batch=2` -> [{seq: 1, batch: 2}, {seq: 17, batch: 2}]."""
    runs: list[dict[str, int]] = [{}]
    for text in texts:
        name, _, values = text.partition("=")
        runs = [{**run, name: int(v)} for run in runs for v in values.split(",")]
    return runs


def run_tag(family: str, sizes: dict[str, int]) -> str:
    return family + "".join(f"@{name}={n}" for name, n in sizes.items())


def compile_two_steps(source: Path, work: Path, stem: str,
                      flags: list[str]) -> tuple[int | None, Path | None, str, str]:
    """(flow dispatch count, vmfb, IREE's first error line or "", IREE's stderr); `flags`: the
    variant's (bench/iree_bench_build.py `variant_flags`). Two steps, not build_variants' one:
    the flow file gives the dispatch count and keeps the source's locations, so errors name
    lines of `source`."""
    flow, vmfb = work / f"{stem}.flow.mlir", work / f"{stem}.vmfb"
    steps = ([str(source), *flags, "--compile-to=flow", "--mlir-print-debuginfo", "-o", str(flow)],
             [str(flow), *flags, "--compile-from=flow", "-o", str(vmfb)])
    count = None
    for step in steps:
        result = subprocess.run([compiler_executable(), *step], capture_output=True, text=True, timeout=1800)
        if result.returncode:
            return count, None, first_error(result.stderr) or f"exit {result.returncode}", result.stderr
        if count is None:
            count = flow.read_text().count("flow.dispatch @")
    flow.unlink()
    return count, vmfb, "", ""


def blamed_regions(source: Path, stderr: str) -> list[int]:
    """Indices of the regions of `source` holding the lines IREE's errors point at (region i
    starts at the i-th `flow.dispatch.region`; a line after the last one is blamed on it)."""
    starts = [n for n, line in enumerate(source.read_text().splitlines(), 1)
              if re.match(rf"\s*%[^=]*= {re.escape(REGION)}\b", line)]
    lines = {int(m) for m in re.findall(rf"{re.escape(source.name)}\"?:(\d+):\d+:? error", stderr)}
    return sorted({bisect.bisect_right(starts, line) - 1 for line in lines} - {-1})


def region_failures(source: Path, stderr: str, work: Path, flags: list[str]) -> list[dict]:
    """The regions IREE's errors blame, each compiled alone: signature and error (block_builds'
    extractor), the module kept as `region_I.mlir` in `work`."""
    from fusionopt.ir_io import parse_file, print_module

    blamed = set(blamed_regions(source, stderr))
    failures = []
    for index, signature, module in region_modules(parse_file(source)):
        if index not in blamed:
            continue
        alone = work / f"region_{index}.mlir"
        alone.write_text(print_module(module))
        error = iree_build(alone, alone.with_suffix(".vmfb"), flags)
        failures.append({"index": index, "signature": signature, "error": error or "builds alone",
                         "module": str(alone), "types": str(module.ops.first.function_type)})
    return failures


def check_variant(model: Path, variant: str, work: Path, refs: dict, defaults: dict,
                  target: str = "llvm-cpu") -> dict:
    row: dict = {"variant": variant}
    start = time.time()
    try:
        source = variant_source(str(model), variant, work)
    except RuntimeError as err:
        row.update(builds=False, error=f"fusionopt: {str(err).splitlines()[-1][:300]}")
        return row
    flags = variant_flags(variant, target)
    row["count"], vmfb, row["error"], stderr = compile_two_steps(source, work, f"{model.stem}.{variant}.{target}",
                                                                 flags)
    row["builds"] = vmfb is not None
    row["compile_s"] = round(time.time() - start, 1)
    if vmfb is None:
        if variant != "iree-default":
            regions = work / f"{variant}.regions"
            regions.mkdir(exist_ok=True)
            row["failures"] = region_failures(source, stderr, regions, flags)
        return row
    for family, (inputs, expected) in refs.items():
        try:
            (actual,) = run_vmfb(vmfb, list(inputs.values()), ENTRY)
        except RuntimeError as err:  # the module built but IREE's runtime refused a run
            row.update(runs=False, error=f"run on {family}: {str(err).strip().splitlines()[-1][:200]}")
            return row
        row[f"ort_{family}"] = relative_error(actual, expected)
        if variant == "iree-default":
            defaults[family] = actual
        elif family in defaults:
            row[f"default_{family}"] = relative_error(actual, defaults[family])
    row["vmfb"] = str(vmfb)  # only a module that ran everywhere is timed
    return row


def time_variants(rows: list[dict], model: Path, work: Path, rounds: int, iterations: int, seed: int,
                  sizes: dict[str, int]) -> None:
    vmfbs = {r["variant"]: Path(r["vmfb"]) for r in rows if r.get("vmfb")}
    if "iree-default" not in vmfbs:
        return
    vmfbs["aa"] = Path(shutil.copyfile(vmfbs["iree-default"], work / f"{model.stem}.aa.vmfb"))
    files = save_inputs(list(image_inputs(model, "random", seed, sizes).values()), work / "inputs")
    times = timed_rounds(vmfbs, files, rounds, iterations, seed)
    base = statistics.median(times["iree-default"])
    for row in rows:
        if row["variant"] in times:
            row["ms"] = statistics.median(times[row["variant"]])
            row["ratio"] = row["ms"] / base
    rows.append({"variant": "aa", "builds": True, "ms": statistics.median(times["aa"]),
                 "ratio": statistics.median(times["aa"]) / base})


# Below this, two random images give outputs closer than the agreement tolerance (1e-4 of the
# largest output): the model barely reads its input (random-init torchvision efficientnet_b0 and
# mobilenet_v3_large: 1e-7), and agreeing with onnxruntime on it proves little.
MIN_INPUT_SENSITIVITY = 1e-3


def input_sensitivity(model: Path, proto: onnx.ModelProto, seed: int, first=None, sizes=None) -> float:
    """How much onnxruntime's output moves between two random images (relative_error); `first`:
    its output on the image of `seed`, when the caller has it."""
    if first is None:
        first = onnxruntime_outputs(proto, image_inputs(model, "random", seed, sizes))[0]
    second = onnxruntime_outputs(proto, image_inputs(model, "random", seed + 1, sizes))[0]
    return relative_error(second, first)


def sensitivity_row(model: Path, proto: onnx.ModelProto, seed: int, first=None, sizes=None) -> dict:
    value = input_sensitivity(model, proto, seed, first, sizes)
    note = "" if value >= MIN_INPUT_SENSITIVITY else "the output barely depends on the input: agreement proves little"
    return {"variant": "(input sensitivity)", "builds": True, "sensitivity": value, "error": note}


def model_label(model: Path) -> str:
    """The model's name in the table, the JSON and `--keep`: the file name without `.onnx` and
    `.inline` (so M.qdq.onnx and M.dynamic.onnx, or M.f16.onnx, stay apart from M.inline.onnx)."""
    return model.name.removesuffix(".onnx").removesuffix(".inline")


def check_model(model: Path, args, root: Path) -> list[dict]:
    work = root / model_label(model)
    work.mkdir(parents=True, exist_ok=True)
    proto = onnx.load(str(model))
    refs = {}
    for family in args.families if args.target == "llvm-cpu" else ():
        for sizes in args.size_runs:
            inputs = image_inputs(model, family, args.seed, sizes)
            refs[run_tag(family, sizes)] = (inputs, onnxruntime_outputs(proto, inputs)[0])
    defaults: dict = {}
    first = run_tag("random", args.size_runs[0])
    random_output = refs[first][1] if first in refs else None  # onnxruntime on the seed's image
    rows = [sensitivity_row(model, proto, args.seed, random_output, args.size_runs[0])] if refs else []
    if rows:
        print(json.dumps({"model": model.name, **rows[0]}), flush=True)
    for variant in args.variants:
        row = check_variant(model, variant, work, refs, defaults, args.target)
        print(json.dumps({"model": model.name, **{k: v for k, v in row.items() if k != "vmfb"}}), flush=True)
        rows.append(row)
    if not args.no_time and args.target == "llvm-cpu":
        time_variants(rows, model, work, args.rounds, args.iterations, args.seed, args.size_runs[-1])
    return rows


def _e(value) -> str:
    return "-" if value is None else f"{value:.1e}"


def table(results: dict[str, list[dict]], families: list[str]) -> str:
    head = ("| model | variant | builds | dispatches | " + " | ".join(f"vs ORT {f}" for f in families)
            + " | " + " | ".join(f"vs default {f}" for f in families) + " | ms (median) | / default | IREE's first error |")
    lines = [head, "|---|---|---|---:|" + "---:|" * (2 * len(families)) + "---:|---:|---|"]
    for model, rows in results.items():
        for r in rows:
            if "sensitivity" in r:
                lines.append(f"| {model} | {r['variant']} | {_e(r['sensitivity'])} | "
                             + "| " * (2 * len(families) + 3) + f"{r['error']} |")
                continue
            ms = f"{r['ms']:.2f}" if "ms" in r else "-"
            ratio = f"{r['ratio']:.2f}x" if "ratio" in r else "-"
            lines.append(f"| {model} | {r['variant']} | {'yes' if r.get('builds') else 'NO'} | {r.get('count', '-')} | "
                         + " | ".join(_e(r.get(f"ort_{f}")) for f in families) + " | "
                         + " | ".join(_e(r.get(f"default_{f}")) for f in families)
                         + f" | {ms} | {ratio} | {r.get('error', '')[:160]} |")
            for f in r.get("failures", []):
                lines.append(f"| | region {f['index']} | `{f['signature']}` | | " + "| " * (2 * len(families))
                             + f"| | `{f['types'][:200]}`: {f['error'][:160]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    split = lambda text: [t for t in text.split(",") if t]  # noqa: E731
    parser.add_argument("models", nargs="+", type=Path)
    parser.add_argument("--variants", type=split, help=f"default: {','.join(VARIANTS)} "
                        f"(llvm-cpu), {','.join(CUDA_VARIANTS)} (cuda)")
    parser.add_argument("--target", choices=("llvm-cpu", "cuda"), default="llvm-cpu",
                        help="cuda: sm_80 builds only (nothing run or timed)")
    parser.add_argument("--families", type=split, default=["random", "offset"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", action="append", default=[], metavar="NAME=N[,N...]",
                        help="sizes a symbolic dim takes in the runs (repeatable; the builds keep it "
                             "dynamic: our front end imports it as `?`); every combination is run, "
                             "the last one timed")
    parser.add_argument("--no-time", action="store_true")
    parser.add_argument("--keep", type=Path, help="keep sources, vmfbs and region modules here")
    parser.add_argument("--json", type=Path, help="write the rows here")
    args = parser.parse_args(argv)
    args.size_runs = size_runs(args.sizes)
    args.variants = args.variants or list(VARIANTS if args.target == "llvm-cpu" else CUDA_VARIANTS)
    if "iree-default" not in args.variants:
        args.variants.insert(0, "iree-default")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        for model in args.models:
            results[model_label(model)] = check_model(model, args, root)
            if args.json:
                args.json.write_text(json.dumps(results, indent=1, default=str))
    print(table(results, [run_tag(f, sizes) for f in args.families for sizes in args.size_runs]))


if __name__ == "__main__":
    main()
