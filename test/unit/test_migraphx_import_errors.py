"""MIGraphX importer errors: every bad input is a located `MigraphxImportError`, never another
exception (a traceback for the user), including randomly damaged programs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fusionopt.diagnostics import capture_diagnostics
from fusionopt.importers.migraphx_import import import_migraphx, import_migraphx_text
from fusionopt.importers.migraphx_parse import MigraphxImportError

DATA = Path(__file__).resolve().parents[1] / "data" / "migraphx"
X = "x = @param:x -> float_type, {2, 4}, {4, 1}\n"


def error_of(text: str) -> MigraphxImportError:
    with pytest.raises(MigraphxImportError) as info, capture_diagnostics():
        import_migraphx_text(text, "p.txt")
    return info.value


@pytest.mark.parametrize("line,message,col", [
    ("@1 = add(x) -> float_type, {2, 4}, {4, 1}", "'add' takes 2 operands, got 1", 6),
    ("@1 = where(x,x) -> float_type, {2, 4}, {4, 1}", "'where' takes 3 operands, got 2", 6),
    ("@1 = concat[axis=one](x,x) -> float_type, {4, 4}, {4, 1}",
     "attribute 'axis' must be an integer, got 'one'", 6),
    ("@1 = slice[axes={1},starts={0}](x) -> float_type, {2, 2}, {4, 1}",
     "'slice' needs the attribute 'ends'", 6),
    ("@1 = transpose[permutation={a, b}](x) -> float_type, {4, 2}, {1, 4}",
     "attribute 'permutation' must be integers", 6),
    ("@1 = gpu::gemm[alpha=x,beta=0](x,x,@0) -> float_type, {2, 2}, {2, 1}",
     "attribute 'alpha' must be a number, got 'x'", 6),
    ("@1 = gpu::relu(x) -> float_type, {2, 4}, {4, 1}",
     "'gpu::relu' takes 1 operands besides its output buffer, got 0", 6),
    ("@1 = multibroadcast[out_lens={3, 4}](x) -> float_type, {3, 4}, {0, 1}",
     "shape mismatch: cannot broadcast [2, 4] to [3, 4]", 6),
    ("@1 = relu(x) -> float_type, {2, 4}, {4, 1}\n@2 = @return(@1,@7)",
     "'@7' is not defined before this use", 17),
    ("@1 = convert[target_type=9](x) -> int64_type, {2, 4}, {4, 1}\n"
     "@2 = sigmoid(@1) -> int64_type, {2, 4}, {4, 1}",
     "'sigmoid' cannot be imported: element type must be a float type", 6),
    ("@1 = relu(x) -> [float_type, {2, 4}, {4, 1}, float_type, {2}, {1}]",
     "'@1': a tuple shape is not supported", 6),
])
def test_located_errors(line, message, col):
    err = error_of(X + line + "\n")
    assert message in err.message
    assert err.location is not None and err.location.file == "p.txt"
    assert (err.location.line, err.location.col) == (line.count("\n") + 2, col)


def test_empty_program_and_unreadable_files(tmp_path):
    assert "no instructions" in error_of("\n\n").message
    assert "No such file" in pytest.raises(MigraphxImportError, import_migraphx,
                                           tmp_path / "missing.txt").value.message
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "could not read" in pytest.raises(MigraphxImportError, import_migraphx, binary).value.message


def test_only_the_main_module_is_imported():
    text = ('module: "main:pointwise0"\nx0 = @param:x0 -> float_type, {1}, {0}\n'
            '@1 = neg(x0) -> float_type, {1}, {0}\n'
            f'module: "main"\n{X}@1 = relu(x) -> float_type, {{2, 4}}, {{4, 1}}\n')
    module = import_migraphx_text(text, "p.txt")
    assert "graph.relu" in str(module) and "graph.neg" not in str(module)


def mutations(text: str, count: int, seed: int):
    """Damaged copies of `text`: a character dropped, duplicated or replaced by punctuation."""
    rng = random.Random(seed)
    for _ in range(count):
        i = rng.randrange(len(text))
        kind = rng.randrange(3)
        if kind == 0:
            yield text[:i] + text[i + 1:]
        elif kind == 1:
            yield text[:i] + text[i] + text[i:]
        else:
            yield text[:i] + rng.choice("{}[](),=@-> \n0x") + text[i + 1:]


@pytest.mark.parametrize("name", ["views_and_literals.txt", "distilgpt2_gemm_chain_seed.txt"])
def test_damaged_programs_fail_cleanly(name):
    text = (DATA / name).read_text()
    outcomes = {"ok": 0, "error": 0}
    for damaged in mutations(text, 120, seed=len(name)):
        try:
            with capture_diagnostics():
                import_migraphx_text(damaged, "d.txt")
            outcomes["ok"] += 1
        except MigraphxImportError as err:
            assert err.location is None or err.location.file == "d.txt"
            assert not err.message.startswith("internal"), (err.format(), damaged)
            outcomes["error"] += 1
    assert outcomes["error"] > 0  # the damage is noticed (not everything is accepted)
