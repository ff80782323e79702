"""`linalg-drop-payload-asserts`: `cf.assert`s inside the payload of a linalg,
`iree_linalg_ext` or `tm_tensor` op are erased, with the condition ops only they read.

torch-mlir puts runtime checks into payloads: every reciprocal asserts its input is nonzero
("unimplemented: tensor with zero element"), every gather asserts its ids are in bounds. A kernel
cannot report a failed check, and IREE 3.13's codegen drops them: its llvm-cpu build of
`1 / x` with the assert returns `inf` at `x = 0` and runs on. Left in a payload they still
change what IREE's codegen can do with a pre-formed region: on CUDA sm_80 a region holding a
reduction over rows of dynamic count and a consumer whose payload asserts fails to build
("Cannot set layouts on a dynamically shaped iteration space"; every Llama-family decoder's
RMSNorm at a symbolic sequence length), the same region without the assert builds. So the
dispatch-creation pipelines drop them first, and the regions compute what IREE's build of the
input computes. Asserts outside payloads (shape checks between ops) stay.

No options. Statistics: `payload asserts dropped`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from fusionopt import pass_statistics

PAYLOAD_OWNER_DIALECTS = ("linalg.", "iree_linalg_ext.", "tm_tensor.")


def is_payload_assert(op: Operation) -> bool:
    """A `cf.assert` whose enclosing op is a structured op (its payload), not a function."""
    if not isinstance(op, cf.AssertOp):
        return False
    owner = op.parent_op()
    return owner is not None and owner.name.startswith(PAYLOAD_OWNER_DIALECTS)


def _erase_with_dead_condition(assertion: cf.AssertOp) -> None:
    """Erase the assert, then each condition op left unread (a compare, its casts); an op that
    feeds one twice (`cmpf ord, %v, %v`) is pending twice and erased once."""
    pending = [assertion.arg.owner]
    Rewriter.erase_op(assertion)
    while pending:
        op = pending.pop()
        if isinstance(op, Operation) and op.parent is not None and is_trivially_dead(op):
            pending.extend(operand.owner for operand in op.operands)
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class LinalgDropPayloadAssertsPass(ModulePass):
    """Erase the `cf.assert`s in structured ops' payloads (IREE's kernels drop them). No options."""

    name = "linalg-drop-payload-asserts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        asserts = [o for o in op.walk() if is_payload_assert(o)]
        for assertion in asserts:
            _erase_with_dead_condition(assertion)
        pass_statistics.count("payload asserts dropped", len(asserts))
