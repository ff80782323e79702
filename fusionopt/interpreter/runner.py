"""Running a module: choose the entry function, make inputs, execute, report errors.

    module = parse_file("m.mlir")
    entry = find_entry(module)                  # the only public func, else main / main_graph
    inputs = random_inputs(entry, seed=0)       # floats ~ N(0,1), ints in [0,16), i1 random bits
    inputs = family_inputs(entry, "offset")     # or an adversarial family (input_families.py)
    outputs = run_function(module, inputs)      # list of numpy arrays, one per result
    reference = run_function(module, inputs, float64=True)  # every float type computed in f64
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import Interpreter
from xdsl.ir import Operation
from xdsl.utils.exceptions import InterpretationError

from fusionopt.diagnostics import FusionError, location_of
from fusionopt.dialects.opaque import OpaqueAttribute
from fusionopt.dialects.util import functions_with_body, is_function
from fusionopt.interpreter.input_families import DEFAULT_INT_RANGE, family_inputs
from fusionopt.interpreter.values import UnsupportedValue, compute_float64, element_dtype, storage_dtype
from fusionopt.progress import Progress

_ENTRY_NAMES = ("main", "main_graph")


def _function_implementations() -> list[Any]:
    from fusionopt.interpreter.affine import AffineApplyFunctions
    from fusionopt.interpreter.arith_math import ArithMathFunctions
    from fusionopt.interpreter.check import CheckFunctions
    from fusionopt.interpreter.flow import FlowFunctions
    from fusionopt.interpreter.flow_workgroups import FlowWorkgroupsFunctions
    from fusionopt.interpreter.func import AssertFunctions, FuncFunctions
    from fusionopt.interpreter.graph import GraphFunctions
    from fusionopt.interpreter.hal import HalFunctions
    from fusionopt.interpreter.iree_linalg_ext import IreeLinalgExtFunctions
    from fusionopt.interpreter.iree_linalg_ext_argcompare import IreeLinalgExtArgCompareFunctions
    from fusionopt.interpreter.iree_linalg_ext_im2col import IreeLinalgExtIm2colFunctions
    from fusionopt.interpreter.iree_linalg_ext_online_attention import IreeLinalgExtOnlineAttentionFunctions
    from fusionopt.interpreter.iree_linalg_ext_scan import IreeLinalgExtScanFunctions
    from fusionopt.interpreter.scf import FusionScfFunctions
    from fusionopt.interpreter.linalg import LinalgFunctions
    from fusionopt.interpreter.tensor import TensorFunctions
    from fusionopt.interpreter.iree_linalg_ext_scatter import IreeLinalgExtScatterFunctions
    from fusionopt.interpreter.iree_linalg_ext_sort import IreeLinalgExtSortFunctions
    from fusionopt.interpreter.iree_tensor import IreeTensorFunctions
    from fusionopt.interpreter.util import UtilFunctions
    from xdsl.interpreters.scf import ScfFunctions  # scf.for / while / xDSL's own scf.if

    return [ScfFunctions, ArithMathFunctions, TensorFunctions, LinalgFunctions, GraphFunctions, FlowFunctions, FuncFunctions,
            AssertFunctions, IreeLinalgExtFunctions, UtilFunctions, IreeTensorFunctions,
            IreeLinalgExtScatterFunctions, IreeLinalgExtSortFunctions, HalFunctions,
            CheckFunctions, FlowWorkgroupsFunctions, IreeLinalgExtArgCompareFunctions,
            IreeLinalgExtScanFunctions, IreeLinalgExtOnlineAttentionFunctions, IreeLinalgExtIm2colFunctions,
            FusionScfFunctions, AffineApplyFunctions]


class _OpTracker(Interpreter.Listener):
    """Remembers the ops being interpreted so a failure is reported at the innermost one."""

    def __init__(self) -> None:
        self.active: list[Operation] = []

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.active.append(op)

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        self.active.pop()


class _ProgressListener(Interpreter.Listener):
    """Reports each top-level op of the entry function as it starts (fusionopt.progress)."""

    def __init__(self, func_op: FuncOp, stream: TextIO):
        ops = [op for block in func_op.body.blocks for op in block.ops]
        self.position = {id(op): i for i, op in enumerate(ops)}
        self.progress = Progress(stream, len(ops))

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        index = self.position.get(id(op))
        if index is not None:
            self.progress.step(index, op.name)

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        pass


def make_interpreter(module: ModuleOp) -> Interpreter:
    """An xDSL `Interpreter` with fusionopt's numpy implementations of every dialect we parse."""
    interpreter = Interpreter(module, index_bitwidth=64, listeners=(_OpTracker(),))
    for functions in _function_implementations():
        interpreter.register_implementations(functions(), override=True)
    return interpreter


def find_entry(module: ModuleOp, name: str | None = None) -> FuncOp:
    """The function to run: `name`, else the only public function, else `main`/`main_graph`."""
    funcs = functions_with_body(module)
    if name is not None:
        for f in funcs:
            if f.sym_name.data == name:
                return f
        raise FusionError(f"no function named '{name}' (have: {', '.join(f.sym_name.data for f in funcs) or 'none'})")
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    if len(public) == 1:
        return public[0]
    for candidate in _ENTRY_NAMES:
        for f in funcs:
            if f.sym_name.data == candidate:
                return f
    raise FusionError(f"cannot choose an entry function among {len(public)} public functions; use --entry NAME")


def random_inputs(func_op: FuncOp, seed: int = 0, int_range: tuple[int, int] = DEFAULT_INT_RANGE) -> list[np.ndarray]:
    """Deterministic random arguments for `func_op` following its argument types: the "random"
    input family (floats ~ N(0, 1) in the declared type; integers uniform in `[lo, hi)`; i1
    random bits). See `input_families` for the adversarial families."""
    return family_inputs(func_op, "random", seed, int_range)


def check_inputs(func_op: FuncOp, inputs: Sequence[Any]) -> list[Any]:
    """Inputs cast to the argument types; a count or shape mismatch is a user error."""
    types = list(func_op.function_type.inputs)
    if len(inputs) != len(types):
        raise FusionError(f"@{func_op.sym_name.data} takes {len(types)} arguments, got {len(inputs)} inputs",
                          location_of(func_op))
    checked = []
    for i, (value, t) in enumerate(zip(inputs, types)):
        if isinstance(t, OpaqueAttribute):  # a runtime handle (!hal.fence, !hal.buffer_view): as given
            checked.append(value)
            continue
        value = np.asarray(value)
        shape = tuple(t.get_shape()) if isinstance(t, TensorType) else ()
        if not _shape_matches(value.shape, shape):  # a dynamic `?` dimension takes any size
            raise FusionError(f"input {i} has shape {list(value.shape)}, argument type is {t}", location_of(func_op))
        # rounded to the declared type first, so a float64 run sees the values an f32 run sees
        value = value.astype(storage_dtype(t), copy=False).astype(element_dtype(t), copy=False)
        checked.append(value if shape else value[()])
    return checked


def _shape_matches(actual: tuple[int, ...], declared: tuple[int, ...]) -> bool:
    return len(actual) == len(declared) and all(d in (a, DYNAMIC_INDEX) for a, d in zip(actual, declared))


def run_function(
    module: ModuleOp, inputs: Sequence[Any], entry: str | FuncOp | None = None, *, float64: bool = False,
    progress: TextIO | None = None,
) -> list[np.ndarray]:
    """Execute the entry function on `inputs`; returns one contiguous array per result.

    `float64=True` is the reference run: every float type computes as float64 (inputs and
    constants rounded to their declared type, then widened; see `values.compute_float64`).
    `progress`: a terminal for the op-by-op progress line (`fusionopt.progress`), None for none."""
    func_op = entry if is_function(entry) else find_entry(module, entry)
    interpreter = make_interpreter(module)
    listener = _ProgressListener(func_op, progress) if progress is not None else None
    if listener is not None:
        interpreter.listeners = (*interpreter.listeners, listener)
    try:
        with compute_float64(float64), np.errstate(all="ignore"):  # IEEE inf/NaN, int wraparound
            args = tuple(check_inputs(func_op, inputs))
            results = interpreter.call_op(func_op, args)
    except FusionError:
        raise
    except Exception as err:  # noqa: BLE001 - xDSL re-raises an op's failure with the IR as a note
        active = interpreter.listeners[0].active
        raise _as_user_error(err, active[-1] if active else None) from err
    finally:
        if listener is not None:
            listener.progress.done()
    return [np.array(r) for r in results]


def _as_user_error(err: Exception, failing: Operation | None) -> FusionError:
    """The failure as a located user error (xDSL's own report prints the whole module)."""
    if isinstance(err, InterpretationError | UnsupportedValue):
        text = str(err).splitlines()[0] if str(err) else type(err).__name__
    else:
        text = f"{type(err).__name__}: {err}"
    name = f"'{failing.name}' " if failing is not None else ""
    return FusionError(f"{name}execution failed: {text}", location_of(failing))
