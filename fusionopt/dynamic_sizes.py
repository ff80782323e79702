"""Dynamic sizes supplied, which xDSL 0.74's `tensor.empty` and `tensor.expand_shape` verifiers do
not check (MLIR's do): a pass that built `tensor.empty() : tensor<1x?xf32>` (no size for the
`?`) for a decoder at a symbolic sequence length produced IR that verified, then failed in the
printer or in `iree-compile` ("incorrect number of dynamic sizes")."""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Operation

from fusionopt.dialects.dynamic_dims import dynamic_count


def missing_sizes(op: Operation) -> str | None:
    """Why `op` lacks (or has extra) dynamic size operands, else None."""
    if op.name == "tensor.empty":
        expected, given = dynamic_count(op.results[0].type), len(op.operands)
    elif op.name == "tensor.expand_shape":
        static = op.properties["static_output_shape"].get_values()  # type: ignore[attr-defined]
        expected, given = sum(1 for d in static if d == DYNAMIC_INDEX), len(op.operands) - 1
    else:
        return None
    if expected == given:
        return None
    return f"incorrect number of dynamic sizes, has {given}, expected {expected}"
