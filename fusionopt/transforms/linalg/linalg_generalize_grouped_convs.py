"""`linalg-generalize-grouped-convs`: grouped convolutions as `linalg.generic`s, IREE's own form.

IREE generalizes a `linalg.conv_2d_ngchw_gfchw` / `conv_2d_ngchw_fgchw` before it forms its
dispatches, and builds the generic with its bias + ReLU epilogue as one dispatch. Handed the
named op in a pre-formed `flow.dispatch.region` with an epilogue, IREE 3.13's CPU codegen keeps a
whole tile of the conv on the stack and fails at real sizes (ResNeXt's grouped 3x3 at 56x56:
"exceeded stack allocation limit of 32768 bytes ... Got 50176"; small images build, so the
tests at 8x8-16x16 never saw it). The generic with the same maps and payload builds at every
size tried (56x56, 64 and 128 groups of 4).

The same holds for an NCHW depthwise conv over a batch other than 1 (static or dynamic): the
batch-1 stages (channels last, `linalg-depthwise-conv-drop-batch`) leave it named, and with its
ReLU6 in the region IREE's CPU codegen failed on mobilenet_v2 at batch 2 ("Got 200704 bytes")
and at a dynamic batch ("Got 7340032 bytes"), where IREE's own build generalizes it and builds;
the generic builds at both. The same again for the NCDHW 3-D convs of video models (r3d_18's
3x7x7 stem at 16 x 112 x 112: "Got 802816 bytes"; IREE's own build generalizes them too).
Batch-1 depthwise convs the stages before left named (outputs under 4x4) and ungrouped 2-D convs
stay named ops: IREE builds those.

The generic reads exactly what the named op reads (the op's own indexing maps, strides and
dilations included, and its payload): exact.
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
from fusionopt.transforms.linalg.linalg_depthwise_conv_drop_batch import DEPTHWISE_NAME as DEPTHWISE_NCHW
from fusionopt.transforms.linalg.linalg_depthwise_conv_drop_batch import is_batch1_depthwise
from fusionopt.transforms.lowering.graph_to_linalg_conv import CONV_3D_NAME, DEPTHWISE_3D_NAME

GROUPED_CONVS = frozenset({"linalg.conv_2d_ngchw_gfchw", "linalg.conv_2d_ngchw_fgchw"})
CONVS_3D = frozenset({CONV_3D_NAME, DEPTHWISE_3D_NAME})  # what the 3-D conv lowering writes


def is_batched_depthwise(op: Operation) -> bool:
    """An NCHW depthwise conv whose batch is not a static 1 (what the batch-1 stages leave)."""
    return op.name == DEPTHWISE_NCHW and bool(op.results) and not is_batch1_depthwise(op)


def needs_generic(op: Operation) -> bool:
    return (op.name in GROUPED_CONVS | CONVS_3D and bool(op.results)) or is_batched_depthwise(op)


class GeneralizeGroupedConv(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not needs_generic(op):
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
        kind = ("batched depthwise convs" if op.name == DEPTHWISE_NCHW else "3-D convs" if op.name in CONVS_3D
                else "grouped convs")
        rewriter.replace(op, [generic], list(generic.results))
        pass_statistics.count(f"{kind} generalized")


class LinalgGeneralizeGroupedConvsPass(ModulePass):
    """Rewrite grouped conv named ops, NCHW depthwise convs over a batch other than 1 and NCDHW
    3-D convs as generics with the same maps and payload (module docstring). No options."""

    name = "linalg-generalize-grouped-convs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GeneralizeGroupedConv(), apply_recursively=False).rewrite_module(op)
