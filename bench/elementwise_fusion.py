"""Kernel counts and bytes moved before/after `linalg-fuse-elementwise` (issue #6, luminal #39).

Graph cases: `convert-graph-to-linalg` gives "before", `+ linalg-fuse-elementwise` gives "after".
Models (`/work/shared/models/*/M.args.linalg.mlir`, skipped when absent): the file as is vs. fused.
Every "after" is checked equal to "before" on random inputs (fusionopt.testing).

    python bench/elementwise_fusion.py            # print the table
    python bench/elementwise_fusion.py --write    # also replace `## elementwise fusion` in RESULTS.md
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from fusionopt.ir_io import parse_file, print_module
from fusionopt.stats import compute_stats
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics

SHARED_MODELS = Path(__file__).resolve().parents[2] / "shared" / "models"
RESULTS = Path(__file__).with_name("RESULTS.md")
SECTION = "## elementwise fusion"

CASES = {
    "luminal target `(exp2(a)-sin(b)).relu() + c/d`": """
func.func @main(%a: tensor<10xf32>, %b: tensor<10xf32>, %d: tensor<10xf32>) -> tensor<10xf32> {
  %c = arith.constant dense<2.123> : tensor<f32>
  %0 = graph.exp2 %a : tensor<10xf32>
  %1 = graph.sin %b : tensor<10xf32>
  %2 = graph.sub %0, %1 : tensor<10xf32>
  %3 = graph.relu %2 : tensor<10xf32>
  %4 = graph.broadcast %c dims = [] : tensor<f32> -> tensor<10xf32>
  %5 = graph.div %4, %d : tensor<10xf32>
  %6 = graph.add %3, %5 : tensor<10xf32>
  return %6 : tensor<10xf32>
}""",
    "`b = exp(a); b + sin(b)`": """
func.func @main(%a: tensor<10xf32>) -> tensor<10xf32> {
  %b = graph.exp %a : tensor<10xf32>
  %s = graph.sin %b : tensor<10xf32>
  %c = graph.add %b, %s : tensor<10xf32>
  return %c : tensor<10xf32>
}""",
    "`sqrt(a).exp() + sqrt(a).sin()`": """
func.func @main(%a: tensor<10xf32>) -> tensor<10xf32> {
  %s1 = graph.sqrt %a : tensor<10xf32>
  %e = graph.exp %s1 : tensor<10xf32>
  %s2 = graph.sqrt %a : tensor<10xf32>
  %n = graph.sin %s2 : tensor<10xf32>
  %r = graph.add %e, %n : tensor<10xf32>
  return %r : tensor<10xf32>
}""",
    "slice -> cos -> pad -> exp2 `[2,5]`": """
func.func @main(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = graph.slice %x axes = [0] starts = [0] ends = [1] : tensor<2x5xf32> -> tensor<1x5xf32>
  %1 = graph.cos %0 : tensor<1x5xf32>
  %2 = graph.pad %1 low = [0, 0] high = [1, 0] value = 0.0 : tensor<1x5xf32> -> tensor<2x5xf32>
  %3 = graph.exp2 %2 : tensor<2x5xf32>
  return %3 : tensor<2x5xf32>
}""",
    "rotary embedding `[64,128]`": """
func.func @main(%x: tensor<64x128xf32>, %cos: tensor<64x128xf32>, %sin: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %p = graph.reshape %x : tensor<64x128xf32> -> tensor<64x64x2xf32>
  %x1 = graph.slice %p axes = [2] starts = [0] ends = [1] : tensor<64x64x2xf32> -> tensor<64x64x1xf32>
  %x2 = graph.slice %p axes = [2] starts = [1] ends = [2] : tensor<64x64x2xf32> -> tensor<64x64x1xf32>
  %n2 = graph.neg %x2 : tensor<64x64x1xf32>
  %r = graph.concat %n2, %x1 axis = 2 : (tensor<64x64x1xf32>, tensor<64x64x1xf32>) -> tensor<64x64x2xf32>
  %rf = graph.reshape %r : tensor<64x64x2xf32> -> tensor<64x128xf32>
  %a = graph.mul %x, %cos : tensor<64x128xf32>
  %b = graph.mul %rf, %sin : tensor<64x128xf32>
  %o = graph.add %a, %b : tensor<64x128xf32>
  return %o : tensor<64x128xf32>
}""",
    "chain with transpose + broadcast `[64,32]`": """
func.func @main(%x: tensor<32x64xf32>, %v: tensor<32xf32>, %y: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = graph.exp %x : tensor<32x64xf32>
  %t = graph.transpose %e perm = [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
  %b = graph.broadcast %v dims = [1] : tensor<32xf32> -> tensor<64x32xf32>
  %m = graph.mul %t, %b : tensor<64x32xf32>
  %s = graph.add %m, %y : tensor<64x32xf32>
  return %s : tensor<64x32xf32>
}""",
    "softmax-like (reduction stays separate) `[64,128]`": """
func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = graph.exp %x : tensor<64x128xf32>
  %s = graph.reduce_sum %e axes = [1] : tensor<64x128xf32> -> tensor<64x1xf32>
  %b = graph.broadcast %s dims = [0, 1] : tensor<64x1xf32> -> tensor<64x128xf32>
  %d = graph.div %e, %b : tensor<64x128xf32>
  return %d : tensor<64x128xf32>
}""",
}


def summary(module) -> tuple[int, int, int]:
    total = compute_stats(module)["total"]
    generics = sum(1 for op in module.walk() if op.name == "linalg.generic")
    return generics, total["kernels"], total["bytes_moved"]


def row(name: str, before, after, equal: str) -> str:
    cells = [f"{b} -> {a}" for b, a in zip(before, after)]
    return f"| {name} | " + " | ".join(cells) + f" | {equal} |"


def graph_case(name: str, text: str) -> str:
    lowered = apply_pipeline(text, "convert-graph-to-linalg")
    before = summary(lowered)
    after = assert_pass_preserves_semantics(print_module(lowered), "linalg-fuse-elementwise")
    return row(name, before, summary(after), "yes")


def model_case(path: Path) -> str:
    module = parse_file(path)
    before = summary(module)
    after = assert_pass_preserves_semantics(print_module(module), "linalg-fuse-elementwise", seeds=(0,),
                                            rtol=1e-4, atol=1e-5)
    return row(f"{path.parent.name} (`{path.name}`)", before, summary(after), "yes")


def table() -> str:
    start = time.perf_counter()
    lines = ["| case | linalg.generic | kernels | bytes_moved | equal |", "|---|---:|---:|---:|---|"]
    lines += [graph_case(name, text) for name, text in CASES.items()]
    for path in sorted(SHARED_MODELS.glob("*/*.args.linalg.mlir")):
        lines.append(model_case(path))
    elapsed = time.perf_counter() - start
    return "\n".join(lines) + f"\n\n(total {elapsed:.0f} s)"


def section(body: str) -> str:
    return f"""{SECTION}

Command: `python bench/elementwise_fusion.py --write` (2-core machine). Graph cases: "before" is
`convert-graph-to-linalg`, "after" adds `linalg-fuse-elementwise` (defaults: aggressive,
max-operands=32, max-inline-bytes=256, max-recompute-ops=8). Models: `M.args.linalg.mlir` as
given vs. fused. kernels / bytes_moved from `fusionopt.stats.compute_stats`; "equal" = every
result matches on random inputs (`assert_pass_preserves_semantics`).

{body}
"""


def write_section(text: str) -> None:
    """Replace only our section of RESULTS.md (other sections belong to other benchmarks)."""
    current = RESULTS.read_text() if RESULTS.exists() else ""
    if SECTION not in current:
        RESULTS.write_text(current.rstrip() + "\n\n" + text)
        return
    head, rest = current.split(SECTION, 1)
    next_section = rest.find("\n## ")
    tail = rest[next_section:] if next_section >= 0 else ""
    RESULTS.write_text(head + text.rstrip() + "\n" + tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args()
    text = section(table())
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
