"""Region formation on dynamic shapes and multi-block bodies (IREE's inline_dag and
dont_fuse_reshape cases): the output verifies, iree-opt reads it, and it computes what the
input computes on random and adversarial inputs (`?` dims get fusion-run's default size)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.ir_io import print_module
from fusionopt.testing import assert_pass_preserves_semantics
from support.iree_opt import IREE_OPT, iree_opt

LIT = Path(__file__).parents[3] / "lit" / "transforms" / "dispatch" / "form-dispatch-regions-dynamic.mlir"


# A two-block body whose every input shape is valid (the lit file's two_blocks slices at a
# fixed offset, so only some inputs are in bounds).
MULTI_BLOCK = """
util.func public @main(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %e = arith.addf %a, %b : tensor<?x8xf32>
  cf.br ^bb1(%e : tensor<?x8xf32>)
^bb1(%x: tensor<?x8xf32>):
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %init = tensor.empty(%n) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x8xf32>) outs(%init : tensor<?x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  util.return %r : tensor<?x8xf32>
}
"""


def _cases() -> dict[str, str]:
    chunks = [chunk for chunk in LIT.read_text().split("// -----") if "util.func" in chunk]
    runnable = {name: chunk for chunk in chunks for name in ("dim_of_argument", "dont_fuse_reshape") if f"@{name}(" in chunk}
    return runnable | {"multi_block": MULTI_BLOCK}


@pytest.mark.parametrize("name", ["dim_of_argument", "dont_fuse_reshape", "multi_block"])
@pytest.mark.parametrize("pipeline", ["form-dispatch-regions", "dispatch-creation"])
def test_dynamic_regions_preserve_semantics(name: str, pipeline: str, tmp_path: Path):
    module = assert_pass_preserves_semantics(_cases()[name], pipeline)
    text = print_module(module)
    assert "flow.dispatch.region" in text
    if IREE_OPT is not None:
        iree_opt(text, tmp_path)
