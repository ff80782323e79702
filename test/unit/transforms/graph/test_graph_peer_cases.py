"""Equivalence for the MIGraphX peer rules in the graph passes (`simplify_dot_add`,
`simplify_dot_horiz` / `_reshape`, `find_dot_slice`): every case of their passes' lit tests,
plus random-weight models, run through the interpreter harness (random and adversarial input
families against a float64 reference)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.testing import assert_pass_preserves_semantics

ROOT = Path(__file__).resolve().parents[4]
LIT = ROOT / "test/lit/transforms/graph"

CASES = [
    ("graph-reassociate-dots.mlir", "graph-reassociate-dots"),
    ("graph-canonicalize.mlir", "graph-canonicalize"),
    ("graph-horizontal-fuse-dots.mlir", "graph-horizontal-fuse-dots{fuse-batched-dots=true}"),
]


def _chunks():
    for name, pipeline in CASES:
        for i, chunk in enumerate((LIT / name).read_text().split("// -----")):
            if "func.func" in chunk:
                yield pytest.param(chunk, pipeline, id=f"{name}:{i}")


@pytest.mark.parametrize("text, pipeline", list(_chunks()))
def test_lit_cases_preserve_semantics(text: str, pipeline: str):
    assert_pass_preserves_semantics(text, pipeline)


def _dense(array: np.ndarray) -> str:
    return "dense<" + np.array2string(array, separator=", ", threshold=10**6,
                                      floatmode="unique").replace("\n", "") + ">"


def _type(shape, element="f32") -> str:
    return "tensor<" + "x".join(map(str, shape)) + f"x{element}>"


@pytest.mark.parametrize("m, k, n, row_bias", [(8, 16, 4, False), (8, 4, 16, True), (8, 8, 8, False)])
def test_dot_add_random_weights(m: int, k: int, n: int, row_bias: bool):
    rng = np.random.default_rng(m * 100 + k * 10 + n)
    w = rng.standard_normal((k, n)).astype(np.float32)
    if row_bias:
        c = rng.standard_normal(k).astype(np.float32)
        c1 = (f"  %cv = arith.constant {_dense(c)} : {_type((k,))}\n"
              f"  %c1 = graph.broadcast %cv dims = [1] : {_type((k,))} -> {_type((m, k))}\n")
    else:
        c = rng.standard_normal((m, k)).astype(np.float32) * 100
        c1 = f"  %c1 = arith.constant {_dense(c)} : {_type((m, k))}\n"
    text = (f"func.func @f(%x: {_type((m, k))}) -> {_type((m, n))} {{\n{c1}"
            f"  %w = arith.constant {_dense(w)} : {_type((k, n))}\n"
            f"  %h = graph.add %x, %c1 : {_type((m, k))}\n"
            f"  %d = graph.dot %h, %w : ({_type((m, k))}, {_type((k, n))}) -> {_type((m, n))}\n"
            f"  func.return %d : {_type((m, n))}\n}}\n")
    after = assert_pass_preserves_semantics(text, "graph-reassociate-dots")
    ops = [op.name for op in after.walk()]
    assert ops.index("graph.dot") < ops.index("graph.add"), "the add was not distributed"


def test_qkv_behind_reshapes_through_the_pipeline():
    """Three projections of one [B, S, D] input, each behind its own reshape, with biases:
    one dot after `graph-to-dispatch`'s graph stages, same numbers."""
    rng = np.random.default_rng(7)
    b, s, d = 2, 4, 8
    lines = [f"func.func @f(%x: {_type((b, s, d))}) -> ({', '.join([_type((b, s, d))] * 3)}) {{"]
    outs = []
    for name in "qkv":
        w = rng.standard_normal((d, d)).astype(np.float32)
        bias = rng.standard_normal(d).astype(np.float32)
        lines += [
            f"  %w{name} = arith.constant {_dense(w)} : {_type((d, d))}",
            f"  %bv{name} = arith.constant {_dense(bias)} : {_type((d,))}",
            f"  %r{name} = graph.reshape %x : {_type((b, s, d))} -> {_type((b * s, d))}",
            f"  %d{name} = graph.dot %r{name}, %w{name} : ({_type((b * s, d))}, {_type((d, d))}) -> {_type((b * s, d))}",
            f"  %b{name} = graph.broadcast %bv{name} dims = [1] : {_type((d,))} -> {_type((b * s, d))}",
            f"  %a{name} = graph.add %d{name}, %b{name} : {_type((b * s, d))}",
            f"  %o{name} = graph.reshape %a{name} : {_type((b * s, d))} -> {_type((b, s, d))}",
        ]
        outs.append(f"%o{name}")
    lines.append(f"  func.return {', '.join(outs)} : {', '.join([_type((b, s, d))] * 3)}\n}}")
    after = assert_pass_preserves_semantics("\n".join(lines), "graph-horizontal-fuse-dots")
    assert sum(op.name == "graph.dot" for op in after.walk()) == 1
