"""In-process tests of the `fusion-opt` driver: exit codes, pipelines, diagnostics API."""

from __future__ import annotations

import io
import dataclasses

import pytest
from xdsl.dialects.builtin import FileLineColLoc

from fusionopt import registry
from fusionopt.diagnostics import (
    FusionError,
    capture_diagnostics,
    emit_remark,
    emit_warning,
    location_of,
)
from fusionopt.ir_io import parse_file, parse_module, print_module
from fusionopt.opt_main import main, split_input
from fusionopt.pipeline_spec import build_passes, parse_pipeline

VALID = """\
func.func @f(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %a, %a : f32
  %2 = arith.mulf %0, %1 : f32
  func.return %2 : f32
}
"""


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# -- exit codes -------------------------------------------------------------------------------


def test_success_prints_optimized_module():
    code, out, err = run(["-", "-p", "cse"], VALID)
    assert (code, err) == (0, "")
    assert out.count("arith.addf") == 1 and "arith.mulf %0, %0" in out


def test_user_error_exit_1_with_location_and_caret():
    code, out, err = run(["-"], VALID.replace("%a, %a : f32\n  %1", "%a, %b : f32\n  %1"))
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "<stdin>:2:23: error: use of undeclared SSA value name '%b'",
        "  %0 = arith.addf %a, %b : f32",
        "                      ^",
    ]


def test_crashing_pass_is_internal_error_exit_2(tmp_path):
    target = tmp_path / "out.mlir"
    target.write_text("old contents")
    code, out, err = run(["-", "-p", "test-diagnostics{crash=true}", "-o", str(target)], VALID)
    assert code == 2
    assert "internal error: pass 'test-diagnostics' crashed: RuntimeError" in err
    assert target.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["out.mlir"]  # temp file cleaned up


def test_pass_error_is_user_error_at_op():
    code, _, err = run(["-", "-p", "test-diagnostics{severity=error ops=arith.mulf}"], VALID)
    assert code == 1
    assert err.startswith("<stdin>:4:3: error: found arith.mulf\n")


def test_warnings_do_not_fail_but_are_printed():
    code, out, err = run(["-", "-p", "test-diagnostics{severity=warning}"], VALID)
    assert code == 0 and "func.func @f" in out
    assert "<stdin>:2:3: warning: found arith.addf" in err
    assert "<stdin>:3:3: warning: found arith.addf" in err


# -- pipelines ----------------------------------------------------------------------------------


def test_named_pipeline_expands_anywhere(monkeypatch):
    pipelines = {"dedup": registry.Pipeline("CSE then DCE.", "cse, dce")}
    monkeypatch.setattr(registry, "PIPELINES", pipelines)
    requests = parse_pipeline("builtin.module(func.func(dedup), canonicalize)", pipelines)
    assert [r.name for r in requests] == ["cse", "dce", "canonicalize"]
    code, out, err = run(["-", "--pass-pipeline=builtin.module(dedup)"], VALID)
    assert code == 0 and out.count("arith.addf") == 1, err
    code, _, err = run(["-", "-p", "dedup{x=1}"], VALID)
    assert code == 1 and "error: pipeline 'dedup' takes no options" in err


def test_recursive_pipeline_is_an_error():
    pipelines = {"loop": registry.Pipeline("", "cse,loop")}
    with pytest.raises(FusionError, match="pipeline 'loop' refers to itself"):
        parse_pipeline("loop", pipelines)


@dataclasses.dataclass(frozen=True)
class _OptionPass(registry.ModulePass):
    """A pass with typed options."""

    name = "opts"
    count: int = 1
    scale: float = 1.0
    label: str = "x"
    sizes: tuple[int, ...] = ()

    def apply(self, ctx, op):
        pass


def test_option_values_are_typed_and_widened():
    available = {"opts": lambda: _OptionPass}
    spec = "opts{count=3 scale=2 label=\"a b\" sizes=1,2,3}"
    (built,) = build_passes(parse_pipeline(spec), available)
    assert built == _OptionPass(count=3, scale=2.0, label="a b", sizes=(1, 2, 3))
    with pytest.raises(FusionError, match="invalid value '1.5' for option 'count'.*expected int"):
        build_passes(parse_pipeline("opts{count=1.5}"), available)
    with pytest.raises(FusionError) as info:
        build_passes(parse_pipeline("opts{cuont=1}"), available)
    assert info.value.location.col == 6 and "options: count, scale, label, sizes" in info.value.message


def test_list_passes_lists_options_and_pipelines(monkeypatch):
    monkeypatch.setattr(registry, "PIPELINES", {"p1": registry.Pipeline("Does p1.", "cse")})
    code, out, _ = run(["--list-passes"])
    assert code == 0
    assert "  p1" in out and "Does p1." in out and "      = cse" in out
    assert "      severity: str = remark" in out


# -- parse API and locations ---------------------------------------------------------------


def test_parse_module_attaches_locations_to_every_op():
    module = parse_module(VALID, "f.mlir")
    locations = {op.name: location_of(op) for op in module.walk()}
    assert str(locations["arith.mulf"]) == "f.mlir:4:3"  # the statement start, as in MLIR
    assert str(locations["func.func"]) == "f.mlir:1:1"
    assert all(isinstance(op.location, FileLineColLoc) for op in module.walk())
    assert "loc(" not in print_module(module)


def test_parse_file_errors(tmp_path):
    with pytest.raises(FusionError, match="could not open input file"):
        parse_file(tmp_path / "missing.mlir")
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  func.return %x : f32\n}\n")
    with pytest.raises(FusionError) as info:
        parse_file(bad)
    assert info.value.format().splitlines() == [
        f"{bad}:2:15: error: use of undeclared SSA value name '%x'",
        "  func.return %x : f32",
        "              ^",
    ]


def test_emit_remark_api_and_capture():
    module = parse_module(VALID, "r.mlir")
    mulf = next(op for op in module.walk() if op.name == "arith.mulf")
    with capture_diagnostics() as diags:
        emit_remark(mulf, "fused 2 ops")
        emit_warning(None, "no location")
    assert [d.format(with_source=False) for d in diags] == [
        "r.mlir:4:3: remark: fused 2 ops",
        "warning: no location",
    ]


def test_split_input_keeps_file_line_numbers():
    text = "a\n// -----\nb\nc\n// -----\nd\n"
    assert [(c.text, c.line_offset) for c in split_input(text, True)] == [
        ("a\n", 0), ("\nb\nc\n", 1), ("\nd\n", 4),
    ]
    assert len(split_input(text, False)) == 1


def test_ops_built_by_passes_report_at_their_enclosing_op():
    from xdsl.dialects.arith import AddfOp

    module = parse_module(VALID, "p.mlir")
    func = next(op for op in module.walk() if op.name == "func.func")
    block = func.regions[0].blocks[0]
    new_op = AddfOp(block.args[0], block.args[0])  # no location, as built by a rewrite
    block.insert_op_before(new_op, block.first_op)
    assert str(location_of(new_op)) == "p.mlir:1:1"
