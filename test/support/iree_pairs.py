"""IREE builds of a module before and after a rewrite, and their outputs compared: the shared
steps of the tests that check IREE computes a rewritten module's values."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from fusionopt.ir_io import print_module
from fusionopt.iree_tools import compile_vmfb, target_flags


def build_llvm_cpu(sources: dict[str, str], folder: Path, flags: Sequence[str] = ()) -> dict[str, Path]:
    """name -> vmfb of each module text, built for llvm-cpu in `folder` (with `flags` too)."""
    vmfbs = {}
    for name, text in sources.items():
        (folder / f"{name}.mlir").write_text(text)
        vmfbs[name] = compile_vmfb(folder / f"{name}.mlir", folder / f"{name}.vmfb", [*target_flags("llvm-cpu"), *flags])
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


def assert_iree_build_agrees_with_float64(text: str, formed: str, folder: Path, families: tuple[str, ...],
                                         seed: int = 0, rtol: float = 1e-4, flags: Sequence[str] = ()) -> None:
    """IREE's llvm-cpu build of `formed` (a rewrite of the module `text`; with `flags`, those a
    pipeline asks for) computes, on inputs of each family, what a float64 run of `text`'s entry
    function does (`assert_agrees`)."""
    from fusionopt.interpreter import find_entry, run_function
    from fusionopt.interpreter.input_families import family_inputs
    from fusionopt.ir_io import parse_module
    from fusionopt.iree_tools import run_vmfb

    vmfb = build_llvm_cpu({"formed": formed}, folder, flags)["formed"]
    module = parse_module(text)
    func = find_entry(module)
    for family in families:
        args = family_inputs(func, family, seed=seed)
        references = run_function(module, args, func, float64=True)
        for got, reference in zip(run_vmfb(vmfb, args, func.sym_name.data), references, strict=True):
            assert_agrees(got, np.asarray(reference, np.float32), family, rtol=rtol)


def assert_builds_together(modules: list[ModuleOp], folder: Path, flags: list[str]) -> None:
    """Every module of `modules` builds with `flags`. They are built as few modules as their
    symbols allow (one `iree-compile` start instead of one a case: most of a small case's build
    time); if a batch fails, its modules are built one by one so that the failure names its
    case (its index in `modules`)."""
    from fusionopt.iree_tools import IreeError

    for number, batch in enumerate(_batches_with_unique_symbols(modules)):
        source = folder / f"batch{number}.mlir"
        source.write_text(print_module(_merged([modules[i] for i in batch])))
        try:
            compile_vmfb(source, source.with_suffix(".vmfb"), flags, timeout=600)
            continue
        except IreeError:
            pass
        for index in batch:
            alone = folder / f"case{index}.mlir"
            alone.write_text(print_module(modules[index]))
            try:
                compile_vmfb(alone, alone.with_suffix(".vmfb"), flags, timeout=120)
            except IreeError as err:
                raise AssertionError(f"case {index}:\n{str(err)[-2000:]}") from None
        raise AssertionError(f"the cases {batch} build alone but not together: {source}")


def _symbols(module: ModuleOp) -> set[str]:
    return {op.sym_name.data for op in module.body.block.ops if hasattr(op, "sym_name")}


def _batches_with_unique_symbols(modules: list[ModuleOp]) -> list[list[int]]:
    batches: list[tuple[list[int], set[str]]] = []
    for index, module in enumerate(modules):
        names = _symbols(module)
        target = next((b for b in batches if not names & b[1]), None)
        if target is None:
            batches.append(target := ([], set()))
        target[0].append(index)
        target[1].update(names)
    return [indices for indices, _ in batches]


def _merged(modules: list[ModuleOp]) -> ModuleOp:
    merged = ModuleOp([])
    for module in modules:
        for op in list(module.clone().body.block.ops):
            op.detach()
            merged.body.block.add_op(op)
    return merged


def assert_cuda_rule_needed(graph: str, pipeline: str, without_rule: str, folder: Path, error: str) -> None:
    """`pipeline`'s output of `graph` builds for CUDA sm_80 (no GPU needed) and `without_rule`'s
    fails with `error` in IREE's message: why the rule exists (if IREE learns to build the other
    form, the rule can go)."""
    from fusionopt.iree_tools import cuda_flags

    assert_rule_needed(graph, pipeline, without_rule, folder, error, cuda_flags("sm_80"))


def assert_rule_needed(graph: str, pipeline: str, without_rule: str, folder: Path, error: str,
                       flags: Sequence[str]) -> Path:
    """`pipeline`'s output of `graph` builds with `flags` and `without_rule`'s fails with `error`
    in IREE's message (see `assert_cuda_rule_needed`). Returns the built vmfb."""
    import subprocess

    from fusionopt.iree_tools import COMPILE
    from fusionopt.testing import apply_pipeline

    ours = folder / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(graph, pipeline)))
    vmfb = compile_vmfb(ours, folder / "ours.vmfb", list(flags))
    other = folder / "without_rule.mlir"
    other.write_text(print_module(apply_pipeline(graph, without_rule)))
    result = subprocess.run([COMPILE, str(other), *flags, "-o", str(folder / "without_rule.vmfb")],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode != 0 and error in result.stderr
    return vmfb


def cpu_pipeline_with_regions(options: str, pipeline: str = "graph-to-dispatch-llvm-cpu") -> str:
    """An llvm-cpu pipeline (`graph-to-dispatch-llvm-cpu` or its `-fewest`) with `options` added to
    its `form-dispatch-regions`: the pipeline as it was before a rule that option undoes."""
    from fusionopt.registry import PIPELINES

    stage = "dispatch-creation-llvm-cpu" + pipeline.removeprefix("graph-to-dispatch-llvm-cpu")
    spec = PIPELINES[stage].spec.replace("form-dispatch-regions{", f"form-dispatch-regions{{{options} ")
    assert spec != PIPELINES[stage].spec
    return PIPELINES[pipeline].spec.replace(stage, spec)


def cuda_pipeline_without(rule: str, instead: str) -> str:
    """graph-to-dispatch-cuda as it was before `rule` (an option its dispatch-creation stage sets),
    with `instead` in its place."""
    from fusionopt.registry import PIPELINES

    cuda = PIPELINES["dispatch-creation-cuda"].spec
    assert rule in cuda
    return PIPELINES["graph-to-dispatch-cuda"].spec.replace("dispatch-creation-cuda", cuda.replace(rule, instead))

