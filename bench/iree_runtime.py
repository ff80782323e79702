"""Runtime is the judge: IREE-built modules of ours vs IREE's default vs IREE's best flags.

Dispatch counts are a proxy; this times the IREE modules side by side in one run, interleaved,
with an A/A noise figure, after checking that they compute the same numbers.

    python bench/iree_runtime.py [--models bert_mini,gpt2_mini,mlp_towers] [--variants ...]
        [--targets llvm-cpu[,cuda]] [--families random,constant,...] [--rounds 15]
        [--iterations 50] [--seed 0] [--threads 1[,2]] [--sched-batch] [--build-repeats 1] [--no-reference] [--write]
        [--json OUT]
    python bench/iree_runtime.py --targets cuda --build-only --out DIR   # GPU bundle (below)
    python bench/iree_runtime.py --gpu-results RESULTS [--write]         # read the GPU run back

Corpus: `fusionopt.corpus.corpus_dir()` (`../shared/models`, or `$FUSIONOPT_CORPUS`); models
`bert_mini`, `gpt2_mini`, `mlp_towers` (the `cnn/` models are left out: our ONNX importer and
passes do not support them yet); the models shipped in `test/data/models` (`minilm_l6`,
`cnn/resnet18`, ...) can be named too, and a model may also be a path to an ONNX file (`--models
test/data/onnx/inception.onnx`): IREE's baseline is then `iree-import-onnx` of that file
(bench/iree_bench_onnx.py). Variants (bench/iree_bench_build.py): `iree-default`
(`M.args.linalg.mlir`), `iree-best` (+ `--iree-dispatch-creation-enable-aggressive-fusion
--iree-dispatch-creation-enable-fuse-horizontal-contractions`), `ours` (`fusion-opt -p
dispatch-creation`), `ours-onnx` (`fusion-opt M.args.onnx -p
graph-to-dispatch`, the import in-process), `aa` (a separately loaded copy of iree-default: aa/iree-default is the
noise), `iree-dt` and `V-dt` (the build with IREE's data tiling and ukernels), `ort`
(onnxruntime on the model's ONNX file; bench/iree_bench_deploy.py). Targets: `llvm-cpu`
(`--iree-llvmcpu-target-cpu=host`), `cuda` (`sm_80`).

CPU protocol: (1) agreement on every input family (bench/iree_bench_inputs.py,
bench/iree_bench_agree.py): each vmfb through `iree.runtime`, max abs diff vs iree-default and vs
the numpy interpreter in float64 on `M.args.linalg.mlir`, NaN/inf counts, FAIL when a variant
has NaN/inf where iree-default has none; (2) timing on the "random" inputs:
`iree-benchmark-module --device=local-sync` (one thread), ROUNDS rounds, each running every
variant once (seeded shuffled order, so no variant always goes first) for ITERATIONS calls; per
variant the median and min over rounds of the mean ms per call, and the ratios. The timer is
bench/iree_bench_timing.py (bench/heldout_models.py and bench/dispatch_profile.py use it too; on
the GPU machine bench/gpu_timing.sh runs the same protocol in bash).

Deployment protocol (bench/iree_bench_deploy.py): `--threads 1,2` times every variant at each
thread count in the same rounds (N > 1: `--device=local-task --task_topology_max_group_count=N`,
onnxruntime with N intra-op threads); `ort` is timed in those rounds too and checked with the
others; each IREE build's seconds end to end (front end + `iree-compile`) are recorded. The
deployment table: per (model, threads) ms of each variant with its ratio to ort (the headline)
and to iree-default, the A/A, and build seconds with their ratio to iree-default's. A model
IREE's own route cannot build (FNet's DFT) is still run when `ort` is among the variants: its
iree-default and aa cells are "-" and onnxruntime is the agreement's yardstick.
`--sched-batch` runs all of it under Linux's SCHED_BATCH (why: bench/iree_bench_timing.py). The form that
counts is an ONNX file with weights inline (`bench/export_models.py --forms inline`):

    python bench/iree_runtime.py --models M.inline.onnx --families random --no-reference \
        --variants ort,iree-default,iree-dt,ours-onnx-llvm-cpu,ours-onnx-llvm-cpu-dt,aa --threads 1,2

GPU (the GPU machine has no Python packages): `--targets cuda --build-only --out DIR` writes DIR
(bench/iree_bench_gpu.py): CUDA vmfbs, inputs, IREE's runtime binaries and `run_gpu.sh`
(bench/gpu_timing.sh). On the GPU machine: `bash DIR/run_gpu.sh` (results into `$OUT`, else
DIR/results; `--dry-run` prints the commands), or `bash bench/gpu_run_bundles.sh` for several
bundles model by model under a deadline, into one archive. Then here: `python
bench/iree_runtime.py --gpu-results RESULTS` (one model's folder of that archive).

`--write` replaces the section "## IREE runtime (CPU and CUDA)" of bench/RESULTS.md.
Importable: `build_variants(model, target, work_dir) -> {variant: vmfb}`, `model_inputs(model,
family, seed) -> [arrays]`, `timed_rounds(vmfbs, input_files, rounds, iterations)`.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from iree_bench_agree import (  # noqa: E402
    agreement_table, check_family, compare_saved_outputs, reference_outputs,
)
from iree_bench_build import (  # noqa: E402,F401
    MODELS, ONNX_PIPELINES, OURS_PIPELINES, VARIANTS, applicable_variants, build_variants, dispatch_counts,
    is_build_variant,
)
from iree_bench_deploy import (  # noqa: E402
    ORT, OrtRunner, build_seconds, deployment_table, least_compile_seconds, least_front_end_seconds, ort_file,
)
from iree_bench_inputs import FAMILIES, model_inputs  # noqa: E402,F401
from iree_bench_report import SECTION, section, summarize, timing_table, write_section  # noqa: E402
from iree_bench_timing import batch_scheduling, interleaved, iree_ms_per_call, timed_rounds  # noqa: E402,F401

from fusionopt.iree_tools import TARGETS, iree_version, save_inputs  # noqa: E402

RESULTS_MD = Path(__file__).resolve().parent / "RESULTS.md"


def agreement(model: str, vmfbs: dict[str, Path], args, others: dict | None = None) -> tuple[dict, str]:
    """(model, family) -> [Agreement]; the yardstick is iree-default, or onnxruntime where IREE's
    own build fails."""
    rows, label = {}, "reference"
    yardstick = "iree-default" if "iree-default" in vmfbs else ORT
    for family in args.families:
        rows[(model, family)], label = check_family(model, vmfbs, model_inputs(model, family, args.seed),
                                                    reference=not args.no_reference, others=others,
                                                    yardstick=yardstick)
    return rows, label


def bench_cpu(model: str, work: Path, args) -> tuple[list[dict], dict, str]:
    """Build (timing each build), check on every family, then time at every thread count:
    (a timing row per thread count, agreement rows, reference label)."""
    front = least_front_end_seconds(model, work, iree_variants(args.variants), args.build_repeats)
    variants, skipped = applicable_variants(model, work, iree_variants(args.variants))
    for variant, reason in skipped.items():
        print(f"{model}: skipping variant {variant}: {reason}", flush=True)
    compile_s: dict[str, float] = {}
    failures: dict[str, str] = {}
    vmfbs = build_variants(model, "llvm-cpu", work, variants, seconds=compile_s, failures=failures)
    for variant, error in failures.items():
        print(f"{model}: variant {variant} fails to build, not timed: {error}", flush=True)
    check_baseline(model, failures, args.variants)
    variants = [v for v in variants if v in vmfbs]
    compile_s = least_compile_seconds(model, "llvm-cpu", work, compile_s, args.build_repeats, args.seed)
    counts = dispatch_counts(model, "llvm-cpu", work, variants)
    inputs = model_inputs(model, "random", args.seed)
    orts = {t: OrtRunner(ort_file(model), t, inputs) for t in args.threads} if ORT in args.variants else {}
    others = {ORT: orts[min(orts)].outputs} if orts else None
    rows, label = agreement(model, vmfbs, args, others)
    print(agreement_table(rows, label), flush=True)
    files = save_inputs(inputs, work / f"{model.replace('/', '_').replace('.', '_')}.inputs")
    runners = {(v, t): partial(iree_ms_per_call, path, files, args.iterations, t)
               for t in args.threads for v, path in vmfbs.items()}
    runners |= {(ORT, t): partial(ort.ms_per_call, args.iterations) for t, ort in orts.items()}
    times = interleaved(runners, args.rounds, args.seed)
    names = [v for v in args.variants if v in vmfbs or v == ORT and orts]
    builds = {"build_s": build_seconds(variants, front, compile_s), "front_s": front, "compile_s": compile_s}
    timed = [_timing_row(model, t, counts, builds, {v: times[(v, t)] for v in names}) for t in args.threads]
    return timed, rows, label


def check_baseline(model: str, failures: dict[str, str], variants: list[str]) -> None:
    """A model IREE's own route cannot build is still timed against onnxruntime (our builds
    exist for such models too: FNet's DFT, MobileViTV2's Col2Im); without onnxruntime in the run
    nothing is left to compare with."""
    if "iree-default" not in failures:
        return
    if ORT not in variants:
        raise RuntimeError(f"{model}: the baseline iree-default fails to build: {failures['iree-default']}")
    print(f"{model}: IREE's own build fails; onnxruntime is the yardstick", flush=True)


def _timing_row(model: str, threads: int, counts: dict, builds: dict, times: dict[str, list[float]]) -> dict:
    """builds: "build_s" (end to end), "front_s" (per source), "compile_s" (iree-compile)."""
    return {"model": model, "target": "llvm-cpu" if threads == 1 else f"llvm-cpu, {threads} threads",
            "threads": threads, "variants": list(times), "dispatches": counts, **builds,
            "stats": summarize(times), "times": times}


def iree_variants(variants: list[str]) -> list[str]:
    """The variants IREE builds (all but onnxruntime)."""
    return [v for v in variants if v != ORT]


def gpu_results(folder: Path, args) -> tuple[str, str]:
    """The timing table and agreement table of a run of run_gpu.sh (results.json, outputs/);
    the float64 reference is recomputed here from the same seeded inputs."""
    data = json.loads((folder / "results.json").read_text())

    def reference(model: str, family: str):
        return None if args.no_reference else reference_outputs(model, model_inputs(model, family, data["seed"]))[0]

    rows = []
    for model, per_variant in data["models"].items():
        times = {v: d["ms"] for v, d in per_variant.items()}
        rows.append({"model": model, "target": data["device"], "variants": list(per_variant),
                     "dispatches": {v: d["dispatches"] for v, d in per_variant.items()},
                     "stats": summarize(times)})
    return timing_table(rows), agreement_table(compare_saved_outputs(folder, reference), "f64 interp")


def check_builds(target: str, args) -> None:
    """Non-CPU targets are not timed here (no device): build every variant to prove they compile."""
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models:
            vmfbs = build_variants(model, target, Path(tmp), iree_variants(args.variants))
            sizes = ", ".join(f"{v} {p.stat().st_size / 1024:.0f} KiB" for v, p in vmfbs.items())
            print(f"{target} builds {model}: {sizes} (time it with --build-only --out DIR)", flush=True)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    split = lambda text: [t for t in text.split(",") if t]  # noqa: E731
    parser.add_argument("--models", type=split, default=list(MODELS))
    parser.add_argument("--variants", type=split, default=list(VARIANTS),
                        help="iree-default is always added: it is every comparison's baseline")
    parser.add_argument("--targets", type=split, default=["llvm-cpu"], help=f"of {', '.join(TARGETS)}")
    parser.add_argument("--families", type=split, default=list(FAMILIES))
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds")
    parser.add_argument("--iterations", type=int, default=50, help="calls per variant per round")
    parser.add_argument("--seed", type=int, default=0, help="inputs and the per-round order")
    parser.add_argument("--threads", type=lambda text: [int(t) for t in split(text)], default=[1],
                        help="thread counts, e.g. 1,2 (1: local-sync; N: local-task with N workers)")
    parser.add_argument("--sched-batch", action="store_true",
                        help="run everything (onnxruntime too) under Linux's SCHED_BATCH: no wake-up "
                             "preemption, so IREE's waiting caller does not spin against its own worker "
                             "(bench/iree_bench_timing.py)")
    parser.add_argument("--build-repeats", type=int, default=1,
                        help="time each front end and iree-compile this many times, keep the least")
    parser.add_argument("--json", type=Path, help="write the timing rows (every round's ms, build seconds) here")
    parser.add_argument("--no-reference", action="store_true", help="skip the float64 interpreter run")
    parser.add_argument("--build-only", action="store_true", help="with --out: the GPU bundle only")
    parser.add_argument("--out", type=Path, help="bundle folder for --build-only")
    parser.add_argument("--gpu-results", type=Path, help="read a run_gpu.sh results folder")
    parser.add_argument("--write", action="store_true", help="write the section into bench/RESULTS.md")
    parser.add_argument("--section", default=SECTION.removeprefix("## "),
                        help="the RESULTS.md section --write replaces (default: %(default)s)")
    args = parser.parse_args(argv)
    if "iree-default" not in args.variants:
        args.variants.insert(0, "iree-default")
    unknown = {v for v in args.variants if v != ORT and not is_build_variant(v)} | set(args.targets) - set(TARGETS)
    unknown |= set(args.families) - set(FAMILIES)
    if unknown:
        parser.error(f"unknown: {', '.join(sorted(unknown))}")
    if args.build_only and not args.out:
        parser.error("--build-only needs --out DIR")
    if not args.threads or min(args.threads) < 1:
        parser.error("--threads: counts of at least 1")
    if args.build_repeats < 1:
        parser.error("--build-repeats: at least 1")
    return args


def build_bundles(args) -> None:
    from iree_bench_gpu import write_bundle

    for target in args.targets:
        out = args.out if len(args.targets) == 1 else args.out / target
        size = write_bundle(out, args.models, target, iree_variants(args.variants), args.families, args.seed)
        print(f"{target}: bundle {out} ({size:.1f} MiB); run: bash {out}/run_gpu.sh"
              + (" --device local-sync" if target == "llvm-cpu" else ""))


def main(argv=None) -> None:
    args = parse_args(argv)
    if args.sched_batch:
        batch_scheduling()
    command = "python bench/iree_runtime.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    if args.gpu_results:
        timing, agree = gpu_results(args.gpu_results, args)
        body = f"{timing}\n\n{agree}"
    elif args.build_only:
        return build_bundles(args)
    else:
        for target in (t for t in args.targets if t != "llvm-cpu"):
            check_builds(target, args)
        rows, agreements, label = [], {}, "reference"
        with tempfile.TemporaryDirectory() as tmp:
            for model in args.models:
                timed, agree_rows, label = bench_cpu(model, Path(tmp), args)
                rows.extend(timed)
                agreements.update(agree_rows)
                print(deployment_table(timed), flush=True)
                if args.json:
                    args.json.write_text(json.dumps(rows, indent=1, default=str))
        body = (f"{deployment_table(rows)}\n\n{deployment_table(rows, 'min')}\n\n{timing_table(rows)}\n\n"
                f"{agreement_table(agreements, label)}")
    print("\n" + body)
    if args.write:
        write_section(RESULTS_MD, section(command, iree_version(), body, f"## {args.section}"))
        print(f"wrote {RESULTS_MD}")


if __name__ == "__main__":
    main()
