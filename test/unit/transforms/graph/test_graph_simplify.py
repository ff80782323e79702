"""Equivalence and cost tests for the graph-simplify passes: every rewrite is run on
random inputs before/after (`assert_pass_preserves_semantics`) and its FLOPs are measured
with `fusion-stats` (`compute_stats`). The lit tests check the IR shapes in detail."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt import pass_statistics
from fusionopt.diagnostics import capture_diagnostics
from fusionopt.ir_io import parse_module, print_module
from fusionopt.stats import compute_stats
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.graph.dot_chain import Affine, Leaf, best_plan
from support import graph_simplify_cases as cases
from support.lit_cases import lit_functions

TOL = {"f16": 2e-2, "f32": 1e-4, "f64": 1e-9}
# The design cases have random-sign weights: the pass re-plans them by default (the fast-math
# contract; `strict-nonfinite=true` keeps them: test_reassociate_nonfinite.py).
REASSOCIATE = "graph-reassociate-dots"
SIMPLIFY = "graph-simplify"


def flops(module) -> int:
    return compute_stats(module)["total"]["flops"]


def op_count(module, name: str) -> int:
    return sum(1 for op in module.walk() if op.name == name)


def simplified(text: str, dtype: str = "f32", pipeline: str = SIMPLIFY):
    """(module before, module after, remarks), the after module checked equal on 2 seeds."""
    with capture_diagnostics() as remarks:
        after = assert_pass_preserves_semantics(text, pipeline, rtol=TOL[dtype], atol=TOL[dtype])
    return parse_module(text, "<before>"), after, [d.message for d in remarks]


def assert_unchanged(text: str, pipeline: str = REASSOCIATE) -> list[str]:
    with capture_diagnostics() as remarks:
        after = apply_pipeline(text, pipeline)
    assert print_module(after) == print_module(parse_module(text, "<before>"))
    return [d.message for d in remarks]


# ---- positive cases -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_x_linear_c_drops_a_runtime_dot(dtype):
    n = 32
    before, after, remarks = simplified(cases.x_linear_c(n, dtype), dtype)
    assert (op_count(before, "graph.dot"), op_count(after, "graph.dot")) == (3, 2)
    # 3 dots + bias add -> 2 dots + bias add: exactly one n^3 GEMM less.
    assert flops(before) - flops(after) == 2 * n**3
    assert remarks == ["reassociated 3-dot chain: 197.63 KFLOP -> 132.10 KFLOP (3 -> 2 run-time dots)"]


def test_f16_chains_with_runtime_adds_are_kept():
    """f16 re-plans that keep a run-time bias add are more than one rounding: refused
    (numerics policy of graph-reassociate-dots; test_reassociate_low_precision.py)."""
    for text in (cases.x_linear_c(32, "f16"), cases.two_linears(dtype="f16")):
        remarks = assert_unchanged(text)
        assert any("in f16 the re-plan would not be one rounding" in r for r in remarks), remarks


@pytest.mark.parametrize("dtype", ["f32"])
def test_two_stacked_linears_become_one_dot(dtype):
    m, k, h, n = 16, 64, 64, 32
    before, after, _ = simplified(cases.two_linears(m, k, h, n, dtype), dtype)
    assert op_count(after, "graph.dot") == 1
    assert op_count(after, "graph.add") == 1  # the two biases are summed at compile time
    assert flops(after) == 2 * m * k * n + m * n
    assert flops(before) == 2 * m * k * h + m * h + 2 * m * h * n + m * n


def test_reassociate_alone_keeps_semantics_and_folds_biases():
    before, after, _ = simplified(cases.two_linears(), pipeline=REASSOCIATE)
    assert op_count(after, "graph.dot") == 1 and op_count(after, "graph.add") == 1


def test_wide_chain_uses_matrix_chain_order_not_local_swap():
    """y[2,64] * W1[64,64] * W2[64,64] * W3[64,2]: the best order folds W1*W2*W3 into one
    [64,2] constant -- a local 3-term swap would only reach two of the three weights."""
    b = cases.Builder("f32", seed=3)
    w1, w2, w3 = b.const(64, 64), b.const(64, 64), b.const(64, 2)
    d1 = b.dot("%y", (2, 64), w1, (64, 64))
    d2 = b.dot(d1, (2, 64), w2, (64, 64))
    out = b.dot(d2, (2, 64), w3, (64, 2))
    text = b.function("wide", [("%y", (2, 64))], [(out, (2, 2))])
    before, after, _ = simplified(text, pipeline=REASSOCIATE)
    assert op_count(after, "graph.dot") == 1
    assert flops(after) == 2 * 2 * 64 * 2


def test_scales_are_pushed_into_constant_operands():
    b = cases.Builder("f32", seed=4)
    w = b.const(16, 8)
    col, row, scalar = b.const(8, stem="s"), b.const(4, stem="r"), b.const(1, stem="k")
    d = b.dot("%x", (4, 16), w, (16, 8))
    bc = b.op(f"graph.broadcast {col} dims = [1] : {b.t(8)} -> {b.t(4, 8)}")
    m1 = b.op(f"graph.mul {d}, {bc} : {b.t(4, 8)}")
    wt = b.const(4, 4)
    rb = b.op(f"graph.broadcast {row} dims = [0] : {b.t(4)} -> {b.t(4, 8)}")
    d2 = b.dot(wt, (4, 4), m1, (4, 8))
    m2 = b.op(f"graph.mul {rb}, {d2} : {b.t(4, 8)}")
    ks = b.op(f"graph.broadcast {scalar} dims = [1] : {b.t(1)} -> {b.t(8, 1)}")
    kb = b.op(f"graph.broadcast {ks} dims = [0, 1] : {b.t(8, 1)} -> {b.t(8, 8)}")
    w3 = b.const(8, 8)
    m3 = b.op(f"graph.mul %z, {kb} : {b.t(8, 8)}")
    out2 = b.dot(m3, (8, 8), w3, (8, 8))
    text = b.function("scales", [("%x", (4, 16)), ("%z", (8, 8))], [(m2, (4, 8)), (out2, (8, 8))])
    before, after, remarks = simplified(text, pipeline=REASSOCIATE)
    assert op_count(after, "graph.mul") == 0
    assert sum("folded a column scale" in r for r in remarks) == 1
    assert sum("folded a row scale" in r for r in remarks) == 1
    assert sum("scalar scale of the activation" in r for r in remarks) == 1
    assert flops(after) < flops(before)


# ---- counter-cases: unchanged ---------------------------------------------------------------


def test_low_rank_factors_are_kept():
    remarks = assert_unchanged(cases.low_rank(m=348, k=768, r=64, scale=0.0))
    assert remarks == ["kept 2-dot chain: no cheaper order than 68.42 MFLOP"]


def test_attention_tail_is_unchanged():
    text = cases.attention_tail(seq=12, heads=3, dh=4)
    assert assert_unchanged(text) == []
    assert_pass_preserves_semantics(text, "graph-simplify")


def _linear_then_dot(bias_is_const: bool, c_is_const: bool, extra_use: bool, mixed: bool) -> str:
    n = 8
    b = cases.Builder("f32", seed=5)
    a = b.const(n, n)
    ya = b.dot("%y", (n, n), a, (n, n))
    bias = b.row_bias((n, n)) if bias_is_const else "%bias"
    s = b.add(ya, bias, (n, n))
    c = b.const(n, n) if c_is_const else "%c"
    args = [("%y", (n, n))] + ([("%bias", (n, n))] if not bias_is_const else []) + ([("%c", (n, n))] if not c_is_const else [])
    if mixed:
        half = b.op(f"graph.convert {s} : {b.t(n, n)} -> tensor<{n}x{n}xf16>")
        c16 = b.op(f"graph.convert {c} : {b.t(n, n)} -> tensor<{n}x{n}xf16>")
        out = b.op(f"graph.dot {half}, {c16} : (tensor<{n}x{n}xf16>, tensor<{n}x{n}xf16>) -> tensor<{n}x{n}xf16>")
        wide = b.op(f"graph.convert {out} : tensor<{n}x{n}xf16> -> {b.t(n, n)}")
        return b.function("mixed", args, [(wide, (n, n))])
    out = b.dot(s, (n, n), c, (n, n))
    results = [(out, (n, n))] + ([(s, (n, n))] if extra_use else [])
    return b.function("case", args, results)


@pytest.mark.parametrize("variant", [
    dict(bias_is_const=False, c_is_const=True, extra_use=False, mixed=False),
    dict(bias_is_const=True, c_is_const=False, extra_use=False, mixed=False),
    dict(bias_is_const=True, c_is_const=True, extra_use=True, mixed=False),
    dict(bias_is_const=True, c_is_const=True, extra_use=False, mixed=True),
], ids=["runtime-bias", "runtime-C", "intermediate-needed", "mixed-dtypes"])
def test_counter_cases_are_unchanged(variant):
    text = _linear_then_dot(**variant)
    assert_unchanged(text)
    # The positive twin (all constant, no extra use, one dtype) does change: the guard is real.
    twin = _linear_then_dot(True, True, False, False)
    assert op_count(apply_pipeline(twin, REASSOCIATE), "graph.dot") == 1


def test_const_budget_limits_the_fold():
    m, k, h, n = 16, 64, 64, 32
    text = cases.two_linears(m, k, h, n)
    # 64 bytes: neither W1*W2 (8 KiB) nor b1*W2 (128 B) may be created.
    remarks = assert_unchanged(text, "graph-reassociate-dots{max-const-bytes=64}")
    assert remarks == ["kept 2-dot chain: no cheaper order than 197.63 KFLOP"]
    # 1 KiB: W1*W2 still may not fold, but b1*W2 may: the bias add moves to the narrower
    # output and merges with b2 (two dots stay, one add of m*h elements disappears).
    before, after, _ = simplified(text, pipeline="graph-reassociate-dots{max-const-bytes=1024}")
    assert op_count(after, "graph.dot") == 2 and op_count(after, "graph.add") == 1
    assert flops(before) - flops(after) == m * h


# ---- the DP on its own ----------------------------------------------------------------------


def test_dp_classic_matrix_chain_order():
    # 10x30 * 30x5 * 5x60, all run time: (AB)C = 1500 + 3000 mults, A(BC) = 9000 + 18000.
    factors = (Leaf(10, 30, 0), Leaf(30, 5, 1), Leaf(5, 60, 2))
    plan = best_plan(factors, batch=1, element_bytes=4, max_const_bytes=1 << 20)
    assert plan.cost == 2 * (10 * 30 * 5 + 10 * 5 * 60)
    assert plan.parts[0].kind == "dot" and plan.parts[1].kind == "leaf"


def test_dp_constant_products_are_free_within_budget():
    factors = (Leaf(4, 64, 0), Leaf(64, 64, 1, (64, 64)), Leaf(64, 64, 2, (64, 64)))
    assert best_plan(factors, 1, 4, 1 << 20).cost == 2 * 4 * 64 * 64
    # A 16 KiB product does not fit 8 KiB: both dots stay at run time.
    assert best_plan(factors, 1, 4, 8 * 1024).cost == 2 * 2 * 4 * 64 * 64


def test_dp_absorbs_a_constant_into_a_linear_layer():
    linear = Affine((Leaf(8, 16, 0), Leaf(16, 16, 1, (16, 16))), (1, 16), 2)
    plan = best_plan((linear, Leaf(16, 4, 3, (16, 4))), 1, 4, 1 << 20)
    assert plan.kind == "absorb"
    assert plan.cost == 2 * 8 * 16 * 4 + 8 * 4 and plan.dots == 1


# ---- propagate-constants and canonicalize ---------------------------------------------------


def test_propagate_constants_folds_and_respects_budget():
    b = cases.Builder("f32", seed=6)
    a, c = b.const(8, 8), b.const(8, 8)
    s = b.op(f"graph.sigmoid {b.dot(a, (8, 8), c, (8, 8))} : {b.t(8, 8)}")
    out = b.add("%x", s, (8, 8))
    text = b.function("fold", [("%x", (8, 8))], [(out, (8, 8))])
    _, after, _ = simplified(text, pipeline="graph-propagate-constants")
    assert op_count(after, "graph.dot") == 0 and op_count(after, "graph.sigmoid") == 0
    small = apply_pipeline(text, "graph-propagate-constants{max-bytes=64}")
    assert op_count(small, "graph.dot") == 1


def test_propagate_constants_keeps_splats_compact():
    text = """
    func.func @splat(%x: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
      %a = arith.constant dense<1.5> : tensor<2048x2048xf32>
      %b = arith.constant dense<2.0> : tensor<2048x2048xf32>
      %c = graph.mul %a, %b : tensor<2048x2048xf32>
      %r = graph.add %x, %c : tensor<2048x2048xf32>
      func.return %r : tensor<2048x2048xf32>
    }"""
    after = apply_pipeline(text, "graph-propagate-constants{max-bytes=16}")
    assert "dense<3.000000e+00> : tensor<2048x2048xf32>" in print_module(after)


def test_canonicalize_identities_keep_semantics():
    text = """
    func.func @canon(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x3xf32>, tensor<4x8xf32>) {
      %t0 = graph.transpose %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
      %t1 = graph.transpose %t0 perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
      %z = arith.constant dense<0.0> : tensor<4x8xf32>
      %a = graph.add %t1, %z : tensor<4x8xf32>
      %cc = graph.concat %x, %y axis = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
      %s = graph.slice %cc axes = [1] starts = [9] ends = [12] : tensor<4x16xf32> -> tensor<4x3xf32>
      %s0 = graph.slice %y axes = [1] starts = [0] ends = [3] : tensor<4x8xf32> -> tensor<4x3xf32>
      %s1 = graph.slice %y axes = [1] starts = [3] ends = [8] : tensor<4x8xf32> -> tensor<4x5xf32>
      %j = graph.concat %s0, %s1 axis = 1 : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x8xf32>
      %one = arith.constant dense<1.0> : tensor<4x8xf32>
      %m = graph.mul %one, %j : tensor<4x8xf32>
      func.return %a, %s, %m : tensor<4x8xf32>, tensor<4x3xf32>, tensor<4x8xf32>
    }"""
    for pipeline in ("graph-canonicalize", "canonicalize"):
        _, after, _ = simplified(text, pipeline=pipeline)
        ops = {op.name for op in after.walk()}
        assert ops == {"builtin.module", "func.func", "graph.slice", "func.return"}, pipeline


# ---- batched chains and left-hand constants -------------------------------------------------


def test_batched_chain_through_broadcast_weights_keeps_them_small():
    """Y[2,8,16] * bcast(A[16,16]) * bcast(C[16,16]): A*C folds once, still broadcast."""
    b = cases.Builder("f32", seed=7)
    a, c = b.const(16, 16), b.const(16, 16)
    ba = b.op(f"graph.broadcast {a} dims = [1, 2] : {b.t(16, 16)} -> {b.t(2, 16, 16)}")
    bc = b.op(f"graph.broadcast {c} dims = [1, 2] : {b.t(16, 16)} -> {b.t(2, 16, 16)}")
    out = b.dot(b.dot("%y", (2, 8, 16), ba, (2, 16, 16)), (2, 8, 16), bc, (2, 16, 16))
    text = b.function("batched", [("%y", (2, 8, 16))], [(out, (2, 8, 16))])
    _, after, _ = simplified(text, pipeline=REASSOCIATE)
    assert op_count(after, "graph.dot") == 1
    folded = [op for op in after.walk() if op.name == "arith.constant"]
    assert [tuple(op.result.type.get_shape()) for op in folded] == [(16, 16)]


def test_constant_on_the_left_distributes_symmetrically():
    """C * (A*Y + b) with constant C, A, b -> (C*A)*Y + C*b."""
    n = 16
    b = cases.Builder("f32", seed=8)
    a, c, bias = b.const(n, n), b.const(n, n), b.const(n, 4)
    s = b.add(b.dot(a, (n, n), "%y", (n, 4)), bias, (n, 4))
    out = b.dot(c, (n, n), s, (n, 4))
    text = b.function("left", [("%y", (n, 4))], [(out, (n, 4))])
    before, after, remarks = simplified(text, pipeline=REASSOCIATE)
    assert op_count(after, "graph.dot") == 1
    assert flops(after) == 2 * n * n * 4 + n * 4
    assert remarks == ["reassociated 2-dot chain: 4.16 KFLOP -> 2.11 KFLOP (2 -> 1 run-time dots)"]


# ---- chains through row views (reshapes / transposes of the leading dims) --------------------


def _through_views(batch_varying_w2: bool = False) -> str:
    """x[8,2,16] -transpose-> [2,8,16] * bcast(W1) + b1 -reshape-> [16,32] * W2: the rows are
    regrouped twice between the dots, which is exact because W1, b1, W2 are row-invariant."""
    b = cases.Builder("f32", seed=9)
    w1 = b.const(16, 32)
    bw1 = b.op(f"graph.broadcast {w1} dims = [1, 2] : {b.t(16, 32)} -> {b.t(2, 16, 32)}")
    xt = b.op(f"graph.transpose %x perm = [1, 0, 2] : {b.t(8, 2, 16)} -> {b.t(2, 8, 16)}")
    h = b.add(b.dot(xt, (2, 8, 16), bw1, (2, 16, 32)), b.row_bias((2, 8, 32)), (2, 8, 32))
    flat = b.op(f"graph.reshape {h} : {b.t(2, 8, 32)} -> {b.t(16, 32)}")
    if batch_varying_w2:
        w2 = b.const(2, 32, 4)
        out = b.dot(b.op(f"graph.reshape {flat} : {b.t(16, 32)} -> {b.t(2, 8, 32)}"), (2, 8, 32), w2, (2, 32, 4))
        return b.function("views", [("%x", (8, 2, 16))], [(out, (2, 8, 4))])
    out = b.dot(flat, (16, 32), b.const(32, 4), (32, 4))
    return b.function("views", [("%x", (8, 2, 16))], [(out, (16, 4))])


def test_chain_through_row_views_folds_the_weights():
    before, after, remarks = simplified(_through_views(), pipeline=REASSOCIATE)
    assert op_count(after, "graph.dot") == 1
    assert flops(after) == 2 * 16 * 16 * 4 + 16 * 4
    assert remarks == ["reassociated 2-dot chain: 20.99 KFLOP -> 2.11 KFLOP (2 -> 1 run-time dots)"]


def test_batch_varying_weight_stops_the_chain_at_the_view():
    # W2 differs per batch: the rows of the two batches may not be mixed: nothing changes.
    # (The reshape pair folds only under canonicalize, which is not run here.)
    assert assert_unchanged(_through_views(batch_varying_w2=True)) == []


def test_transpose_between_dots_is_replayed_on_the_result():
    """y[2,8,16] * bcast(W1) -transpose-> [8,2,32] * bcast(W2): one dot on all 16 rows, then
    the row view (reshape back, transpose) is applied to the [.., 4] result."""
    b = cases.Builder("f32", seed=10)
    w1, w2 = b.const(16, 32), b.const(32, 4)
    bw1 = b.op(f"graph.broadcast {w1} dims = [1, 2] : {b.t(16, 32)} -> {b.t(2, 16, 32)}")
    bw2 = b.op(f"graph.broadcast {w2} dims = [1, 2] : {b.t(32, 4)} -> {b.t(8, 32, 4)}")
    d1 = b.dot("%y", (2, 8, 16), bw1, (2, 16, 32))
    t = b.op(f"graph.transpose {d1} perm = [1, 0, 2] : {b.t(2, 8, 32)} -> {b.t(8, 2, 32)}")
    out = b.dot(t, (8, 2, 32), bw2, (8, 32, 4))
    text = b.function("transposed", [("%y", (2, 8, 16))], [(out, (8, 2, 4))])
    _, after, _ = simplified(text, pipeline=REASSOCIATE)
    names = [op.name for op in after.walk() if op.name.startswith("graph.")]
    assert names == ["graph.reshape", "graph.dot", "graph.reshape", "graph.transpose"]


# ---- random chains: never wrong, never more FLOPs ------------------------------------------


def _random_chain(seed: int) -> str:
    """A random tree of 2-4 dots over constant and run-time matrices, some intermediate
    products followed by a constant bias add (a Linear layer)."""
    rng = np.random.default_rng(seed)
    b = cases.Builder("f64", seed=seed)
    dims = [int(d) for d in rng.choice([1, 2, 3, 5, 8, 16], size=int(rng.integers(3, 6)))]
    args: list[tuple[str, tuple[int, ...]]] = []
    items = []
    for i in range(len(dims) - 1):
        shape = (dims[i], dims[i + 1])
        if rng.random() < 0.6:
            items.append((b.const(*shape), shape))
        else:
            args.append((f"%a{i}", shape))
            items.append((f"%a{i}", shape))
    while len(items) > 1:
        k = int(rng.integers(0, len(items) - 1))
        (lhs, ls), (rhs, rs) = items[k], items[k + 1]
        shape = (ls[0], rs[1])
        value = b.dot(lhs, ls, rhs, rs)
        if rng.random() < 0.4:
            value = b.add(value, b.row_bias(shape) if rng.random() < 0.5 else b.const(*shape), shape)
        items[k:k + 2] = [(value, shape)]
    out, shape = items[0]
    return b.function("chain", args, [(out, shape)])


@pytest.mark.parametrize("seed", range(40))
def test_random_chains_keep_values_and_never_cost_more(seed):
    text = _random_chain(seed)
    before, after, _ = simplified(text, "f64")
    assert flops(after) <= flops(before)


# ---- concats of one value's blocks in another order -----------------------------------------

CANON_LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "graph" / "graph-canonicalize.mlir"


@pytest.mark.parametrize("name, gathers", [("permuted_blocks", 2), ("blocks_kept", 0)])
def test_permuted_blocks_compute_the_same_and_are_counted(name: str, gathers: int):
    """rotate_half and roll as one gather (x signs), on random and adversarial inputs (inf,
    NaN, signed zeros: multiplying by -1 is negation); the blocks that are no permutation stay."""
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting("graph-canonicalize", stats):
        after = assert_pass_preserves_semantics(lit_functions(CANON_LIT)[name], "graph-canonicalize")
    assert sum(op.name == "graph.gather" for op in after.walk()) == gathers
    counted = dict(stats.runs[0][1]).get("concats of permuted slices made one gather", 0) if stats.runs else 0
    assert counted == (2 if name == "permuted_blocks" else 1)


# ---- views: one-index gathers, slices of reshapes, unit-axis transposes -----------------------

VIEW_CASES = {  # lit function -> (statistic, count)
    "qkv_select": ("gathers at one constant index made slices", 3),
    "gather_one_index_inner_axis": ("gathers at one constant index made slices", 1),
    "slice_of_reshape_rows": ("slices moved above reshapes", 1),
    "unit_axes_transpose": ("gathers at one constant index made slices", 0),
}


@pytest.mark.parametrize("name", sorted(VIEW_CASES))
def test_views_compute_the_same_and_are_counted(name: str):
    """Each rewrite keeps the values on random and adversarial inputs (inf, NaN, signed zeros:
    views move elements only), leaves no gather and no transpose of unit axes, and is counted."""
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting("graph-canonicalize", stats):
        after = assert_pass_preserves_semantics(lit_functions(CANON_LIT)[name], "graph-canonicalize")
    assert not any(op.name == "graph.gather" for op in after.walk())
    transposes = [op for op in after.walk() if op.name == "graph.transpose"]
    assert len(transposes) == (1 if name == "unit_axes_transpose" else 0)
    statistic, count = VIEW_CASES[name]
    assert dict(stats.runs[0][1]).get(statistic, 0) == count if stats.runs else count == 0
    if name == "qkv_select":
        assert dict(stats.runs[0][1])["slices moved above reshapes"] == 6


@pytest.mark.parametrize("index, expected", [(4, None), (-5, None), (-4, 0), (3, 3)])
def test_a_constant_index_out_of_range_stays_a_gather(index: int, expected):
    """ONNX leaves an index outside [-4, 4) undefined for 4 rows: the gather keeps it."""
    from fusionopt.transforms.graph.gather_at_constant_index import constant_scalar_index

    text = f"""
    func.func @g(%x: tensor<4x6xf32>) -> tensor<6xf32> {{
      %i = arith.constant dense<{index}> : tensor<i64>
      %g = graph.gather %x, %i axis = 0 : (tensor<4x6xf32>, tensor<i64>) -> tensor<6xf32>
      func.return %g : tensor<6xf32>
    }}"""
    gather = next(op for op in parse_module(text).walk() if op.name == "graph.gather")
    assert constant_scalar_index(gather) == expected
    after = apply_pipeline(text, "graph-canonicalize")  # out of range: no interpreter run
    assert any(op.name == "graph.gather" for op in after.walk()) == (expected is None)


def test_an_index_that_is_no_constant_stays_a_gather():
    text = """
    func.func @g(%x: tensor<4x6xf32>, %i: tensor<i64>) -> tensor<6xf32> {
      %g = graph.gather %x, %i axis = 0 : (tensor<4x6xf32>, tensor<i64>) -> tensor<6xf32>
      func.return %g : tensor<6xf32>
    }"""
    after = apply_pipeline(text, "graph-canonicalize")  # any runtime index: no interpreter run
    assert [op.name for op in after.walk() if op.name.startswith("graph.")] == ["graph.gather"]
