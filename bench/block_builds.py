"""Which blocks of today's architectures IREE 3.13 builds from fusionopt's regions, at real sizes.

    python bench/block_builds.py [--blocks convnext,vit] [--pipelines graph-to-dispatch]
                                 [--size convnext:size=28] [--inline] [--keep DIR]

For each block of `test/support/block_onnx_models.py` (at its real sizes, or those `--size`
gives: `BLOCK:KEY=VALUE[,KEY=VALUE]`, repeatable; weights as graph inputs, or inline constants
with `--inline`) and each pipeline: `fusion-translate
--import-onnx`, `fusion-opt -p PIPELINE`, `iree-compile` for llvm-cpu (host CPU). Prints one row
per case: block, sizes, pipeline, whether it builds, regions formed, IREE's first error line; a
build is run through IREE's runtime (local-sync) and compared with onnxruntime on the same
inputs (N(0, 1) activations, the model's seeded weights): max|diff| / max|ref|. A bf16 block is
compared with the float64 run of its import instead (onnxruntime's CPU provider lacks bf16
kernels: no bf16 Mul).

When a build fails, every `flow.dispatch.region` is compiled alone (`region_modules`: the region
in its own function as `dispatch-verify-with-iree` isolates it, captured values as arguments,
small captured constants cloned in), and each
failing one is printed with its op signature (the region's top-level ops, e.g.
`matmul>expand_shape>generic`) and IREE's first error line. Those are the forms region formation
must avoid (or IREE must learn).

IREE's stack and vector-size limits are size-dependent: 8x8 test models never show these.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
from xdsl.dialects.builtin import ModuleOp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "test"))  # test/support: the blocks shared with the unit test
from fusionopt.iree_tools import compiler_executable, cpu_flags, run_vmfb  # noqa: E402
# One region alone as the safety net compiles it, and IREE's first error line, as it reads it.
from fusionopt.transforms.dispatch.verify_with_iree import first_error_line as first_error  # noqa: E402
from fusionopt.transforms.dispatch.verify_with_iree import isolated_region_module  # noqa: E402
from support.block_onnx_models import BLOCKS, build  # noqa: E402

PIPELINES = ("graph-to-dispatch", "graph-to-dispatch-llvm-cpu", "graph-to-dispatch-llvm-cpu-fewest")
ENTRY = "main_graph"
REGION = "flow.dispatch.region"
_SKIPPED_IN_SIGNATURE = {"arith.constant", "tensor.empty", "flow.return"}


# --- inputs and reference ----------------------------------------------------------------------


def block_inputs(name: str, sizes: dict, family: str = "random", seed: int = 0,
                 args: bool = True) -> dict[str, np.ndarray]:
    """Graph input -> value for the block's model (weights as inputs when `args`): activations
    from `family` (`fusionopt.interpreter.input_families`), weights the values the inline model
    holds."""
    from fusionopt.interpreter.input_families import family_values

    model, inline_model = build(name, args, **sizes), build(name, False, **sizes)
    weights = {t.name: onnx.numpy_helper.to_array(t) for t in inline_model.graph.initializer}
    rng = np.random.default_rng(seed)
    values = {}
    for info in model.graph.input:
        if info.name in weights:
            values[info.name] = weights[info.name]
        else:
            dims = tuple(d.dim_value for d in info.type.tensor_type.shape.dim)
            dtype = onnx.helper.tensor_dtype_to_np_dtype(info.type.tensor_type.elem_type)
            values[info.name] = family_values(dims, dtype, family, rng, (0, 16))
    return values


def onnxruntime_outputs(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, inputs)


def reference_outputs(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """onnxruntime's outputs, or for a model with bf16 outputs (no bf16 kernels in onnxruntime's
    CPU provider) the float64 run of its import."""
    if all(o.type.tensor_type.elem_type != onnx.TensorProto.BFLOAT16 for o in model.graph.output):
        return onnxruntime_outputs(model, inputs)
    from fusionopt.importers.onnx_import import import_onnx
    from fusionopt.interpreter import find_entry, run_function

    imported = import_onnx(model)
    return run_function(imported, list(inputs.values()), find_entry(imported, ENTRY), float64=True)


def relative_error(actual: np.ndarray, expected: np.ndarray) -> float:
    """max|diff| / max|ref| (inf where shapes differ or the result is not finite)."""
    if actual.shape != expected.shape or not np.all(np.isfinite(actual)):
        return float("inf")
    scale = float(np.max(np.abs(expected))) or 1.0
    return float(np.max(np.abs(actual.astype(np.float64) - expected))) / scale


# --- regions alone ------------------------------------------------------------------------------


def op_label(op) -> str:
    """The op's name without its dialect; a generic tagged by what it does that matters to
    IREE's codegen: `generic[reduction]` (a reduction loop), `generic[gather]` (tensor.extract)."""
    label = op.name.split(".", 1)[-1]
    if op.name != "linalg.generic":
        return label
    tags = [tag for tag, present in (
        ("reduction", "reduction" in str(op.iterator_types)),
        ("gather", any(inner.name == "tensor.extract" for inner in op.walk())),
    ) if present]
    return f"{label}[{','.join(tags)}]" if tags else label


def region_signature(region_op) -> str:
    """The region's top-level ops (`op_label`), runs collapsed: `fill>generic[reduction]>expand_shape>generic`."""
    names = [op_label(op) for op in region_op.body.block.ops if op.name not in _SKIPPED_IN_SIGNATURE]
    parts: list[str] = []
    for name in names:
        if parts and re.fullmatch(rf"{re.escape(name)}(\*\d+)?", parts[-1]):
            count = int(parts[-1].rpartition("*")[2] if "*" in parts[-1] else 1) + 1
            parts[-1] = f"{name}*{count}"
        else:
            parts.append(name)
    return ">".join(parts)


def region_modules(module: ModuleOp) -> list[tuple[int, str, ModuleOp]]:
    """(index, signature, module) for each top-level region of the entry function."""
    from fusionopt.interpreter.runner import find_entry

    regions = [op for op in find_entry(module, ENTRY).body.block.ops if op.name == REGION]
    return [(i, region_signature(op), isolated_region_module(op)) for i, op in enumerate(regions)]


@dataclass
class RegionFailure:
    index: int
    signature: str
    error: str


def failing_regions(formed: Path, work: Path) -> list[RegionFailure]:
    from fusionopt.ir_io import parse_file, print_module

    failures = []
    for index, signature, module in region_modules(parse_file(formed)):
        source = work / f"region_{index}.mlir"
        source.write_text(print_module(module))
        error = iree_build(source, source.with_suffix(".vmfb"))
        if error is not None:
            failures.append(RegionFailure(index, signature, error))
    return failures


# --- one case -------------------------------------------------------------------------------


def iree_build(source: Path, vmfb: Path, flags: list[str] | None = None) -> str | None:
    """None when `iree-compile` with `flags` (default: llvm-cpu, host) builds `source`, else its
    first error line. Not `iree_tools.compile_vmfb`: its error keeps the end of IREE's
    diagnostics, and the first error (the cause) comes first."""
    result = subprocess.run([compiler_executable(), str(source), *(cpu_flags() if flags is None else flags), "-o", str(vmfb)],
                            capture_output=True, text=True, timeout=1200)
    return None if result.returncode == 0 else first_error(result.stderr) or f"exit {result.returncode}"


def _tool(cmd: list[str]) -> None:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}: {first_error(result.stderr) or result.stderr[-300:]}")


@dataclass
class Case:
    block: str
    sizes: dict
    pipeline: str
    builds: bool = False
    regions: int = 0
    error: str = ""
    rel_error: float | None = None
    failures: list[RegionFailure] = field(default_factory=list)
    seconds: float = 0.0


def run_case(block: str, sizes: dict, pipeline: str, onnx_file: Path, work: Path, inputs, expected) -> Case:
    case, start = Case(block, sizes, pipeline), time.time()
    imported, formed = work / "imported.mlir", work / f"{pipeline}.mlir"
    vmfb = formed.with_suffix(".vmfb")
    try:
        if not imported.exists():
            _tool(["fusion-translate", "--import-onnx", str(onnx_file), "-o", str(imported)])
        _tool(["fusion-opt", str(imported), "-p", pipeline, "-o", str(formed)])
    except RuntimeError as err:
        case.error = f"fusionopt: {err}"
        return case
    case.regions = formed.read_text().count(f"{REGION} ")
    error = iree_build(formed, vmfb)
    case.builds = error is None
    if error is not None:
        case.error = error
        region_dir = work / f"{pipeline}.regions"
        region_dir.mkdir(exist_ok=True)
        case.failures = failing_regions(formed, region_dir)
    if case.builds:
        (actual,) = run_vmfb(vmfb, list(inputs.values()), ENTRY)
        case.rel_error = relative_error(actual, expected)
    case.seconds = time.time() - start
    return case


def size_text(sizes: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in sizes.items()) or "real"


def report(case: Case) -> str:
    built = "yes" if case.builds else "no"
    err = f"{case.rel_error:.1e}" if case.rel_error is not None else "-"
    row = (f"| {case.block} | {size_text(case.sizes)} | {case.pipeline} | {built} | {case.regions} | {err} | "
           f"{case.error[:160]} | {case.seconds:.0f}s |")
    lines = [row]
    for failure in case.failures:
        lines.append(f"|   | region {failure.index} | `{failure.signature}` | fails | | | {failure.error[:160]} | |")
    return "\n".join(lines)


HEADER = ("| block | sizes | pipeline | builds | regions | max|diff|/max|ref| | IREE's first error | time |\n"
          "|---|---|---|---|---:|---:|---|---:|")


def parse_sizes(specs: list[str]) -> dict[str, dict]:
    sizes: dict[str, dict] = {}
    for spec in specs:
        block, _, pairs = spec.partition(":")
        sizes[block] = {k: int(v) for k, v in (p.split("=") for p in pairs.split(",") if p)}
    return sizes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", default=",".join(BLOCKS))
    parser.add_argument("--pipelines", default=",".join(PIPELINES))
    parser.add_argument("--size", action="append", default=[], help="BLOCK:KEY=VALUE[,KEY=VALUE]")
    parser.add_argument("--inline", action="store_true", help="weights as initializers (default: graph inputs)")
    parser.add_argument("--keep", type=Path, help="keep the files here (default: a temporary folder)")
    opts = parser.parse_args(argv)
    sizes = parse_sizes(opts.size)
    with tempfile.TemporaryDirectory() as tmp:
        root = opts.keep or Path(tmp)
        print(HEADER, flush=True)
        for block in opts.blocks.split(","):
            block_sizes = sizes.get(block, {})
            weights = "inline" if opts.inline else "args"
            work = root / f"{block}_{size_text(block_sizes).replace(',', '_').replace('=', '')}_{weights}"
            work.mkdir(parents=True, exist_ok=True)
            model = build(block, not opts.inline, **block_sizes)
            onnx_file = work / f"{block}.{weights}.onnx"
            onnx.save(model, str(onnx_file))
            inputs = block_inputs(block, block_sizes, args=not opts.inline)
            (expected,) = reference_outputs(model, inputs)
            for pipeline in opts.pipelines.split(","):
                print(report(run_case(block, block_sizes, pipeline, onnx_file, work, inputs, expected)), flush=True)


if __name__ == "__main__":
    main()
