"""ONNX Einsum -> `graph` transposes, reshapes, sums and batched `graph.dot`s.

An operand pair is contracted as onnxruntime's and numpy's einsum do: each operand first sums
away the letters no one else reads, then the letters split into batch (both operands and the
output), contracted (both operands only), left (first operand and output) and right (second
operand and output); the operands are transposed to [batch, left, contracted] and
[batch, contracted, right], flattened to one `graph.dot` of [batch.., L, K] x [batch.., K, R],
and the result is unflattened and transposed to the output's letter order. More than two
operands contract left to right, each step keeping the letters a later operand or the output
reads. The dot is the form the graph passes and IREE's contraction kernels know (a MaxViT
attention's `B G H I D, B G H J D -> B G H I J` is a batched Q.K^T).

Spaces in the equation are ignored; without `->` the output is the letters seen once, sorted
(ONNX's implicit mode). Not supported, with an import error naming the node: `...` broadcasting
and a letter repeated within one operand (a diagonal).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import reduce, reshape, squeezed, transpose
from fusionopt.importers.onnx_context import ImportContext, Value, shape


def parse_equation(ctx: ImportContext, equation: str, operands: int) -> tuple[list[str], str]:
    """(letters of each operand, output letters) of an Einsum equation."""
    text = equation.replace(" ", "")
    if "." in text:
        raise ctx.error(f"Einsum '{equation}': '...' broadcasting is not supported")
    inputs, arrow, output = text.partition("->")
    terms = inputs.split(",")
    if len(terms) != operands:
        raise ctx.error(f"Einsum '{equation}' names {len(terms)} operands, the node has {operands}")
    if not arrow:
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    for term in [*terms, output]:
        if len(set(term)) != len(term) or not term.isalpha() and term:
            raise ctx.error(f"Einsum '{equation}': '{term}' repeats a letter or is not letters")
    return terms, output


def _sizes(ctx: ImportContext, terms: Sequence[str], values: Sequence[Value]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for term, value in zip(terms, values):
        if len(term) != len(shape(value)):
            raise ctx.error(f"Einsum operand '{term}' has rank {len(shape(value))}")
        for letter, size in zip(term, shape(value)):
            if sizes.setdefault(letter, size) != size:
                raise ctx.error(f"Einsum letter '{letter}' is {sizes[letter]} and {size}")
    return sizes


def _sum_away(ctx: ImportContext, value: Value, term: str, keep: set[str]) -> tuple[Value, str]:
    """`value` summed over the letters of `term` not in `keep`, those dims dropped."""
    gone = [i for i, letter in enumerate(term) if letter not in keep]
    if not gone:
        return value, term
    summed = reduce(ctx, graph.ReduceSumOp, ctx.ssa(value), gone)
    kept = "".join(letter for letter in term if letter in keep)
    return squeezed(ctx, summed, gone), kept


def _arranged(ctx: ImportContext, value: Value, term: str, order: str) -> Value:
    return transpose(ctx, value, [term.index(letter) for letter in order])


def _contract(ctx: ImportContext, a: tuple[Value, str], b: tuple[Value, str], keep: set[str],
              sizes: dict[str, int]) -> tuple[Value, str]:
    """One operand pair contracted to the letters in `keep` (batch, then left, then right)."""
    (x, tx), (y, ty) = _sum_away(ctx, *a, keep | set(b[1])), _sum_away(ctx, *b, keep | set(a[1]))
    batch = "".join(c for c in tx if c in ty and c in keep)
    contracted = "".join(c for c in tx if c in ty and c not in keep)
    left = "".join(c for c in tx if c not in ty)
    right = "".join(c for c in ty if c not in tx)

    def flat(letters: str) -> int:
        return math.prod(sizes[c] for c in letters)

    batch_dims = [sizes[c] for c in batch]
    x = reshape(ctx, _arranged(ctx, x, tx, batch + left + contracted), [*batch_dims, flat(left), flat(contracted)])
    y = reshape(ctx, _arranged(ctx, y, ty, batch + contracted + right), [*batch_dims, flat(contracted), flat(right)])
    product = ctx.emit(graph.DotOp(ctx.ssa(x), ctx.ssa(y)))
    letters = batch + left + right
    return reshape(ctx, product, [sizes[c] for c in letters]), letters


def einsum(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    equation = ctx.attr("equation")
    equation = equation.decode() if isinstance(equation, bytes) else str(equation)
    terms, output = parse_equation(ctx, equation, len(ins))
    sizes = _sizes(ctx, terms, ins)
    current = (ins[0], terms[0])
    for index in range(1, len(ins)):
        later = set(output).union(*terms[index + 1:])
        current = _contract(ctx, current, (ins[index], terms[index]), later, sizes)
    value, letters = _sum_away(ctx, *current, set(output))
    return [_arranged(ctx, value, letters, output)]


HANDLERS = {"Einsum": einsum}
