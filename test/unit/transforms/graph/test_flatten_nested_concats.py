"""graph-canonicalize flattens nested concats: the lit cases compute what they did (random and
adversarial inputs, against a float64 run), and an unrolled scan written step by step into its
rows (`select_scatter`, the form RecurrentGemma's RG-LRU exports) goes through
`graph-to-dispatch` into a module IREE builds (the nested form failed: "failed to solve for
usage analysis", bench/iree_limits_chains.py) and that computes what a float64 run does."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "graph" / "graph-canonicalize.mlir"
STEPS, WIDTH = 48, 32


@pytest.mark.parametrize("name", ["nested_concats", "nested_concats_across_axes"])
def test_lit_cases_compute_the_same(name: str):
    assert_pass_preserves_semantics(lit_functions(LIT)[name], "graph-canonicalize")


def _row(value: str, step: int, out: list[str]) -> str:
    """`value`[0, step] as a [1, WIDTH] row (a gather of one constant index, as exported)."""
    out.append(f"  %i{value[1:]}{step} = arith.constant dense<{step}> : tensor<i64>")
    out.append(f"  %{value[1:]}{step} = graph.gather {value}, %i{value[1:]}{step} axis = 1 : "
               f"(tensor<1x{STEPS}x{WIDTH}xf32>, tensor<i64>) -> tensor<1x{WIDTH}xf32>")
    return f"%{value[1:]}{step}"


def scan(steps: int = STEPS) -> str:
    """h[t] = sigmoid(a[t]) * h[t - 1] + b[t], each h[t] written into row t of the previous
    buffer by a concat of the rows before, h[t] and the rows after."""
    rows, width = steps, WIDTH
    full = f"tensor<{rows}x1x{width}xf32>"
    out = [f"func.func @scan(%a: tensor<1x{rows}x{width}xf32>, %b: tensor<1x{rows}x{width}xf32>) "
           f"-> tensor<1x{rows}x{width}xf32> {{",
           f"  %decay = graph.sigmoid %a : tensor<1x{rows}x{width}xf32>",
           f"  %zeros = arith.constant dense<0.0> : tensor<{rows - 1}x1x{width}xf32>"]
    h = _row("%b", 0, out)
    out.append(f"  %v0 = graph.reshape {h} : tensor<1x{width}xf32> -> tensor<1x1x{width}xf32>")
    out.append(f"  %s0 = graph.concat %v0, %zeros axis = 0 : (tensor<1x1x{width}xf32>, "
               f"tensor<{rows - 1}x1x{width}xf32>) -> {full}")
    for t in range(1, rows):
        a, b = _row("%decay", t, out), _row("%b", t, out)
        out.append(f"  %m{t} = graph.mul {a}, {h} : tensor<1x{width}xf32>")
        out.append(f"  %h{t} = graph.add %m{t}, {b} : tensor<1x{width}xf32>")
        h = f"%h{t}"
        out.append(f"  %v{t} = graph.reshape {h} : tensor<1x{width}xf32> -> tensor<1x1x{width}xf32>")
        out.append(f"  %lo{t} = graph.slice %s{t - 1} axes = [0] starts = [0] ends = [{t}] : "
                   f"{full} -> tensor<{t}x1x{width}xf32>")
        parts, types = [f"%lo{t}", f"%v{t}"], [f"tensor<{t}x1x{width}xf32>", f"tensor<1x1x{width}xf32>"]
        if t < rows - 1:
            out.append(f"  %hi{t} = graph.slice %s{t - 1} axes = [0] starts = [{t + 1}] ends = [{rows}] : "
                       f"{full} -> tensor<{rows - t - 1}x1x{width}xf32>")
            parts.append(f"%hi{t}")
            types.append(f"tensor<{rows - t - 1}x1x{width}xf32>")
        out.append(f"  %s{t} = graph.concat {', '.join(parts)} axis = 0 : ({', '.join(types)}) -> {full}")
    out.append(f"  %y = graph.reshape %s{rows - 1} : {full} -> tensor<1x{rows}x{width}xf32>")
    out.append(f"  func.return %y : tensor<1x{rows}x{width}xf32>\n}}")
    return "\n".join(out)


def test_the_scan_is_one_concat_of_every_step():
    simplified = apply_pipeline(parse_module(scan()), "graph-simplify")
    concats = [op for op in simplified.walk() if op.name == "graph.concat"]
    assert len(concats) == 1 and len(concats[0].operands) == STEPS


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_the_scan_builds_and_agrees_with_float64(tmp_path: Path):
    """On random, offset, constant, zero and extreme inputs (sigmoid's decays stay in [0, 1], so
    the recurrence stays finite where its inputs are)."""
    text = scan()
    formed = print_module(apply_pipeline(parse_module(text), "graph-to-dispatch"))
    assert_iree_build_agrees_with_float64(text, formed, tmp_path, ("random", "offset", "constant", "zeros", "extreme"))
