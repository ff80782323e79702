"""ONNX DFT as a contraction with a constant cos/sin matrix (fusionopt/importers/
onnx_ops_spectral.py): single nodes against onnxruntime (graph level and lowered), the matrix
against numpy's FFT in float64, and FNet's token mixing built by IREE from the CPU pipelines
against a float64 FFT on adversarial inputs."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.importers.onnx_ops_spectral import dft_matrix
from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import run_vmfb
from fusionopt.registry import iree_flags_of
from fusionopt.testing import apply_pipeline
from support.iree_pairs import build_llvm_cpu
from support.onnx_family_runs import CPU_PIPELINES
from support.onnx_single_node import check, make_model
from support.spectral_onnx_models import fourier_mixing

pytest.importorskip("onnxruntime")
rng = np.random.default_rng(0)
COMPLEX = rng.standard_normal((2, 6, 5, 2)).astype(np.float32)
REAL = rng.standard_normal((2, 7, 1)).astype(np.float32)


def as_complex(x: np.ndarray) -> np.ndarray:
    return x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0].astype(np.complex128)


@pytest.mark.parametrize("length,inverse,onesided,parts", [
    (8, False, False, 2), (7, True, False, 2), (12, False, True, 1), (1, False, False, 1), (768, False, False, 2)])
def test_matrix_is_numpys_transform_in_float64(length, inverse, onesided, parts):
    signal = rng.standard_normal((3, length, parts))
    bins = length // 2 + 1 if onesided else length
    got = (signal.reshape(3, -1) @ dft_matrix(length, parts, bins, inverse)).reshape(3, bins, 2)
    transform = np.fft.ifft if inverse else np.fft.fft
    want = transform(as_complex(signal), axis=1)[:, :bins]
    np.testing.assert_allclose(got[..., 0] + 1j * got[..., 1], want, rtol=0, atol=1e-12 * length)


@pytest.mark.parametrize("attrs", [{"axis": 1}, {"axis": 2}, {"axis": 2, "inverse": 1}, {"axis": -2}],
                         ids=["axis1", "axis2", "inverse", "negative-axis"])
def test_complex_signal_matches_onnxruntime(attrs):
    check(make_model("DFT", {"x": COMPLEX}, {}, opset=17, **attrs), {"x": COMPLEX})


def test_real_signal_onesided_matches_onnxruntime():
    check(make_model("DFT", {"x": REAL}, {}, opset=17, axis=1, onesided=1), {"x": REAL})


@pytest.mark.parametrize("length", [4, 7, 10], ids=["truncated", "same", "zero-padded"])
def test_dft_length_truncates_or_pads(length):
    model = make_model("DFT", {"x": REAL}, {"n": np.array(length, np.int64)}, opset=17, axis=1, order=["x", "n"])
    check(model, {"x": REAL})


def test_opset_20_takes_the_axis_as_an_input():
    model = make_model("DFT", {"x": COMPLEX}, {"a": np.array(2, np.int64)}, opset=20, order=["x", "", "a"])
    check(model, {"x": COMPLEX})


@pytest.mark.parametrize("attrs,message", [({"axis": 3}, "axis"), ({"axis": 1, "onesided": 1}, "real input")])
def test_impossible_transforms_are_refused(attrs, message):
    with pytest.raises(Exception, match=message):
        import_onnx(make_model("DFT", {"x": COMPLEX}, {}, opset=17, **attrs))


def fnet_mixing_in_float64(x: np.ndarray) -> np.ndarray:
    return x + np.fft.fftn(x.astype(np.float64), axes=(1, 2)).real


@pytest.mark.parametrize("pipeline", CPU_PIPELINES)
def test_fourier_mixing_built_by_iree_matches_a_float64_fft(pipeline, tmp_path):
    """Every input family (large offsets, constant rows, zeros, extremes scaled into range):
    within 2e-6 of the outputs' magnitude, the error of a contraction of 2N terms."""
    seq, hidden = 16, 24
    module = print_module(import_onnx(fourier_mixing(seq, hidden)))
    formed = print_module(apply_pipeline(module, pipeline))
    vmfb = build_llvm_cpu({"mixing": formed}, tmp_path, iree_flags_of(pipeline))["mixing"]
    family_rng = np.random.default_rng(1)
    signals = {"random": family_rng.standard_normal((1, seq, hidden)),
               "offset": 1000.0 + family_rng.standard_normal((1, seq, hidden)),
               "constant": np.full((1, seq, hidden), 3.5), "zeros": np.zeros((1, seq, hidden)),
               "extreme": 1e30 * family_rng.standard_normal((1, seq, hidden))}
    assert set(signals) <= set(FAMILIES) | {"constant"}
    for family, signal in signals.items():
        x = signal.astype(np.float32)
        got = run_vmfb(vmfb, [x], "main_graph")[0]
        want = fnet_mixing_in_float64(x)
        scale = max(float(np.abs(want).max()), 1.0)
        assert np.isfinite(got).all(), family
        assert float(np.abs(got - want).max()) <= 2e-6 * scale, family
