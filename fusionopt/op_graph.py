"""A program's dataflow as a Graphviz picture: each `flow.dispatch.region` a cluster.

Users would rather look at a fusion than read megabytes of IR. `fusion-stats --dot/--svg`
draws, per function: the arguments, every op that does work or moves data (constants,
`tensor.empty` and fills that only initialise another op's `outs` are left out: they never
become kernels), the results; ops inside a dispatch region are grouped in a cluster labelled
with the region's FLOPs and bytes moved; op nodes carry their result shape and FLOPs; edges
carry the bytes of the tensor they pass. With two programs (BEFORE AFTER) both are drawn side
by side in one picture.

DOT is written by hand (a few lines; no Python package is needed for text). Rendering needs a
Graphviz `dot` binary: the first of `dot` (Graphviz) and `graphviz-pure` (a static Rust port of
Graphviz that ships as a wheel: `pip install 'fusionopt[pictures]'`) found on PATH or next to
the running Python.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue

from fusionopt.cost_model import op_flops, tensor_bytes
from fusionopt.diagnostics import FusionError
from fusionopt.dialects.util import RETURN_OPS
from fusionopt.stats import (
    DISPATCH_OP,
    dispatch_traffic,
    functions_with_body,
    is_constant,
    is_init_only_fill,
    si_quantity,
)

RENDERERS = ("dot", "graphviz-pure")
HIDDEN_OPS = frozenset({"tensor.empty", "flow.tensor.empty", "flow.return", *RETURN_OPS})


def is_drawn(op: Operation) -> bool:
    """Ops that never become kernels or carry data are left out of the picture."""
    return not (op.name in HIDDEN_OPS or is_constant(op) or is_init_only_fill(op))


def _quote(text: str) -> str:
    """A DOT string: backslashes and quotes escaped, line breaks as DOT's centred `\\n`."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _shape(value: SSAValue) -> str:
    t = value.type
    if isinstance(t, TensorType):
        return "x".join(str(d) if d >= 0 else "?" for d in t.get_shape()) + f"x{t.get_element_type()}"
    return str(t)


def _si(number: int, unit: str) -> str:
    return si_quantity(number, unit, digits=1)


class DotWriter:
    """Collects the DOT lines of one or more functions; node ids are unique across them."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        # Edges go after every cluster: an edge statement inside a cluster would pull its
        # source node (e.g. a function argument) into that cluster.
        self.edges: list[str] = []
        self.node_of: dict[SSAValue, str] = {}
        self.count = 0

    def new_id(self) -> str:
        self.count += 1
        return f"n{self.count}"

    def node(self, label: str, indent: str, shape: str = "box", style: str = "") -> str:
        node_id = self.new_id()
        extra = f", style={style}" if style else ""
        self.lines.append(f"{indent}{node_id} [label={_quote(label)}, shape={shape}{extra}];")
        return node_id

    def edges_into(self, op: Operation, target: str) -> None:
        for value in dict.fromkeys(op.operands):
            source = self.node_of.get(value)
            if source is not None:
                label = _si(tensor_bytes(value), "B") if isinstance(value.type, TensorType) else ""
                self.edges.append(f"  {source} -> {target} [label={_quote(label)}];")

    def op_node(self, op: Operation, indent: str) -> None:
        flops = op_flops(op)
        label = op.name + "".join(f"\n{_shape(r)}" for r in op.results)
        if flops:
            label += f"\n{_si(flops, 'FLOP')}"
        node_id = self.node(label, indent, style="filled, fillcolor=white")
        self.edges_into(op, node_id)
        for result in op.results:
            self.node_of[result] = node_id

    def region_cluster(self, region_op: Operation, indent: str) -> None:
        traffic = dispatch_traffic(region_op)
        flops = sum(op_flops(o) for o in region_op.walk() if o is not region_op)
        self.count += 1
        self.lines.append(f"{indent}subgraph cluster_d{self.count} {{")
        title = f"dispatch: {_si(flops, 'FLOP')}, {_si(traffic.total, 'B')} moved"
        self.lines.append(f"{indent}  label={_quote(title)};")
        self.lines.append(f"{indent}  style=filled; fillcolor=lightblue;")
        self.block(region_op.regions[0].block, indent + "  ")
        self.lines.append(f"{indent}}}")
        terminator = region_op.regions[0].block.last_op
        for inner, outer in zip(terminator.operands if terminator else (), region_op.results):
            if inner in self.node_of:
                self.node_of[outer] = self.node_of[inner]

    def block(self, block: Block, indent: str) -> None:
        for op in block.ops:
            if op.name == DISPATCH_OP:
                self.region_cluster(op, indent)
            elif is_drawn(op):
                self.op_node(op, indent)

    def function(self, func: FuncOp, title: str, indent: str) -> None:
        self.count += 1
        self.lines.append(f"{indent}subgraph cluster_f{self.count} {{")
        self.lines.append(f"{indent}  label={_quote(title)}; style=dashed;")
        inner = indent + "  "
        blocks = list(func.body.blocks)  # a multi-block body is drawn block after block
        for i, arg in enumerate(blocks[0].args):
            self.node_of[arg] = self.node(f"arg{i}\n{_shape(arg)}", inner, shape="ellipse")
        for block in blocks:
            self.block(block, inner)
        ret = blocks[-1].last_op
        if ret is not None and ret.name in RETURN_OPS:
            self.edges_into(ret, self.node("return", inner, shape="ellipse"))
        self.lines.append(f"{indent}}}")


def to_dot(modules: list[tuple[str, ModuleOp]]) -> str:
    """One digraph: every function of every (label, module), each in a cluster."""
    writer = DotWriter()
    for label, module in modules:
        for func in functions_with_body(module):
            title = f"{label}: @{func.sym_name.data}" if label else f"@{func.sym_name.data}"
            writer.function(func, title, "  ")
    header = ["digraph fusionopt {", "  rankdir=TB; compound=true;",
              "  node [fontname=Helvetica, fontsize=10]; edge [fontname=Helvetica, fontsize=8];"]
    return "\n".join(header + writer.lines + writer.edges + ["}"]) + "\n"


def find_renderer() -> str | None:
    """A Graphviz `dot`-compatible binary: on PATH, else next to this Python (a venv's bin/)."""
    here = os.path.dirname(sys.executable)
    for name in RENDERERS:
        found = shutil.which(name) or shutil.which(name, path=here)
        if found:
            return found
    return None


def render(dot_text: str, fmt: str = "svg") -> bytes:
    renderer = find_renderer()
    if renderer is None:
        raise FusionError(
            "no Graphviz renderer found for --svg: install Graphviz (`dot`) or "
            "`pip install 'fusionopt[pictures]'` (graphviz-pure); --dot writes the DOT text without one"
        )
    result = subprocess.run([renderer, f"-T{fmt}"], input=dot_text.encode(), capture_output=True, timeout=120)
    if result.returncode != 0:
        raise FusionError(f"{os.path.basename(renderer)} failed: {result.stderr.decode(errors='replace')[-2000:]}")
    return result.stdout
