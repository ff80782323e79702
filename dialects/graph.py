"""The `graph` dialect: a small, static-shape tensor-graph IR (ONNX/MIGraphX level).

This module is the public face: the dialect object `Graph` and every op class. The ops live in
`graph_base.py` (base classes, shared verification), `graph_ops_elementwise.py`,
`graph_ops_shape.py`, `graph_ops_compute.py` and `graph_ops_conv.py` (conv, pool); each op class's docstring gives its spelling.
Numpy semantics: `fusionopt.graph_numpy.evaluate_graph_op`.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from fusionopt.dialects.graph_base import (
    CompareOp,
    ElementwiseBinaryOp,
    ElementwiseUnaryOp,
    GraphOp,
    ReduceOp,
)
from fusionopt.dialects.graph_ops_compute import (
    DotOp,
    GatherOp,
    ReduceMaxOp,
    ReduceMeanOp,
    ReduceSumOp,
)
from fusionopt.dialects.graph_ops_conv import ConvOp, PoolOp
from fusionopt.dialects.graph_ops_elementwise import (
    BINARY_OPS,
    COMPARE_OPS,
    UNARY_OPS,
    AbsOp,
    AddOp,
    ConvertOp,
    CeilOp,
    CosOp,
    DivOp,
    EqualOp,
    ErfOp,
    Exp2Op,
    ExpOp,
    Expm1Op,
    FloorOp,
    GreaterOp,
    LessOp,
    Log1pOp,
    LogOp,
    MaxOp,
    MinOp,
    MulOp,
    NegOp,
    PowOp,
    RecipOp,
    ReluOp,
    RemOp,
    RoundOp,
    RsqrtOp,
    SigmoidOp,
    SinOp,
    SqrtOp,
    SubOp,
    TanhOp,
    WhereOp,
)
from fusionopt.dialects.graph_ops_shape import (
    BroadcastOp,
    ConcatOp,
    PadOp,
    ReshapeOp,
    SliceOp,
    TransposeOp,
)

REDUCE_OPS = (ReduceSumOp, ReduceMaxOp, ReduceMeanOp)
WINDOW_OPS = (ConvOp, PoolOp)
DATA_MOVEMENT_OPS = (BroadcastOp, ReshapeOp, TransposeOp, SliceOp, ConcatOp, PadOp)
ALL_OPS = (*BINARY_OPS, *UNARY_OPS, *COMPARE_OPS, WhereOp, ConvertOp, *DATA_MOVEMENT_OPS, DotOp,
           *REDUCE_OPS, GatherOp, *WINDOW_OPS)

Graph = Dialect("graph", list(ALL_OPS), [])

__all__ = [
    "Graph", "GraphOp", "ElementwiseBinaryOp", "ElementwiseUnaryOp", "CompareOp", "ReduceOp",
    "ALL_OPS", "BINARY_OPS", "UNARY_OPS", "COMPARE_OPS", "REDUCE_OPS", "DATA_MOVEMENT_OPS", "WINDOW_OPS",
    *(op.__name__ for op in ALL_OPS),
]
