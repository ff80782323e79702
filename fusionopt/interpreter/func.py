"""`func` (definitions, calls, returns: xDSL's own implementations) and `cf.assert`.

`cf.assert` appears in torch-mlir output as index bounds checks inside `linalg.generic`
bodies; in a vectorised body its condition is an array and must hold everywhere.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.interpreters.func import FuncFunctions

from fusionopt.diagnostics import op_error

__all__ = ["AssertFunctions", "FuncFunctions"]


@register_impls
class AssertFunctions(InterpreterFunctions):
    @impl(cf.AssertOp)
    def run_assert(self, interpreter: Interpreter, op: cf.AssertOp, args: PythonValues) -> PythonValues:
        if not np.all(args[0]):
            raise op_error(op, f"runtime assertion failed: {op.msg.data}")
        return ()
