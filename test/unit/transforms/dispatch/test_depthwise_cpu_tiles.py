"""`dispatch-depthwise-cpu-tiles`: the CPU pipelines give every formed f32 depthwise conv whose
row width 8 or 7 divides and whose channels 16 divides IREE's conv pipeline with 8 (7) pixels x
32 channels a register tile; the CUDA ones do not; IREE builds inverted-residual pieces at
MnasNet's sizes (3x3 and 5x5 windows, strides 1 and 2, 112x112 to 7x7) with the tiles and
computes what the same pipeline without the pass computes, bit for bit (the tile changes which
outputs a step computes, not the order of any sum)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline
from support.cpu_pipeline_cases import CPU, runs_on_cpu_only, without_pass
from support.depthwise_blocks import Depthwise, depthwise_function
from support.iree_pairs import build_llvm_cpu

PASS = "dispatch-depthwise-cpu-tiles"
# MnasNet's pieces: the first depthwise conv, a 3x3 at 56x56, 5x5 at 28x28, a strided 5x5 to
# 14x14, and a 5x5 over 1152 channels at 7x7.
BLOCKS = (Depthwise(112, 16, 32, 3, 1), Depthwise(56, 24, 80, 3, 1), Depthwise(28, 40, 128, 5, 1),
          Depthwise(28, 80, 480, 5, 2), Depthwise(7, 192, 1152, 5, 1))


def configured(module) -> int:
    return sum(op.name == "linalg.depthwise_conv_2d_nhwc_hwc" and "compilation_info" in op.attributes
               and "ConvTileAndDecomposeExpert" in str(op.attributes["compilation_info"]) for op in module.walk())


def test_the_cpu_pipelines_configure_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.name)
def test_every_depthwise_conv_of_the_pieces_is_configured(block: Depthwise):
    text = depthwise_function(block, np.random.default_rng(0), "main")
    assert configured(apply_pipeline(text, CPU)) == 1
    assert configured(apply_pipeline(text, without_pass(CPU, PASS))) == 0


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.name)
def test_iree_builds_the_tiles_and_computes_the_same_bits(block: Depthwise, tmp_path: Path):
    text = depthwise_function(block, np.random.default_rng(0), "main")
    vmfbs = build_llvm_cpu({"tiled": print_module(apply_pipeline(text, CPU)),
                            "untiled": print_module(apply_pipeline(text, without_pass(CPU, PASS)))}, tmp_path)
    rng = np.random.default_rng(1)
    for image in (rng.standard_normal((1, block.size, block.size, block.channels)),
                  1000.5 + rng.standard_normal((1, block.size, block.size, block.channels))):
        inputs = [image.astype(np.float32)]
        [tiled], [untiled] = run_vmfb(vmfbs["tiled"], inputs, "main"), run_vmfb(vmfbs["untiled"], inputs, "main")
        np.testing.assert_array_equal(tiled, untiled)
