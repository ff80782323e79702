"""ONNX DFT as a contraction with a constant cos/sin matrix (fusionopt/importers/
onnx_ops_spectral.py): single nodes against onnxruntime (graph level and lowered), the matrix
against numpy's FFT in float64, and FNet's token mixing built by IREE from the CPU pipelines
against a float64 FFT on adversarial inputs."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.importers.onnx_ops_spectral import dft_matrix, half_spectrum_matrix
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import run_vmfb
from fusionopt.registry import iree_flags_of
from fusionopt.testing import apply_pipeline, run_module
from support.iree_pairs import build_llvm_cpu
from support.onnx_family_runs import CPU_PIPELINES, adversarial_signals
from support.onnx_single_node import check, make_model
from support.spectral_onnx_models import autocorrelation, fourier_mixing

pytest.importorskip("onnxruntime")
rng = np.random.default_rng(0)
COMPLEX = rng.standard_normal((2, 6, 5, 2)).astype(np.float32)
REAL = rng.standard_normal((2, 7, 1)).astype(np.float32)
HALF = rng.standard_normal((2, 4, 5, 2)).astype(np.float32)  # 4 bins of a Hermitian spectrum


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


@pytest.mark.parametrize("length", [1, 2, 7, 8, 96])
def test_half_spectrum_matrix_is_numpys_irfft_in_float64(length):
    """Imaginary parts in every bin, the first's and the middle one's included: irfft ignores them."""
    bins = length // 2 + 1
    spectrum = rng.standard_normal((3, bins, 2))
    got = spectrum.reshape(3, -1) @ half_spectrum_matrix(length)
    want = np.fft.irfft(as_complex(spectrum), n=length, axis=1)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * length)


@pytest.mark.parametrize("length", [None, 6, 7, 9], ids=["default", "even", "odd", "zero-padded"])
def test_half_spectrum_inverse_matches_onnxruntime(length):
    """torch's irfft as its exporter writes it: inverse and onesided over the N // 2 + 1 bins."""
    const = {} if length is None else {"n": np.array(length, np.int64)}
    order = ["x"] if length is None else ["x", "n"]
    check(make_model("DFT", {"x": HALF}, const, opset=17, axis=1, inverse=1, onesided=1, order=order), {"x": HALF})


def test_half_spectrum_inverse_truncated_is_numpys_irfft():
    """More bins than N // 2 + 1: numpy's and torch's irfft read the first N // 2 + 1
    (onnxruntime reads them all, but torch's exporter slices the spectrum first)."""
    model = make_model("DFT", {"x": HALF}, {"n": np.array(3, np.int64)}, opset=17, axis=1, inverse=1,
                       onesided=1, order=["x", "n"])
    (got,) = run_module(import_onnx(model), [HALF])
    want = np.fft.irfft(as_complex(HALF.astype(np.float64)), n=3, axis=1)
    np.testing.assert_allclose(got[..., 0], want, rtol=0, atol=1e-6)


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


def autocorrelation_in_float64(x: np.ndarray) -> np.ndarray:
    spectrum = np.fft.rfft(x.astype(np.float64), axis=1)
    return np.fft.irfft(spectrum * np.conj(spectrum), n=x.shape[1], axis=1)


def assert_iree_build_matches(model, reference, signals, tolerance: float, pipeline: str, tmp_path) -> None:
    """`model` through `pipeline`, built by IREE: within `tolerance` of the float64 outputs'
    magnitude on every signal."""
    formed = print_module(apply_pipeline(print_module(import_onnx(model)), pipeline))
    vmfb = build_llvm_cpu({"model": formed}, tmp_path, iree_flags_of(pipeline))["model"]
    for family, signal in signals.items():
        x = signal.astype(np.float32)
        got = run_vmfb(vmfb, [x], "main_graph")[0]
        want = reference(x)
        scale = max(float(np.abs(want).max()), 1.0)
        assert np.isfinite(got).all(), family
        assert float(np.abs(got - want).max()) <= tolerance * scale, family


@pytest.mark.parametrize("pipeline", CPU_PIPELINES)
def test_fourier_mixing_built_by_iree_matches_a_float64_fft(pipeline, tmp_path):
    """Within 2e-6 of the outputs' magnitude: the error of a contraction of 2N terms."""
    seq, hidden = 16, 24
    assert_iree_build_matches(fourier_mixing(seq, hidden), fnet_mixing_in_float64,
                              adversarial_signals((1, seq, hidden), 1e30), 2e-6, pipeline, tmp_path)


@pytest.mark.parametrize("pipeline", CPU_PIPELINES)
def test_autocorrelation_built_by_iree_matches_a_float64_irfft(pipeline, tmp_path):
    """Autoformer's rfft -> power -> irfft: two contractions, the second over the squares of the
    first's results (extremes scaled to 1e15 so the squares stay finite in f32)."""
    steps, channels = 24, 8
    assert_iree_build_matches(autocorrelation(steps, channels), autocorrelation_in_float64,
                              adversarial_signals((1, steps, channels), 1e15), 4e-6, pipeline, tmp_path)
