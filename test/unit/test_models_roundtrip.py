"""Real model IR loads, verifies, prints, re-parses identically, and `iree-opt` accepts our output.

Covers every `*.linalg.mlir` / `*.linalg.generic.mlir` under ../shared/models (skipped with a
reason when the shared corpus is absent) and a real gpt2 attention fragment kept in test/data,
so a fresh clone still exercises batch_matmul, multi-result generic and hex constants.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects.linalg.attrs import IteratorTypeAttr

from fusionopt.dialects.linalg import BatchMatmulOp, GenericOp, MatmulOp
from fusionopt.ir_io import parse_module, print_module
from fusionopt.corpus import CORPUS_MISSING, corpus_dir

ROOT = Path(__file__).resolve().parents[2]
MODELS = corpus_dir()
FRAGMENT = ROOT / "test" / "data" / "gpt2_attention_fragment.mlir"
MODEL_FILES = [
    *sorted(MODELS.glob("*/*.linalg.mlir")),
    *sorted(MODELS.glob("*/*.linalg.generic.mlir")),
]
IREE_OPT = shutil.which("iree-opt")

needs_shared = pytest.mark.skipif(not MODELS.is_dir(), reason=CORPUS_MISSING)
needs_iree = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not on PATH")

PARALLEL, REDUCTION = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()


def iree_accepts(text: str, tmp_path: Path) -> None:
    path = tmp_path / "ours.mlir"
    path.write_text(text)
    done = subprocess.run([IREE_OPT, str(path), "-o", "/dev/null"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[:2000]


def assert_round_trips(text: str, name: str) -> str:
    """Custom form is a fixpoint, and the generic form re-parses to the same module."""
    module = parse_module(text, name)
    printed = print_module(module)
    assert print_module(parse_module(printed, name + ".reprinted")) == printed
    generic = print_module(module, generic=True)
    assert print_module(parse_module(generic, name + ".generic")) == printed
    return printed


@needs_shared
@pytest.mark.parametrize("path", MODEL_FILES, ids=lambda p: p.name)
def test_model_file_round_trips(path: Path, tmp_path: Path):
    printed = assert_round_trips(path.read_text(), str(path))
    if IREE_OPT is not None:
        iree_accepts(printed, tmp_path)


@needs_shared
def test_corpus_has_the_expected_files():
    names = {p.name for p in MODEL_FILES}
    for model in ("bert_mini", "gpt2_mini", "mlp_towers"):
        for kind in ("args.linalg.mlir", "args.linalg.generic.mlir", "inline.linalg.mlir"):
            assert f"{model}.{kind}" in names


@needs_shared
def test_inline_weights_print_back_the_same_hex():
    path = MODELS / "mlp_towers" / "mlp_towers.inline.linalg.mlir"
    text = path.read_text()
    printed = print_module(parse_module(text, str(path)))
    hex_in = [chunk.split('"')[0] for chunk in text.split('dense<"0x')[1:]]
    hex_out = [chunk.split('"')[0] for chunk in printed.split('dense<"0x')[1:]]
    assert len(hex_in) == 20
    assert hex_out == hex_in


@needs_shared
def test_bert_contractions_expose_maps_and_iterators():
    path = MODELS / "bert_mini" / "bert_mini.args.linalg.mlir"
    module = parse_module(path.read_text(), str(path))
    batch = [op for op in module.walk() if isinstance(op, BatchMatmulOp)]
    assert len(batch) == 16  # `grep -c linalg.batch_matmul` on the file
    assert all(op.has_default_indexing_maps() for op in batch)
    assert tuple(batch[0].get_iterator_types()) == (PARALLEL, PARALLEL, PARALLEL, REDUCTION)


def test_fragment_round_trips():
    assert_round_trips(FRAGMENT.read_text(), str(FRAGMENT))


@needs_iree
def test_fragment_output_accepted_by_iree(tmp_path: Path):
    module = parse_module(FRAGMENT.read_text(), str(FRAGMENT))
    iree_accepts(print_module(module), tmp_path)
    iree_accepts(print_module(module, generic=True), tmp_path)


def test_fragment_ops_and_accessors():
    module = parse_module(FRAGMENT.read_text(), str(FRAGMENT))
    batch = [op for op in module.walk() if isinstance(op, BatchMatmulOp)]
    assert len(batch) == 2
    op = batch[0]
    assert [m.data.num_dims for m in op.get_indexing_maps()] == [4, 4, 4]
    assert tuple(op.get_iterator_types()) == (PARALLEL, PARALLEL, PARALLEL, REDUCTION)
    assert op.reduction_dims() == (3,)
    assert op.get_static_loop_ranges() == (2, 64, 64, 64)
    assert (op.lhs, op.rhs, op.init) == (op.inputs[0], op.inputs[1], op.outputs[0])
    two_results = [op for op in module.walk() if isinstance(op, GenericOp) and len(op.res) == 2]
    assert len(two_results) == 1
    assert not any(isinstance(op, MatmulOp) for op in module.walk())
