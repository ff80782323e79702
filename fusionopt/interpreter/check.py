"""IREE's `check` assertions: a failed expectation stops the run with an error at the op."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from fusionopt.diagnostics import op_error
from fusionopt.dialects import check

_DEFAULT_ATOL = 1e-4  # IREE's check.expect_almost_eq default


@register_impls
class CheckFunctions(InterpreterFunctions):
    @impl(check.ExpectEqOp)
    def run_eq(self, interpreter: Interpreter, op: check.ExpectEqOp, args: PythonValues) -> PythonValues:
        if not np.array_equal(np.asarray(args[0]), np.asarray(args[1])):
            raise op_error(op, f"check.expect_eq failed: {args[0]} != {args[1]}")
        return ()

    @impl(check.ExpectAlmostEqOp)
    def run_almost_eq(self, interpreter: Interpreter, op: check.ExpectAlmostEqOp, args: PythonValues) -> PythonValues:
        atol = op.atol.value.data if op.atol is not None else _DEFAULT_ATOL
        rtol = op.rtol.value.data if op.rtol is not None else 0.0
        lhs, rhs = (np.asarray(a, np.float64) for a in args)
        if not np.allclose(lhs, rhs, rtol=rtol, atol=atol, equal_nan=True):
            worst = float(np.nanmax(np.abs(lhs - rhs))) if lhs.size else 0.0
            raise op_error(op, f"check.expect_almost_eq failed: largest difference {worst:g} (atol {atol:g}, rtol {rtol:g})")
        return ()

    @impl(check.ExpectTrueOp)
    def run_true(self, interpreter: Interpreter, op: check.ExpectTrueOp, args: PythonValues) -> PythonValues:
        if not np.all(args[0]):
            raise op_error(op, "check.expect_true failed")
        return ()

    @impl(check.ExpectFalseOp)
    def run_false(self, interpreter: Interpreter, op: check.ExpectFalseOp, args: PythonValues) -> PythonValues:
        if np.any(args[0]):
            raise op_error(op, "check.expect_false failed")
        return ()
