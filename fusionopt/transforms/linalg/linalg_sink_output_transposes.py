"""`linalg-sink-output-transposes`: an elementwise `linalg.generic` that writes its result
permuted (its output map a permutation of its loops other than the identity) and is read only as
an input of other `linalg.generic`s writes the result in its loop order instead; each reader
reads it through its own map with the permutation composed in.

Where it comes from: a channels-last region's activation that an NCHW-only reader needs. In
EfficientNet's squeeze-excitation blocks each depthwise conv's SiLU wrote its result NCHW for
the block's spatial mean and scale, and the scale wrote it channels last again for the
projection conv: 12 transposing dispatches, 1.8 ms of EfficientNet-B1's 23 (bench/RESULTS.md).
After the rewrite the scale reads the SiLU's result through the identity (no transpose left) and
the mean reads it channels last: EfficientNet-B1 0.958x of its time at one thread (min 0.898x; 15
interleaved rounds, A/A 1.02x), 0.917x at two, outputs bit-identical. Of the nine models of the
protocol only vit_s16_6l's module changes (0.996x / 0.940x of its time, bit-identical).

    %y = linalg.generic {maps: ..., (n, h, w, c) -> (n, c, h, w)} ins(...) outs(%e : NxCxHxW)
    %r = linalg.generic {maps: (n, c, h, w) -> (n, c, h, w), ...} ins(%y, ...)
->
    %y = linalg.generic {maps: ..., (n, h, w, c) -> (n, h, w, c)} ins(...) outs(%e2 : NxHxWxC)
    %r = linalg.generic {maps: (n, c, h, w) -> (n, h, w, c), ...} ins(%y, ...)

Exact: the same values, stored in another order. The generic's init must be a `tensor.empty`
its body does not read; static shapes. Statistics: `output transposes moved into readers`.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.channels_last_propagation import erase_with_dead_inits

STATISTIC = "output transposes moved into readers"


def output_permutation(op: Operation) -> list[int] | None:
    """p, the output map's results d_p[0], d_p[1], ..., of a single-result all-parallel generic
    writing a static permuted layout into an empty it does not read; None otherwise."""
    if op.name != "linalg.generic" or len(op.results) != 1 or not du.is_all_parallel(op):
        return None
    init = du.dps_inits(op)[0]
    if not isinstance(init.owner, tensor.EmptyOp) or op.regions[0].block.args[-1].uses or not du.is_static_tensor(init):
        return None
    out_map = du.indexing_maps(op)[-1]
    if out_map.num_symbols or not du.is_permutation_map(out_map) or du.is_identity_map(out_map):
        return None
    return [e.position for e in out_map.results]  # type: ignore[attr-defined]


def read_only_by_generics(op: Operation) -> bool:
    """Every use of `op`'s result is as an input (not the init) of a `linalg.generic`."""
    uses = list(op.results[0].uses)
    return bool(uses) and all(u.operation.name == "linalg.generic" and u.index < len(du.dps_inputs(u.operation))
                              for u in uses)


def absorbed_map(reader_map: AffineMap, order: list[int]) -> AffineMap:
    """The reader's map of the permuted result, as a map of the result in loop order: entry j of
    the new layout is entry k of the old one where order[k] == j."""
    position = {loop: k for k, loop in enumerate(order)}
    results = tuple(reader_map.results[position[j]] for j in range(len(order)))
    return AffineMap(reader_map.num_dims, reader_map.num_symbols, results)


def set_map(reader: Operation, index: int, new_map: AffineMap) -> None:
    maps = du.indexing_maps(reader)
    maps[index] = new_map
    du.set_indexing_maps(reader, maps)


class SinkOutputTranspose(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        order = output_permutation(op)
        if order is None or not read_only_by_generics(op):
            return
        extents = du.loop_extents(op)
        result_type = TensorType(op.results[0].type.get_element_type(), extents)  # type: ignore[attr-defined]
        empty = tensor.EmptyOp([], result_type)
        maps = du.indexing_maps(op)
        generic = GenericOp(list(du.dps_inputs(op)), [empty.tensor], rewriter.move_region_contents_to_new_regions(op.regions[0]),
                            [AffineMapAttr(m) for m in (*maps[:-1], AffineMap.identity(len(order)))],
                            op.properties["iterator_types"].data, [result_type])  # type: ignore[union-attr]
        for use in list(op.results[0].uses):
            set_map(use.operation, use.index, absorbed_map(du.indexing_maps(use.operation)[use.index], order))
        rewriter.insert_op([empty, generic], InsertPoint.before(op))
        erase_with_dead_inits(op, rewriter, [generic.results[0]])
        pass_statistics.count(STATISTIC)


class LinalgSinkOutputTransposesPass(ModulePass):
    """Elementwise generics that write their result permuted, read only by generics, write it in
    loop order; the readers' maps take the permutation (module docstring)."""

    name = "linalg-sink-output-transposes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass_statistics.count(STATISTIC, 0)
        PatternRewriteWalker(SinkOutputTranspose(), apply_recursively=False).rewrite_module(op)
