"""A self-contained folder that times the variants on a GPU machine with no network and no Python.

Why a bundle: the GPU machine cannot reach package registries and has no Python packages, but
IREE's runtime tools are plain binaries (libc/libstdc++ only) and CUDA modules build without a
GPU. So this machine builds everything; the GPU machine only runs `run_gpu.sh`
(bench/gpu_timing.sh), the same interleaved protocol as the CPU benchmark, with `--device=cuda`.

Layout of DIR (kept small: weights are arguments, so modules are small; inputs that are one
repeated value become IREE splat arguments `--input=SHAPExTYPE=VALUE` instead of `.npy` files):
  run_gpu.sh                 the protocol (copy of bench/gpu_timing.sh); usage in its header
  bundle_regen.py            remakes a "random" family too large to carry (numpy only; its doc)
  bin/iree-benchmark-module, bin/iree-run-module
  manifest.tsv               model, variant, vmfb (relative), dispatch count, result count
  args/M.FAMILY.args         one `--input=...` per line (paths relative to DIR)
  inputs/M/FAMILY/argN.npy   non-constant arguments (inputs/M/random/regen.json: made there)
  vmfb/M.VARIANT.TARGET.vmfb
  build.txt                  IREE version, target flags, date, families, seed
Back here, `python bench/iree_runtime.py --gpu-results RESULTS_DIR` turns what the script wrote
(results.json, outputs/M/FAMILY/VARIANT.rN.npy) into the timing and agreement tables.
"""

from __future__ import annotations

import datetime
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from bundle_regen import digest, replay
from iree_bench_build import build_variants, dispatch_counts, variant_flags
from iree_bench_inputs import model_inputs, random_draws
from iree_bench_onnx import is_onnx_path

from fusionopt.corpus import model_file
from fusionopt.interpreter import find_entry
from fusionopt.ir_io import parse_file
from fusionopt.iree_tools import iree_version, runtime_tools_dir

TEMPLATE = Path(__file__).resolve().parent / "gpu_timing.sh"
REGEN = Path(__file__).resolve().parent / "bundle_regen.py"
TOOLS = ("iree-benchmark-module", "iree-run-module")
IREE_TYPES = {"float32": "f32", "float16": "f16", "float64": "f64", "int64": "i64", "int32": "i32",
              "int8": "i8", "bool": "i1"}
SIZE_LIMIT_MIB = 60
REGEN_MIB = 8  # a family's non-splat inputs above this are not carried (see write_inputs)


def input_arg(value: np.ndarray, path: Path, bundle: Path) -> str:
    """A splat when every element is equal (no file), else `@file.npy` relative to the bundle."""
    if _is_splat(value):
        shape = "x".join(str(d) for d in value.shape)
        scalar = value.reshape(-1)[0].item()
        text = repr(int(scalar)) if value.dtype.kind in "iub" else repr(float(scalar))
        return f"--input={shape}{'x' if shape else ''}{IREE_TYPES[value.dtype.name]}={text}"
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, value)
    return f"--input=@{path.relative_to(bundle)}"


def write_inputs(bundle: Path, model: str, family: str, seed: int) -> None:
    """args/M.FAMILY.args: splats inline, other arrays as `.npy`. A "random" family too large to
    carry is replayed on the GPU machine (bench/bundle_regen.py); another family that large is
    left out with a note (the script then checks that model on the families it has)."""
    values = model_inputs(model, family, seed)
    folder = bundle / "inputs" / model / family
    carried = sum(v.nbytes for v in values if not _is_splat(v)) / 2**20
    if carried > REGEN_MIB and family == "random" and not is_onnx_path(model):
        lines = _replayed_inputs(values, random_draws(model, seed), folder, bundle)
    elif carried > REGEN_MIB:
        print(f"{model}: family {family} left out of the bundle ({carried:.0f} MiB of inputs)")
        return
    else:
        lines = [input_arg(v, folder / f"arg{i}.npy", bundle) for i, v in enumerate(values)]
    args_file = bundle / "args" / f"{model}.{family}.args"  # a corpus model may be "cnn/NAME"
    args_file.parent.mkdir(parents=True, exist_ok=True)
    args_file.write_text("\n".join(lines) + "\n")


def _is_splat(value: np.ndarray) -> bool:
    flat = value.reshape(-1)
    return bool(flat.size) and bool(np.all(flat == flat[0])) and value.dtype.name in IREE_TYPES


def _replayed_inputs(values: list[np.ndarray], plan: dict, folder: Path, bundle: Path) -> list[str]:
    """`--input=` lines for files the GPU machine makes from `plan`; the plan is checked here
    first: its replay must be `values`, bit for bit."""
    replayed = replay(plan)
    same = len(replayed) == len(values) and all(
        a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        for a, b in zip(replayed, values))
    if not same:
        raise RuntimeError("the random-input plan does not replay model_inputs (bench/iree_bench_inputs.py)")
    lines = []
    for i, (value, spec) in enumerate(zip(values, plan["draws"])):
        if _is_splat(value):
            lines.append(input_arg(value, folder / f"arg{i}.npy", bundle))
            continue
        spec.update(file=f"arg{i}.npy", sha256=digest(value))
        lines.append(f"--input=@{(folder / spec['file']).relative_to(bundle)}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "regen.json").write_text(json.dumps(plan))
    return lines


def copy_tools(bundle: Path) -> None:
    (bundle / "bin").mkdir(parents=True, exist_ok=True)
    for tool in TOOLS:
        shutil.copy2(runtime_tools_dir() / tool, bundle / "bin" / tool)


def bundle_size_mib(bundle: Path) -> float:
    return sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file()) / 2**20


def result_count(model: str) -> int:
    """How many results @main_graph returns (one `--output=` each when the script saves them)."""
    entry = find_entry(parse_file(model_file(model, "args.linalg.mlir")), "main_graph")
    return len(entry.function_type.outputs)


def write_bundle(bundle: Path, models, target: str, variants, families, seed: int) -> float:
    """Build every (model, variant) for `target` into `bundle`; returns its size in MiB."""
    bundle.mkdir(parents=True, exist_ok=True)
    copy_tools(bundle)
    shutil.copy2(TEMPLATE, bundle / "run_gpu.sh")
    shutil.copy2(REGEN, bundle / "bundle_regen.py")
    (bundle / "vmfb").mkdir(exist_ok=True)
    manifest = []
    with tempfile.TemporaryDirectory() as tmp:
        for model in models:
            vmfbs = build_variants(model, target, Path(tmp), variants)
            counts = dispatch_counts(model, target, Path(tmp), variants)
            n_results = result_count(model)
            for variant, path in vmfbs.items():
                dest = bundle / "vmfb" / path.name
                shutil.copyfile(path, dest)
                manifest.append(f"{model}\t{variant}\t{dest.relative_to(bundle)}\t{counts[variant]}\t{n_results}")
            for family in families:
                write_inputs(bundle, model, family, seed)
    (bundle / "manifest.tsv").write_text("\n".join(manifest) + "\n")
    flags = " ".join(variant_flags("iree-default", target))
    (bundle / "build.txt").write_text(
        f"{iree_version()}\ntarget {target}: {flags}\nbuilt {datetime.datetime.now().isoformat(timespec='seconds')}\n"
        f"families {','.join(families)}; seed {seed}; variants {','.join(variants)}\n")
    return bundle_size_mib(bundle)
