"""How close a timing run came to this CPU's arithmetic ceiling: multiply-adds per second against
the FMA peak, per model and variant, and what ratio to onnxruntime a module at the peak would get.

    python bench/cpu_roofline.py RUN.json [RUN.json ...] [--peak-gmacs X] [--variants ours-onnx-llvm-cpu,ort]

RUN.json is `bench/iree_runtime.py --json`'s output (rows of model, threads and each variant's
per-round ms). A model's multiply-adds are counted from its ONNX graph (Conv, ConvTranspose,
MatMul, Gemm, with ONNX shape inference), the work any implementation must do; depthwise and
grouped convs count their own (small) products. The peak is one core's f32 fused multiply-adds
per second, measured by a C loop of independent 512-bit (or 256-bit) FMAs built with the
system's `cc -O3 -march=native`, times the thread count; `--peak-gmacs` gives it instead.

Why: a ratio to onnxruntime cannot go below (the model's work at the peak) / (onnxruntime's
time). When onnxruntime already runs a model near the peak, a target ratio under that bound is
out of reach for any compiler, and the column says so; where both are far from it, the gap is
memory traffic or overhead, and the per-dispatch profile (bench/dispatch_profile.py) says where.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import tempfile
from pathlib import Path
from statistics import median

import onnx
from onnx import shape_inference

FMA_LOOP = r"""
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
#if defined(__AVX512F__)
typedef __m512 V; enum { W = 16 };
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define STORE _mm512_storeu_ps
#else
typedef __m256 V; enum { W = 8 };
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define STORE _mm256_storeu_ps
#endif
int main(void) {
  V acc[12], b = SET1(1.0000001f), c = SET1(0.999999f);
  for (int i = 0; i < 12; i++) acc[i] = SET1((float)i);
  long n = 100000000; struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long k = 0; k < n; k++)
    for (int i = 0; i < 12; i++) acc[i] = FMA(acc[i], b, c);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  float sink = 0; float lanes[16];
  for (int i = 0; i < 12; i++) { STORE(lanes, acc[i]); sink += lanes[0]; }
  double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  printf("%f %f\n", n * 12.0 * W / s / 1e9, sink);
  return 0;
}
"""


def fma_peak_gmacs(runs: int = 3) -> float:
    """One core's f32 FMA rate (G multiply-adds/s), the best of `runs` runs of FMA_LOOP."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise SystemExit("no C compiler to measure the FMA peak: pass --peak-gmacs")
    with tempfile.TemporaryDirectory() as work:
        source, binary = Path(work) / "fma.c", Path(work) / "fma"
        source.write_text(FMA_LOOP)
        subprocess.run([compiler, "-O3", "-march=native", str(source), "-o", str(binary)], check=True)
        return max(float(subprocess.run([str(binary)], capture_output=True, text=True, check=True)
                         .stdout.split()[0]) for _ in range(runs))


def _dims(value_info) -> list[int] | None:
    dims = [d.dim_value if d.HasField("dim_value") else 0 for d in value_info.type.tensor_type.shape.dim]
    return dims if dims and all(dims) else None


def _shapes(model: onnx.ModelProto) -> dict[str, list[int]]:
    graph = model.graph
    known = {i.name: list(i.dims) for i in graph.initializer}
    for info in [*graph.input, *graph.value_info, *graph.output]:
        dims = _dims(info)
        if dims is not None:
            known[info.name] = dims
    return known


def _node_macs(node, shapes: dict[str, list[int]]) -> int:
    ins = [shapes.get(name) for name in node.input]
    out = shapes.get(node.output[0])
    if node.op_type == "Conv" and out and ins[1]:
        return math.prod(out) * math.prod(ins[1][1:])
    if node.op_type == "ConvTranspose" and ins[0] and ins[1]:
        return math.prod(ins[0]) * math.prod(ins[1][1:])
    if node.op_type in ("MatMul", "Gemm") and out and ins[0]:
        transposed = node.op_type == "Gemm" and any(a.name == "transA" and a.i for a in node.attribute)
        depth = ins[0][0] if transposed else ins[0][-1]
        return math.prod(out) * depth
    return 0


def model_macs(path: str) -> int:
    """The multiply-adds of one call of the ONNX model at `path` (static shapes)."""
    model = shape_inference.infer_shapes(onnx.load(path, load_external_data=False))
    shapes = _shapes(model)
    return sum(_node_macs(node, shapes) for node in model.graph.node)


def roofline_rows(rows: list[dict], peak: float, variants: list[str]) -> list[str]:
    macs: dict[str, int] = {}
    lines = []
    for row in rows:
        model, threads = row["model"], row["threads"]
        gmac = macs.setdefault(model, model_macs(model)) / 1e9
        floor_ms = gmac / (peak * threads) * 1e3
        cells = []
        for variant in variants:
            ms = median(row["times"][variant]) if variant in row["times"] else None
            cells.append("-" if ms is None else f"{ms:.2f} ({gmac / ms * 1e3:.0f}, {floor_ms / ms:.0%})")
        ort = median(row["times"]["ort"]) if "ort" in row["times"] else None
        bound = "-" if ort is None else f"{floor_ms / ort:.2f}x"
        lines.append(f"| {Path(model).stem.split('.')[0]} | {threads} | {gmac:.2f} | {floor_ms:.2f} | "
                     + " | ".join(cells) + f" | {bound} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="bench/iree_runtime.py --json files")
    parser.add_argument("--peak-gmacs", type=float, help="one core's f32 FMA peak, G multiply-adds/s")
    parser.add_argument("--variants", default="ours-onnx-llvm-cpu,ort")
    args = parser.parse_args(argv)
    peak = args.peak_gmacs or fma_peak_gmacs()
    variants = args.variants.split(",")
    rows = [row for run in args.runs for row in json.loads(run.read_text())]
    print(f"FMA peak {peak:.1f} G multiply-adds/s a core; cells: median ms (GMAC/s, share of the peak)\n")
    print("| model | threads | GMAC a call | ms at the peak | " + " | ".join(variants)
          + " | ours / ort bound at the peak |")
    print("|---|---:|---:|---:|" + "---:|" * len(variants) + "---:|")
    print("\n".join(roofline_rows(rows, peak, variants)))


if __name__ == "__main__":
    main()
