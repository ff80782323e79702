"""`dispatch-verify-with-iree`: what it unwraps computes the same values (interpreter, every input
family) and builds with IREE next to the regions it keeps, with IREE's runtime agreeing with the
interpreter; identical regions are compiled once; without iree-compile, or without an answer in
time, nothing changes.

The cases are the `// -----` functions of test/lit/transforms/dispatch/dispatch-verify-with-iree.mlir.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt import pass_statistics
from fusionopt.diagnostics import FusionError, capture_diagnostics
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.interpreter.input_families import family_inputs
from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_same_semantics, run_module
from fusionopt.transforms.dispatch.verify_with_iree import (
    DispatchVerifyWithIreePass,
    first_error_line,
    isolated_region_module,
    region_line_spans,
)
from support.iree_pairs import assert_agrees, build_llvm_cpu
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "dispatch" / "dispatch-verify-with-iree.mlir"
CASES = lit_functions(LIT)
REJECTED = ("matmul_expand_elementwise", "grouped_conv_collapse_relu", "collapse_expand_transpose",
            "gather_from_region_value", "concat_uneven", "mixed")
KEPT = ("kept_matmul_bias", "kept_dynamic")
# `extreme` overflows the matmuls' sums, where IREE's and numpy's summation orders may give inf
# and NaN on different elements; the other families have finite sums.
IREE_FAMILIES = ("random", "constant", "offset", "zeros")
needs_iree = pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")


def regions(module) -> list[DispatchRegionOp]:
    return [op for op in module.walk() if isinstance(op, DispatchRegionOp)]


def one_module(names: tuple[str, ...]) -> str:
    """The named cases as functions of one module (one pass run, one IREE build)."""
    bodies = [CASES[n].strip().removeprefix("module {").removesuffix("}") if CASES[n].strip().startswith("module")
              else CASES[n] for n in names]
    return "module {\n" + "\n".join(bodies) + "\n}\n"


def run_with_statistics(text: str, pipeline: str):
    stats = pass_statistics.PassStatistics()
    with capture_diagnostics() as diagnostics, pass_statistics.collecting("verify", stats):
        after = apply_pipeline(text, pipeline)
    return after, dict(stats.runs[0][1]), diagnostics


@needs_iree
def test_unwrapped_builds_and_computes_the_same(tmp_path):
    """Every rejected region is unwrapped (one remark each), the kept ones stay; IREE's errors on
    the whole module point into exactly the rejected regions, so only they are compiled alone.
    The output is the input's computation (interpreter, all families) and IREE builds it, bare
    linalg next to our regions, and returns the interpreter's values on random and adversarial
    inputs."""
    names = (*KEPT, *REJECTED)
    text = one_module(names)
    after, counts, diagnostics = run_with_statistics(text, "dispatch-verify-with-iree")
    assert counts == {"regions checked": 9, "regions unwrapped": len(REJECTED), "modules compiled whole": 2,
                      "regions compiled alone": len(REJECTED)}
    assert sorted(d.severity for d in diagnostics) == ["remark"] * len(REJECTED)
    assert len(regions(after)) == len(KEPT) + 1  # the first layer of `mixed` stays
    assert "compilation_info" not in print_module(after)
    before = parse_module(text)
    for name in names:
        assert_same_semantics(text, after, "dispatch-verify-with-iree", seeds=(0,), entry=name)
    vmfb = build_llvm_cpu({"after": print_module(after)}, tmp_path)["after"]
    functions = {op.sym_name.data: op for op in before.walk() if op.name == "func.func"}
    for name in names:
        for family in IREE_FAMILIES:
            args = family_inputs(functions[name], family, seed=1)
            expected = run_module(before, args, name)[0]
            assert_agrees(run_vmfb(vmfb, args, name)[0], expected, family, rtol=1e-5)


@needs_iree
def test_isolating_every_region_gives_the_same_output():
    text = one_module(("kept_matmul_bias", "concat_uneven"))
    whole_first = print_module(apply_pipeline(text, "dispatch-verify-with-iree"))
    isolated, counts, _ = run_with_statistics(text, "dispatch-verify-with-iree{whole-module-first=false}")
    assert print_module(isolated) == whole_first
    assert counts == {"regions checked": 2, "regions unwrapped": 1, "regions compiled alone": 2}


@needs_iree
def test_a_module_that_builds_is_compiled_once():
    after, counts, diagnostics = run_with_statistics(CASES["kept_matmul_bias"], "dispatch-verify-with-iree")
    assert counts == {"regions checked": 1, "regions unwrapped": 0, "modules compiled whole": 1}
    assert not diagnostics and len(regions(after)) == 1


LAYERS = """
func.func @layers(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %w0 = arith.constant dense<[[W0]]> : tensor<16x16xf32>
  %w1 = arith.constant dense<[[W1]]> : tensor<16x16xf32>
  %z = arith.constant 0.0 : f32
  %r0 = flow.dispatch.region -> (tensor<8x16xf32>) {
    %e = tensor.empty() : tensor<8x16xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    %m = linalg.matmul ins(%x, %w0 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
    flow.return %m : tensor<8x16xf32>
  }
  %r1 = flow.dispatch.region -> (tensor<8x16xf32>) {
    %e1 = tensor.empty() : tensor<8x16xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %m1 = linalg.matmul ins(%r0, %w1 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f1 : tensor<8x16xf32>) -> tensor<8x16xf32>
    flow.return %m1 : tensor<8x16xf32>
  }
  return %r1 : tensor<8x16xf32>
}
"""


def layers_text() -> str:
    """Two matmul layers over different 1 KiB weight constants (too large to inline)."""
    rows = lambda scale: ", ".join("[" + ", ".join(f"{scale * (i + j)}.0" for j in range(16)) + "]" for i in range(16))
    return LAYERS.replace("[W0]", rows(1)).replace("[W1]", rows(2))


def test_identical_layers_isolate_to_one_text():
    """Large captured constants become arguments and names are dropped: both layers print the
    same module (one compile); the scalar the fills capture stays a constant."""
    texts = [print_module(isolated_region_module(r)) for r in regions(parse_module(layers_text()))]
    assert texts[0] == texts[1]
    assert "func.func @main(%0: tensor<8x16xf32>, %1: tensor<16x16xf32>) -> tensor<8x16xf32>" in texts[0]
    assert "arith.constant 0.000000e+00 : f32" in texts[0]
    assert "dense<" not in texts[0]


@needs_iree
def test_identical_layers_compile_once():
    _, counts, _ = run_with_statistics(layers_text(), "dispatch-verify-with-iree{whole-module-first=false}")
    assert counts == {"regions checked": 2, "regions unwrapped": 0, "regions compiled alone": 1}


def test_without_iree_compile_nothing_changes(monkeypatch, tmp_path):
    """A rejected region stays when iree-compile cannot be found, with one warning."""
    monkeypatch.setenv("PATH", str(tmp_path))
    text = CASES["matmul_expand_elementwise"]
    after, counts, diagnostics = run_with_statistics(text, "dispatch-verify-with-iree")
    assert print_module(after) == print_module(parse_module(text))
    assert counts == {}
    assert [d.severity for d in diagnostics] == ["warning"]
    assert "iree-compile is not on PATH: 1 dispatch regions left unchecked" in diagnostics[0].message


@needs_iree
def test_no_answer_in_time_keeps_the_region():
    text = CASES["matmul_expand_elementwise"]
    after, counts, diagnostics = run_with_statistics(text, "dispatch-verify-with-iree{timeout=0.001}")
    assert print_module(after) == print_module(parse_module(text))
    assert counts["regions unwrapped"] == 0
    assert [d.severity for d in diagnostics] == ["warning"]
    assert "kept the region of linalg.matmul unchecked: no answer in 0.001 s" in diagnostics[0].message


@needs_iree
def test_a_failure_outside_the_regions_is_reported():
    """The module fails (a graph op IREE cannot read) but its region builds alone: kept, warned."""
    text = CASES["kept_matmul_bias"].replace(
        "return %r", "%n = graph.exp %r : tensor<16x64xf32>\n  return %n")
    after, counts, diagnostics = run_with_statistics(text, "dispatch-verify-with-iree")
    assert len(regions(after)) == 1 and counts["regions unwrapped"] == 0
    assert [d.severity for d in diagnostics] == ["warning"]
    assert "every region builds alone but the module does not" in diagnostics[0].message


def test_region_line_spans():
    """Each region's first and last printed line, in walk order (IREE's error lines map to them)."""
    text = print_module(parse_module(layers_text()))
    lines = text.splitlines()
    spans = region_line_spans(text)
    assert len(spans) == 2
    for first, last in spans:
        assert "flow.dispatch.region" in lines[first - 1] and lines[last - 1].strip() == "}"
        assert "flow.return" in lines[last - 2]
    assert "linalg.matmul ins(%x" in "\n".join(lines[spans[0][0] - 1:spans[0][1]])


def test_first_error_line():
    stderr = ("/tmp/x/a.mlir:4:8: error: 'func.func' op exceeded stack allocation limit\n"
              "/tmp/x/a.mlir:4:8: note: see current operation\n"
              "/tmp/x/a.mlir:4:8: error: failed to run translation of source executable\n")
    assert first_error_line(stderr) == "'func.func' op exceeded stack allocation limit"
    assert first_error_line("Segmentation fault\n") == "Segmentation fault"
    assert first_error_line("") == "iree-compile failed"


@pytest.mark.parametrize("options, message", [
    ("target=rocm", "target must be llvm-cpu or cuda"),
    ("compile-to=flow", "compile-to must be one of executable-targets, end"),
    ("jobs=-1", "jobs must be >= 0"),
    ("timeout=0", "timeout > 0"),
])
def test_bad_options(options, message):
    with pytest.raises(FusionError, match=message):
        apply_pipeline(CASES["kept_matmul_bias"], f"dispatch-verify-with-iree{{{options}}}")
