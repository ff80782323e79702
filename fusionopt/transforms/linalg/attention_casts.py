"""Float casts inside attention bodies, for `linalg-raise-attention` on f16 and bf16 programs.

Our ONNX importer and torch-mlir write f16 attention with f32 arithmetic in each body: the
contractions widen their operands (`arith.extf`) into an f32 accumulator, the softmax's max and
sum reduce into f32, and each elementwise op widens, computes and rounds back
(`arith.truncf`). The matcher reads such bodies with the casts looked through: a contraction
only through widenings (exact), the softmax pieces through roundings too, since the raised op
computes scores, exponentials and sums in f32 and so rounds less often than the decomposed form
(the pass's numerics note).
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

CASTS = ("arith.extf", "arith.truncf")
WIDEN = ("arith.extf",)


def uncast(value: SSAValue, casts: tuple[str, ...] = CASTS) -> SSAValue:
    """`value` with the float casts named in `casts` that produce it looked through."""
    while isinstance(owner := value.owner, Operation) and owner.name in casts:
        value = owner.operands[0]
    return value


def uncast_all(values, casts: tuple[str, ...] = CASTS) -> list[SSAValue]:
    return [uncast(v, casts) for v in values]


def compute_ops(op: Operation, casts: tuple[str, ...] = CASTS) -> list[Operation]:
    """The body ops of `op` but the casts named in `casts`."""
    return [o for o in op.regions[0].block.ops if o.name not in casts]
