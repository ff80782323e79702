"""`linalg-fold-transpose-into-matmul`: read a contraction operand through the transpose's map.

torch-mlir lowers every `Linear` as `linalg.transpose` of the weight followed by
`linalg.matmul`, and `MatMul` with a 2-D weight under a batch as a broadcast `linalg.generic`
followed by `linalg.batch_matmul`. Both producers only move data, so the contraction can read
the original tensor directly by composing maps:

    new_operand_map = producer_input_map o inverse(producer_output_map) o operand_map

`linalg.matmul`/`linalg.batch_matmul` keep their name and get explicit `indexing_maps = [...]`
(MLIR syntax accepted by `iree-opt`); a contraction `linalg.generic` just gets the new map. The
transpose is then dead (erased) unless something else still reads it, and no transpose is ever
materialised inside a dispatch region.

A producer folds when it is a `linalg.transpose`, or a `linalg.generic` with one input, one
init, a payload that yields the input unchanged, a projected-permutation input map and a
permutation output map (transposes and broadcasts). No options.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms import dispatch_utils as du
from fusionopt.transforms.linalg_fold_unit_reshapes import unit_reshape_source_exprs


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


def fits_named_op(maps: list[AffineMap]) -> bool:
    """Named contractions take transposed/broadcast operand maps, never constant indices."""
    return all(m.is_projected_permutation() for m in maps)


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


class FoldDataMovementIntoContraction(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not du.is_contraction(op) or "indexing_maps" not in op.properties:
            return
        maps = du.indexing_maps(op)
        inputs = list(du.dps_inputs(op))
        traced = [trace_operand(v, maps[i]) for i, v in enumerate(inputs)]
        if all(source is value for (source, _), value in zip(traced, inputs)):
            return
        new_inputs = [source for source, _ in traced]
        new_maps = [m for _, m in traced] + maps[len(inputs):]
        producers = [v.owner for v in inputs]
        if op.name == "linalg.generic" or fits_named_op(new_maps):
            for index, value in enumerate(new_inputs):
                op.operands[index] = value
            op.properties["indexing_maps"] = ArrayAttr([AffineMapAttr(m) for m in new_maps])
            rewriter.handle_operation_modification(op)
        else:
            rewriter.replace(op, as_generic_contraction(op, new_inputs, new_maps))
        erase_dead_chain(producers, rewriter)


def erase_dead_chain(producers: list, rewriter: PatternRewriter) -> None:
    """Erase the now unused transposes/reshapes, walking back along each operand chain."""
    worklist = [p for p in producers if isinstance(p, Operation)]
    while worklist:
        producer = worklist.pop()
        if producer.parent is None or any(r.uses for r in producer.results):
            continue
        if not (is_pure_data_movement(producer) or du.is_reshape(producer)):
            continue
        operands = [o.owner for o in producer.operands]
        rewriter.erase(producer)
        worklist.extend(o for o in operands if isinstance(o, Operation))


@dataclass(frozen=True)
class LinalgFoldTransposeIntoMatmulPass(ModulePass):
    """Fold transposes/broadcasts of contraction operands into the contraction's indexing maps.

    No options.
    """

    name = "linalg-fold-transpose-into-matmul"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FoldDataMovementIntoContraction(), apply_recursively=False).rewrite_module(op)
