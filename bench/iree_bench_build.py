"""Build each benchmark variant of a corpus model into an IREE module (bench/iree_runtime.py).

Variants (all from the same corpus model, weights as function arguments):
- `iree-default`: `M.args.linalg.mlir`, IREE's own dispatch formation;
- `iree-best`: the same + IREE's most fusing flags (aggressive fusion, horizontal contractions);
- `ours`: `fusion-opt M.args.linalg.mlir -p dispatch-creation` (IREE keeps our regions);
- `ours-onnx`: `fusion-translate --import-onnx M.args.onnx | fusion-opt -p graph-to-dispatch`;
  a model named by an ONNX file path is built as bench/iree_bench_onnx.py says;
- `ours-onnx-no-conv-batching` (not in the default set): the same without
  `graph-horizontal-fuse-convs`, to time what sibling-conv batching alone changes;
- `ours-cuda` (not in the default set): `dispatch-creation-cuda`, the pipeline for IREE's CUDA
  backend; `ours-cuda-k64`: the same with split-K parts of 64 (`chunk=64`);
- `ours-no-conv-forms` (not in the default set): `dispatch-creation` without the 1x1-as-matmul and
  strided-im2col conv forms (the CUDA pipeline's conv half);
- `ours-llvm-cpu`, `ours-onnx-llvm-cpu` (not in the default set; llvm-cpu only: their regions
  carry IREE CPU lowering configs): the CPU pipelines `dispatch-creation-llvm-cpu` and
  `graph-to-dispatch-llvm-cpu` (matmul regions with 4 x 64 register tiles); `ours-mmt4d`: the
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

import shutil
import subprocess
import time
from pathlib import Path

from iree_bench_onnx import LINALG_ONLY, iree_source, is_onnx_path

from fusionopt.corpus import model_file, model_stem
from fusionopt.iree_tools import compile_vmfb, flow_dispatch_names, target_flags

MODELS = ("bert_mini", "gpt2_mini", "mlp_towers", "cnn/resnet_mini", "cnn/mobilenet_mini")
VARIANTS = ("iree-default", "iree-best", "ours", "ours-onnx", "ours-attention", "aa")


def _pipeline_with(pipeline: str, **replacements: str) -> str:
    """A named pipeline's passes with some replaced (keyword: the pass as written, `-` as `_`);
    "" drops the pass."""
    from fusionopt.registry import PIPELINES

    passes = PIPELINES[pipeline].spec.split(",")
    return ",".join(p for p in (replacements.get(p.replace("-", "_"), p) for p in passes) if p)


def _expanded_with(pipeline: str, **replacements: str) -> str:
    """A named pipeline with every nested pipeline name expanded to its passes, some replaced
    as in `_pipeline_with` (a pass inside `graph-to-dispatch`'s `dispatch-creation` too)."""
    from fusionopt.registry import PIPELINES

    def passes(spec: str) -> list[str]:
        return [q for p in spec.split(",") for q in (passes(PIPELINES[p].spec) if p in PIPELINES else [p])]

    chosen = (replacements.get(p.replace("-", "_"), p) for p in passes(PIPELINES[pipeline].spec))
    return ",".join(p for p in chosen if p)


def _fewest_with(option: str, replacement: str) -> str:
    """`dispatch-creation-llvm-cpu-fewest`'s passes with one option text replaced (it must be
    there: a variant identical to the pipeline would time nothing)."""
    spec = _pipeline_with("dispatch-creation-llvm-cpu-fewest")
    if option not in spec:
        raise ValueError(f"{option!r} is not in dispatch-creation-llvm-cpu-fewest")
    return spec.replace(option, replacement)


def _dispatch_creation(**replacements: str) -> str:
    """`dispatch-creation`'s passes with some of them given options or dropped."""
    return _pipeline_with("dispatch-creation", **replacements)


OURS_PIPELINES = {
    "ours": "dispatch-creation",
    "ours-no-chains": _dispatch_creation(form_dispatch_regions="form-dispatch-regions{reduction-chains=none}"),
    "ours-all-chains": _dispatch_creation(form_dispatch_regions="form-dispatch-regions{reduction-chains=all}"),
    "ours-shifted-variance": _dispatch_creation(
        linalg_merge_sibling_reductions="linalg-merge-sibling-reductions{rewrite-variance=true}",
        form_dispatch_regions="form-dispatch-regions{reduction-chains=none}",
    ),
    # dispatch-creation without folding constant gather indices (what that pass changes)
    "ours-no-gather-fold": _dispatch_creation(linalg_fold_constant_gather_indices=""),
    # dispatch-creation with attention's K copied to row-major [heads, dim, keys] (opt-in pass)
    "ours-nt": _dispatch_creation(
        linalg_fold_transpose_into_matmul="linalg-fold-transpose-into-matmul,linalg-transpose-nt-operands",
    ),
    # depthwise convs kept as 4-D named ops (no rank-3 rewrite), or all of them rank-3
    "ours-dw4": _dispatch_creation(linalg_depthwise_conv_drop_batch=""),
    "ours-dw3-all": _dispatch_creation(
        linalg_depthwise_conv_drop_batch="linalg-depthwise-conv-drop-batch{min-pixels=1}"
    ),
    # padded 1x1 convs formed by us too (no hand-over to IREE's formation)
    "ours-padded-ours": _dispatch_creation(
        linalg_conv_1x1_to_matmul="linalg-conv-1x1-to-matmul{padded-min-pixels=0}",
        form_dispatch_regions="form-dispatch-regions{padded-min-pixels=0}",
    ),
    # stride-1 k x k convs whose result only a pad reads formed by us (the default leaves them
    # to IREE, which writes the pad in the conv's dispatch: no copy)
    "ours-padded-kxk-off": _dispatch_creation(
        form_dispatch_regions="form-dispatch-regions{padded-kxk-min-pixels=0}",
    ),
    # a conv's pad read only by its im2col gather formed into the gather's dispatch (no copy)
    "ours-pads-into-gathers": _dispatch_creation(
        form_dispatch_regions="form-dispatch-regions{pads-into-gathers=true}",
    ),
    # 1x1 convolutions left as convs, or all of them (strided too) as matmuls
    "ours-conv1x1-off": _dispatch_creation(linalg_conv_1x1_to_matmul=""),
    "ours-conv1x1-all": _dispatch_creation(
        linalg_conv_1x1_to_matmul="linalg-conv-1x1-to-matmul{min-channels=1 max-filters=100000 strided=true padded-min-pixels=0}"
    ),
    # 1x1 convs with over 512 filters left as convs (the default before max-filters=1024:
    # mobilenet_v3_small's 576-filter convs then stay conv roots and their pads copies)
    "ours-conv1x1-512": _dispatch_creation(
        linalg_conv_1x1_to_matmul="linalg-conv-1x1-to-matmul{max-filters=512}"),
    # stride-1 k x k convs left as convs (the default before stride-one=true)
    "ours-im2col-stride-one-off": _dispatch_creation(
        linalg_strided_conv_to_im2col="linalg-strided-conv-to-im2col{stride-one=false}"),
    # stride-1 k x k convs left NCHW (the default before linalg-conv-channels-last: im2col)
    "ours-channels-last-off": _dispatch_creation(linalg_conv_channels_last=""),
    # every 1x1 conv channels last, those under 64 output pixels reading their filter in place
    "ours-channels-last-nt": _dispatch_creation(
        linalg_conv_channels_last="linalg-conv-channels-last{min-pixels-1x1=1 nt-1x1-max-pixels=63}"),
    # 1x1 convs channels last from 32 output pixels, as k x k ones (the default is 16)
    "ours-channels-last-1x1-32": _dispatch_creation(
        linalg_conv_channels_last="linalg-conv-channels-last{min-pixels-1x1=32}"),
    # convs left as IREE's conv named ops: neither 1x1-as-matmul nor strided im2col (both
    # chosen by llvm-cpu timings; the CUDA candidate)
    "ours-no-conv-forms": _dispatch_creation(
        linalg_conv_1x1_to_matmul="", linalg_strided_conv_to_im2col="", linalg_conv_channels_last=""),
    # strided k x k convs left as convs (the pipeline before linalg-strided-conv-to-im2col)
    "ours-im2col-off": _dispatch_creation(linalg_strided_conv_to_im2col=""),
    # the linalg preparation only: IREE forms the dispatches (what our region formation adds)
    "ours-prep-only": _dispatch_creation(form_dispatch_regions="", cse="", canonicalize=""),
    # the same preparation, then IREE's formation with its most fusing flags (EXTRA_FLAGS)
    "ours-prep-best": _dispatch_creation(form_dispatch_regions="", cse="", canonicalize=""),
    # dispatch-creation + wide matmul regions over weight arguments as pack + batch_mmt4d
    # (llvm-cpu only: the regions carry an IREE CPU lowering config)
    "ours-mmt4d": "dispatch-creation,dispatch-matmul-to-mmt4d",
    # the llvm-cpu pipeline: dispatch-creation + IREE CPU register tiles on the matmul regions
    "ours-llvm-cpu": "dispatch-creation-llvm-cpu",
    # grouped convs' bias broadcasts split by an expand_shape left as they are (a dispatch each)
    "ours-llvm-cpu-expanded-broadcasts": _dispatch_creation(linalg_bubble_expand_through_broadcast="")
    + ",dispatch-matmul-cpu-tiles,dispatch-attention-cpu-tiles",
    "ours-llvm-cpu-fewest-expanded-broadcasts": _pipeline_with("dispatch-creation-llvm-cpu-fewest",
                                                               linalg_bubble_expand_through_broadcast=""),
    # the llvm-cpu pipeline with sibling matmuls of one activation (Q, K, V) fused first
    "ours-llvm-cpu-horizontal": _dispatch_creation(
        form_dispatch_regions="linalg-horizontal-fuse-contractions,form-dispatch-regions") + ",dispatch-matmul-cpu-tiles",
    # the CUDA pipeline with the same horizontal fusion, before split-K (which then leaves the
    # fused Q, K, V unsplit), for a GPU session: IREE's own horizontal contraction is what makes
    # its best flags fast on CUDA
    "ours-cuda-horizontal": _pipeline_with(
        "dispatch-creation-cuda",
        linalg_split_k_contractions="linalg-horizontal-fuse-contractions,linalg-split-k-contractions"),
    # both llvm-cpu matmul passes: wide matmuls packed (mmt4d), the others given register tiles
    "ours-mmt4d-tiles": "dispatch-creation,dispatch-matmul-to-mmt4d,dispatch-matmul-cpu-tiles",
    # the CUDA pipeline (convs as convs, attention raised, split-K contractions), and with
    # longer split-K chunks
    "ours-cuda": "dispatch-creation-cuda",
    # the CUDA pipeline raising torch's NaN-guarded softmaxes too (minilm_l6's attention)
    "ours-cuda-nan-guards": _pipeline_with("dispatch-creation-cuda").replace(
        "linalg-raise-attention{nan-guards=false}", "linalg-raise-attention"),
    "ours-cuda-k64": _pipeline_with(
        "dispatch-creation-cuda", linalg_split_k_contractions="linalg-split-k-contractions{chunk=64}"),
    # dispatch-creation with pads after contraction regions left as copies (what padded-results changes)
    "ours-padded-results-off": _dispatch_creation(
        form_dispatch_regions="form-dispatch-regions{padded-results=0}"),
    # dispatch-creation with every strided conv as the gather + matmul (no im2col op)
    "ours-im2col-op-off": _dispatch_creation(
        linalg_strided_conv_to_im2col="linalg-strided-conv-to-im2col{im2col-op=false}"),
    "ours-padded-results-all": _dispatch_creation(
        form_dispatch_regions="form-dispatch-regions{padded-results=1000000000}"),
    # dispatch-creation with attention raised to iree_linalg_ext.attention (opt-in pass)
    "ours-attention": _dispatch_creation(
        linalg_merge_sibling_reductions="linalg-merge-sibling-reductions,linalg-raise-attention",
    ),
    # the llvm-cpu pipeline with attention raised: each attention region one dispatch, with the
    # CPU attention tile of dispatch-attention-cpu-tiles
    "ours-llvm-cpu-attention": _dispatch_creation(
        linalg_merge_sibling_reductions="linalg-merge-sibling-reductions,linalg-raise-attention",
    ) + ",dispatch-matmul-cpu-tiles,dispatch-attention-cpu-tiles",
    # the fewest dispatches the CPU pipeline can make: attention raised (a NaN guard's reduction
    # of V in the attention's dispatch) and Q, K, V fused as well
    "ours-llvm-cpu-fewest": "dispatch-creation-llvm-cpu-fewest",
    # the fewest build with the NaN guard's reduction over V in a dispatch of its own (what
    # form-dispatch-regions{guards-into-attention} changes)
    "ours-llvm-cpu-fewest-guards-apart": _fewest_with("guards-into-attention=true ", ""),
    # the fewest build with strided convs of over 32 filters or 144 taps, or a pixel count not
    # a power of two, left IREE's conv (one dispatch) instead of the im2col op in a matmul's
    # dispatch or gather + matmul
    "ours-llvm-cpu-fewest-strided-convs": _fewest_with(
        "gathers=strided im2col-op-max-filters=1024 im2col-op-max-taps=4608", "gathers=none"),
    # the fewest build with stride-1 k x k convs left convs (the im2col op for strided ones only)
    "ours-llvm-cpu-fewest-stride-one-off": _fewest_with("gathers=strided", "stride-one=false"),
    # the fewest build with the image's pad a copy (not the stem's im2col op's input padding)
    "ours-llvm-cpu-fewest-argument-pads-copied": _fewest_with(" absorb-argument-pads=true", ""),
    # the fewest build with a pad read by others too copied (regions write only pads that are
    # their result's only reader)
    "ours-llvm-cpu-fewest-shared-pads-copied": _fewest_with(" padded-shared-results=true", ""),
    # the fewest build with the pad of a concat in front of a max pool a copy (its parts'
    # regions store into the concat buffer only)
    "ours-llvm-cpu-fewest-concat-pads-copied": _fewest_with(" padded-concats=true", ""),
    # the fewest build with the pad of a max pool's result the next conv's im2col op's input
    # padding (no copy; the fewest build copies it)
    "ours-llvm-cpu-fewest-pool-pads-absorbed": _fewest_with(
        "absorb-argument-pads=true", "absorb-argument-pads=true absorb-pool-pads=true"),
    # the fewest build with the pad of a pool's result that a small pool reads a copy (not in
    # that pool's region)
    "ours-llvm-cpu-fewest-pool-pads-copied": _fewest_with(" pads-into-pools=64", ""),
    # the fewest build with sibling 1x1 convs over one input apart (an Inception block's 1x1
    # branch and reductions: one dispatch each, the padded ones formed by IREE)
    "ours-llvm-cpu-fewest-1x1-siblings-apart": _fewest_with("linalg-horizontal-fuse-1x1-convs,", ""),
    # padded 1x1 convs past max-filters/min-channels kept as conv roots, their pads copied
    "ours-llvm-cpu-fewest-padded-1x1-convs": _fewest_with("{padded-as-matmul=true}", ""),
    # the fewest build with only matmuls over one activation fused, at most three (towers'
    # same-depth layers over different activations apart)
    "ours-llvm-cpu-fewest-towers-apart": _fewest_with(
        "linalg-horizontal-fuse-contractions{max-results=4 across-inputs=true tiled-only=true}",
        "linalg-horizontal-fuse-contractions{tiled-only=true}"),
    # the llvm-cpu pipeline with pads read by others too written by their region (the fewest
    # pipeline's padded-shared-results)
    "ours-llvm-cpu-shared-pads": _dispatch_creation(
        form_dispatch_regions="form-dispatch-regions{padded-shared-results=true}",
    ) + ",dispatch-matmul-cpu-tiles,dispatch-attention-cpu-tiles",
}
# Graph pipelines from the ONNX file (the `ours-onnx` family).
ONNX_PIPELINES = {
    "ours-onnx": "graph-to-dispatch",
    # graph-to-dispatch without sibling-conv batching: what batching alone changes
    "ours-onnx-no-conv-batching": _pipeline_with("graph-to-dispatch", graph_horizontal_fuse_convs=""),
    # the llvm-cpu graph pipeline: graph-to-dispatch + IREE CPU register tiles on matmul regions
    "ours-onnx-llvm-cpu": "graph-to-dispatch-llvm-cpu",
    # the graph passes, then the fewest-dispatch CPU build (`ours-llvm-cpu-fewest`)
    "ours-onnx-llvm-cpu-fewest": "graph-to-dispatch-llvm-cpu-fewest",
    # the llvm-cpu graph pipeline with grouped convs as IREE's generic (no gather + batched
    # matmul), and with constant 1x1 filters under the argument filter-size limit: the forms
    # before each change, on the models users deploy with inline weights
    "ours-onnx-llvm-cpu-grouped-generic": _expanded_with("graph-to-dispatch-llvm-cpu", linalg_grouped_conv_to_im2col=""),
    "ours-onnx-llvm-cpu-1x1-limited": _expanded_with(
        "graph-to-dispatch-llvm-cpu",
        linalg_conv_channels_last="linalg-conv-channels-last{constant-1x1-any-size=false}"),
}
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
        text = _ours_from_onnx(model_file(model, "args.onnx"), ONNX_PIPELINES[variant])
    else:
        raise ValueError(f"unknown variant {variant!r} (have: "
                         f"{', '.join((*VARIANTS, *OURS_PIPELINES, *ONNX_PIPELINES))})")
    out.write_text(text)
    return out


def _ours_from_onnx(onnx_file: Path, pipeline: str) -> str:
    graph = _fusion(["fusion-translate", "--import-onnx", str(onnx_file)])
    return _fusion(["fusion-opt", "-", "-p", pipeline], stdin=graph)


def _onnx_variant_source(model: str, variant: str, work_dir: Path) -> Path:
    """A model given as an ONNX file (bench/iree_bench_onnx.py): IREE's own import of it is the
    baseline; only `ours-onnx` of ours applies."""
    if variant in ("iree-default", "iree-best"):
        return iree_source(model, work_dir)
    if variant not in ONNX_PIPELINES:
        raise RuntimeError(f"{variant}: {LINALG_ONLY}")
    out = work_dir / f"{model_stem(model)}.{variant}.mlir"
    if not out.is_file():
        out.write_text(_ours_from_onnx(Path(model), ONNX_PIPELINES[variant]))
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


def variant_flags(variant: str, target: str) -> list[str]:
    variant = COPY_OF.get(variant, variant)
    base = data_tiling_base(variant)
    return target_flags(target) + EXTRA_FLAGS.get(base or variant, []) + (DT_FLAGS if base else [])


def vmfb_path(model: str, variant: str, target: str, work_dir: Path) -> Path:
    return work_dir / f"{model_stem(model)}.{variant}.{target}.vmfb"


def build_variants(model: str, target: str, work_dir: Path, variants=VARIANTS,
                   seconds: dict[str, float] | None = None) -> dict[str, Path]:
    """variant -> vmfb for `target` ("llvm-cpu" or "cuda"), built into `work_dir`.

    `aa` is a file copy of iree-default's vmfb when that is built too (a separately loaded
    module with the same code), else compiled the same way. `seconds`, when given, gets each
    compiled variant's `iree-compile` wall time (a copy gets none).
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
        built[variant] = compile_vmfb(source, out, variant_flags(variant, target))
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
