"""`scf.if` as fusionopt parses it (dialects/scf.py: a subclass of xDSL's IfOp that reads MLIR's
`-> type` without parentheses): xDSL's interpreter registers its `scf.if` semantics for its own
class only, so the parsed op needs them registered again. `scf.for` / `while` stay xDSL's."""

from __future__ import annotations

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from fusionopt.dialects import scf


@register_impls
class FusionScfFunctions(InterpreterFunctions):
    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args: PythonValues) -> PythonValues:
        (cond,) = args
        region = op.true_region if bool(cond) else op.false_region
        return interpreter.run_ssacfg_region(region, ())
