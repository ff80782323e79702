"""`fusion-run`: execute a module with numpy, save or compare its results.

    fusion-run FILE [--entry NAME] [--inputs FAMILY|IN.npz] [--seed N] [--int-range LO,HI]
               [--dynamic-size N]
               [--reference f64 | --float64] [--save OUT.npz]
               [--compare OTHER.mlir [--families F1,F2,...]] [--rtol R] [--atol A]

Inputs: an input family by argument type (`?` dimensions of size --dynamic-size, default 4;
default family `random`: floats ~ N(0,1), integers in
--int-range [0,16) by default, i1 random bits; the adversarial families are constant, offset,
zeros, extreme, mask and ids-edge, see fusionopt/interpreter/input_families.py), or IN.npz with
keys `arg0, arg1, ...` (or the IR's argument names). `--reference f64` (or `--float64`) runs
FILE with every float type computed in float64 (constants and inputs rounded to their declared
type first). `--save` writes `result0, result1, ...` (of the first input set).

`--compare OTHER.mlir` runs OTHER.mlir on the same inputs, once per family of `--families`
(default: the --inputs family), and prints for each family and result how they compare; the
exit code is 0 when every result passes, else 1.
- Without --reference: FILE's results are the expected ones, `|other - this| <= atol +
  rtol*|this|` elementwise; each line says which term held (rel, abs or abs+rel) and both
  tolerances.
- With --reference f64: OTHER (e.g. the output of a pass) is judged against the float64 run of
  FILE: it passes "within tolerance of the f64 reference" (`|other - ref| <= rtol*|ref| + atol`,
  atol = rtol * max|ref|) or "no worse than the input program's own error" (`max|other - ref| <= 4
  * max|this - ref| + atol`, FILE's error also taken on its inputs one ulp off: the rounding noise
  a reordered sum may add where FILE's own order was exact by luck), and fails wherever it is
  NaN/inf where FILE is finite. Each line names the criterion that held and the tolerances; --atol
  is not used (the scale is the result's).
"""

from __future__ import annotations

import os

# The interpreter's matmuls are small (e.g. 64x128x128); a multithreaded BLAS spends more time
# synchronising than computing, and on a loaded 2-core machine one matmul took 65 ms instead of
# 0.05 ms. One thread unless the user chose otherwise (must be set before numpy loads BLAS).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import io  # noqa: E402
import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402

import numpy as np  # noqa: E402

from fusionopt.cli import ToolArgumentParser, run_tool  # noqa: E402
from fusionopt.diagnostics import FusionError, location_of  # noqa: E402
from fusionopt.interpreter import FAMILIES, family_inputs, find_entry, run_function  # noqa: E402
from fusionopt.interpreter.input_families import DEFAULT_DYNAMIC_SIZE, largest_float, nudged  # noqa: E402
from fusionopt.interpreter.values import is_bf16_dtype, storage_dtype  # noqa: E402
from fusionopt.progress import progress_stream  # noqa: E402
from fusionopt.interpreter.compare import (  # noqa: E402
    DEFAULT_ATOL,
    DEFAULT_RTOL,
    diff_results,
    judge_against_reference,
)
from fusionopt.ir_io import parse_file  # noqa: E402
from fusionopt.output_file import OutputFile  # noqa: E402


def _int_range(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LO,HI (two integers), got '{text}'") from None
    if lo >= hi:
        raise argparse.ArgumentTypeError(f"empty range [{lo}, {hi})")
    return lo, hi


def _families(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in FAMILIES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown input families {unknown} (have: {', '.join(FAMILIES)})")
    return names


def build_parser() -> ToolArgumentParser:
    p = ToolArgumentParser(prog="fusion-run", description="Execute an MLIR module with numpy.")
    p.add_argument("file", help="input .mlir file, or - for stdin")
    p.add_argument("--entry", help="function to run (default: the only public one, else main/main_graph)")
    p.add_argument("--inputs", default="random", metavar="FAMILY|IN.npz",
                   help=f"an input family ({', '.join(FAMILIES)}; default random) or an .npz with arg0, arg1, ...")
    p.add_argument("--seed", type=int, default=0, help="seed for random inputs (default 0)")
    p.add_argument("--int-range", type=_int_range, default=(0, 16), metavar="LO,HI",
                   help="random integer inputs are drawn from [LO, HI) (default 0,16)")
    p.add_argument("--dynamic-size", type=int, default=DEFAULT_DYNAMIC_SIZE, metavar="N",
                   help=f"size of every dynamic (?) dimension of made-up inputs (default {DEFAULT_DYNAMIC_SIZE}); "
                   "an IN.npz's arrays bind the ? dimensions themselves")
    p.add_argument("--reference", choices=["f64"], help="f64: compute every float type in float64 (with "
                   "--compare: judge OTHER against FILE's float64 run)")
    p.add_argument("--float64", dest="reference", action="store_const", const="f64", help="same as --reference f64")
    p.add_argument("--save", metavar="OUT.npz", help="write results as result0, result1, ...")
    p.add_argument("--compare", metavar="OTHER.mlir", help="run OTHER.mlir on the same inputs and compare")
    p.add_argument("--families", type=_families, metavar="F1,F2,...",
                   help="input families to compare on (default: the --inputs family)")
    p.add_argument("--rtol", type=float, default=DEFAULT_RTOL, help=f"relative tolerance (default {DEFAULT_RTOL})")
    p.add_argument("--atol", type=float, default=DEFAULT_ATOL,
                   help=f"absolute tolerance without --reference (default {DEFAULT_ATOL})")
    return p


def load_inputs(path: str, func_op) -> list[np.ndarray]:
    """Arguments from an .npz: key `argI`, else the argument's name in the IR. Errors point at
    the entry function; entries that feed no argument (likely typos) get a warning."""
    try:
        archive = np.load(path)
        if not hasattr(archive, "files"):
            raise ValueError("not an .npz archive (use numpy.savez)")
    except (OSError, ValueError) as err:
        raise FusionError(f"could not read inputs '{path}': {err}") from None
    values, used = [], set()
    for i, arg in enumerate(func_op.body.blocks.first.args):
        keys = [f"arg{i}"] + ([arg.name_hint] if arg.name_hint else [])
        key = next((k for k in keys if k in archive.files), None)
        if key is None:
            raise FusionError(f"'{path}' has no entry for argument {i} (looked for {', '.join(keys)})",
                              location_of(func_op))
        try:
            values.append(_bf16_from_voids(archive[key], arg.type))
        except ValueError as err:  # e.g. an object array, which would need pickle
            raise FusionError(f"could not read entry '{key}' of '{path}': {err}") from None
        used.add(key)
    unused = sorted(set(archive.files) - used)
    if unused:
        print(f"warning: '{path}' entries used by no argument: {', '.join(unused)}", file=sys.stderr)
    return values


def _bf16_from_voids(value: np.ndarray, arg_type) -> np.ndarray:
    """numpy.savez stores an ml_dtypes bf16 array as 2-byte voids (numpy has no bf16); for a bf16
    argument those bytes are its values."""
    if value.dtype.kind != "V" or value.dtype.itemsize != 2:
        return value
    dtype = storage_dtype(arg_type)
    return value.view(dtype) if is_bf16_dtype(dtype) else value


def _portable(value: np.ndarray) -> np.ndarray:
    """bf16 (an ml_dtypes extension type) would be stored as opaque 2-byte voids that plain numpy
    cannot read back; float32 holds every bf16 value exactly."""
    return value.astype(np.float32) if value.dtype.kind == "V" or value.dtype.name == "bfloat16" else value


def save_results(path: str | OutputFile, results: list[np.ndarray]) -> None:
    """`result0, result1, ...` in an .npz (bf16 widened to float32, exactly), written to
    exactly `path` by the rules of `fusionopt.output_file` (`-` is stdout; FIFOs, devices and
    symlink targets are written into; regular files are replaced atomically)."""
    output = path if isinstance(path, OutputFile) else OutputFile(path)
    buffer = io.BytesIO()
    np.savez(buffer, **{f"result{i}": _portable(r) for i, r in enumerate(results)})
    output.commit(buffer.getvalue())


def _summary(index: int, value: np.ndarray) -> str:
    shape = "x".join(map(str, value.shape)) or "scalar"
    if value.size == 0:
        return f"result{index}: {shape} {value.dtype} (empty)"
    as_float = value.astype(np.float64)
    return (f"result{index}: {shape} {value.dtype} min={as_float.min():.6g} max={as_float.max():.6g} "
            f"mean={as_float.mean():.6g}")


def _input_sets(args: argparse.Namespace, func_op) -> list[tuple[str, list[np.ndarray]]]:
    """(label, inputs) per input set: each --families family, else --inputs (family or .npz)."""
    if args.inputs not in FAMILIES:
        if args.families:
            raise FusionError("--families makes its own inputs; it cannot be combined with --inputs IN.npz")
        return [(args.inputs, load_inputs(args.inputs, func_op))]
    return [(f"{family} (seed {args.seed})", family_inputs(func_op, family, args.seed, args.int_range,
                                                                 dynamic_size=args.dynamic_size))
            for family in args.families or [args.inputs]]


def _compare(args: argparse.Namespace, module, func_op, other, inputs, results) -> list:
    """OTHER's results against FILE's: by allclose, or judged against FILE's float64 run."""
    expected = run_function(other, inputs, find_entry(other, args.entry))
    if args.reference != "f64":
        return diff_results(results, expected, args.rtol, args.atol)
    reference = run_function(module, inputs, func_op, float64=True)
    noise = run_function(module, nudged(inputs, args.seed), func_op)
    return judge_against_reference(expected, results, reference, args.rtol,
                                   nudged=noise, noise_scale=largest_float(inputs))


def run(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    module = parse_file(args.file)
    func_op = find_entry(module, args.entry)
    other = parse_file(args.compare) if args.compare else None
    input_sets = _input_sets(args, func_op)
    save = OutputFile(args.save) if args.save else None  # unwritable: fail before running
    try:
        return _run_sets(args, module, func_op, other, input_sets, save)
    finally:
        if save is not None:
            save.discard()


def _run_sets(args, module, func_op, other, input_sets, save: OutputFile | None) -> int:
    ok = True
    for i, (label, inputs) in enumerate(input_sets):
        # with --compare, FILE runs in its own precision: its float64 run is the reference
        results = run_function(module, inputs, func_op, float64=args.reference == "f64" and other is None,
                               progress=progress_stream())
        if save is not None and i == 0:
            save_results(save, results)
        if other is None:
            if len(input_sets) > 1:
                print(f"inputs: {label}")
            for j, r in enumerate(results):
                print(_summary(j, r))
            continue
        print(f"inputs: {label}")
        verdicts = _compare(args, module, func_op, other, inputs, results)
        for v in verdicts:
            print(v.describe())
        ok = ok and all(v.ok for v in verdicts)
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Exit codes as every tool (fusionopt/cli.py): 0 ok, 1 user error or a failed
    comparison, 2 internal error."""
    sys.exit(run_tool("fusion-run", lambda: run(argv)))


if __name__ == "__main__":
    main()
