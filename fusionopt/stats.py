"""`fusion-stats` figures: kernels, FLOPs and global-memory traffic of every function.

`compute_stats(module)` returns the stable JSON structure

    {"functions": {NAME: {"dispatches", "copies", "unfused_compute_ops", "kernels",
                          "flops", "bytes_moved", "bytes_min", "ops": {op name: count}}},
     "total": {same keys, summed over the functions}}

The exact definitions live in docs/cost-model.md; the predicates below implement them one by one.
The model is IREE's: a `flow.dispatch.region` is one kernel; any compute op left outside a
region would become a kernel of its own; views (reshapes), constants, `tensor.empty` and fills
that only initialise another op's `outs` are free (IREE folds or clones them into consumers).
Ops are matched by name so this module does not depend on the graph/flow dialect modules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import ConstantLike

from fusionopt.cost_model import is_tensor, loop_ranges, op_flops, tensor_bytes
from fusionopt.dialects.util import RETURN_OPS, functions_with_body  # noqa: F401 - re-exported
from fusionopt.transforms.common.dispatch_utils import (
    has_reduction_loops, is_contraction, is_linalg, values_captured_by,
)

DISPATCH_OP = "flow.dispatch.region"
COPY_OPS = frozenset({"flow.tensor.slice", "flow.tensor.update"})
# Ops whose result is the operand's buffer re-described (tensors are contiguous): no kernel.
VIEW_OPS = frozenset(
    {
        "tensor.collapse_shape",
        "tensor.expand_shape",
        "tensor.reshape",
        "tensor.cast",
        "tensor.bitcast",
        "graph.reshape",
        "flow.tensor.reshape",
    }
)
FILL_OPS = frozenset({"linalg.fill", "flow.tensor.splat"})
EMPTY_OPS = frozenset({"tensor.empty", "flow.tensor.empty"})
# Ops that read only the part of their source they return.
SLICE_OPS = frozenset({"tensor.extract_slice", "graph.slice", "flow.tensor.slice"})
# linalg ops that print their payload region; the others keep it hidden (not counted in `ops`).
LINALG_OPS_WITH_VISIBLE_BODY = frozenset({"linalg.generic", "linalg.map", "linalg.reduce"})
# linalg ops whose last operand is their init (they have no `inputs`/`outputs` groups).
LINALG_LAST_OPERAND_INIT = frozenset({"linalg.reduce", "linalg.broadcast", "linalg.map"})

FIGURES = (
    "dispatches", "copies", "unfused_compute_ops", "kernels", "flops", "bytes_moved", "bytes_min"
)


_SI_PREFIXES = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def si_quantity(number: int | float, unit: str, digits: int = 2) -> str:
    """`1.19 MFLOP`-style figures for tables and pictures (below 1000: the number as is)."""
    for scale, prefix in _SI_PREFIXES:
        if number >= scale:
            return f"{number / scale:.{digits}f} {prefix}{unit}"
    return f"{number:.0f} {unit}" if isinstance(number, float) else f"{number} {unit}"


# ---- classification predicates ------------------------------------------------------------


def is_constant(op: Operation) -> bool:
    return op.name == "arith.constant" or op.has_trait(ConstantLike)


def is_splat_constant(op: Operation) -> bool:
    """A dense constant of one repeated value, checked on its raw bytes (no unpacking)."""
    value = op.properties.get("value", op.attributes.get("value"))
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    data = value.data.data
    size = value.get_element_type().compile_time_size
    # fusionopt stores splats compactly (one element, dialects/dense.py); xDSL expands them.
    return len(data) <= size or data == data[:size] * (len(data) // size)


def is_init_use(user: Operation, index: int) -> bool:
    """True when operand `index` of `user` is a destination (`outs`/`init`) of a linalg op."""
    if not user.name.startswith("linalg."):
        return False
    if user.name in LINALG_LAST_OPERAND_INIT:
        return index == len(user.operands) - 1
    inputs = getattr(user, "inputs", None)
    outputs = getattr(user, "outputs", None)
    if inputs is None or outputs is None:
        return False
    return len(inputs) <= index < len(inputs) + len(outputs)


def is_init_only_fill(op: Operation) -> bool:
    """A fill/splat every use of which initialises a linalg op: it is cloned into that kernel."""
    if op.name not in FILL_OPS:
        return False
    return all(is_init_use(use.operation, use.index) for r in op.results for use in r.uses)


def is_free_op(op: Operation) -> bool:
    """Metadata ops that never become kernels: views, constants, empties, init-only fills."""
    return (
        op.name in VIEW_OPS
        or op.name in EMPTY_OPS
        or is_constant(op)
        or is_init_only_fill(op)
    )


# Non-linalg ops whose region computes one element of their result (not control flow):
# a top-level `tensor.pad` writes a whole new tensor, so it is a kernel like a linalg op.
TENSOR_OPS_WITH_ELEMENT_PAYLOAD = frozenset({"tensor.pad", "tensor.generate"})


def has_element_payload(op: Operation) -> bool:
    return op.name.startswith(("linalg.", "graph.")) or op.name in TENSOR_OPS_WITH_ELEMENT_PAYLOAD


def is_unfused_compute_op(op: Operation) -> bool:
    """An op outside any dispatch region that would be a device kernel of its own."""
    if op.name in COPY_OPS or op.name == DISPATCH_OP or op.name == "func.call":
        return False
    if op.regions and not has_element_payload(op):
        return False  # a container (scf.for, ...): its body is classified op by op
    if not any(is_tensor(r) for r in op.results):
        return False  # scalar host math, tensor.extract/dim, terminators
    return not is_free_op(op)


# ---- memory traffic -----------------------------------------------------------------------


def storage_root(value: SSAValue) -> SSAValue:
    """The value whose buffer `value` views (through reshapes), so aliases count once."""
    while isinstance(value.owner, Operation) and value.owner.name in VIEW_OPS:
        value = value.owner.operands[0]
    return value


def needs_no_read(value: SSAValue) -> bool:
    """Values a kernel materialises itself: empties, init-only fills, splat constants."""
    owner = storage_root(value).owner
    if not isinstance(owner, Operation):
        return False
    if owner.name in EMPTY_OPS or is_init_only_fill(owner):
        return True
    return is_constant(owner) and is_splat_constant(owner)


@dataclass
class Traffic:
    """Bytes one kernel reads (per distinct storage root) and writes."""

    reads: dict[SSAValue, int] = field(default_factory=dict)
    written: int = 0

    def read(self, value: SSAValue, nbytes: int | None = None) -> None:
        if not is_tensor(value) or needs_no_read(value):
            return
        root = storage_root(value)
        nbytes = tensor_bytes(root) if nbytes is None else nbytes
        self.reads[root] = max(self.reads.get(root, 0), nbytes)

    @property
    def total(self) -> int:
        return sum(self.reads.values()) + self.written


def op_traffic(op: Operation) -> Traffic:
    """Global-memory traffic of one unfused op or copy (see docs/cost-model.md, bytes_moved)."""
    traffic = Traffic()
    if op.name == "flow.tensor.update":
        update = getattr(op, "update", None) or max(op.operands, key=tensor_bytes)
        traffic.read(update)
        traffic.written = tensor_bytes(update)  # in place: only the updated part is written
        return traffic
    result_bytes = sum(tensor_bytes(r) for r in op.results)
    for index, operand in enumerate(op.operands):
        if op.name in SLICE_OPS and index == 0:
            traffic.read(operand, result_bytes)
        else:
            traffic.read(operand)
    for value in values_captured_by(op):
        traffic.read(value)
    traffic.written = result_bytes
    return traffic


def dispatch_traffic(region_op: Operation) -> Traffic:
    """A dispatch region reads what it captures from above and writes its results."""
    traffic = Traffic()
    for value in values_captured_by(region_op):
        traffic.read(value)
    traffic.written = sum(tensor_bytes(r) for r in region_op.results)
    return traffic


# ---- per-kernel listing -------------------------------------------------------------------


@dataclass
class KernelCost:
    """One kernel's static cost: what `fusion-stats --device` prices and the fit script checks.

    `kind` is "dispatch", "unfused" (a compute op outside any region) or "copy"; `root` names
    the op that determines the kernel's shape (for a region: its contraction, else its first
    reduction, else its last linalg op), `work` its class ("contraction", "reduction",
    "elementwise", "copy"; the classes IREE's dispatch names reduce to) and `shape` its loop
    ranges, so a region can be matched with IREE's dispatch of the same work. Bytes are counted
    at the kernel boundary.
    """

    kind: str
    root: str
    work: str
    shape: tuple[int, ...]
    flops: int
    bytes_read: int
    bytes_written: int

    @property
    def bytes(self) -> int:
        return self.bytes_read + self.bytes_written


_MUL_ADD_BODIES = (["arith.mulf", "arith.addf"], ["arith.muli", "arith.addi"])


def is_plain_contraction(op: Operation) -> bool:
    """What IREE names `matmul*`: a named contraction, or a one-result generic whose body is
    exactly multiply-then-accumulate (a multi-result reduction such as a fused layer norm's
    sum and sum of squares is a `reduction` to IREE, though it multiplies and adds)."""
    if op.name != "linalg.generic":
        return is_contraction(op)
    if len(op.results) != 1 or not is_contraction(op):
        return False
    body = [inner.name for inner in op.regions[0].block.ops][:-1]
    return body in _MUL_ADD_BODIES


def region_root(region_op: Operation) -> Operation | None:
    """The op IREE would name the dispatch after: contraction > reduction > last linalg op."""
    linalg_ops = [op for op in region_op.walk() if op is not region_op and is_linalg(op)]
    for predicate in (is_plain_contraction, has_reduction_loops):
        found = [op for op in linalg_ops if predicate(op)]
        if found:
            return found[0]
    computing = [op for op in linalg_ops if op.name != "linalg.fill"]
    return (computing or linalg_ops or [None])[-1]


def work_class(kind: str, root: Operation) -> str:
    if kind == "copy":
        return "copy"
    if is_plain_contraction(root):
        return "contraction"
    return "reduction" if has_reduction_loops(root) else "elementwise"


def kernel_cost(kind: str, op: Operation, root: Operation | None, flops: int, traffic: Traffic) -> KernelCost:
    root = root or op
    ranges = loop_ranges(root) if root.name.startswith("linalg.") else None
    shape = ranges if ranges is not None else tuple(
        d for r in root.results if is_tensor(r) for d in r.type.get_shape()
    )
    written = traffic.written
    return KernelCost(
        kind, root.name, work_class(kind, root), tuple(shape), flops, traffic.total - written, written
    )


# ---- per-function accounting --------------------------------------------------------------


@dataclass
class FunctionTally:
    dispatches: int = 0
    copies: int = 0
    unfused_compute_ops: int = 0
    flops: int = 0
    bytes_moved: int = 0
    kernels: list[KernelCost] = field(default_factory=list)

    def add_kernel(self, kind: str, op: Operation, root: Operation | None, flops: int, traffic: Traffic) -> None:
        self.flops += flops
        self.bytes_moved += traffic.total
        self.kernels.append(kernel_cost(kind, op, root, flops, traffic))

    def visit_block(self, block: Block) -> None:
        for op in block.ops:
            self.visit_op(op)

    def visit_op(self, op: Operation) -> None:
        if op.name == DISPATCH_OP:
            self.dispatches += 1
            flops = sum(op_flops(inner) for inner in op.walk() if inner is not op)
            self.add_kernel("dispatch", op, region_root(op), flops, dispatch_traffic(op))
        elif op.name in COPY_OPS:
            self.copies += 1
            self.add_kernel("copy", op, op, 0, op_traffic(op))
        elif is_unfused_compute_op(op):
            self.unfused_compute_ops += 1
            self.add_kernel("unfused", op, op, op_flops(op), op_traffic(op))
        elif not has_element_payload(op):
            # Structured control flow and other containers: their bodies may hold kernels.
            for region in op.regions:
                for block in region.blocks:
                    self.visit_block(block)


def has_hidden_payload(op: Operation) -> bool:
    """Named linalg ops carry a payload region the text does not show."""
    return op.name.startswith("linalg.") and op.name not in LINALG_OPS_WITH_VISIBLE_BODY


def visible_ops(op: Operation):
    """Ops nested in `op` as they appear in the text (hidden named-linalg payloads skipped)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield inner
                if has_hidden_payload(inner):
                    continue
                yield from visible_ops(inner)


def minimum_bytes(func: FuncOp) -> int:
    """Inputs (used arguments and non-splat tensor constants) read once + outputs written once."""
    inputs = [a for a in func.body.blocks[0].args if is_tensor(a) and a.uses]
    for op in func.walk():
        if is_constant(op) and not is_splat_constant(op):
            inputs.extend(r for r in op.results if is_tensor(r) and r.uses)
    outputs: list[SSAValue] = []
    last = func.body.blocks[-1].last_op
    if last is not None and last.name in RETURN_OPS:
        outputs = list(dict.fromkeys(v for v in last.operands if is_tensor(v)))
    read_once = sum(tensor_bytes(v) for v in dict.fromkeys(inputs))
    return read_once + sum(tensor_bytes(v) for v in outputs)


def tally_function(func: FuncOp) -> FunctionTally:
    tally = FunctionTally()
    for block in func.body.blocks:
        tally.visit_block(block)
    return tally


def kernel_costs(func: FuncOp) -> list[KernelCost]:
    """Every kernel of `func` in program order (regions, unfused compute ops and copies).

    The `kind == "dispatch"` entries are the function's `flow.dispatch.region`s in the order
    IREE numbers its `flow.dispatch` call sites, which is what matches them to measurements.
    """
    return tally_function(func).kernels


def function_stats(func: FuncOp) -> dict:
    tally = tally_function(func)
    return {
        "dispatches": tally.dispatches,
        "copies": tally.copies,
        "unfused_compute_ops": tally.unfused_compute_ops,
        "kernels": tally.dispatches + tally.unfused_compute_ops,
        "flops": tally.flops,
        "bytes_moved": tally.bytes_moved,
        "bytes_min": minimum_bytes(func),
        "ops": dict(sorted(Counter(op.name for op in visible_ops(func)).items())),
    }


def total_stats(per_function: list[dict]) -> dict:
    total: dict = {key: sum(f[key] for f in per_function) for key in FIGURES}
    ops: Counter[str] = Counter()
    for f in per_function:
        ops.update(f["ops"])
    total["ops"] = dict(sorted(ops.items()))
    return total


def compute_stats(module: ModuleOp) -> dict:
    """Stats of every function with a body in `module` (nested modules included)."""
    functions = {op.sym_name.data: function_stats(op) for op in functions_with_body(module)}
    return {"functions": functions, "total": total_stats(list(functions.values()))}

