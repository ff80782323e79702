"""`dispatch-unit-dim-reads`: a generic in a dispatch region that reads an operand's unit dims
through constant-0 map results (`(d0, d1, d2) -> (d0, d1, 0, d2)`) reads a reshape without them.

`linalg-fold-unit-reshapes` reads through a `collapse_shape` that drops unit dims by putting a
constant 0 at each (a 1-D conv computed as a 2-D one leaves its 1 x W rows so; a [C, 1] scale
likewise). IREE 3.13's llvm-cpu backend does not vectorise such a read: the generic runs one
scalar at a time, GELU's erf included (Whisper's 512 x 3000 conv epilogue 13 ms, 2.5 ms reading
the rank-reduced value; wav2vec2's GroupNorm over 512 x 3199 19 ms), and a conv's region with
such an epilogue fails to build ("failed to run translation"). Measured on one Zen 4 core
(bench/RESULTS.md, "Unit dims read through constant 0s").

The operand becomes, where that is free, the same elements without those dims:
- a dense constant (a [C, 1] scale, in the region or outside): the constant reshaped;
- another value defined outside the region, or a `tensor.collapse_shape` in the region of one
  (EnCodec's residual add + ELU reading a packed matmul's [1, 1, W, 2, 64] result as
  [1, 1, W, 128]: 6.3 ms a call, 0.7 ms as a plain read): a `flow.tensor.reshape` before the
  region (a view);
- a `tensor.expand_shape` in the region that only adds unit dims: its source, read as
  `linalg-fold-unit-reshapes` reads one.
Elsewhere (a value computed in the region: a conv's [1, 1, W, F] result its epilogue reads
through `(d0, 0, d2, d3)`) each constant 0 becomes a loop of extent 1 the read does not use,
where there are enough, but never all of an operand's dims. Where there are too few (the
generic broadcasts a linalg op's result along a loop of extent > 1: an MoE layer's RMSNorm output
[1, T, H] repeated for each of a token's k experts, read at (0, d0, d2) over T x k x H) and it
writes in loop order, the generic reads a `tensor.collapse_shape` of the value in the region:
IREE 3.13 builds that, and fails on the constant-0 read ("failed to run translation";
`bench/iree_limits_reshaped.py`, `epilogue_kept_dim_broadcast` and
`epilogue_collapsed_broadcast`). A one-element operand from outside
a region that computes a convolution or pooling (a dynamic quantization's scale, a reduction
kept as [1, 1, 1, 1]) read at (0, ..., 0) becomes a rank-0 read: IREE 3.13's llvm-cpu backend
cannot distribute a region whose windowed root (a conv as a generic, channels first) has an
epilogue reading such an operand through constant 0s ("write affecting operations on global
resources are restricted to workgroup distributed contexts"; `bench/iree_limits_found.py`,
`unit_reads_in_conv_epilogue`), and reads it at rank 0. Only static operands, only constant 0s
at size-1 dims. The generic computes the same value.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt import pass_statistics
from fusionopt.dialects.flow import TensorReshapeOp
from fusionopt.transforms.common import consumer_walks as cw
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.linalg_fold_unit_reshapes import reassociation_dropping, unit_reshape_source_exprs
from fusionopt.transforms.linalg.padded_values import constant_from


def unit_zero_positions(value_map: AffineMap, shape: tuple[int, ...]) -> list[int]:
    """Results of `value_map` that are constant 0 at a size-1 dim of `shape` (every result of a
    one-element operand read at (0, ..., 0))."""
    return [i for i, e in enumerate(value_map.results)
            if isinstance(e, AffineConstantExpr) and e.value == 0 and shape[i] == 1]


def without_dims(value: SSAValue, drop: list[int]) -> TensorType:
    """`value`'s tensor type without its dims `drop`."""
    shape = [d for i, d in enumerate(value.type.get_shape()) if i not in drop]  # type: ignore[attr-defined]
    return TensorType(value.type.get_element_type(), shape)  # type: ignore[attr-defined]


def reshaped_outside(source: SSAValue, result_type: TensorType, region: Operation) -> SSAValue | None:
    """`source`, defined outside `region`, as `result_type` (the same elements in the same
    order): a `flow.tensor.reshape` before the region; None inside a region of a region."""
    if du.enclosing_dispatch_region(region) is not None:
        return None
    reshape = TensorReshapeOp(source, result_type)
    Rewriter.insert_op(reshape, InsertPoint.before(region))
    return reshape.result


def reshaped_constant(value: SSAValue, drop: list[int]) -> SSAValue:
    """A dense constant `value` without its dims `drop`: a new constant beside it."""
    shape = without_dims(value, drop).get_shape()
    reshaped = constant_from(value, lambda array: array.reshape(shape))
    Rewriter.insert_op(reshaped.owner, InsertPoint.before(value.owner))  # type: ignore[arg-type]
    return reshaped


def rank_reduced_read(value: SSAValue, value_map: AffineMap, drop: list[int], region: Operation
                      ) -> tuple[SSAValue, AffineMap] | None:
    """The operand and map that read `value`'s elements without its constant-0 unit dims `drop`,
    where that is free (module docstring), else None."""
    owner = value.owner
    kept = AffineMap(value_map.num_dims, 0, tuple(e for i, e in enumerate(value_map.results) if i not in drop))
    if is_dense_constant(value):
        return reshaped_constant(value, drop), kept
    if not du.defined_inside(value, region):
        reduced = reshaped_outside(value, without_dims(value, drop), region)
        return None if reduced is None else (reduced, kept)
    if owner.name == "tensor.collapse_shape" and not du.defined_inside(owner.operands[0], region):
        reduced = reshaped_outside(owner.operands[0], without_dims(value, drop), region)
        return None if reduced is None else (reduced, kept)
    if owner.name != "tensor.expand_shape" or len(drop) == len(value_map.results):
        return None
    exprs = unit_reshape_source_exprs(owner, list(value_map.results))
    return None if exprs is None else (owner.operands[0], AffineMap(value_map.num_dims, 0, tuple(exprs)))


def unit_loop_read(value_map: AffineMap, drop: list[int], extents: list[int]) -> AffineMap | None:
    """`value_map` with its constant 0s at `drop` (size-1 dims) replaced by loops of extent 1 it
    does not use (the same element, read through a projected permutation), None if too few."""
    used = {e.position for e in value_map.results if isinstance(e, AffineDimExpr)}
    spare = [d for d, extent in enumerate(extents) if extent == 1 and d not in used]
    if len(spare) < len(drop):
        return None
    results = list(value_map.results)
    for position, loop in zip(drop, spare):
        results[position] = AffineDimExpr(loop)
    return AffineMap(value_map.num_dims, 0, tuple(results))


def computed_in(value: SSAValue, region: Operation) -> bool:
    """`value` is the result of a linalg op inside `region`."""
    owner = value.owner
    return isinstance(owner, Operation) and du.is_linalg(owner) and du.defined_inside(value, region)


def collapsed_in_region(generic: Operation, value: SSAValue, value_map: AffineMap, drop: list[int],
                        region: Operation) -> tuple[SSAValue, AffineMap] | None:
    """`value`, computed in the region by a linalg op, read through a `tensor.collapse_shape`
    without its unit dims `drop`, inserted before `generic`; None unless `generic` broadcasts it
    and writes in loop order (a consumer behind a reshape that writes transposed does not build:
    `iree_rules.reshape_then_reorders`)."""
    writes = du.indexing_maps(generic)[len(du.dps_inputs(generic)):]
    if not computed_in(value, region) or not all(du.is_identity_map(m) for m in writes):
        return None  # a view (a slice of an outside value) is read as it was: it builds
    if not cw.skips_a_loop(value_map, du.loop_extents(generic)):
        return None  # a read of every loop is left as it was (the lit case `left_as_they_are`)
    rank = len(value_map.results)
    kept = [d for d in range(rank) if d not in drop]
    collapse = tensor.CollapseShapeOp(operands=[value], result_types=[without_dims(value, drop)],
                                      properties={"reassociation": reassociation_dropping(rank, kept)})
    Rewriter.insert_op(collapse, InsertPoint.before(generic))
    return collapse.result, AffineMap(value_map.num_dims, 0, tuple(value_map.results[d] for d in kept))


def drop_unit_reads(generic: Operation, region: Operation, region_values_only: bool = False) -> int:
    """Rewrite `generic`'s constant-0 unit reads (with `region_values_only`, only those of values
    a linalg op of the region computes); the number of operands rewritten."""
    maps = du.indexing_maps(generic)
    changed = 0
    for index, value in enumerate(du.dps_inputs(generic)):
        if region_values_only and not computed_in(value, region):
            continue
        drop = unit_zero_positions(maps[index], tuple(value.type.get_shape())) if du.is_static_tensor(value) else []  # type: ignore[attr-defined]
        every_dim = len(drop) == len(maps[index].results)
        if not drop or (every_dim and not has_windowed_root(region)):
            continue  # a rank-0 read only where IREE needs one (module docstring)
        read = rank_reduced_read(value, maps[index], drop, region)
        if read is None and not every_dim:  # never all dims by loops
            by_loops = unit_loop_read(maps[index], drop, du.loop_extents(generic))
            read = (value, by_loops) if by_loops is not None else collapsed_in_region(generic, value, maps[index],
                                                                                     drop, region)
        if read is None:
            continue
        generic.operands[index], maps[index] = read
        if isinstance(value.owner, (ConstantOp, tensor.CollapseShapeOp)) and not value.uses:
            Rewriter.erase_op(value.owner)
        changed += 1
    if changed:
        du.set_indexing_maps(generic, maps)
    return changed


def has_windowed_root(region: Operation) -> bool:
    """The region computes a convolution or pooling: a named one, or a generic with reduction
    loops reading an input through a sliding window (a map that is not a projected permutation,
    `(d0 + d3)`)."""
    for op in region.regions[0].block.ops:
        if du.is_convolution(op):
            return True
        if op.name == "linalg.generic" and "reduction" in du.iterator_kinds(op):
            maps = du.indexing_maps(op)[:len(du.dps_inputs(op))]
            if any(not m.is_projected_permutation(allow_zero_in_results=True) for m in maps):
                return True
    return False


@dataclass(frozen=True)
class DispatchUnitDimReadsPass(ModulePass):
    """Generics in dispatch regions read unit dims' constant-0 operands through a reshape without
    them (module docstring).

    Options:
      windowed-regions-only -- every read only in regions that compute a convolution or pooling
        (the CUDA pipeline: IREE's sm_80 codegen fails on such a region with a constant-0 read,
        "failed to apply fusion + hoisting patterns", Mamba's causal depthwise conv); elsewhere
        only reads of values the region computes (sm_80 cannot distribute a layer norm's
        region whose second result reads the norm's [100, 1, 256] output at (d1, 0, d2):
        Mask2Former's queries; "write affecting operations on global resources ..."). Reads of
        constants and of values from outside are left as they were on CUDA, unmeasured on a GPU.
    """

    name = "dispatch-unit-dim-reads"

    windowed_regions_only: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if o.name == "linalg.generic"]:
            region = du.enclosing_dispatch_region(generic)
            if region is None:
                continue
            region_values_only = self.windowed_regions_only and not has_windowed_root(region)
            if rewritten := drop_unit_reads(generic, region, region_values_only):
                pass_statistics.count("unit dims read through constant 0s dropped", rewritten)
