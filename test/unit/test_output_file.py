"""`-o` of every tool (fusionopt/output_file.py): stdout for `-`, FIFOs and other special files
written into (never replaced), symlinks followed, modes from the umask or the existing file,
atomic replacement of regular files only, untouched output on failure. Never a real device."""

from __future__ import annotations

import io
import os
import stat
import threading
from pathlib import Path

import numpy as np
import pytest

from fusionopt.diagnostics import FusionError
from fusionopt.opt_main import main as fusion_opt
from fusionopt import output_file
from fusionopt.output_file import OutputFile, current_umask, write_output
from fusionopt.tools import fusion_run

VALID = "func.func @f(%a: f32) -> f32 {\n  func.return %a : f32\n}\n"
BROKEN = "func.func @f(\n"


def run_opt(argv: list[str], stdin: str = VALID) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = fusion_opt(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def _read_fifo(path: Path, sink: list[bytes]) -> threading.Thread:
    def reader() -> None:
        with open(path, "rb") as handle:  # blocks until the writer opens it
            sink.append(handle.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    return thread


def test_dash_is_stdout_and_creates_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_opt(["-", "-o", "-"])
    assert (code, err) == (0, "")
    assert "func.func @f" in out
    assert list(tmp_path.iterdir()) == []  # no file named '-'


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    thread = _read_fifo(fifo, received)
    code, _, err = run_opt(["-", "-o", str(fifo)])
    thread.join(timeout=30)
    assert (code, err) == (0, "")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO
    assert b"func.func @f" in received[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no temp file left


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_output_of_fusion_run_save(tmp_path):
    src = tmp_path / "f.mlir"
    src.write_text(VALID)
    fifo = tmp_path / "out.npz"
    os.mkfifo(fifo)
    received: list[bytes] = []
    thread = _read_fifo(fifo, received)
    with pytest.raises(SystemExit) as exit_info:
        fusion_run.main([str(src), "--save", str(fifo)])
    thread.join(timeout=30)
    assert exit_info.value.code == 0
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert np.load(io.BytesIO(received[0]))["result0"].shape == ()


def test_symlink_target_is_written_and_link_kept(tmp_path):
    target = tmp_path / "real.mlir"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.mlir"
    link.symlink_to(target.name)
    code, _, err = run_opt(["-", "-o", str(link)])
    assert (code, err) == (0, "")
    assert link.is_symlink() and os.readlink(link) == "real.mlir"
    assert "func.func @f" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.mlir", "real.mlir"]


def test_dangling_symlink_creates_its_target(tmp_path, umask_027):
    link = tmp_path / "link.mlir"
    link.symlink_to("made.mlir")
    assert run_opt(["-", "-o", str(link)])[0] == 0
    assert link.is_symlink() and "func.func @f" in (tmp_path / "made.mlir").read_text()


def test_new_file_gets_the_umask_mode(tmp_path, umask_027):
    out = tmp_path / "new.mlir"
    assert run_opt(["-", "-o", str(out)])[0] == 0
    assert current_umask() == 0o027
    assert stat.S_IMODE(out.stat().st_mode) == 0o640  # 0666 & ~027, not mkstemp's 0600


def test_new_file_mode_with_umask_022(tmp_path):
    old = os.umask(0o022)
    try:
        write_output(str(tmp_path / "x.txt"), "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "x.txt").stat().st_mode) == 0o644


def test_existing_file_keeps_its_mode(tmp_path, umask_027):
    out = tmp_path / "old.mlir"
    out.write_text("old\n")
    out.chmod(0o640)
    os.umask(0o077)
    assert run_opt(["-", "-o", str(out)])[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert "func.func @f" in out.read_text()


def test_failed_run_leaves_existing_file_and_mode(tmp_path):
    out = tmp_path / "old.mlir"
    out.write_text("old contents\n")
    out.chmod(0o640)
    code, _, err = run_opt(["-", "-o", str(out)], BROKEN)
    assert code == 1 and "error" in err
    assert out.read_text() == "old contents\n"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["old.mlir"]


def test_directory_is_refused(tmp_path):
    with pytest.raises(FusionError, match="cannot open output file .*Is a directory"):
        OutputFile(str(tmp_path))


def test_discard_removes_the_temporary_file(tmp_path):
    output = OutputFile(str(tmp_path / "x.mlir"))
    assert len(list(tmp_path.iterdir())) == 1  # the temp file, reserved up front
    output.discard()
    assert list(tmp_path.iterdir()) == []


def test_fusion_translate_uses_the_helper():
    import fusionopt.tools.fusion_translate as translate

    assert not hasattr(translate, "write_atomically")
    assert "tempfile" not in vars(translate)


def test_text_longer_than_an_encode_chunk_is_written_whole(tmp_path, monkeypatch):
    """Text is encoded a chunk at a time; a character split across no chunk (chunks are of
    characters), non-ASCII at the boundary included."""
    monkeypatch.setattr(output_file, "ENCODE_CHUNK", 4)
    text = "abc\u00e9\u4e2d" * 5 + "tail\n"
    target = tmp_path / "out.mlir"
    write_output(str(target), text)
    assert target.read_bytes() == text.encode("utf-8")
