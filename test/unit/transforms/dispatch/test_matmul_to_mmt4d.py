"""`dispatch-matmul-to-mmt4d`: the packed form computes what the matmul region computes (random
and adversarial inputs, float64 reference), IREE builds what the pass prints (its
`compilation_info` included) and returns the same values, and on minilm_l6 exactly the six FFN1
matmuls (64x384 . 384x1536) are rewritten, each activation pack a region of its own.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_file, parse_module, print_module
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import build_llvm_cpu
from support.lit_cases import lit_functions, with_sizes

ROOT = Path(__file__).parents[3]
LIT_CASES = ROOT / "lit" / "transforms" / "dispatch" / "dispatch-matmul-to-mmt4d.mlir"
MINILM = ROOT / "data" / "models" / "minilm_l6" / "minilm_l6.args.linalg.mlir"
PASS = "dispatch-matmul-to-mmt4d{min-n=32}"


# the lit file's cases by function name (CHECK lines dropped)
CASES = lit_functions(LIT_CASES)


def test_packed_region_preserves_semantics():
    after = assert_pass_preserves_semantics(CASES["wide_matmul_region"], PASS)
    assert "linalg.batch_mmt4d" in print_module(after)


def ffn1_module(m: int = 64, k: int = 384, n: int = 1536) -> str:
    """The lit case at minilm_l6's FFN1 size."""
    return with_sizes(CASES["wide_matmul_region"], {"1x32x16": f"1x{m}x{k}", "16x64": f"{k}x{n}", "1x32x64": f"1x{m}x{n}",
                                                       "tensor<64xf32>": f"tensor<{n}xf32>"})


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_builds_and_agrees(tmp_path):
    text = ffn1_module()
    packed = print_module(apply_pipeline(parse_module(text), "dispatch-matmul-to-mmt4d"))
    assert packed.count("linalg.batch_mmt4d") == 1 and "compilation_info" in packed
    vmfbs = build_llvm_cpu({"plain": text, "packed": packed}, tmp_path)
    rng = np.random.default_rng(0)
    for scale in (1.0, 1e4):  # ordinary and large-magnitude activations
        args = [scale * rng.standard_normal((1, 64, 384), dtype=np.float32),
                rng.standard_normal((384, 1536), dtype=np.float32), rng.standard_normal(1536, dtype=np.float32)]
        expected = run_vmfb(vmfbs["plain"], args, "wide_matmul_region")[0]
        got = run_vmfb(vmfbs["packed"], args, "wide_matmul_region")[0]
        reference = (args[0].astype(np.float64) @ args[1] + args[2])
        np.testing.assert_allclose(got, reference, rtol=1e-4, atol=1e-4 * float(np.abs(reference).max()))
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5 * float(np.abs(expected).max()))



def test_minilm_ffn1_matmuls_only():
    module = apply_pipeline(parse_file(MINILM), "dispatch-creation,dispatch-matmul-to-mmt4d")
    ops = [op for op in module.walk()]
    mmt4d = [op for op in ops if op.name == "linalg.batch_mmt4d"]
    assert len(mmt4d) == 6
    assert all(op.operands[1].type.get_shape() == (1, 96, 384, 16, 1) for op in mmt4d)
    assert sum(op.name == "linalg.batch_matmul" for op in ops) == 36  # 24 QKVO, 6 FFN2, 6 attention A.V (QK^T is a generic)
    regions = [op for op in ops if op.name == "flow.dispatch.region"]
    pack_regions = [r for r in regions if [o.name for o in r.regions[0].block.ops][-2:] == ["linalg.pack", "flow.return"]]
    assert len(pack_regions) == 6 and len(regions) == 87 + 6


def test_batch_one_weight_preserves_semantics():
    after = assert_pass_preserves_semantics(CASES["batch_one_weight"], PASS)
    assert "linalg.batch_mmt4d" in print_module(after)


def test_printed_form_reads_back():
    """The `compilation_info` the pass writes is IREE's attribute syntax, kept as opaque text:
    fusion-opt reads its own output back without `--allow-unregistered-dialect`, unchanged."""
    printed = print_module(apply_pipeline(parse_module(ffn1_module()), "dispatch-matmul-to-mmt4d"))
    reread = print_module(parse_module(printed))
    assert "#iree_cpu.lowering_config" in reread
    assert reread == printed
