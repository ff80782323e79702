"""`linalg-fold-constants`: ops that only move the data of constants are computed at compile
time, in numpy, and become constants.

IREE evaluates every constant-only expression at compile time as well (ConstEval's
`JitGlobalsPass`), but by compiling those expressions into a module of their own for the host
and running it: the first one costs about half a second of `iree-compile`, more follow (IREE
3.13, llvm-cpu: shufflenet_v2_x1_0's 19 depthwise filter transposes 1.4 s of a 5.2 s build,
a Llama decoder's three slices of its mask and position tables 0.6 s of 2.7 s). The stages before
this one leave such ops behind: a depthwise conv's filter transposed to (kh, kw, c), slices and
reshapes of tables the graph stage folded. Computed here, with `fusion-run`'s numpy semantics,
IREE gets the constants ready and builds no JIT module; the numbers are the same bits (the ops
copy elements, nothing is rounded).

What folds: an op whose operands are all `arith.constant` dense tensors, or `tensor.empty`
inits its value does not read, and whose regions read no other value from outside but
constants: a `linalg.generic` with parallel loops only whose body yields input elements
(a transpose, broadcast or gather by indexing maps), `linalg.transpose/broadcast`,
`tensor.extract_slice/insert_slice/expand_shape/collapse_shape/pad/concat`. Ops that compute
(arithmetic, reductions, fills) stay: rounding them in numpy need not match IREE's kernels.
Folding is transitive in block order (a slice of a folded transpose folds too); constants and
inits left unread are erased.

Budget (as IREE's const-expr hoisting, which refuses what multiplies memory): the folded value
takes at most `max-bytes` stored and at most `max-growth` times the bytes of the constants it
reads (a filter padded to whole vectors folds; a bias broadcast over an image does not, it
stays a view its consumer fuses). A splat result is stored as one element.

Options: `max-bytes` (64 MiB), `max-growth` (2). Statistics: `constant ops folded`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import BroadcastOp, GenericOp, TransposeOp, YieldOp
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.dialects.util import functions_with_body
from fusionopt.transforms.common.use_def import values_captured_by
from fusionopt.transforms.linalg.elementwise_fusion_utils import dense_constant
from fusionopt import pass_statistics

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_GROWTH = 2

# Ops whose result is a rearrangement of their operands' elements.
DATA_MOVEMENT_OPS = (
    TransposeOp, BroadcastOp,
    tensor.ExtractSliceOp, tensor.InsertSliceOp, tensor.ExpandShapeOp, tensor.CollapseShapeOp,
    tensor.PadOp, tensor.ConcatOp,
)


def is_copying_generic(op: Operation) -> bool:
    """A `linalg.generic` over parallel loops whose body yields elements of its inputs."""
    if not isinstance(op, GenericOp):
        return False
    if any(kind.data != IteratorType.PARALLEL for kind in op.iterator_types):
        return False
    body = op.body.block
    inputs = set(body.args[: len(op.inputs)])
    yielded = body.last_op
    return (
        len(body.ops) == 1 and isinstance(yielded, YieldOp)
        and all(value in inputs for value in yielded.operands)
    )


def moves_data_only(op: Operation) -> bool:
    return isinstance(op, DATA_MOVEMENT_OPS) or is_copying_generic(op)


def unread_inits(op: Operation) -> set[SSAValue]:
    """The `outs` operands whose elements the op's value does not depend on."""
    if isinstance(op, (GenericOp, TransposeOp)):
        return set(op.outputs)
    if isinstance(op, BroadcastOp):
        return {op.init}
    return set()


def captured_values(op: Operation) -> list[SSAValue]:
    """Values defined outside `op` that the ops in its regions read (a pad's padding value)."""
    return list(dict.fromkeys(values_captured_by(op)))


def foldable_inputs(op: Operation) -> list[SSAValue] | None:
    """The constants `op` reads (operands and captured values), if it can fold; else None."""
    if not moves_data_only(op) or len(op.results) != 1:
        return None
    result_type = op.results[0].type
    if not isinstance(result_type, TensorType) or DYNAMIC_INDEX in result_type.get_shape():
        return None
    skipped = unread_inits(op)
    operands = [value for value in op.operands if value not in skipped]
    if any(not isinstance(value.owner, tensor.EmptyOp) for value in skipped):
        return None
    reads = operands + [value for value in captured_values(op) if value not in operands]
    if not operands or any(dense_constant(value) is None and not _is_scalar_constant(value) for value in reads):
        return None
    return reads


def _is_scalar_constant(value: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, arith.ConstantOp) and not isinstance(value.type, TensorType)


def stored_bytes(attr: DenseIntOrFPElementsAttr) -> int:
    return len(attr.data.data)


def data_movement_interpreter(module: ModuleOp) -> Interpreter:
    """`fusion-run`'s implementations of the ops that fold, and only those: the whole
    interpreter's twenty modules take longer to import than this pass takes to run."""
    from fusionopt.interpreter.arith_math import ArithMathFunctions
    from fusionopt.interpreter.linalg import LinalgFunctions
    from fusionopt.interpreter.tensor import TensorFunctions

    interpreter = Interpreter(module, index_bitwidth=64)
    for functions in (ArithMathFunctions, TensorFunctions, LinalgFunctions):
        interpreter.register_implementations(functions(), override=True)
    return interpreter


@dataclass
class ConstantFolder:
    module: ModuleOp
    max_bytes: int
    max_growth: int
    _interpreter: Interpreter | None = None

    @property
    def interpreter(self) -> Interpreter:
        if self._interpreter is None:  # built at the first op that folds
            self._interpreter = data_movement_interpreter(self.module)
        return self._interpreter

    def fold(self, op: Operation) -> list[SSAValue] | None:
        """Replace `op` by an `arith.constant` of its value; the values it read (its operands
        and captured constants), or None when it does not fold."""
        reads = foldable_inputs(op)
        if reads is None:
            return None
        attr = self._value_attr(op, reads)
        read_bytes = sum(stored_bytes(a) for v in reads if (a := dense_constant(v)) is not None)
        if stored_bytes(attr) > min(self.max_bytes, self.max_growth * read_bytes):
            return None
        inputs = [*op.operands, *reads]
        Rewriter.replace_op(op, arith.ConstantOp(attr))
        return inputs

    def _value_attr(self, op: Operation, reads: list[SSAValue]) -> DenseIntOrFPElementsAttr:
        self.interpreter.push_scope("fold")
        try:
            self.interpreter.set_values((value, self._python_value(value)) for value in reads)
            empties = [v for v in op.operands if isinstance(v.owner, tensor.EmptyOp)]
            self.interpreter.set_values((v, self.interpreter.run_op(v.owner, ())[0]) for v in empties)
            (result,) = self.interpreter.run_op(op, self.interpreter.get_values(op.operands))
        finally:
            self.interpreter.pop_scope()
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        return numpy_to_dense(np.asarray(result), result_type)

    def _python_value(self, value: SSAValue):
        attr = dense_constant(value)
        if attr is not None:
            return dense_to_numpy(attr)
        owner = value.owner
        assert isinstance(owner, arith.ConstantOp)
        return self.interpreter.run_op(owner, ())[0]


def erase_unread(values: list[SSAValue]) -> None:
    """Erase the constants and empty tensors among `values`' owners that nothing reads now."""
    for value in values:
        owner = value.owner
        if isinstance(owner, (arith.ConstantOp, tensor.EmptyOp)) and owner.parent is not None and not value.uses:
            Rewriter.erase_op(owner)


def fold_block(block: Block, folder: ConstantFolder) -> int:
    folded = 0
    for op in list(block.ops):
        if (inputs := folder.fold(op)) is not None:
            folded += 1
            erase_unread(inputs)
    return folded


@dataclass(frozen=True)
class LinalgFoldConstantsPass(ModulePass):
    """Compute data movement over constants in numpy (see the module doc).

    Options: max-bytes (int, 64 MiB), max-growth (int, 2).
    """

    name = "linalg-fold-constants"

    max_bytes: int = DEFAULT_MAX_BYTES
    max_growth: int = DEFAULT_MAX_GROWTH

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        folder = ConstantFolder(op, self.max_bytes, self.max_growth)
        # functions' own blocks: the ops there run once per call (not per element or iteration)
        blocks = [block for function in functions_with_body(op) for block in function.body.blocks]
        pass_statistics.count("constant ops folded", sum(fold_block(block, folder) for block in blocks))
