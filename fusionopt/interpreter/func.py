"""`func` (definitions, calls, returns), `cf.assert` and the `cf` branches.

The func implementations mirror xDSL's `xdsl.interpreters.func`, which we do not import: that
package's `__init__` loads every xDSL interpreter (RISC-V included), ~0.6 s of start-up.
`cf.assert` appears in torch-mlir output as index bounds checks inside `linalg.generic`
bodies; in a vectorised body its condition is an array and must hold everywhere.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf, func
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    Successor,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)

from fusionopt.diagnostics import op_error


def return_values(args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
    return ReturnedValues(args), ()


def call(interpreter: Interpreter, op, args: PythonValues) -> PythonValues:
    """A call op (`func.call`, `util.call`): run its callee."""
    return interpreter.call_op(op.callee, args)


def run_function_body(interpreter: Interpreter, op, args: PythonValues) -> PythonValues:
    """A function (`func.func`, `util.func`) called with `args`."""
    if not op.body.blocks:
        raise op_error(op, f"cannot call external function @{op.sym_name.data}")
    return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)


@register_impls
class FuncFunctions(InterpreterFunctions):
    @impl_terminator(func.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: func.ReturnOp, args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return return_values(args)

    @impl(func.CallOp)
    def run_call(self, interpreter: Interpreter, op: func.CallOp, args: PythonValues) -> PythonValues:
        return call(interpreter, op, args)

    @impl_callable(func.FuncOp)
    def call_func(self, interpreter: Interpreter, op: func.FuncOp, args: PythonValues) -> PythonValues:
        return run_function_body(interpreter, op, args)


@register_impls
class AssertFunctions(InterpreterFunctions):
    @impl_terminator(cf.BranchOp)
    def run_br(self, interpreter: Interpreter, op: cf.BranchOp, args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return Successor(op.successor, args), ()

    @impl_terminator(cf.ConditionalBranchOp)
    def run_cond_br(self, interpreter: Interpreter, op: cf.ConditionalBranchOp, args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        if np.ndim(args[0]):
            raise op_error(op, "cf.cond_br needs a scalar condition")
        then_count = len(op.then_arguments)
        if bool(args[0]):
            return Successor(op.then_block, args[1 : 1 + then_count]), ()
        return Successor(op.else_block, args[1 + then_count :]), ()

    @impl(cf.AssertOp)
    def run_assert(self, interpreter: Interpreter, op: cf.AssertOp, args: PythonValues) -> PythonValues:
        if not np.all(args[0]):
            raise op_error(op, f"runtime assertion failed: {op.msg.data}")
        return ()
