"""`dispatch-matmul-to-mmt4d`: a formed matmul dispatch over a weight argument becomes IREE's
packed matmul (`linalg.batch_mmt4d`, the kernel of IREE's data tiling, run by its mmt4d ukernel),
with the weight packed inside the same dispatch.

IREE 3.13's llvm-cpu backend does not data-tile by default: a `linalg.batch_matmul` in a region gets
the generic vectorised kernel (tiles [8, 16], reduction 16). For minilm_l6's FFN1 shape (64x384 .
384x1536) the mmt4d ukernel over packed operands runs that matmul ~15% faster even with its weight
packed on every call (the benchmark models take weights as arguments), and minilm_l6 as a whole ~7%
faster (`bench/cpu_kernel_forms.py --sets matmul-forms` at dfad5b9, bench/RESULTS.md "Matmul forms
on CPU"). Rewrite, in the region of such a matmul:

    %px = flow.dispatch.region { linalg.pack %x  [1, M, K] -> [1, M/16, K, 16, 1] }  (before it)
    %w3 = tensor.expand_shape %w [[0, 1], [2]]         : K x N -> 1 x K x N
    %pw = linalg.pack %w3 outer_dims_perm = [0, 2, 1] inner_dims_pos = [2, 1] inner_tiles = [16, 1]
    %c  = linalg.batch_mmt4d {compilation_info} ins(%px, %pw) outs(fill [1, M/16, N/16, 16, 16])
    %r  = linalg.unpack %c inner_dims_pos = [1, 2] inner_tiles = [16, 16] into %init   (1 x M x N)

The epilogue keeps reading %r as it read the matmul (same 1 x M x N value). The activation's pack
is a dispatch of its own: inside the region IREE would repeat it for every workgroup. The weight's
pack stays inside, so each workgroup packs the 16 columns it multiplies (a separate pack dispatch
measured 1.2x slower: the packed weight's round trip through memory costs what the kernel saves).
IREE's own tile choice for that region would keep a [6, K, 16, 1] weight tile on the stack, over
its 32 KiB limit, so the mmt4d carries an IREE `compilation_info` (one 16-column N tile per
workgroup, all of M), kept as opaque text that fusion-opt and iree-opt both read back.

Applied to `linalg.batch_matmul` reading [1, M, K] x [K, N] (the broadcast weight map
`linalg-fold-transpose-into-matmul` writes; a [1, K, N] weight needs no expand_shape) into a zero-or-any `linalg.fill` of the region, f32,
static, M and N multiples of 16, a [K, 16] weight tile within the stack limit (K < 512), N at least
`min-n` (1024: the narrower matmuls of the corpus measured slower packed: bench/RESULTS.md), and
the activation defined outside the region. Opt-in (bench variant `ours-mmt4d`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DenseArrayBase, Float32Type, ModuleOp, TensorType, UnregisteredAttr, i64
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.flow import DispatchRegionOp, ReturnOp
from fusionopt.dialects.linalg_mmt4d import BatchMmt4DOp
from fusionopt.dialects.linalg_pack import PackOp, UnPackOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import expand

TILE = 16  # M0 = N0 = 16, K0 = 1: IREE's data-tiling tiles for f32 on AVX-512
STACK_BYTES = 32768  # IREE llvm-cpu's per-workgroup stack allocation limit

BROADCAST_WEIGHT_MAPS = (
    AffineMap.from_callable(lambda b, m, n, k: (b, m, k)),
    AffineMap.from_callable(lambda b, m, n, k: (k, n)),
    AffineMap.from_callable(lambda b, m, n, k: (b, m, n)),
)
BATCH_MATMUL_MAPS = (
    AffineMap.from_callable(lambda b, m, n, k: (b, m, k)),
    AffineMap.from_callable(lambda b, m, n, k: (b, k, n)),
    AffineMap.from_callable(lambda b, m, n, k: (b, m, n)),
)


# IREE's attribute, which we carry without modelling it (the parser's unregistered-attribute class).
COMPILATION_INFO = UnregisteredAttr.with_name_and_type("iree_codegen.compilation_info", False)


def cpu_compilation_info(tiles: dict[str, list[int]], pipeline: str, options: str = "") -> UnregisteredAttr:
    """IREE's `#iree_codegen.compilation_info` for llvm-cpu: a lowering config with these tile
    lists (distribution, vector_common_parallel, ...) and the named CPU pipeline, with the
    pipeline's configuration dictionary `options` (e.g. `enable_loop_peeling = true`) if given."""
    lowering = ", ".join(f"{level} = {sizes}" for level, sizes in tiles.items())
    extra = f", {{{options}}}" if options else ""
    text = (f"lowering_config = #iree_cpu.lowering_config<{lowering}>, translation_info = "
            f"#iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<{pipeline}>{extra}>")
    return COMPILATION_INFO("iree_codegen.compilation_info", False, False, text)


def set_cpu_config(op: Operation, rewriter: PatternRewriter, tiles: dict[str, list[int]], pipeline: str,
                   statistic: str) -> None:
    """Give `op` the llvm-cpu `compilation_info` of these tiles and pipeline, tell `rewriter`,
    and count `statistic` (the CPU tile passes' one rewrite)."""
    op.attributes["compilation_info"] = cpu_compilation_info(tiles, pipeline)
    rewriter.handle_operation_modification(op)
    pass_statistics.count(statistic)


def compilation_info() -> UnregisteredAttr:
    """IREE's CPU lowering for the batch_mmt4d: one M x 16 output tile per workgroup."""
    return cpu_compilation_info({"distribution": [1, 0, 1, 0, 0, 0, 0],
                                 "vector_common_parallel": [1, 1, 1, 0, TILE, TILE, 0],
                                 "vector_reduction": [0, 0, 0, 1, 0, 0, 1]}, "Mmt4dTilingExpert")


def static_f32_shape(value: SSAValue) -> tuple[int, ...] | None:
    ty = value.type
    if isinstance(ty, TensorType) and isinstance(ty.element_type, Float32Type) and du.is_static_tensor(value):
        return tuple(ty.get_shape())
    return None


def matmul_sizes(op: Operation) -> tuple[int, int, int] | None:
    """(M, K, N) of a batch-1 matmul over a broadcast [K, N] weight (torch-mlir's form) or a
    [1, K, N] one (the graph lowering's), else None."""
    if op.name != "linalg.batch_matmul" or tuple(du.indexing_maps(op)) not in (BROADCAST_WEIGHT_MAPS, BATCH_MATMUL_MAPS):
        return None
    shapes = [static_f32_shape(v) for v in (*du.dps_inputs(op), *du.dps_inits(op))]
    if None in shapes or len(shapes) != 3 or shapes[0][0] != 1 or shapes[1][:-2] not in ((), (1,)):
        return None
    (_, m, k), n = shapes[0], shapes[1][-1]
    return m, k, n


def f32_tensor(*dims: int) -> TensorType:
    return TensorType(Float32Type(), dims)


def pack(source: SSAValue, packed: TensorType, inner_pos: list[int], tiles: list[int],
         outer_perm: list[int] | None = None) -> tuple[tensor.EmptyOp, PackOp]:
    empty = tensor.EmptyOp([], packed)
    props = {"inner_dims_pos": DenseArrayBase.from_list(i64, inner_pos),
             "static_inner_tiles": DenseArrayBase.from_list(i64, tiles)}
    if outer_perm is not None:
        props["outer_dims_perm"] = DenseArrayBase.from_list(i64, outer_perm)
    op = PackOp.build(operands=[source, empty.tensor, [], []], properties=props, result_types=[packed])
    return empty, op


@dataclass
class MatmulToMmt4D(RewritePattern):
    min_n: int

    def eligible(self, op: Operation) -> tuple[int, int, int] | None:
        sizes = matmul_sizes(op)
        region = op.parent_op()
        if sizes is None or not isinstance(region, DispatchRegionOp):
            return None
        m, k, n = sizes
        init = du.dps_inits(op)[0].owner
        if m % TILE or n % TILE or n < self.min_n or TILE * k * 4 >= STACK_BYTES:
            return None
        if not isinstance(init, FillOp) or init.parent_op() is not region:
            return None
        if du.dps_inputs(op)[0].owner.parent_op() is region:  # activation computed in the region
            return None
        return sizes

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        sizes = self.eligible(op)
        if sizes is None:
            return
        m, k, n = sizes
        x, w = du.dps_inputs(op)
        init = du.dps_inits(op)[0]
        region = op.parent_op()
        empty_x, pack_x = pack(x, f32_tensor(1, m // TILE, k, TILE, 1), [1, 2], [TILE, 1])
        x_region = DispatchRegionOp([pack_x.result.type], Region(Block([empty_x, pack_x, ReturnOp([pack_x.result])])))
        rewriter.insert(x_region, InsertPoint.before(region))
        w3 = [expand(w, [[0, 1], [2]], f32_tensor(1, k, n))] if len(static_f32_shape(w)) == 2 else []
        empty_w, pack_w = pack(w3[0].results[0] if w3 else w, f32_tensor(1, n // TILE, k, TILE, 1), [2, 1], [TILE, 1], [0, 2, 1])
        acc_type = f32_tensor(1, m // TILE, n // TILE, TILE, TILE)
        empty_c = tensor.EmptyOp([], acc_type)
        fill = FillOp([init.owner.inputs[0]], [empty_c.tensor], [acc_type])
        mmt4d = BatchMmt4DOp([x_region.result[0], pack_w.result], [fill.res[0]],
                             attributes={"compilation_info": compilation_info()})
        unpack = UnPackOp.build(
            operands=[mmt4d.res[0], init, []],
            properties={"inner_dims_pos": DenseArrayBase.from_list(i64, [1, 2]),
                        "static_inner_tiles": DenseArrayBase.from_list(i64, [TILE, TILE])},
            result_types=[op.results[0].type])
        rewriter.replace(op, [*w3, empty_w, pack_w, empty_c, fill, mmt4d, unpack], [unpack.result])
        pass_statistics.count("matmuls packed (batch_mmt4d)")


@dataclass(frozen=True)
class DispatchMatmulToMmt4DPass(ModulePass):
    """Formed batch-1 matmul regions over [K, N] weights -> pack + batch_mmt4d + unpack.

    Options:
      min-n -- rewrite only matmuls with at least this many output columns (1024).
    """

    name = "dispatch-matmul-to-mmt4d"
    min_n: int = 1024

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(MatmulToMmt4D(self.min_n), apply_recursively=False).rewrite_module(op)
