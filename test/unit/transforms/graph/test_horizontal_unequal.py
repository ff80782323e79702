"""`graph-horizontal-fuse-dots` on towers of unequal shapes (`graph/horizontal_unequal.py`).

The MIGraphX program `test/data/migraphx/unequal_towers.txt` (three 2-layer towers, hidden
4/6/4, outputs 4/3/5, one input) ends in <= 3 dispatches after `graph-to-dispatch` and computes
what an independent numpy model says, against its float64 run; generated towers of random
unequal widths keep their numbers on random and adversarial inputs (the padded form on every
family, infinities included; the block-diagonal form on the finite ones it relies on), and the
cost model keeps what does not pay.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt import pass_statistics
from fusionopt.diagnostics import capture_diagnostics
from fusionopt.importers.migraphx_import import import_migraphx
from fusionopt.interpreter import family_inputs, find_entry, run_function
from fusionopt.interpreter.compare import judge_against_reference
from fusionopt.ir_io import parse_module, print_module
from fusionopt.stats import compute_stats
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics

from support import migraphx_unequal_towers as program

FUSE = "graph-horizontal-fuse-dots"
G2D = "graph-to-dispatch"
# graph-to-dispatch without unequal batching: the behaviour this work replaces.
G2D_EQUAL_ONLY = ("graph-simplify,graph-hoist-pointwise-above-slices,"
                  f"{FUSE}{{unequal-shapes=false}},graph-horizontal-fuse-convs,"
                  "convert-graph-to-linalg,dispatch-creation")
FINITE = ("random", "constant", "offset", "zeros", "extreme")
EVERY = (*FINITE, "mask")


def dots(module) -> list[str]:
    return [str(op.result.type) for op in module.walk() if op.name == "graph.dot"]


@pytest.fixture(scope="module")
def imported() -> str:
    return print_module(import_migraphx(program.DATA_FILE))


def test_fixture_is_what_the_generator_prints():
    assert program.DATA_FILE.read_text() == program.unequal_towers()


def test_migraphx_towers_end_in_at_most_three_dispatches(imported):
    before = compute_stats(apply_pipeline(imported, G2D_EQUAL_ONLY))["total"]
    after = compute_stats(apply_pipeline(imported, G2D))["total"]
    # Before: one fused first layer, three second layers and the concat (5 kernels).
    assert before["kernels"] == 5
    assert after["dispatches"] <= 3 and after["kernels"] <= 3
    assert after["dispatches"] == 2 and after["kernels"] == 2 and after["copies"] == 0
    # The block-diagonal second layer: 9664 FLOPs for 6016, in half the bytes.
    assert after["bytes_moved"] < before["bytes_moved"]


@pytest.mark.parametrize("family", FINITE)
def test_migraphx_towers_match_the_numpy_model(imported, family):
    module = apply_pipeline(imported, G2D)
    (x,) = family_inputs(find_entry(module), family, seed=5)
    actual = run_function(module, [x], find_entry(module))
    with np.errstate(all="ignore"):
        baseline = program.numpy_model(x, np.float32)
        reference = program.numpy_model(x, np.float64)
    verdicts = judge_against_reference(actual, [baseline], [reference])
    assert all(v.ok for v in verdicts), "\n".join(v.describe() for v in verdicts)


def test_migraphx_towers_keep_their_numbers_on_every_family(imported):
    # One shared input: a row holding inf or NaN is non-finite in every tower already, so the
    # block-diagonal zeros it meets only touch rows the input program has lost too.
    assert_pass_preserves_semantics(imported, G2D, families=EVERY)


# ---- generated towers ----------------------------------------------------------------------


def _tensor(*shape: int) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def _literal(array: np.ndarray) -> str:
    if array.ndim == 0:
        return f"{float(array):.6e}"
    return "[" + ", ".join(_literal(row) for row in array) + "]"


def _constant(name: str, array: np.ndarray) -> str:
    return f"  %{name} = arith.constant dense<{_literal(array)}> : {_tensor(*array.shape)}"


def towers(m: int, k: int, hidden, outs, shared: bool, seed: int, scale: float = 0.5) -> str:
    """Towers `x_i -> Linear+SiLU(hidden_i) -> Linear+bias(outs_i)`, over one input `%x`
    (`shared`) or one input each; weights N(0, scale)."""
    rng = np.random.default_rng(seed)
    count = len(hidden)
    args = [f"%x: {_tensor(m, k)}"] if shared else [f"%x{i}: {_tensor(m, k)}" for i in range(count)]
    lines, results = [], []
    for i, (h, n) in enumerate(zip(hidden, outs)):
        x = "%x" if shared else f"%x{i}"
        lines += [
            _constant(f"w{i}", rng.normal(0, scale, (k, h)).astype(np.float32)),
            _constant(f"v{i}", rng.normal(0, scale, (h, n)).astype(np.float32)),
            _constant(f"c{i}", rng.normal(0, scale, (n,)).astype(np.float32)),
            f"  %d{i} = graph.dot {x}, %w{i} : ({_tensor(m, k)}, {_tensor(k, h)}) -> {_tensor(m, h)}",
            f"  %s{i} = graph.sigmoid %d{i} : {_tensor(m, h)}",
            f"  %h{i} = graph.mul %d{i}, %s{i} : {_tensor(m, h)}",
            f"  %e{i} = graph.dot %h{i}, %v{i} : ({_tensor(m, h)}, {_tensor(h, n)}) -> {_tensor(m, n)}",
            f"  %cb{i} = graph.broadcast %c{i} dims = [1] : {_tensor(n)} -> {_tensor(m, n)}",
            f"  %y{i} = graph.add %e{i}, %cb{i} : {_tensor(m, n)}",
        ]
        results.append((f"%y{i}", _tensor(m, n)))
    names, types = ", ".join(r for r, _ in results), ", ".join(t for _, t in results)
    return (f"func.func @towers({', '.join(args)}) -> ({types}) {{\n" + "\n".join(lines)
            + f"\n  func.return {names} : {types}\n}}\n")


@pytest.mark.parametrize("seed", range(4))
def test_unequal_towers_over_one_input_become_two_dots(seed):
    rng = np.random.default_rng(seed)
    count = int(rng.integers(2, 5))
    hidden, outs = rng.integers(1, 9, count), rng.integers(1, 9, count)
    text = towers(int(rng.integers(1, 6)), int(rng.integers(1, 7)), hidden, outs, True, seed)
    module = assert_pass_preserves_semantics(text, FUSE, families=FINITE)
    assert len(dots(module)) == 2  # one N-concatenated layer, one block-diagonal layer
    assert dots(module)[1].endswith(f"x{sum(outs)}xf32>")


@pytest.mark.parametrize("seed", range(4))
def test_equal_first_layers_with_unequal_outputs_are_padded_exactly(seed):
    """Separate inputs, equal hidden width, outputs of different widths: one padded dot; exact
    on every family, infinities included (padded columns are sliced off, never read)."""
    rng = np.random.default_rng(10 + seed)
    count = int(rng.integers(2, 5))
    outs = list(rng.choice(np.arange(1, 10), count, replace=False))  # no two equal
    text = towers(1, 4, [6] * count, outs, False, seed)
    module = assert_pass_preserves_semantics(text, FUSE, families=EVERY)
    assert dots(module) == [f"tensor<{count}x1x6xf32>", f"tensor<{count}x1x{max(outs)}xf32>"]
    assert_pass_preserves_semantics(text, f"{FUSE}{{strict-nonfinite=true}}", families=EVERY)


def test_padded_lanes_never_reach_kept_outputs():
    """An inf in one tower's input makes its padded columns NaN (inf * 0); the other towers'
    results stay finite and equal to the input program's."""
    text = towers(1, 4, [6, 6, 6], [2, 5, 3], False, seed=3)
    module = apply_pipeline(text, FUSE)
    assert len(dots(module)) == 2
    inputs = [np.full((1, 4), 0.5, np.float32) for _ in range(3)]
    inputs[0][0, 1] = np.inf
    before = run_function(parse_module(text), inputs)
    after = run_function(module, inputs)
    assert not np.isfinite(after[0]).all()
    for lane in (1, 2):
        assert np.isfinite(after[lane]).all()
        np.testing.assert_allclose(after[lane], before[lane], rtol=1e-6)


def test_block_diagonal_relies_on_finite_activations():
    """What the block-diagonal form relies on: a tower whose hidden layer overflows (finite
    input, huge weights) puts inf * 0 = NaN into the other towers' outputs; strict-nonfinite
    keeps them apart and their results finite."""
    text = towers(1, 2, [2, 3], [2, 2], True, seed=1)
    big = _constant("w0", np.full((2, 2), 3.0e38, np.float32))
    text = "\n".join(big if line.startswith("  %w0 =") else line for line in text.splitlines())
    x = [np.array([[1.0, 1.0]], np.float32)]
    before = run_function(parse_module(text), x)
    assert np.isfinite(before[1]).all() and not np.isfinite(before[0]).all()
    block = run_function(apply_pipeline(text, FUSE), x)
    assert not np.isfinite(block[1]).all()  # the leak the docstring states
    strict = run_function(apply_pipeline(text, f"{FUSE}{{strict-nonfinite=true}}"), x)
    np.testing.assert_allclose(strict[1], before[1], rtol=1e-6)


def test_group_is_shrunk_to_the_members_that_pay():
    """Three small towers and a wide last one over one input: the block-diagonal dot takes the
    three small second layers; the wide one, whose padding would cost more, stays its own dot."""
    text = towers(64, 8, [4, 6, 4, 512], [4, 3, 5, 512], True, seed=2)
    module = assert_pass_preserves_semantics(text, FUSE, families=FINITE, seeds=(0,))
    assert dots(module) == ["tensor<64x526xf32>", "tensor<64x12xf32>", "tensor<64x512xf32>"]


def test_property_programs_reach_the_unequal_forms():
    """The property run's unequal-tower programs (`graph_blocks.UNEQUAL_TOWER_BLOCKS`, the
    seed and size of test_property_run) batch unequal layers in 6 of 16 programs; the others
    are integer programs, or plain towers graph-reassociate-dots folds into one dot first."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
    import property_run
    from support.graph_blocks import UNEQUAL_TOWER_BLOCKS

    reached = 0
    for text in property_run.draw_programs(16, 3, 2, UNEQUAL_TOWER_BLOCKS):
        stats = pass_statistics.PassStatistics()
        with capture_diagnostics(), pass_statistics.collecting(FUSE, stats):
            apply_pipeline(text, f"graph-simplify,{FUSE}")
        reached += any(name.startswith("unequal layers") for name in stats.runs[0][1])
    assert reached >= 5
