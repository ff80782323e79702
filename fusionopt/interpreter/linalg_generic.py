"""Vectorised execution of structured linalg ops (`linalg.generic` and every named op).

The body runs once over the whole iteration space: block arguments are operand views
broadcastable to it (see linalg_maps.py), `linalg.index d` is an index grid on axis d, and
yields are stored back through the output maps. Reductions take one of three routes:

1. contraction (`mulf` then `addf %out, %mul`, projected-permutation maps): `np.matmul`
   over (batch, M, K) x (batch, K, N), or `np.einsum` for other dim groupings; a body of
   several such pairs, one per result (a horizontally fused contraction), runs each pair so;
2. a recognised combiner (`yield combiner(%out, x)` with `x` independent of every `%out`,
   combiner addf/mulf/maximumf/minimumf/maxnumf/minnumf or integer add/mul/max/min/and/or/xor):
   `x` is computed over the whole space and reduced with the matching numpy reduction
   (NaN-propagating for maximumf, NaN-ignoring for maxnumf), then combined with the init;
3. an argmax/argmin "select pair" over one reduction loop (linalg_argmax.py): one numpy
   arg-reduction, with the sequential tie and NaN behaviour;
4. anything else (custom combiners): a loop over the reduction iterations in order, each step
   vectorised over the parallel loops — exactly sequential semantics. Parallel-only ops are
   the zero-reduction-loop case of this route.
Floating-point sums in routes 1 and 2 are reassociated (as any real backend does).
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from fusionopt.interpreter.common import as_type, compute_dtype_args
from fusionopt.interpreter.linalg_argmax import argmax_reduce, match_select_pair
from fusionopt.interpreter.linalg_maps import index_grid, is_dims_and_constants, loop_ranges, operand_view, write_through_map
from fusionopt.interpreter.values import overflow_settled

INDEX_STACK_KEY = "linalg_index_stack"

# combiner op -> numpy ufunc whose `reduce` implements the combiner's reduction.
COMBINERS: dict[type[Operation], np.ufunc] = {
    arith.AddfOp: np.add, arith.MulfOp: np.multiply,
    arith.MaximumfOp: np.maximum, arith.MinimumfOp: np.minimum,
    arith.MaxnumfOp: np.fmax, arith.MinnumfOp: np.fmin,
    arith.AddiOp: np.add, arith.MuliOp: np.multiply,
    arith.MaxSIOp: np.maximum, arith.MinSIOp: np.minimum,
    arith.AndIOp: np.bitwise_and, arith.OrIOp: np.bitwise_or, arith.XOrIOp: np.bitwise_xor,
}


class StructuredOpState(InterpreterFunctions):
    """Implements no op: the key under which the interpreter keeps this module's per-run state
    (`Interpreter.get_data` files data under an `InterpreterFunctions` class). A class of its own
    so this engine needs nothing from `linalg.py`, which imports it."""


def index_stack(interpreter: Interpreter) -> list[Sequence[Any]]:
    """Index values of the structured ops being executed (innermost last), for `linalg.index`."""
    return interpreter.get_data(StructuredOpState, INDEX_STACK_KEY, list)


def eval_body(
    interpreter: Interpreter,
    block: Block,
    args: Sequence[Any],
    index_values: Sequence[Any],
    skip: frozenset[Operation] = frozenset(),
    wanted: Sequence[SSAValue] | None = None,
) -> tuple[Any, ...]:
    """Run a structured op's body once; return its yielded values (or the `wanted` values)."""
    stack = index_stack(interpreter)
    stack.append(index_values)
    interpreter.push_scope("linalg body")
    try:
        interpreter.set_values(zip(block.args, args))
        for op in block.ops:
            if op is block.last_op and op.name.endswith(".yield"):
                return interpreter.get_values(wanted if wanted is not None else op.operands)
            if op in skip:
                continue
            interpreter.set_values(zip(op.results, interpreter.run_op(op, interpreter.get_values(op.operands))))
        return interpreter.get_values(wanted or ())
    finally:
        interpreter.pop_scope()
        stack.pop()


def run_structured(
    interpreter: Interpreter,
    block: Block,
    maps: list[AffineMap],
    reduction_dims: list[int],
    inputs: Sequence[Any],
    outputs: Sequence[np.ndarray],
    result_types: Sequence[Any],
) -> tuple[np.ndarray, ...]:
    """Execute a structured op on numpy operands; returns the new output tensors."""
    shapes = [np.shape(v) for v in (*inputs, *outputs)]
    ranges = loop_ranges(maps, shapes)
    in_maps, out_maps = maps[: len(inputs)], maps[len(inputs) :]
    if reduction_dims:  # route 1 reads an input at constant indices as its slice there
        read = [_constants_read(v, m) for v, m in zip(inputs, in_maps)]
        dim_inputs, dim_maps = [r[0] for r in read], [r[1] for r in read]
        if _is_contraction(block, len(inputs), [*dim_maps, *out_maps]):
            full = _contract(dim_inputs, outputs[0], dim_maps, out_maps[0], ranges)
            return (as_type(write_through_map(outputs[0], out_maps[0], full, ranges), result_types[0]),)
    pairs = _horizontal_contractions(block, len(inputs), maps) if reduction_dims else None
    if pairs is not None:
        return tuple(
            as_type(write_through_map(out, m, _contract([inputs[i] for i in pair], out, [in_maps[i] for i in pair], m, ranges), ranges), t)
            for pair, out, m, t in zip(pairs, outputs, out_maps, result_types)
        )
    views = [operand_view(v, m, ranges) for v, m in zip(inputs, in_maps)]
    combiners = _combiners(block, len(inputs)) if reduction_dims else None
    pair = match_select_pair(block, len(inputs)) if len(reduction_dims) == 1 and combiners is None else None
    if combiners is not None:
        finals = _reduce_with_combiners(interpreter, block, views, outputs, out_maps, ranges, reduction_dims, combiners)
    elif pair is not None:
        finals = _reduce_select_pair(interpreter, block, views, outputs, out_maps, ranges, reduction_dims[0], pair)
    else:
        finals = _loop_over_reductions(interpreter, block, views, outputs, out_maps, ranges, reduction_dims)
    return tuple(
        as_type(write_through_map(out, m, full, ranges), t) for out, m, full, t in zip(outputs, out_maps, finals, result_types)
    )


def _constants_read(value: Any, m: AffineMap) -> tuple[Any, AffineMap]:
    """An input read at constant indices on some dims (a 1x1 filter's (0, 0, c, f)) as the slice
    at those indices with a dims-only map: the same elements, so a contraction over it is still
    summed as a matmul (route 1)."""
    if all(isinstance(e, AffineDimExpr) for e in m.results) or not is_dims_and_constants(m):
        return value, m
    index = tuple(e.value if isinstance(e, AffineConstantExpr) else slice(None) for e in m.results)
    dims = tuple(e for e in m.results if isinstance(e, AffineDimExpr))
    return np.asarray(value)[index], AffineMap(m.num_dims, m.num_symbols, dims)


def _grids(ranges: list[int]) -> list[np.ndarray]:
    return [index_grid(d, ranges) for d in range(len(ranges))]


def _loop_over_reductions(interpreter, block, views, outputs, out_maps, ranges, reduction_dims):
    """Route 4: sequential over reduction iterations, vectorised over parallel loops."""
    par_shape = [1 if d in reduction_dims else n for d, n in enumerate(ranges)]
    n_out_args = len(block.args) - len(views)
    acc = [operand_view(o, m, ranges) for o, m in zip(outputs, out_maps)]
    grids = _grids(ranges)
    for point in itertools.product(*(range(ranges[d]) for d in reduction_dims)):
        at = dict(zip(reduction_dims, point))
        sliced = [_at_reduction_point(v, at) for v in views]
        index_values = [np.int64(at[d]) if d in at else grids[d] for d in range(len(ranges))]
        yielded = eval_body(interpreter, block, [*sliced, *acc[:n_out_args]], index_values)
        acc = [_like(y, o, par_shape) for y, o in zip(yielded, outputs)]
    return acc


def _like(value: Any, out: np.ndarray, shape: list[int]) -> np.ndarray:
    return np.broadcast_to(np.asarray(value).astype(out.dtype, copy=False), shape)


def _at_reduction_point(view: np.ndarray, at: dict[int, int]) -> np.ndarray:
    index = tuple(slice(at[d], at[d] + 1) if d in at and view.shape[d] > 1 else slice(None) for d in range(view.ndim))
    return view[index]


def _combiners(block: Block, n_inputs: int) -> list[tuple[Operation, SSAValue]] | None:
    """Per output: (combiner op, its non-accumulator operand), if route 2 applies."""
    yield_op = block.last_op
    out_args = block.args[n_inputs:]
    if yield_op is None or len(out_args) != len(yield_op.operands):
        return None
    found = []
    for out_arg, yielded in zip(out_args, yield_op.operands):
        op = yielded.owner
        if not isinstance(op, Operation) or type(op) not in COMBINERS or len(op.operands) != 2:
            return None
        if out_arg not in op.operands or [u.operation for u in out_arg.uses] != [op] or len(list(op.results[0].uses)) != 1:
            return None
        other = op.operands[1] if op.operands[0] is out_arg else op.operands[0]
        if other is out_arg:
            return None
        found.append((op, other))
    return found


def _reduce_with_combiners(interpreter, block, views, outputs, out_maps, ranges, reduction_dims, combiners):
    """Route 2: compute every combined value at once, then numpy-reduce the reduction axes."""
    wanted = [other for _, other in combiners]
    skip = frozenset(op for op, _ in combiners)
    n_out_args = len(block.args) - len(views)
    values = eval_body(interpreter, block, [*views, *([None] * n_out_args)], _grids(ranges), skip, wanted)
    finals = []
    out_args = block.args[len(views) :]
    for (op, other), value, out, m, out_arg in zip(combiners, values, outputs, out_maps, out_args):
        ufunc = COMBINERS[type(op)]
        if out.dtype == np.bool_ and ufunc in (np.add, np.multiply):
            ufunc = np.logical_xor if ufunc is np.add else np.logical_and
        (full,) = compute_dtype_args((np.broadcast_to(value, ranges),))
        reduced = ufunc.reduce(full, axis=tuple(reduction_dims), keepdims=True)
        (init,) = compute_dtype_args((operand_view(out, m, ranges),))
        combined = ufunc(init, reduced) if op.operands[0] is out_arg else ufunc(reduced, init)
        finals.append(np.asarray(combined).astype(out.dtype))
    return finals


def _reduce_select_pair(interpreter, block, views, outputs, out_maps, ranges, axis, pair):
    """Route 3: evaluate candidates and positions everywhere, then one arg-reduction."""
    x, pos = eval_body(interpreter, block, [*views, None, None], _grids(ranges), pair.ops, [pair.candidate, pair.position])
    init_v, init_i = (operand_view(o, m, ranges) for o, m in zip(outputs, out_maps))
    value, index = argmax_reduce(pair, np.broadcast_to(x, ranges), np.broadcast_to(pos, ranges), init_v, init_i, axis)
    return [value.astype(outputs[0].dtype), index.astype(outputs[1].dtype)]


_EXTENSIONS = (arith.ExtFOp, arith.ExtSIOp)


def _is_contraction(block: Block, n_inputs: int, maps: list[AffineMap]) -> bool:
    """Body `mul(in0, in1); add(out, mul); yield` with loop-dim-only maps (route 1), the
    inputs optionally extended to the accumulator's type first (`extf`/`extsi`: a mixed
    precision contraction such as an f16 matmul into f32, which must sum as a matmul too)."""
    ops = list(block.ops)
    if n_inputs != 2 or not 3 <= len(ops) <= 5 or len(block.args) != 3:
        return False
    *extensions, mul, add, _ = ops
    a, b, out = block.args
    read = {a: a, b: b}
    for ext in extensions:
        if not isinstance(ext, _EXTENSIONS) or ext.operands[0] not in read or ext.results[0].type != out.type:
            return False
        read[ext.operands[0]] = ext.results[0]
    if len({ext.operands[0] for ext in extensions}) != len(extensions):
        return False
    muls_adds = ((arith.MulfOp, arith.AddfOp), (arith.MuliOp, arith.AddiOp))
    if (type(mul), type(add)) not in muls_adds or set(mul.operands) != {read[a], read[b]} or len(set(mul.operands)) != 2:
        return False
    if set(add.operands) != {out, mul.results[0]} or tuple(ops[-1].operands) != (add.results[0],):
        return False
    return _loop_dims_only(maps)


def _loop_dims_only(maps: list[AffineMap]) -> bool:
    """Every map reads loop dims only (projected permutations, no constants or sums)."""
    return all(is_dims_and_constants(m) and all(isinstance(e, AffineDimExpr) for e in m.results) for m in maps)


def _horizontal_contractions(block: Block, n_inputs: int, maps: list[AffineMap]) -> list[tuple[int, int]] | None:
    """Route 1 for a multi-result body of independent contractions, `mulf(in_a, in_b)` then
    `addf(out_i, mul)` per result (`linalg-horizontal-fuse-contractions`' form): the input
    pair of each result, so each sums exactly as the matmul it replaced; else None."""
    ops, args = list(block.ops), list(block.args)
    outs = args[n_inputs:]
    if len(outs) < 2 or len(ops) != 2 * len(outs) + 1 or tuple(ops[-1].operands) != tuple(
            o.results[0] for o in ops[1:-1:2]):
        return None
    pairs = []
    for out, mul, add in zip(outs, ops[0:-1:2], ops[1:-1:2]):
        if not isinstance(mul, arith.MulfOp) or not isinstance(add, arith.AddfOp):
            return None
        if set(add.operands) != {out, mul.results[0]} or len(set(mul.operands)) != 2:
            return None
        if not all(v in args[:n_inputs] for v in mul.operands):
            return None
        pairs.append(tuple(args.index(v) for v in mul.operands))
    return pairs if _loop_dims_only(maps) else None


def _dims(m: AffineMap) -> list[int]:
    return [e.position for e in m.results]


def _contract(inputs, init, in_maps, out_map, ranges) -> np.ndarray:
    """init + sum over K of a*b, as an iteration-space array with size-1 reduction axes.

    The sum runs over the products a*b of every iteration point, as the body states and a
    backend computes it: a reduction dim that one operand does not index is broadcast into it
    (not factored out as `b * sum(a)`, which rounds differently), and output dims that neither
    operand indexes are left to the final reshape, so a contraction with a broadcast or
    unit-dim operand (what `linalg-fold-transpose-into-matmul` and `linalg-fold-unit-reshapes`
    fold into matmuls) sums exactly as the matmul over the materialised operand did. Where an
    f32 sum overflowed, the value is the one rounding of the exact sum (`overflow_settled`)."""
    (acc,) = compute_dtype_args((np.asarray(init),))
    value = _contract_in(acc.dtype, init.dtype, inputs, init, in_maps, out_map, ranges)
    return overflow_settled(value, lambda exact: _contract_in(exact, exact, inputs, init, in_maps, out_map, ranges))


def _contract_in(acc_dtype, out_dtype, inputs, init, in_maps, out_map, ranges) -> np.ndarray:
    """`_contract` summed in `acc_dtype`, the result in `out_dtype`."""
    a, b = (x.astype(acc_dtype, copy=False) for x in compute_dtype_args(tuple(np.asarray(x) for x in inputs)))
    da, db, do = _dims(in_maps[0]), _dims(in_maps[1]), _dims(out_map)
    a, da = _broadcast_reductions(a, da, db, do, ranges)
    b, db = _broadcast_reductions(b, db, da, do, ranges)
    present = [d for d in do if d in da or d in db]  # the others: the same sum at every point
    batch = [d for d in present if d in da and d in db]
    m_dims = [d for d in present if d in da and d not in db]
    n_dims = [d for d in present if d in db and d not in da]
    k_dims = [d for d in da if d in db and d not in do]
    if sorted(batch + m_dims + k_dims) == sorted(da) and sorted(batch + n_dims + k_dims) == sorted(db):
        product = _matmul(a, b, da, db, batch, m_dims, n_dims, k_dims, ranges)
        prod_dims = batch + m_dims + n_dims
    else:  # a map repeating a dim (a diagonal)
        letters = string.ascii_letters
        spec = f"{''.join(letters[d] for d in da)},{''.join(letters[d] for d in db)}->{''.join(letters[d] for d in present)}"
        product, prod_dims = np.einsum(spec, a, b), present
    full_shape = [ranges[d] if d in prod_dims else 1 for d in range(len(ranges))]
    product = product.transpose(np.argsort(prod_dims)).reshape(full_shape)
    (init_view,) = compute_dtype_args((operand_view(init, out_map, ranges),))
    return (init_view.astype(acc_dtype, copy=False) + product).astype(out_dtype)


def _broadcast_reductions(x: np.ndarray, dims: list[int], other: list[int], out: list[int], ranges: list[int]):
    """`x` (indexed by `dims`) broadcast along the reduction dims only `other` indexes."""
    missing = [d for d in other if d not in out and d not in dims]
    if not missing:
        return x, dims
    expanded = x.reshape(x.shape + (1,) * len(missing))
    return np.broadcast_to(expanded, x.shape + tuple(ranges[d] for d in missing)), dims + missing


def _group(x: np.ndarray, dims: list[int], groups: list[list[int]], ranges: list[int]) -> np.ndarray:
    order = [dims.index(d) for g in groups for d in g]
    sizes = [int(np.prod([ranges[d] for d in g], dtype=np.int64)) for g in groups]
    return x.transpose(order).reshape(sizes)


def _matmul(a, b, da, db, batch, m_dims, n_dims, k_dims, ranges) -> np.ndarray:
    """(batch, M, K) @ (batch, K, N) with BLAS; result axes ordered batch + M + N."""
    lhs = _group(a, da, [batch, m_dims, k_dims], ranges)
    rhs = _group(b, db, [batch, k_dims, n_dims], ranges)
    out = np.matmul(lhs, rhs)
    return out.reshape([ranges[d] for d in batch + m_dims + n_dims])
