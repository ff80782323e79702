"""numpy interpreter for every dialect fusionopt parses, built on `xdsl.interpreter`.

One module per dialect family (arith_math, tensor, linalg + linalg_generic + linalg_maps,
graph, flow, func); `runner` picks the entry function, makes inputs and runs it.
"""

from fusionopt.interpreter.runner import (
    DEFAULT_INT_RANGE,
    find_entry,
    make_interpreter,
    random_inputs,
    run_function,
)

__all__ = ["DEFAULT_INT_RANGE", "find_entry", "make_interpreter", "random_inputs", "run_function"]
