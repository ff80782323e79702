"""MIGraphX reference ops -> `graph` ops, with the ONNX importer's builders.

An op is an `OpKind`: `build(ctx, ins, operands) -> value` plus, for fragments, how to type an
operand the text does not define from this use (`infer`). Attribute names are MIGraphX's
(`src/include/migraphx/op/*.hpp`: `transpose[permutation]`, `multibroadcast[out_lens]`,
`broadcast[axis,out_lens]`, `slice[axes,starts,ends]`, `reduce_*[axes]`, `gather[axis]`...).
Shape-only ops whose target is fully printed (reshape, squeeze, unsqueeze, flatten, convert) take
it from the printed result, which is what MIGraphX computed. MIGraphX never broadcasts
implicitly, so binary operands already have equal lens. The GPU-lowered names are in
`migraphx_ops_gpu`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import (
    FileLineColLoc, IntAttr, StringAttr, TensorType, bf16, f16, f32, f64, i1, i32, i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from fusionopt.diagnostics import Diagnostic, emit
from fusionopt.dialects import graph
from fusionopt.importers.migraphx_parse import Instruction, MigraphxImportError, Shape
from fusionopt.importers.onnx_builders import (
    binary, broadcast_all, broadcast_to, normalize_axis, reduce, reshape, scaled, slice_value,
    transpose,
)
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape
from fusionopt.importers.onnx_ops import concat, pow_, where
from fusionopt.importers.onnx_ops_nn import gather, softmax

Inferred = TensorType | None


@dataclass(frozen=True)
class Allocation:
    """A buffer without a value (`load`, `hip::allocate`): only ever an output operand."""

    name: str
    op: str
    loc: object


TYPE_NAMES: dict[str, Attribute] = {  # shape::type_t names (src/include/migraphx/shape.hpp)
    "float_type": f32, "half_type": f16, "double_type": f64, "bf16_type": bf16,
    "int32_type": i32, "int64_type": i64, "bool_type": i1,
}


def element_type(type_name: str, ins: Instruction) -> Attribute:
    if type_name not in TYPE_NAMES:
        raise MigraphxImportError(f"unsupported element type '{type_name}' (supported: "
                                  f"{', '.join(TYPE_NAMES)})", ins.loc)
    return TYPE_NAMES[type_name]


class MigraphxContext(ImportContext):
    """The ONNX importer's context, located at the current MIGraphX instruction."""

    def __init__(self, block: Block):
        super().__init__(block, opset=13)  # softmax: MIGraphX's axis is ONNX 13's
        self.ins: Instruction | None = None
        self._loc: FileLineColLoc | None = None
        self.new_argument: Callable[[Instruction, str, TensorType], SSAValue] | None = None

    def at(self, ins: Instruction | None) -> None:
        self.ins = ins
        self._loc = None if ins is None else FileLineColLoc(
            StringAttr(ins.loc.file), IntAttr(ins.loc.line), IntAttr(ins.loc.col))

    @property
    def location(self) -> FileLineColLoc | None:
        return self._loc

    def where(self) -> str:
        return "" if self.ins is None else f" (instruction '{self.ins.name}')"

    def error(self, message: str) -> MigraphxImportError:
        return MigraphxImportError(message, None if self.ins is None else self.ins.loc)

    def warn(self, message: str) -> None:
        emit(Diagnostic("warning", message, None if self.ins is None else self.ins.loc))

    def attr(self, name: str, default=None):
        return self.ins.attrs.get(name, default) if self.ins is not None else default

    def emit(self, op: Operation) -> SSAValue:
        """Append `op`; an op the verifier rejects (e.g. `sigmoid` of integers) is an error at
        the instruction, not an importer failure."""
        if self._loc is not None:
            op.location = self._loc
        try:
            op.verify()
        except VerifyException as err:
            raise self.error(f"'{self.ins.op if self.ins else op.name}' cannot be imported: "
                             f"{str(err).splitlines()[0]}") from None
        self.block.add_op(op)
        return op.results[0]

    def result_shape(self) -> Shape:
        if self.ins.shape is None:
            raise self.error(f"'{self.ins.op}' needs its printed result shape")
        return self.ins.shape

    def result_type(self) -> TensorType:
        s = self.result_shape()
        return TensorType(element_type(s.type_name, self.ins), list(s.lens))

    def number(self, name: str, default: float, kind: type = float) -> float | int:
        value = self.attr(name, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                kind is int and not isinstance(value, int)):
            raise self.error(f"attribute '{name}' must be {'an integer' if kind is int else 'a number'}"
                             f", got '{value}'")
        return kind(value)

    def int_list(self, name: str, default=None) -> list[int]:
        value = self.attr(name, default)
        if value is None:
            raise self.error(f"'{self.ins.op}' needs the attribute '{name}'")
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(v, int) for v in values):
            raise self.error(f"attribute '{name}' must be integers, got {value}")
        return values


Build = Callable[[MigraphxContext, Instruction, list[Value]], Value]
Infer = Callable[[MigraphxContext, int, list], Inferred]


@dataclass(frozen=True)
class OpKind:
    build_fn: Build
    infer: Infer | None = None
    arity: tuple[int, int] = (1, 1)  # how many operands it reads (min, max)
    output_buffer: bool = False  # the last operand is the output allocation (GPU-lowered ops)
    reads: int | None = None  # how many leading operands are read (None: all)

    def check_arity(self, ins: Instruction) -> None:
        n, (low, high) = len(self.used_operands(ins)), self.arity
        if not low <= n <= high:
            wanted = str(low) if low == high else f"{low} to {high}"
            buffer = " besides its output buffer" if self.output_buffer else ""
            raise MigraphxImportError(f"'{ins.op}' takes {wanted} operands{buffer}, got {n}",
                                      ins.loc)

    def used_operands(self, ins: Instruction) -> range:
        n = len(ins.operands) - (1 if self.output_buffer and ins.operands else 0)
        return range(min(n, self.reads) if self.reads is not None else n)

    def infer_operand(self, ctx: MigraphxContext, ins: Instruction, index: int, known) -> Inferred:
        if self.infer is None or ins.shape is None:
            return None
        return self.infer(ctx, index, known)

    def build(self, ctx: MigraphxContext, ins: Instruction, operands: list) -> Value:
        return self.build_fn(ctx, ins, operands[:len(self.used_operands(ins))])


# -- operand inference for fragments ------------------------------------------------------


def like_result(ctx: MigraphxContext, index: int, known) -> Inferred:
    return ctx.result_type()


def where_operand(ctx: MigraphxContext, index: int, known) -> Inferred:
    t = ctx.result_type()
    return TensorType(i1, t.get_shape()) if index == 0 else t


def compare_operand(ctx: MigraphxContext, index: int, known) -> Inferred:
    other = known[1 - index]
    if other is None or isinstance(other, Allocation):
        return None
    return TensorType(element(other), list(shape(other)))


def dot_operand(ctx: MigraphxContext, index: int, known) -> Inferred:
    """A = batch + [M, K], B = batch + [K, N], C = the result, K from the other factor."""
    out = ctx.result_type()
    lens, elem = list(out.get_shape()), out.get_element_type()
    if index >= 2:
        return out
    other = known[1 - index]
    if other is None or isinstance(other, Allocation) or len(shape(other)) != len(lens):
        return None
    k = shape(other)[-2] if index == 0 else shape(other)[-1]
    dims = [*lens[:-2], lens[-2], k] if index == 0 else [*lens[:-2], k, lens[-1]]
    return TensorType(elem, dims)


def transpose_operand(ctx: MigraphxContext, index: int, known) -> Inferred:
    out = ctx.result_type()
    perm = permutation(ctx)
    lens = [0] * len(perm)
    for j, p in enumerate(perm):
        lens[p] = out.get_shape()[j]
    return TensorType(out.get_element_type(), lens)


# -- builders -----------------------------------------------------------------------------


def _unary(op_class) -> OpKind:
    return OpKind(lambda ctx, ins, a: ctx.emit(op_class(ctx.ssa(a[0]))), like_result)


def _binary(op_class) -> OpKind:
    return OpKind(lambda ctx, ins, a: binary(ctx, op_class, a[0], a[1]), like_result, (2, 2))


def _compare(op_class) -> OpKind:
    return OpKind(lambda ctx, ins, a: ctx.emit(op_class(*broadcast_all(ctx, a[:2]))),
                  compare_operand, (2, 2))


def gemm(ctx: MigraphxContext, a: Value, b: Value, c: Value | None,
         alpha: float = 1.0, beta: float = 1.0) -> Value:
    """alpha * A.B + beta * C, A.B batched over the leading dims (MIGraphX `dot`)."""
    if len(shape(a)) != len(shape(b)) or len(shape(a)) < 2:
        raise ctx.error(f"dot operands must have the same rank >= 2, got {list(shape(a))} "
                        f"and {list(shape(b))}")
    if shape(a)[:-2] != shape(b)[:-2] or shape(a)[-1] != shape(b)[-2]:
        raise ctx.error(f"shape mismatch: dot of {list(shape(a))} and {list(shape(b))}")
    elem = element(a) if isinstance(a, SSAValue) else element(b)
    y = scaled(ctx, ctx.emit(graph.DotOp(ctx.ssa(a, _like(a, elem)), ctx.ssa(b, _like(b, elem)))),
               alpha)
    if c is None or beta == 0.0:
        return y
    return binary(ctx, graph.AddOp, y, broadcast_to(ctx, scaled(ctx, c, beta), shape(y), elem))


def _like(value: Value, elem: Attribute) -> Attribute | None:
    return elem if isinstance(value, np.ndarray) else None


def dot(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    """`dot` (older prints carry alpha/beta and an optional C operand)."""
    return gemm(ctx, a[0], a[1], a[2] if len(a) > 2 else None,
                ctx.number("alpha", 1.0), ctx.number("beta", 1.0))


def permutation(ctx: MigraphxContext) -> list[int]:
    return ctx.int_list("permutation", ctx.attr("dims"))


def transpose_op(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    perm = permutation(ctx)
    if sorted(perm) != list(range(len(shape(a[0])))):
        raise ctx.error(f"permutation {perm} does not permute {len(shape(a[0]))} dims")
    return transpose(ctx, a[0], perm)


def reshape_to_result(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    """reshape, reshape_lazy, squeeze, unsqueeze, flatten: the logical row-major reshape."""
    lens = ctx.result_shape().lens
    if int(np.prod(shape(a[0]))) != int(np.prod(lens)):
        raise ctx.error(f"shape mismatch: cannot reshape {list(shape(a[0]))} to {list(lens)}")
    return reshape(ctx, a[0], lens)


def multibroadcast(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    out = ctx.int_list("out_lens", list(ctx.result_shape().lens))
    try:
        np.broadcast_shapes(shape(a[0]), tuple(out))
    except ValueError:
        raise ctx.error(f"shape mismatch: cannot broadcast {list(shape(a[0]))} to {out}") from None
    return broadcast_to(ctx, a[0], out)


def broadcast(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    """Operand dims map to result dims [axis, axis + rank)."""
    out = ctx.int_list("out_lens", list(ctx.result_shape().lens))
    axis, rank = ctx.number("axis", 0, int), len(shape(a[0]))
    dims = list(range(axis, axis + rank))
    if dims and (dims[-1] >= len(out) or any(shape(a[0])[i] not in (1, out[d])
                                              for i, d in enumerate(dims))):
        raise ctx.error(f"shape mismatch: cannot broadcast {list(shape(a[0]))} to {out} "
                        f"at axis {axis}")
    value = ctx.ssa(a[0])
    if list(shape(value)) == out:
        return value
    return ctx.emit(graph.BroadcastOp(value, dims, TensorType(element(value), out)))


def slice_op(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    lens = shape(a[0])
    axes = [normalize_axis(ctx, ax, len(lens)) for ax in ctx.int_list("axes")]
    bounds = [slice(s, e).indices(lens[ax])[:2] for ax, s, e in
              zip(axes, ctx.int_list("starts"), ctx.int_list("ends"))]
    return slice_value(ctx, a[0], axes, [b for b, _ in bounds], [max(b, e) for b, e in bounds])


def convert(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    """The target type is the printed result type (`target_type` is an enum number)."""
    to = ctx.result_type().get_element_type()
    if isinstance(a[0], np.ndarray):
        return a[0].astype(numpy_dtype_of(to))
    return a[0] if element(a[0]) == to else ctx.emit(graph.ConvertOp(a[0], to))


def _reduce(op_class) -> OpKind:
    def build(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
        rank = len(shape(a[0]))
        axes = sorted({normalize_axis(ctx, ax, rank) for ax in ctx.int_list("axes")})
        return reduce(ctx, op_class, a[0], axes)
    return OpKind(build)


def _onnx(handler) -> Build:
    """An ONNX handler whose attribute names are MIGraphX's too (axis)."""
    def build(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
        ctx.number("axis", 0, int)  # the handlers read it unchecked
        return handler(ctx, a)[0]
    return build


def identity(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    return a[0]


def _unary_table() -> dict[str, OpKind]:
    ops = {"neg": graph.NegOp, "relu": graph.ReluOp, "sigmoid": graph.SigmoidOp,
           "tanh": graph.TanhOp, "exp": graph.ExpOp, "sqrt": graph.SqrtOp, "rsqrt": graph.RsqrtOp,
           "erf": graph.ErfOp, "log": graph.LogOp, "abs": graph.AbsOp, "recip": graph.RecipOp,
           "sin": graph.SinOp, "cos": graph.CosOp}
    return {name: _unary(cls) for name, cls in ops.items()}


REFERENCE_OPS: dict[str, OpKind] = {
    **_unary_table(),
    **{n: _binary(c) for n, c in (("add", graph.AddOp), ("sub", graph.SubOp),
                                  ("mul", graph.MulOp), ("div", graph.DivOp),
                                  ("max", graph.MaxOp), ("min", graph.MinOp))},
    **{n: _compare(c) for n, c in (("greater", graph.GreaterOp), ("less", graph.LessOp),
                                   ("equal", graph.EqualOp))},
    **{n: _reduce(c) for n, c in (("reduce_sum", graph.ReduceSumOp),
                                  ("reduce_mean", graph.ReduceMeanOp),
                                  ("reduce_max", graph.ReduceMaxOp))},
    "pow": OpKind(_onnx(pow_), like_result, (2, 2)),
    "where": OpKind(_onnx(where), where_operand, (3, 3)),
    "dot": OpKind(dot, dot_operand, (2, 3)),
    "transpose": OpKind(transpose_op, transpose_operand),
    **{n: OpKind(reshape_to_result) for n in ("reshape", "reshape_lazy", "squeeze", "unsqueeze",
                                              "flatten")},
    "multibroadcast": OpKind(multibroadcast),
    "broadcast": OpKind(broadcast),
    "slice": OpKind(slice_op),
    "concat": OpKind(_onnx(concat), arity=(1, 1 << 16)),
    "convert": OpKind(convert),
    "softmax": OpKind(_onnx(softmax), like_result),
    "gather": OpKind(_onnx(gather), arity=(2, 2)),
    "contiguous": OpKind(identity, like_result),
    "identity": OpKind(identity, like_result),
}

