"""`form-dispatch-regions{padded-results}`: a contraction region whose result only a `tensor.pad`
reads writes the pad itself, into a splat of the padded shape (`dispatch/padded_results.py`).
The regions compute what the input program computes (random and adversarial inputs against a
float64 run); IREE builds them, computes what its own formation computes, and makes no
`slow_memcpy` for the pad; resnet_mini keeps no more copies than IREE's own build."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.corpus import CORPUS_MISSING, model_file
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.ir_io import parse_file, parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.dispatch_regions import top_level_pads
from support.iree_pairs import assert_bit_equal_on_families
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-padded-results.mlir"
IREE_MISSING = "IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed"
# case -> top-level pads left by form-dispatch-regions (default options)
PADS_LEFT = {"flat_matmul_then_pad": 0, "matmul_then_neg_inf_pad": 0, "result_read_twice": 1, "not_taken": 2,
             "late_pad_value": 0, "conv_then_pad": 1, "pad_value_in_body": 0, "channels_last_conv_then_pad": 1,
             "reshaped_result_read_twice": 1, "result_and_reshape_read": 1,
             "sibling_contractions_padded": 0, "sibling_contractions_same_pads": 1,
             "channels_last_conv_transposed_then_pad": 1, "channels_last_conv_then_column_pad": 1,
             "generic_conv_3d_then_pad": 1, "transposed_matmul_then_pad": 1}
# cases whose pad reads a reshape of a result others read too: with padded-shared-results the
# region writes it too (not of the result itself, `result_read_twice`: IREE 3.13 fails to build that)
SHARED = ("reshaped_result_read_twice", "result_and_reshape_read")
SHARED_OPTION = "form-dispatch-regions{padded-shared-results=true}"


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(PADS_LEFT)


@pytest.mark.parametrize("name", sorted(PADS_LEFT))
def test_formation_computes_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], "form-dispatch-regions")
    assert top_level_pads(after) == PADS_LEFT[name]


@pytest.mark.parametrize("name", ["flat_matmul_then_pad", "matmul_then_neg_inf_pad"])
def test_off_and_the_size_cap_keep_the_copy(name: str):
    text = lit_functions(LIT)[name]
    assert top_level_pads(apply_pipeline(text, "form-dispatch-regions{padded-results=0}")) == 1
    # the unpadded results have 128 elements
    assert top_level_pads(apply_pipeline(text, "form-dispatch-regions{padded-results=127}")) == 1
    assert top_level_pads(apply_pipeline(text, "form-dispatch-regions{padded-results=128}")) == 0


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
@pytest.mark.parametrize("name", ["flat_matmul_then_pad", "matmul_then_neg_inf_pad", "late_pad_value",
                                  "sibling_contractions_padded"])
def test_iree_builds_the_padded_store_and_agrees(name: str, tmp_path: Path):
    text = lit_functions(LIT)[name]
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(text, "form-dispatch-regions")))
    reference = tmp_path / "reference.mlir"  # IREE's own formation of the input program
    reference.write_text(print_module(parse_module(text)))
    names = flow_dispatch_names(ours, cpu_flags("generic"))
    assert len(names) == 1 and "slow_memcpy" not in names[0]
    [func] = [op for op in parse_module(text).walk() if op.name == "func.func"]
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(arg.type.get_shape()).astype(np.float32) for arg in func.body.block.args]
    got = run_vmfb(compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic")), inputs, name)
    want = run_vmfb(compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("generic")), inputs, name)
    for got_one, want_one in zip(got, want, strict=True):
        np.testing.assert_array_equal(got_one, want_one)


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
def test_iree_builds_the_channels_last_padded_store_and_agrees(tmp_path: Path):
    """A channels-last conv region storing into the padded buffer in its own (NHWC) layout: one
    copy fewer than IREE's own formation of the input, and every result bit-equal to it on
    random, constant, large-offset and extreme inputs."""
    name = "channels_last_conv_then_pad"
    text = lit_functions(LIT)[name]
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(text, "form-dispatch-regions")))
    reference = tmp_path / "reference.mlir"
    reference.write_text(print_module(parse_module(text)))
    ours_copies = sum("slow_memcpy" in n for n in flow_dispatch_names(ours, cpu_flags("generic")))
    assert ours_copies == PADS_LEFT[name]
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic"))
    ref_vmfb = compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("generic"))
    assert_bit_equal_on_families(ours_vmfb, ref_vmfb, text, name)


@pytest.mark.parametrize("name", sorted(PADS_LEFT))
def test_shared_results_write_plain_and_padded(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], SHARED_OPTION)
    assert top_level_pads(after) == PADS_LEFT[name] - (name in SHARED)
    if name in SHARED:
        [region] = [op for op in after.walk() if isinstance(op, DispatchRegionOp)]
        assert len(region.results) == 2


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
@pytest.mark.parametrize("name", SHARED)
def test_iree_builds_shared_padded_results_and_agrees(name: str, tmp_path: Path):
    """One dispatch, no copy; both results equal IREE's own formation of the input program on
    random, constant, large-offset and extreme inputs."""
    text = lit_functions(LIT)[name]
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(text, SHARED_OPTION)))
    reference = tmp_path / "reference.mlir"
    reference.write_text(print_module(parse_module(text)))
    [dispatch] = flow_dispatch_names(ours, cpu_flags("generic"))
    assert "slow_memcpy" not in dispatch
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic"))
    ref_vmfb = compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("generic"))
    assert_bit_equal_on_families(ours_vmfb, ref_vmfb, text, name)


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
def test_resnet_mini_matmul_regions_write_their_pads(tmp_path: Path):
    """resnet_mini's conv regions (all NHWC convs, `linalg-conv-channels-last`) write the pads
    their next convs read: IREE makes 7 `slow_memcpy` dispatches from our output, 13 with
    padded-results off. (IREE's own build of the input makes 7 too. Ours are the image's pad
    and the pads of results a residual add reads as well: the padded store is taken only where
    the pad is the result's one reader.)"""
    source = model_file("cnn/resnet_mini", "args.linalg.mlir")
    if not source.is_file():
        pytest.skip(CORPUS_MISSING)

    def copies(pipeline: str) -> int:
        path = tmp_path / "ours.mlir"
        path.write_text(print_module(apply_pipeline(parse_file(str(source)), pipeline)))
        return sum("slow_memcpy" in n for n in flow_dispatch_names(path, cpu_flags("generic")))

    off = PIPELINES["dispatch-creation"].spec.replace("form-dispatch-regions", "form-dispatch-regions{padded-results=0}")
    assert copies("dispatch-creation") == 7 and copies(off) == 13


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
def test_inception_factorized_convs_inline_build_and_agree(tmp_path: Path):
    """Inception-v3's 1x7 / 7x1 branches with constant weights (channels-last conv regions)
    through graph-to-dispatch-llvm-cpu with padded stores on: IREE builds every region (a 7x1 conv storing into a
    buffer padded along W only failed to configure) and agrees with onnxruntime on random and
    offset images; the W-only pads stay copies, the H-padded ones are stored by their convs."""
    from fusionopt.importers.onnx_import import import_onnx
    from support.block_onnx_models import build
    from support.iree_pairs import assert_agrees

    ort = pytest.importorskip("onnxruntime")
    model = build("inception_factorized", args=False, cin=64, mid=32)
    # the CPU pipeline with padded stores on (dispatch-creation's and the fewest pipelines' form;
    # the default CPU pipeline leaves every pad a copy, `padded-results=0`)
    cpu = PIPELINES["dispatch-creation-llvm-cpu"].spec.replace("padded-results=0", "padded-results=8192")
    assert cpu != PIPELINES["dispatch-creation-llvm-cpu"].spec
    formed = apply_pipeline(print_module(import_onnx(model)),
                            PIPELINES["graph-to-dispatch-llvm-cpu"].spec.replace("dispatch-creation-llvm-cpu", cpu))
    inserts = [op for op in formed.walk() if op.name == "tensor.insert_slice"
               and op.parent_op().name == "flow.dispatch.region"]
    assert inserts and all(list(op.static_offsets.get_values())[1] > 0 for op in inserts)
    assert top_level_pads(formed) >= 2
    path = tmp_path / "formed.mlir"
    path.write_text(print_module(formed))
    vmfb = compile_vmfb(path, tmp_path / "formed.vmfb", cpu_flags("host"))
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    for family, image in (("random", rng.standard_normal((1, 64, 17, 17))),
                          ("offset", 1000.5 + rng.standard_normal((1, 64, 17, 17)))):
        image = image.astype(np.float32)
        (want,) = session.run(None, {"x": image})
        (got,) = run_vmfb(vmfb, [image], "main_graph")
        assert_agrees(got, want, family, rtol=1e-4)
