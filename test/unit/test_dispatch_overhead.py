"""bench/dispatch_overhead.py: its chain of tiny dispatches is valid IR of that many regions
computing tanh that many times, and the script prints its table when IREE is installed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt.interpreter.runner import run_function
from fusionopt.ir_io import parse_module, verify_module
from fusionopt.iree_tools import iree_available

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import dispatch_overhead  # noqa: E402


def test_chain_has_its_dispatches_and_computes_tanh_each_time():
    module = parse_module(dispatch_overhead.chain_program(3))
    verify_module(module)
    assert sum(op.name == "flow.dispatch.region" for op in module.walk()) == 3
    x = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    [got] = run_function(module, [x])
    np.testing.assert_allclose(got, np.tanh(np.tanh(np.tanh(x))), rtol=1e-6, atol=1e-7)


@pytest.mark.skipif(not iree_available(), reason="iree-compile or the IREE runtime is not installed")
def test_prints_a_row_per_device(capsys):
    assert dispatch_overhead.main(["--dispatches", "2", "--rounds", "1", "--iterations", "5"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| local")]
    assert [row.split(" | ")[0] for row in rows] == ["| local-sync", "| local-task, 2 workers"]
    assert rows[0].endswith("| 1.00x |")
