"""`linalg-raise-attention` on f16 attention (the lit cases `bert_like_f16`, f16 throughout, and
`onnx_f16_mixed`, f32 accumulators and casts as our ONNX importer writes it): the raised op's score
region is f32, as IREE expects for f16 operands (an f16 region fails to build for CUDA), our
interpreter of the op accumulates in f32 as IREE does, and both the decomposed and the raised
program agree with a float64 run of the decomposed one; IREE builds the raised op for CUDA
sm_80 (no GPU needed) and for llvm-cpu, where its result agrees with our interpreter."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from fusionopt import pass_statistics
from fusionopt.interpreter import run_function
from fusionopt.iree_tools import compile_vmfb, cpu_flags, iree_available, run_vmfb
from fusionopt.ir_io import print_module
from fusionopt.testing import apply_pipeline, parse_module, run_module
from support.f16_checks import F16_TOL, assert_builds_for_cuda, assert_f16_within_float64
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "linalg" / "linalg-raise-attention.mlir"
CASES = ("bert_like_f16", "onnx_f16_mixed", "onnx_f16_isnan_guarded")
GUARDED = "onnx_f16_isnan_guarded"
NEGATIVE = "f16_rounded_products"
# f16 has an 11-bit significand: each of the decomposed form's roundings (scores, scaled and
# masked scores, exponentials, probabilities, output) costs up to 2^-11 relative; the raised op
# rounds fewer times. Both must stay within a few f16 ulps of the float64 result.


def _case(name: str) -> str:
    return lit_functions(LIT)[name]


def _inputs(name: str, seed: int, masked: bool) -> list[np.ndarray]:
    """N(0, 1) Q, K, V; the last argument, the mask over 4 keys: zeros, or 0, -inf, 0.5, -60000."""
    rng = np.random.default_rng(seed)
    entry = next(op for op in parse_module(_case(name)).walk() if op.name == "func.func")
    shapes = [arg.type.get_shape() for arg in entry.args]
    q, k, v = (rng.standard_normal(shape).astype(np.float16) for shape in shapes[:3])
    mask = np.array([0.0, -np.inf, 0.5, -60000.0] if masked else [0.0, 0.0, 0.0, 0.0], np.float16)
    return [q, k, v, mask.reshape(shapes[3])]


@pytest.mark.parametrize("name", CASES)
def test_raised_region_scores_in_f32(name: str):
    after = apply_pipeline(_case(name), "linalg-raise-attention")
    attention = next(op for op in after.walk() if op.name == "iree_linalg_ext.attention")
    assert str(attention.regions[0].block.args[0].type) == "f32"
    assert str(attention.result.type) == "tensor<4x2x8xf16>"
    assert "math.exp" not in print_module(after)


@pytest.mark.parametrize("name", (*CASES, "bert_like"))
def test_raises_are_counted(name: str):
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting("linalg-raise-attention", stats):
        apply_pipeline(_case(name), "linalg-raise-attention")
    counters = dict(stats.runs[0][1]) if stats.runs else {}
    assert counters.get("attentions raised", 0) == 1
    narrow = 1 if name in CASES else 0
    assert counters.get("f16/bf16 attentions raised (scores in f32)", 0) == narrow


@pytest.mark.parametrize("poison", [None, np.inf, np.nan])
def test_guarded_fully_masked_rows_as_decomposed(poison):
    """Every key masked with -inf: torch's guard turns the NaN probabilities into zeros, so each
    output is 0 * V summed over the keys: 0, or NaN where V holds an inf or NaN. The raised
    program gives exactly that."""
    before = parse_module(_case(GUARDED))
    after = apply_pipeline(_case(GUARDED), "linalg-raise-attention")
    q, k, v, mask = _inputs(GUARDED, 4, masked=False)
    mask = np.full_like(mask, -np.inf)
    if poison is not None:
        v[0, 1, 2, 3] = poison  # head 1, key 2, dim 3
    expected = run_module(before, [q, k, v, mask])[0]
    result = run_module(after, [q, k, v, mask])[0]
    assert np.count_nonzero(np.isnan(expected)) == (0 if poison is None else 4)  # 4 queries
    np.testing.assert_array_equal(result, expected)


def test_guard_comparing_the_rounding_not_raised():
    after = apply_pipeline(_case("f16_guard_compares_rounding"), "linalg-raise-attention")
    assert "iree_linalg_ext.attention" not in print_module(after)


def test_rounded_products_not_raised():
    after = apply_pipeline(_case(NEGATIVE), "linalg-raise-attention")
    assert "iree_linalg_ext.attention" not in print_module(after)


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", CASES)
def test_decomposed_and_raised_agree_with_float64(name: str, seed: int, masked: bool):
    before = parse_module(_case(name))
    after = apply_pipeline(_case(name), "linalg-raise-attention")
    inputs = _inputs(name, seed, masked)
    assert_f16_within_float64(before, (before, after), inputs)


@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="iree-compile is not installed")
@pytest.mark.parametrize("name", CASES)
def test_raised_f16_builds_for_cuda(name: str, tmp_path: Path):
    assert_builds_for_cuda(apply_pipeline(_case(name), "linalg-raise-attention"), tmp_path, "att.cuda")


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime is not installed")
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("name", CASES)
def test_iree_llvm_cpu_agrees_with_our_interpreter(name: str, masked: bool, tmp_path: Path):
    after = apply_pipeline(_case(name), "linalg-raise-attention")
    src = tmp_path / "att.mlir"
    src.write_text(print_module(after))
    vmfb = compile_vmfb(src, tmp_path / "att.vmfb", cpu_flags("host"))
    inputs = _inputs(name, 3, masked)
    ours = run_module(after, inputs)[0].astype(np.float64)
    iree = run_vmfb(vmfb, inputs, name)[0].astype(np.float64)
    assert np.max(np.abs(iree - ours)) <= 2 * 2.0**-11 * np.max(np.abs(ours))


# The f16 Llama decode step's form (lit `onnx_f16_rounded_scores`): the scores reach the f32
# softmax through a copy that rounds them to f16; no mask. Input families: N(0, 1); a large
# common offset on Q and K (scores near 500, where f16's ulp is 0.5: the decomposed form's
# rounding of the scores costs whole units before the max is subtracted); constant Q and K
# (every row of scores constant: a uniform softmax).
DECODE = "onnx_f16_rounded_scores"
DECODE_FAMILIES = ("random", "offset", "constant")


def _decode_inputs(family: str, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal(shape) for shape in ((2, 1, 8), (2, 4, 8), (2, 4, 8)))
    if family == "offset":
        q, k = 8.0 + 0.1 * q, 8.0 + 0.1 * k
    elif family == "constant":
        q, k = np.full_like(q, 0.5), np.full_like(k, 0.5)
    return [t.astype(np.float16) for t in (q, k, v)]


def test_decode_rounded_scores_raised():
    after = apply_pipeline(_case(DECODE), "linalg-raise-attention")
    attention = next(op for op in after.walk() if op.name == "iree_linalg_ext.attention")
    assert str(attention.regions[0].block.args[0].type) == "f32"
    assert "math.exp" not in print_module(after)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("family", DECODE_FAMILIES)
def test_decode_raised_no_worse_than_decomposed(family: str, seed: int):
    """Against the float64 run of the decomposed program, the raised one is within a few f16
    ulps of the largest output or no worse than the decomposed one (whose f16 scores lose
    digits on `offset`, which the raised op's f32 scores keep)."""
    before = parse_module(_case(DECODE))
    after = apply_pipeline(_case(DECODE), "linalg-raise-attention")
    inputs = _decode_inputs(family, seed)
    reference = run_function(before, inputs, float64=True)[0]
    scale = np.max(np.abs(reference))

    def error(program) -> float:
        result = run_module(program, inputs)[0]
        assert result.dtype == np.float16 and np.all(np.isfinite(result))
        return float(np.max(np.abs(result.astype(np.float64) - reference)))

    assert error(after) <= max(F16_TOL * scale, error(before))
    if family == "constant":  # a uniform softmax: the mean of V's rows, to f16 rounding
        expected = np.mean(inputs[2].astype(np.float64), axis=1)  # heads x dim
        assert np.allclose(run_module(after, inputs)[0][0, 0], expected, atol=F16_TOL * scale)


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime is not installed")
def test_decode_raised_builds_and_agrees_on_llvm_cpu_and_builds_for_cuda(tmp_path: Path):
    after = apply_pipeline(_case(DECODE), "linalg-raise-attention")
    assert_builds_for_cuda(after, tmp_path, "decode.cuda")
    src = tmp_path / "decode.mlir"
    src.write_text(print_module(after))
    vmfb = compile_vmfb(src, tmp_path / "decode.vmfb", cpu_flags("host"))
    for family in DECODE_FAMILIES:
        inputs = _decode_inputs(family, 5)
        ours = run_module(after, inputs)[0].astype(np.float64)
        iree = run_vmfb(vmfb, inputs, DECODE)[0].astype(np.float64)
        assert np.max(np.abs(iree - ours)) <= 2 * 2.0**-11 * np.max(np.abs(ours)), family
