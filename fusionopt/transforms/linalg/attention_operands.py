"""Q, K and V of a raised attention read where their values are made, for `linalg-raise-attention`.

torch's scaled_dot_product_attention, as torch-mlir lowers it (minilm_l6), hands the two
contractions copies: the projection's [S, H*D] output expanded to [1, S, H, D], transposed to
[1, H, S, D] (K to [1, H, D, S]), each multiplied by 1/sqrt(sqrt(D)), then collapsed to [H, S, D].
Each copy is a dispatch of its own. The attention op reads any projected permutation of its
operands and multiplies Q.K^T by its scale, so the chain folds away: the operand becomes the
projection's output (unit dims dropped), its map the composed permutation, and constant factors
on Q and K move into the scale. In real numbers the same; in f32, (c1 q).(c2 k) and c1 c2 (q.k)
round differently by an ulp or two, as IREE's own attention does scaling Q first.

Links followed (each must have no other reader, so the copies die): `tensor.collapse_shape` and
`tensor.expand_shape` that only add or drop unit dims, `linalg.transpose`, and one-input
all-parallel `linalg.generic`s with an identity output map whose input map is a projected
permutation (constant 0 for unit dims) and whose body yields the input, or the input times a
constant (Q and K only).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.attention_pieces import float_constant, owner_op, payload_ops, use_count
from fusionopt.transforms.common.reshapes import collapse, reassociation
from fusionopt.transforms.linalg.linalg_fold_unit_reshapes import dropping_groups


@dataclass
class Chain:
    """Where the operand's dims are in `source`: dim j of the operand is dim `dims[j]` of
    `source`; its values are `factor` times the source's."""

    source: SSAValue
    dims: list[int]
    factor: float = 1.0
    copies: int = 0  # transposes / copy generics passed (what folding saves)


def shape(value: SSAValue) -> list[int]:
    vtype = value.type
    assert isinstance(vtype, TensorType)
    return list(vtype.get_shape())


def through_reshape(op: Operation, dims: list[int]) -> list[int] | None:
    """Dims of a unit-only reshape's source for `dims` of its result."""
    groups = reassociation(op)
    collapsing = op.name == "tensor.collapse_shape"
    wide = shape(op.operands[0]) if collapsing else shape(op.results[0])
    if any(sum(wide[d] != 1 for d in g) > 1 for g in groups):
        return None
    if collapsing:  # result dim g <- the group's one non-unit source dim
        picks = [next((d for d in g if wide[d] != 1), None) for g in groups]
        return None if any(picks[j] is None for j in dims) else [picks[j] for j in dims]  # type: ignore[misc]
    owner = {d: g for g, group in enumerate(groups) for d in group}
    return [owner[j] for j in dims]


def _generic_link(op: Operation, dims: list[int], scalable: bool) -> tuple[list[int], float] | None:
    """(source dims, factor) of a copy or constant-scaling generic, else None."""
    if len(du.dps_inputs(op)) != 1 or len(op.results) != 1 or not du.is_all_parallel(op):
        return None
    in_map, out_map = du.indexing_maps(op)
    if not du.is_identity_map(out_map):
        return None
    try:
        read = du.dims_read(in_map)
    except ValueError:
        return None
    if len(set(d for d in read if d is not None)) != len([d for d in read if d is not None]):
        return None
    source_dims = []
    for loop in dims:
        if loop not in read:
            return None
        source_dims.append(read.index(loop))
    body, arg = payload_ops(op), op.regions[0].block.args[0]
    if len(body) == 1 and body[0].operands[0] is arg:
        return source_dims, 1.0
    multiplies = [o for o in body if o.name != "arith.constant"]
    if not scalable or [o.name for o in multiplies] != ["arith.mulf", "linalg.yield"]:
        return None
    mul, yielded = multiplies
    other = [v for v in mul.operands if v is not arg]
    factor = float_constant(other[0]) if len(other) == 1 and arg in mul.operands else None
    if factor is None or yielded.operands[0] is not mul.results[0]:
        return None
    return source_dims, factor


def _step(chain: Chain, scalable: bool) -> Chain | None:
    op = owner_op(chain.source)
    if op is None or use_count(chain.source) > 1:  # (0: a value the raise just built)
        return None
    if op.name in ("tensor.collapse_shape", "tensor.expand_shape"):
        dims = through_reshape(op, chain.dims)
        return None if dims is None else Chain(op.operands[0], dims, chain.factor, chain.copies)
    if op.name == "linalg.transpose":
        perm = op.permutation.get_values()  # type: ignore[attr-defined]
        return Chain(du.dps_inputs(op)[0], [perm[j] for j in chain.dims], chain.factor, chain.copies + 1)
    if op.name == "linalg.generic":
        link = _generic_link(op, chain.dims, scalable)
        if link is not None:
            return Chain(du.dps_inputs(op)[0], link[0], chain.factor * link[1], chain.copies + 1)
    return None


def fold_chain(operand: SSAValue, scalable: bool) -> Chain | None:
    """The furthest source `operand` is a copy of (None when no copy would be saved). The
    source's non-unit dims must be exactly the operand's dims (no slice, no broadcast)."""
    if 1 in shape(operand):
        return None
    chain, best = Chain(operand, list(range(len(shape(operand))))), None
    while (chain := _step(chain, scalable)) is not None:
        non_unit = [d for d, n in enumerate(shape(chain.source)) if n != 1]
        if chain.copies and sorted(chain.dims) == non_unit:
            best = chain
    return best


def read_source(chain: Chain, operand_map: AffineMap, rewriter: Rewriter, at: InsertPoint) -> tuple[SSAValue, AffineMap]:
    """The chain's source with unit dims dropped (a collapse_shape inserted at `at` if any),
    and the attention map that reads it in place of the operand's."""
    dims = shape(chain.source)
    kept = [d for d, n in enumerate(dims) if n != 1]
    value = chain.source
    if len(kept) != len(dims):
        reduced = TensorType(chain.source.type.get_element_type(), [dims[d] for d in kept])  # type: ignore[attr-defined]
        reshape = collapse(value, dropping_groups(len(dims), kept), reduced)
        rewriter.insert_op(reshape, at)
        value = reshape.results[0]
    loop_of_source_dim = {chain.dims[j]: operand_map.results[j] for j in range(len(chain.dims))}
    results = tuple(loop_of_source_dim[d] for d in kept)
    assert all(isinstance(e, AffineDimExpr) for e in results)
    return value, AffineMap(operand_map.num_dims, 0, results)


def erase_dead_chain(value: SSAValue, rewriter: Rewriter) -> None:
    """Erase the producers of `value` that nothing reads any more, walking up their first
    operands (the chain) and dropping their dead `tensor.empty` inits."""
    op = owner_op(value)
    while op is not None and op.parent is not None and all(not r.uses for r in op.results):
        inits = [owner_op(v) for v in du.dps_inits(op)] if op.name.startswith("linalg.") else []
        source = du.dps_inputs(op)[0] if op.name.startswith("linalg.") else op.operands[0]
        rewriter.erase_op(op)
        for init in inits:
            if init is not None and init.name == "tensor.empty" and not init.results[0].uses:
                rewriter.erase_op(init)
        op = owner_op(source)
