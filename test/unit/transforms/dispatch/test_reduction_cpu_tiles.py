"""`dispatch-reduction-cpu-tiles`: the CPU pipelines give a softmax's row reductions over rows
16 does not divide (ViT's 197 keys) whole-row vector tiles and ask for IREE's reassociation of
float reductions; the CUDA ones do neither. IREE builds the softmax and a layer norm that way
and both agree with a float64 run of the input program on random and adversarial rows
(constant, a large common offset, zeros, values near the f32 limits, -inf masks, a row all
-inf) at least as closely as IREE's ordered build does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt import registry
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import compile_vmfb, iree_available, run_vmfb, target_flags
from fusionopt.testing import apply_pipeline
from support.cpu_pipeline_cases import CPU, runs_on_cpu_only, without_pass
from support.iree_pairs import assert_agrees

PASS = "dispatch-reduction-cpu-tiles"
FLAG = "--iree-llvmcpu-reassociate-fp-reductions=true"
HEADS, ROWS = 2, 197
MAP3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
ROW3 = "affine_map<(d0, d1, d2) -> (d0, d1)>"


def _generic(iterators: str, maps: str, ins: str, outs: str, body: str, result: str) -> str:
    return (f"linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}} ins({ins}) outs({outs}) {{\n"
            f"    {body}\n  }} -> {result}")


def softmax_function(n: int = ROWS) -> str:
    """torch-mlir's decomposed softmax over the last dim of a [HEADS, n, n] tensor."""
    full, rows = f"tensor<{HEADS}x{n}x{n}xf32>", f"tensor<{HEADS}x{n}xf32>"
    red, par = '"parallel", "parallel", "reduction"', '"parallel", "parallel", "parallel"'
    reduce = lambda name, init, op: (  # noqa: E731
        f"  %{name} = " + _generic(red, f"{MAP3}, {ROW3}", f"%{init} : {full}", f"%{name}0 : {rows}",
                                   f"^bb0(%a: f32, %acc: f32):\n      %r = arith.{op} %acc, %a : f32\n      linalg.yield %r : f32", rows))
    broadcast = lambda name, src, row, body: (  # noqa: E731
        f"  %{name} = " + _generic(par, f"{MAP3}, {ROW3}, {MAP3}", f"%{src}, %{row} : {full}, {rows}", f"%e : {full}",
                                   f"^bb0(%a: f32, %m: f32, %o: f32):\n      {body}", full))
    return "\n".join([
        f"func.func @main(%x: {full}) -> {full} {{",
        "  %ninf = arith.constant 0xFF800000 : f32", "  %zero = arith.constant 0.0 : f32",
        f"  %er = tensor.empty() : {rows}", f"  %e = tensor.empty() : {full}",
        f"  %max0 = linalg.fill ins(%ninf : f32) outs(%er : {rows}) -> {rows}",
        f"  %sum0 = linalg.fill ins(%zero : f32) outs(%er : {rows}) -> {rows}",
        reduce("max", "x", "maximumf"),
        broadcast("exp", "x", "max", "%d = arith.subf %a, %m : f32\n      %y = math.exp %d : f32\n      linalg.yield %y : f32"),
        reduce("sum", "exp", "addf"),
        broadcast("out", "exp", "sum", "%y = arith.divf %a, %m : f32\n      linalg.yield %y : f32"),
        f"  return %out : {full}", "}"])


def layer_norm_function(width: int = 384) -> str:
    """A two-pass layer norm (mean, then the mean of squared deviations) over rows of `width`."""
    full, rows = f"tensor<{HEADS}x{ROWS}x{width}xf32>", f"tensor<{HEADS}x{ROWS}xf32>"
    red, par = '"parallel", "parallel", "reduction"', '"parallel", "parallel", "parallel"'
    n = f"{float(width):e}"
    sum_of = lambda name, src, square: (  # noqa: E731
        f"  %{name} = " + _generic(red, f"{MAP3}, {ROW3}", f"%{src} : {full}", f"%zeros : {rows}",
                                   "^bb0(%a: f32, %acc: f32):\n      " + ("%s = arith.mulf %a, %a : f32\n      %r = arith.addf %acc, %s : f32"
                                                                          if square else "%r = arith.addf %acc, %a : f32")
                                   + "\n      linalg.yield %r : f32", rows))
    scaled = lambda name, src, row, body: (  # noqa: E731
        f"  %{name} = " + _generic(par, f"{MAP3}, {ROW3}, {MAP3}", f"%{src}, %{row} : {full}, {rows}", f"%e : {full}",
                                   f"^bb0(%a: f32, %m: f32, %o: f32):\n      %n = arith.constant {n} : f32\n      {body}", full))
    return "\n".join([
        f"func.func @main(%x: {full}) -> {full} {{",
        "  %zero = arith.constant 0.0 : f32", f"  %er = tensor.empty() : {rows}", f"  %e = tensor.empty() : {full}",
        f"  %zeros = linalg.fill ins(%zero : f32) outs(%er : {rows}) -> {rows}",
        sum_of("sum", "x", False),
        scaled("centred", "x", "sum", "%mean = arith.divf %m, %n : f32\n      %y = arith.subf %a, %mean : f32\n      linalg.yield %y : f32"),
        sum_of("squares", "centred", True),
        scaled("out", "centred", "squares", "%v = arith.divf %m, %n : f32\n      %eps = arith.constant 1.0e-06 : f32\n"
               "      %ve = arith.addf %v, %eps : f32\n      %r = math.rsqrt %ve : f32\n      %y = arith.mulf %a, %r : f32\n"
               "      linalg.yield %y : f32"),
        f"  return %out : {full}", "}"])


def layer_norm64(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + 1e-6)


def softmax64(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def adversarial_rows(rng: np.random.Generator, shape: tuple[int, ...]) -> dict[str, np.ndarray]:
    masked = rng.standard_normal(shape)
    masked[rng.random(shape) < 0.3] = -np.inf
    masked[0, 0, :] = -np.inf  # a row all -inf: NaN in the input program too
    limits = rng.choice([-3e38, 3e38, 1e38, 0.0], size=shape)
    constant = np.broadcast_to(rng.standard_normal(shape[:-1] + (1,)), shape)
    return {"random": 3 * rng.standard_normal(shape), "constant": constant, "offset": 1e4 + rng.standard_normal(shape),
            "zeros": np.zeros(shape), "limits": limits, "masked": masked}


def configured(module) -> int:
    return sum(op.name == "linalg.generic" and "compilation_info" in op.attributes for op in module.walk())


def flags_of(pipeline: str) -> list[str]:
    return registry.iree_flags_of(pipeline)


def test_the_cpu_pipelines_configure_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


def test_the_cpu_pipelines_ask_for_reassociation_and_the_others_for_nothing():
    """(and, after it, for no constants cloned back into regions: dispatch-hoist-dense-constants;
    in the graph pipelines before it, for f64 kept f64: convert-graph-to-linalg's wide means,
    off in the CUDA pipeline)"""
    no_inlining = "--iree-flow-inline-constants-max-byte-length=0"
    wide = "--iree-input-demote-f64-to-f32=false"
    assert flags_of(CPU) == [FLAG, no_inlining]
    assert flags_of("graph-to-dispatch-llvm-cpu-fewest") == [wide, FLAG, no_inlining]
    assert flags_of("dispatch-creation") == [] and flags_of("graph-to-dispatch-cuda") == []


@pytest.mark.parametrize(("rows", "expected"), [(ROWS, 2), (64, 0), (600, 0)])
def test_both_softmax_reductions_get_whole_rows_where_16_does_not_divide_them(rows: int, expected: int):
    assert configured(apply_pipeline(softmax_function(rows), CPU)) == expected
    assert configured(apply_pipeline(softmax_function(rows), without_pass(CPU, PASS))) == 0


def build_reassociated_and_ordered(text: str, folder: Path) -> dict[str, Path]:
    """The CPU pipeline's module built with its flags, and without the pass or the flags."""
    builds = {"reassociated": (apply_pipeline(text, CPU), flags_of(CPU)),
              "ordered": (apply_pipeline(text, without_pass(CPU, PASS)), [])}
    vmfbs = {}
    for name, (module, flags) in builds.items():
        (folder / f"{name}.mlir").write_text(print_module(module))
        vmfbs[name] = compile_vmfb(folder / f"{name}.mlir", folder / f"{name}.vmfb", target_flags("llvm-cpu") + flags)
    return vmfbs


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
@pytest.mark.parametrize(("function", "reference", "width"), [(softmax_function, softmax64, ROWS),
                                                               (layer_norm_function, layer_norm64, 384)],
                         ids=["softmax", "layer_norm"])
def test_iree_builds_both_ways_and_reassociated_is_as_close_to_float64(function, reference, width: int, tmp_path: Path):
    """Softmax rows agree within 2e-5 both ways. A layer norm of constant or offset rows is
    0 or O(1) from a mean that f32 rounds, which 1/sqrt(eps) amplifies: the ordered build is
    off by ~1e-2 there, the reassociated one must be no further off."""
    vmfbs = build_reassociated_and_ordered(function(), tmp_path)
    families = adversarial_rows(np.random.default_rng(0), (HEADS, ROWS, width))
    if function is layer_norm_function:  # rows near the f32 limits overflow the sum of squares in float64 too
        del families["limits"], families["masked"]
    for family, x in families.items():
        x = np.ascontiguousarray(x, dtype=np.float32)
        expected = reference(x)
        errors = {}
        for name, vmfb in vmfbs.items():
            [got] = run_vmfb(vmfb, [x], "main")
            if function is softmax_function or family in ("random", "zeros"):
                assert_agrees(got.astype(np.float64), expected, f"{family} ({name})", rtol=2e-5)
            finite = np.isfinite(expected)
            errors[name] = float(np.abs(got[finite] - expected[finite]).max(initial=0.0))
        assert errors["reassociated"] <= 1.5 * errors["ordered"] + 1e-6, (family, errors)
