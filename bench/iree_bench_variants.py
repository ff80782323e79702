"""The pipelines behind the harness's `ours-*` variants (`bench/iree_bench_build.py` builds them):
a named pipeline as written, or with some of its passes given options or dropped, the form a
measured alternative takes (`OURS_PIPELINES` from a model's linalg file, `ONNX_PIPELINES` from
its ONNX file)."""

from __future__ import annotations


def _replaced(passes: list[str], replacements: dict[str, str]) -> str:
    """`passes` with some replaced (keyword: the pass as written, `-` as `_`); "" drops one. A
    keyword that names no pass is an error: the variant would silently be the pipeline itself
    (as when a pipeline's pass gains an option)."""
    written = {p.replace("-", "_") for p in passes}
    if missing := [key for key in replacements if key not in written]:
        raise ValueError(f"no such pass in the pipeline: {', '.join(missing)}")
    return ",".join(p for p in (replacements.get(p.replace("-", "_"), p) for p in passes) if p)


def _pipeline_with(pipeline: str, **replacements: str) -> str:
    """A named pipeline's passes with some replaced (`_replaced`)."""
    from fusionopt.registry import PIPELINES

    return _replaced(PIPELINES[pipeline].spec.split(","), replacements)


def _expanded_with(pipeline: str, **replacements: str) -> str:
    """A named pipeline with every nested pipeline name expanded to its passes, some replaced
    as in `_pipeline_with` (a pass inside `graph-to-dispatch`'s `dispatch-creation` too)."""
    from fusionopt.registry import PIPELINES

    def passes(spec: str) -> list[str]:
        return [q for p in spec.split(",") for q in (passes(PIPELINES[p].spec) if p in PIPELINES else [p])]

    return _replaced(passes(PIPELINES[pipeline].spec), replacements)


# the llvm-cpu pipelines' region formation and channels-last stage, as `_replaced` keys them
_CPU_FORMATION = "form_dispatch_regions{pads_into_depthwise=true padded_results=0}"
_CPU_CHANNELS_LAST = "linalg_conv_channels_last{grouped_taps=true}"


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
    # the CUDA pipeline leaving torch's NaN-guarded softmaxes decomposed (minilm_l6's attention)
    "ours-cuda-no-nan-guards": _pipeline_with(
        "dispatch-creation-cuda", linalg_raise_attention="linalg-raise-attention{nan-guards=false}"),
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
    # dispatch-creation-llvm-cpu with the unpacked matmuls' register tiles unrolling 4
    # reduction steps instead of 16 (as the packed contractions do)
    "ours-llvm-cpu-matmul-reduction-4": _pipeline_with(
        "dispatch-creation-llvm-cpu", dispatch_matmul_cpu_tiles="dispatch-matmul-cpu-tiles{reduction=4}"),
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
    # the graph pipeline for IREE's CUDA backend (cuda only: no CPU lowering configs)
    "ours-onnx-cuda": "graph-to-dispatch-cuda",
    # ... leaving torch's NaN-guarded softmaxes decomposed (every transformers decoder's attention)
    "ours-onnx-cuda-no-nan-guards": _expanded_with(
        "graph-to-dispatch-cuda", linalg_raise_attention="linalg-raise-attention{nan-guards=false}"),
    # the llvm-cpu graph pipeline with grouped convs as IREE's generic (no gather + batched
    # matmul), with constant 1x1 filters under the argument filter-size limit, and with conv
    # filters left unpadded (no linalg-pad-conv-filters), ...: the forms
    # before each change, on the models users deploy with inline weights
    "ours-onnx-llvm-cpu-grouped-generic": _expanded_with("graph-to-dispatch-llvm-cpu", linalg_grouped_conv_to_im2col=""),
    "ours-onnx-llvm-cpu-1x1-limited": _expanded_with(
        "graph-to-dispatch-llvm-cpu",
        **{_CPU_CHANNELS_LAST: "linalg-conv-channels-last{grouped-taps=true constant-1x1-any-size=false}"}),
    "ours-onnx-llvm-cpu-kxk-limited": _expanded_with(
        "graph-to-dispatch-llvm-cpu",
        **{_CPU_CHANNELS_LAST: "linalg-conv-channels-last{grouped-taps=true constant-kxk-any-size=false}"}),
    "ours-onnx-llvm-cpu-unpadded-filters": _expanded_with("graph-to-dispatch-llvm-cpu", linalg_pad_conv_filters=""),
    # ... and with constant 1x1 filters and matmul weights read unpacked (no
    # linalg-pack-conv-filters / linalg-pack-matmul-weights): IREE's row-by-row weight reads
    "ours-onnx-llvm-cpu-unpacked": _expanded_with(
        "graph-to-dispatch-llvm-cpu", linalg_pack_conv_filters="", linalg_pack_matmul_weights=""),
    # ... and with every pad, a depthwise conv's input pad too, stored by its producer into a
    # splat (IREE's own form: no pads-into-depthwise, padded stores on)
    "ours-onnx-llvm-cpu-pads-apart": _expanded_with(
        "graph-to-dispatch-llvm-cpu", **{_CPU_FORMATION: "form-dispatch-regions"}),
    # ... and with the pads depthwise convs do not compute stored by their producer into a splat
    # (padded stores on, the llvm-cpu pipelines' form before padded-results=0)
    "ours-onnx-llvm-cpu-padded-stores": _expanded_with(
        "graph-to-dispatch-llvm-cpu", **{_CPU_FORMATION: "form-dispatch-regions{pads-into-depthwise=true}"}),
    # ... and with row reductions left to IREE's tiles and summed in order (no
    # dispatch-reduction-cpu-tiles, hence none of its iree-compile flags)
    "ours-onnx-llvm-cpu-ordered-reductions": _expanded_with("graph-to-dispatch-llvm-cpu", dispatch_reduction_cpu_tiles=""),
    # ... and with the packed contractions' register tiles unrolling IREE's own 16 reduction
    # steps (which spill accumulators) instead of 4
    "ours-onnx-llvm-cpu-reduction-16": _expanded_with(
        "graph-to-dispatch-llvm-cpu", linalg_pack_conv_filters="linalg-pack-conv-filters{reduction-step=16}",
        linalg_pack_matmul_weights="linalg-pack-matmul-weights{reduction-step=16}"),
    # ... and with the unpacked matmuls' register tiles (dispatch-matmul-cpu-tiles) unrolling 4
    # reduction steps too
    "ours-onnx-llvm-cpu-matmul-reduction-4": _expanded_with(
        "graph-to-dispatch-llvm-cpu", dispatch_matmul_cpu_tiles="dispatch-matmul-cpu-tiles{reduction=4}"),
    # ... and with grouped convs in the im2col forms (IREE's im2col op in the group-batched
    # matmul's region, a gather for wide groups; the chained depthwise convs for narrow ones),
    # not summed over their taps
    "ours-onnx-llvm-cpu-grouped-im2col": _expanded_with(
        "graph-to-dispatch-llvm-cpu", **{_CPU_CHANNELS_LAST: "linalg-conv-channels-last"}),
    # ... and with k x k convs left to IREE's own register tile (no dispatch-conv-kxk-cpu-tiles)
    "ours-onnx-llvm-cpu-kxk-iree-tiles": _expanded_with("graph-to-dispatch-llvm-cpu", dispatch_conv_kxk_cpu_tiles=""),
    # ... and with the constants' transposes and slices left to IREE's compile-time JIT (no
    # linalg-fold-constants): what the fold saves of the build
    "ours-onnx-llvm-cpu-unfolded": _expanded_with("graph-to-dispatch-llvm-cpu", linalg_fold_constants=""),
}
