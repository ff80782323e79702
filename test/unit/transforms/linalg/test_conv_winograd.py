"""Winograd F(2x2, 3x3) for 3x3 convs over constant filters (`linalg-conv-winograd`, in the
llvm-cpu pipelines): the transforms are Winograd's (float64 algebra against the direct conv),
the lit cases compute what the conv computes on every input family (the interpreter against a
float64 run), the CPU pipeline forms the three stages as regions and configures the input
transform and the epilogue over the output transform's loops, the target-neutral and fewest
pipelines keep the direct conv, the transformed tiles' bound leaves R(2+1)D's and R3D's stacked convs direct
and the smaller ones measured Winograd, and IREE builds the form at ResNet's sizes (one conv and two in
a row; odd, non-square outputs; a batch of three; 128 and 256 filters, whose tile products read
the transformed filter packed in panels) computing the convs as float64 does on random,
large-offset, zero and 1e30-scaled images."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.linalg_pack_matmul_weights import batch_packed_maps
from fusionopt.transforms.linalg.linalg_conv_winograd import MAX_TILE_BYTES, tile_bytes
from fusionopt.transforms.linalg.winograd_transforms import (A_T, B_T, INPUT_SCALE, input_coefficients,
                                                           output_coefficients, transformed_filter)
from support.cpu_pipeline_cases import CPU, runs_on_cpu_only
from support.dense_conv_blocks import dense_conv_block, dense_conv_f64
from support.iree_pairs import build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-conv-winograd{min-channels=2}"
CASES = lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-conv-winograd.mlir")


def ops_named(module, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


def tile_products(module) -> list:
    """The batch matmuls of the tile products, as written or over their weight packed in panels
    (`linalg-pack-matmul-weights`: filter counts of two panels of 32 or 64 and more)."""
    return [op for op in module.walk() if op.name == "linalg.batch_matmul"
            or (op.name == "linalg.generic" and du.indexing_maps(op) == [m.data for m in batch_packed_maps()])]


def test_the_transforms_compute_a_tile_of_the_direct_conv():
    rng = np.random.default_rng(0)
    window, filt = rng.standard_normal((4, 4, 3)), rng.standard_normal((3, 3, 3, 5))
    direct = np.array([[np.einsum("ijc,ijcf->f", window[p:p + 3, q:q + 3], filt) for q in range(2)] for p in range(2)])
    v = np.einsum("ai,ijc,bj->abc", B_T, window, B_T).reshape(16, 3) * INPUT_SCALE
    m = np.einsum("kc,kcf->kf", v, transformed_filter(filt).astype(np.float64))
    y = np.einsum("pa,abf,qb->pqf", A_T, m.reshape(4, 4, 5), A_T)
    np.testing.assert_allclose(y, direct, rtol=1e-6, atol=1e-6)
    # the coefficient tables are the same transforms, laid out for the generics
    flat = window.reshape(16, 3)
    np.testing.assert_allclose(np.einsum("ik,ic->kc", input_coefficients(), flat), v, atol=1e-12)
    np.testing.assert_allclose(np.einsum("kpq,kf->pqf", output_coefficients(), m), y, atol=1e-12)


# output (N, H, W), channels, filters -> Winograd's transformed tiles within the bound: the convs
# measured (one Zen 4 core, module A/B at one and two threads; the pass's docstring)
MEASURED = {"r2plus1d_stage1": ((1, 926, 56), 64, 144, False), "r3d_stage1": ((1, 926, 56), 192, 64, False),
            "s3d_stacked": ((1, 464, 56), 64, 192, True), "textnet_112": ((1, 112, 112), 64, 64, True),
            "resnet50_56": ((1, 56, 56), 64, 64, True)}


@pytest.mark.parametrize("name", sorted(MEASURED))
def test_the_tiles_bound_separates_the_measured_convs(name: str):
    output, channels, filters, winograd = MEASURED[name]
    assert (tile_bytes(output, channels, filters) <= MAX_TILE_BYTES) == winograd


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_lit_cases_compute_the_conv(name: str):
    assert_pass_preserves_semantics(CASES[name], PASS)


def test_the_cpu_pipeline_forms_the_three_stages():
    after = assert_pass_preserves_semantics(dense_conv_block(64, 64, 8), CPU, seeds=(0,))
    assert not ops_named(after, "linalg.conv_2d_nhwc_hwcf") and not ops_named(after, "linalg.conv_2d_nchw_fchw")
    (matmul,) = ops_named(after, "linalg.batch_matmul")
    assert matmul.parent_op().name == "flow.dispatch.region" and "compilation_info" not in matmul.attributes
    transforms = [op for op in ops_named(after, "linalg.generic") if len(op.operands) == 33]
    assert len(transforms) == 2 and all(op.parent_op().name == "flow.dispatch.region" for op in transforms)
    assert sum("compilation_info" in op.attributes for op in transforms) == 1  # the input transform's


def test_only_the_llvm_cpu_pipelines_below_fewest_take_it():
    assert runs_on_cpu_only("linalg-conv-winograd") and runs_on_cpu_only("dispatch-winograd-cpu-tiles")
    fewest = apply_pipeline(dense_conv_block(64, 64, 8), "dispatch-creation-llvm-cpu-fewest")
    assert not ops_named(fewest, "linalg.batch_matmul")


def test_a_channels_last_epilogue_joins_the_output_transform_and_takes_its_tiles():
    """Two convs in a row: the first one's bias + ReLU stays channels last and, with the
    collapse of the 2x2 blocks moved below it, iterates the transform's loops (a leading unit
    batch loop added); it is the region's root and gets the output transform's tiles."""
    after = apply_pipeline(dense_conv_block(64, 64, 8, layers=2), CPU)
    roots = [op for op in ops_named(after, "linalg.generic") if "compilation_info" in op.attributes
             and op.results[0].type.get_shape() == (1, 4, 2, 4, 2, 64)]
    assert len(roots) == 1 and "vector_common_parallel = [1, 1, 2, 1, 2, 16]" in str(roots[0].attributes["compilation_info"])


def test_a_batch_of_images_is_one_batch_matmul_and_configured_like_one():
    after = assert_pass_preserves_semantics(dense_conv_block(64, 64, 6, batch=2, layers=2), CPU, seeds=(0,),
                                            families=("random", "offset", "zeros"))
    matmuls = ops_named(after, "linalg.batch_matmul")
    assert len(matmuls) == 2 and all(m.operands[0].type.get_shape() == (16, 18, 64) for m in matmuls)
    configured = [op for op in after.walk() if "compilation_info" in op.attributes]
    assert len(configured) == 3  # two input transforms, the first conv's epilogue over the blocks


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize(("channels", "size", "width", "layers", "batch"),
                         [(64, 56, 56, 2, 1), (128, 28, 28, 1, 1), (256, 14, 14, 2, 1), (64, 7, 10, 1, 1),
                          (32, 28, 28, 2, 1), (64, 14, 14, 2, 3)])
def test_iree_builds_the_form_at_resnet_sizes(tmp_path, channels: int, size: int, width: int, layers: int, batch: int):
    formed = apply_pipeline(dense_conv_block(channels, channels, size, width, layers=layers, batch=batch), CPU)
    products = tile_products(formed)
    assert len(products) == layers
    assert all(op.name == "linalg.generic" for op in products) == (channels >= 128)  # packed: two panels or more
    vmfb = build_llvm_cpu({"conv": print_module(formed)}, tmp_path)["conv"]
    rng = np.random.default_rng(1)
    shape = (batch, channels, size, width)
    images = {"random": rng.standard_normal(shape), "offset": 1000.5 + rng.standard_normal(shape),
              "zeros": np.zeros(shape), "large": 1e30 * rng.standard_normal(shape)}
    for family, image in images.items():
        x = image.astype(np.float32)
        got, want = run_vmfb(vmfb, [x], "block")[0], dense_conv_f64(x, channels, channels, layers=layers)
        assert np.isfinite(got).all(), family
        scale = max(float(np.abs(want).max()), 1e-30)
        assert float(np.abs(got - want).max()) <= 1e-5 * scale, (family, float(np.abs(got - want).max()) / scale)
