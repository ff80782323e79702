"""Static `tensor.extract_slice` / `insert_slice` queries: their static parameters and IREE's
contiguity rule (a contiguous slice is one linear byte range: a `flow.tensor.slice/update`, no
dispatch). Shared by region formation and flow conversion through `dispatch_utils`."""

from __future__ import annotations

from xdsl.ir import Operation


def static_slice_params(op: Operation) -> tuple[list[int], list[int], list[int]] | None:
    """(offsets, sizes, strides) of a fully static extract/insert_slice, else None."""
    if len(op.operands) > (2 if op.name == "tensor.insert_slice" else 1):
        return None  # dynamic offsets/sizes/strides are treated conservatively (IREE does too)
    names = ("static_offsets", "static_sizes", "static_strides")
    attrs = [op.properties.get(n) for n in names]
    if any(a is None for a in attrs):
        return None
    return tuple(list(a.get_values()) for a in attrs)  # type: ignore[return-value]


def is_contiguous_slice(offsets_sizes_strides, full_shape: tuple[int, ...]) -> bool:
    """IREE's contiguity rule: unit strides, and scanning from the innermost dim, once a dim is
    not taken whole every outer dim must have size 1 (so the slice is one linear byte range)."""
    _, sizes, strides = offsets_sizes_strides
    if any(s != 1 for s in strides) or len(sizes) != len(full_shape):
        return False
    partial_seen = False
    for size, full in reversed(list(zip(sizes, full_shape))):
        if partial_seen and size != 1:
            return False
        if size != full:
            partial_seen = True
    return True


def slice_is_contiguous(op: Operation) -> bool:
    params = static_slice_params(op)
    if params is None:
        return False
    full = op.operands[0].type if op.name == "tensor.extract_slice" else op.operands[1].type
    return is_contiguous_slice(params, tuple(full.get_shape()))
