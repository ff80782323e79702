"""`dispatch-verify-with-iree`: every `flow.dispatch.region` IREE cannot compile is unwrapped, so a
region form IREE rejects never ships.

IREE builds a pre-formed region as given, and IREE 3.13's codegen rejects some forms outright
(a `vector.store` to a global buffer outside a distributed loop, a concat it infers the wrong
tile shape for) and others only at some sizes (more than 32 KiB of stack for one tile). Region
formation cannot foresee every such case, so this pass asks IREE: each region is compiled alone
(`isolated_region_module`) and a region IREE rejects gives its ops back to the function
(`unwrap_region`), where IREE forms dispatches for them itself, with a remark that names the
region's root op and IREE's first error. Identical regions (the layers of a model) are compiled
once; the compiles run in parallel.

By default the whole module is compiled first (`whole-module-first`): when everything builds,
that one compile is the whole cost. When it fails, the regions IREE's errors point into (by the
printed text's lines) are compiled alone, the ones IREE rejects unwrapped, and the whole module
compiled again; only if it still fails is every other region compiled alone. IREE is run up to
`--compile-to=executable-targets` (every executable through codegen, not serialised or
linked): the same failures, in 58-98% of a full build's time on the corpus models.

Relies on: `iree-compile` on PATH (without it: one warning, the module unchanged); region bodies
that only use values defined outside them by dominance (true of every formed region), so their
ops are valid in place of the region. The unwrapped ops lose any IREE `compilation_info`: it was
chosen for the region as formed, not for the dispatches IREE forms instead.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt import pass_statistics
from fusionopt.diagnostics import emit_remark, emit_warning
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import COMPILE, compiler_executable, cpu_flags, cuda_flags
from fusionopt.transforms.common import dispatch_utils as du

COMPILE_TO = ("executable-targets", "end")


# ---------------------------------------------------------------------------------------------
# One region as a module of its own.

def _inner_ops_and_blocks(op: Operation) -> tuple[set[Operation], set[Block]]:
    ops = set(op.walk())
    return ops, {block for inner in ops for region in inner.regions for block in region.blocks}


def captured_values(region_op: DispatchRegionOp) -> list[SSAValue]:
    """Values the region (its dims, workload and body) uses from outside, in first-use order."""
    ops, blocks = _inner_ops_and_blocks(region_op)
    seen: dict[SSAValue, None] = {}
    for op in region_op.walk():
        for value in op.operands:
            owner = value.owner
            inside = owner in ops if isinstance(owner, Operation) else owner in blocks
            if not inside:
                seen.setdefault(value)
    return list(seen)


def is_inlined_constant(value: SSAValue) -> bool:
    """A captured constant IREE would inline into the dispatch (scalars, splats, small dense
    payloads): it stays a constant, so the region compiles as it does in the module. Larger
    ones become arguments, so identical layers with different weights give identical text."""
    owner = value.owner
    return isinstance(owner, Operation) and owner.name == "arith.constant" and du.is_clonable_into_dispatch(owner)


def isolated_region_module(region_op: DispatchRegionOp) -> ModuleOp:
    """`func.func @main(captured...) -> results` holding a copy of the region only. SSA name
    hints are dropped, so regions that differ only in their values' names print the same."""
    captured = captured_values(region_op)
    arguments = [v for v in captured if not is_inlined_constant(v)]
    block = Block(arg_types=[v.type for v in arguments])
    mapper: dict[SSAValue, SSAValue] = dict(zip(arguments, block.args))
    for value in captured:
        if value not in mapper:
            constant = value.owner.clone(clone_name_hints=False)
            block.add_op(constant)
            mapper[value] = constant.results[0]
    copy = region_op.clone(value_mapper=mapper, clone_name_hints=False)
    block.add_ops([copy, func.ReturnOp(*copy.results)])
    function = func.FuncOp("main", ([v.type for v in arguments], list(copy.result_types)), Region(block))
    return ModuleOp([function])


# ---------------------------------------------------------------------------------------------
# Asking IREE.

@dataclass(frozen=True)
class Verdict:
    """IREE's answer on one module: built, rejected (with its first error line), or unknown
    (timed out: the region is kept, with a warning)."""

    builds: bool
    error: str = ""
    timed_out: bool = False
    error_lines: tuple[int, ...] = ()  # the lines of the source IREE's errors point at


def first_error_line(diagnostics: str) -> str:
    """IREE's first `error:` message, without the temporary file's `path:line:col: ` prefix."""
    for line in diagnostics.splitlines():
        if "error:" in line:
            return line[line.index("error:") + len("error:"):].strip()
    lines = [line for line in diagnostics.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "iree-compile failed"


def compile_text(text: str, folder: Path, flags: list[str], timeout: float) -> Verdict:
    """`iree-compile` on `text`. Run here rather than through `iree_tools.compile_vmfb`, which
    keeps only the end of IREE's diagnostics: the cause is the first error, and the notes after
    it (the whole executable's IR) can be megabytes."""
    name = hashlib.sha256(text.encode()).hexdigest()[:16]
    source = folder / f"{name}.mlir"
    source.write_text(text)
    command = [compiler_executable(), str(source), *flags, "-o", str(folder / f"{name}.out")]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Verdict(False, f"no answer in {timeout:g} s", timed_out=True)
    if done.returncode == 0:
        return Verdict(True)
    lines = tuple(int(m.group(1)) for m in re.finditer(rf"^{re.escape(str(source))}:(\d+):\d+: error:", done.stderr, re.M))
    return Verdict(False, first_error_line(done.stderr), error_lines=lines)


def compile_texts(texts: list[str], flags: list[str], jobs: int, timeout: float, cache: dict[str, Verdict]) -> int:
    """IREE's verdict on each text into `cache` (text -> verdict), each text not there yet
    compiled once, `jobs` at a time; returns how many were compiled."""
    missing = [text for text in dict.fromkeys(texts) if text not in cache]
    if missing:
        with tempfile.TemporaryDirectory(prefix="fusionopt-verify-") as tmp, ThreadPoolExecutor(jobs) as pool:
            cache.update(zip(missing, pool.map(lambda text: compile_text(text, Path(tmp), flags, timeout), missing)))
    return len(missing)


def region_line_spans(text: str) -> list[tuple[int, int]]:
    """The first and last line (1-based) of each `flow.dispatch.region` in printed `text`, in
    the order the regions are printed (the order `walk` visits them)."""
    spans, open_regions = [], []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.lstrip()
        indent = len(line) - len(body)
        if "flow.dispatch.region" in body.split("{", 1)[0]:
            open_regions.append((number, indent))
        elif open_regions and indent == open_regions[-1][1] and body.startswith("}"):
            spans.append((open_regions.pop()[0], number))
    return sorted(spans)


def usable_cores() -> int:
    """The cores this process may run on (a container's share, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


# ---------------------------------------------------------------------------------------------
# Giving a region's ops back to its block.

def region_root(region_op: DispatchRegionOp) -> Operation:
    """The op the region was formed around: its root (`dispatch_utils.is_root_op`), else the
    producer of its first result, else its first op."""
    body = list(region_op.body.block.ops)
    root = next((op for op in body if du.is_root_op(op)), None)
    if root is None and region_op.terminator.operands:
        owner = region_op.terminator.operands[0].owner
        root = owner if isinstance(owner, Operation) else None
    return root or body[0]


def unwrap_region(region_op: DispatchRegionOp) -> None:
    """The body's ops in place of the region; uses of its results read the returned values."""
    terminator = region_op.terminator
    returned = list(terminator.operands)
    Rewriter.erase_op(terminator)
    for op in region_op.body.block.walk():
        op.attributes.pop("compilation_info", None)
    Rewriter.inline_block(region_op.body.block, InsertPoint.before(region_op))
    for result, value in zip(region_op.results, returned, strict=True):
        result.replace_all_uses_with(value)
    Rewriter.erase_op(region_op)


# ---------------------------------------------------------------------------------------------
# The pass.

@dataclass(frozen=True)
class DispatchVerifyWithIreePass(ModulePass):
    """Compile each `flow.dispatch.region` with `iree-compile`; unwrap the ones it rejects.

    Options:
      target      -- `llvm-cpu` (default) or `cuda`: the backend whose codegen must accept them.
      target-cpu  -- the llvm-cpu target CPU (`host`).
      cuda-target -- the CUDA target (`sm_80`: IREE 3.13 rejects sm_90).
      jobs        -- iree-compile processes at a time (0, default: one per core).
      timeout     -- seconds per iree-compile run (600); a region with no answer is kept, with
                     a warning.
      compile-to  -- how far IREE compiles: `executable-targets` (default: through codegen,
                     where every known rejection happens) or `end` (a whole build).
      whole-module-first -- compile the whole module first; when it fails, compile alone the
                     regions its errors point into, then the whole module again, and every
                     region alone only if it still fails (default true: one compile when
                     everything builds). false: every region alone, at once.
    """

    name = "dispatch-verify-with-iree"

    target: str = "llvm-cpu"
    target_cpu: str = "host"
    cuda_target: str = "sm_80"
    jobs: int = 0
    timeout: float = 600
    compile_to: str = "executable-targets"
    whole_module_first: bool = True

    def __post_init__(self) -> None:
        if self.target not in ("llvm-cpu", "cuda"):
            raise ValueError(f"target must be llvm-cpu or cuda, not '{self.target}'")
        if self.compile_to not in COMPILE_TO:
            raise ValueError(f"compile-to must be one of {', '.join(COMPILE_TO)}, not '{self.compile_to}'")
        if self.jobs < 0 or self.timeout <= 0:
            raise ValueError(f"jobs must be >= 0 and timeout > 0, not {self.jobs} and {self.timeout}")

    def flags(self) -> list[str]:
        target = cpu_flags(self.target_cpu) if self.target == "llvm-cpu" else cuda_flags(self.cuda_target)
        return [*target, f"--compile-to={self.compile_to}"]

    def compile(self, texts: list[str], cache: dict[str, Verdict]) -> int:
        return compile_texts(texts, self.flags(), self.jobs or usable_cores(), self.timeout, cache)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        regions = [r for r in op.walk() if isinstance(r, DispatchRegionOp)]
        if not regions:
            return
        if shutil.which(COMPILE) is None:
            emit_warning(op, f"{self.name}: {COMPILE} is not on PATH: {len(regions)} dispatch regions left unchecked")
            return
        pass_statistics.count("regions checked", len(regions))
        pass_statistics.count("regions unwrapped", 0)
        cache: dict[str, Verdict] = {}
        if not self.whole_module_first:
            self.check_regions(regions, cache)
            return
        whole, suspects = self.compile_whole(op, cache)
        if whole.builds:
            return
        if suspects:
            # Usually IREE's errors point into the regions that fail: those alone first, then
            # the whole module again.
            self.check_regions(suspects, cache)
            whole, _ = self.compile_whole(op, cache)
            if whole.builds:
                return
        checked = set(suspects)
        rest = self.check_regions([r for r in op.walk() if isinstance(r, DispatchRegionOp) and r not in checked], cache)
        if not whole.timed_out and all(v.builds for v in rest):
            # The cause is outside the regions (ops IREE forms dispatches for itself, or an
            # input IREE cannot read): nothing this pass can unwrap.
            emit_warning(op, f"{self.name}: every region builds alone but the module does not: {whole.error}")

    def compile_whole(self, op: ModuleOp, cache: dict[str, Verdict]) -> tuple[Verdict, list[DispatchRegionOp]]:
        """IREE's verdict on the whole module, and the regions its errors point into."""
        text = print_module(op)
        self.compile([text], cache)
        pass_statistics.count("modules compiled whole")
        verdict = cache[text]
        regions = [r for r in op.walk() if isinstance(r, DispatchRegionOp)]
        spans = region_line_spans(text)
        if len(spans) != len(regions):  # printed differently than expected: no guesses
            return verdict, []
        return verdict, [r for r, (first, last) in zip(regions, spans)
                         if any(first <= line <= last for line in verdict.error_lines)]

    def check_regions(self, regions: list[DispatchRegionOp], cache: dict[str, Verdict]) -> list[Verdict]:
        """Compile each region alone and unwrap the ones IREE rejects; the verdicts, in order."""
        texts = [print_module(isolated_region_module(r)) for r in regions]
        pass_statistics.count("regions compiled alone", self.compile(texts, cache))
        verdicts = [cache[text] for text in texts]
        for region_op, verdict in zip(regions, verdicts):
            root = region_root(region_op)
            if verdict.timed_out:
                emit_warning(root, f"{self.name}: kept the region of {root.name} unchecked: {verdict.error}")
            elif not verdict.builds:
                emit_remark(root, f"{self.name}: unwrapped the region of {root.name}: iree-compile "
                                  f"({self.target}) rejects it: {verdict.error}")
                unwrap_region(region_op)
                pass_statistics.count("regions unwrapped")
        return verdicts
