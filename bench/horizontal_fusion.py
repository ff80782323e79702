#!/usr/bin/env python3
"""Figures for `graph-horizontal-fuse-dots`: dots, kernels and bytes moved before/after.

    python bench/horizontal_fusion.py            # prints a Markdown table (bench/RESULTS.md)
    python bench/horizontal_fusion.py --no-full  # skip the 2.4 MB shipped example

Every "after" module is checked against the original with the interpreter harness (the full
example once, the generated cases on two seeds). When `convert-graph-to-linalg` and a dispatch
formation pass are registered, the dispatch count of the full pipeline is printed as well.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

from fusionopt.ir_io import parse_module
from fusionopt.pipeline_spec import build_passes, parse_pipeline
from fusionopt.registry import get_all_passes, make_context
from fusionopt.stats import compute_stats
from fusionopt.testing import assert_pass_preserves_semantics

ROOT = Path(__file__).resolve().parents[1]
FUSE = "graph-horizontal-fuse-dots"
DISPATCH_TAIL = ("convert-graph-to-linalg", "form-dispatch-regions")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_mlp_towers", ROOT / "examples/gen_mlp_towers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_mlp_towers"] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def cases(gen, full: bool) -> list[tuple[str, str, dict]]:
    Layer = gen.Layer
    deep, shallow = [Layer(64), Layer(64), Layer(16)], [Layer(64), Layer(16)]
    plain = [Layer(64, False), Layer(64, False), Layer(16, False)]
    found = []
    if full:
        found.append(("mlp_towers (examples, f32 256-wide)", (ROOT / "examples/mlp_towers.mlir").read_text(),
                      {"rtol": 1e-4, "atol": 1e-5, "seeds": (0,)}))
    found += [
        ("mlp_towers f32 (4 towers, 64-wide)", gen.build_module(gen.uniform_towers(4, 64, 16), 64), {}),
        ("mixed: 6 towers, 2 without SiLU", gen.build_module(gen.uniform_towers(4, 64, 16) + [plain] * 2, 64), {}),
        ("different depths (3,3,2,2)", gen.build_module([deep, deep, shallow, shallow], 64), {}),
        ("rows M=8 (transposed lanes)", gen.build_module(gen.uniform_towers(4, 64, 16), 64, rows=8), {}),
        ("fan-out N=32,48,80 (no epilogue)", gen.build_module(
            [[Layer(32, False)], [Layer(48, False)], [Layer(80, False)]], 64), {}),
    ]
    return found


def run(text: str, pipeline: str):
    module = parse_module(text)
    for p in build_passes(parse_pipeline(pipeline), get_all_passes()):
        p.apply(make_context(), module)
    return module


def count(module, name: str) -> int:
    return sum(1 for op in module.walk() if op.name == name)


def dispatches(text: str, prefix: str) -> int | None:
    available = get_all_passes()
    if not all(p in available for p in DISPATCH_TAIL):
        return None
    try:
        module = run(text, ",".join([prefix, *DISPATCH_TAIL]) if prefix else ",".join(DISPATCH_TAIL))
    except Exception as err:  # another helper's pass may not handle every op yet
        print(f"  (dispatch pipeline failed: {type(err).__name__}: {err})", file=sys.stderr)
        return None
    return compute_stats(module)["total"]["dispatches"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-full", action="store_true")
    args = ap.parse_args()
    gen = _generator()
    print("| case | dots | kernels | bytes_moved | dispatches | equal |")
    print("|---|---:|---:|---:|---:|---|")
    for name, text, tol in cases(gen, not args.no_full):
        start = time.time()
        before = parse_module(text)
        after = assert_pass_preserves_semantics(text, FUSE, **tol)
        s0, s1 = compute_stats(before)["total"], compute_stats(after)["total"]
        d0, d1 = dispatches(text, ""), dispatches(text, FUSE)
        disp = f"{d0} -> {d1}" if d0 is not None and d1 is not None else "n/a"
        print(f"| {name} | {count(before, 'graph.dot')} -> {count(after, 'graph.dot')} "
              f"| {s0['kernels']} -> {s1['kernels']} | {s0['bytes_moved']} -> {s1['bytes_moved']} "
              f"| {disp} | yes ({time.time() - start:.1f} s) |")


if __name__ == "__main__":
    main()
