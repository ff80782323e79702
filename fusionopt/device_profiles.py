"""Device profiles for `fusion-stats --device`: a roofline estimate of each kernel's time.

    estimate_seconds(flops, bytes, profile) = launch + max(flops / peak_flops, bytes / bandwidth)

A kernel is charged a fixed launch cost plus whichever of compute and memory traffic takes
longer (no overlap credit beyond the max, no caches, no tiling effects). It is a ranking and
sanity tool, not a simulator: it exists so that "fewer, fatter dispatches" can be priced on a
device instead of counted, and so that the estimate can be checked against measured times
(`bench/fit_cost_model.py`).

Profiles
- `cpu`: **fitted**, not published. `bench/fit_cost_model.py` measured every dispatch of our
  `dispatch-creation` output for bert_mini, gpt2_mini and mlp_towers (IREE 3.13 llvm-cpu,
  `--iree-llvmcpu-target-cpu=host`, `--device=local-sync`, i.e. ONE thread, HAL host-execution
  profiling) on a shared 2-core "AMD EPYC" VM (lscpu model name), and fitted the three
  constants by least squares on log(time). See the constant's `notes` for the date and the fit
  error. A roofline cannot see IREE's codegen choices (e.g. a contraction IREE tiles as a
  reduction, tiny elementwise kernels dominated by per-dispatch host overhead), so individual
  dispatches miss by up to the max error quoted; sums over a model are much closer.
- `h100`: **published numbers, not fitted** (no GPU was available): H100 SXM5 ~67 TFLOP/s f32
  (non-tensor-core), ~3.35 TB/s HBM3, ~5 us per kernel launch (typical CUDA launch + IREE HAL
  command-buffer overhead; a CUDA graph would be lower).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp


@dataclass(frozen=True)
class DeviceProfile:
    """Roofline constants of one device (SI units: FLOP/s, bytes/s, seconds)."""

    name: str
    peak_flops: float
    bandwidth_bytes_per_s: float
    launch_s: float
    notes: str = ""


def estimate_seconds(flops: float, nbytes: float, profile: DeviceProfile) -> float:
    """Roofline time of one kernel: launch + max(compute time, memory time)."""
    compute = flops / profile.peak_flops
    memory = nbytes / profile.bandwidth_bytes_per_s
    return profile.launch_s + max(compute, memory)


def estimate_us(flops: float, nbytes: float, profile: DeviceProfile) -> float:
    """`estimate_seconds` in microseconds (the unit `fusion-stats` prints)."""
    return estimate_seconds(flops, nbytes, profile) * 1e6


# Fitted by `python bench/fit_cost_model.py --jsonl RUN.jsonl` (its "CPU profile literal"),
# RUN = `python bench/dispatch_profile.py --iterations 200 --repeat 3 --jsonl RUN.jsonl` taken on
# a quiet machine (fits on runs taken under load 3-5 from other jobs gave 41-75 GFLOP/s,
# 42-107 GB/s, 1.2-2.4 us, median error x1.30-x1.37: the constants are only as steady as the
# machine). Worst misses: tiny kernels below the fitted launch cost (mlp_towers' 1x64x256
# matmul, 1.4 us measured vs 3.1 us), softmax's sum reduction (2.1 us vs 3.1 us), the chained
# layer-norm reductions (4.7 us measured vs 3.5 us: two passes over the row in one dispatch).
CPU = DeviceProfile(
    name="cpu",
    peak_flops=1.219e11,
    bandwidth_bytes_per_s=1.778e11,
    launch_s=2.714e-06,
    notes="fitted 2026-11-24 by bench/fit_cost_model.py on 61 dispatches (ours, "
    "bert_mini/gpt2_mini/mlp_towers), IREE 3.13 llvm-cpu local-sync (1 thread), AMD EPYC "
    "(shared 2-core VM); |log(est/meas)| median 0.23 (x1.25), max 0.81 (x2.24); "
    "model sums within 0.94-0.96 of measured",
)

H100 = DeviceProfile(
    name="h100",
    peak_flops=67e12,
    bandwidth_bytes_per_s=3.35e12,
    launch_s=5e-6,
    notes="published H100 SXM5 figures (f32 non-tensor peak, HBM3 bandwidth, typical launch); "
    "NOT fitted to measurements",
)

PROFILES: dict[str, DeviceProfile] = {"cpu": CPU, "h100": H100}


def get_profile(name: str) -> DeviceProfile:
    """The profile called `name`; KeyError lists the known names."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown device {name!r}; known: {', '.join(sorted(PROFILES))}") from None


# ---- pricing a module (`fusion-stats --device`) --------------------------------------------


def kernel_row(index: int, kernel, profile: DeviceProfile) -> dict:
    """One `per_kernel` entry: a `fusionopt.stats.KernelCost` and its estimated time."""
    return {
        "index": index, "kind": kernel.kind, "root": kernel.root, "work": kernel.work,
        "shape": "x".join(str(d) for d in kernel.shape), "flops": kernel.flops,
        "bytes": kernel.bytes, "est_time_us": round(estimate_us(kernel.flops, kernel.bytes, profile), 3),
    }


def estimate_stats(module: ModuleOp, profile: DeviceProfile) -> dict:
    """Per function: roofline time of every kernel (`per_kernel`) and their sum (`est_time_us`).

    Kept apart from `fusionopt.stats.compute_stats` so its stable keys never change; the tool
    merges both. Kernels are `fusionopt.stats.kernel_costs` (regions, unfused ops, copies).
    """
    from fusionopt.stats import functions_with_body, kernel_costs  # stats is the heavier module

    functions = {}
    for func in functions_with_body(module):
        rows = [kernel_row(i, k, profile) for i, k in enumerate(kernel_costs(func))]
        functions[func.sym_name.data] = {
            "est_time_us": round(sum(r["est_time_us"] for r in rows), 3), "per_kernel": rows,
        }
    total = round(sum(f["est_time_us"] for f in functions.values()), 3)
    return {"device": profile.name, "functions": functions, "total_est_time_us": total}
