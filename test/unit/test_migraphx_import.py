"""MIGraphX importer, whole programs: the issue's acceptance program and the seed's GPU dump.

`test/data/migraphx/towers_chain_attention.txt` (3 MLP towers, the GEMM chain X*(Y*A+b)*C, an
attention block with a fused QKV projection split by slices) imports, runs under `fusion-run`
to the numbers of an independent numpy model written here, on every input family, and
`graph-to-dispatch` batches the towers and reassociates the chain.
`distilgpt2_gemm_chain_seed.txt` is the GPU-lowered fragment quoted in seed 003 (MIGraphX
issue #2818): it imports with its undefined operands and copied literals as arguments and
runs through `graph-to-dispatch`.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from fusionopt.diagnostics import capture_diagnostics
from fusionopt.importers.migraphx_import import import_migraphx
from fusionopt.interpreter import FAMILIES, family_inputs, find_entry
from fusionopt.interpreter.compare import judge_against_reference
from fusionopt.ir_io import print_module
from fusionopt.opt_main import main as fusion_opt
from fusionopt.tools.fusion_run import main as fusion_run_main
from support import migraphx_programs as programs

DATA = Path(__file__).resolve().parents[1] / "data" / "migraphx"
PROGRAM = DATA / "towers_chain_attention.txt"
SEED = DATA / "distilgpt2_gemm_chain_seed.txt"


def test_fixture_is_what_the_generator_prints():
    assert PROGRAM.read_text() == programs.towers_chain_attention()


# -- the independent numpy model ----------------------------------------------------------


def silu(v):
    return v / (1 + np.exp(-v))


def numpy_model(x, y, x_chain, h, w_qkv, dtype):
    """The program's meaning, computed with numpy in `dtype` (float32 or float64)."""
    w = {k: v.astype(dtype) for k, v in programs.WEIGHTS.items()}
    x, y, x_chain, h, w_qkv = (a.astype(dtype) for a in (x, y, x_chain, h, w_qkv))
    towers = [silu(silu(x @ w[f"t{t}_w0"] + w[f"t{t}_b0"]) @ w[f"t{t}_w1"] + w[f"t{t}_b1"])
              for t in range(programs.TOWERS)]
    chain = (x_chain @ (y @ w["A"] + w["b"])) @ w["C"]
    return [np.concatenate(towers, axis=1), chain, attention(h, w_qkv, dtype)]


def attention(h, w_qkv, dtype):
    b, s, d, heads = programs.BATCH, programs.SEQ, programs.MODEL_DIM, programs.HEADS
    q, k, v = np.split(h @ w_qkv, 3, axis=-1)
    q, k, v = (t.reshape(b, s, heads, d // heads).transpose(0, 2, 1, 3) for t in (q, k, v))
    scores = (q @ k.transpose(0, 1, 3, 2)) * dtype(0.5)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return (p @ v).transpose(0, 2, 1, 3).reshape(b, s, d)


def fusion_run(*argv: str) -> int:
    with pytest.raises(SystemExit) as info:
        fusion_run_main(list(argv))
    return info.value.code


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mgx") / "program.mlir"
    path.write_text(print_module(import_migraphx(PROGRAM)))
    return path


@pytest.mark.parametrize("family", FAMILIES)
def test_fusion_run_matches_the_numpy_model(imported, tmp_path, family):
    module = import_migraphx(PROGRAM)
    inputs = family_inputs(find_entry(module), family, seed=3)
    np.savez(tmp_path / "in.npz", **{f"arg{i}": v for i, v in enumerate(inputs)})
    assert fusion_run(str(imported), "--inputs", str(tmp_path / "in.npz"),
                      "--save", str(tmp_path / "out.npz")) == 0
    saved = np.load(tmp_path / "out.npz")
    actual = [saved[f"result{i}"] for i in range(3)]
    with np.errstate(all="ignore"):  # overflow and -inf masks behave as in any f32 program
        baseline, reference = numpy_model(*inputs, np.float32), numpy_model(*inputs, np.float64)
    verdicts = judge_against_reference(actual, baseline, reference)
    assert all(v.ok for v in verdicts), "\n".join(v.describe() for v in verdicts)


def run_pipeline(path: Path, *extra: str, pipeline: str = "graph-to-dispatch") -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    with capture_diagnostics(lambda d: err.write(d.format() + "\n")):
        code = fusion_opt([str(path), "-p", pipeline, *extra], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    return out.getvalue(), err.getvalue()


def statistic(report: str, pass_name: str, counter: str) -> int:
    section = report.split(f"\n{pass_name}\n", 1)[1]
    for line in section.splitlines():
        if line.strip().startswith(f"({counter})"):
            return int(line.split(":")[1])
        if not line.startswith(" "):
            break
    return 0


def test_graph_to_dispatch_batches_towers_and_reassociates_the_chain(imported):
    flow, report = run_pipeline(imported, "--mlir-pass-statistics")
    # 3 towers x 2 Linear layers: the first layers share x (one N-concatenated dot), the second
    # layers become one [3, 16, 4] x [3, 4, 2] batched dot.
    assert statistic(report, "graph-horizontal-fuse-dots", "dots batched") == 6
    # Mixed-sign weights, reassociated under the fast-math contract (finite values).
    assert "reassociated 3-dot chain" in report and "(3 -> 2 run-time dots)" in report
    assert statistic(report, "graph-reassociate-dots", "run-time dots removed") == 1
    assert "flow.dispatch.region" in flow
    graph_ir, _ = run_graph_passes(imported)
    dots = [line for line in graph_ir.splitlines() if "graph.dot" in line]
    assert any("tensor<3x16x4xf32>, tensor<3x4x2xf32>" in d for d in dots)
    assert any("tensor<16x2xf32>, tensor<2x12xf32>" in d for d in dots)
    # X*(Y*A+b)*C -> X*(Y*(A*C) + b*C): two run-time dots, both N = 1.
    assert any("(tensor<32x2xf32>, tensor<2x1xf32>)" in d for d in dots)
    assert any("(tensor<32x32xf32>, tensor<32x1xf32>)" in d for d in dots)
    assert len(dots) == 7  # 2 tower + 2 chain + QKV + 2 attention dots (from 11)


def test_chain_ends_with_fewer_contractions_than_the_strict_pipeline(imported):
    """graph-to-dispatch: 3 matmuls + 3 batch matmuls; the strict pipeline keeps the chain's
    third dot (an inf in X could give NaN in one order and inf in the other)."""
    flow, _ = run_pipeline(imported)
    strict, report = run_pipeline(imported, pipeline="graph-to-dispatch-strict-nonfinite")
    assert "kept 3-dot chain: a constant factor's signs are not rank-1" in report
    assert (flow.count("linalg.matmul"), strict.count("linalg.matmul")) == (3, 4)
    assert flow.count("linalg.batch_matmul") == strict.count("linalg.batch_matmul") == 3


def run_graph_passes(path: Path) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    with capture_diagnostics():
        code = fusion_opt([str(path), "-p", "graph-simplify,graph-hoist-pointwise-above-slices,"
                           "graph-horizontal-fuse-dots"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    return out.getvalue(), err.getvalue()


def test_seed_fragment_imports_and_runs_through_graph_to_dispatch(tmp_path):
    with capture_diagnostics() as warnings:
        module = import_migraphx(SEED)
    assert [d.severity for d in warnings] == ["warning"] * 3  # the three hip_copy_literals
    fn = find_entry(module)
    names = [a.get("migraphx.name").data for a in map(lambda d: d.data, fn.arg_attrs.data)]
    assert names == ["main:@literal:6", "main:@literal:73", "@20", "@32", "main:@literal:72"]
    shapes = [tuple(t.get_shape()) for t in fn.function_type.inputs]
    assert shapes[2] == (348, 768) and shapes[3] == (1, 12, 348, 348)  # inferred from the gemms
    path = tmp_path / "seed.mlir"
    path.write_text(print_module(module))
    flow, report = run_pipeline(path, "--mlir-pass-statistics")
    assert flow.count("flow.dispatch.region") >= 3
    # The chain is kept: A, b and C are copied literals (their values are not in the dump, so
    # no constant product is free) and a head slice separates Y*A+b from X.
    assert "reassociated" not in report
    assert fusion_run(str(path), "--save", str(tmp_path / "out.npz")) == 0
    assert np.load(tmp_path / "out.npz")["result0"].shape == (348, 768)
