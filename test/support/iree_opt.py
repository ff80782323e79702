"""Running IREE's `iree-opt` from tests: does it read (and how does it print) a text."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

IREE_OPT = shutil.which("iree-opt")


def iree_opt(text: str, tmp_path: Path, *flags: str) -> str:
    """iree-opt's output for `text`; the test fails with iree-opt's diagnostics if it rejects it."""
    path = tmp_path / "in.mlir"
    path.write_text(text)
    done = subprocess.run([IREE_OPT, str(path), *flags], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[:2000]
    return done.stdout
