"""The `linalg` dialect fusionopt parses: xDSL's ops plus the upstream ones it lacks.

`Linalg` is xDSL 0.74's op list with these replaced or added (same MLIR syntax):
- `linalg.matmul`, `linalg.batch_matmul`, `linalg.batch_reduce_matmul`, `linalg.contract`
  (`MatmulOp`, `BatchMatmulOp`, `BatchReduceMatmulOp`, `ContractOp` in linalg_contraction.py;
  also `linalg.matvec`, `vecmat`, `dot`, `batch_matvec`, `batch_vecmat` there):
  explicit `indexing_maps = [...]`, MLIR's hidden region, `get_indexing_maps()` /
  `get_iterator_types()` accessors;
- `linalg.generic` (`GenericOp`): also parses the multi-result custom form;
- `linalg.map` (`MapOp`): short form `{ arith.addf }` and the explicit-region form;
- convolutions and pooling (`linalg.conv_2d_nchw_fchw`, `conv_2d_nhwc_hwcf`, `conv_2d_ngchw_fgchw`,
  `depthwise_conv_2d_nchw_chw`/`_nhwc_hwc`, `pooling_nchw_max`/`_sum`, `pooling_nhwc_max`/`_sum`,
  ... in linalg_conv.py; 1-D/3-D, grouped NHWGC, depthwise with multiplier and min pooling in
  linalg_conv_nd.py): splat `dense<1> : vector<2xi64>` strides load, MLIR's bodies, shapes
  verified against strides and dilations;
- `linalg.softmax` (`SoftmaxOp`, linalg_softmax.py), `linalg.mmt4d` and `linalg.batch_mmt4d`
  (linalg_mmt4d.py), `linalg.pack` / `linalg.unpack` (linalg_pack.py), which xDSL lacks;
- xDSL's other named ops (`linalg.fill`, `linalg.add`, ...) and `linalg.transpose` as checked
  subclasses (`linalg_checked.py`): the wrong number of operands, a non-numeric element type
  or a permutation out of range is a verifier error, not an IndexError/AssertionError inside
  xDSL's hidden-region builder or transpose verifier.

Code that matches these ops must import the classes from here, not from xDSL
(`isinstance(op, xdsl MatmulOp)` is false for ours).
"""

from __future__ import annotations

from xdsl.dialects.linalg import Linalg as XdslLinalg
from xdsl.ir import Dialect

from fusionopt.dialects.linalg_contraction import (
    BATCH_MATMUL_MAPS,
    MATMUL_MAPS,
    BatchMatmulOp,
    BatchReduceMatmulOp,
    ContractionOp,
    ContractOp,
    MatmulOp,
    VECTOR_CONTRACTION_OPS,
)
from fusionopt.dialects.linalg_checked import checked_op
from fusionopt.dialects.linalg_conv import WINDOW_OPS
from fusionopt.dialects.linalg_conv_nd import WINDOW_ND_OPS
from fusionopt.dialects.linalg_conv_q import QUANTIZED_CONV_OPS
from fusionopt.dialects.linalg_generic import GenericOp, MapOp
from fusionopt.dialects.linalg_mmt4d import BatchMmt4DOp, Mmt4DOp
from fusionopt.dialects.linalg_pack import PACK_OPS
from fusionopt.dialects.linalg_reduce import ReduceOp
from fusionopt.dialects.linalg_winograd import WINOGRAD_OPS
from fusionopt.dialects.linalg_softmax import SoftmaxOp

_OURS = (GenericOp, MapOp, MatmulOp, BatchMatmulOp, BatchReduceMatmulOp, ContractOp, *VECTOR_CONTRACTION_OPS,
         *WINDOW_OPS, *WINDOW_ND_OPS, *QUANTIZED_CONV_OPS, SoftmaxOp, Mmt4DOp, BatchMmt4DOp, *PACK_OPS, ReduceOp, *WINOGRAD_OPS)
_OVERRIDDEN = {op.name for op in _OURS}

Linalg = Dialect(
    "linalg",
    [checked_op(op) for op in XdslLinalg.operations if op.name not in _OVERRIDDEN] + list(_OURS),
    list(XdslLinalg.attributes),
)

__all__ = [
    "BATCH_MATMUL_MAPS",
    "MATMUL_MAPS",
    "BatchMatmulOp",
    "ContractionOp",
    "GenericOp",
    "Linalg",
    "MapOp",
    "MatmulOp",
]
