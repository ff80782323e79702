"""`linalg-raise-attention{shared-kv-heads}`: grouped-query attention reads the shared K/V heads.

- equivalence: the raised programs compute what the decomposed ones do, on random and
  adversarial inputs, against a float64 reference (`assert_pass_preserves_semantics`), and bit
  for bit what the raise over the repeated copies computes (our interpreter, and IREE's llvm-cpu
  runtime on every input family);
- IREE builds the two-M-dim attention for llvm-cpu and CUDA sm_80;
- the Llama block models: the fewest pipeline's attention reads 2 K/V heads, not 8, and the
  repeat's dispatches are gone (prefill and the decode step, f32 and f16).

The cases are the `// -----` functions of
test/lit/transforms/linalg/linalg-raise-attention-shared-kv-heads.mlir.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt import pass_statistics
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.interpreter import find_entry
from fusionopt.interpreter.input_families import FAMILIES, family_inputs
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import compile_vmfb, cuda_flags, iree_available
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, run_module
from support.block_onnx_models import build
from support.iree_pairs import assert_bit_equal_on_families, build_llvm_cpu
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "linalg" / "linalg-raise-attention-shared-kv-heads.mlir"
SHARED = "linalg-raise-attention"
COPIES = "linalg-raise-attention{shared-kv-heads=false}"
POSITIVE = ("gqa_prefill", "gqa_decode", "gqa_tiled_repeat")
NEGATIVE = ("gqa_repeat_orders_differ", "gqa_mask_per_head", "gqa_k_differs_per_group")
# `extreme` makes Q.K overflow in IREE's exp2 form (the raise's documented exactness limit).
FAMILIES_EXACT = tuple(f for f in FAMILIES if f != "extreme")
COUNTER = "grouped-query attentions reading shared K/V heads"


def cases() -> dict[str, str]:
    return lit_functions(LIT)


def attention_operand_types(module) -> list[list[str]]:
    return [[str(v.type) for v in op.operands[:3]] for op in module.walk() if op.name == "iree_linalg_ext.attention"]


def counted(text: str, pipeline: str):
    """The module after `pipeline`, and how many attentions it made read shared K/V heads."""
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting(pipeline, stats):
        module = apply_pipeline(text, pipeline)
    return module, stats.runs[0][1].get(COUNTER, 0)


@pytest.mark.parametrize("name", POSITIVE)
def test_shared_heads_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(cases()[name], SHARED, families=FAMILIES_EXACT)
    [(q, k, v)] = attention_operand_types(after)
    assert q.startswith("tensor<2x2x") and k.startswith("tensor<2x") and v.startswith("tensor<2x")
    assert "math.exp" not in [op.name for op in after.walk()]


@pytest.mark.parametrize("name", POSITIVE)
def test_counted_and_bit_equal_to_the_raise_over_copies(name: str):
    shared, count = counted(cases()[name], SHARED)
    copies, none = counted(cases()[name], COPIES)
    assert (count, none) == (1, 0)
    func = find_entry(shared)
    for family in FAMILIES:
        args = family_inputs(func, family, seed=2)
        np.testing.assert_array_equal(run_module(shared, args)[0], run_module(copies, args)[0], err_msg=family)


@pytest.mark.parametrize("name", NEGATIVE)
def test_not_shared(name: str):
    after, count = counted(cases()[name], SHARED)
    assert count == 0
    [(q, k, v)] = attention_operand_types(after)
    assert q == k == v == "tensor<4x4x8xf32>"
    assert_pass_preserves_semantics(cases()[name], SHARED, seeds=(0,), families=("random", "mask"))


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed")
@pytest.mark.parametrize("name", ("gqa_prefill", "gqa_decode"))
def test_iree_builds_and_computes_the_raise_over_copies_bit_for_bit(name: str, tmp_path: Path):
    shared = print_module(apply_pipeline(cases()[name], SHARED))
    vmfbs = build_llvm_cpu({"shared": shared, "copies": print_module(apply_pipeline(cases()[name], COPIES))}, tmp_path)
    (tmp_path / "shared.cuda.mlir").write_text(shared)
    compile_vmfb(tmp_path / "shared.cuda.mlir", tmp_path / "shared.cuda.vmfb", cuda_flags("sm_80"))  # no GPU needed
    assert_bit_equal_on_families(vmfbs["shared"], vmfbs["copies"], shared, name)


def fewest(shared_kv_heads: bool) -> str:
    """graph-to-dispatch-llvm-cpu-fewest, spelled out, with the option set."""
    spec = PIPELINES["dispatch-creation-llvm-cpu-fewest"].spec
    assert spec.count(f"{SHARED},") == 1
    raise_pass = SHARED if shared_kv_heads else COPIES
    return PIPELINES["graph-to-dispatch-llvm-cpu-fewest"].spec.replace(
        "dispatch-creation-llvm-cpu-fewest", spec.replace(f"{SHARED},", f"{raise_pass},"))


def regions(module) -> int:
    return sum(op.name == "flow.dispatch.region" for op in module.walk())


@pytest.mark.parametrize("block, key, value, fewer", [
    ("llama", "tensor<2x64x32xf32>", "tensor<64x2x32xf32>", 1),
    ("llama_decode", "tensor<2x64x32xf32>", "tensor<2x64x32xf32>", 2),
    ("llama_f16", "tensor<2x64x32xf16>", "tensor<64x2x32xf16>", 1),
    ("llama_decode_f16", "tensor<2x64x32xf16>", "tensor<2x64x32xf16>", 2),
])
def test_llama_blocks_read_two_kv_heads(block: str, key: str, value: str, fewer: int):
    """K and V of 2 heads (prefill's V straight from its projection, [tokens, heads, dim]); the
    repeat copies' dispatches gone (prefill's K repeat is its RoPE dispatch, now 4x smaller)."""
    imported = print_module(import_onnx(build(block, args=True)))
    shared, count = counted(imported, fewest(True))
    copies, none = counted(imported, fewest(False))
    assert (count, none) == (1, 0)
    [(query, k, v)] = attention_operand_types(shared)
    assert (query.split("x")[:2], k, v) == (["tensor<2", "4"], key, value)
    [(_, k8, _)] = attention_operand_types(copies)
    assert k8.startswith("tensor<8x")
    assert regions(copies) - regions(shared) == fewer
    assert print_module(apply_pipeline(imported, "graph-to-dispatch-llvm-cpu-fewest")) == print_module(shared)
