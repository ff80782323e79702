"""`iree_linalg_ext.scatter` in numpy (semantics: dialects/iree_linalg_ext_scatter.py).

Each batch position's update slice is combined with the window of the original it lands on by
running the op's region once over the whole window (vectorised, as tensor.pad's region runs);
batches go in order, so repeated indices see the earlier updates.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)

from fusionopt.dialects.iree_linalg_ext import YieldOp
from fusionopt.dialects.iree_linalg_ext_scatter import ScatterOp
from fusionopt.interpreter.common import as_type


@register_impls
class IreeLinalgExtScatterFunctions(InterpreterFunctions):
    @impl(ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: ScatterOp, args: PythonValues) -> PythonValues:
        updates, indices, original = (np.asarray(a) for a in args)
        out = original.copy()
        batch = op.batch_rank()
        rows = indices.reshape(-1, indices.shape[-1]).astype(np.int64)
        slices = updates.reshape(-1, *updates.shape[batch:])
        first = out.ndim - slices.ndim + 1  # the slice fills the trailing dims
        for row, update in zip(rows, slices):
            starts = [0] * out.ndim
            for dim, at in zip(op.dims(), row):
                starts[dim] = int(at)
            sizes = [1] * first + list(update.shape)
            if any(s < 0 or s + n > full for s, n, full in zip(starts, sizes, out.shape)):
                raise IndexError(f"scatter index {list(row)} puts a slice of {list(update.shape)} outside {list(out.shape)}")
            window = tuple(slice(s, s + n) for s, n in zip(starts, sizes))
            current = out[window].reshape(update.shape)
            (combined,) = interpreter.run_ssacfg_region(op.region, (update, current), "iree_linalg_ext.scatter")
            out[window] = np.broadcast_to(as_type(combined, op.result.type), update.shape).reshape(out[window].shape)
        return (out,)

    @impl_terminator(YieldOp)
    def run_yield(self, interpreter: Interpreter, op: YieldOp, args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()
