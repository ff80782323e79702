"""Per-dispatch times of three IREE builds, matched by what each dispatch computes.

    python bench/dispatch_profile.py [--models m1,m2] [--iterations N] [--repeat R]
                                     [--noise F] [--jsonl OUT]

Why: a whole-model time says whether our dispatch formation wins; a per-dispatch table says
*where* it loses, so every loss has an address (issue "Runtime is the judge", part 4).

Variants (all llvm-cpu, built by bench/iree_bench_build.py as for bench/iree_runtime.py):
  ours          `fusion-opt M.args.linalg.mlir -p dispatch-creation` (IREE keeps our regions);
  iree-default  IREE's own dispatch formation on `M.args.linalg.mlir`;
  iree-best     + `--iree-dispatch-creation-enable-aggressive-fusion
                  --iree-dispatch-creation-enable-fuse-horizontal-contractions`.
Models come from the corpus `../shared/models` (relative to the repo root; override with the
environment variable FUSIONOPT_CORPUS). Inputs: bench/iree_bench_inputs.py's "random" family
(ids in [0, 1024), attention mask ones, floats N(0,1), weights N(0, 0.1^2)).

Measurement (CPU, IREE 3.13 HAL profiling): `iree-benchmark-module --device=local-sync
--benchmark_min_time=Nx --device_profiling_mode=host-execution --device_profiling_output=P`,
then `iree-profile dispatch --format=jsonl P`: one `host_dispatch_group` row per executable
entry point (`key` = IREE's dispatch name, `count`, `total_ns`). Call sites that share an
executable are one row, so a call site's time is total_ns / count (= total_ns / (iterations x
sites sharing it)). local-sync = one thread; times include IREE's per-dispatch host overhead.
Profiling adds overhead: take whole-model times from an unprofiled run (bench/iree_runtime.py).

Matching: a dispatch name `F_dispatch_<n>_<root>_<shape>_<types>` is reduced to a work class
(contraction: matmul, batch_matmul, matmul_like, horizontal_multi_contract; reduction:
reduction, softmax; elementwise: elementwise*, generic, transpose; copy: slow_memcpy) and the
shape with unit dims dropped (`batch_matmul_1x64x128x128` and `matmul_64x128x128` are the
same work). Rows are such keys, times summed over call sites (us per inference). A row is
marked LOSS when ours exceeds default by more than the noise (`--noise`, relative) and the
repeat ranges do not overlap. Work that one variant fused away has no row in the others.

CUDA: IREE 3.13 has no HAL profiling for CUDA ("CUDA HAL-native profiling is not implemented").
The route is Nsight Compute, which names kernels after the same dispatch names:
    ncu --clock-control none --metrics gpu__time_duration.sum \\
        iree-benchmark-module --module=M.vmfb --device=cuda --function=main_graph \\
        --input=@arg0.npy ... --benchmark_min_time=20x
(compile with `--iree-hal-target-device=cuda --iree-cuda-target=sm_80`: IREE 3.13 rejects sm_90). ncu serialises and
replays kernels: use it for per-kernel times, the plain benchmark for the whole model.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

from fusionopt.corpus import model_stem
from fusionopt.iree_tools import flow_dispatch_names, save_inputs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iree_bench_build import build_variants, variant_flags, variant_source  # noqa: E402
from iree_bench_inputs import model_inputs  # noqa: E402
from iree_bench_timing import interleaved, iree_command  # noqa: E402

MODELS = ["bert_mini", "gpt2_mini", "mlp_towers"]
FUNCTION = "main_graph"
VARIANTS = ("ours", "iree-default", "iree-best")  # bench/iree_bench_build.py builds them
WORK_CLASSES = {
    "contraction": ("matmul", "batch_matmul", "matmul_like", "horizontal_multi_contract", "conv"),
    "reduction": ("reduction", "softmax"),
    "copy": ("slow_memcpy",),
}
# A root may hold digits (`conv_2d_nchw_fchw`, `depthwise_conv_2d_nchw_chw`: the linalg op's
# name when IREE keeps our region's root): the shape is the first `_N(xN)*` followed by a type.
_NAME = re.compile(r"_dispatch_\d+_(?P<root>[a-z][a-z0-9_]*?)(?:_(?P<shape>\d+(?:x\d+)*)(?=x[a-z]|_|$).*)?$")
NAMED_CONV_PREFIXES = ("conv_", "depthwise_conv_", "pooling_")


# ---- dispatch names ------------------------------------------------------------------------


def parse_dispatch_name(name: str) -> tuple[str, str]:
    """(root, shape) of an IREE dispatch name; shape "" when the name has none (slow_memcpy)."""
    match = _NAME.search(name)
    if match is None:
        return name, ""
    return match["root"], match["shape"] or ""


def work_class(root: str) -> str:
    """The class of work a root names (IREE and we name the same contraction differently)."""
    for cls, roots in WORK_CLASSES.items():
        if root in roots:
            return cls
    if root.startswith(NAMED_CONV_PREFIXES):
        return "reduction" if root.startswith("pooling_") else "contraction"
    return "elementwise"  # elementwise*, elementwise_broadcast, generic, transpose, ...


def work_key(root: str, shape: str) -> str:
    """What a dispatch computes: work class + shape without unit dims."""
    dims = [d for d in shape.split("x") if d and d != "1"]
    cls = "contraction(horizontal)" if root.startswith("horizontal") else work_class(root)
    return f"{cls} {'x'.join(dims) or '-'}"


# ---- building and running ------------------------------------------------------------------


@dataclass
class Build:
    """One variant of one model: its vmfb and the dispatch name of each call site, in order."""

    model: str
    variant: str
    vmfb: Path
    sites: list[str]


def build_variant(model: str, variant: str, work: Path) -> Build:
    """The harness's llvm-cpu build of `variant`, with its call sites' dispatch names."""
    (vmfb,) = build_variants(model, "llvm-cpu", work, [variant]).values()
    flags = variant_flags(variant, "llvm-cpu")
    return Build(model, variant, vmfb, flow_dispatch_names(variant_source(model, variant, work), flags))


def profile_build(build: Build, inputs: list[Path], iterations: int, work: Path) -> dict[str, dict]:
    """Run the profiled benchmark once (the harness's one-thread command); `iree-profile` rows
    by dispatch name."""
    prof = work / f"{model_stem(build.model)}.{build.variant}.ireeprof"
    cmd = iree_command(build.vmfb, inputs, iterations, threads=1) + [
        "--device_profiling_mode=host-execution", f"--device_profiling_output={prof}",
    ]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    text = subprocess.run(
        ["iree-profile", "dispatch", "--format=jsonl", str(prof)], check=True, capture_output=True, text=True
    ).stdout
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return {r["key"]: r for r in rows if r.get("type") == "host_dispatch_group"}


def site_times_ns(build: Build, rows: dict[str, dict]) -> list[float]:
    """ns per call of each call site: its executable's total_ns / count (count = iterations x sites)."""
    missing = sorted(set(build.sites) - set(rows))
    if missing:
        raise RuntimeError(f"{build.model}/{build.variant}: no profile row for {missing[:3]}")
    return [rows[name]["total_ns"] / rows[name]["count"] for name in build.sites]


@dataclass
class SiteRow:
    """One call site of one variant in one repeat (the `--jsonl` record)."""

    model: str
    variant: str
    repeat: int
    site: int
    dispatch: str
    root: str
    shape: str
    key: str
    ns_per_call: float


def profile_model(model: str, work: Path, iterations: int, repeat: int, variants=VARIANTS) -> list[SiteRow]:
    """All call sites of `variants`, the variants interleaved `repeat` times (the harness's
    rounds: a seeded shuffled order each round)."""
    builds = {v: build_variant(model, v, work) for v in variants}
    inputs = save_inputs(model_inputs(model), work / f"{model_stem(model)}.inputs")
    profiled = interleaved({v: partial(_site_times, b, inputs, iterations, work) for v, b in builds.items()}, repeat)
    rows: list[SiteRow] = []
    for r in range(repeat):
        for variant, build in builds.items():
            for site, (name, ns) in enumerate(zip(build.sites, profiled[variant][r])):
                root, shape = parse_dispatch_name(name)
                rows.append(SiteRow(model, variant, r, site, name, root, shape, work_key(root, shape), ns))
    return rows


def _site_times(build: Build, inputs: list[Path], iterations: int, work: Path) -> list[float]:
    return site_times_ns(build, profile_build(build, inputs, iterations, work))


# ---- tables --------------------------------------------------------------------------------


def per_key_us(rows: list[SiteRow], group) -> dict[tuple[str, str], list[float]]:
    """(variant, group(row)) -> us per inference, one value per repeat."""
    sums: dict[tuple[str, str, int], float] = {}
    for row in rows:
        k = (row.variant, group(row), row.repeat)
        sums[k] = sums.get(k, 0.0) + row.ns_per_call / 1e3
    out: dict[tuple[str, str], list[float]] = {}
    for (variant, key, _), us in sorted(sums.items()):
        out.setdefault((variant, key), []).append(us)
    return out


def is_loss(ours: list[float], default: list[float], noise: float) -> bool:
    """Ours slower than default beyond the relative noise and beyond the repeats' spread."""
    return statistics.median(ours) > statistics.median(default) * (1 + noise) and min(ours) > max(default)


def cell(values: list[float] | None) -> str:
    if not values:
        return "-"
    med = statistics.median(values)
    return f"{med:.1f}" + (f" ({min(values):.1f}-{max(values):.1f})" if len(values) > 1 else "")


def site_counts(rows: list[SiteRow], group) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        if row.repeat == 0:
            counts[(row.variant, group(row))] = counts.get((row.variant, group(row)), 0) + 1
    return counts


def format_table(rows: list[SiteRow], group, title: str, noise: float) -> str:
    """Markdown table: one row per key, us per inference (median (min-max) over repeats)."""
    times, counts = per_key_us(rows, group), site_counts(rows, group)
    variants = list(dict.fromkeys(r.variant for r in rows))
    keys = sorted({k for _, k in times}, key=lambda k: -statistics.median(times.get(("ours", k)) or
                                                                          times.get(("iree-default", k)) or [0]))
    lines = [f"| {title} | " + " | ".join(f"{v} us (sites)" for v in variants) + " | ours loses |",
             "|---|" + "---:|" * len(variants) + "---|"]
    for key in keys:
        cells = [f"{cell(times.get((v, key)))} ({counts.get((v, key), 0)})" for v in variants]
        ours, default = times.get(("ours", key)), times.get(("iree-default", key))
        mark = "LOSS" if ours and default and is_loss(ours, default, noise) else ""
        lines.append(f"| {key} | " + " | ".join(cells) + f" | {mark} |")
    totals = per_key_us(rows, lambda r: "total")
    lines.append("| **sum of dispatches** | " + " | ".join(
        f"{cell(totals.get((v, 'total')))} ({counts_total(counts, v)})" for v in variants) + " | |")
    return "\n".join(lines)


def counts_total(counts: dict[tuple[str, str], int], variant: str) -> int:
    return sum(n for (v, _), n in counts.items() if v == variant)


def report(model: str, rows: list[SiteRow], noise: float) -> str:
    by_key = format_table(rows, lambda r: r.key, f"{model}: work (class shape)", noise)
    by_class = format_table(rows, lambda r: work_class(r.root), f"{model}: work class", noise)
    return f"{by_key}\n\n{by_class}\n"


def load_rows(path: Path) -> list[SiteRow]:
    rows = [SiteRow(**json.loads(line)) for line in path.read_text().splitlines() if line.strip()]
    for row in rows:  # recompute the key: the matching rule may have changed since the run
        row.key = work_key(row.root, row.shape)
    return rows


def print_saved(path: Path, noise: float) -> int:
    rows = load_rows(path)
    for model in dict.fromkeys(r.model for r in rows):
        print(report(model, [r for r in rows if r.model == model], noise))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="bench/iree_bench_build.py variant names (LOSS compares ours with iree-default)")
    parser.add_argument("--iterations", type=int, default=100, help="calls per profiled run")
    parser.add_argument("--repeat", type=int, default=3, help="profiled runs per variant (interleaved)")
    parser.add_argument("--noise", type=float, default=0.10, help="relative margin before LOSS")
    parser.add_argument("--jsonl", type=Path, help="write one JSON row per call site and repeat")
    parser.add_argument("--work-dir", type=Path, help="keep builds here (default: a temp dir)")
    parser.add_argument("--from-jsonl", type=Path, help="print the tables of an earlier --jsonl run")
    args = parser.parse_args(argv)
    if args.from_jsonl:
        return print_saved(args.from_jsonl, args.noise)
    all_rows: list[SiteRow] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work_dir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for model in args.models.split(","):
            rows = profile_model(model, work, args.iterations, args.repeat, args.variants.split(","))
            print(report(model, rows, args.noise), flush=True)
            all_rows += rows
        if args.jsonl:
            args.jsonl.write_text("".join(json.dumps(asdict(r)) + "\n" for r in all_rows))
            if "ours" in args.variants.split(","):
                keep_ours(work, args.jsonl.parent, args.models.split(","))
    return 0


def keep_ours(work: Path, dest: Path, models: list[str]) -> None:
    """Leave the profiled `M.ours.mlir` next to the rows: the fit must see these regions (only
    when the `ours` variant was profiled: other variants' IR is not what the fit reads)."""
    for model in models:
        source, target = work / f"{model_stem(model)}.ours.mlir", dest / f"{model_stem(model)}.ours.mlir"
        if source.resolve() != target.resolve():
            shutil.copyfile(source, target)


if __name__ == "__main__":
    sys.exit(main())
