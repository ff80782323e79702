"""Masks that IREE's attention kernel computes as the decomposed softmax does, for
`linalg-raise-attention`: IREE multiplies the mask by log2(e), so a finite value near -FLT_MAX
overflows to -inf and a row masked entirely by -FLT_MAX becomes NaN; finite mask values are
clamped to +-FLT_MAX/4 (the pass module's docstring states when that is exact)."""

from __future__ import annotations


import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FloatAttr,
    DenseIntOrFPElementsAttr,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt.dialects.linalg import GenericOp
from fusionopt.interpreter.values import float_info, storage_dtype
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.attention_pieces import payload_ops, float_constant, owner_op




def _mask_limit(et) -> float:
    return float(float_info(storage_dtype(et)).max) / 4  # by type, not width: bf16's is f32's range


def _in_range(c: float, limit: float) -> bool:
    return bool(np.isinf(c) or np.isnan(c) or -limit <= c <= limit)


def _clamped(c: float, limit: float) -> float:
    return c if _in_range(c, limit) else float(np.clip(c, -limit, limit))


def _insert_after_definition(value: SSAValue, ops: list[Operation], rewriter: Rewriter) -> None:
    owner = owner_op(value)
    if owner is not None:
        rewriter.insert_op(ops, InsertPoint.after(owner))
    else:
        rewriter.insert_op(ops, InsertPoint.at_start(value.owner))  # type: ignore[arg-type]


def _yielded_constants(op: Operation) -> list[Operation] | None:
    """The arith.constant ops a single-result parallel generic can yield (directly or through
    selects), when those are the only values it yields; None otherwise."""
    if op.name != "linalg.generic" or len(op.results) != 1 or not du.is_all_parallel(op):
        return None
    leaves: list[Operation] = []
    todo = [payload_ops(op)[-1].operands[0]]
    while todo:
        v = todo.pop()
        d = owner_op(v)
        if d is not None and d.name == "arith.constant" and float_constant(v) is not None:
            leaves.append(d)
        elif d is not None and d.name == "arith.select" and d.parent is op.regions[0].block:
            todo += [d.operands[1], d.operands[2]]
        else:
            return None
    return leaves


def safe_mask(mask: SSAValue, rewriter: Rewriter, memo: dict[SSAValue, SSAValue]) -> SSAValue:
    """`mask` with finite values clamped to [-max/4, max/4] of its float type, so that IREE's
    `mask * log2 e` cannot overflow (-inf, +inf and NaN kept). Constants are folded; a generic
    that yields only constants (bert's `select(keep, 0, -FLT_MAX)`) is cloned with clamped
    constants; anything else goes through a clamping generic. One result per mask value."""
    if mask in memo:
        return memo[mask]
    mtype = mask.type
    assert isinstance(mtype, TensorType)
    et = mtype.get_element_type()
    limit = _mask_limit(et)
    owner = owner_op(mask)
    result: SSAValue | None = None
    if owner is not None and owner.name == "arith.constant":
        attr = owner.properties.get("value") or owner.attributes.get("value")
        if isinstance(attr, DenseIntOrFPElementsAttr):
            values = [float(x) for x in attr.get_values()]
            if all(_in_range(c, limit) for c in values):
                result = mask
            else:
                clamped = [_clamped(c, limit) for c in values]
                new = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(mtype, clamped))
                _insert_after_definition(mask, [new], rewriter)
                result = new.result
    elif owner is not None and (leaves := _yielded_constants(owner)) is not None:
        if all(_in_range(float_constant(c.result), limit) for c in leaves):  # type: ignore[arg-type]
            result = mask
        else:
            clone = owner.clone()
            body_map = dict(zip(owner.regions[0].block.walk(), clone.regions[0].block.walk(), strict=True))
            for leaf in leaves:
                original = float_constant(leaf.result)
                if _in_range(original, limit):  # type: ignore[arg-type]
                    continue
                fixed = arith.ConstantOp(FloatAttr(_clamped(original, limit), et))  # type: ignore[arg-type]
                target = body_map.get(leaf)
                if target is not None:  # defined in the body: replace there
                    rewriter.insert_op(fixed, InsertPoint.before(target))
                    target.results[0].replace_all_uses_with(fixed.result)
                    rewriter.erase_op(target)
                else:  # captured from above: re-point the clone's uses
                    clone_block = clone.regions[0].block
                    rewriter.insert_op(fixed, InsertPoint.at_start(clone_block))
                    leaf.result.replace_uses_with_if(
                        fixed.result, lambda use: du.is_inside(use.operation, clone)
                    )
            _insert_after_definition(mask, [clone], rewriter)
            result = clone.results[0]
    if result is None:
        rank = len(mtype.get_shape())
        empty = tensor.EmptyOp([], mtype)
        body = Block(arg_types=[et, et])
        m = body.args[0]
        lo = arith.ConstantOp(FloatAttr(-limit, et))
        hi = arith.ConstantOp(FloatAttr(limit, et))
        ninf = arith.ConstantOp(FloatAttr(float("-inf"), et))
        pinf = arith.ConstantOp(FloatAttr(float("inf"), et))
        below = arith.CmpfOp(m, lo.result, "olt")
        not_ninf = arith.CmpfOp(m, ninf.result, "one")
        low = arith.AndIOp(below.result, not_ninf.result)
        above = arith.CmpfOp(m, hi.result, "ogt")
        not_pinf = arith.CmpfOp(m, pinf.result, "one")
        high = arith.AndIOp(above.result, not_pinf.result)
        sel_hi = arith.SelectOp(high.result, hi.result, m)
        sel_lo = arith.SelectOp(low.result, lo.result, sel_hi.result)
        body.add_ops([lo, hi, ninf, pinf, below, not_ninf, low, above, not_pinf, high, sel_hi, sel_lo, YieldOp(sel_lo.result)])
        identity = AffineMapAttr(AffineMap.identity(rank))
        clamp = GenericOp([mask], [empty.tensor], Region(body), [identity, identity], [IteratorTypeAttr.parallel()] * rank, [mtype])
        _insert_after_definition(mask, [empty, clamp], rewriter)
        result = clamp.results[0]
    memo[mask] = result
    return result
