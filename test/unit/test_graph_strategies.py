"""Property tests: random graph programs parse, verify, round-trip and evaluate with numpy."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Block

from fusionopt.graph_numpy import evaluate_graph_op, numpy_dtype
from support.graph_strategies import _factor_into_dims, graph_programs
from fusionopt.ir_io import parse_module, print_module

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def main_func(module) -> func.FuncOp:
    (main,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    return main


def evaluate(module, seed: int = 0) -> list[np.ndarray]:
    """Walk @main with numpy values; graph ops through evaluate_graph_op."""
    main = main_func(module)
    rng = np.random.default_rng(seed)
    env = {}
    for a in main.body.block.args:
        dtype = numpy_dtype(a.type.get_element_type())
        env[a] = rng.uniform(-2, 2, a.type.get_shape()).astype(dtype)
    for op in main.body.block.ops:
        if isinstance(op, arith.ConstantOp):
            attr = op.value
            assert isinstance(attr, DenseIntOrFPElementsAttr)
            shape = attr.get_type().get_shape()
            dtype = numpy_dtype(attr.get_type().get_element_type())
            values = np.asarray(attr.get_values()).astype(dtype)
            if values.size == 1:  # a splat may be stored as one value
                values = np.broadcast_to(values.reshape(()), shape)
            env[op.result] = values.reshape(shape)
        elif isinstance(op, func.ReturnOp):
            return [env[v] for v in op.operands]
        else:
            env[op.results[0]] = evaluate_graph_op(op, [env[v] for v in op.operands])
    raise AssertionError("no func.return")


@SETTINGS
@given(graph_programs())
def test_generated_programs_verify_and_round_trip(text):
    module = parse_module(text, "generated.mlir")
    custom = print_module(module)
    assert print_module(parse_module(custom)) == custom
    generic = print_module(module, generic=True)
    assert print_module(parse_module(generic)) == custom


@SETTINGS
@given(graph_programs(max_ops=8))
def test_generated_programs_evaluate_to_declared_types(text):
    module = parse_module(text, "generated.mlir")
    results = evaluate(module)
    for value, t in zip(results, main_func(module).function_type.outputs):
        assert value.shape == tuple(t.get_shape())
        assert value.dtype == numpy_dtype(t.get_element_type())


@settings(max_examples=100, deadline=None)
@given(graph_programs(max_ops=20))
def test_every_program_computes_something(text):
    module = parse_module(text)
    graph_ops = [op for op in module.walk() if op.name.startswith("graph.")]
    assert graph_ops
    returned = main_func(module).body.block.last_op.operands
    assert all(not isinstance(v.owner, Block) for v in returned)  # results, not arguments


def test_op_coverage_over_many_programs():
    """Over a fixed set of draws, every op family the generator promises shows up."""
    seen = set()

    @settings(max_examples=150, deadline=None, database=None, derandomize=True)
    @given(graph_programs(max_ops=16))
    def collect(text):
        seen.update(w.split()[0] for w in text.split("= graph.")[1:])
        if "arith.constant" in text:
            seen.add("constant")

    collect()
    for op in ("add", "broadcast", "reshape", "transpose", "slice", "concat", "pad", "dot",
               "reduce_sum", "gather", "where", "convert", "constant"):
        assert op in seen, op


@given(st.integers(1, 6).flatmap(lambda r: st.lists(st.integers(1, 6), min_size=1, max_size=4)),
       st.data())
def test_factor_into_dims_preserves_element_count(shape, data):
    n = int(np.prod(shape))
    dims = _factor_into_dims(n, data.draw)
    assert int(np.prod(dims)) == n
    assert all(1 <= d <= 6 for d in dims)


def canonical_names(text: str) -> str:
    """Rename SSA values %x to %0, %1, ... in order of first appearance."""
    names: dict[str, str] = {}
    return re.sub(r"%[\w.$-]+", lambda m: names.setdefault(m.group(0), f"%{len(names)}"), text)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt (iree-base-compiler) not on PATH")
def test_iree_opt_reads_generic_form_of_generated_programs():
    """graph is not an IREE dialect: only the generic form can be re-read, and it must be."""

    @settings(max_examples=8, deadline=None, database=None, derandomize=True)
    @given(graph_programs())
    def check(text):
        generic = print_module(parse_module(text), generic=True)
        run = subprocess.run(["iree-opt", "--allow-unregistered-dialect", "--mlir-print-op-generic"],
                             input=generic, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        # IREE's generic print parses back to the same custom form (up to SSA names).
        assert canonical_names(print_module(parse_module(run.stdout))) == canonical_names(
            print_module(parse_module(text)))

    check()
