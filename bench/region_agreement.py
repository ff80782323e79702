"""Which formed regions IREE computes wrongly: each `flow.dispatch.region` of a formed module is
compiled alone for llvm-cpu (host) and run by IREE's runtime and by fusionopt's numpy interpreter
on the same seeded random inputs; a region whose outputs differ by more than `--rtol` of the
largest expected value is printed as BAD.

    python bench/region_agreement.py FORMED.mlir [--pipeline P] [--regions 3,15] [--rtol 1e-4]

FORMED.mlir is `fusion-opt -p PIPELINE`'s output; `--pipeline` adds the iree-compile flags that
pipeline asks for (`fusion-opt -p P --print-iree-flags`). A whole model that builds but computes
wrong values (SegFormer's `-fewest` build at d249f68: a transposed matmul stored into a
padded buffer) is narrowed to its regions this way; the interpreter's run of the whole module
tells first whether the IR or IREE is wrong. Regions are isolated as `bench/block_builds.py` does
(from the entry `@main_graph`; captured values become arguments, small constants are cloned
in). Each region runs in this process: one that writes outside its buffers can crash it, so
`--regions` re-runs a subset.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from block_builds import iree_build, region_modules  # noqa: E402

from fusionopt.interpreter.runner import random_inputs  # noqa: E402
from fusionopt.ir_io import parse_file, print_module  # noqa: E402
from fusionopt.iree_tools import run_vmfb, target_flags  # noqa: E402
from fusionopt.registry import iree_flags_of  # noqa: E402
from fusionopt.testing import run_module  # noqa: E402


def region_error(module, work: Path, name: str, flags: list[str], seed: int) -> str | float:
    """max |IREE - interpreter| / max |interpreter| over the region's outputs, or IREE's error."""
    source = work / f"{name}.mlir"
    source.write_text(print_module(module))
    vmfb = work / f"{name}.vmfb"
    if (error := iree_build(source, vmfb, flags)) is not None:
        return "does not build: " + error[:160]
    func = next(op for op in module.body.block.ops if op.name == "func.func")
    inputs = random_inputs(func, seed=seed)
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
    args = parser.parse_args()
    flags = target_flags("llvm-cpu") + (iree_flags_of(args.pipeline) if args.pipeline else [])
    wanted = {int(i) for i in args.regions.split(",")} if args.regions else None
    work = Path(tempfile.mkdtemp(prefix="region_agreement_"))
    print("| region | ops | IREE vs interpreter |\n|---:|---|---|")
    for index, signature, module in region_modules(parse_file(args.formed)):
        if wanted is not None and index not in wanted:
            continue
        error = region_error(module, work, f"region_{index}", flags, args.seed)
        verdict = error if isinstance(error, str) else f"{'BAD' if error > args.rtol else 'ok'} {error:.1e}"
        print(f"| {index} | {signature} | {verdict} |", flush=True)


if __name__ == "__main__":
    main()
