"""Where the shared real-model corpus lives (never a machine path in code).

The corpus (`bert_mini/`, `gpt2_mini/`, `mlp_towers/`, `cnn/...`, see its README.md) sits next
to the repository as `../shared/models`; a checkout elsewhere points `FUSIONOPT_CORPUS` at it.
A few more models, exported the same way, ship with the repository in `test/data/models`
(`minilm_l6`, `cnn/resnet18`, ...; its README.md and `bench/export_models.py` say how they were
made): a name the shared corpus lacks is looked up there, so the benchmarks can name them too.

API
- `corpus_dir() -> Path`: `$FUSIONOPT_CORPUS` if set, else `<repo root>/../shared/models`
  (may not exist: callers skip or fail with a reason).
- `model_dir(name) -> Path`, `model_file(name, suffix) -> Path`: `corpus_dir()/name/stem.suffix`
  (`SHIPPED_DIR/name/stem.suffix` when only the repository has `name`),
  where `stem` is the last component of `name`: `model_file("cnn/resnet_mini", "build.json")` is
  `corpus_dir()/cnn/resnet_mini/resnet_mini.build.json` (the CNNs sit one level deeper, in `cnn/`).
- `shipped_models() -> list[str]`: the names of the models in `SHIPPED_DIR` (`minilm_l6`,
  `cnn/resnet18`, ...), sorted.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "FUSIONOPT_CORPUS"
REPO_ROOT = Path(__file__).resolve().parents[1]
SHIPPED_DIR = REPO_ROOT / "test" / "data" / "models"


def corpus_dir() -> Path:
    override = os.environ.get(ENV)
    if override:
        return Path(override).expanduser().resolve()
    return (REPO_ROOT.parent / "shared" / "models").resolve()


def model_dir(name: str) -> Path:
    """The shared corpus's directory of `name`, or the repository's when only it has the model
    (the shared path otherwise, so a missing model is reported where it was expected)."""
    shared = corpus_dir() / name
    shipped = SHIPPED_DIR / name
    if not shared.is_dir() and shipped.is_dir():
        return shipped
    return shared


def shipped_models() -> list[str]:
    """Names of the models shipped in the repository: every directory holding `<dir>.build.json`."""
    builds = SHIPPED_DIR.glob("**/*.build.json")
    return sorted(str(b.parent.relative_to(SHIPPED_DIR)) for b in builds if b.stem == f"{b.parent.name}.build")


def model_file(name: str, suffix: str) -> Path:
    """`model_file("bert_mini", "args.linalg.mlir")` -> `.../bert_mini/bert_mini.args.linalg.mlir`;
    `model_file("cnn/resnet_mini", "args.onnx")` -> `.../cnn/resnet_mini/resnet_mini.args.onnx`."""
    return model_dir(name) / f"{model_stem(name)}.{suffix}"


def model_stem(name: str) -> str:
    """The file stem of model `name`: its last path component (`cnn/resnet_mini` -> `resnet_mini`)."""
    return Path(name).name


# A true skip reason for tests that need the corpus: where it was looked for, how to point at it.
CORPUS_MISSING = f"shared model corpus not found at {corpus_dir()} (set {ENV} to its path)"
