"""Test helpers: run IR with the numpy interpreter and check that passes preserve semantics.

Every pass test can prove its rewrite computes the same numbers:

    from fusionopt.testing import assert_pass_preserves_semantics

    def test_fusion_keeps_values():
        after = assert_pass_preserves_semantics(TEXT, "linalg-fuse-elementwise", seeds=(0, 1))
        assert count_ops(after, "linalg.generic") == 1   # and check what the pass did

API
- `run_module(module, inputs, entry=None) -> list[np.ndarray]`: execute the entry function
  (`entry` name, else the only public function, else `main`/`main_graph`); `module` may be IR text.
- `random_inputs(func_op, seed=0, int_range=(0, 16)) -> list[np.ndarray]`: arguments by type
  (floats ~ N(0,1), integers uniform in [lo, hi), i1 random bits), deterministic per seed.
- `apply_pipeline(module, pipeline) -> ModuleOp`: parse (if text), run a pipeline written as for
  `fusion-opt -p` (e.g. `"cse,linalg-fuse-elementwise{max-ops=8}"`, named pipelines allowed)
  or given as a list of `ModulePass` instances, verifying after every pass.
- `assert_pass_preserves_semantics(module_text, pipeline, seeds=(0, 1), rtol=1e-5, atol=1e-6,
  entry=None, int_range=(0, 16)) -> ModuleOp`: for each seed run the module before and after the
  pipeline on the same random inputs and assert every result matches (`|after - before| <=
  atol + rtol*|before|`, NaN == NaN); the entry signature must not change. Returns the
  transformed module for further checks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from fusionopt.interpreter import DEFAULT_INT_RANGE, find_entry, random_inputs, run_function
from fusionopt.interpreter.compare import diff_results
from fusionopt.ir_io import parse_module, print_module, verify_module

__all__ = ["apply_pipeline", "assert_pass_preserves_semantics", "random_inputs", "run_module"]


def _as_module(module: ModuleOp | str) -> ModuleOp:
    return parse_module(module, "<test>") if isinstance(module, str) else module


def run_module(module: ModuleOp | str, inputs: Sequence[np.ndarray], entry: str | None = None) -> list[np.ndarray]:
    """Results of the entry function on `inputs` (see module doc)."""
    return run_function(_as_module(module), inputs, entry)


def _passes(pipeline: str | Sequence[ModulePass]) -> list[ModulePass]:
    if not isinstance(pipeline, str):
        return list(pipeline)
    from fusionopt import registry
    from fusionopt.pipeline_spec import build_passes, parse_pipeline

    return build_passes(parse_pipeline(pipeline, registry.PIPELINES), registry.get_all_passes())


def apply_pipeline(module: ModuleOp | str, pipeline: str | Sequence[ModulePass]) -> ModuleOp:
    """The module after `pipeline`, verified after each pass (input text is parsed first)."""
    from fusionopt.registry import make_context

    module = _as_module(module)
    ctx = make_context()
    for module_pass in _passes(pipeline):
        module_pass.apply(ctx, module)
        try:
            verify_module(module)
        except Exception as err:
            raise AssertionError(f"IR fails to verify after pass '{module_pass.name}': {err}") from err
    return module


def assert_pass_preserves_semantics(
    module_text: str,
    pipeline: str | Sequence[ModulePass],
    seeds: Sequence[int] = (0, 1),
    rtol: float = 1e-5,
    atol: float = 1e-6,
    entry: str | None = None,
    int_range: tuple[int, int] = DEFAULT_INT_RANGE,
) -> ModuleOp:
    """Assert `pipeline` does not change what the entry function computes (see module doc)."""
    before = parse_module(module_text, "<before>")
    before_entry = find_entry(before, entry)
    inputs_per_seed = [random_inputs(before_entry, seed, int_range) for seed in seeds]
    expected = [run_function(before, inputs, before_entry) for inputs in inputs_per_seed]
    after = apply_pipeline(parse_module(module_text, "<after>"), pipeline)
    after_entry = find_entry(after, entry)
    if after_entry.function_type != before_entry.function_type:
        raise AssertionError(
            f"pipeline changed the entry signature: {before_entry.function_type} -> {after_entry.function_type}"
        )
    for seed, inputs, reference in zip(seeds, inputs_per_seed, expected):
        actual = run_function(after, inputs, after_entry)
        diffs = diff_results(actual, reference, rtol, atol)
        if not all(d.ok for d in diffs):
            report = "\n".join(d.describe() for d in diffs)
            raise AssertionError(
                f"pipeline '{pipeline}' changed the results (seed {seed}):\n{report}\n"
                f"--- IR after the pipeline ---\n{print_module(after)}"
            )
    return after
