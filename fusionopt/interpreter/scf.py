"""`scf` semantics: xDSL's own (`xdsl.interpreters.scf`), plus our `scf.if` subclass.

`dialects/scf.py` subclasses xDSL's `scf.IfOp` only to read MLIR's unparenthesized result type;
xDSL's interpreter finds an op's implementation by its exact class, so the subclass is
registered here with xDSL's implementation."""

from __future__ import annotations

from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.interpreters.scf import ScfFunctions as XdslScfFunctions

from fusionopt.dialects.scf import IfOp


@register_impls
class ScfFunctions(XdslScfFunctions):
    @impl(IfOp)
    def run_mlir_if(self, interpreter: Interpreter, op: IfOp, args: PythonValues):
        (cond,) = args
        return interpreter.run_ssacfg_region(op.true_region if cond else op.false_region, ())
