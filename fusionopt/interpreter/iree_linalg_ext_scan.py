"""`iree_linalg_ext.scan`: per line along the dimension, the region combines the running value
with the next element (inclusive) or the previous one (exclusive, seeded by the accumulator),
as IREE's scalar implementation does; see dialects/iree_linalg_ext_scan.py. torch-mlir's
`tm_tensor.scan` (dialects/tm_tensor.py) runs the same way."""

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

from fusionopt.dialects import tm_tensor
from fusionopt.dialects.iree_linalg_ext_scan import ScanOp
from fusionopt.interpreter.iree_linalg_ext_sort import _lines


def _scan_line(interpreter: Interpreter, op: ScanOp, line: np.ndarray, acc, out: np.ndarray):
    """Fills `out` (one line) and returns the accumulator after the line."""
    inclusive = op.is_inclusive()
    if line.shape[0] == 0:
        return acc
    out[0] = line[0] if inclusive else acc
    for i in range(1, line.shape[0]):
        element = line[i] if inclusive else line[i - 1]
        (out[i],) = interpreter.run_ssacfg_region(op.region, (out[i - 1], element), op.name)
        acc = out[i]
    return acc


def _run_scan(interpreter: Interpreter, op: ScanOp, args: PythonValues) -> PythonValues:
    source, out_init, acc_init = (np.asarray(a) for a in args[:3])
    d = op.dim()
    lines = _lines(source, d)
    out = np.empty_like(lines, dtype=out_init.dtype)
    acc = acc_init.reshape(-1).copy()
    for row in range(lines.shape[0]):
        acc[row] = _scan_line(interpreter, op, lines[row], acc[row], out[row])
    moved_shape = np.moveaxis(out_init, d, -1).shape
    result = np.moveaxis(out.reshape(moved_shape), -1, d)
    return (np.ascontiguousarray(result), acc.reshape(acc_init.shape))


@register_impls
class IreeLinalgExtScanFunctions(InterpreterFunctions):
    @impl(ScanOp)
    def run_scan(self, interpreter: Interpreter, op: ScanOp, args: PythonValues) -> PythonValues:
        return _run_scan(interpreter, op, args)

    @impl(tm_tensor.ScanOp)
    def run_tm_tensor_scan(self, interpreter: Interpreter, op: ScanOp, args: PythonValues) -> PythonValues:
        return _run_scan(interpreter, op, args)

    @impl_terminator(tm_tensor.YieldOp)
    def run_tm_tensor_yield(self, interpreter: Interpreter, op: tm_tensor.YieldOp,
                            args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()
