"""The benchmark protocol of a CPU deployment, in bench/iree_runtime.py: onnxruntime, IREE's data
tiling, threads, and the build time end to end.

Why: a CPU user compares against onnxruntime, with constant weights and several threads, and
pays the build time. So next to the IREE modules, in the same interleaved rounds (same rounds,
same seeded shuffled order, ms = mean per call of a round, median over rounds), the harness times:
- `ort`: onnxruntime on the same ONNX file ours imports (an `M.inline.onnx` named by path: weights
  inline, the form that counts; a corpus model: its `M.args.onnx`), `ORT_ENABLE_ALL`,
  `intra_op_num_threads` = the thread count, `inter_op_num_threads=1`; one session per thread
  count, made and called once before the rounds (a deployment keeps its session);
- `iree-dt`, `V-dt`: data tiling + ukernels (bench/iree_bench_build.py `DT_FLAGS`);
- threads (`--threads 1,2`): IREE's device flags of bench/iree_bench_timing.py (1:
  `--device=local-sync`) and N intra-op threads for onnxruntime; every
  (variant, threads) pair is one entry of the same rounds, so all thread counts share the
  machine's disturbances;
- build seconds per IREE build: its source's front end (ours: `fusion-opt M.onnx -p PIPELINE`,
  the import in the same process; IREE's: `iree-import-onnx` for an ONNX file, nothing for a corpus
  linalg file), made once into a fresh folder, plus its own `iree-compile`; a `-dt` build counts
  its base's front end too (the time a user waits for that build). With `--build-repeats K` each
  front end and each `iree-compile` runs K times (compiles in a shuffled order each time) and
  the least is kept: other work on a shared machine only ever adds time.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
from iree_bench_build import source_variant, variant_flags, variant_source
from iree_bench_onnx import is_onnx_path

from fusionopt.corpus import model_file
from fusionopt.iree_tools import WARMUP_SECONDS, compile_vmfb

ORT = "ort"
DEFAULT = "iree-default"
AA = "aa"


def ort_session_options(threads: int):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return options


def ort_file(model: str) -> Path:
    """The ONNX file onnxruntime runs: the one ours imports for that model."""
    return Path(model) if is_onnx_path(model) else model_file(model, "args.onnx")


class OrtRunner:
    """One onnxruntime session at one thread count, fed the harness's arguments in order."""

    def __init__(self, onnx_file: Path, threads: int, inputs: list[np.ndarray]):
        import onnxruntime as ort

        self.session = ort.InferenceSession(str(onnx_file), ort_session_options(threads),
                                            providers=["CPUExecutionProvider"])
        names = [i.name for i in self.session.get_inputs()]
        if len(names) != len(inputs):
            raise ValueError(f"{onnx_file}: onnxruntime wants {len(names)} inputs, the harness has {len(inputs)}")
        self.feed = dict(zip(names, inputs))
        self.session.run(None, self.feed)

    def outputs(self, inputs: list[np.ndarray]) -> list[np.ndarray]:
        feed = dict(zip(self.feed, inputs))
        return [np.asarray(r) for r in self.session.run(None, feed)]

    def ms_per_call(self, iterations: int) -> float:
        """Mean ms of `iterations` calls after WARMUP_SECONDS of calls, as `iree-benchmark-module`
        is run (`--benchmark_min_warmup_time`): the variant before it in a round has left the
        caches cold (without it, 5 calls of onnxruntime after an IREE run measured 1% slower on
        mnasnet1_0 and 4% on regnet_x_400mf, 7 rounds)."""
        warm_until = time.perf_counter() + WARMUP_SECONDS
        while True:
            self.session.run(None, self.feed)
            if time.perf_counter() >= warm_until:
                break
        start = time.perf_counter()
        for _ in range(iterations):
            self.session.run(None, self.feed)
        return (time.perf_counter() - start) * 1e3 / iterations


def front_end_seconds(model: str, work_dir: Path, variants: list[str]) -> dict[str, float]:
    """source variant -> seconds to make its `.mlir` (once per source; a source that cannot be
    made is left out: applicable_variants says why). Time it in a fresh `work_dir`: a source
    already there is reused, not remade."""
    seconds: dict[str, float] = {}
    work_dir.mkdir(parents=True, exist_ok=True)
    for variant in variants:
        key = source_variant(variant)
        if key in seconds:
            continue
        start = time.perf_counter()
        try:
            variant_source(model, variant, work_dir)
        except RuntimeError:
            continue
        seconds[key] = time.perf_counter() - start
    return seconds


def least(runs: list[dict[str, float]]) -> dict[str, float]:
    """key -> the least of its values over `runs` (keys of the first run)."""
    return {key: min(run[key] for run in runs if key in run) for key in runs[0]}


def least_front_end_seconds(model: str, work_dir: Path, variants: list[str], repeats: int = 1) -> dict[str, float]:
    """front_end_seconds, the least of `repeats` makings: the first into `work_dir` (where the
    builds read them), the others into fresh subfolders of it."""
    runs = [front_end_seconds(model, work_dir, variants)]
    runs += [front_end_seconds(model, work_dir / f"front-{i}", variants) for i in range(1, repeats)]
    return least(runs)


def least_compile_seconds(model: str, target: str, work_dir: Path, first: dict[str, float],
                          repeats: int = 1, seed: int = 0) -> dict[str, float]:
    """`first` (build_variants' iree-compile seconds) and `repeats` - 1 more compiles of each of
    its variants, in a seeded shuffled order each time, into a scratch file: the least of each."""
    order = random.Random(seed)
    runs = [first]
    for _ in range(1, repeats):
        variants = list(first)
        order.shuffle(variants)
        run = {}
        for variant in variants:
            source = variant_source(model, variant, work_dir)
            start = time.perf_counter()
            compile_vmfb(source, work_dir / "recompile.vmfb", variant_flags(variant, target))
            run[variant] = time.perf_counter() - start
        runs.append(run)
    return least(runs)


def build_seconds(variants: list[str], front: dict[str, float], compile_s: dict[str, float]) -> dict[str, float]:
    """variant -> end-to-end build seconds: its source's front end + its own iree-compile."""
    return {v: front.get(source_variant(v), 0.0) + compile_s[v] for v in variants if v in compile_s}


def _ordered(rows: list[dict]) -> list[str]:
    """ort, iree-default, then the others as first named; aa is the A/A column."""
    names = list(dict.fromkeys(v for row in rows for v in row["variants"]))
    first = [v for v in (ORT, DEFAULT) if v in names]
    return first + [v for v in names if v not in first and v != AA]


def _ms_cell(variant: str, stats: dict, statistic: str) -> str:
    if variant not in stats:
        return "-"
    ms = stats[variant][statistic]
    ratios = []
    if variant != ORT and ORT in stats:
        ratios.append(f"**{ms / stats[ORT][statistic]:.2f}x** ort")
    if variant not in (ORT, DEFAULT) and DEFAULT in stats:
        ratios.append(f"{ms / stats[DEFAULT][statistic]:.2f}x IREE")
    return f"{ms:.2f}" + (f" ({', '.join(ratios)})" if ratios else "")


def _aa_cell(stats: dict) -> str:
    if AA not in stats or DEFAULT not in stats:
        return "-"
    med = stats[AA]["median"] / stats[DEFAULT]["median"]
    low = stats[AA]["min"] / stats[DEFAULT]["min"]
    return f"{med:.2f}x (min {low:.2f}x)"


def _build_cell(builds: list[str], seconds: dict[str, float]) -> str:
    cells = []
    for v in builds:
        if v not in seconds:
            cells.append("-")
        elif v != DEFAULT and DEFAULT in seconds:
            cells.append(f"{seconds[v]:.1f} ({seconds[v] / seconds[DEFAULT]:.2f}x)")
        else:
            cells.append(f"{seconds[v]:.1f}")
    return " / ".join(cells)


def deployment_table(rows: list[dict], statistic: str = "median") -> str:
    """One line per (model, threads). rows: {"model", "threads", "variants", "stats": {variant:
    {"median", "min"}}, "build_s": {variant: s}}. Each variant's cell: its ms per call over rounds
    (`statistic`: "median", or "min", the least disturbed round on a shared machine), its ratio
    to ort (bold: the headline) and to iree-default; then the A/A noise (median and min), then
    each build's seconds end to end and its ratio to iree-default's."""
    if not rows:
        return ""
    variants = _ordered(rows)
    builds = [v for v in variants if v != ORT]
    head = (["model", "threads", *(f"{v} ms ({statistic})" for v in variants), "A/A aa/iree-default median (min)",
             "build s " + " / ".join(builds)])
    lines = ["| " + " | ".join(head) + " |", "|---|---:|" + "---:|" * (len(head) - 2)]
    for row in rows:
        cells = [_model_name(row["model"]), str(row["threads"])]
        cells += [_ms_cell(v, row["stats"], statistic) for v in variants]
        cells += [_aa_cell(row["stats"]), _build_cell(builds, row.get("build_s", {}))]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _model_name(model: str) -> str:
    return Path(model).name.split(".")[0] if is_onnx_path(model) else model
