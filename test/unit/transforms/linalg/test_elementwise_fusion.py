"""linalg-fuse-elementwise on the cases of luminal #39: kernel counts + equivalence."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from support.elementwise_cases import (
    LUMINAL_TARGET,
    MULTI_USE_EXP,
    SHARED_SQRT,
    SLICE_COS_PAD_EXP2,
    rotary_embedding,
    transpose_broadcast_chain,
)
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, run_module
from fusionopt.corpus import CORPUS_MISSING, corpus_dir

CONVERT_AND_FUSE = "convert-graph-to-linalg,linalg-fuse-elementwise"


def ops_named(module, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


def body_ops(generic, name: str) -> list:
    return [op for op in generic.regions[0].block.ops if op.name == name]


def fuse_graph(text: str, **tolerances):
    """Convert + fuse; asserts the whole pipeline preserves the program's values."""
    return assert_pass_preserves_semantics(text, CONVERT_AND_FUSE, seeds=(0, 1), **tolerances)


def test_luminal_target_is_one_kernel():
    after = fuse_graph(LUMINAL_TARGET)
    [generic] = ops_named(after, "linalg.generic")
    assert len(generic.inputs) == 3  # a, b, d; the constant is a scalar in the body
    assert not ops_named(after, "linalg.broadcast")


def test_multi_use_intermediate_computes_exp_once():
    [generic] = ops_named(fuse_graph(MULTI_USE_EXP), "linalg.generic")
    assert len(body_ops(generic, "math.exp")) == 1


def test_shared_subexpression_computes_sqrt_once():
    [generic] = ops_named(fuse_graph(SHARED_SQRT), "linalg.generic")
    assert len(body_ops(generic, "math.sqrt")) == 1


def test_slice_cos_pad_exp2_padded_row_is_exp2_of_pad_value():
    after = fuse_graph(SLICE_COS_PAD_EXP2)
    assert len(ops_named(after, "linalg.generic")) == 1
    assert not ops_named(after, "tensor.pad")
    x = np.random.default_rng(0).standard_normal((2, 5)).astype(np.float32)
    [out] = run_module(after, [x])
    np.testing.assert_array_equal(out[1], np.ones(5, np.float32))  # exp2(0), not exp2(cos(0)) = 2
    np.testing.assert_allclose(out[0], np.exp2(np.cos(x[0])), rtol=1e-6)


def test_pad_with_low_and_high_on_both_dims():
    text = """
func.func @main(%x: tensor<3x4xf32>) -> tensor<4x7xf32> {
  %0 = graph.slice %x axes = [0, 1] starts = [1, 0] ends = [3, 3] : tensor<3x4xf32> -> tensor<2x3xf32>
  %1 = graph.cos %0 : tensor<2x3xf32>
  %2 = graph.pad %1 low = [1, 2] high = [1, 2] value = -1.5 : tensor<2x3xf32> -> tensor<4x7xf32>
  %3 = graph.exp %2 : tensor<4x7xf32>
  return %3 : tensor<4x7xf32>
}"""
    after = fuse_graph(text)
    assert len(ops_named(after, "linalg.generic")) == 1


def test_rotary_embedding_block_is_one_kernel():
    after = fuse_graph(rotary_embedding(4, 8))
    assert len(ops_named(after, "linalg.generic")) == 1
    assert not ops_named(after, "tensor.concat") and not ops_named(after, "tensor.expand_shape")


def test_transpose_and_broadcast_in_the_middle_of_a_chain():
    text = transpose_broadcast_chain(4, 8)
    assert len(ops_named(fuse_graph(text), "linalg.generic")) == 1


def test_reduction_in_the_middle_is_not_fused():
    text = """
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = graph.exp %x : tensor<4x8xf32>
  %s = graph.reduce_sum %e axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %b = graph.broadcast %s dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
  %d = graph.div %e, %b : tensor<4x8xf32>
  %r = graph.sqrt %d : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}"""
    after = fuse_graph(text)
    generics = ops_named(after, "linalg.generic")
    reductions = [g for g in generics if any(it.data.value == "reduction" for it in g.iterator_types.data)]
    assert len(reductions) == 1
    # exp (shared by the reduction and the division) + reduction + div/sqrt kernel
    assert len(generics) == 3


def test_operand_limit_is_respected():
    args = ", ".join(f"%a{i}: tensor<8xf32>" for i in range(6))
    lines, acc = [], "%a0"
    for i in range(1, 6):
        lines.append(f"  %s{i} = graph.add {acc}, %a{i} : tensor<8xf32>")
        acc = f"%s{i}"
    text = f"func.func @main({args}) -> tensor<8xf32> {{\n" + "\n".join(lines) + f"\n  return {acc} : tensor<8xf32>\n}}"
    unlimited = fuse_graph(text)
    assert len(ops_named(unlimited, "linalg.generic")) == 1
    lowered = apply_pipeline(text, "convert-graph-to-linalg")
    limited = assert_pass_preserves_semantics(print_module(lowered), "linalg-fuse-elementwise{max-operands=4}")
    generics = ops_named(limited, "linalg.generic")
    assert len(generics) > 1
    assert all(len(g.inputs) + len(g.outputs) <= 4 for g in generics)


def test_conservative_mode_fuses_slice_pointwise_pad():
    """Issue 20 (luminal slicing_padding): conservative mode (dispatch-creation's) takes the pad
    and the slice under it, with the pad's validity mask: one generic, no copy."""
    lowered = print_module(apply_pipeline(SLICE_COS_PAD_EXP2, "convert-graph-to-linalg"))
    after = assert_pass_preserves_semantics(lowered, "linalg-fuse-elementwise{aggressive=false}")
    assert len(ops_named(after, "linalg.generic")) == 1
    assert not ops_named(after, "tensor.pad") and not ops_named(after, "tensor.extract_slice")


SHARED_MODELS = corpus_dir()
MODEL_FILES = sorted(SHARED_MODELS.glob("*/*.args.linalg.mlir"))


def structured_counts(module) -> tuple[int, int, int]:
    """(elementwise generics, reduction generics, named contractions)."""
    generics = ops_named(module, "linalg.generic")
    reductions = sum(1 for g in generics if any(it.data.value == "reduction" for it in g.iterator_types.data))
    contractions = len(ops_named(module, "linalg.matmul")) + len(ops_named(module, "linalg.batch_matmul"))
    return len(generics) - reductions, reductions, contractions


@pytest.mark.skipif(not MODEL_FILES, reason=CORPUS_MISSING)
@pytest.mark.parametrize("path", MODEL_FILES, ids=lambda p: p.parent.name)
def test_real_models_fuse_and_stay_equal(path):
    text = path.read_text()
    elementwise, reductions, contractions = structured_counts(parse_module(text, str(path)))
    after = assert_pass_preserves_semantics(text, "linalg-fuse-elementwise", seeds=(0,), rtol=1e-4, atol=1e-5)
    fused_elementwise, fused_reductions, fused_contractions = structured_counts(after)
    assert fused_elementwise < elementwise
    # never across a reduction or a contraction: those are all still there, unchanged in number
    assert (fused_reductions, fused_contractions) == (reductions, contractions)


@pytest.mark.skipif(shutil.which("iree-compile") is None or shutil.which("iree-run-module") is None,
                    reason="IREE command-line tools not installed")
def test_fused_pad_kernel_compiles_and_runs_in_iree(tmp_path):
    """The fused kernel (mod/select index arithmetic) is real MLIR: IREE compiles it and agrees."""
    fused = print_module(fuse_graph(SLICE_COS_PAD_EXP2))
    source, vmfb = tmp_path / "fused.mlir", tmp_path / "fused.vmfb"
    source.write_text(fused)
    subprocess.run(["iree-compile", str(source), "--iree-hal-target-device=local",
                    "--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=generic",
                    "-o", str(vmfb)], check=True, capture_output=True, timeout=120)
    run = subprocess.run(["iree-run-module", f"--module={vmfb}", "--device=local-task", "--function=main",
                          "--input=2x5xf32=1 2 3 4 5 6 7 8 9 10"], check=True, capture_output=True,
                         text=True, timeout=60)
    rows = run.stdout.split("2x5xf32=")[1].strip().strip("[]").split("][")
    values = np.array([[float(v) for v in r.split()] for r in rows], dtype=np.float32)
    np.testing.assert_allclose(values[0], np.exp2(np.cos(np.arange(1, 6, dtype=np.float32))), rtol=1e-5)
    np.testing.assert_array_equal(values[1], np.ones(5, np.float32))


SMALL_CONSTANTS = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = arith.constant dense<[1.0, -2.0, 0.5, 3.0]> : tensor<4xf32>
  %c2 = arith.constant dense<[0.25, 4.0, -1.0, 2.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %c1 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.mulf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %c2 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %b : tensor<4xf32>
}"""


def test_small_dense_constants_do_not_count_as_bindings():
    inline = assert_pass_preserves_semantics(SMALL_CONSTANTS, "linalg-fuse-elementwise{max-operands=2}")
    [generic] = ops_named(inline, "linalg.generic")
    assert len(generic.inputs) == 3  # x and the two 16-byte constants, as constant operands
    counted = assert_pass_preserves_semantics(
        SMALL_CONSTANTS, "linalg-fuse-elementwise{max-operands=2 max-inline-bytes=0}")
    assert len(ops_named(counted, "linalg.generic")) == 2
