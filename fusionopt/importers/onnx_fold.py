"""Import-time constant folding: evaluate a node whose inputs are all known constants.

ONNX's reference implementation (`onnx.reference`) does the work, so every op it knows folds
(MIGraphX's `propagate_constant` does the same on its IR). A few of its kernels are wrong in
onnx 1.23 and are replaced by numpy here:
- GatherElements returns a single element for 2-D data (`gather_numpy_2` reshapes wrongly).
"""

from __future__ import annotations

import numpy as np
from onnx import NodeProto, helper

from fusionopt.importers.onnx_context import ImportContext, Value

NOT_FOLDABLE = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
                "Multinomial", "Bernoulli"}
# Ops whose handlers fold constants with numpy themselves: a quantized model dequantizes every
# weight, and the reference evaluator costs ~0.5 s to import plus a session per node.
FOLDED_BY_HANDLER = {"QuantizeLinear", "DequantizeLinear"}


def is_foldable(node: NodeProto, ins: list[Value | None]) -> bool:
    """Deterministic node with every input known at import time."""
    if node.op_type in NOT_FOLDABLE or node.op_type in FOLDED_BY_HANDLER:
        return False
    return all(v is None or isinstance(v, np.ndarray) for v in ins)


def _gather_elements(node: NodeProto, data: np.ndarray, indices: np.ndarray) -> list[np.ndarray]:
    axis = next((helper.get_attribute_value(a) for a in node.attribute if a.name == "axis"), 0)
    axis = axis + data.ndim if axis < 0 else axis
    indices = np.where(indices < 0, indices + data.shape[axis], indices)
    return [np.take_along_axis(data, indices, axis)]


_NUMPY_FOLDS = {"GatherElements": _gather_elements}


def fold_node(ctx: ImportContext, node: NodeProto, ins: list[Value | None]) -> list[np.ndarray]:
    if node.op_type in _NUMPY_FOLDS:
        return _NUMPY_FOLDS[node.op_type](node, *ins)
    from onnx.reference import ReferenceEvaluator  # slow to import; only when folding

    feeds = {name: v for name, v in zip(node.input, ins) if name}
    try:
        outs = ReferenceEvaluator(node, opsets={"": ctx.opset}).run(None, feeds)
    except Exception as err:
        raise ctx.error(f"cannot evaluate constant {node.op_type}: {err}") from None
    return [np.asarray(o) for o in outs]
