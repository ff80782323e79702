"""`linalg-fold-constant-gather-indices`: a gather index that a constant makes a loop index becomes one.

torch-mlir lowers an embedding lookup with constant ids (BERT's and MiniLM's position ids,
`arange(64)`) as a `linalg.generic` reading the id constant through an indexing map and, in its
payload, wrapping negative ids, asserting the bounds (`cf.assert`) and loading the row with
`tensor.extract`. Every call then redoes that arithmetic and those checks per element, and the
load is a scalar gather. The values are known when compiling: the index is `linalg.index d`
(plus a constant offset), the asserts always hold. Written so, IREE emits a contiguous load and no
checks: bert_mini's embedding dispatch went from 9.1 to 6.6 us (bench/RESULTS.md, "Transformers
on CPU: the 0.95x target").

The payload's integer arithmetic on the constant is evaluated with the interpreter's arith
semantics (`fusionopt.interpreter.arith_math.evaluate`), so folding and execution agree:
- an input whose operand is an integer `arith.constant` (or a static slice of one) read along exactly one loop `d` has the
  values `C[map(j)]` for `j` in `d`'s range; `linalg.index d` has `j`;
- a pure arith op of such values (one loop at most) and scalar constants is evaluated;
- a `tensor.extract` index whose values are `j + c` for every `j` is replaced by
  `linalg.index d` (`+ c`); a `cf.assert` whose condition holds for every `j` is erased;
- the arithmetic left without users is erased. The generic keeps its operands (an unused input
  costs nothing; the region formation drops what nothing reads).
Exact: each replaced value equals the old one at every iteration point. No options.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.interpreter.arith_math import evaluate
from fusionopt.interpreter.values import attribute_value
from fusionopt.transforms.common import dispatch_utils as du

# A value known at compile time: (loop, values over that loop's range) or (None, scalar).
Known = tuple[int | None, Any]


def _is_integer_like(ty) -> bool:
    return isinstance(ty, (IntegerType, IndexType))


def _constant_value(value: SSAValue) -> Any | None:
    """The integer constant `value` is (a static slice of one too), else None."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "tensor.extract_slice":
        params = du.static_slice_params(owner)
        source = _constant_value(owner.operands[0])
        if params is None or source is None:
            return None
        offsets, sizes, strides = params
        window = tuple(slice(o, o + n * s, s) for o, n, s in zip(offsets, sizes, strides))
        return np.asarray(source)[window].reshape(value.type.get_shape())
    if not isinstance(owner, arith.ConstantOp) or not _is_integer_like(getattr(value.type, "element_type", value.type)):
        return None
    if not isinstance(owner.value, (DenseIntOrFPElementsAttr, IntegerAttr)):
        return None
    return attribute_value(owner.value, value.type)


def constant_inputs(op: Operation) -> dict[SSAValue, Known]:
    """Block arguments of `op` fed by an integer constant read along one loop: their values."""
    extents = du.loop_extents(op)
    known: dict[SSAValue, Known] = {}
    block = op.regions[0].block
    for arg, operand, m in zip(block.args, du.dps_inputs(op), du.indexing_maps(op)):
        array = _constant_value(operand)
        used = m.used_dims()
        if array is None or np.ndim(array) != len(m.results) or len(used) != 1:
            continue
        (d,) = used
        if extents[d] is None:
            continue
        point = [0] * m.num_dims
        values = []
        for j in range(extents[d]):
            point[d] = j
            values.append(array[tuple(m.eval(point, []))])
        known[arg] = (d, np.asarray(values, dtype=np.asarray(array).dtype))
    return known


def _known_operand(value: SSAValue, known: dict[SSAValue, Known]) -> Known | None:
    if value in known:
        return known[value]
    scalar = _constant_value(value)
    return None if scalar is None or np.ndim(scalar) else (None, scalar)


def evaluate_payload(op: Operation, known: dict[SSAValue, Known]) -> dict[SSAValue, Known]:
    """`known` extended by every payload value computable from it (one loop at most)."""
    extents = du.loop_extents(op)
    for inner in op.regions[0].block.ops:
        if isinstance(inner, IndexOp) and extents[inner.dim.value.data] is not None:
            d = inner.dim.value.data
            known[inner.results[0]] = (d, np.arange(extents[d], dtype=np.int64))
            continue
        if not inner.name.startswith("arith.") or len(inner.results) != 1:
            continue
        args = [_known_operand(v, known) for v in inner.operands]
        loops = {d for a in args if a is not None for d in [a[0]] if d is not None}
        if any(a is None for a in args) or len(loops) > 1:
            continue
        result = evaluate(inner, tuple(a[1] for a in args))
        if result is not None:
            known[inner.results[0]] = (next(iter(loops), None), result[0])
    return known


def loop_offset(entry: Known, extent: int | None) -> int | None:
    """c when the known values are `j + c` for every j of their loop, else None."""
    d, values = entry
    if d is None or extent is None or np.ndim(values) != 1 or len(values) != extent:
        return None
    offsets = np.asarray(values, dtype=np.int64) - np.arange(extent, dtype=np.int64)
    return int(offsets[0]) if np.all(offsets == offsets[0]) else None


def _always_true(entry: Known | None) -> bool:
    return entry is not None and bool(np.all(np.asarray(entry[1]).astype(bool)))


class FoldConstantGatherIndices(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.generic":
            return
        known = constant_inputs(op)
        if not known:
            return
        known = evaluate_payload(op, known)
        block = op.regions[0].block
        folded = self._fold_extract_indices(block, known, du.loop_extents(op), rewriter)
        dropped = self._erase_true_asserts(block, known, rewriter)
        if folded or dropped:
            _erase_dead_arith(block, known, rewriter)
            if folded:
                pass_statistics.count("gather indices made loop indices", folded)
            if dropped:
                pass_statistics.count("bounds asserts dropped", dropped)

    @staticmethod
    def _fold_extract_indices(block: Block, known, extents, rewriter: PatternRewriter) -> int:
        folded = 0
        for extract in [o for o in block.ops if o.name == "tensor.extract"]:
            for position, index in enumerate(extract.operands[1:], start=1):
                if isinstance(index.owner, IndexOp) or index not in known:
                    continue
                d = known[index][0]
                offset = None if d is None else loop_offset(known[index], extents[d])
                if offset is None:
                    continue
                new_ops: list[Operation] = [IndexOp(d)]
                if offset:
                    new_ops += [c := arith.ConstantOp(IntegerAttr(offset, IndexType())), arith.AddiOp(new_ops[0], c)]
                rewriter.insert(new_ops, InsertPoint.before(extract))
                extract.operands[position] = new_ops[-1].results[0]
                rewriter.handle_operation_modification(extract)
                folded += 1
        return folded

    @staticmethod
    def _erase_true_asserts(block: Block, known, rewriter: PatternRewriter) -> int:
        asserts = [o for o in block.ops if o.name == "cf.assert" and _always_true(known.get(o.operands[0]))]
        for assertion in asserts:
            rewriter.erase(assertion)
        return len(asserts)


def _erase_dead_arith(block: Block, known: dict[SSAValue, Known], rewriter: PatternRewriter) -> None:
    """Erase the evaluated ops nothing reads any more (last first, so chains go whole)."""
    for inner in reversed(list(block.ops)):
        evaluated = inner.results and all(r in known for r in inner.results)
        if evaluated and (inner.name.startswith("arith.") or isinstance(inner, IndexOp)) and not any(r.uses for r in inner.results):
            rewriter.erase(inner)


@dataclass(frozen=True)
class LinalgFoldConstantGatherIndicesPass(ModulePass):
    """Gather indices that constant inputs make equal to a loop index become `linalg.index`
    (+ offset); bounds asserts they always satisfy are dropped. No options."""

    name = "linalg-fold-constant-gather-indices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FoldConstantGatherIndices(), apply_recursively=False).rewrite_module(op)
