"""Static slices in bounds, which xDSL 0.74's `tensor.extract_slice` / `insert_slice` verifiers
do not check (MLIR's do): `%table[0, 256] [4, 1] [1, 1]` of a 4x2 tensor verified and reached
`linalg-fold-constant-gather-indices`, which crashed reading it."""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation

SLICES = {"tensor.extract_slice": 0, "tensor.insert_slice": 1}  # op -> operand that is sliced


def _static(op: Operation, name: str) -> list[int]:
    return list(op.properties[name].get_values())  # type: ignore[attr-defined]


def out_of_bounds_dim(op: Operation) -> str | None:
    """Why a static slice of `op` leaves its tensor, else None."""
    sliced = op.operands[SLICES[op.name]].type
    if not isinstance(sliced, TensorType):
        return None
    offsets, sizes, strides = (_static(op, f"static_{k}") for k in ("offsets", "sizes", "strides"))
    for dim, (extent, offset, size, stride) in enumerate(zip(sliced.get_shape(), offsets, sizes, strides)):
        if DYNAMIC_INDEX in (extent, offset, size, stride) or size == 0:
            continue
        last = offset + (size - 1) * stride
        if offset < 0 or last >= extent or last < 0:
            return f"slice along dimension {dim} runs out of bounds: elements {offset} to {last} of {extent}"
    return None


def slice_out_of_bounds(op: Operation) -> str | None:
    """Why `op`, when it is a static slice, leaves its tensor, else None."""
    return out_of_bounds_dim(op) if op.name in SLICES else None
