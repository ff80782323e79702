"""Text interop with IREE: `iree-opt` reads what we print, and we read what it prints.

For each program (flow ops, the new linalg ops) the loop ours -> iree-opt -> ours -> iree-opt
must reach a fixpoint: IREE's second print equals its first, so nothing was lost or changed
on our side. Both custom and generic (`--mlir-print-op-generic`) IREE output are parsed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from fusionopt.dialects.flow import DispatchRegionOp, TensorUpdateOp
from fusionopt.ir_io import parse_module, print_module
from support.iree_opt import IREE_OPT, iree_opt

pytestmark = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not on PATH")

FLOW_PROGRAM = """
func.func @flow_ops(%src: tensor<4x8xf32>, %v: f32) -> (tensor<32xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = flow.tensor.slice %src[%c0, %c1 for %c2, %c3] : tensor<4x8xf32> -> tensor<2x3xf32>
  %1 = flow.tensor.update %0, %src[%c0, %c1] : tensor<2x3xf32> -> %src as tensor<4x8xf32>
  %2 = flow.tensor.reshape %1 : tensor<4x8xf32> -> tensor<32xf32> attributes {note = "r"}
  %3 = flow.tensor.splat %v : tensor<4x8xf32>
  %4:2 = flow.dispatch.region -> (tensor<4x8xf32>, tensor<32xf32>) {
    %e = arith.addf %3, %1 : tensor<4x8xf32>
    flow.return %e, %2 : tensor<4x8xf32>, tensor<32xf32>
  }
  %5 = flow.dispatch.region -> (tensor<4x8xf32>) attributes {tag = 1 : i64} {
    flow.return %4#0 : tensor<4x8xf32>
  }
  func.return %4#1, %5 : tensor<32xf32>, tensor<4x8xf32>
}
"""

FLOW_EMPTY_PROGRAM = """
func.func @flow_empty(%u: tensor<2x8xf32>, %n: index) -> (tensor<4x8xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %e = flow.tensor.empty : tensor<4x8xf32>
  %0 = flow.tensor.update %u, %e[%c0, %c0] : tensor<2x8xf32> -> %e as tensor<4x8xf32>
  %d = flow.tensor.empty : tensor<?x8xf32>{%n}
  func.return %0, %d : tensor<4x8xf32>, tensor<?x8xf32>
}
"""

LINALG_PROGRAM = """
#id = affine_map<(d0) -> (d0)>
func.func @linalg_ops(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xf32>,
                      %at: tensor<8x4xf32>, %n: tensor<8x5xf32>, %o: tensor<4x5xf32>,
                      %x: tensor<2x4x8xf32>, %y: tensor<2x8x4xf32>, %z: tensor<2x4x4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x5xf32>, tensor<2x4x4xf32>) {
  %0 = linalg.map { arith.addf } ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%i : tensor<4xf32>)
  %1 = linalg.map ins(%a : tensor<4xf32>) outs(%i : tensor<4xf32>) (%p: f32, %q: f32) {
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  }
  %2:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%i, %b : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%e: f32, %f: f32, %g: f32):
    %n2 = arith.negf %e : f32
    linalg.yield %e, %n2 : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %3 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%at, %n : tensor<8x4xf32>, tensor<8x5xf32>) outs(%o : tensor<4x5xf32>) -> tensor<4x5xf32>
  %4 = linalg.batch_matmul ins(%x, %y : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  func.return %0, %1, %2#1, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x5xf32>, tensor<2x4x4xf32>
}
"""


@pytest.mark.parametrize(
    "program", [FLOW_PROGRAM, FLOW_EMPTY_PROGRAM, LINALG_PROGRAM], ids=["flow", "flow-empty", "linalg"]
)
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_round_trip_through_iree_is_a_fixpoint(program: str, generic: bool, tmp_path: Path):
    ours = print_module(parse_module(program), generic=generic)
    iree_first = iree_opt(ours, tmp_path)
    ours_again = print_module(parse_module(iree_first, "iree.mlir"), generic=generic)
    assert iree_opt(ours_again, tmp_path) == iree_first


@pytest.mark.parametrize(
    "program", [FLOW_PROGRAM, FLOW_EMPTY_PROGRAM, LINALG_PROGRAM], ids=["flow", "flow-empty", "linalg"]
)
def test_we_parse_iree_generic_output(program: str, tmp_path: Path):
    iree_generic = iree_opt(program, tmp_path, "--mlir-print-op-generic")
    from_generic = print_module(parse_module(iree_generic, "iree-generic.mlir"))
    from_custom = print_module(parse_module(iree_opt(program, tmp_path), "iree.mlir"))
    assert from_generic.count("\n") == from_custom.count("\n")
    assert iree_opt(from_generic, tmp_path) == iree_opt(from_custom, tmp_path)


def test_iree_flow_output_keeps_regions_and_ties(tmp_path: Path):
    module = parse_module(iree_opt(FLOW_PROGRAM, tmp_path), "iree.mlir")
    regions = [op for op in module.walk() if isinstance(op, DispatchRegionOp)]
    assert [len(r.results) for r in regions] == [2, 1]
    assert regions[1].attributes["tag"].value.data == 1
    (update,) = [op for op in module.walk() if isinstance(op, TensorUpdateOp)]
    assert update.result.type == update.target.type


def test_iree_rejects_what_it_should(tmp_path: Path):
    """Sanity check of the harness: a result type that does not match flow.return fails."""
    broken = FLOW_PROGRAM.replace(
        "flow.return %4#0 : tensor<4x8xf32>", "flow.return %2 : tensor<32xf32>"
    )
    path = tmp_path / "broken.mlir"
    path.write_text(broken)
    done = subprocess.run([IREE_OPT, str(path)], capture_output=True, text=True)
    assert done.returncode != 0
