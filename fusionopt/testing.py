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
  `fusion-opt -p` (e.g. `"cse,linalg-fuse-elementwise{max-operands=8}"`, named pipelines allowed)
  or given as a list of `ModulePass` instances, verifying after every pass as `fusion-opt
  --verify-each` does (what the pass may have broken) and the whole module at the end; a text
  is parsed once per process and each call gets a clone.
- `family_inputs(func_op, family, seed=0, int_range=(0, 16), int_ranges=None)`: arguments from
  an input family of `FAMILIES` ("random", "constant", "offset", "zeros", "extreme", "mask",
  "ids-edge"; see fusionopt/interpreter/input_families.py).
- `assert_pass_preserves_semantics(module_text, pipeline, seeds=(0, 1), rtol=1e-4, atol=None,
  entry=None, int_range=(0, 16), *, families=FAMILIES, int_ranges=None) -> ModuleOp`: for every
  input family ("random" once per seed, the others with the first seed) run the module before
  the pipeline in its own precision and in float64, and after the pipeline in its own precision,
  and judge each result with `compare.judge_against_reference`: within `rtol` of the float64
  reference (absolute tolerance rtol * max|reference|), or no worse than 4x the input program's
  own error (on the inputs, or on them one ulp off: its rounding noise); never NaN/inf where the
  input program is finite; `rtol=0` demands identical results. `atol` is accepted for
  compatibility and unused (the absolute tolerance follows the result's scale, which a fixed atol
  cannot on constant, offset or extreme inputs). The entry signature must not change. A failure
  names the family, the seed, each result's figures and the IR after the pipeline. Returns the
  transformed module for further checks.
- `assert_same_semantics(before, after, what="the rewrite", seeds=(0, 1), rtol=1e-4, ...)`: the
  same judgement for a module the caller transformed itself (`before` as text or module).
- `ReferenceRuns(before, seeds=(0, 1), ...)`: the input program's runs computed once;
  `.check(after, what, rtol)` judges each of many rewrites of it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from fusionopt.interpreter import DEFAULT_INT_RANGE, FAMILIES, family_inputs, find_entry, random_inputs, run_function
from fusionopt.interpreter.input_families import largest_float, nudged
from fusionopt.interpreter.compare import DEFAULT_RTOL, judge_against_reference
from fusionopt.diagnostics import register_source
from fusionopt.ir_io import parse_module, print_module
from fusionopt.ir_snapshot import IRSnapshot
from fusionopt.pass_runner import RunOptions, verify_if_changed

__all__ = ["FAMILIES", "apply_pipeline", "assert_pass_preserves_semantics", "assert_same_semantics", "family_inputs", "ReferenceRuns", "random_inputs",
           "run_module"]


# Texts up to this size are parsed once per process (`_parsed`); bigger ones (whole models) each
# time, so the cache never holds much memory.
_PARSE_CACHE_MAX_CHARS = 1 << 18


def _as_module(module: ModuleOp | str, filename: str = "<test>") -> ModuleOp:
    if not isinstance(module, str):
        return module
    if len(module) > _PARSE_CACHE_MAX_CHARS:
        return parse_module(module, filename)
    register_source(filename, module)  # diagnostics quote the text a cached parse came from
    return _parsed(module, filename).clone()


@functools.lru_cache(maxsize=32)
def _parsed(text: str, filename: str) -> ModuleOp:
    """A test parses one case's text for every pipeline it runs and again for the reference
    runs; xDSL's parser takes about seven times as long as a clone (4 ms against 0.6 ms for a
    1.3 KB case), and parsing was a fifth of the pass tests' time. Callers get clones."""
    return parse_module(text, filename)


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
    """The module after `pipeline`, verified after each pass as `fusion-opt --verify-each`
    verifies, and whole at the end (input text is parsed first)."""
    from fusionopt.registry import make_context

    module = _as_module(module)
    ctx = make_context()
    verified, name = None, "(none)"  # the module's snapshot when it last verified; the last pass
    for module_pass in _passes(pipeline):
        module_pass.apply(ctx, module)
        verified, name = _verify(module_pass.name, module, verified), module_pass.name
    _verify(name, module, None)  # the whole module once more
    return module


def _verify(pass_name: str, module: ModuleOp, verified: IRSnapshot | None) -> IRSnapshot:
    """As `fusion-opt --verify-each`: after a pass that changed the module, the ops it may have
    made invalid (the whole module after the first; `IRSnapshot.ops_to_verify`). Verifying all
    of it after every pass was the pass tests' largest cost (10,781 whole-module verifications
    in test/unit/transforms/linalg; 2.9 of their 6.8 minutes under cProfile)."""
    try:
        return verify_if_changed(pass_name, module, RunOptions(), verified)
    except Exception as err:
        raise AssertionError(f"IR fails to verify after pass '{pass_name}': {err}") from err


def assert_pass_preserves_semantics(
    module_text: str,
    pipeline: str | Sequence[ModulePass],
    seeds: Sequence[int] = (0, 1),
    rtol: float = DEFAULT_RTOL,
    atol: float | None = None,
    entry: str | None = None,
    int_range: tuple[int, int] = DEFAULT_INT_RANGE,
    *,
    families: Sequence[str] = FAMILIES,
    int_ranges: Sequence[tuple[int, int] | None] | None = None,
) -> ModuleOp:
    """Assert `pipeline` does not change what the entry function computes (see module doc)."""
    del atol  # accepted for compatibility: the absolute tolerance now follows the result's scale
    after = apply_pipeline(_as_module(module_text, "<after>"), pipeline)
    assert_same_semantics(module_text, after, f"pipeline '{pipeline}'", seeds, rtol, entry, int_range,
                          families=families, int_ranges=int_ranges)
    return after


def assert_same_semantics(
    before: ModuleOp | str,
    after: ModuleOp,
    what: str = "the rewrite",
    seeds: Sequence[int] = (0, 1),
    rtol: float = DEFAULT_RTOL,
    entry: str | None = None,
    int_range: tuple[int, int] = DEFAULT_INT_RANGE,
    *,
    families: Sequence[str] = FAMILIES,
    int_ranges: Sequence[tuple[int, int] | None] | None = None,
) -> None:
    """Assert `after` computes what `before` does, judged as `assert_pass_preserves_semantics`
    judges (`what` names the rewrite in the failure message)."""
    ReferenceRuns(before, seeds, entry, int_range, families=families, int_ranges=int_ranges).check(after, what, rtol)


class ReferenceRuns:
    """The input program's runs on every (family, seed), in its own precision and in float64,
    computed once so that many rewrites of one program are judged cheaply (`check`)."""

    def __init__(self, before: ModuleOp | str, seeds: Sequence[int] = (0, 1), entry: str | None = None,
                 int_range: tuple[int, int] = DEFAULT_INT_RANGE, *, families: Sequence[str] = FAMILIES,
                 int_ranges: Sequence[tuple[int, int] | None] | None = None):
        self.before = _as_module(before, "<before>")
        self.entry = entry
        self.signature = find_entry(self.before, entry).function_type
        self.runs = []
        for family, seed in _family_runs(families, seeds):
            inputs = family_inputs(find_entry(self.before, entry), family, seed, int_range, int_ranges)
            baseline = run_function(self.before, inputs, find_entry(self.before, entry))
            reference = run_function(self.before, inputs, find_entry(self.before, entry), float64=True)
            noisy = run_function(self.before, nudged(inputs, seed), find_entry(self.before, entry))
            noise = (noisy, largest_float(inputs))
            self.runs.append((family, seed, inputs, baseline, reference, noise))

    def check(self, after: ModuleOp, what: str = "the rewrite", rtol: float = DEFAULT_RTOL,
              exempt_families: Sequence[str] = ()) -> None:
        """Raise AssertionError when `after` computes something else (see the module doc) on
        any input family but `exempt_families`."""
        after_entry = find_entry(after, self.entry)
        if after_entry.function_type != self.signature:
            raise AssertionError(f"{what} changed the entry signature: {self.signature} -> {after_entry.function_type}")
        for family, seed, inputs, baseline, reference, noise in self.runs:
            if family in exempt_families:
                continue
            actual = run_function(after, inputs, after_entry)
            verdicts = judge_against_reference(actual, baseline, reference, rtol, nudged=noise[0], noise_scale=noise[1])
            if not all(v.ok for v in verdicts):
                report = "\n".join(v.describe() for v in verdicts)
                raise AssertionError(
                    f"{what} changed the results on input family '{family}' (seed {seed}):\n{report}\n"
                    f"--- IR after {what} ---\n{print_module(after)}"
                )


def _family_runs(families: Sequence[str], seeds: Sequence[int]) -> list[tuple[str, int]]:
    """(family, seed) pairs: "random" with every seed, the deterministic-ish others once."""
    first = seeds[0] if seeds else 0
    return [(f, s) for f in families for s in (seeds if f == "random" else (first,))]
