"""`linalg-pad-matmul-weights`: a `linalg.matmul` over a constant [K, N] weight whose N no
panel width divides computes N' columns (zeros appended: N' the next multiple of 64, or of 32
when that adds over 1/16; none when it adds over 1/8), and its readers take the first N
through a slice; so `linalg-pack-matmul-weights`, next in the CPU pipelines, packs it.

Unpacked, IREE's kernel reads the weight row by row, a new 4 KB page per reduction step (its
docstring); a classifier's head (K x 1000, every torchvision model) is never packed, as 1000 has
no panel divisor. One thread, the head alone with its bias (llvm-cpu, HAL profile, 300 calls):
1 x 1280 . 1280 x 1000 unpacked 341-355 us, 1 x 1280 . 1280 x 1024 packed 201-206 us (the
padded product reads 2.4 % more weight). onnxruntime's MLAS packs B too.

The padding is free at run time: the weight is a constant, padded here, as is a bias broadcast
into the matmul's init. The slice moves below elementwise readers (a bias add, padded with
zeros too; `linalg-pad-conv-filters`' `sink_slices`), and where it stops (a return, a softmax's
reduction) it is a copy of at most `max-slice-bytes` (1 MiB: a 1 x 1000 head's 4 KB, a decoder's
64 x 1000 logits' 256 KB): a larger slice copy could cost what packing saves. Llama's LM head
(64 x 256 . 256 x 1000, logits returned) 439-564 -> 275-334 us, plus a 26-35 us slice copy.

Exact: the first N columns are the same products summed in the same order; the padded columns
are computed from zeros and never read. Static f32 shapes, CPU pipelines only (the panels are
IREE llvm-cpu's register tiles). Statistics: `matmul weights padded to whole panels`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.cost_model import tensor_bytes
from fusionopt.dialects.linalg import MatmulOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.matmul_cpu_tiles import plain_matmul_sizes
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.channel_slices import absorbs_slice, sink_slices
from fusionopt.transforms.linalg.linalg_pad_conv_filters import panel_padded_size
from fusionopt.transforms.linalg.padded_values import channel_slice, padded_constant, padded_init

COLUMNS = 1  # [M, N]: the weight's columns are the result's last dim
STATISTIC = "matmul weights padded to whole panels"


@dataclass
class PadMatmulWeights(RewritePattern):
    max_slice_bytes: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        sizes = plain_matmul_sizes(op)
        if sizes is None or not is_dense_constant(du.dps_inputs(op)[1]):
            return
        _, _, columns = sizes
        size = panel_padded_size(columns)
        result = op.results[0]
        if size is None or not (absorbs_slice(result, COLUMNS) or tensor_bytes(result) <= self.max_slice_bytes):
            return
        init = padded_init(du.dps_inits(op)[0], size)
        if init is None:
            return
        init_ops, init_value = init
        lhs, rhs = du.dps_inputs(op)
        weight = padded_constant(rhs, COLUMNS, size)
        matmul = MatmulOp([lhs, weight], [init_value], [init_value.type])
        cut = channel_slice(matmul.results[0], COLUMNS, columns)
        replace_conv(op, [weight.owner, *init_ops, matmul, cut], cut.result, rewriter, STATISTIC)  # type: ignore[list-item]
        if not rhs.uses:
            rewriter.erase(rhs.owner)  # type: ignore[arg-type]
        sink_slices(cut, rewriter)


@dataclass(frozen=True)
class LinalgPadMatmulWeightsPass(ModulePass):
    """Pad constant matmul weights' columns to whole panels, slice the result back (module
    docstring).

    Options:
      max-slice-bytes -- pad a matmul whose sliced result no reader absorbs only up to this many
                         bytes (1048576): the slice is then a copy.
    """

    name = "linalg-pad-matmul-weights"

    max_slice_bytes: int = 1 << 20

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = PadMatmulWeights(self.max_slice_bytes)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
