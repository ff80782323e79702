"""`linalg.mmt4d` and `linalg.batch_mmt4d` (upstream named ops xDSL 0.74 lacks): matmuls on
tiled ("4D") operands, as data-tiling produces them. Same syntax, body and accessors as the
other contractions (linalg_contraction.py):

    mmt4d:        C[m, n, m0, n0] += A[m, k, m0, k0] * B[n, k, n0, k0]
    batch_mmt4d:  C[b, m, n, m0, n0] += A[b, m, k, m0, k0] * B[b, n, k, n0, k0]
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, prop_def

from fusionopt.dialects.linalg_contraction import ContractionOp


def _maps(*fns) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr(AffineMapAttr(AffineMap.from_callable(f)) for f in fns)


MMT4D_MAPS = _maps(
    lambda m, n, k, m0, n0, k0: (m, k, m0, k0),
    lambda m, n, k, m0, n0, k0: (n, k, n0, k0),
    lambda m, n, k, m0, n0, k0: (m, n, m0, n0),
)
BATCH_MMT4D_MAPS = _maps(
    lambda b, m, n, k, m0, n0, k0: (b, m, k, m0, k0),
    lambda b, m, n, k, m0, n0, k0: (b, n, k, n0, k0),
    lambda b, m, n, k, m0, n0, k0: (b, m, n, m0, n0),
)


@irdl_op_definition
class Mmt4DOp(ContractionOp):
    name = "linalg.mmt4d"
    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = MMT4D_MAPS
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=MMT4D_MAPS)


@irdl_op_definition
class BatchMmt4DOp(ContractionOp):
    name = "linalg.batch_mmt4d"
    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = BATCH_MMT4D_MAPS
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=BATCH_MMT4D_MAPS)
