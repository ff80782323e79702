"""What the four tools share, as mlir-opt users expect: exit codes (1 user error, 2 internal error), usage and
"did you mean" for unknown flags, MLIR flag spellings, --verify-each, pass statistics, elision,
and the pipeline examples the docs show."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

import fusionopt.testing
from fusionopt import pass_statistics, registry
from fusionopt.diagnostics import FusionError
from fusionopt.importers import onnx_frontend
from fusionopt.ir_io import parse_module, print_module
from fusionopt.opt_args import build_arg_parser
from fusionopt.opt_main import main as fusion_opt
from fusionopt.pass_runner import RunOptions, run_passes
from fusionopt.pipeline_spec import build_passes, parse_pipeline
from fusionopt.tools import fusion_run, fusion_stats, fusion_translate
from support.ir_test_passes import BreakIRPass, NoOpPass

VALID = "func.func @f(%a: f32) -> f32 {\n  func.return %a : f32\n}\n"


def run_opt(argv: list[str], stdin: str = VALID) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = fusion_opt(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _exit_code(call) -> int:
    try:
        result = call()
    except SystemExit as exit_info:
        return int(exit_info.code or 0)
    return int(result or 0)


# -- exit codes and unknown flags, every tool -----------------------------------------------------


def test_fusion_opt_unknown_flag_usage_and_suggestion():
    code, out, err = run_opt(["-", "--mlir-print-ir-afterall"])
    assert (code, out) == (1, "")
    assert err.startswith("usage: fusion-opt")
    assert "did you mean '--mlir-print-ir-after-all'?" in err


@pytest.mark.parametrize(
    "tool, prog, argv, suggestion",
    [
        (fusion_run.main, "fusion-run", ["x.mlir", "--compre", "y.mlir"], "--compare"),
        (fusion_stats.main, "fusion-stats", ["x.mlir", "--jsn"], "--json"),
        (fusion_translate.main, "fusion-translate", ["--import-onnx", "m.onnx", "--weigths", "args"], "--weights"),
    ],
)
def test_every_tool_unknown_flag_is_exit_1_with_suggestion(tool, prog, argv, suggestion, capsys):
    assert _exit_code(lambda: tool(argv)) == 1  # argparse alone would exit 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: {prog}")
    assert f"did you mean '{suggestion}'?" in err


def test_internal_errors_are_exit_2_in_every_tool(tmp_path, monkeypatch, capsys):
    src = tmp_path / "f.mlir"
    src.write_text(VALID)

    def boom(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(fusion_stats, "compute_stats", boom)
    assert _exit_code(lambda: fusion_stats.main([str(src)])) == 2
    monkeypatch.setattr(fusion_run, "run_function", boom)
    assert _exit_code(lambda: fusion_run.main([str(src)])) == 2
    monkeypatch.setattr(onnx_frontend, "import_onnx", boom)  # the importer itself crashes
    onnx_model = Path(__file__).resolve().parents[1] / "data" / "onnx" / "conv_bn_relu.onnx"  # loads, static
    assert _exit_code(lambda: fusion_translate.main(["--import-onnx", str(onnx_model)])) == 2
    err = capsys.readouterr().err
    for prog in ("fusion-stats", "fusion-run", "fusion-translate"):
        assert f"{prog}: internal error: RuntimeError: boom" in err
    assert run_opt(["-", "-p", "test-diagnostics{crash=true}"])[0] == 2


def test_user_errors_are_exit_1_in_every_tool(tmp_path, capsys):
    missing = str(tmp_path / "missing.mlir")
    assert _exit_code(lambda: fusion_stats.main([missing])) == 1
    assert _exit_code(lambda: fusion_run.main([missing])) == 1
    assert _exit_code(lambda: fusion_translate.main(["--import-onnx", missing])) == 1
    assert run_opt([missing])[0] == 1
    assert "Traceback" not in capsys.readouterr().err


# -- flags ----------------------------------------------------------------------------------------


def test_mlir_spellings_are_accepted():
    args = build_arg_parser().parse_args(
        ["--mlir-print-ir-after-all", "--mlir-print-ir-before=cse,dce", "--mlir-print-ir-after=cse",
         "--mlir-print-ir-before-all", "--mlir-pass-statistics", "--mlir-elide-elementsattrs-if-larger=4"]
    )
    assert args.print_ir_after_all and args.print_ir_before_all and args.pass_statistics
    assert args.print_ir_before == {"cse", "dce"} and args.print_ir_after == {"cse"}
    assert args.elide_elements_if_larger == 4


def test_version_and_show_dialects():
    code, out, _ = run_opt(["--version"])
    assert code == 0 and out.startswith("fusionopt version ") and "xDSL version" in out
    code, out, _ = run_opt(["--show-dialects"])
    names = out.removeprefix("Available Dialects: ").strip().split(",")
    assert code == 0 and {"arith", "builtin", "flow", "func", "graph", "linalg", "tensor"} <= set(names)


def test_verify_each_names_the_pass_that_broke_the_ir():
    module = parse_module(VALID)
    with pytest.raises(FusionError) as err:
        run_passes([BreakIRPass()], Context(), module, RunOptions(verify=True))
    assert "the IR does not verify after pass 'test-break-ir'" in err.value.format()
    run_passes([BreakIRPass()], Context(), parse_module(VALID), RunOptions(verify=False))


@dataclasses.dataclass(frozen=True)
class WarnPass(ModulePass):
    name = "test-warn"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from fusionopt.diagnostics import emit_warning

        emit_warning(op, "a warning of the first run")


@pytest.fixture
def test_passes(monkeypatch):
    """fusion-opt's registry with the test passes (`-p test-break-ir,...`)."""
    passes = {**registry.get_all_passes(), "test-break-ir": lambda: BreakIRPass, "test-no-op": lambda: NoOpPass,
              "test-warn": lambda: WarnPass}
    monkeypatch.setattr(registry, "get_all_passes", lambda: passes)


@pytest.mark.parametrize("flags", [[], ["--verify-each"]])
def test_fusion_opt_names_the_pass_that_broke_the_ir(test_passes, flags):
    """By default the result is verified once and a failure replayed pass by pass (pass_runner);
    the error is the one verifying after every pass gives."""
    code, out, err = run_opt(["-p", "test-break-ir,test-no-op,test-no-op", *flags])
    assert code == 1 and out == ""
    assert "the IR does not verify after pass 'test-break-ir'" in err


def test_fusion_opt_replays_an_onnx_input_to_name_the_pass(test_passes, monkeypatch):
    """An ONNX input is imported afresh for the replay (nothing of the failed run is reused)."""
    imports = []
    real_import = onnx_frontend.import_onnx_file
    monkeypatch.setattr(onnx_frontend, "import_onnx_file", lambda *a, **k: imports.append(1) or real_import(*a, **k))
    model = Path(__file__).resolve().parents[1] / "data" / "onnx" / "conv_bn_relu.onnx"
    code, out, err = run_opt([str(model), "-p", "test-break-ir,test-no-op"])
    assert code == 1 and out == "" and len(imports) == 2
    assert "the IR does not verify after pass 'test-break-ir'" in err
    imports.clear()
    assert run_opt([str(model), "-p", "test-no-op"])[0] == 0 and len(imports) == 1


def test_the_replay_repeats_no_warning(test_passes):
    code, _, err = run_opt(["-p", "test-warn,test-break-ir,test-no-op"])
    assert code == 1 and "the IR does not verify after pass 'test-break-ir'" in err
    assert err.count("a warning of the first run") == 1


def test_verify_each_flag_values():
    parse = lambda *argv: fusionopt.opt_args.parse_command_line(list(argv)).verify_each  # noqa: E731
    assert parse() is None and parse("--verify-each") is True  # None: deferred (pass_runner)
    assert parse("--verify-each=false") is False and parse("--verify-each=0") is False
    assert parse("--verify-each=true", "x.mlir") is True  # never swallows the input file


def test_pass_statistics_only_when_collecting():
    pass_statistics.count("ignored")  # no collection: a no-op
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting("p", stats):
        pass_statistics.count("things", 2)
        pass_statistics.count("things")
    with pass_statistics.collecting("q", stats):
        pass
    assert stats.runs == [("p", {"things": 3}), ("q", {})]
    report = stats.format_report()
    assert "... Pass statistics report ..." in report and "p\n  (things) : 3\nq\n" in report


def test_elision_matches_mlir():
    module = parse_module(
        "func.func @f() -> (tensor<3xi32>, tensor<4xi32>) {\n"
        "  %0 = arith.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
        "  %1 = arith.constant dense<7> : tensor<4xi32>\n"
        "  func.return %0, %1 : tensor<3xi32>, tensor<4xi32>\n}\n"
    )
    text = print_module(module, elide_elements_if_larger=2)
    assert "arith.constant dense_resource<__elided__> : tensor<3xi32>" in text
    assert "arith.constant dense<7> : tensor<4xi32>" in text  # splats are never elided
    assert "dense<[1, 2, 3]>" in print_module(module, elide_elements_if_larger=3)


# -- documented examples are real -------------------------------------------------------------------


def _pipeline_examples(text: str) -> list[str]:
    return re.findall(r"'([\w-]+(?:,[\w-]+)*\{[^}]*\})'|\"([\w,-]+\{[^}]*\})\"", text)


def test_help_and_testing_docstring_pipeline_examples_build():
    help_text = " ".join(action.help or "" for action in build_arg_parser()._actions)
    examples = [a or b for a, b in _pipeline_examples(help_text)]
    examples += [a or b for a, b in _pipeline_examples(fusionopt.testing.__doc__ or "")]
    assert len(examples) >= 2, examples
    for spec in examples:
        assert build_passes(parse_pipeline(spec, registry.PIPELINES), registry.get_all_passes()), spec


def test_readme_quick_start_uses_the_comparison():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert ("bash bootstrap-venv.sh && .venv/bin/fusion-opt examples/mlp_towers.mlir -p graph-to-dispatch"
            " | .venv/bin/fusion-stats examples/mlp_towers.mlir -") in readme



def test_console_tools_collect_cycles_rarely_in_their_own_process_only(tmp_path):
    """fusion-translate called in-process (argv given, as here) leaves the caller's cycle
    collector alone; `collect_cycles_rarely`, which the console scripts call, freezes what
    exists and raises the young threshold (checked in a fresh process)."""
    import gc
    import subprocess
    import sys

    before = gc.get_threshold()
    onnx_file = Path(__file__).parents[1] / "data" / "onnx" / "conv_affine.onnx"
    with pytest.raises(SystemExit) as done:
        fusion_translate.main(["--import-onnx", str(onnx_file), "-o", str(tmp_path / "m.mlir")])
    assert done.value.code == 0 and (tmp_path / "m.mlir").stat().st_size > 0
    assert gc.get_threshold() == before
    probe = ("import gc; from fusionopt.cli import YOUNG_COLLECTION_OBJECTS, collect_cycles_rarely; "
             "print(gc.get_threshold()[0] == YOUNG_COLLECTION_OBJECTS, gc.get_freeze_count() > 0); "
             "collect_cycles_rarely(); "
             "print(gc.get_threshold()[0] == YOUNG_COLLECTION_OBJECTS, gc.get_freeze_count() > 0)")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "False", "True", "True"]
