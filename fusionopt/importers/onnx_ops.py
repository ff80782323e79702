"""ONNX -> `graph` handlers for elementwise, logical and data-movement ops.

A handler is `fn(ctx, inputs) -> list[Value]` (`ctx.node` is the node, `ctx.attr` reads its
attributes; inputs are SSA values or import-time numpy constants). Shape-like operands
(Reshape's shape, Slice's starts...) must be constants: the importer supports static shapes only.
Handlers for contractions, normalisations and reductions are in `onnx_ops_nn.py`.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import AnyFloat, IntegerType, i1

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import (
    binary,
    broadcast_all,
    broadcast_to,
    common_shape,
    normalize_axis,
    reshape,
    slice_value,
    squeezed,
    transpose,
)
from fusionopt.importers.onnx_context import (
    ImportContext,
    Value,
    element,
    mlir_element,
    numpy_dtype_of,
    shape,
)

BINARY_OPS = {"Add": graph.AddOp, "Sub": graph.SubOp, "Mul": graph.MulOp, "Div": graph.DivOp}
VARIADIC_OPS = {"Max": graph.MaxOp, "Min": graph.MinOp}
UNARY_OPS = {
    "Sigmoid": graph.SigmoidOp, "Relu": graph.ReluOp, "Tanh": graph.TanhOp, "Erf": graph.ErfOp,
    "Sqrt": graph.SqrtOp, "Exp": graph.ExpOp, "Neg": graph.NegOp, "Reciprocal": graph.RecipOp,
    "Log": graph.LogOp, "Abs": graph.AbsOp, "Sin": graph.SinOp, "Cos": graph.CosOp,
    "Round": graph.RoundOp, "Floor": graph.FloorOp, "Ceil": graph.CeilOp,
}
COMPARE_OPS = {"Equal": graph.EqualOp, "Greater": graph.GreaterOp, "Less": graph.LessOp}


def _binary(op_class):
    return lambda ctx, ins: [binary(ctx, op_class, ins[0], ins[1])]


def _variadic(op_class):
    def handler(ctx: ImportContext, ins: list[Value]) -> list[Value]:
        result = ins[0] if len(ins) == 1 else binary(ctx, op_class, ins[0], ins[1])
        for operand in ins[2:]:
            result = binary(ctx, op_class, result, operand)
        return [ctx.ssa(result)]
    return handler


def _unary(op_class):
    return lambda ctx, ins: [ctx.emit(op_class(ctx.ssa(ins[0])))]


def _compare(op_class):
    return lambda ctx, ins: [ctx.emit(op_class(*broadcast_all(ctx, ins[:2])))]


def pow_(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """ONNX lets the exponent have another type; it is converted to the base's type."""
    base, exponent = ins
    out = common_shape(ctx, ins)
    elem = element(base)
    if not isinstance(exponent, np.ndarray) and element(exponent) != elem:
        exponent = ctx.emit(graph.ConvertOp(exponent, elem))
    return [ctx.emit(graph.PowOp(broadcast_to(ctx, base, out), broadcast_to(ctx, exponent, out, elem)))]


def mod(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """Mod: `fmod=1` is C's fmod (the dividend's sign: `graph.rem`); `fmod=0`, integers only,
    takes the divisor's sign (Python's %): where the truncated remainder is nonzero and its sign
    differs from the divisor's, it plus the divisor (opposite signs: the sum cannot overflow)."""
    a, b = broadcast_all(ctx, ins[:2])
    rem = ctx.emit(graph.RemOp(a, b))
    if ctx.attr("fmod", 0):
        return [rem]
    if not isinstance(element(a), IntegerType):
        raise ctx.error("Mod with fmod=0 is defined for integers only (floats need fmod=1)")
    zero = ctx.splat(0, shape(rem), element(rem))
    same_sign = ctx.emit(graph.EqualOp(ctx.emit(graph.LessOp(rem, zero)), ctx.emit(graph.LessOp(b, zero))))
    floored = ctx.emit(graph.WhereOp(same_sign, rem, ctx.emit(graph.AddOp(rem, b))))
    return [ctx.emit(graph.WhereOp(ctx.emit(graph.EqualOp(rem, zero)), rem, floored))]


def gelu(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """Gelu (opset 20) as the nodes torch writes below opset 20: x * 0.5 * (1 + erf(x / sqrt 2)),
    with approximate="tanh" x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))."""
    x = ctx.ssa(ins[0])
    dtype = numpy_dtype_of(element(x))
    approximate = ctx.text_attr("approximate", "none")
    if approximate == "none":
        inner = ctx.emit(graph.ErfOp(binary(ctx, graph.MulOp, x, np.array(1 / np.sqrt(2), dtype))))
    elif approximate == "tanh":
        cube = ctx.emit(graph.MulOp(ctx.emit(graph.MulOp(x, x)), x))
        poly = ctx.emit(graph.AddOp(x, binary(ctx, graph.MulOp, cube, np.array(0.044715, dtype))))
        inner = ctx.emit(graph.TanhOp(binary(ctx, graph.MulOp, poly, np.array(np.sqrt(2 / np.pi), dtype))))
    else:
        raise ctx.error(f"Gelu approximate '{approximate}' is not supported (none, tanh)")
    half_x = binary(ctx, graph.MulOp, x, np.array(0.5, dtype))
    return [ctx.emit(graph.MulOp(half_x, binary(ctx, graph.AddOp, inner, np.array(1.0, dtype))))]


def where(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    out = common_shape(ctx, ins)
    elem = element(ins[1]) if not isinstance(ins[1], np.ndarray) else element(ins[2])
    cond = broadcast_to(ctx, ins[0], out, i1)
    return [ctx.emit(graph.WhereOp(cond, broadcast_to(ctx, ins[1], out, elem),
                                   broadcast_to(ctx, ins[2], out, elem)))]


def _bool_operands(ctx: ImportContext, ins: list[Value]):
    if any(element(v) != i1 for v in ins):
        raise ctx.error(f"{ctx.node.op_type} is only supported on bool tensors")
    return broadcast_all(ctx, ins, i1)


def logical(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """And/Or/Xor/Not on i1 as `graph.where` selects (the graph dialect has no logic ops)."""
    op = ctx.node.op_type
    values = _bool_operands(ctx, ins)
    a = values[0]
    false, true = (ctx.splat(v, shape(a), i1) for v in (False, True))
    if op == "Not":
        return [ctx.emit(graph.WhereOp(a, false, true))]
    b = values[1]
    if op == "And":
        return [ctx.emit(graph.WhereOp(a, b, false))]
    if op == "Or":
        return [ctx.emit(graph.WhereOp(a, true, b))]
    return [ctx.emit(graph.EqualOp(a, ctx.emit(graph.WhereOp(b, false, true))))]  # Xor


def is_nan(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """IsNaN(x) as `not (x == x)`: the float compare lowers to the ordered `arith.cmpf oeq`,
    false exactly when x is NaN (so `x == x` must never be folded to true on floats)."""
    value = ins[0]
    if isinstance(value, np.ndarray):
        return [np.isnan(value)]
    if not isinstance(element(value), AnyFloat):
        raise ctx.error(f"IsNaN needs a float tensor, got {element(value)}")
    false, true = (ctx.splat(v, shape(value), i1) for v in (False, True))
    return [ctx.emit(graph.WhereOp(ctx.emit(graph.EqualOp(value, value)), false, true))]


def cast(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    to = mlir_element(ctx.attr("to"), f"Cast target{ctx.where()}")
    value = ins[0]
    if isinstance(value, np.ndarray):
        return [value.astype(numpy_dtype_of(to))]
    if element(value) == to:
        return [value]
    return [ctx.emit(graph.ConvertOp(value, to))]


def identity(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    return [ins[0]]


# -- shape ops ---------------------------------------------------------------------------


def reshape_target(ctx: ImportContext, in_shape: tuple[int, ...], spec: np.ndarray) -> list[int]:
    """ONNX Reshape's rules: 0 copies the input dim (unless allowzero), -1 is inferred."""
    allow_zero = bool(ctx.attr("allowzero", 0))
    out = [int(d) for d in spec.reshape(-1)]
    for i, d in enumerate(out):
        if d == 0 and not allow_zero:
            if i >= len(in_shape):
                raise ctx.error(f"Reshape: 0 at position {i} has no input dim to copy")
            out[i] = in_shape[i]
    if out.count(-1) > 1:
        raise ctx.error("Reshape: more than one -1 in the shape")
    total = int(np.prod(in_shape))
    if -1 in out:
        known = int(np.prod([d for d in out if d != -1]))
        if known == 0 or total % known:
            raise ctx.error(f"Reshape: cannot infer -1 from {list(in_shape)} to {out}")
        out[out.index(-1)] = total // known
    if int(np.prod(out)) != total:
        raise ctx.error(f"Reshape: {list(in_shape)} cannot be reshaped to {out}")
    return out


def reshape_op(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    spec = ctx.constant_input(ins[1], "Reshape's shape operand")
    return [reshape(ctx, ins[0], reshape_target(ctx, shape(ins[0]), spec))]


def transpose_op(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    rank = len(shape(ins[0]))
    perm = ctx.attr("perm", list(reversed(range(rank))))
    return [transpose(ctx, ins[0], perm)]


def _raw_axes(ctx: ImportContext, ins: list[Value]) -> np.ndarray | None:
    """`axes` from the second input (opset >= 13) or the attribute (older opsets)."""
    if len(ins) > 1 and ins[1] is not None:
        return ctx.constant_input(ins[1], "the axes operand").reshape(-1)
    raw = ctx.attr("axes")
    return None if raw is None else np.asarray(raw).reshape(-1)


def _axes(ctx: ImportContext, ins: list[Value], rank: int) -> list[int] | None:
    raw = _raw_axes(ctx, ins)
    return None if raw is None else sorted(normalize_axis(ctx, int(a), rank) for a in raw)


def unsqueeze(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    out = list(shape(ins[0]))
    raw = _raw_axes(ctx, ins)
    if raw is None:
        raise ctx.error("Unsqueeze needs axes")
    for a in sorted(normalize_axis(ctx, int(a), len(out) + len(raw)) for a in raw):
        out.insert(a, 1)
    return [reshape(ctx, ins[0], out)]


def squeeze(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    in_shape = shape(ins[0])
    axes = _axes(ctx, ins, len(in_shape))
    axes = axes if axes is not None else [i for i, d in enumerate(in_shape) if d == 1]
    if any(in_shape[a] != 1 for a in axes):
        raise ctx.error(f"Squeeze: axes {axes} of shape {list(in_shape)} are not all 1")
    return [squeezed(ctx, ins[0], axes)]


def flatten(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    in_shape = shape(ins[0])
    axis = normalize_axis(ctx, ctx.attr("axis", 1), len(in_shape) + 1)
    return [reshape(ctx, ins[0], [int(np.prod(in_shape[:axis])), int(np.prod(in_shape[axis:]))])]


def concat(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    rank = len(shape(ins[0]))
    axis = normalize_axis(ctx, ctx.attr("axis"), rank)
    operands = [v for v in ins if shape(v)[axis] != 0]
    elem = element(next((v for v in operands if not isinstance(v, np.ndarray)), operands[0]))
    ssa = [ctx.ssa(v, elem if isinstance(v, np.ndarray) else None) for v in operands]
    return [ssa[0] if len(ssa) == 1 else ctx.emit(graph.ConcatOp(ssa, axis))]


def _axis_indices(start: int, end: int, step: int, dim: int) -> range:
    """The indices ONNX Slice keeps along one axis: its clamping rules (start and end clamped to
    [0, dim] for a positive step, to [-1, dim - 1] for a negative one, negative values counted
    from the end, INT64 sentinels for "to the end") are Python's slice semantics."""
    return range(dim)[slice(start, end, step)]


def slice_op(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    in_shape = shape(ins[0])
    starts = ctx.constant_input(ins[1], "Slice's starts").reshape(-1)
    ends = ctx.constant_input(ins[2], "Slice's ends").reshape(-1)
    axes = (ctx.constant_input(ins[3], "Slice's axes").reshape(-1)
            if len(ins) > 3 and ins[3] is not None else np.arange(len(starts)))
    steps = (ctx.constant_input(ins[4], "Slice's steps").reshape(-1)
             if len(ins) > 4 and ins[4] is not None else np.ones(len(starts), dtype=np.int64))
    if np.any(steps == 0):
        raise ctx.error("Slice with a step of 0")
    norm = [normalize_axis(ctx, int(a), len(in_shape)) for a in axes]
    kept = {a: _axis_indices(int(s), int(e), int(k), in_shape[a])
            for a, s, e, k in zip(norm, starts, ends, steps)}
    if isinstance(ins[0], np.ndarray):
        index = [slice(None)] * ins[0].ndim
        for a, r in kept.items():
            index[a] = slice(r.start, r.stop if r.stop >= 0 else None, r.step)
        return [ins[0][tuple(index)]]
    contiguous = {a: r for a, r in kept.items() if r.step == 1 or len(r) <= 1}
    value = slice_value(ctx, ins[0], list(contiguous), [r.start if r else 0 for r in contiguous.values()],
                        [r.start + len(r) if r else 0 for r in contiguous.values()])
    for axis, r in kept.items():
        if axis not in contiguous:
            value = _strided(ctx, value, axis, r)
    return [value]


def _strided(ctx: ImportContext, value: Value, axis: int, kept: range) -> Value:
    """Every `kept.step`-th element along `axis` (|step| > 1 or reversed, at least two kept).
    A forward step whose strides fit in the dim is a view: the span of whole strides sliced,
    split into (count, step), the element at `start % step` of each stride kept, the unit dim
    dropped (Swin's patch merging, `x[:, 1::2, 0::2]`); views fuse into their readers'
    dispatches as any slice and reshape do. Otherwise (a reversed axis, or strides that would
    run past the dim) a gather of the constant indices."""
    dims, count, step = list(shape(value)), len(kept), kept.step
    offset = kept.start % step if step > 0 else 0
    base = kept.start - offset
    if step > 0 and base + step * count <= dims[axis]:
        span = slice_value(ctx, value, [axis], [base], [base + step * count])
        split = reshape(ctx, span, [*dims[:axis], count, step, *dims[axis + 1:]])
        first = slice_value(ctx, split, [axis + 1], [offset], [offset + 1])
        return reshape(ctx, first, [*dims[:axis], count, *dims[axis + 1:]])
    indices = np.asarray(list(kept), dtype=np.int64)
    return ctx.emit(graph.GatherOp(ctx.ssa(value), ctx.ssa(indices), axis))


def split(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    in_shape = shape(ins[0])
    axis = normalize_axis(ctx, ctx.attr("axis", 0), len(in_shape))
    n_out = len(ctx.node.output)
    if len(ins) > 1 and ins[1] is not None:
        sizes = [int(s) for s in ctx.constant_input(ins[1], "Split's split operand").reshape(-1)]
    elif ctx.attr("split") is not None:
        sizes = [int(s) for s in ctx.attr("split")]
    else:  # equal parts; the last one may be smaller (opset 18 num_outputs)
        part = -(-in_shape[axis] // n_out)
        sizes = [min(part, in_shape[axis] - i * part) for i in range(n_out)]
    if sum(sizes) != in_shape[axis] or len(sizes) != n_out:
        raise ctx.error(f"Split sizes {sizes} do not cover dim {in_shape[axis]} in {n_out} parts")
    offsets = np.cumsum([0, *sizes])
    return [slice_value(ctx, ins[0], [axis], [int(offsets[i])], [int(offsets[i + 1])])
            for i in range(n_out)]


def expand(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    target = ctx.constant_input(ins[1], "Expand's shape operand").reshape(-1)
    out = np.broadcast_shapes(shape(ins[0]), tuple(int(d) for d in target))
    return [broadcast_to(ctx, ins[0], out)]


def shape_op(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """Static shapes make `Shape` a constant (the start/end attributes slice it)."""
    dims = np.array(shape(ins[0]), dtype=np.int64)
    start, end = ctx.attr("start", 0), ctx.attr("end", len(dims))
    return [dims[start:end]]


def size_op(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    return [np.array(int(np.prod(shape(ins[0]))), dtype=np.int64)]


HANDLERS = {
    **{k: _binary(v) for k, v in BINARY_OPS.items()},
    **{k: _variadic(v) for k, v in VARIADIC_OPS.items()},
    **{k: _unary(v) for k, v in UNARY_OPS.items()},
    **{k: _compare(v) for k, v in COMPARE_OPS.items()},
    "Pow": pow_, "Mod": mod, "Gelu": gelu, "Where": where, "And": logical, "Or": logical, "Xor": logical, "Not": logical,
    "IsNaN": is_nan, "Cast": cast, "Identity": identity, "Reshape": reshape_op, "Transpose": transpose_op,
    "Unsqueeze": unsqueeze, "Squeeze": squeeze, "Flatten": flatten, "Concat": concat,
    "Slice": slice_op, "Split": split, "Expand": expand, "Shape": shape_op, "Size": size_op,
}
