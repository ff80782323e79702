"""numpy interpreter for every dialect fusionopt parses, built on `xdsl.interpreter`.

One module per dialect family (arith_math, tensor, linalg + linalg_generic + linalg_maps,
graph, flow, func); `runner` picks the entry function, makes inputs and runs it (in the
declared precision, or with `float64=True` as a float64 reference); `input_families` makes the
adversarial inputs (constant rows, large offsets, extremes, masks, id edges) and `compare`
judges a rewrite's results against the input program and its float64 reference.
"""

from fusionopt.interpreter.input_families import FAMILIES, family_inputs, family_values
from fusionopt.interpreter.runner import (
    DEFAULT_INT_RANGE,
    find_entry,
    make_interpreter,
    random_inputs,
    run_function,
)
from fusionopt.interpreter.values import compute_float64

__all__ = [
    "DEFAULT_INT_RANGE",
    "FAMILIES",
    "compute_float64",
    "family_inputs",
    "family_values",
    "find_entry",
    "make_interpreter",
    "random_inputs",
    "run_function",
]
