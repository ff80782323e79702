"""Recreate a GPU bundle's large random inputs on the GPU machine, with numpy alone.

Why: the device tool carries 64 MiB in all, and the random weights of minilm_l6 or resnet18 are
43 MiB each as `.npy`. The "random" family is one seeded generator's draws, so the bundle ships
the list of draws (`inputs/M/random/regen.json`, written by bench/iree_bench_gpu.py after it has
checked here that replaying the list gives `model_inputs(M, "random", seed)` bit for bit) and the
GPU machine replays it. Each array's sha256 (dtype, shape and bytes) recorded here is checked
there, so a numpy whose generator differs stops the run instead of timing other numbers.

    python3 bundle_regen.py BUNDLE     # every inputs/**/regen.json under BUNDLE; exit 1 on a mismatch

Only numpy: the GPU machine has no fusionopt, xDSL or IREE Python packages.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np


def draw(rng: np.random.Generator, spec: dict) -> np.ndarray:
    """One argument, made by exactly the operations bench/iree_bench_inputs.py applies."""
    dtype, shape = np.dtype(spec["dtype"]), tuple(spec["shape"])
    kind = spec["kind"]
    if kind == "ones":
        return np.ones(shape, dtype=dtype)
    if kind == "integers":
        value = rng.integers(spec["low"], spec["high"], size=shape).astype(dtype)
    elif kind == "normal":
        value = rng.standard_normal(size=shape).astype(dtype)
    else:
        raise ValueError(f"unknown draw kind {kind!r}")
    if "clip" in spec:
        value = np.clip(value, *spec["clip"]).astype(dtype)
    if "scale" in spec:
        value = spec["scale"] * value
    if spec.get("abs"):
        value = np.abs(value)
    return value.astype(dtype)


def replay(plan: dict) -> list[np.ndarray]:
    """Every argument of `plan` ({"seed", "draws"}), in order, from one generator."""
    rng = np.random.default_rng(plan["seed"])
    return [draw(rng, spec) for spec in plan["draws"]]


def digest(value: np.ndarray) -> str:
    header = f"{value.dtype.str}{value.shape}".encode()
    return hashlib.sha256(header + np.ascontiguousarray(value).tobytes()).hexdigest()


def regenerate(plan_file: Path) -> list[str]:
    """Write the plan's files next to it; returns the mismatches (empty when all agree)."""
    plan = json.loads(plan_file.read_text())
    bad = []
    for spec, value in zip(plan["draws"], replay(plan)):
        if spec.get("file") is None:
            continue
        if digest(value) != spec["sha256"]:
            bad.append(f"{plan_file.parent}/{spec['file']}: numpy {np.__version__} draws other numbers")
            continue
        np.save(plan_file.parent / spec["file"], value)
    return bad


def main(argv: list[str]) -> int:
    bundle = Path(argv[1] if len(argv) > 1 else ".")
    bad = [line for plan in sorted(bundle.glob("inputs/**/regen.json")) for line in regenerate(plan)]
    for line in bad:
        print(f"bundle_regen: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
