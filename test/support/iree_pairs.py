"""IREE builds of a module before and after a rewrite, and their outputs compared: the shared
steps of the tests that check IREE computes a rewritten module's values."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fusionopt.iree_tools import compile_vmfb, target_flags


def build_llvm_cpu(sources: dict[str, str], folder: Path) -> dict[str, Path]:
    """name -> vmfb of each module text, built for llvm-cpu in `folder`."""
    vmfbs = {}
    for name, text in sources.items():
        (folder / f"{name}.mlir").write_text(text)
        vmfbs[name] = compile_vmfb(folder / f"{name}.mlir", folder / f"{name}.vmfb", target_flags("llvm-cpu"))
    return vmfbs


def assert_agrees(got: np.ndarray, expected: np.ndarray, family: str, rtol: float = 1e-5) -> None:
    """Same NaNs and infinities; finite values within `rtol` (and 1e-6 of the largest)."""
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=family)
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(got[~finite], expected[~finite], err_msg=family)
    scale = float(np.abs(expected[finite]).max(initial=0.0))
    np.testing.assert_allclose(got[finite], expected[finite], rtol=rtol, atol=1e-6 * scale, err_msg=family)
