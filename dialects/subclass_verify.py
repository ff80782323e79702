"""Verifiers for plain subclasses of xDSL ops: the op's definition is checked first.

`@irdl_op_definition` wraps an op's `verify_` so that the definition (operand, result and
region counts, required properties and their constraints) holds before the custom verifier
reads any of them. fusionopt replaces single rules of some xDSL ops with plain subclasses
(`type(name, (XdslOp,), {"verify_": ...})`, so `isinstance` still holds), and such a subclass
loses that wrapper: an op written in generic form without its operands or properties then
reaches a verifier that reads `self.src` (IndexError, KeyError), or passes it and crashes the
printer. Every such `verify_` starts with `verify_definition` or, where the subclass must
accept operand types the definition rejects, with `verify_counts`.

`verify_dynamic_count` is the other check a printer relies on: a static size list with `?`
entries (`static_low = array<i64: -9223372036854775808>`) has one SSA value per entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation, OpDef
from xdsl.utils.exceptions import VerifyException


def verify_definition(op: Operation) -> None:
    """The checks xDSL's generated verifier makes before the op's own (`VerifyException`)."""
    type(op).get_irdl_definition().verify(op)


def own_checks(xdsl_op: type[IRDLOperation]) -> Callable[[Operation], None]:
    """What `xdsl_op`'s class body verifies beyond its definition: the function
    `@irdl_op_definition` wrapped into `xdsl_op.verify_` after `OpDef.verify`. A subclass that
    has checked the definition already calls this instead of `xdsl_op.verify_`, which would
    check the whole definition again (half of a `linalg.generic`'s verification, run after
    every pass). If xDSL's wrapper ever changes shape, the whole `verify_` (slower, as right)."""
    cells = [cell.cell_contents for cell in xdsl_op.verify_.__closure__ or ()]
    definitions = [c for c in cells if isinstance(c, OpDef)]
    checks = [c for c in cells if callable(c) and not isinstance(c, OpDef)]
    if len(definitions) != 1 or len(checks) > 1:
        return xdsl_op.verify_
    return checks[0] if checks else _no_checks


def _no_checks(op: Operation) -> None:
    del op


def verify_counts(op: Operation, operands: int, results: int) -> None:
    """Exactly `operands` operands, `results` results and no region (MLIR's wording)."""
    words = {0: "zero", 1: "one"}
    if len(op.operands) != operands:
        noun = "a single operand" if operands == 1 else f"{operands} operands"
        raise VerifyException(f"'{op.name}' op requires {noun}")
    if len(op.results) != results:
        raise VerifyException(f"'{op.name}' op requires {words.get(results, results)} result")
    if op.regions:
        raise VerifyException(f"'{op.name}' op requires zero regions")


def verify_dynamic_count(op: Operation, values: Sequence[SSAValue], static: Sequence[int],
                         values_name: str, static_name: str) -> None:
    """One SSA value per dynamic (`?`) entry of a static list: the printer writes entry i of
    the list as the next value wherever the entry is dynamic."""
    dynamic = sum(1 for size in static if size == DYNAMIC_INDEX)
    if dynamic != len(values):
        raise VerifyException(
            f"'{op.name}' op mismatch in dynamic dims in {values_name} and {static_name}: "
            f"{static_name} has {dynamic} dynamic dims while {values_name} has {len(values)} values"
        )
