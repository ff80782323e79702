"""A decoder's linalg at a symbolic sequence length, as torch-mlir writes it
(test/data/decoder_dynamic_rows.mlir: `tm_tensor.scan` position ids, RMSNorm's keepdim
reduction and asserted reciprocal, a projection), through `dispatch-creation-llvm-cpu`: the
pipeline's output computes what the input does at several lengths (our interpreter, random and
adversarial rows), and IREE builds it and agrees at lengths it was not specialised to; through
`dispatch-creation-cuda` IREE builds it for sm_80 (no GPU needed to build)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import shutil

from fusionopt.iree_tools import COMPILE, compile_vmfb, cpu_flags, cuda_flags, iree_available, run_vmfb
from fusionopt.ir_io import print_module
from fusionopt.testing import apply_pipeline, parse_module, run_module

SOURCE = Path(__file__).resolve().parents[1] / "data" / "decoder_dynamic_rows.mlir"
PIPELINE = "dispatch-creation-llvm-cpu"


@pytest.fixture(scope="module")
def programs():
    text = SOURCE.read_text()
    return parse_module(text), apply_pipeline(text, PIPELINE)


def _inputs(seq: int, family: str, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    mask = np.ones((1, seq), np.int64)
    mask[0, seq // 2:] = 0  # a padded tail: the running count stops
    x = rng.standard_normal((1, seq, 64))
    if family == "offset":
        x = 1000.0 + x  # a large common offset: the squares' sum stays exact enough in f32
    elif family == "zeros":
        x = np.zeros_like(x)  # the mean square 0: rsqrt of eps alone
    elif family == "constant":
        x = np.full_like(x, -2.5)
    w = 0.1 * rng.standard_normal((1, 64, 48))
    return [mask, x.astype(np.float32), w.astype(np.float32)]


def test_regions_formed_and_keepdim_reduction_folded(programs):
    text = print_module(programs[1])
    assert text.count("flow.dispatch.region") >= 2
    # IREE cannot build a reduction whose output map is constant-0 (reading through one builds)
    assert 'affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]' not in text
    assert 'affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]' in text
    assert "tm_tensor.scan" in text
    assert "cf.assert" not in text  # IREE's kernels drop payload asserts; so does the pipeline


@pytest.mark.parametrize("family", ["random", "offset", "zeros", "constant"])
@pytest.mark.parametrize("seq", [1, 5, 17])
def test_pipeline_computes_the_input_program(programs, seq: int, family: str):
    before, after = programs
    inputs = _inputs(seq, family)
    want, got = run_module(before, inputs), run_module(after, inputs)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[0][0], np.cumsum(inputs[0][0]))
    assert got[1].shape == (1, seq, 48)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-5 * np.max(np.abs(want[1])))


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime is not installed")
def test_iree_builds_and_agrees_at_any_length(programs, tmp_path: Path):
    source = tmp_path / "dyn.mlir"
    source.write_text(print_module(programs[1]))
    vmfb = compile_vmfb(source, tmp_path / "dyn.vmfb", cpu_flags("host"))
    for seq in (3, 64):
        inputs = _inputs(seq, "random", seed=seq)
        ours = run_module(programs[1], inputs)
        iree = run_vmfb(vmfb, inputs, "main")
        np.testing.assert_array_equal(iree[0], ours[0])
        assert iree[1].shape == (1, seq, 48)
        np.testing.assert_allclose(iree[1], ours[1], rtol=1e-4, atol=1e-5 * np.max(np.abs(ours[1])))


@pytest.mark.skipif(shutil.which(COMPILE) is None, reason="iree-compile is not installed")
def test_cuda_pipeline_builds_for_sm80(tmp_path: Path):
    """The RMSNorm region (reduction over dynamic rows, then the reciprocal whose payload
    asserts) fails sm_80's codegen with the assert in ("Cannot set layouts on a dynamically
    shaped iteration space"); the pipeline drops it and the module builds."""
    source = tmp_path / "dyn_cuda.mlir"
    source.write_text(print_module(apply_pipeline(SOURCE.read_text(), "dispatch-creation-cuda")))
    vmfb = compile_vmfb(source, tmp_path / "dyn_cuda.vmfb", cuda_flags("sm_80"))
    assert vmfb.stat().st_size > 0
