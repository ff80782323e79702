"""The console tools leave without tearing down the interpreter (`cli.exit_process`): same exit
code, and everything written to stdout, stderr and the output file arrives."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fusionopt import cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mlp_towers.mlir"


def test_buffered_streams_arrive_and_the_code_is_kept():
    script = textwrap.dedent(
        """
        import sys
        from fusionopt.cli import exit_process
        sys.stdout.write("out" * 100)  # held in the buffers until flushed
        sys.stderr.write("err")
        exit_process(3)
        """
    )
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=buffered)
    assert (done.returncode, done.stdout, done.stderr) == (3, "out" * 100, "err")


def test_a_failing_flush_takes_the_ordinary_exit(monkeypatch):
    class ClosedPipe(io.StringIO):
        def flush(self):
            raise BrokenPipeError

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    with pytest.raises(SystemExit) as exit_:
        cli.exit_process(1)
    assert exit_.value.code == 1


@pytest.mark.parametrize("output", ["-o", None])
def test_fusion_opt_console_writes_its_output(tmp_path: Path, output):
    """The module entry point (`python -m`, as the console script) through exit_process."""
    target = tmp_path / "out.mlir"
    command = [sys.executable, "-m", "fusionopt.tools.fusion_opt", str(EXAMPLE), "-p", "graph-to-dispatch"]
    done = subprocess.run(command + (["-o", str(target)] if output else []), capture_output=True, text=True)
    in_process = subprocess.run(
        [sys.executable, "-c", "import sys; from fusionopt.opt_main import main; "
         f"sys.exit(main([{str(EXAMPLE)!r}, '-p', 'graph-to-dispatch']))"],
        capture_output=True, text=True,
    )
    assert done.returncode == in_process.returncode == 0
    assert (target.read_text() if output else done.stdout) == in_process.stdout
