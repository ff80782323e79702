"""Build each benchmark variant of a corpus model into an IREE module (bench/iree_runtime.py).

Variants (all from the same corpus model, weights as function arguments):
- `iree-default`: `M.args.linalg.mlir`, IREE's own dispatch formation;
- `iree-best`: the same + IREE's most fusing flags (aggressive fusion, horizontal contractions);
- `ours`: `fusion-opt M.args.linalg.mlir -p dispatch-creation` (IREE keeps our regions);
- `ours-onnx`: `fusion-opt M.args.onnx -p graph-to-dispatch` (the import in-process);
  a model named by an ONNX file path is built as bench/iree_bench_onnx.py says;
- `ours-onnx-no-conv-batching` (not in the default set): the same without
  `graph-horizontal-fuse-convs`, to time what sibling-conv batching alone changes;
- `ours-cuda` (not in the default set): `dispatch-creation-cuda`, the pipeline for IREE's CUDA
  backend; `ours-cuda-k64`: the same with split-K parts of 64 (`chunk=64`);
- `ours-no-conv-forms` (not in the default set): `dispatch-creation` without the 1x1-as-matmul and
  strided-im2col conv forms (the CUDA pipeline's conv half);
- `ours-llvm-cpu`, `ours-onnx-llvm-cpu` (not in the default set; llvm-cpu only: their regions
  carry IREE CPU lowering configs): the CPU pipelines `dispatch-creation-llvm-cpu` and
  `graph-to-dispatch-llvm-cpu` (matmul regions with 4 x 64 register tiles), built with the flags
  their pipeline asks for (`pipeline_flags`: IREE's float-reduction reassociation); `ours-mmt4d`: the
  opt-in `dispatch-matmul-to-mmt4d` after `dispatch-creation`; `ours-mmt4d-tiles`: both passes;
  `ours-llvm-cpu-horizontal`: the CPU pipeline with `linalg-horizontal-fuse-contractions` before
  region formation; `ours-cuda-horizontal` (cuda only): the CUDA pipeline with it before split-K;
- `ours-attention`: `dispatch-creation` with `linalg-raise-attention` (one `iree_linalg_ext.attention`
  per attention block; opt-in: 1.6-2.2x slower per model on llvm-cpu with IREE's tile, timed here for CUDA);
  `ours-llvm-cpu-attention` (llvm-cpu only): the CPU pipeline with it, the attention regions
  given `dispatch-attention-cpu-tiles`' tile; `ours-llvm-cpu-fewest`: the pipeline
  `dispatch-creation-llvm-cpu-fewest` (that with `linalg-horizontal-fuse-contractions` as well and
  NaN guards' reductions of V in the attention dispatches: the fewest dispatches of a CPU build);
  `ours-llvm-cpu-fewest-guards-apart`: the same with those reductions in dispatches of their own;
  `ours-onnx-llvm-cpu-fewest`: `graph-to-dispatch-llvm-cpu-fewest` on the ONNX file;
- `aa`: a byte-identical, separately loaded copy of iree-default: its time ratio to
  iree-default is the run's noise (A/A), the yardstick for every other ratio.
- `iree-dt`, and `V-dt` for any variant V but `aa` (`ours-onnx-llvm-cpu-dt`): iree-default's or
  V's source compiled with IREE's data tiling and ukernels too (`DT_FLAGS`);
- `ours-padded-kxk-off` (not in the default set): `form-dispatch-regions{padded-kxk-min-pixels=0}`,
  stride-1 k x k convs whose result only a pad reads formed by us (a pad copy each), as before;
- `ours-pads-into-gathers` (not in the default set): `form-dispatch-regions{pads-into-gathers=true}`,
  a conv's pad read only by its im2col gather formed into the gather's dispatch (no copy);
- `ours-prep-best` (not in the default set): our linalg preparation (`ours-prep-only`'s passes),
  then IREE's own formation with the best flags: what our preparation adds to IREE's best;
- `ours-im2col-off` (not in the default set): `dispatch-creation` without
  `linalg-strided-conv-to-im2col` (strided k x k convs left as convs), to time what it changes;
Variants for the layer-norm decision (not in the default set; name them with `--variants`):
- `ours-no-chains`: `dispatch-creation` with `form-dispatch-regions{reduction-chains=none}`
  (a layer norm's two reductions in two dispatches);
- `ours-all-chains`: `reduction-chains=all` (softmax's max and sum in one dispatch too);
- `ours-shifted-variance`: the variance from shifted sums in one multi-result reduction
  (`linalg-merge-sibling-reductions{rewrite-variance=true}`, chains off).
Dispatch counts are `flow.dispatch @` call sites after `--compile-to=flow`.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import time
from pathlib import Path

from iree_bench_onnx import LINALG_ONLY, iree_source, is_onnx_path
from iree_bench_variants import ONNX_PIPELINES, OURS_PIPELINES

from fusionopt import registry
from fusionopt.corpus import model_file, model_stem
from fusionopt.iree_tools import IreeError, compile_vmfb, flow_dispatch_names, target_flags
from fusionopt.transforms.dispatch.verify_with_iree import first_error_line

MODELS = ("bert_mini", "gpt2_mini", "mlp_towers", "cnn/resnet_mini", "cnn/mobilenet_mini")
VARIANTS = ("iree-default", "iree-best", "ours", "ours-onnx", "ours-attention", "aa")

BEST_FLAGS = [
    "--iree-dispatch-creation-enable-aggressive-fusion",
    "--iree-dispatch-creation-enable-fuse-horizontal-contractions",
]
EXTRA_FLAGS = {"iree-best": BEST_FLAGS, "ours-prep-best": BEST_FLAGS}
COPY_OF = {"aa": "iree-default"}
# IREE's data tiling and ukernels on top of a build (`V-dt`; `iree-dt` is iree-default's): with
# constant weights the packing into mmt4d tiles is done once at compile time, so it can pay on
# inline-weight models where it did not with weights as arguments.
DT_FLAGS = ["--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all"]
DT_SUFFIX = "-dt"
DT_ALIASES = {"iree-dt": "iree-default"}


def data_tiling_base(variant: str) -> str | None:
    """The variant a data-tiling build compiles with DT_FLAGS added (`iree-dt` -> iree-default,
    `V-dt` -> V), or None for a build without them."""
    if variant in DT_ALIASES:
        return DT_ALIASES[variant]
    return variant.removesuffix(DT_SUFFIX) if variant.endswith(DT_SUFFIX) else None


def source_variant(variant: str) -> str:
    """The variant whose `.mlir` `variant` compiles (aa: iree-default's; `V-dt`: V's)."""
    variant = COPY_OF.get(variant, variant)
    return data_tiling_base(variant) or variant


def is_build_variant(variant: str) -> bool:
    """A name build_variants knows: a variant, pipeline, `aa`, or `V-dt` of one that is no copy."""
    names = {*VARIANTS, *OURS_PIPELINES, *ONNX_PIPELINES}
    base = data_tiling_base(variant)
    return variant in names if base is None else base in names and base not in COPY_OF


def _fusion(cmd: list[str], stdin: str | None = None) -> str:
    result = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}\nexit {result.returncode}:\n{result.stderr[-4000:]}")
    return result.stdout


def variant_source(model: str, variant: str, work_dir: Path) -> Path:
    """The `.mlir` IREE compiles for `variant` (ours: produced once into `work_dir`; a copy
    and a `-dt` build share their base's)."""
    variant = source_variant(variant)
    if is_onnx_path(model):
        return _onnx_variant_source(model, variant, work_dir)
    linalg = model_file(model, "args.linalg.mlir")
    if variant in ("iree-default", "iree-best"):
        return linalg
    out = work_dir / f"{model_stem(model)}.{variant}.mlir"
    if out.is_file():
        return out
    if variant in OURS_PIPELINES:
        text = _fusion(["fusion-opt", str(linalg), "-p", OURS_PIPELINES[variant]])
    elif variant in ONNX_PIPELINES:
        _ours_from_onnx(model_file(model, "args.onnx"), ONNX_PIPELINES[variant], out)
        return out
    else:
        raise ValueError(f"unknown variant {variant!r} (have: "
                         f"{', '.join((*VARIANTS, *OURS_PIPELINES, *ONNX_PIPELINES))})")
    out.write_text(text)
    return out


def _ours_from_onnx(onnx_file: Path, pipeline: str, out: Path) -> None:
    """`fusion-opt M.onnx -p PIPELINE -o OUT`: the import in the same process and the module
    written by fusion-opt itself (the README's command; the same output as `fusion-translate
    --import-onnx | fusion-opt`, without the second process, the printing and re-parsing of
    the weights, or ~100 MB of text piped through this process)."""
    _fusion(["fusion-opt", str(onnx_file), "-p", pipeline, "-o", str(out)])


def _onnx_variant_source(model: str, variant: str, work_dir: Path) -> Path:
    """A model given as an ONNX file (bench/iree_bench_onnx.py): IREE's own import of it is the
    baseline; only `ours-onnx` of ours applies."""
    if variant in ("iree-default", "iree-best"):
        return iree_source(model, work_dir)
    if variant not in ONNX_PIPELINES:
        raise RuntimeError(f"{variant}: {LINALG_ONLY}")
    out = work_dir / f"{model_stem(model)}.{variant}.mlir"
    if not out.is_file():
        _ours_from_onnx(Path(model), ONNX_PIPELINES[variant], out)
    return out


# A variant that cannot apply to a model yet (not a failure): the message that says so.
NOT_APPLICABLE_MARKERS = ("unsupported ONNX op", LINALG_ONLY)


def applicable_variants(model: str, work_dir: Path, variants=VARIANTS) -> tuple[list[str], dict[str, str]]:
    """(variants that apply to `model`, {skipped variant: reason}).

    A variant is skipped, not failed, only when building its source stops at something not
    supported yet (e.g. `ours-onnx` on a CNN before the ONNX importer knows Conv); any other
    failure is raised."""
    work_dir.mkdir(parents=True, exist_ok=True)
    kept: list[str] = []
    skipped: dict[str, str] = {}
    for variant in variants:
        try:
            variant_source(model, variant, work_dir)
        except RuntimeError as err:
            line = next((ln for ln in str(err).splitlines() if any(m in ln for m in NOT_APPLICABLE_MARKERS)), None)
            if line is None:
                raise
            skipped[variant] = line.strip()
            continue
        kept.append(variant)
    return kept, skipped


@functools.cache
def pipeline_flags(variant: str) -> tuple[str, ...]:
    """The iree-compile flags the pipeline of one of our variants asks for (`fusion-opt -p P
    --print-iree-flags`: IREE's float-reduction reassociation for the llvm-cpu pipelines)."""
    spec = OURS_PIPELINES.get(variant) or ONNX_PIPELINES.get(variant)
    if spec is None:
        return ()
    return tuple(registry.iree_flags_of(spec))


def variant_flags(variant: str, target: str) -> list[str]:
    variant = COPY_OF.get(variant, variant)
    base = data_tiling_base(variant)
    own = EXTRA_FLAGS.get(base or variant, []) + list(pipeline_flags(base or variant))
    return target_flags(target) + own + (DT_FLAGS if base else [])


def vmfb_path(model: str, variant: str, target: str, work_dir: Path) -> Path:
    return work_dir / f"{model_stem(model)}.{variant}.{target}.vmfb"


def build_variants(model: str, target: str, work_dir: Path, variants=VARIANTS,
                   seconds: dict[str, float] | None = None, failures: dict[str, str] | None = None
                   ) -> dict[str, Path]:
    """variant -> vmfb for `target` ("llvm-cpu" or "cuda"), built into `work_dir`.

    `aa` is a file copy of iree-default's vmfb when that is built too (a separately loaded
    module with the same code), else compiled the same way. `seconds`, when given, gets each
    compiled variant's `iree-compile` wall time (a copy gets none). `failures`, when given, gets
    the error of each variant `iree-compile` cannot build (an IREE bug in one variant, e.g. its
    data tiling on one model, then drops that variant instead of the whole run).
    """
    work_dir.mkdir(parents=True, exist_ok=True)
    built: dict[str, Path] = {}
    for variant in variants:
        out = vmfb_path(model, variant, target, work_dir)
        original = COPY_OF.get(variant)
        if original in built:
            built[variant] = Path(shutil.copyfile(built[original], out))
            continue
        source = variant_source(model, variant, work_dir)
        start = time.perf_counter()
        try:
            built[variant] = compile_vmfb(source, out, variant_flags(variant, target))
        except IreeError as error:
            if failures is None:
                raise
            failures[variant] = first_error_line(str(error))
            continue
        if seconds is not None:
            seconds[variant] = time.perf_counter() - start
    return built


def dispatch_counts(model: str, target: str, work_dir: Path, variants=VARIANTS) -> dict[str, int]:
    """variant -> number of `flow.dispatch` call sites (aa reuses iree-default's count)."""
    counts: dict[str, int] = {}
    for variant in variants:
        original = COPY_OF.get(variant)
        if original in counts:
            counts[variant] = counts[original]
            continue
        source = variant_source(model, variant, work_dir)
        counts[variant] = len(flow_dispatch_names(source, variant_flags(variant, target)))
    return counts
