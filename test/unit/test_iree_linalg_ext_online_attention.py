"""`iree_linalg_ext.online_attention` in the interpreter against a plain numpy loop (one row at a
time, float64), on random and adversarial inputs (-inf masks, fully masked rows, large score
offsets, a running max far above the new scores); key blocks chained through it give softmax
attention; and IREE 3.13's own build agrees where its CPU code is exact."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from fusionopt import iree_tools
from fusionopt.interpreter import run_function
from fusionopt.ir_io import parse_module

LOG2E = 1.4426950408889634
MAPS = {
    "q": "(b, m, k1, k2, n) -> (b, m, k1)", "k": "(b, m, k1, k2, n) -> (b, k2, k1)",
    "v": "(b, m, k1, k2, n) -> (b, k2, n)", "s": "(b, m, k1, k2, n) -> ()",
    "mask": "(b, m, k1, k2, n) -> (b, m, k2)", "o": "(b, m, k1, k2, n) -> (b, m, n)",
    "r": "(b, m, k1, k2, n) -> (b, m)",
}


def program(B: int, M: int, K1: int, K2: int, N: int, mask: str | None, t: str = "f32") -> str:
    roles = ["q", "k", "v", "s"] + (["mask"] if mask else []) + ["o", "r", "r"]
    maps = ", ".join(f"affine_map<{MAPS[r]}>" for r in roles)
    qt, kt, vt = f"tensor<{B}x{M}x{K1}x{t}>", f"tensor<{B}x{K2}x{K1}x{t}>", f"tensor<{B}x{K2}x{N}x{t}>"
    ot, rt = f"tensor<{B}x{M}x{N}xf32>", f"tensor<{B}x{M}xf32>"
    mt = f"tensor<{B}x{M}x{K2}x{mask}>" if mask else ""
    ins = "%q, %k, %v, %scale" + (", %mask" if mask else "")
    in_types = f"{qt}, {kt}, {vt}, f32" + (f", {mt}" if mask else "")
    mask_arg = f", %mask: {mt}" if mask else ""
    return f"""
func.func @main(%q: {qt}, %k: {kt}, %v: {vt}, %scale: f32{mask_arg}, %acc: {ot}, %max: {rt}, %sum: {rt}) -> ({ot}, {rt}, {rt}) {{
  %r:3 = iree_linalg_ext.online_attention <indexing_maps = [{maps}]>
      ins({ins} : {in_types}) outs(%acc, %max, %sum : {ot}, {rt}, {rt}) {{
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  }} -> {ot}, {rt}, {rt}
  func.return %r#0, %r#1, %r#2 : {ot}, {rt}, {rt}
}}
"""


def reference(q, k, v, scale, mask, acc, old_max, old_sum):
    """One flash-attention step, written out row by row in float64 (exp2 form)."""
    B, M, _ = q.shape
    acc, new_max, new_sum = acc.astype(np.float64).copy(), old_max.astype(np.float64).copy(), old_sum.astype(np.float64).copy()
    with np.errstate(all="ignore"):
        for b in range(B):
            for m in range(M):
                s = np.array([np.dot(q[b, m].astype(np.float64) * scale * LOG2E, k[b, j].astype(np.float64)) for j in range(k.shape[1])])
                if mask is not None:
                    s = s + (np.where(mask[b, m], 0.0, -np.inf) if mask.dtype == bool else mask[b, m].astype(np.float64) * LOG2E)
                row_max = max(float(old_max[b, m]), float(np.max(s))) if not np.isnan(s).any() else np.nan
                norm = np.exp2(float(old_max[b, m]) - row_max)
                p = np.exp2(s - row_max)
                new_max[b, m] = row_max
                new_sum[b, m] = old_sum[b, m] * norm + p.sum()
                acc[b, m] = acc[b, m] * norm + p @ v[b].astype(np.float64)
    return acc, new_max, new_sum


def run(q, k, v, scale, mask, acc, mx, sm):
    B, M, K1 = q.shape
    K2, N = v.shape[1], v.shape[2]
    kind = None if mask is None else ("i1" if mask.dtype == bool else "f32")
    text = program(B, M, K1, K2, N, kind)
    inputs = [q, k, v, np.float32(scale)] + ([mask] if mask is not None else []) + [acc, mx, sm]
    return run_function(parse_module(text, "<online_attention>"), inputs)


def random_case(seed: int, B=2, M=3, K1=8, K2=6, N=4):
    rng = np.random.default_rng(seed)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    return f(B, M, K1), f(B, K2, K1), f(B, K2, N), f(B, M, N), f(B, M), np.abs(f(B, M))


def check(got, want):
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5, equal_nan=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_step_matches_loop_reference(seed: int):
    q, k, v, acc, mx, sm = random_case(seed)
    check(run(q, k, v, 0.35, None, acc, mx, sm), reference(q, k, v, 0.35, None, acc, mx, sm))


def test_boolean_mask_with_fully_masked_row():
    q, k, v, acc, mx, sm = random_case(3)
    mask = np.random.default_rng(3).random((2, 3, 6)) > 0.4
    mask[1, 2, :] = False  # every score -inf: the row keeps its max, adds nothing
    mask[0, 0, :] = True
    got = run(q, k, v, 0.5, mask, acc, mx, sm)
    check(got, reference(q, k, v, 0.5, mask, acc, mx, sm))
    np.testing.assert_array_equal(got[1][1, 2], mx[1, 2])


def test_float_mask_with_minus_infinity_and_nan_from_an_infinite_running_max():
    q, k, v, acc, mx, sm = random_case(4)
    mask = np.random.default_rng(4).standard_normal((2, 3, 6)).astype(np.float32)
    mask[0, 1, ::2] = -np.inf
    mx[1, 0] = -np.inf  # the first block of a row IREE did not seed: -inf - -inf is NaN
    mask[1, 0, :] = -np.inf
    got = run(q, k, v, 0.25, mask, acc, mx, sm)
    check(got, reference(q, k, v, 0.25, mask, acc, mx, sm))
    assert np.isnan(got[2][1, 0])


def test_large_score_offsets_and_a_running_max_far_above():
    q, k, v, acc, mx, sm = random_case(5)
    q = q * 300.0  # scores around 1e4: exp2 stays finite only because the max is subtracted
    mx[0] = 1e30  # the new block's weights underflow to 0 against this max
    got = run(q, k, v, 1.0, None, acc, mx, sm)
    check(got, reference(q, k, v, 1.0, None, acc, mx, sm))
    assert np.isfinite(got[0]).all()
    np.testing.assert_array_equal(got[0][0], acc[0])


def test_key_blocks_chained_give_softmax_attention():
    """The op's purpose: process keys in blocks, normalize once at the end."""
    q, k, v, _, _, _ = random_case(6, K2=8)
    mask = np.ones((2, 3, 8), bool)
    mask[:, 1, 5] = False
    acc = np.zeros((2, 3, 4), np.float32)
    mx = np.full((2, 3), np.finfo(np.float32).min, np.float32)  # IREE's seed: the lowest finite value
    sm = np.zeros((2, 3), np.float32)
    for block in (slice(0, 4), slice(4, 8)):
        acc, mx, sm = run(q, k[:, block], v[:, block], 0.4, mask[:, :, block], acc, mx, sm)
    scores = np.einsum("bmd,bkd->bmk", q.astype(np.float64), k.astype(np.float64)) * 0.4
    scores = np.where(mask, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    want = np.einsum("bmk,bkn->bmn", weights / weights.sum(-1, keepdims=True), v.astype(np.float64))
    np.testing.assert_allclose(acc / sm[..., None], want, rtol=1e-5, atol=1e-5)


def test_f16_inputs_accumulate_in_f32():
    q, k, v, acc, mx, sm = random_case(7)
    q16, k16, v16 = (x.astype(np.float16) for x in (q, k, v))
    text = program(2, 3, 8, 6, 4, None, t="f16")
    got = run_function(parse_module(text, "<f16>"), [q16, k16, v16, np.float32(0.5), acc, mx, sm])
    want = reference(q16, k16, v16, 0.5, None, acc, mx, sm)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=5e-3, atol=5e-3)


@pytest.mark.skipif(not iree_tools.iree_available(), reason="IREE (iree-compile, iree.runtime) is not installed")
@pytest.mark.parametrize("n", [1, 4])
def test_agrees_with_iree(n: int):
    """IREE 3.13's llvm-cpu build of a lone online_attention chains `sum` through its tiles of
    the n dim (it returns norm * sum + tiles * rowsum: measured, 5x the row sum at n = 5), so
    the sum is compared where n is one tile; acc and max always."""
    q, k, v, acc, mx, sm = random_case(8, N=n)
    mask = np.random.default_rng(8).random((2, 3, 6)) > 0.3
    text = program(2, 3, 8, 6, n, "i1")
    inputs = [q, k, v, np.float32(0.3), mask, acc, mx, sm]
    ours = run_function(parse_module(text, "<t>"), inputs)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "m.mlir"
        source.write_text(text)
        vmfb = iree_tools.compile_vmfb(source, Path(tmp) / "m.vmfb", iree_tools.cpu_flags("generic"))
        scalar_as_float = [float(x) if np.ndim(x) == 0 else x for x in inputs]  # IREE's f32 argument
        theirs = iree_tools.run_vmfb(vmfb, scalar_as_float, "main")
    compared = 3 if n == 1 else 2
    for got, want in zip(ours[:compared], theirs[:compared]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
