"""`linalg-generalize-grouped-convs`: grouped convolutions as `linalg.generic`s, IREE's own form.

IREE generalizes a `linalg.conv_2d_ngchw_gfchw` / `conv_2d_ngchw_fgchw` before it forms its
dispatches, and builds the generic with its bias + ReLU epilogue as one dispatch. Handed the
named op in a pre-formed `flow.dispatch.region` with an epilogue, IREE 3.13's CPU codegen keeps a
whole tile of the conv on the stack and fails at real sizes (ResNeXt's grouped 3x3 at 56x56:
"exceeded stack allocation limit of 32768 bytes ... Got 50176"; small images build, so the
tests at 8x8-16x16 never saw it). The generic with the same maps and payload builds at every
size tried (56x56, 64 and 128 groups of 4).

The generic reads exactly what the named op reads (the op's own indexing maps, strides and
dilations included, and its payload): exact. Depthwise and ungrouped convs stay named ops:
our other stages (channels last, im2col, 1x1 as matmul) rewrite those, and IREE builds them.
Why our own code: xDSL's `linalg-generalize` does not know our conv ops' maps.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp

GROUPED_CONVS = frozenset({"linalg.conv_2d_ngchw_gfchw", "linalg.conv_2d_ngchw_fgchw"})


class GeneralizeGroupedConv(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in GROUPED_CONVS or not op.results:
            return
        maps = [AffineMapAttr(m.data) for m in op.get_indexing_maps()]  # type: ignore[attr-defined]
        generic = GenericOp(
            list(op.inputs),  # type: ignore[attr-defined]
            list(op.outputs),  # type: ignore[attr-defined]
            rewriter.move_region_contents_to_new_regions(op.regions[0]),
            maps,
            list(op.get_iterator_types()),  # type: ignore[attr-defined]
            [r.type for r in op.results],
        )
        rewriter.replace(op, [generic], list(generic.results))
        pass_statistics.count("grouped convs generalized")


class LinalgGeneralizeGroupedConvsPass(ModulePass):
    """Rewrite grouped conv named ops as generics with the same maps and payload (module
    docstring). No options."""

    name = "linalg-generalize-grouped-convs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GeneralizeGroupedConv(), apply_recursively=False).rewrite_module(op)
