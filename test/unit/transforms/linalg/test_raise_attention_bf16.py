"""`linalg-raise-attention` on bf16 attention (the lit case `onnx_bf16_mixed`: f32 accumulators
and casts as our ONNX importer writes it): raised as f16 is, bf16 operands and result with an f32
score region (IREE's op accumulates bf16 in f32), counted; the decomposed and the raised program
agree with a float64 run of the decomposed one within four bf16 roundings (bf16 has 8 significant
bits: 2^-8 relative each); a finite mask beyond f16's range keeps its value (the mask clamp is
bf16's, f32's range); IREE builds the raised op for CUDA sm_80 (no GPU needed) and for llvm-cpu,
where its result agrees with our interpreter."""

from __future__ import annotations

import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from fusionopt import pass_statistics
from fusionopt.interpreter import run_function
from fusionopt.iree_tools import compile_vmfb, cpu_flags, iree_available, run_vmfb
from fusionopt.ir_io import print_module
from fusionopt.testing import apply_pipeline, parse_module, run_module
from support.f16_checks import assert_builds_for_cuda
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "linalg" / "linalg-raise-attention.mlir"
CASE = "onnx_bf16_mixed"
BF16 = np.dtype(ml_dtypes.bfloat16)
BF16_TOL = 4 * 2.0**-8
# masks over the 4 keys: none; -inf, an f16-lowest-like value and a fraction; two keys beyond
# f16's range 896 apart (one of them wins the softmax outright), the others masked
MASKS = {"zeros": [0.0, 0.0, 0.0, 0.0], "mixed": [0.0, -np.inf, 0.5, -60000.0],
         "beyond_f16": [17024.0, 17920.0, -np.inf, -np.inf]}


def _case() -> str:
    return lit_functions(LIT)[CASE]


def _inputs(seed: int, mask: str) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((1, 2, 4, 8)).astype(BF16) for _ in range(3))
    return [q, k, v, np.array(MASKS[mask], BF16).reshape(1, 1, 1, 4)]


def test_raised_region_scores_in_f32_and_counted():
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting("linalg-raise-attention", stats):
        after = apply_pipeline(_case(), "linalg-raise-attention")
    attention = next(op for op in after.walk() if op.name == "iree_linalg_ext.attention")
    assert str(attention.regions[0].block.args[0].type) == "f32"
    assert str(attention.result.type) == "tensor<4x2x8xbf16>"
    assert "math.exp" not in print_module(after)
    counters = dict(stats.runs[0][1])
    assert counters.get("attentions raised") == counters.get("f16/bf16 attentions raised (scores in f32)") == 1


@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decomposed_and_raised_agree_with_float64(seed: int, mask: str):
    before = parse_module(_case())
    after = apply_pipeline(_case(), "linalg-raise-attention")
    inputs = _inputs(seed, mask)
    reference = run_function(before, inputs, float64=True)[0]
    scale = np.max(np.abs(reference))
    for program in (before, after):
        result = run_module(program, inputs)[0]
        assert result.dtype == BF16
        assert np.max(np.abs(result.astype(np.float64) - reference)) <= BF16_TOL * scale
    if mask == "beyond_f16":  # the second key wins outright: the output is its V row
        expected = inputs[2].astype(np.float64)[0, :, 1, :]  # heads x dim
        assert np.array_equal(run_module(after, inputs)[0].astype(np.float64)[0, 0], expected)


@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="iree-compile is not installed")
def test_raised_bf16_builds_for_cuda(tmp_path: Path):
    assert_builds_for_cuda(apply_pipeline(_case(), "linalg-raise-attention"), tmp_path, "att.bf16.cuda")


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime is not installed")
def test_iree_llvm_cpu_agrees_with_our_interpreter(tmp_path: Path):
    after = apply_pipeline(_case(), "linalg-raise-attention")
    src = tmp_path / "att.mlir"
    src.write_text(print_module(after))
    vmfb = compile_vmfb(src, tmp_path / "att.vmfb", cpu_flags("host"))
    for mask in MASKS:
        inputs = _inputs(3, mask)
        ours = run_module(after, inputs)[0].astype(np.float64)
        iree = run_vmfb(vmfb, inputs, CASE)[0].astype(np.float64)
        assert np.max(np.abs(iree - ours)) <= 2 * 2.0**-8 * np.max(np.abs(ours)), mask
