"""Which formed regions IREE computes wrongly: each `flow.dispatch.region` of a formed module is
compiled alone for llvm-cpu (host) and run by IREE's runtime and by fusionopt's numpy interpreter
on the same seeded random inputs; a region whose outputs differ by more than `--rtol` of the
largest expected value is printed as BAD.

    python bench/region_agreement.py FORMED.mlir [--pipeline P] [--regions 3,15] [--rtol 1e-4]
        [--inputs FAMILY]

FORMED.mlir is `fusion-opt -p PIPELINE`'s output; `--pipeline` adds the iree-compile flags that
pipeline asks for (`fusion-opt -p P --print-iree-flags`). A whole model that builds but computes
wrong values (SegFormer's `-fewest` build at d249f68: a transposed matmul stored into a
padded buffer) is narrowed to its regions this way; the interpreter's run of the whole module
tells first whether the IR or IREE is wrong. Regions are isolated as `bench/block_builds.py` does
(from the entry `@main_graph`; captured values become arguments, small constants are cloned
in). Each region runs in this process: one that writes outside its buffers can crash it, so
`--regions` re-runs a subset.

By default each region gets seeded N(0, 1) arguments. `--inputs FAMILY` (random, constant,
offset, zeros, ...) instead runs the whole module once in the interpreter on that input family
and feeds each region the values it sees there: a region that is exact on normals but loses
precision on its real activations (large means, saturated exponentials) shows only this way.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from block_builds import ENTRY, REGION, iree_build, region_modules  # noqa: E402

from fusionopt.interpreter.input_families import family_inputs  # noqa: E402
from fusionopt.interpreter.runner import find_entry, make_interpreter, random_inputs  # noqa: E402
from fusionopt.ir_io import parse_file, print_module  # noqa: E402
from fusionopt.iree_tools import run_vmfb, target_flags  # noqa: E402
from fusionopt.registry import iree_flags_of  # noqa: E402
from fusionopt.testing import run_module  # noqa: E402
from fusionopt.transforms.dispatch.verify_with_iree import captured_values, is_inlined_constant  # noqa: E402


class _ValueRecorder:
    """An interpreter listener keeping every top-level op's results, keyed by SSA value."""

    def __init__(self):
        self.values: dict = {}

    def will_interpret_op(self, op, args) -> None:
        pass

    def did_interpret_op(self, op, results) -> None:
        for value, result in zip(op.results, results):
            self.values[value] = result


def activations(module, family: str, seed: int) -> dict:
    """SSA value -> its value in the interpreter's run of the entry on `family` inputs."""
    func_op = find_entry(module, ENTRY)
    inputs = family_inputs(func_op, family, seed)
    interpreter = make_interpreter(module)
    recorder = _ValueRecorder()
    interpreter.listeners = (*interpreter.listeners, recorder)
    with np.errstate(all="ignore"):
        interpreter.call_op(func_op, tuple(np.asarray(x) for x in inputs))
    recorder.values.update(zip(func_op.body.block.args, inputs))
    return recorder.values


def region_arguments(region_op, values: dict) -> list[np.ndarray]:
    """The region's isolated module's arguments (its captured values that are not inlined
    constants, in first-use order) as the whole module's run computed them."""
    return [np.asarray(values[v]) for v in captured_values(region_op) if not is_inlined_constant(v)]


def region_error(module, work: Path, name: str, flags: list[str], seed: int,
                 inputs: list[np.ndarray] | None = None) -> str | float:
    """max |IREE - interpreter| / max |interpreter| over the region's outputs, or IREE's error;
    the region's arguments are `inputs`, else seeded random ones."""
    source = work / f"{name}.mlir"
    source.write_text(print_module(module))
    vmfb = work / f"{name}.vmfb"
    if (error := iree_build(source, vmfb, flags)) is not None:
        return "does not build: " + error[:160]
    func = next(op for op in module.body.block.ops if op.name == "func.func")
    inputs = random_inputs(func, seed=seed) if inputs is None else inputs
    expected = run_module(module, inputs)
    got = run_vmfb(vmfb, inputs, func.sym_name.data)
    return max(float(np.abs(g - e).max() / max(np.abs(e).max(), 1e-30)) for g, e in zip(got, expected, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("formed", type=Path)
    parser.add_argument("--pipeline", help="the pipeline that formed it (its iree-compile flags)")
    parser.add_argument("--regions", help="comma-separated region indices (default: all)")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inputs", metavar="FAMILY",
                        help="feed each region its values in the module's run on this input family")
    args = parser.parse_args()
    flags = target_flags("llvm-cpu") + (iree_flags_of(args.pipeline) if args.pipeline else [])
    wanted = {int(i) for i in args.regions.split(",")} if args.regions else None
    work = Path(tempfile.mkdtemp(prefix="region_agreement_"))
    print("| region | ops | IREE vs interpreter |\n|---:|---|---|")
    formed = parse_file(args.formed)
    values = activations(formed, args.inputs, args.seed) if args.inputs else None
    region_ops = [op for op in find_entry(formed, ENTRY).body.block.ops if op.name == REGION]
    for (index, signature, module), region_op in zip(region_modules(formed), region_ops, strict=True):
        if wanted is not None and index not in wanted:
            continue
        inputs = region_arguments(region_op, values) if values is not None else None
        error = region_error(module, work, f"region_{index}", flags, args.seed, inputs)
        verdict = error if isinstance(error, str) else f"{'BAD' if error > args.rtol else 'ok'} {error:.1e}"
        print(f"| {index} | {signature} | {verdict} |", flush=True)


if __name__ == "__main__":
    main()
