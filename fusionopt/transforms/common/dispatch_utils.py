"""Shared structural queries on linalg ops for dispatch-region formation (IREE's
`FusionUtils`/`RegionOpUtils`), used by the `linalg` and `dispatch` stages and by `fusion-stats`.

Everything here is a pure query on the IR: which ops are contractions or reductions, how a
linalg op indexes its operands, whether a slice is contiguous, which producers are cheap enough to clone into every dispatch. The passes
(`form-dispatch-regions`, `convert-to-flow`, `linalg-interchange-for-fusion`,
`linalg-fold-transpose-into-matmul`, ...) combine these predicates; keeping them in one module
means the linalg stage prepares exactly what dispatch formation will accept, and formation and
flow conversion decide with exactly the same rules.

Ops are matched through xDSL's `LinalgStructuredOperation` interface where possible, and by name
otherwise, so ops added by `fusionopt.dialects.linalg` (batch_matmul, ...) work unchanged.
Whether a consumer walks a root's loops compatibly: `consumer_walks.py`.
"""

from __future__ import annotations


from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from fusionopt.dialects.dense import is_splat

# Use/def queries live in their own module; re-exported so passes keep one vocabulary (`du.`).
from fusionopt.transforms.common.use_def import (  # noqa: F401
    defined_inside,
    defining_op_in,
    enclosing_dispatch_region,
    is_inside,
    sole_user,
    top_level_user,
    use_count,
    values_captured_by,
    values_used_inside,
)
# So do the static slice queries (IREE's contiguity rule).
from fusionopt.transforms.common.slices import (  # noqa: F401
    is_contiguous_slice,
    slice_is_contiguous,
    static_slice_params,
)

# --- op kinds -----------------------------------------------------------------------------

CONTRACTION_NAMES = frozenset(
    {
        "linalg.matmul",
        "linalg.batch_matmul",
        "linalg.matvec",
        "linalg.vecmat",
        "linalg.batch_matvec",
        "linalg.dot",
        "linalg.matmul_transpose_a",
        "linalg.matmul_transpose_b",
        "linalg.batch_matmul_transpose_a",
        "linalg.batch_matmul_transpose_b",
        "linalg.mmt4d",
        "linalg.contract",
    }
)
RESHAPE_NAMES = frozenset({"tensor.expand_shape", "tensor.collapse_shape"})
# Ops IREE duplicates into every dispatch that needs them instead of fusing (isClonableIntoDispatchOp).
CLONABLE_NAMES = frozenset(
    {"tensor.empty", "linalg.fill", "affine.apply", "arith.index_cast", "tensor.cast", "flow.tensor.splat"}
)
# IREE's --iree-flow-inline-constants-max-byte-length default.
INLINE_CONSTANT_MAX_BYTES = 256


def is_linalg(op: Operation) -> bool:
    return isinstance(op, LinalgStructuredOperation) or (
        op.name.startswith("linalg.") and op.name not in ("linalg.yield", "linalg.index")
    )


def iterator_kinds(op: Operation) -> list[str]:
    """Loop kinds ("parallel"/"reduction") of a structured op; [] when it has no loop nest."""
    if isinstance(op, LinalgStructuredOperation):
        return [str(it.data.value) for it in op.get_iterator_types()]
    if op.name == "linalg.softmax":
        return ["parallel"] * _rank(op.results[0].type)
    return []


def indexing_maps(op: Operation) -> list[AffineMap]:
    """One map per operand (inputs then outputs) of a structured op, [] otherwise."""
    if isinstance(op, LinalgStructuredOperation):
        return [m.data for m in op.get_indexing_maps()]
    return []


def set_indexing_maps(op: Operation, maps: list[AffineMap]) -> None:
    """Rewrites a structured op's maps in place (one per operand, inputs then outputs)."""
    op.properties["indexing_maps"] = ArrayAttr([AffineMapAttr(m) for m in maps])


def dps_inputs(op: Operation) -> tuple[SSAValue, ...]:
    return tuple(getattr(op, "inputs", ()))


def dps_inits(op: Operation) -> tuple[SSAValue, ...]:
    return tuple(getattr(op, "outputs", ()))


def operand_map(op: Operation, value: SSAValue) -> AffineMap | None:
    """The indexing map through which `op` reads `value` (first occurrence), if it is an operand."""
    maps = operand_maps(op, value)
    return maps[0] if maps else None


def operand_maps(op: Operation, value: SSAValue) -> list[AffineMap]:
    """Every indexing map through which `op` reads `value`: an op may take one value twice (a
    pairwise comparison of a vector with itself, `x_i > x_j`)."""
    maps = indexing_maps(op)
    operands = (*dps_inputs(op), *dps_inits(op))
    return [maps[i] for i, operand in enumerate(operands) if operand is value and i < len(maps)]


def result_map(op: Operation, result_index: int) -> AffineMap | None:
    maps = indexing_maps(op)
    position = len(dps_inputs(op)) + result_index
    return maps[position] if position < len(maps) else None


def has_reduction_loops(op: Operation) -> bool:
    return "reduction" in iterator_kinds(op)


def is_all_parallel(op: Operation) -> bool:
    kinds = iterator_kinds(op)
    return all(kind == "parallel" for kind in kinds)


def is_contraction(op: Operation) -> bool:
    """matmul-like: a named contraction, or a generic whose reduction multiplies two inputs."""
    if op.name in CONTRACTION_NAMES:
        return True
    if op.name != "linalg.generic" or not has_reduction_loops(op) or len(dps_inputs(op)) != 2:
        return False
    body = list(op.regions[0].block.ops)
    return any(_multiplies_two_values(o) for o in body) and any(o.name in ("arith.addf", "arith.addi") for o in body)


def is_multi_result_contraction(op: Operation) -> bool:
    """A generic computing several contractions in one loop nest (`linalg-horizontal-fuse-
    contractions`, `linalg-horizontal-fuse-1x1-convs`): a reduction whose body yields, for each
    result, its accumulator plus a product of two inputs."""
    if op.name != "linalg.generic" or len(op.results) < 2 or not has_reduction_loops(op):
        return False
    block = op.regions[0].block
    outs = set(block.args[len(dps_inputs(op)):])
    yielded = block.last_op.operands if block.last_op is not None else ()
    return len(yielded) == len(op.results) and all(_accumulates_a_product(v, outs) for v in yielded)


def _accumulates_a_product(value: SSAValue, accumulators: set) -> bool:
    owner = value.owner
    if not isinstance(owner, Operation) or owner.name not in ("arith.addf", "arith.addi"):
        return False
    left, right = owner.operands
    product = right if left in accumulators else left if right in accumulators else None
    return product is not None and isinstance(product.owner, Operation) and _multiplies_two_values(product.owner)


def _multiplies_two_values(op: Operation) -> bool:
    """A product of two different values: a squared term (`d * d`, a variance) is a
    reduction, not a contraction."""
    return op.name in ("arith.mulf", "arith.muli") and op.operands[0] is not op.operands[1]


def is_elementwise_linalg(op: Operation) -> bool:
    """An all-parallel linalg op (generic, transpose, broadcast, ...) other than fill."""
    return is_linalg(op) and op.name != "linalg.fill" and is_all_parallel(op) and not is_contraction(op)


def is_reshape(op: Operation) -> bool:
    return op.name in RESHAPE_NAMES


def is_identity_map(m: AffineMap) -> bool:
    return m.num_symbols == 0 and len(m.results) == m.num_dims and all(
        isinstance(e, AffineDimExpr) and e.position == i for i, e in enumerate(m.results)
    )


def is_permutation_map(m: AffineMap) -> bool:
    dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    return len(dims) == len(m.results) == m.num_dims and sorted(dims) == list(range(m.num_dims))


def dims_read(m: AffineMap) -> list[int | None]:
    """Per map result: the loop dim it reads, or None for a constant 0 (broadcast) result."""
    out: list[int | None] = []
    for expr in m.results:
        if isinstance(expr, AffineDimExpr):
            out.append(expr.position)
        elif isinstance(expr, AffineConstantExpr) and expr.value == 0:
            out.append(None)
        else:
            raise ValueError(f"not a projected permutation: {m}")
    return out


def reads_dims_in_order(m: AffineMap) -> bool:
    """`m` is a projected permutation (constant-0 results allowed) naming its loop dims in
    increasing order: an identity or a broadcast, no transpose."""
    try:
        dims = [d for d in dims_read(m) if d is not None]
    except ValueError:
        return False
    return dims == sorted(dims)


# --- roots and cloning --------------------------------------------------------------------


def is_convolution(op: Operation) -> bool:
    """A convolution or pooling named op (`fusionopt.dialects.linalg_conv`): a root (it has
    reduction loops) that reads its input through sliding windows, not a projected permutation."""
    return op.name.startswith(("linalg.conv_", "linalg.depthwise_conv_", "linalg.pooling_"))


def has_low_padding(op: Operation) -> bool:
    """A `tensor.pad` that pads at the start of some dimension (or by a dynamic amount).

    IREE 3.13 computes such a pad wrongly, or fails to build it, when it sits in a pre-formed
    `flow.dispatch.region` (behind a producer: values at the wrong offset; alone: "large vector
    sizes"; measured on the CNN corpus and `test_sliced_roots_and_pads.py`); a region that writes
    the padded buffer through `tensor.insert_slice` into a fill fails to build. What builds and
    computes right is the pad as a *producer* in its convolution consumer's region (IREE's CPU
    codegen reads the padded window directly; no copy dispatch): `form-dispatch-regions` fuses
    it there. Any other such pad stays at top level (never our copy region) for IREE's own
    DispatchCreation to write as fill + insert."""
    if op.name != "tensor.pad":
        return False
    low = op.static_low.get_values()  # type: ignore[attr-defined]
    return any(v != 0 for v in low)


# IREE's isRootLikeOp also takes TilingInterface ops other than gather/pad/concat/pack: each
# gets a dispatch (its scatter / sort / fft region tests), never stays a top-level op.
EXT_ROOT_NAMES = frozenset(
    f"iree_linalg_ext.{n}"
    for n in ("attention", "online_attention", "scatter", "sort", "topk", "fft", "scan", "arg_compare", "im2col")
)


def is_root_op(op: Operation) -> bool:
    """IREE's isRootOp: contractions, convolutions, and any linalg op with a reduction loop.

    `linalg.fill` is never a root (it is cloned), nor is an all-parallel op: elementwise work
    joins a root's dispatch or forms an elementwise-only dispatch later.
    """
    if op.name == "linalg.softmax" or op.name in EXT_ROOT_NAMES:
        return True
    return is_linalg(op) and op.name != "linalg.fill" and (is_contraction(op) or has_reduction_loops(op))


def constant_byte_size(op: Operation) -> int | None:
    value = op.properties.get("value") or op.attributes.get("value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return None
    if is_splat(value):
        return 0
    ty = value.get_type()
    width = getattr(ty.element_type, "bitwidth", 64) if isinstance(ty, TensorType) else 64
    return value.get_type().element_count() * max(1, width // 8)


def is_scalar_type(ty: Attribute) -> bool:
    return not isinstance(ty, TensorType) and not hasattr(ty, "get_shape")


def is_static_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and all(d >= 0 for d in value.type.get_shape())


def is_clonable_into_dispatch(op: Operation) -> bool:
    """Cheap producers duplicated into each dispatch that uses them (IREE's isClonableIntoDispatchOp).

    tensor.empty, linalg.fill, index math and casts, scalar arith ops, constants that are
    scalars, splats, or dense payloads of at most 256 bytes, and broadcasts of inputs that exist
    before any dispatch runs (`is_clonable_broadcast`).
    """
    if op.name in CLONABLE_NAMES or is_clonable_broadcast(op):
        return True
    if op.name == "arith.constant":
        size = constant_byte_size(op)
        return size is None or size <= INLINE_CONSTANT_MAX_BYTES
    if op.name.startswith(("arith.", "math.")):
        return all(is_scalar_type(r.type) for r in op.results) and all(
            is_scalar_type(o.type) for o in op.operands
        )
    return False


# Casts a broadcast may apply on the way (IREE's isBitExtendOp: still a pure indexed read).
BIT_EXTEND_NAMES = frozenset({"arith.extf", "arith.extsi", "arith.extui"})


def is_pure_broadcast_generic(op: Operation) -> bool:
    """A `linalg.generic` that only re-indexes one input (a broadcast/transpose, optionally
    bit-extended): each output element is one input element, the init is never read."""
    if op.name != "linalg.generic" or len(dps_inputs(op)) != 1 or len(op.results) != 1:
        return False
    maps = indexing_maps(op)
    if not is_all_parallel(op) or not maps[0].is_projected_permutation(allow_zero_in_results=True):
        return False
    block = op.regions[0].block
    body = list(block.ops)
    value = body[-1].operands[0] if body and len(body[-1].operands) == 1 else None
    for inner in reversed(body[:-1]):
        if inner.name not in BIT_EXTEND_NAMES or value is not inner.results[0]:
            return False
        value = inner.operands[0]
    return value is block.args[0]


def is_available_before_dispatches(value: SSAValue) -> bool:
    """Constants and function arguments: reading them adds no edge between dispatches."""
    owner = value.owner
    if isinstance(owner, Block):
        return True
    return owner.name == "arith.constant"


def reads_as_elementwise_input(user: Operation, value: SSAValue) -> bool:
    """`user` is an elementwise generic reading `value` only as an input, through a projected
    permutation: a broadcast producer then composes into the consumer's own indexed read."""
    if user.name != "linalg.generic" or not is_elementwise_linalg(user) or value in dps_inits(user):
        return False
    operand = operand_map(user, value)
    return operand is not None and operand.is_projected_permutation(allow_zero_in_results=True)


def is_clonable_broadcast(op: Operation) -> bool:
    """A broadcast of a constant or argument whose every user is an elementwise generic.

    Cloned into each consumer's dispatch it is an indexed read of the captured source: the bias
    of a Linear then costs no dispatch of its own. Contraction inputs and inits are excluded
    (IREE keeps a root's input producers out of its dispatch unless fusion is aggressive, and
    takes init producers through fusion, not cloning)."""
    if not is_pure_broadcast_generic(op) or not is_available_before_dispatches(dps_inputs(op)[0]):
        return False
    result = op.results[0]
    return all(reads_as_elementwise_input(use.operation, result) for use in result.uses)


def is_index_like(ty: Attribute) -> bool:
    return isinstance(ty, IndexType | IntegerType)


def _rank(ty: Attribute) -> int:
    return len(ty.get_shape()) if isinstance(ty, TensorType) else 0


def loop_extents(op: Operation) -> list[int | None]:
    """Static trip count of each loop of a structured op, read off its operand shapes."""
    maps = indexing_maps(op)
    extents: list[int | None] = [None] * (maps[0].num_dims if maps else 0)
    for operand, m in zip((*dps_inputs(op), *dps_inits(op)), maps):
        shape = operand.type.get_shape() if isinstance(operand.type, TensorType) else ()
        for expr, size in zip(m.results, shape):
            if isinstance(expr, AffineDimExpr) and size >= 0:
                extents[expr.position] = size
    return extents
