"""torch-mlir's `tm_tensor` dialect, the ops its `torch-backend-to-linalg-on-tensors` pipeline
leaves in linalg files: `tm_tensor.scan` (a cumulative sum: the position ids of a transformers
export with a symbolic sequence length) and its `tm_tensor.yield`.

    %out, %acc = tm_tensor.scan dimension(1) inclusive(true)
        ins(%x : tensor<1x?xi64>) outs(%o, %a : tensor<1x?xi64>, tensor<1xi64>) {
      ^bb0(%running: i64, %element: i64):
        %s = arith.addi %running, %element : i64
        tm_tensor.yield %s : i64
    } -> tensor<1x?xi64>, tensor<1xi64>

IREE's input conversion turns it into `iree_linalg_ext.scan` one to one (same syntax, same
semantics), so the scan here is that op under torch-mlir's name: the verifier, parser, printer
and interpreter are `iree_linalg_ext.scan`'s (dialects/iree_linalg_ext_scan.py, `ScanBase`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition

from fusionopt.dialects.iree_linalg_ext import YieldBase
from fusionopt.dialects.iree_linalg_ext_scan import ScanBase


@irdl_op_definition
class YieldOp(YieldBase):
    name = "tm_tensor.yield"


@irdl_op_definition
class ScanOp(ScanBase):
    name = "tm_tensor.scan"
    YIELD: ClassVar[str] = "tm_tensor.yield"


TMTensor = Dialect("tm_tensor", [ScanOp, YieldOp], [])
