"""Where the shared real-model corpus lives (never a machine path in code).

The corpus (`bert_mini/`, `gpt2_mini/`, `mlp_towers/`, `cnn/...`, see its README.md) sits next
to the repository as `../shared/models`; a checkout elsewhere points `FUSIONOPT_CORPUS` at it.

API
- `corpus_dir() -> Path`: `$FUSIONOPT_CORPUS` if set, else `<repo root>/../shared/models`
  (may not exist: callers skip or fail with a reason).
- `model_dir(name) -> Path`, `model_file(name, suffix) -> Path`: `corpus_dir()/name/name.suffix`.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "FUSIONOPT_CORPUS"
REPO_ROOT = Path(__file__).resolve().parents[1]


def corpus_dir() -> Path:
    override = os.environ.get(ENV)
    if override:
        return Path(override).expanduser().resolve()
    return (REPO_ROOT.parent / "shared" / "models").resolve()


def model_dir(name: str) -> Path:
    return corpus_dir() / name


def model_file(name: str, suffix: str) -> Path:
    """`model_file("bert_mini", "args.linalg.mlir")` -> `.../bert_mini/bert_mini.args.linalg.mlir`."""
    return model_dir(name) / f"{name}.{suffix}"


# A true skip reason for tests that need the corpus: where it was looked for, how to point at it.
CORPUS_MISSING = f"shared model corpus not found at {corpus_dir()} (set {ENV} to its path)"
