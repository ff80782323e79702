"""`test-diagnostics`: a test-only pass (like MLIR's `test-*` passes) that exercises the
diagnostics machinery of `fusion-opt`: it reports at ops and can fail or crash on request.

Options:
  ops (str, default "arith.addf"): comma-free list of op names separated by `+`
      (e.g. `arith.addf+arith.mulf`); every op with one of these names gets a diagnostic.
  severity (str, default "remark"): `remark`, `warning` or `error`; `error` reports at the
      first matching op and fails the pass (exit code 1).
  crash (bool, default false): raise a Python exception, to test the internal-error path.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from fusionopt.diagnostics import emit_remark, emit_warning, op_error


@dataclass(frozen=True)
class TestDiagnosticsPass(ModulePass):
    """Report a remark, warning or error at every op with a selected name (test-only)."""

    name = "test-diagnostics"

    ops: str = "arith.addf"
    severity: str = "remark"
    crash: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.crash:
            raise RuntimeError("test-diagnostics was asked to crash")
        if self.severity not in ("remark", "warning", "error"):
            raise op_error(op, f"test-diagnostics: unknown severity '{self.severity}'")
        wanted = set(self.ops.split("+"))
        for target in op.walk():
            if target.name not in wanted:
                continue
            message = f"found {target.name}"
            if self.severity == "error":
                raise op_error(target, message)
            (emit_remark if self.severity == "remark" else emit_warning)(target, message)
