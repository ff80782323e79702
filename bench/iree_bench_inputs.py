"""Arguments of a corpus model's `@main_graph` for one input family (bench/iree_runtime.py).

Why families: random N(0, 0.1^2) weights hide numerical bugs that real or adversarial values
expose (every float input 0.01 made our bert build return NaN where IREE gave 0.00896; every
float input 1000.5 made gpt2 NaN where IREE gave 2001). The families come from
`fusionopt.interpreter.input_families` (`FAMILIES`, `family_values(shape, dtype, family, rng,
int_range)`); without that module only "random" exists (same values as the old benchmark).

Per argument, in `M.build.json` order (model inputs, then `initializers_moved_to_inputs`):
- `input_ids` (any integer input): the family's integers in [0, 1024), clipped there (an
  out-of-range gather index is undefined, so builds may legitimately differ on it);
- `attention_mask`: ones for "random" (as the models are exported), else the family's value
  clamped to {0, 1};
- float model inputs: the family's raw values ("random": N(0, 1));
- weights: "random" scaled by 0.1 (N(0, 0.1^2), the old benchmark's weights), otherwise the
  family's raw values; BatchNorm variances (`*.running_var`, in models that keep
  BatchNormalization) take their absolute value, since a negative variance is NaN in every build.
"""

from __future__ import annotations

import json

import numpy as np

from iree_bench_onnx import is_onnx_path, onnx_inputs

from fusionopt.corpus import model_file

VOCAB = 1024
WEIGHT_STD = 0.1
MASK = "attention_mask"
VARIANCE = ".running_var"

try:
    from fusionopt.interpreter.input_families import FAMILIES, family_values
except ImportError:  # the module is new; until it lands only "random" is available
    FAMILIES = ("random",)

    def family_values(shape, dtype, family, rng, int_range):
        """Fallback: "random" only (N(0,1) floats, uniform integers in [lo, hi))."""
        if family != "random":
            raise ValueError(f"input family {family!r} needs fusionopt.interpreter.input_families")
        dtype = np.dtype(dtype)
        if np.issubdtype(dtype, np.floating):
            return rng.standard_normal(size=shape).astype(dtype)
        return rng.integers(int_range[0], int_range[1], size=shape, dtype=np.int64).astype(dtype)


def build_info(model: str) -> dict:
    return json.loads(model_file(model, "build.json").read_text())


def _model_input(name: str, shape: list[int], dtype: np.dtype, family: str, rng) -> np.ndarray:
    if name == MASK:
        if family == "random":
            return np.ones(shape, dtype=dtype)
        return np.clip(family_values(shape, dtype, family, rng, (0, 2)), 0, 1).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        values = family_values(shape, dtype, family, rng, (0, VOCAB))
        return np.clip(values, 0, VOCAB - 1).astype(dtype)
    return np.asarray(family_values(shape, dtype, family, rng, (0, VOCAB))).astype(dtype)


def _weight(name: str, shape: list[int], dtype: np.dtype, family: str, rng) -> np.ndarray:
    values = np.asarray(family_values(shape, dtype, family, rng, (0, VOCAB)))
    if family == "random":
        values = WEIGHT_STD * values
    if name.endswith(VARIANCE):
        values = np.abs(values)
    return values.astype(dtype)


def model_inputs(model: str, family: str = "random", seed: int = 0) -> list[np.ndarray]:
    """Arguments of @main_graph in `M.build.json` order (model inputs, then weights); for an
    ONNX file path, in its graph-input order (bench/iree_bench_onnx.py)."""
    if is_onnx_path(model):
        return onnx_inputs(model, family, seed, _model_input, _weight)
    build = build_info(model)
    rng = np.random.default_rng(seed)
    values = []
    for name, (shape, torch_dtype) in build["inputs"].items():
        values.append(_model_input(name, shape, np.dtype(torch_dtype.removeprefix("torch.")), family, rng))
    for _, name, shape, dtype in build["initializers_moved_to_inputs"]:
        values.append(_weight(name, shape, np.dtype(dtype), family, rng))
    return values


def random_draws(model: str, seed: int = 0) -> dict:
    """What `model_inputs(model, "random", seed)` draws, argument by argument, as a plan that
    bench/bundle_regen.py replays with numpy alone ({"seed", "draws": [{kind, shape, dtype,
    low/high, clip, scale, abs}]}); the bundle writer checks the replay against model_inputs."""
    build = build_info(model)
    draws = []
    for name, (shape, torch_dtype) in build["inputs"].items():
        dtype = np.dtype(torch_dtype.removeprefix("torch."))
        if name == MASK:
            draws.append({"kind": "ones"})
        elif np.issubdtype(dtype, np.integer):
            draws.append({"kind": "integers", "low": 0, "high": VOCAB, "clip": [0, VOCAB - 1]})
        else:
            draws.append(_plain_draw(dtype))
        draws[-1].update(shape=list(shape), dtype=dtype.str)
    for _, name, shape, dtype in build["initializers_moved_to_inputs"]:
        spec = _plain_draw(np.dtype(dtype)) | {"scale": WEIGHT_STD, "abs": name.endswith(VARIANCE)}
        draws.append(spec | {"shape": list(shape), "dtype": np.dtype(dtype).str})
    return {"seed": seed, "draws": draws}


def _plain_draw(dtype: np.dtype) -> dict:
    """family_values' "random" draw for `dtype`: N(0,1) floats, integers in [0, VOCAB), bits."""
    if dtype == np.bool_:
        return {"kind": "integers", "low": 0, "high": 2}
    if np.issubdtype(dtype, np.integer):
        return {"kind": "integers", "low": 0, "high": VOCAB}
    return {"kind": "normal"}
