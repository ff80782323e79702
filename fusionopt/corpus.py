"""Where the shared real-model corpus lives (never a machine path in code).

The corpus (`bert_mini/`, `gpt2_mini/`, `mlp_towers/`, `cnn/...`, see its README.md) sits next
to the repository as `../shared/models`; a checkout elsewhere points `FUSIONOPT_CORPUS` at it.

API
- `corpus_dir() -> Path`: `$FUSIONOPT_CORPUS` if set, else `<repo root>/../shared/models`
  (may not exist: callers skip or fail with a reason).
- `model_dir(name) -> Path`, `model_file(name, suffix) -> Path`: `corpus_dir()/name/stem.suffix`,
  where `stem` is the last component of `name`: `model_file("cnn/resnet_mini", "build.json")` is
  `corpus_dir()/cnn/resnet_mini/resnet_mini.build.json` (the CNNs sit one level deeper, in `cnn/`).
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
    """`model_file("bert_mini", "args.linalg.mlir")` -> `.../bert_mini/bert_mini.args.linalg.mlir`;
    `model_file("cnn/resnet_mini", "args.onnx")` -> `.../cnn/resnet_mini/resnet_mini.args.onnx`."""
    return model_dir(name) / f"{model_stem(name)}.{suffix}"


def model_stem(name: str) -> str:
    """The file stem of model `name`: its last path component (`cnn/resnet_mini` -> `resnet_mini`)."""
    return Path(name).name


# A true skip reason for tests that need the corpus: where it was looked for, how to point at it.
CORPUS_MISSING = f"shared model corpus not found at {corpus_dir()} (set {ENV} to its path)"
