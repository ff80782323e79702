"""`affine.apply` on index values (torch-mlir's dynamic shape arithmetic, e.g. `s0 + 1`).

Our own because xDSL 0.74's `AffineFunctions.run_apply` passes every operand as a dim: a map over
symbols (`()[s0] -> (s0 + 1)`, what torch-mlir prints) fails its arity check.
"""

from __future__ import annotations

from xdsl.dialects import affine
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls


@register_impls
class AffineApplyFunctions(InterpreterFunctions):
    @impl(affine.ApplyOp)
    def run_apply(self, interpreter: Interpreter, op: affine.ApplyOp, args: PythonValues) -> PythonValues:
        affine_map = op.map.data
        values = [int(a) for a in args]
        dims, symbols = values[:affine_map.num_dims], values[affine_map.num_dims:]
        return affine_map.eval(dims, symbols)
