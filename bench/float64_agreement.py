"""How far onnxruntime and IREE builds of an ONNX model are from a float64 run of it.

    python bench/float64_agreement.py M.inline.onnx [BUILD.vmfb ...] [--families offset,random]
        [--seed 0]

The reference is the numpy interpreter's float64 run of the model as fusionopt imports it (every
op computed in float64 from the float32 inputs and weights); next to it, the interpreter's own
float32 run (numpy's pairwise sums), onnxruntime (all graph optimisations) and each IREE module
(`iree-run-module` through `iree.runtime`, entry `main_graph`, one thread). Each figure is
max |output - float64| / max |float64| over the first output, per input family
(`bench/heldout_models.image_inputs`: the offset family is 1000.5 + 0.01 N(0, 1)). Builds come
from `bench/heldout_models.py --keep DIR` (its `*.vmfb`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort

sys.path.insert(0, str(Path(__file__).resolve().parent))

from heldout_models import image_inputs  # noqa: E402

from fusionopt.importers.onnx_import import import_onnx  # noqa: E402
from fusionopt.interpreter import find_entry, run_function  # noqa: E402
from fusionopt.iree_tools import run_vmfb  # noqa: E402


def relative_error(got: np.ndarray, reference: np.ndarray) -> float:
    return float(np.max(np.abs(got.astype(np.float64) - reference)) / max(np.max(np.abs(reference)), 1e-300))


def errors(model: Path, builds: list[Path], family: str, seed: int) -> dict[str, float]:
    """Each run's relative error against the float64 run, by name."""
    inputs = image_inputs(model, family, seed)
    module = import_onnx(onnx.load(str(model)))
    entry = find_entry(module)
    args = list(inputs.values())
    reference = np.asarray(run_function(module, args, entry, float64=True)[0])
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    found = {"float32 interpreter": relative_error(np.asarray(run_function(module, args, entry)[0]), reference),
             "onnxruntime": relative_error(session.run(None, inputs)[0], reference)}
    for build in builds:
        found[build.name] = relative_error(run_vmfb(build, args, "main_graph")[0], reference)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("builds", nargs="*", type=Path)
    parser.add_argument("--families", default="offset,random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print("| family | run | max abs error / max abs float64 |\n|---|---|---:|")
    for family in args.families.split(","):
        for name, error in errors(args.model, args.builds, family, args.seed).items():
            print(f"| {family} | {name} | {error:.2e} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
