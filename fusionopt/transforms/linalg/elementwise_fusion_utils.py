"""Fusion decisions for `linalg-fuse-elementwise`: what may fuse, and when to duplicate.

Named predicates in the style of IREE's FusionUtils (`is_elementwise_generic`,
`is_fusable_producer`, `can_be_fusion_root`), the inline-constant classification, and the
leaf analysis (`collect_leaves`) that the operand limit and the cost rule measure with.
Growing a group (and `is_worth_duplicating`) lives in elementwise_fusion_grouping.py.

Cost rule for a producer that has users outside the group (it stays materialised for them):
  * a producer that computes nothing (view, fill, pad, concat) is duplicated into the group
    when that does not increase the bytes the fused kernel reads;
  * a computing `linalg.generic` is duplicated (recomputed inside the kernel) only when its
    body costs at most `max_recompute_ops` scalar ops (a `math.*` op counts 4, others 1) AND
    the kernel then reads strictly fewer bytes (e.g. `exp(x) + x` with `exp(x)` also
    returned: the kernel reads `x` only instead of `x` and `exp(x)`);
  * otherwise the producer stays materialised and the kernel reads its result.
Producers whose users are all inside the group are always moved in (never computed twice:
the body emitter memoises each value per index tuple — luminal's subexpressions). Work below
a `tensor.concat` is evaluated at every position (a select chain), so it is capped at
`max_recompute_ops` too, counting producers that would still join (see the grouping module).
Bytes count every distinct non-constant tensor read, including tables read by `tensor.extract`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.elementwise_fusion_index import IndexSpace, IndexTuple
from fusionopt.dialects.dense import is_splat
from fusionopt.transforms.linalg.elementwise_fusion_views import (
    Bound,
    broadcast_source_index,
    collapse_source_index,
    concat_source_reads,
    expand_source_index,
    pad_source_read,
    slice_source_index,
    transpose_source_index,
)

VIEW_OPS = {
    "tensor.collapse_shape",
    "tensor.expand_shape",
    "tensor.extract_slice",
    "linalg.transpose",
    "linalg.broadcast",
}
DATA_MOVEMENT_ROOTS = {"linalg.transpose", "linalg.broadcast", "tensor.pad", "tensor.concat"}
IOTA_MAX_ELEMENTS = 1 << 16


@dataclass(frozen=True)
class FusionOptions:
    aggressive: bool = True
    max_inline_bytes: int = 256
    max_operands: int = 32
    max_recompute_ops: int = 8
    # Conservative mode's first try (`form_group`): also absorb static pads, and the static
    # slices under them, with their validity masks (luminal's slice -> pointwise -> pad). Only
    # kept when every leaf is read through an affine map that IREE tiles and no non-elementwise
    # result is read through a shifted one (`is_pad_group_kept`), so no contraction/reduction
    # root loses its epilogue (dispatch formation fuses root -> pad -> elementwise itself).
    pad_groups: bool = False


# --------------------------------------------------------------------------- predicates


def tensor_bytes(value: SSAValue) -> int:
    ty = value.type
    if not isinstance(ty, TensorType):
        return 0
    bits = getattr(ty.element_type, "bitwidth", 32)
    return prod(ty.get_shape()) * max(bits, 8) // 8


def generic_output_map(op: Operation):
    return op.indexing_maps.data[-1].data  # type: ignore[attr-defined]


def is_elementwise_generic(op: Operation) -> bool:
    """All-parallel, one result, permutation output map, `linalg.index` only at top level.

    Requiring all-parallel iterators is what keeps reductions (and contractions, which are
    named ops or generics with reduction loops) out of every group: they are only read.
    """
    if op.name != "linalg.generic" or len(op.results) != 1 or len(op.outputs) != 1:  # type: ignore[attr-defined]
        return False
    if any(it.data.value != "parallel" for it in op.iterator_types.data):  # type: ignore[attr-defined]
        return False
    out_map = generic_output_map(op)
    if out_map.num_symbols or out_map.inverse_permutation() is None:
        return False
    if len(out_map.results) != out_map.num_dims or not du.is_static_tensor(op.results[0]):
        return False
    body = op.regions[0].block
    nested = (o for top in body.ops for o in top.walk() if o is not top)
    return not any(o.name == "linalg.index" for o in nested)


def pad_value(op: Operation) -> SSAValue | Operation | None:
    """The value a `tensor.pad` yields: an outside SSA value or a constant op to clone."""
    block = op.regions[0].block
    yielded = block.last_op.operands[0] if block.last_op else None
    if yielded is None:
        return None
    owner = yielded.owner
    if isinstance(owner, Operation) and owner.parent_block() is block:
        return owner if owner.name == "arith.constant" else None
    return None if yielded in block.args else yielded


def is_static_view(op: Operation) -> bool:
    if op.name not in VIEW_OPS or len(op.results) != 1 or not du.is_static_tensor(op.results[0]):
        return False
    if op.name == "tensor.extract_slice":
        return not (op.offsets or op.sizes or op.strides)  # type: ignore[attr-defined]
    if op.name == "tensor.expand_shape":
        return not op.dynamic_output_shape  # type: ignore[attr-defined]
    return True


def is_fusable_pad(op: Operation) -> bool:
    return (
        op.name == "tensor.pad"
        and not (op.low or op.high)  # type: ignore[attr-defined]
        and du.is_static_tensor(op.results[0])
        and pad_value(op) is not None
    )


def is_fill(op: Operation) -> bool:
    return op.name == "linalg.fill" and len(op.results) == 1 and du.is_static_tensor(op.results[0])


def is_fusable_producer(op: Operation, options: FusionOptions) -> bool:
    """Ops that can be evaluated at an index inside a fused body."""
    if is_elementwise_generic(op) or is_fill(op):
        return True
    if not options.aggressive:
        return options.pad_groups and is_fusable_pad(op)
    if op.name == "tensor.concat":
        return du.is_static_tensor(op.results[0])
    return is_static_view(op) or is_fusable_pad(op)


def can_be_fusion_root(op: Operation, options: FusionOptions) -> bool:
    if is_elementwise_generic(op):
        return True
    if not options.aggressive:
        return options.pad_groups and is_fusable_pad(op)
    return op.name in DATA_MOVEMENT_ROOTS and is_fusable_producer(op, options)


def is_fusable_slice_under_pad(group: "FusionGroup", op: Operation, options: FusionOptions) -> bool:
    """Conservative `pad_groups` mode: a static slice joins a group that pads (the slice's
    offsets and the pad's clamp compose into one read, so the slice is never copied)."""
    return (
        options.pad_groups
        and op.name == "tensor.extract_slice"
        and is_static_view(op)
        and any(m.name == "tensor.pad" for m in group.members())
    )


def is_projected_read(index: IndexTuple) -> bool:
    """The leaf is read through a projected permutation (distinct dims, or constant 0)."""
    seen: set[int] = set()
    for expr in index:
        if isinstance(expr, AffineDimExpr):
            if expr.position in seen:
                return False
            seen.add(expr.position)
        elif not (isinstance(expr, AffineConstantExpr) and expr.value == 0):
            return False
    return True


def is_semi_affine(expr) -> bool:
    if isinstance(expr, AffineBinaryOpExpr):
        if expr.kind in (AffineBinaryOpKind.Mod, AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv):
            return True
        return is_semi_affine(expr.lhs) or is_semi_affine(expr.rhs)
    return False


def is_pad_group_kept(group: "FusionGroup", options: FusionOptions) -> bool:
    """A `pad_groups` group is kept when every leaf is read through an affine map (the pad's
    clamp folds away: a padded dim of size 1 reads index 0) and no contraction, reduction or
    other non-elementwise result is read through a shifted map (that read would stop dispatch
    formation from fusing the group into that op's region). A clamp that needs `mod` is not
    tileable by IREE 3.13's CPU codegen ("tiling is not supported for the semi-affine indexing
    map"), so such pads stay ops of their own, as before."""
    for (value, index), kind in collect_leaves(group, options).items():
        if kind != "operand" or is_projected_read(index):
            continue
        if any(is_semi_affine(expr) for expr in index):
            return False  # IREE 3.13 cannot tile mod/floordiv reads over a tiled dim (measured)
        owner = value.owner
        if isinstance(owner, Operation) and owner.name.startswith("linalg.") and not is_elementwise_generic(owner):
            return False
    return True


def body_cost(op: Operation) -> int:
    if op.name != "linalg.generic":
        return 0
    cost = 0
    for inner in op.regions[0].block.ops:
        if inner.name in ("linalg.yield", "linalg.index"):
            continue
        cost += 4 if inner.name.startswith("math.") else 1
    return cost


# ----------------------------------------------------------------- inline constants


def dense_constant(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value") or owner.attributes.get("value")
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return attr
    return None


def iota_parameters(attr: DenseIntOrFPElementsAttr) -> tuple[int, int] | None:
    """(start, step) when an integer constant is `start + step * linear_index`."""
    if not isinstance(attr.get_element_type(), IntegerType):
        return None
    shape = attr.get_shape()
    if prod(shape) < 2 or prod(shape) > IOTA_MAX_ELEMENTS:
        return None
    values = attr.get_values()
    start, step = values[0], values[1] - values[0]
    if all(v == start + step * i for i, v in enumerate(values)):
        return int(start), int(step)
    return None


def constant_kind(value: SSAValue, options: FusionOptions) -> str | None:
    """'splat' (scalar in body), 'iota' (index arithmetic), 'inline' (small constant operand)."""
    attr = dense_constant(value)
    if attr is None:
        return None
    if is_splat(attr):
        return "splat"
    if not options.aggressive:
        return None
    if iota_parameters(attr) is not None:
        return "iota"
    return "inline" if tensor_bytes(value) <= options.max_inline_bytes else None


# ---------------------------------------------------------------------- group shape


@dataclass
class FusionGroup:
    root: Operation
    moved: set[Operation] = field(default_factory=set)
    duplicated: set[Operation] = field(default_factory=set)

    def contains(self, op: Operation) -> bool:
        return op is self.root or op in self.moved or op in self.duplicated

    def members(self) -> list[Operation]:
        return [self.root, *self.moved, *self.duplicated]


def read_operands(op: Operation) -> list[SSAValue]:
    """The operands whose *values* the op reads (a generic's init only if its body uses it)."""
    if op.name == "linalg.generic":
        reads = list(op.inputs)  # type: ignore[attr-defined]
        if op.regions[0].block.args[-1].uses:
            reads.append(op.outputs[0])  # type: ignore[attr-defined]
        return reads
    if op.name == "linalg.fill":
        return []
    if op.name == "tensor.concat":
        return list(op.operands)
    return [op.operands[0]]


def bounds_possible(bounds: tuple[Bound, ...], space: IndexSpace) -> bool:
    return not any(space.is_never_in(b.expr, b.lo, b.hi) for b in bounds)


def generic_loop_index(op: Operation, index: IndexTuple) -> list:
    loops = [None] * generic_output_map(op).num_dims
    for position, expr in enumerate(generic_output_map(op).results):
        loops[expr.position] = index[position]
    return loops


def reads_at(op: Operation, index: IndexTuple, space: IndexSpace) -> list[tuple[SSAValue, IndexTuple]]:
    """The (value, index) pairs the op reads when its result is needed at `index`."""
    return [(value, tuple(space.simplify(e) for e in read)) for value, read in _raw_reads_at(op, index, space)]


def _raw_reads_at(op: Operation, index: IndexTuple, space: IndexSpace) -> list[tuple[SSAValue, IndexTuple]]:
    match op.name:
        case "linalg.generic":
            loops = generic_loop_index(op, index)
            maps = [m.data for m in op.indexing_maps.data]  # type: ignore[attr-defined]
            inputs = list(op.inputs)  # type: ignore[attr-defined]
            reads = [(v, space.compose(m, loops)) for v, m in zip(inputs, maps)]
            if op.regions[0].block.args[-1].uses:
                reads.append((op.outputs[0], space.compose(maps[-1], loops)))  # type: ignore[attr-defined]
            return reads
        case "linalg.transpose":
            return [(op.operands[0], transpose_source_index(op, index))]
        case "linalg.broadcast":
            return [(op.operands[0], broadcast_source_index(op, index))]
        case "tensor.collapse_shape":
            return [(op.operands[0], collapse_source_index(op, index, space))]
        case "tensor.expand_shape":
            return [(op.operands[0], expand_source_index(op, index))]
        case "tensor.extract_slice":
            return [(op.operands[0], slice_source_index(op, index))]
        case "tensor.pad":
            read = pad_source_read(op, index, space)
            return [(read.value, read.index)] if bounds_possible(read.bounds, space) else []
        case "tensor.concat":
            pieces = concat_source_reads(op, index, space)
            return [(r.value, r.index) for r in pieces if bounds_possible(r.bounds, space)]
        case _:
            return []


def collect_leaves(group: FusionGroup, options: FusionOptions) -> dict[tuple[SSAValue, IndexTuple], str]:
    """Every leaf read of the fused kernel, tagged 'operand', 'inline', 'splat' or 'iota'."""
    space = IndexSpace(group.root.results[0].type.get_shape())  # type: ignore[attr-defined]
    leaves: dict[tuple[SSAValue, IndexTuple], str] = {}
    seen: set[tuple[SSAValue, IndexTuple]] = set()
    worklist = [(group.root.results[0], space.identity())]
    while worklist:
        key = worklist.pop()
        if key in seen:
            continue
        seen.add(key)
        value, index = key
        owner = value.owner
        if isinstance(owner, Operation) and group.contains(owner):
            worklist.extend(reads_at(owner, index, space))
        else:
            leaves[key] = constant_kind(value, options) or "operand"
    return leaves


def kernel_operand_count(leaves: dict) -> int:
    """Bindings of the fused kernel: its non-constant inputs plus the one output."""
    return 1 + sum(1 for kind in leaves.values() if kind == "operand")


def captured_tensors(op: Operation) -> set[SSAValue]:
    """Tensors a generic body reads directly (`tensor.extract` from a table, as in gathers)."""
    if op.name != "linalg.generic":
        return set()
    inside = set(op.walk())
    return {
        operand
        for body_op in op.regions[0].block.ops
        for nested in body_op.walk()
        for operand in nested.operands
        if isinstance(operand.type, TensorType) and operand.owner not in inside
    }


def kernel_read_bytes(group: FusionGroup, leaves: dict) -> int:
    """Bytes the fused kernel reads: its operand leaves plus tensors captured by bodies."""
    counted = {value for (value, _), kind in leaves.items() if kind == "operand"}
    for member in group.members():
        counted |= captured_tensors(member)
    return sum(tensor_bytes(v) for v in counted)
