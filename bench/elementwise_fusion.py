"""Kernel counts and bytes moved before/after `linalg-fuse-elementwise` (the cases of luminal #39).

Graph cases: `convert-graph-to-linalg` gives "before", `+ linalg-fuse-elementwise` gives "after".
Models (`../shared/models/*/M.args.linalg.mlir`, skipped when absent): the file as is vs. fused.
Every "after" is checked equal to "before" on random inputs (fusionopt.testing).

    python bench/elementwise_fusion.py            # print the table
    python bench/elementwise_fusion.py --write    # also replace `## elementwise fusion` in RESULTS.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))  # test/support: cases shared with the unit tests

from support import elementwise_cases as cases  # noqa: E402

from fusionopt.ir_io import parse_file, print_module  # noqa: E402
from fusionopt.stats import compute_stats  # noqa: E402
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics  # noqa: E402

SHARED_MODELS = Path(__file__).resolve().parents[2] / "shared" / "models"
RESULTS = Path(__file__).with_name("RESULTS.md")
SECTION = "## elementwise fusion"

CASES = {
    "luminal target `(exp2(a)-sin(b)).relu() + c/d`": cases.LUMINAL_TARGET,
    "`b = exp(a); b + sin(b)`": cases.MULTI_USE_EXP,
    "`sqrt(a).exp() + sqrt(a).sin()`": cases.SHARED_SQRT,
    "slice -> cos -> pad -> exp2 `[2,5]`": cases.SLICE_COS_PAD_EXP2,
    "rotary embedding `[64,128]`": cases.rotary_embedding(64, 128),
    "chain with transpose + broadcast `[64,32]`": cases.transpose_broadcast_chain(32, 64),
    "softmax-like (reduction stays separate) `[64,128]`": cases.softmax_like(64, 128),
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
