"""torch's NaN guard on softmax probabilities, moved after a raised attention, for
`linalg-raise-attention`.

torch's masked softmax writes p = select(isnan(p), 0, p): a row whose probabilities are NaN (its
scores hold NaN, +inf, or only -inf) becomes zeros, so the decomposed program's output row is
out[n] = sum_k 0 * V[k, n]: 0, or NaN where a column of V holds an inf or a NaN. The attention op
computes such a row as NaN (and only such rows, or columns of V that are not finite, give NaN).
So the raised form is

    z[batch, n] = sum over keys of 0 * V            (0, or NaN for a column that is not finite)
    out = isnan(att) ? z[batch, n] : att

which equals the decomposed program on every input: a NaN from a non-finite V column with
finite probabilities is NaN in both (z is NaN there too). z's body computes each term as V - V,
the same value as 0 * V (+0 or -0 for a finite V, NaN for an inf or a NaN; a sum from +0 is +0
either way): IREE 3.13's sm_80 codegen fails to distribute a reduction whose body multiplies its
input by a constant and accumulates ("'func.func' op failed to distribute", every f32 and f16
transformers decoder's guard), and builds the subtraction.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, FloatAttr, IntegerAttr, TensorType, i1
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.linalg.attention_casts import uncast

NAN_TESTS = ("une", "uno")  # x une x, x uno x: x is NaN
NOT_NAN_TESTS = ("oeq", "ord")  # x oeq x, x ord x: x is not NaN


def _bool_constant(value: SSAValue) -> bool | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) and op.value.type == i1:
        return bool(op.value.value.data)
    return None


def _compares_with_itself(cond: SSAValue, x: SSAValue, predicates: tuple[str, ...]) -> bool:
    test = cond.owner  # one value against itself: x, or x through float casts (each keeps NaN-ness)
    return (isinstance(test, arith.CmpfOp) and test.lhs is test.rhs and uncast(test.lhs) is x
            and arith.CMPF_COMPARISON_OPERATIONS[test.predicate.value.data] in predicates)


def is_nan_test(cond: SSAValue, x: SSAValue) -> bool:
    """`cond` is isnan(x): `x une x` / `x uno x` (torch-mlir), or `not (x oeq x)` written as
    select(x oeq x, false, true) (our ONNX importer's IsNaN)."""
    if _compares_with_itself(cond, x, NAN_TESTS):
        return True
    negation = cond.owner
    return (isinstance(negation, arith.SelectOp) and _compares_with_itself(negation.cond, x, NOT_NAN_TESTS)
            and _bool_constant(negation.lhs) is False and _bool_constant(negation.rhs) is True)


def _loops(m: AffineMap) -> list[int]:
    return [e.position for e in m.results]  # type: ignore[attr-defined]


def zero_times_value(value: SSAValue, value_map: AffineMap, keys_loop: int, rewriter: Rewriter,
                     at: InsertPoint) -> tuple[SSAValue, list[int]]:
    """(sum over the keys of 0 * V, each term computed as V - V; the attention loop of each of
    its dims): V's dims less the keys'."""
    vtype = value.type
    assert isinstance(vtype, TensorType)
    et, dims = vtype.get_element_type(), list(vtype.get_shape())
    loops = _loops(value_map)
    kept = [d for d, loop in enumerate(loops) if loop != keys_loop]
    out_type = TensorType(et, [dims[d] for d in kept])
    body = Block(arg_types=[et, et])
    term = arith.SubfOp(body.args[0], body.args[0])
    total = arith.AddfOp(body.args[1], term.result)
    body.add_ops([term, total, YieldOp(total.result)])
    init_zero = arith.ConstantOp(FloatAttr(0.0, et))
    empty = tensor.EmptyOp([], out_type)
    fill = FillOp([init_zero.result], [empty.tensor], [out_type])
    rank = len(dims)
    maps = [AffineMap.identity(rank), AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept))]
    kinds = [IteratorTypeAttr.reduction() if loops[d] == keys_loop else IteratorTypeAttr.parallel() for d in range(rank)]
    reduce = GenericOp([value], [fill.results[0]], Region(body), [AffineMapAttr(m) for m in maps], kinds, [out_type])
    rewriter.insert_op([init_zero, empty, fill, reduce], at)
    return reduce.results[0], [loops[d] for d in kept]


def guarded(att: SSAValue, out_map: AffineMap, zeros: SSAValue, zeros_loops: list[int], rewriter: Rewriter,
            at: InsertPoint) -> SSAValue:
    """isnan(att) ? zeros[batch, n] : att, over the attention's output as laid out."""
    atype = att.type
    assert isinstance(atype, TensorType)
    et, rank = atype.get_element_type(), len(atype.get_shape())
    out_loops = _loops(out_map)
    body = Block(arg_types=[et, et, et])
    is_nan = arith.CmpfOp(body.args[0], body.args[0], "une")
    select = arith.SelectOp(is_nan.result, body.args[1], body.args[0])
    body.add_ops([is_nan, select, YieldOp(select.result)])
    empty = tensor.EmptyOp([], atype)
    identity = AffineMap.identity(rank)
    zeros_map = AffineMap(rank, 0, tuple(AffineDimExpr(out_loops.index(loop)) for loop in zeros_loops))
    guard = GenericOp([att, zeros], [empty.tensor], Region(body), [AffineMapAttr(m) for m in (identity, zeros_map, identity)],
                      [IteratorTypeAttr.parallel()] * rank, [atype])
    rewriter.insert_op([empty, guard], at)
    return guard.results[0]
