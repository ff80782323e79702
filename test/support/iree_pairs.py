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


def assert_agrees_on_images(ours: Path, reference: Path, function: str, shape: tuple[int, ...]) -> None:
    """`ours` computes what `reference` computes (`assert_agrees`) from one f32 image of `shape`,
    drawn from N(0, 1) (random) and from 1000.5 + N(0, 1) (offset: a large common offset)."""
    from fusionopt.iree_tools import run_vmfb

    rng = np.random.default_rng(1)
    families = {
        "random": rng.standard_normal(shape).astype(np.float32),
        "offset": (1000.5 + rng.standard_normal(shape)).astype(np.float32),
    }
    for family, image in families.items():
        assert_agrees(run_vmfb(ours, [image], function)[0], run_vmfb(reference, [image], function)[0], family)


def assert_bit_equal_on_families(ours_vmfb: Path, reference_vmfb: Path, text: str, function: str,
                                 families: tuple[str, ...] = ("random", "constant", "offset", "extreme")) -> None:
    """Every output of `ours_vmfb` equals `reference_vmfb`'s, bit for bit, on inputs of each
    family for the f32 arguments of `function` in the module `text`."""
    from fusionopt.interpreter.input_families import family_values
    from fusionopt.ir_io import parse_module
    from fusionopt.iree_tools import run_vmfb

    [func] = [op for op in parse_module(text).walk() if op.name == "func.func" and op.sym_name.data == function]
    for family in families:
        rng = np.random.default_rng(0)
        inputs = [np.asarray(family_values(arg.type.get_shape(), np.float32, family, rng, (0, 2)), np.float32)
                  for arg in func.body.block.args]
        got, want = run_vmfb(ours_vmfb, inputs, function), run_vmfb(reference_vmfb, inputs, function)
        for one, other in zip(got, want, strict=True):
            np.testing.assert_array_equal(one, other, err_msg=family)
