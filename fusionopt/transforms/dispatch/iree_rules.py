"""Region-formation rules learned from IREE's DispatchCreation tests (and, last, one learned from
a model IREE 3.13 failed to build), one predicate each.

Each predicate states where our grouping follows IREE's on purpose, with IREE's reason (what
its CPU codegen or its cost model needs); `bench/region_parity.py` measures how often our
regions match IREE's test expectations, and bench/RESULTS.md ("Region formation vs IREE's
tests") lists the cases where we differ on purpose, with the measurement behind each.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr

from fusionopt.cost_model import num_elements
from fusionopt.transforms.common import consumer_walks as cw
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import moves_non_unit_dims

# Payload ops a dequantization may use: widening casts, then a scale and a zero point.
_DEQUANT_PAYLOAD = frozenset(
    {
        "arith.extf", "arith.extsi", "arith.extui", "arith.sitofp", "arith.uitofp",
        "arith.subf", "arith.mulf", "arith.addf", "arith.subi", "arith.muli", "arith.addi",
        "linalg.yield",
    }
)


def _element_bits(value) -> int | None:
    ty = value.type
    element = ty.element_type if isinstance(ty, TensorType) else ty
    return getattr(element, "bitwidth", None)


def is_dequantization_like(op: Operation) -> bool:
    """An all-parallel generic that widens a narrow input (i4/i8/f16 -> i32/f32), optionally
    with scales and zero points: IREE's isDequantizationLikeOp / bit-extend ops.

    IREE never gives such an op a dispatch of its own, nor fuses it as a consumer: it is
    cloned into each consumer's dispatch, so the wide tensor is never written to memory (4x
    the bytes of an i8 weight); its clone_producers and form_dispatch_regions tests
    (clone_dequantization, no_dequantization_fusion, softmax_like_fusion's extf) expect that."""
    if op.name != "linalg.generic" or len(op.results) != 1 or not du.is_all_parallel(op):
        return False
    if not du.is_identity_map(du.result_map(op, 0)):
        return False
    if any(inner.name not in _DEQUANT_PAYLOAD for inner in op.regions[0].block.ops):
        return False
    out_bits = _element_bits(op.results[0])
    inputs = du.dps_inputs(op)
    if out_bits is None or not inputs:
        return False
    narrow = [v for v in inputs if (b := _element_bits(v)) is not None and b < out_bits]
    return bool(narrow) and all(
        (m := du.operand_map(op, v)) is not None and m.is_projected_permutation(allow_zero_in_results=True)
        for v in inputs
    )


def clones_into_consumers(op: Operation) -> bool:
    """A dequantization whose every user is a linalg op (so lands in a dispatch): cloned there.
    One whose value leaves the function (or feeds a non-linalg op) gets a dispatch of its own,
    as in IREE's no_fuse_consumer_dequantize_op."""
    if not is_dequantization_like(op):
        return False
    users = [use.operation for result in op.results for use in result.uses]
    return bool(users) and all(du.is_linalg(user) or user.name == "flow.dispatch.region" or _in_region(user) for user in users)


def _in_region(op: Operation) -> bool:
    return du.enclosing_dispatch_region(op) is not None


def takes_input_producers(consumer: Operation) -> bool:
    """Under aggressive fusion IREE fuses producers of a consumer's *inputs* only when the
    consumer is a `linalg.generic`: a named contraction (matmul, batch_matmul, conv) keeps its
    operands' producers in their own dispatch (IREE's keep_separate_dispatches_for_producer),
    since a matmul tile reads each input element many times and would recompute the producer
    for each of them. Init producers are fused either way."""
    return consumer.name == "linalg.generic"


# How many times larger than each of its inputs an elementwise producer's result must be for a
# reduction to take it into its region by default (`expands_into_reduction`).
PAIRWISE_EXPANSION = 64


def expands_into_reduction(producer: Operation, consumer: Operation) -> bool:
    """`producer` is elementwise and broadcasts small inputs to a result at least
    PAIRWISE_EXPANSION times larger than each (TopK's comparisons of N scores with each other,
    N x N; not a gather, whose table is no input), and `consumer` is a `linalg.generic` with
    reduction loops that is not a contraction (the count over the pairs; a contraction reads each
    input element many times and would recompute the producer for each). IREE's own
    ElementwiseOpFusion inlines such a producer into its consumer generic before regions are
    formed, so the pairs are never stored; our stages keep generics apart until here, so the
    reduction takes it without `aggressive` (RT-DETR's 8400 anchors: a 282 MB tensor written and
    read back)."""
    if consumer.name != "linalg.generic" or not du.has_reduction_loops(consumer) or du.is_contraction(consumer):
        return False
    if not du.is_elementwise_linalg(producer) or not producer.results or not du.is_static_tensor(producer.results[0]):
        return False
    if any(op.name == "tensor.extract" for op in producer.walk()):
        return False  # a gather (an embedding): its table, not its ids, is what it reads
    size = num_elements(producer.results[0].type)
    inputs = [v for v in du.dps_inputs(producer) if isinstance(v.type, TensorType) and du.is_static_tensor(v)]
    return all(num_elements(v.type) * PAIRWISE_EXPANSION <= size for v in inputs)


def init_producer_escapes_only(producer: Operation, consumer: Operation) -> bool:
    """Under aggressive fusion IREE fuses the producer of a root's init even when the value is
    also used elsewhere, returning it from the dispatch as a second result (its
    keep_original_producer_uses test): the producer is computed once, in the dispatch that
    consumes it. We take that only when the other uses are not linalg ops (a function result,
    a flow op), so no other dispatch waits on this one for it."""
    others = [use.operation for r in producer.results for use in r.uses if use.operation is not consumer]
    return all(not du.is_linalg(user) for user in others)


def pack_joins_producer(pack: Operation) -> bool:
    """A `linalg.pack` joins the dispatch of the op producing its source (IREE's pack_fusion /
    pack_elementwise_fusion) unless that op writes its result transposed: IREE's CPU codegen
    cannot tile a transpose followed by a pack as one (its transpose_pack_fusion)."""
    producer = pack.operands[0].owner
    if not isinstance(producer, Operation) or not du.is_linalg(producer) or producer.name.startswith("linalg.pack"):
        return True
    result_map = du.result_map(producer, list(producer.results).index(pack.operands[0]))
    return result_map is not None and du.is_identity_map(result_map)


def takes_consumers(root: Operation) -> bool:
    """A data-tiled `linalg.mmt4d` / `batch_mmt4d` root runs as a microkernel writing its own
    tile layout: IREE fuses no elementwise consumer into it (its no_batch_mmt4d_fusion test).
    Nor into a LinalgExt root other than attention (sort, scatter, topk, fft, ...): IREE fuses
    consumers only into ops with its fusion interface, and its tests keep these alone."""
    if root.name in du.EXT_ROOT_NAMES:
        return root.name in ("iree_linalg_ext.attention", "iree_linalg_ext.online_attention")
    return root.name not in ("linalg.mmt4d", "linalg.batch_mmt4d")


def is_dynamic_slice(op: Operation) -> bool:
    """A `tensor.extract_slice` with dynamic offsets, sizes or strides: IREE reads it inside
    each consumer's dispatch (a load at those offsets; its inline_dag tests) instead of
    copying it out first; it cannot become a `flow.tensor.slice` we can prove contiguous."""
    return op.name == "tensor.extract_slice" and du.static_slice_params(op) is None


def region_forming_blocks(body_blocks: list[Block]) -> list[Block]:
    """The function's blocks plus the blocks of `scf` ops in them (recursively): IREE forms
    dispatches inside `scf.if` / `scf.for` bodies as well (its scf_nested_dispatch test), so a
    generic under control flow is not left without a dispatch."""
    found: list[Block] = []
    stack = list(reversed(body_blocks))
    while stack:
        block = stack.pop()
        found.append(block)
        for op in block.ops:
            if op.name.startswith("scf."):
                for region in op.regions:
                    stack.extend(reversed(list(region.blocks)))
    return found


def ext_root_takes_producer(consumer: Operation, producer: Operation, aggressive: bool) -> bool:
    """A producer joins a LinalgExt root only through an operand its tiling maps onto the root's
    loops: `scatter`'s updates, under aggressive fusion (IREE's interchange_producer,
    place_truncf_in_consumer_dispatch). The original is read at data-dependent positions, so its
    producer keeps a dispatch of its own (no_interchange_producer_crash). The indices are too,
    but IREE clones their producer into the scatter's dispatch when that is its only use
    (scatter_no_index_producer_fusion, "indices operand should be cloned"): same dispatch, so
    it joins. Sort, topk, fft, ... have no fusion interface in IREE: nothing joins them."""
    if consumer.name != "iree_linalg_ext.scatter":
        return False
    updates, indices, original = consumer.operands
    if original.owner is producer:
        return False
    return (aggressive and updates.owner is producer) or (indices.owner is producer and updates.owner is not producer)


_TRUNCATIONS = frozenset({"arith.truncf", "arith.trunci"})


def is_bit_truncate(op: Operation) -> bool:
    """IREE's isBitTruncateOp: an all-parallel generic that only narrows its one input.

    IREE fuses such a producer into a root only after the roots took their consumers
    (fuseWithTruncate=false, then true): the truncation of a reduction's result stays in the
    reduction's dispatch, which then writes the narrow type (place_truncf_in_producer_dispatch);
    only a truncation no producer took joins its consumer (place_truncf_in_consumer_dispatch)."""
    if op.name != "linalg.generic" or len(du.dps_inputs(op)) != 1 or not du.is_all_parallel(op):
        return False
    body = [inner.name for inner in op.regions[0].block.ops]
    if len(body) != 2 or body[0] not in _TRUNCATIONS or body[1] != "linalg.yield":
        return False
    in_bits, out_bits = _element_bits(du.dps_inputs(op)[0]), _element_bits(op.results[0])
    return in_bits is not None and out_bits is not None and out_bits < in_bits


def encoding_joins_producer(set_encoding: Operation) -> bool:
    """`iree_encoding.set_encoding` joins the dispatch of the op producing its source when that
    is a linalg op writing its result in loop order, or a pad (IREE's isPackLikeOp rule:
    set_encoding_fusion, set_encoding_pad_fusion, pad_and_set_encoding_op): the encoded layout
    is written once by the kernel that computes the values; a transposed write cannot be
    tiled together with the relayout by IREE's CPU codegen (as for packs)."""
    producer = set_encoding.operands[0].owner
    if not isinstance(producer, Operation):
        return False
    if producer.name == "tensor.pad":
        return not du.has_low_padding(producer)
    if not du.is_linalg(producer):
        return False
    result_map = du.result_map(producer, list(producer.results).index(set_encoding.operands[0]))
    return result_map is not None and du.is_identity_map(result_map)


def pad_starts_encoding_group(op: Operation) -> bool:
    """A pad whose only user is a set_encoding forms a dispatch with it (IREE's
    set_encoding_pad_fusion): IREE makes left-over pads roots of their own dispatch; we keep
    other pads at top level (see `fusion_groups.is_consumer_kind`)."""
    users = [use.operation for use in op.results[0].uses] if op.name == "tensor.pad" else []
    return (
        len(users) == 1 and users[0].name == "iree_encoding.set_encoding" and not du.has_low_padding(op)
    )


def is_full_reduction(root: Operation) -> bool:
    """`root` reduces over every loop to one element (a tensor's range). IREE 3.13's sm_80
    codegen cannot distribute such a root with any consumer in its region, even an epilogue of
    one element ("failed to distribute": a dynamically quantized BERT's DynamicQuantizeLinear;
    the reduction alone builds). On llvm-cpu it builds (`form-dispatch-regions
    {full-reduction-consumers}`)."""
    return (du.has_reduction_loops(root) and len(root.results) >= 1 and du.is_static_tensor(root.results[0])
            and num_elements(root.results[0].type) == 1)


def broadcasts_through_constant(consumer: Operation, value: SSAValue) -> bool:
    """`consumer` reads a root's result at a constant index (a kept unit dim: `(d0, d1) -> (d0,
    0)`) and walks a loop of extent > 1 that the read does not index (the row's broadcast).
    IREE 3.13 then tiles the root but not the consumer, and the region fails to build ("failed
    to run translation", in CombineResultLayoutTransformation): FocalNet's modulation, GELU of
    a [1, C, 1] context mean times each pixel, `-fewest` (bench/iree_limits_found.py,
    `reduction_kept_dim_broadcast`). Read without the unit dim, IREE builds it; here it starts
    a dispatch of its own. A result of one element is left alone: IREE does not tile such a
    root, and builds the region (ConvNeXt V2's GRN, the mean over the channels of the pixels'
    norms, read at (n, 0, 0) by every pixel)."""
    if du.is_static_tensor(value) and num_elements(value.type) == 1:
        return False
    extents = du.loop_extents(consumer)
    return any(any(isinstance(e, AffineConstantExpr) for e in operand_map.results)
               and cw.skips_a_loop(operand_map, extents) for operand_map in du.operand_maps(consumer, value))


def reshape_then_reorders(consumer: Operation, value: SSAValue, group_ops: set[Operation], root: Operation) -> bool:
    """`value` is computed in the group from a reshape of the root's values (the only reshapes
    a root's group keeps add or drop unit dims: `reshape_stops_tiling`), and `consumer` does not
    walk it one to one: its read of `value` or one of its writes is not the identity (a
    transposing write, a loop of extent 1 that the read skips). IREE 3.13 tiles such a consumer
    apart from the root ("write affecting operations on global resources are restricted to
    workgroup distributed contexts"): RT-DETR's deformable attention, a sum over 12 samples
    expanded by a unit dim and written transposed. The same consumer on the root's value itself,
    or an identity one behind the reshape, builds."""
    reads, writes = du.operand_maps(consumer, value), du.indexing_maps(consumer)[len(du.dps_inputs(consumer)):]
    if reads and all(du.is_identity_map(m) for m in (*reads, *writes)):
        return False
    return _reached_through_reshape(value, group_ops, root)


def reads_reshape_at_constant(consumer: Operation, value: SSAValue, group_ops: set[Operation], root: Operation) -> bool:
    """`consumer` reads `value`, computed in an elementwise group behind a collapse that merges
    non-unit dims, at a constant index (a unit dim folded away: `(d0, d1) -> (0, d0, d1)`). IREE 3.13 cannot tile such a
    consumer with the ops before the reshape: Mask2Former's attention masks, sigmoids of the mask
    logits resized to 12 x 12 by a gather, merged to [1, 100, 144] and compared with 0.5 over
    [100, 144], overflow llvm-cpu's stack ("Got 57600 bytes") or, with the comparison's i64
    extension in the region, fail ("write affecting operations on global resources are
    restricted to workgroup distributed contexts"; `bench/iree_limits_reshaped.py`,
    `reshape_then_unit_dim_dropped`). The same consumer reading the merged value with its unit
    dim builds (`reshape_then_unit_dim_kept`)."""
    return reads_at_constant(consumer, value) and _reached_through_reshape(value, group_ops, root, is_merging_collapse)


def is_merging_collapse(op: Operation) -> bool:
    """A `tensor.collapse_shape` that merges non-unit dims."""
    return op.name == "tensor.collapse_shape" and moves_non_unit_dims(op)


def reads_at_constant(consumer: Operation, value: SSAValue) -> bool:
    """Some indexing map of `consumer` reads `value` at a constant index."""
    return any(isinstance(e, AffineConstantExpr) for m in du.operand_maps(consumer, value) for e in m.results)


def reshape_read_at_constant(reshape: Operation, consumer: Operation) -> bool:
    """`reshape` is a collapse that merges non-unit dims and `consumer` reads its result at a
    constant index: the producer side of `reads_reshape_at_constant` (the collapse and what it
    reads stay out of the consumer's elementwise group). A split read so builds (ViT-MAE's heads,
    [1, 50, 768] split to [1, 50, 12, 64] and read at a constant batch index)."""
    return is_merging_collapse(reshape) and reads_at_constant(consumer, reshape.results[0])


def _reached_through_reshape(value: SSAValue, group_ops: set[Operation], root: Operation,
                             is_reshape: Callable[[Operation], bool] = du.is_reshape) -> bool:
    """Some group op between the root and `value` (the root's own producers not counted) is a
    reshape (`is_reshape`)."""
    stack, seen = [value.owner], set()
    while stack:
        op = stack.pop()
        if not isinstance(op, Operation) or op in seen or op not in group_ops or op is root:
            continue
        seen.add(op)
        if is_reshape(op):
            return True
        stack.extend(v.owner for v in du.values_used_inside(op))
    return False


def reshape_stops_tiling(root: Operation, elementwise_only: bool, reshape: Operation) -> bool:
    """IREE 3.13 cannot tile the consumers behind `reshape` along a group's `root`, so the reshape
    starts another dispatch. A root's value split or merged (a matmul's rows split before its
    bias, Swin's window scores split into windows x heads before the position bias: "write
    affecting operations on global resources are restricted to workgroup distributed contexts";
    linalg-sink-reshapes moves the reshapes it can below such consumers first, the rest stay
    between dispatches, as in IREE's own formation). Behind attention even a unit-dim expand:
    the epilogue is vectorised whole ("large vector sizes": LeViT's Hardswish on 196 x 4 x 32
    per head)."""
    if root.name == "iree_linalg_ext.attention":
        return True
    return not elementwise_only and moves_non_unit_dims(reshape)


def reads_stored_i1(consumer: Operation, value: SSAValue, group_ops: set[Operation]) -> bool:
    """`value`, an i1 tensor computed in the group, is used outside it (the region stores it)
    and `consumer` reads it. IREE 3.13's llvm-cpu codegen fails on such a region at every size
    ("write affecting operations on global resources are restricted to workgroup distributed
    contexts" on the i1 `vector.store`): Mask2Former's attention masks, a comparison stored for
    the decoder and widened to i64 in the same region (`bench/iree_limits_reshaped.py`,
    `i1_stored_and_widened`; `i1_widened_only` builds)."""
    if not isinstance(value.type, TensorType) or value.type.get_element_type() != i1:
        return False
    return any(use.operation is not consumer and use.operation not in group_ops for use in value.uses)
