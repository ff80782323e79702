"""`iree_linalg_ext.arg_compare`: per line along the dimension, the comparator region decides
whether each candidate (in order) replaces the running best value and index."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from fusionopt.dialects.iree_linalg_ext_argcompare import ArgCompareOp
from fusionopt.interpreter.iree_linalg_ext_sort import _lines


@register_impls
class IreeLinalgExtArgCompareFunctions(InterpreterFunctions):
    @impl(ArgCompareOp)
    def run_arg_compare(self, interpreter: Interpreter, op: ArgCompareOp, args: PythonValues) -> PythonValues:
        values, best_v, best_i = (np.asarray(a) for a in args[:3])
        base = int(args[3]) if op.index_base is not None else 0
        lines = _lines(values, op.dim())
        out_v = best_v.reshape(-1).copy()
        out_i = best_i.reshape(-1).copy()
        for row in range(lines.shape[0]):
            for j, candidate in enumerate(lines[row]):
                (take,) = interpreter.run_ssacfg_region(op.region, (candidate, out_v[row]), op.name)
                if bool(np.asarray(take)):
                    out_v[row], out_i[row] = candidate, j + base
        return (out_v.reshape(best_v.shape), out_i.reshape(best_i.shape))
