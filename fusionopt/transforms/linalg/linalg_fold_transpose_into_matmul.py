"""`linalg-fold-transpose-into-matmul`: read a contraction operand through the transpose's map.

torch-mlir lowers every `Linear` as `linalg.transpose` of the weight followed by
`linalg.matmul`, and `MatMul` with a 2-D weight under a batch as a broadcast `linalg.generic`
followed by `linalg.batch_matmul`. Both producers only move data, so the contraction can read
the original tensor directly by composing maps (with `row-major-activations`, not an
activation a matmul over a constant weight would then read K-major):

    new_operand_map = producer_input_map o inverse(producer_output_map) o operand_map

`linalg.matmul`/`linalg.batch_matmul` keep their name and get explicit `indexing_maps = [...]`
(MLIR syntax accepted by `iree-opt`); a contraction `linalg.generic` just gets the new map. The
transpose is then dead (erased) unless something else still reads it, and no transpose is ever
materialised inside a dispatch region.

Unit dims stay out of the maps: tracing through a unit-dim `collapse_shape` would give a
constant `0` map result (`(d0, d1, d2, d3) -> (0, d1, d0, d3)`), which is not a projected
permutation, so IREE would treat the contraction as a plain reduction (measured 3-6x slower
dispatches, bench/RESULTS.md "IREE runtime"). Such an operand instead reads a fresh
`tensor.collapse_shape` of the traced data that drops those unit dims, with the map minus the
constant results. The reshape sits on the region's input, outside any dispatch region, where
it costs nothing (`flow.tensor.reshape`).

A producer folds when it is a `linalg.transpose`, or a `linalg.generic` with one input, one
init, a payload that yields the input unchanged, a projected-permutation input map and a
permutation output map (transposes and broadcasts). A slice of a transpose is first cut before
the transpose (`slice_before_transpose.py`), so the transpose it leaves folds too.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, ModuleOp, TensorType, i64
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_contraction import valid_batch_broadcast
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.slice_before_transpose import SliceBeforeTranspose
from fusionopt.transforms.common.reshapes import reassociation
from fusionopt.transforms.linalg.linalg_fold_unit_reshapes import reassociation_dropping, unit_reshape_source_exprs


def is_pure_data_movement(op: Operation) -> bool:
    """A transpose/broadcast: every output element is a copy of one input element."""
    if op.name == "linalg.transpose":
        return True
    if op.name != "linalg.generic" or len(du.dps_inputs(op)) != 1 or len(du.dps_inits(op)) != 1:
        return False
    if not du.is_all_parallel(op):
        return False
    block = op.regions[0].block
    body = list(block.ops)
    if len(body) != 1 or body[0].name != "linalg.yield" or body[0].operands[0] is not block.args[0]:
        return False
    in_map, out_map = du.indexing_maps(op)
    return in_map.is_projected_permutation() and du.is_permutation_map(out_map)


def folded_map(producer: Operation, operand_map: AffineMap) -> AffineMap:
    in_map, out_map = du.indexing_maps(producer)
    inverse = out_map.inverse_permutation()
    assert inverse is not None
    return in_map.compose(inverse).compose(operand_map)


def trace_operand(value: SSAValue, operand_map: AffineMap) -> tuple[SSAValue, AffineMap]:
    """Follow transposes, broadcasts and unit-dim reshapes back to the data they move."""
    while isinstance(producer := value.owner, Operation):
        if is_pure_data_movement(producer):
            operand_map = folded_map(producer, operand_map)
            value = du.dps_inputs(producer)[0]
        elif du.is_reshape(producer) and isinstance(producer.operands[0].type, TensorType):
            exprs = unit_reshape_source_exprs(producer, list(operand_map.results))
            if exprs is None:
                break
            operand_map = AffineMap(operand_map.num_dims, 0, tuple(exprs))
            value = producer.operands[0]
        else:
            break
    return value, operand_map


def without_constants(operand_map: AffineMap) -> AffineMap:
    kept = non_constant_results(operand_map)
    return AffineMap(operand_map.num_dims, 0, tuple(operand_map.results[i] for i in kept))


def covers_every_loop(maps: list[AffineMap]) -> bool:
    """Every loop indexes some operand, so its extent comes from a shape (MLIR and xDSL reject
    a structured op whose concatenated maps are not invertible)."""
    read = {e.position for m in maps for e in m.results if isinstance(e, AffineDimExpr)}
    return all(d in read for d in range(maps[0].num_dims)) if maps else True


def non_constant_results(operand_map: AffineMap) -> list[int]:
    return [i for i, e in enumerate(operand_map.results) if not isinstance(e, AffineConstantExpr)]


def is_unit_collapse_of(value: SSAValue, source: SSAValue, reduced_type: TensorType) -> bool:
    """`value` already is `source` with the unit dims dropped (nothing left to rewrite)."""
    collapse = value.owner
    return (
        isinstance(collapse, Operation)
        and collapse.name == "tensor.collapse_shape"
        and collapse.operands[0] is source
        and value.type == reduced_type
    )


def drop_constant_results(
    current: SSAValue, source: SSAValue, operand_map: AffineMap, rewriter: PatternRewriter
) -> tuple[SSAValue, AffineMap]:
    """Read `source` through a unit-dim collapse instead of constant-0 map results.

    The constants only ever index unit dims (they come from unit-dim collapses), so dropping
    those dims loses nothing. `current` is the operand the contraction reads now: if it is that
    very collapse already, it is reused (no new op, so the rewrite reaches a fixed point)."""
    kept = non_constant_results(operand_map)
    if len(kept) == len(operand_map.results):
        return source, operand_map
    shape = source.type.get_shape()
    reduced_type = TensorType(source.type.get_element_type(), [shape[i] for i in kept])
    reduced_map = AffineMap(operand_map.num_dims, 0, tuple(operand_map.results[i] for i in kept))
    if is_unit_collapse_of(current, source, reduced_type):
        return current, reduced_map
    dropped = [i for i in range(len(shape)) if i not in kept]
    return without_unit_dims(source, dropped, rewriter), reduced_map


def without_unit_dims(value: SSAValue, dropped: list[int], rewriter: PatternRewriter) -> SSAValue:
    """`value` minus its unit dims `dropped`. Dropped at the source of a slice (rank-reducing
    slice, then the expand_shape of it) where possible: region formation clones a
    non-contiguous slice and a reshape of it into the consuming region (no copy dispatch),
    which it does not do through a further collapse_shape."""
    if not dropped:
        return value
    shape = value.type.get_shape()
    reduced_type = TensorType(value.type.get_element_type(), [n for i, n in enumerate(shape) if i not in dropped])
    producer = value.owner
    if isinstance(producer, Operation) and producer.name == "tensor.extract_slice":
        new_op = tensor.ExtractSliceOp.create(
            operands=list(producer.operands),
            result_types=[reduced_type],
            properties=dict(producer.properties),
            attributes=dict(producer.attributes),
        )
    elif isinstance(producer, Operation) and producer.name == "tensor.expand_shape":
        new_op = expand_without_unit_dims(producer, dropped, reduced_type, rewriter)
    else:
        kept = [i for i in range(len(shape)) if i not in dropped]
        new_op = tensor.CollapseShapeOp(
            operands=[value],
            result_types=[reduced_type],
            properties={"reassociation": reassociation_dropping(len(shape), kept)},
        )
    rewriter.insert(new_op)
    return new_op.results[0]


def expand_without_unit_dims(
    expand: Operation, dropped: list[int], reduced_type: TensorType, rewriter: PatternRewriter
) -> Operation:
    """The expand_shape producing `expand`'s result minus the unit dims `dropped`; a source dim
    whose result dims are all dropped is a unit dim and is dropped from the source too."""
    groups = reassociation(expand)
    renumber = {d: i for i, d in enumerate(d for d in range(len(dropped) + reduced_type.get_num_dims()) if d not in dropped)}
    new_groups = [[renumber[d] for d in group if d not in dropped] for group in groups]
    source = without_unit_dims(expand.operands[0], [g for g, group in enumerate(new_groups) if not group], rewriter)
    reassoc = ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in group]) for group in new_groups if group])
    return tensor.ExpandShapeOp(source, [], reassoc, reduced_type.get_shape(), reduced_type)


def fits_named_op(name: str, maps: list[AffineMap]) -> bool:
    """Named contractions take transposed/broadcast operand maps, never constant indices; a
    `batch_matmul` operand is rank 3 and indexes its batch dim first, or rank 2 (the batch
    broadcast) in the layouts MLIR's verifier allows (an RHS [k, n] or [b, k], never a
    transposed [n, k]: "Invalid broadcast requested", Mamba's x_proj weight under its batch
    of one), never less (MLIR's verifier: "Invalid batch dimension expression", "expects
    either a batch-broadcast or an identity map"): tracing both operands of a unit-dim
    batch_matmul back to rank-1 data leaves a generic contraction instead, as does any other
    layout."""
    if not all(m.is_projected_permutation() for m in maps):
        return False
    if name == "linalg.batch_matmul":
        inputs = maps[:-1]
        return all(len(m.results) in (2, 3) for m in inputs) and all(
            m.results[0] == AffineDimExpr(0) if len(m.results) == 3 else valid_batch_broadcast(m, index == 0)
            for index, m in enumerate(inputs)
        )
    return True


def as_generic_contraction(op: Operation, inputs: list[SSAValue], maps: list[AffineMap]) -> GenericOp:
    iterators = [IteratorTypeAttr(IteratorType(kind)) for kind in du.iterator_kinds(op)]
    return GenericOp(
        inputs,
        list(du.dps_inits(op)),
        op.regions[0].clone(),
        [AffineMapAttr(m) for m in maps],
        iterators,
        [r.type for r in op.results],
    )


def reads_activation_k_major(op: Operation, traced: list[tuple[SSAValue, AffineMap]]) -> bool:
    """A 2-D `linalg.matmul` over a constant weight whose activation (LHS) the fold would read
    K-major, `(m, n, k) -> (k, m)`. IREE 3.13's CPU matmul takes that operand row by row only as
    it is laid out: read transposed, EnCodec's LSTM input projection ([75, 512] . [512, 2048],
    its activation a conv's channels-first output) ran at 16 G multiply-adds/s, 4.9 ms; as a
    150 KB copy and a row-major matmul with the weight packed, 1.6 ms (its quantizer's eight
    [75, 128] . [128, 1024] distances 441 -> 200 us each; bench/RESULTS.md, "1-D conv nets").
    The weight's own transposes still fold (the packing passes take them)."""
    if op.name != "linalg.matmul" or len(traced) != 2 or not is_dense_constant(traced[1][0]):
        return False
    source, read = traced[0]
    k_major = AffineMap(3, 0, (AffineDimExpr(2), AffineDimExpr(0)))
    return without_constants(read) == k_major and not is_dense_constant(source)


@dataclass
class FoldDataMovementIntoContraction(RewritePattern):
    row_major_activations: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not du.is_contraction(op) or "indexing_maps" not in op.properties:
            return
        if not all(du.is_static_tensor(v) for v in (*op.operands, *op.results)):
            return  # (the reshapes it rebuilds would need the dynamic sizes)
        maps = du.indexing_maps(op)
        inputs = list(du.dps_inputs(op))
        traced = [trace_operand(v, maps[i]) for i, v in enumerate(inputs)]
        if self.row_major_activations and reads_activation_k_major(op, traced):
            traced[0] = (inputs[0], maps[0])  # the transpose stays a copy: a row-major LHS
            pass_statistics.count("activation transposes kept for a row-major matmul")
        if not covers_every_loop([without_constants(m) for _, m in traced] + maps[len(inputs):]):
            return  # a loop read only through dropped unit dims would have no extent
        # Creates ops only when the operand changes, so an unchanged read means nothing to do.
        reads = [drop_constant_results(v, s, m, rewriter) for v, (s, m) in zip(inputs, traced)]
        new_inputs = [value for value, _ in reads]
        new_maps = [m for _, m in reads] + maps[len(inputs):]
        if new_inputs == inputs and new_maps == maps:
            return
        producers = [v.owner for v in inputs]
        if op.name == "linalg.generic" or fits_named_op(op.name, new_maps):
            for index, value in enumerate(new_inputs):
                op.operands[index] = value
            du.set_indexing_maps(op, new_maps)
            rewriter.handle_operation_modification(op)
        else:
            rewriter.replace(op, as_generic_contraction(op, new_inputs, new_maps))
        erase_dead_chain(producers, rewriter)


def erase_dead_chain(producers: list, rewriter: PatternRewriter) -> None:
    """Erase the now unused transposes/reshapes/slices, walking back along each operand chain."""
    worklist = [p for p in producers if isinstance(p, Operation)]
    while worklist:
        producer = worklist.pop()
        if producer.parent is None or any(r.uses for r in producer.results):
            continue
        if not (is_pure_data_movement(producer) or du.is_reshape(producer) or producer.name == "tensor.extract_slice"):
            continue
        operands = [o.owner for o in producer.operands]
        rewriter.erase(producer)
        worklist.extend(o for o in operands if isinstance(o, Operation))


@dataclass(frozen=True)
class LinalgFoldTransposeIntoMatmulPass(ModulePass):
    """Fold transposes/broadcasts of contraction operands into the contraction's indexing maps.

    Options:
      row-major-activations -- a 2-D matmul over a constant weight keeps a transpose of its
                         activation that would fold into a K-major read (`reads_activation_k_major`):
                         the llvm-cpu pipelines (IREE's CPU matmul); default false.
    """

    name = "linalg-fold-transpose-into-matmul"

    row_major_activations: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Slices of transposes first, so the transposes they leave read into the contractions.
        PatternRewriteWalker(SliceBeforeTranspose(), apply_recursively=False).rewrite_module(op)
        fold = FoldDataMovementIntoContraction(self.row_major_activations)
        PatternRewriteWalker(fold, apply_recursively=False).rewrite_module(op)
