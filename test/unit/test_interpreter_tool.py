"""`fusion-run` command line: inputs, --save, --compare exit codes, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.tools.fusion_run import main

ADD = """func.func @f(%a: tensor<3xf32>, %b: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %r = arith.addf %a, %a : tensor<3xf32>
  %i = arith.addi %b, %b : tensor<3xi32>
  return %r, %i : tensor<3xf32>, tensor<3xi32>
}
"""
ADD_PLUS_TINY = ADD.replace("return %r,", "%t = arith.constant dense<1.0e-3> : tensor<3xf32>\n  %s = arith.addf %r, %t : tensor<3xf32>\n  return %s,")


def fusion_run(*argv: str) -> int:
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    return info.value.code


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {"add": tmp_path / "add.mlir", "tiny": tmp_path / "tiny.mlir"}
    paths["add"].write_text(ADD)
    paths["tiny"].write_text(ADD_PLUS_TINY)
    return paths


def test_inputs_npz_and_save(files, tmp_path: Path) -> None:
    np.savez(tmp_path / "in.npz", arg0=np.array([1, 2, 3], np.float32), arg1=np.array([10, 20, 30], np.int32))
    assert fusion_run(str(files["add"]), "--inputs", str(tmp_path / "in.npz"), "--save", str(tmp_path / "out.npz")) == 0
    saved = np.load(tmp_path / "out.npz")
    assert saved["result0"].tolist() == [2, 4, 6] and saved["result1"].tolist() == [20, 40, 60]


def test_inputs_by_argument_name(files, tmp_path: Path) -> None:
    np.savez(tmp_path / "in.npz", a=np.ones(3, np.float32), b=np.zeros(3, np.int32))
    assert fusion_run(str(files["add"]), "--inputs", str(tmp_path / "in.npz"), "--save", str(tmp_path / "o.npz")) == 0
    assert np.load(tmp_path / "o.npz")["result0"].tolist() == [2, 2, 2]


def test_random_inputs_respect_int_range_and_seed(files, tmp_path: Path) -> None:
    outs = []
    for seed in ("3", "3", "4"):
        out = tmp_path / f"r{len(outs)}.npz"
        assert fusion_run(str(files["add"]), "--seed", seed, "--int-range", "100,101", "--save", str(out)) == 0
        saved = np.load(out)
        outs.append(saved["result0"])
        assert saved["result1"].tolist() == [200, 200, 200]  # integers drawn from [100, 101)
    assert np.array_equal(outs[0], outs[1]) and not np.array_equal(outs[0], outs[2])


def test_compare_exit_code_follows_tolerance(files, capsys) -> None:
    assert fusion_run(str(files["add"]), "--compare", str(files["add"])) == 0
    assert "result0: max_abs_diff=0.000e+00" in capsys.readouterr().out
    assert fusion_run(str(files["add"]), "--compare", str(files["tiny"])) == 1
    assert "MISMATCH" in capsys.readouterr().out
    assert fusion_run(str(files["add"]), "--compare", str(files["tiny"]), "--atol", "2e-3") == 0


def test_errors_are_reported_with_location(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() -> () {\n  %0 = arith.addf %x, %x : f32\n  return\n}\n")
    assert fusion_run(str(bad)) == 1
    assert f"{bad}:2:" in capsys.readouterr().err
    assert fusion_run(str(tmp_path / "missing.mlir")) == 1
    assert "error:" in capsys.readouterr().err
    assert fusion_run(str(bad), "--entry", "nope") == 1


def test_missing_npz_entry(files, tmp_path: Path, capsys) -> None:
    np.savez(tmp_path / "in.npz", arg0=np.ones(3, np.float32))
    assert fusion_run(str(files["add"]), "--inputs", str(tmp_path / "in.npz")) == 1
    assert "no entry for argument 1" in capsys.readouterr().err


def test_family_inputs_and_float64_reference(files, tmp_path: Path, capsys) -> None:
    out = tmp_path / "c.npz"
    assert fusion_run(str(files["add"]), "--inputs", "constant", "--int-range", "4,9", "--save", str(out)) == 0
    saved = np.load(out)
    assert saved["result0"].dtype == np.float32 and np.all(saved["result0"] == np.float32(0.02))
    assert saved["result1"].tolist() == [8, 8, 8]
    assert fusion_run(str(files["add"]), "--float64", "--inputs", "offset", "--save", str(out)) == 0
    assert np.load(out)["result0"].dtype == np.float64
    assert "result0: 3 float64" in capsys.readouterr().out


def test_compare_against_f64_reference_on_families(files, capsys) -> None:
    families = "random,constant,offset,zeros,extreme,mask,ids-edge"
    assert fusion_run(str(files["add"]), "--compare", str(files["add"]), "--reference", "f64", "--families", families) == 0
    out = capsys.readouterr().out
    assert out.count("result0: ok, within tolerance of the f64 reference") == 7
    assert "inputs: offset (seed 0)" in out and "result1: ok, integers equal" in out
    assert fusion_run(str(files["add"]), "--compare", str(files["tiny"]), "--reference", "f64") == 1
    assert "result0: FAILED" in capsys.readouterr().out


def test_families_errors(files, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        main([str(files["add"]), "--compare", str(files["add"]), "--families", "random,nope"])
    assert "unknown input families ['nope']" in capsys.readouterr().err
    np.savez(tmp_path / "in.npz", arg0=np.ones(3, np.float32), arg1=np.ones(3, np.int32))
    assert fusion_run(str(files["add"]), "--inputs", str(tmp_path / "in.npz"), "--families", "offset") == 1
    assert "cannot be combined with --inputs IN.npz" in capsys.readouterr().err
