"""`dispatch-creation-llvm-cpu-fewest` on CNNs: IREE makes no more dispatches from our output than
from its own build of the same torch-mlir file (convs stay NCHW, k x k convs the im2col op in
their matmul's dispatch or a gather the saved pad copies pay for, the image's pad the stem's
im2col op's input padding, pads written by their producers' regions, shared ones too, and
padded concats by their parts' regions, a pool's pad in the next small pool's region, sibling
1x1 convs of one filter count one dispatch),
and the output equals
IREE's default build on random and adversarial inputs."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt.corpus import CORPUS_MISSING, model_file
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_file, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
from iree_bench_inputs import model_inputs  # noqa: E402

IREE_MISSING = "IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed"
PIPELINE = "dispatch-creation-llvm-cpu-fewest"
# model -> IREE dispatches from our output (IREE's own build: 24, 55, 32, 40, 74, 22)
FEWEST = {"cnn/resnet_mini": 17, "cnn/mobilenet_mini": 54, "cnn/resnet18": 24, "cnn/squeezenet1_1": 31,
          "cnn/mobilenet_v3_small": 73, "cnn/inception_mini": 16}
# `slow_memcpy` dispatches left (IREE's own build: 7, 1, 9, 10, 1, 4): the pad of resnet18's max
# pool's result, which its residual add reads too (inception_mini's is in its next pool's region)
COPIES = {"cnn/resnet_mini": 0, "cnn/mobilenet_mini": 0, "cnn/resnet18": 1, "cnn/squeezenet1_1": 0,
          "cnn/mobilenet_v3_small": 0, "cnn/inception_mini": 0}
# ONNX files -> graph-to-dispatch-llvm-cpu-fewest: IREE dispatches from our output (inception_mini:
# each block's 1x1 branch and its same-sized reduction one dispatch, weights being arguments)
FEWEST_ONNX = {"cnn/squeezenet1_1": 31, "cnn/resnet18": 24, "cnn/inception_mini": 16}
# families whose float32 result is well conditioned in every build, IREE's default included
FAMILIES = ("random", "constant", "offset", "zeros")


@functools.cache
def _formed(source: Path) -> str:
    """The pipeline's output for `source` (the count and agreement tests share it)."""
    return print_module(apply_pipeline(parse_file(str(source)), PIPELINE))


def _ours(model: str, tmp_path: Path) -> tuple[Path, Path]:
    source = model_file(model, "args.linalg.mlir")
    if not source.is_file():
        pytest.skip(CORPUS_MISSING)
    ours = tmp_path / "ours.mlir"
    ours.write_text(_formed(source))
    return source, ours


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
@pytest.mark.parametrize("model", sorted(FEWEST))
def test_no_more_dispatches_than_iree(model: str, tmp_path: Path):
    source, ours = _ours(model, tmp_path)
    theirs = flow_dispatch_names(source, cpu_flags())
    names = flow_dispatch_names(ours, cpu_flags())
    assert len(names) == FEWEST[model] <= len(theirs)
    assert not any("transpose" in n for n in names), "a filter transpose dispatch"
    assert sum("slow_memcpy" in n for n in names) == COPIES[model]


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
@pytest.mark.parametrize("model", sorted(FEWEST_ONNX))
def test_onnx_path_no_more_dispatches_than_iree(model: str, tmp_path: Path):
    onnx_file = model_file(model, "args.onnx")
    if not onnx_file.is_file():
        pytest.skip(CORPUS_MISSING)
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(import_onnx(onnx_file), "graph-to-dispatch-llvm-cpu-fewest")))
    theirs = flow_dispatch_names(model_file(model, "args.linalg.mlir"), cpu_flags())
    assert len(flow_dispatch_names(ours, cpu_flags())) == FEWEST_ONNX[model] <= len(theirs)


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
@pytest.mark.parametrize("model", ["cnn/squeezenet1_1", "cnn/inception_mini"])
def test_fewest_cnn_agrees_with_iree_default(model: str, tmp_path: Path):
    source, ours = _ours(model, tmp_path)
    default_vmfb = compile_vmfb(source, tmp_path / "default.vmfb", cpu_flags())
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags())
    for family in FAMILIES:
        inputs = model_inputs(model, family, 0)
        want = run_vmfb(default_vmfb, inputs, "main_graph")[0]
        got = run_vmfb(ours_vmfb, inputs, "main_graph")[0]
        assert np.array_equal(np.isfinite(want), np.isfinite(got)), family
        finite = np.isfinite(want)
        if not finite.any():
            continue
        scale = max(float(np.abs(want[finite]).max()), 1e-30)
        assert float(np.abs(got[finite] - want[finite]).max()) <= 1e-4 * scale, family
