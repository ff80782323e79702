"""IREE's `util` dialect: functions, calls, the optimization barrier and globals.

Globals live for one interpreter (one run): a load returns the last stored value, else the
global's initial value; a global with neither is an error at the load (IREE would have run a
`util.initializer` first, which the interpreter does not do on its own).
"""

from __future__ import annotations

from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)
from xdsl.traits import SymbolTable

from fusionopt.diagnostics import op_error
from fusionopt.dialects import util
from fusionopt.interpreter.func import call, return_values, run_function_body
from fusionopt.interpreter.values import attribute_value


@register_impls
class UtilFunctions(InterpreterFunctions):
    def __init__(self) -> None:
        super().__init__()
        self.globals: dict[str, object] = {}

    @impl_terminator(util.UtilReturnOp)
    def run_return(self, interpreter: Interpreter, op: util.UtilReturnOp, args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return return_values(args)

    @impl(util.UtilCallOp)
    def run_call(self, interpreter: Interpreter, op: util.UtilCallOp, args: PythonValues) -> PythonValues:
        return call(interpreter, op, args)

    @impl_callable(util.UtilFuncOp)
    def call_func(self, interpreter: Interpreter, op: util.UtilFuncOp, args: PythonValues) -> PythonValues:
        return run_function_body(interpreter, op, args)

    @impl(util.OptimizationBarrierOp)
    def run_barrier(self, interpreter: Interpreter, op: util.OptimizationBarrierOp, args: PythonValues) -> PythonValues:
        return args

    @impl(util.GlobalLoadOp)
    def run_load(self, interpreter: Interpreter, op: util.GlobalLoadOp, args: PythonValues) -> PythonValues:
        name = op.global_.string_value()
        if name not in self.globals:
            target = SymbolTable.lookup_symbol(op, op.global_)
            if not isinstance(target, util.GlobalOp) or target.initial_value is None:
                raise op_error(op, f"global @{name} is read before anything was stored in it")
            self.globals[name] = attribute_value(target.initial_value, target.type)
        return (self.globals[name],)

    @impl(util.GlobalStoreOp)
    def run_store(self, interpreter: Interpreter, op: util.GlobalStoreOp, args: PythonValues) -> PythonValues:
        self.globals[op.global_.string_value()] = args[0]
        return ()
