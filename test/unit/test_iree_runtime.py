"""Our `dispatch-creation` output, compiled by `iree-compile` and run by IREE's runtime, computes
what the numpy interpreter computes on the input (IREE keeps our regions as given).

Programs: the real gpt2 attention fragment in test/data (no shared corpus needed) and the shared
mlp_towers model (skipped without ../shared). Negative controls: other inputs give other
numbers, broken IR makes `compile_vmfb` raise with IREE's diagnostics. The benchmark helper is
checked against the flow IR: the dispatch calls it profiles per call are the `flow.dispatch`
sites. IREE must recognise our folded contractions as matmuls (a former performance bug,
bench/RESULTS.md, "IREE runtime (llvm-cpu)").
Skipped with a reason when the IREE tools are absent.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.interpreter import find_entry
from fusionopt.ir_io import parse_file, print_module
from fusionopt.iree_tools import (
    IreeError, benchmark_vmfb, compile_vmfb, count_flow_dispatches, cpu_flags, flow_dispatch_names,
    iree_available, run_vmfb, save_inputs,
)
from fusionopt.testing import apply_pipeline, random_inputs, run_module
from fusionopt.corpus import corpus_dir

DATA = Path(__file__).resolve().parents[1] / "data"
FRAGMENT = DATA / "gpt2_attention_fragment.mlir"
MLP_TOWERS = corpus_dir() / "mlp_towers" / "mlp_towers.args.linalg.mlir"
FLAGS = cpu_flags("generic")
# IREE's tiled float32 sums are reassociated relative to the interpreter's.
ATOL, RTOL = 5e-4, 1e-3

pytestmark = pytest.mark.skipif(not iree_available(), reason="iree-compile / iree-benchmark-module / iree.runtime absent")


class Compiled:
    """Input file, our dispatch-creation output, its vmfb and the entry function's name."""

    def __init__(self, source: Path, work: Path, weight_scale: float = 1.0):
        self.source = source
        self.module = parse_file(source)
        self.entry = find_entry(self.module, None)
        self.formed = work / "formed.mlir"
        self.formed.write_text(print_module(apply_pipeline(parse_file(source), "dispatch-creation")))
        self.vmfb = compile_vmfb(self.formed, work / "formed.vmfb", FLAGS)
        self.weight_scale = weight_scale

    @property
    def name(self) -> str:
        return self.entry.sym_name.data

    def inputs(self, seed: int) -> list[np.ndarray]:
        """Random arguments; all but the first (the weights of a model) scaled as in bench/."""
        values = random_inputs(self.entry, seed=seed, int_range=(0, 1024))
        return values[:1] + [(self.weight_scale * v).astype(v.dtype) for v in values[1:]]


@pytest.fixture(scope="module")
def fragment(tmp_path_factory) -> Compiled:
    return Compiled(FRAGMENT, tmp_path_factory.mktemp("fragment"))


@pytest.fixture(scope="module")
def mlp_towers(tmp_path_factory) -> Compiled:
    if not MLP_TOWERS.is_file():
        pytest.skip("../shared/models is absent (shared model corpus)")
    return Compiled(MLP_TOWERS, tmp_path_factory.mktemp("mlp"), weight_scale=0.1)


def assert_same(actual: list[np.ndarray], expected: list[np.ndarray]) -> None:
    assert len(actual) == len(expected)
    for index, (a, e) in enumerate(zip(actual, expected)):
        assert a.shape == np.shape(e) and a.dtype == np.asarray(e).dtype, f"result {index}"
        np.testing.assert_allclose(a, e, rtol=RTOL, atol=ATOL, err_msg=f"result {index}")


@pytest.mark.parametrize("program", ["fragment", "mlp_towers"])
def test_iree_runtime_matches_interpreter_on_input(program: str, request) -> None:
    compiled: Compiled = request.getfixturevalue(program)
    assert "flow.dispatch.region" in compiled.formed.read_text()
    inputs = compiled.inputs(seed=0)
    assert_same(run_vmfb(compiled.vmfb, inputs, compiled.name), run_module(compiled.module, inputs))


def test_other_inputs_give_other_numbers(fragment: Compiled) -> None:
    """Negative control: the comparison above can fail."""
    ours = run_vmfb(fragment.vmfb, fragment.inputs(seed=0), fragment.name)
    other = run_module(fragment.module, fragment.inputs(seed=1))
    with pytest.raises(AssertionError):
        assert_same(ours, other)


def test_compile_error_carries_iree_diagnostics(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %undefined : tensor<4xf32>\n}\n")
    with pytest.raises(IreeError, match="undefined"):
        compile_vmfb(bad, tmp_path / "bad.vmfb", FLAGS)
    assert not (tmp_path / "bad.vmfb").exists()


def test_benchmark_profiles_one_call_per_flow_dispatch(fragment: Compiled, tmp_path: Path) -> None:
    files = save_inputs(fragment.inputs(seed=0), tmp_path / "inputs")
    run = benchmark_vmfb(fragment.vmfb, files, fragment.name, iterations=3, dispatch_statistics=True)
    assert run.ms_per_call > 0
    assert run.dispatch_ms and all(ms >= 0 for ms in run.dispatch_ms.values())
    assert sum(run.dispatch_calls.values()) == count_flow_dispatches(fragment.formed, FLAGS)


def matmul_named(names: list[str]) -> int:
    return sum("matmul" in name for name in names)


def test_iree_names_its_own_fragment_contractions_matmul() -> None:
    """The fragment's two attention contractions are batch_matmuls when IREE forms dispatches."""
    assert matmul_named(flow_dispatch_names(FRAGMENT, FLAGS)) == 2


def test_iree_recognises_our_contractions_as_matmuls(fragment: Compiled) -> None:
    """Unit dims are dropped by reshapes outside the regions, never as constant-0 map results
    (not projected permutations: IREE would tile the contractions as plain reductions)."""
    assert matmul_named(flow_dispatch_names(fragment.formed, FLAGS)) == 2


def _executable(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_compiler_executable_skips_the_wheels_launcher_but_not_a_users_build(tmp_path: Path, monkeypatch) -> None:
    from iree.compiler.tools.binaries import find_tool

    from fusionopt import iree_tools

    launcher = tmp_path / "wheel"
    launcher.mkdir()
    _executable(launcher / "iree-compile", "#!/usr/bin/env python3\nfrom iree.compiler.tools.scripts.iree_compile.__main__ import main\n")
    own = tmp_path / "own"
    own.mkdir()
    users_build = _executable(own / "iree-compile", "#!/bin/sh\nexit 0\n")
    for folder, expected in ((launcher, find_tool("iree-compile")), (own, str(users_build))):
        monkeypatch.setenv("PATH", str(folder))
        iree_tools.compiler_executable.cache_clear()
        assert iree_tools.compiler_executable() == expected
    iree_tools.compiler_executable.cache_clear()
    assert Path(find_tool("iree-compile")).read_bytes()[:4] == b"\x7fELF"  # the native binary
