"""The one place that lists fusionopt's dialects, passes and named pipelines.

Everything is registered through lazy factories so that `fusion-opt --help` does not import
every pass. Add a pass by adding one line to `_PASS_MODULES` in `fusionopt/registry_tables.py`
(its module under `fusionopt.transforms.<stage>` + class name; stages in docs/architecture.md);
add a pipeline by adding it to `PIPELINES` here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import get_all_dialects as xdsl_dialects
from xdsl.ir import Dialect
from xdsl.passes import ModulePass

from fusionopt.diagnostics import DialectLoadError
from fusionopt.registry_tables import _DIALECT_MODULES, _PASS_MODULES


def _lazy(module: str, attr: str, name: str = "") -> Callable[[], object]:
    def load():
        try:
            return getattr(importlib.import_module(module), attr)
        except Exception as err:  # noqa: BLE001 - an import failure must show its own cause
            raise DialectLoadError(name or attr, module, err) from err

    return load


@dataclass(frozen=True)
class Pipeline:
    """A named pipeline: a summary for `--list-passes` and the pass list it expands to."""

    summary: str
    spec: str


PIPELINES: dict[str, Pipeline] = {}

# dispatch-creation: linalg on tensors -> flow.dispatch.regions, IREE's DispatchCreation
# (region formation unified with conversion to flow); one stage per line, with why it is there.
_DISPATCH_CREATION_STAGES = (
    # torch-mlir's runtime checks inside payloads (nonzero divisors, gather bounds) go, as
    # IREE's kernels drop them: on CUDA one after a reduction over dynamic rows stops the
    # region from building, and elementwise fusion sees plain bodies.
    "linalg-drop-payload-asserts",
    # Convs, depthwise convs and pools become their NHWC forms between transposes, and the
    # elementwise ops between them compute channels last: IREE's CPU kernels vectorise along
    # contiguous channels (grouped convs of 4-8 channels a group as chained depthwise convs:
    # their patches cost more than the matmul). First, so the NCHW-specific stages below only
    # see what is left.
    "linalg-conv-channels-last",
    # Batch-1 depthwise convs with 4x4+ outputs become rank-3 generics over (oh, ow, c, kh, kw),
    # IREE's own unit-dim-folded form: its kernel for the 4-D named op in our regions ran
    # 1.3-2x slower. First, so that the unit reshapes it leaves fold in the next stage.
    "linalg-depthwise-conv-drop-batch",
    # torch-mlir wraps ops in unit-dim expand/collapse_shapes and keeps reduced dims as
    # constant-0 output maps; IREE's CPU codegen cannot tile+fuse through either.
    "linalg-fold-unit-reshapes",
    # torch-mlir's grouped-conv bias is a broadcast split into groups by an expand_shape; as a
    # broadcast of the expanded bias it is the conv's init and joins its dispatch (regnet: one
    # broadcast dispatch per grouped conv before), as IREE's reshape propagation makes it.
    "linalg-bubble-expand-through-broadcast",
    # Grouped convs become a per-group patch gather and a batched matmul: IREE's CPU kernel for
    # a grouped conv runs at 3-5 GFLOP/s in every form; those left become generics with the
    # same maps, IREE's own form (the named op with an epilogue in a pre-formed region
    # overflows IREE's 32 KB CPU stack at real sizes; video models' 3-D convs likewise).
    "linalg-grouped-conv-to-im2col",
    "linalg-generalize-grouped-convs",
    # Weight transposes/broadcasts and the Q/K/V head transposes become contraction
    # indexing maps, so no transpose is ever materialised (IREE spends 3 dispatches a layer).
    "linalg-fold-transpose-into-matmul",
    # Elementwise chains become single generics (views stay visible to the stages below).
    "linalg-fuse-elementwise{aggressive=false}",
    # Gathers at constant ids (torch-mlir's position ids) read their rows by loop index, with
    # no per-element id arithmetic or bounds asserts (which also blocked contiguous loads);
    # after elementwise fusion, which brings the id constant and the gather into one generic.
    "linalg-fold-constant-gather-indices",
    # 1x1 convs become matmul-like contractions over the flattened pixels (IREE 3.13 gives a
    # conv named op in a pre-formed region its slower conv kernel). After elementwise fusion:
    # each conv's bias/activation epilogue is then one generic that moves to the flat layout
    # whole (before it, the ONNX path's separate bias broadcasts would be cut off by reshapes).
    "linalg-conv-1x1-to-matmul",
    # k x k convs become a patch gather + the same flat matmul form: IREE 3.13's conv kernel
    # is 3-5x slower per output on strided windows, its matmul kernel is not (0.11x-0.60x of the
    # conv's time, gather included, on every strided conv of the corpus CNNs); stride-1 convs
    # too (0.37x-1.14x in the models, resnet18 0.67x whole).
    "linalg-strided-conv-to-im2col",
    # A fused generic whose value ignores some of its loops (torch-mlir's attention mask: a
    # gather broadcast over query rows) is computed once over the loops it depends on;
    # consumers broadcast it through their indexing maps instead of a recomputing kernel.
    "linalg-shrink-broadcast-generics",
    # Reductions over the same input (e.g. sum and max of one row) as one multi-result
    # reduction. A layer norm's variance stays the input's exact second reduction
    # (rewrite-variance off: the one-pass form measured slower, bench/RESULTS.md); region
    # formation chains the two into one dispatch instead.
    "linalg-merge-sibling-reductions",
    # Consumers read contraction results through identity maps so they fuse (IREE #8951).
    "linalg-interchange-for-fusion",
    # A reshape splitting or merging non-unit dims between a root and its elementwise
    # consumer moves below the consumer (IREE's SinkReshapes): IREE 3.13 cannot build a region
    # with such a reshape inside (a matmul whose rows are split before its bias add fails at
    # every size; a grouped conv's collapsed groups overflow the stack).
    "linalg-sink-reshapes",
    # Constants only moved by the stages above (a depthwise filter's transpose, slices of
    # folded tables) are moved now, in numpy: IREE would compile a JIT module for them, ~0.5 s
    # and up of every build.
    "linalg-fold-constants",
    # One root per region (or a layer norm's chain of same-row sums: one dispatch, IREE
    # aggressive's form), cheap producers cloned in, leftovers converted to flow ops; a pad of
    # a contraction's result written by that region into a splat, as IREE's own regions do.
    "form-dispatch-regions",
    # Clean-ups: cloned constants/fills are deduplicated within each region.
    "cse",
    "canonicalize",
)
PIPELINES["dispatch-creation"] = Pipeline(
    "linalg on tensors -> flow.dispatch.regions (one root each) + flow tensor ops",
    ",".join(_DISPATCH_CREATION_STAGES),
)


def _dispatch_creation_with(changes: dict[str, str]) -> str:
    """dispatch-creation's stages with some replaced (by the stage as written; "" drops it)."""
    return ",".join(p for p in (changes.get(s, s) for s in _DISPATCH_CREATION_STAGES) if p)


# dispatch-creation for IREE's llvm-cpu backend only: matmul regions get an IREE CPU lowering
# config with a wide register tile (IREE's own 8 x 16 tile leaves the FMA units idle), and
# attention ops (those the input brings, and the long ones the pipeline raises, below) one over
# whole head dims (IREE's own walks 4 keys x 16 columns at a time, 2.6x-33x
# slower), channels-last 1x1 convs whose filter count IREE splits into 2-lane vectors the
# matmul tile, and depthwise convs 8 (7) pixels x 32 channels (IREE's own keeps 4 accumulators:
# mnasnet1_0's depthwise convs 0.75x of the time), and a softmax's row reductions whole rows
# (its two dispatches 0.5x of the time in vit_s16_6l), and a grouped conv's im2col matmul one
# group a workgroup (RegNetX's at 112x112 and 56x56 ~0.5x-0.6x of the time), and a grouped conv's
# tap sum 7 (8) pixels x 16 (32) filters, and k x k convs over
# 16 or more channels 8 pixels x 32 filters (IREE's 8 x 16 tile: resnet18's convs 0.7x of the
# time with the wider one). A CUDA build would
# reject the configs, so they are not in the target-neutral pipeline. The row reductions' pass
# asks the build for IREE's reassociation of float reductions (`iree_flags_for`; without it IREE
# sums each row in order, 16 dependent scalar adds a vector: vit_s16_6l's layer norms 5x slower).
# Last, small float constants (biases) leave their regions, and IREE is told not to clone them
# back, so kernels equal but for their constants are one executable: `iree-compile` builds
# fewer (ShuffleNetV2 45 -> 38, 0.9x of its time), the run time the same.
# First of all, a region's generic reads no operand's unit dims through constant 0s (a 1-D
# conv's [1, C, 1, W] result, a [C, 1] scale): IREE does not vectorise such a read (Whisper's
# conv epilogue 13 -> 2.5 ms, wav2vec2's GroupNorm 19 -> 2.7 ms, one Zen 4 core) and fails to
# build a conv region with one (`unit_dim_reads.py`).
_CPU_TILES = ("dispatch-unit-dim-reads,dispatch-matmul-cpu-tiles,dispatch-attention-cpu-tiles,dispatch-conv-1x1-cpu-tiles,dispatch-depthwise-cpu-tiles,"
              "dispatch-reduction-cpu-tiles,dispatch-grouped-im2col-cpu-tiles,dispatch-grouped-taps-cpu-tiles,"
              "dispatch-conv-kxk-cpu-tiles,dispatch-hoist-dense-constants")
# Channels-last convs over constant filters compute a multiple of 16 filters (zeros added, the
# result sliced back): IREE vectorises a filter count like 58, 116 or 40 in 2-8 lane vectors,
# 1.2x-7.8x slower per conv; after elementwise fusion, so the epilogue moves past the slice whole.
# A matmul weight whose column count no panel divides (a classifier's 1000) gets zero columns
# up to one (1024), its result sliced back, so that it is packed too; so does a 1x1 conv's
# filter (RegNetX's 400 filters compute 416: its 7x7 convs ~270 -> ~170 us a call).
# Then constant 1x1 filters and matmul weights are packed in panels of 64 or 32 columns with a
# 4 x 64 (8 x 32) register tile: IREE's kernels read them row by row, a new page per input channel once
# rows are 4 KB (resnext50 0.66x, convnext_tiny 0.71x of the unpacked model); before sink-reshapes, which
# moves the packed result's collapse below the epilogue.
# Transposing copies run over collapsed dims, as IREE's own dispatch formation writes them and
# does not for regions given to it (a CNN's NCHW image channels last 230-270 -> 105-130 us).
# A depthwise conv's input pad is computed in the conv's dispatch, not stored by its producer
# into a splat: IREE fills a splat with a 4-byte pattern loop (a 5 MB buffer ~0.6 ms), which cost
# more than the whole depthwise conv it feeds (`padded_depthwise.py`). For the same reason no
# region stores its result into a splat-filled pad (`padded-results=0`): the pad is a copy
# dispatch, which the task system runs on every thread (regnet_x_400mf, 23 fills of 6.8 MB a
# call: 0.95x of the time at one thread, mnasnet1_0 0.96x, resnext50_32x4d 0.99x, at one more
# dispatch a pad; bench/RESULTS.md, "Seven models on an AMD Zen 5 VM").
# Grouped convs over constant filters of 8k filters a group are one sum over their
# taps' image slices, which IREE vectorises like a matmul, instead of IREE's im2col op, whose
# patches it copies element by element (regnet_x_400mf's 22 grouped convs 2.2 -> 0.9 ms a model
# call at one thread, resnext50_32x4d's strided 8-wide one 2.4 -> 0.35 ms; `grouped_conv_taps.py`).
# Attention whose scores (all heads' Q.K^T) take 16 MB or more is raised to one op, which IREE runs
# as an online softmax over key blocks (with the CPU tile above): the decomposed form writes the
# scores and reads them back three times, from memory once they outgrow the caches. Llama
# (8 heads) at one thread: 512 tokens (8 MB of scores) 1.12x slower raised, 768 (19 MB) 0.77x,
# 1024 0.67x, 2048 0.74x (bench/RESULTS.md, "Decoders at long sequences"). Shorter ones stay
# decomposed, faster on CPU (linalg_raise_attention.py). A V read with its heads inside its keys
# (GPT-NeoX's fused QKV) is copied into [heads, keys, dim] rows for the op's key walk. A decomposed
# grouped-query contraction reads the shared K/V heads, not their repeat (the decode step 0.61x).
# A raised attention reads K with its keys innermost, K and V padded to whole blocks of 32 (16)
# keys and the pads masked, so IREE's online softmax computes each block's scores as vectors
# over the keys with no partial block (Whisper's encoder attention, 1500 keys: 116 -> 62 ms a
# layer; `linalg_attention_key_blocks.py`). After the convs' im2col, the reshapes that only add
# unit dims are read through again, so a 1-D conv's epilogue (Whisper's GELU) joins its matmul.
_CPU_RAISE_MIN_SCORES_BYTES = 16 * 1024 * 1024
_CPU_LINALG_CHANGES = {"linalg-conv-channels-last": "linalg-conv-channels-last{grouped-taps=true}",
                       "linalg-strided-conv-to-im2col": "linalg-strided-conv-to-im2col,linalg-fold-unit-reshapes",
                       "linalg-merge-sibling-reductions": "linalg-merge-sibling-reductions,"
                       f"linalg-raise-attention{{min-scores-bytes={_CPU_RAISE_MIN_SCORES_BYTES}}},"
                       f"linalg-attention-key-blocks{{min-scores-bytes={_CPU_RAISE_MIN_SCORES_BYTES}}},"
                       f"linalg-attention-value-rows{{min-scores-bytes={_CPU_RAISE_MIN_SCORES_BYTES}}},"
                       "linalg-contract-shared-heads",
                       "linalg-fuse-elementwise{aggressive=false}":
                       "linalg-fuse-elementwise{aggressive=false},linalg-pad-conv-filters,linalg-pack-conv-filters,"
                       "linalg-pad-matmul-weights,linalg-pack-matmul-weights",
                       "form-dispatch-regions": "linalg-collapse-transpose-dims,"
                       "form-dispatch-regions{pads-into-depthwise=true padded-results=0}"}
PIPELINES["dispatch-creation-llvm-cpu"] = Pipeline(
    "dispatch-creation with conv filters padded to full vectors and constant 1x1 filters and matmul weights "
    "packed in panels, then IREE CPU register tiles: 4 x 64 "
    "on matmul regions and on 1x1 convs IREE vectorises narrowly, whole head dims on attention, "
    "whole rows on softmax reductions (llvm-cpu only)",
    f"{_dispatch_creation_with(_CPU_LINALG_CHANGES)},{_CPU_TILES}",
)

# The fewest dispatches an llvm-cpu build makes, for users who count them: attention raised to
# one op (with the CPU tile above), sibling projections of one activation (Q, K, V) as one
# multi-result contraction, and so towers' same-depth layers over different activations
# (mlp_towers 3 IREE dispatches, IREE 12, at IREE default's time), a NaN guard's reduction of V
# in its attention's dispatch. bert_mini 17, gpt2_mini 16, minilm_l6 45 IREE dispatches (IREE:
# 37, 37, 101), at 0.63x-0.91x of IREE default's time but 1.1x-1.2x of
# dispatch-creation-llvm-cpu's: runtime is the judge, so this is not the default (bench/RESULTS.md, "minilm_l6 in 45 dispatches"). CNNs get at most IREE's
# own count: convs stay NCHW (channels last costs a filter transpose dispatch per conv while
# the weights are arguments), a k x k conv is the im2col op in its matmul's dispatch where IREE
# builds that (power-of-two pixel counts or multiples of 64, the 224x224 stems' 112x112;
# else a strided conv is gather + matmul, IREE's own
# strided conv kernel being 1.4x slower whole-model, and a stride-1 one stays a conv; the
# image's pad is the stem's input padding; a max pool's result's pad is not: as the next
# conv's input padding it cost resnet18 650 us for a 2 us copy), and regions write the pads
# IREE's own build writes, pads of
# reshaped results that others read too, residual blocks' outputs among them, and the pad of
# a concat in front of a max pool, each part straight into the padded buffer (bench/RESULTS.md,
# "CNNs in IREE's own dispatch count" and "CNNs: concats written into their pool's padded
# buffer"), and a pad a pool of at most 8x8 outputs reads, where its producer cannot write it,
# in that pool's region (inception_mini's last copy; `padded_pools.py`), as is the pad of a
# concat others read too (googlenet's six copies).
_FEWEST_CHANGES = {
    "linalg-conv-channels-last": "",
    "linalg-grouped-conv-to-im2col": "",
    # Stride-1 1x1 convs over one input with one filter count (an Inception block's 1x1 branch
    # and reductions) as one contraction in IREE's rank-3 form, each result's pad still stored
    # by the dispatch: inception_mini 19 -> 17 IREE dispatches (bench/RESULTS.md, "Sibling 1x1
    # convs over argument weights").
    # A 1x1 conv only a pad reads becomes a matmul past max-filters too (efficientnet_b0's
    # 1152-filter expansions at 2x2 pixels), so its region writes the pad: 119 -> 115 IREE
    # dispatches (IREE: 116), 0.99x the time (bench/RESULTS.md, "Six CNNs the passes were not
    # written for").
    "linalg-conv-1x1-to-matmul": "linalg-horizontal-fuse-1x1-convs,linalg-conv-1x1-to-matmul{padded-as-matmul=true}",
    "linalg-strided-conv-to-im2col": "linalg-strided-conv-to-im2col{gathers=strided "
    "im2col-op-max-filters=1024 im2col-op-max-taps=4608 im2col-op-pixel-multiple=64 absorb-argument-pads=true}",
    # The raise reads grouped-query attention's shared K/V heads (shared-kv-heads, default on):
    # Llama's K/V repeat copies go (llama_decode 0.81x-0.87x of the time, bench/RESULTS.md).
    "linalg-merge-sibling-reductions": "linalg-merge-sibling-reductions,linalg-raise-attention",
    "form-dispatch-regions": "linalg-horizontal-fuse-contractions{max-results=4 across-inputs=true tiled-only=true},"
    "form-dispatch-regions{guards-into-attention=true "
    "padded-results=1048576 padded-strided-kxk=true padded-shared-results=true padded-concats=true "
    "pads-into-pools=64}",
}
PIPELINES["dispatch-creation-llvm-cpu-fewest"] = Pipeline(
    "dispatch-creation-llvm-cpu with attention raised, Q/K/V fused and NaN guards in the attention "
    "dispatches: the fewest dispatches, not the fastest build (llvm-cpu only)",
    f"{_dispatch_creation_with(_FEWEST_CHANGES)},{_CPU_TILES}",
)


# dispatch-creation for IREE's CUDA backend, each difference measured on an H100
# (bench/RESULTS.md, "IREE runtime: CUDA"):
_CUDA_CHANGES = {
    # Convolutions stay IREE's conv named ops: the 1x1-as-matmul and strided-im2col forms won on
    # llvm-cpu but IREE's CUDA conv kernels beat them (squeezenet 0.65x, mobilenet_mini 0.82x).
    "linalg-conv-1x1-to-matmul": "",
    "linalg-strided-conv-to-im2col": "",
    "linalg-conv-channels-last": "",
    "linalg-grouped-conv-to-im2col": "",
    # Decomposed attention becomes one iree_linalg_ext.attention (IREE's fused GPU kernel; on
    # llvm-cpu 1.1x slower than decomposed even with a CPU tile), a softmax's max and sum one
    # dispatch where it stays. The softmaxes torch guards against NaN too (every transformers
    # export's attention, minilm_l6's): the guard's reduction over V stays a dispatch of its own
    # (IREE's sm_80 codegen cannot build it in the attention's). Grouped-query attention reads
    # its shared K/V heads. Both built for sm_80 (six decoder families, f32 and f16), untimed
    # (bench variants ours-cuda-no-nan-guards, ours-onnx-cuda-no-nan-guards).
    "linalg-merge-sibling-reductions": "linalg-merge-sibling-reductions,linalg-raise-attention",
    # A reduction reads a unit-dim collapse rather than its source at constant indices: IREE's
    # sm_80 codegen cannot distribute the latter (ConvNeXt's head LayerNorm, read channels last).
    "linalg-fold-unit-reshapes": "linalg-fold-unit-reshapes{constants-into-reductions=false}",
    # IREE's sm_80 f32 matmuls give a 64x64 output tile one workgroup that walks all of K: at
    # 64 tokens a projection keeps 2-24 SMs busy. Split K so more of the GPU works.
    "linalg-interchange-for-fusion": "linalg-interchange-for-fusion,linalg-split-k-contractions",
    # A reduction's region ends in one op: IREE's sm_80 codegen cannot distribute a fork
    # (GPT-NeoX's two LayerNorms of one input, sharing one normalisation); a copy region
    # transposes on one side of a reshape only (MaxViT's window partitions overflowed shared memory).
    "form-dispatch-regions": "form-dispatch-regions{reduction-chains=all reduction-forks=false "
                             "transposes-across-reshapes=false}",
}
PIPELINES["dispatch-creation-cuda"] = Pipeline(
    "dispatch-creation in the forms IREE's CUDA backend runs fastest (convs as convs, attention "
    "as one op, split-K matmuls)",
    _dispatch_creation_with(_CUDA_CHANGES),
)

# graph-simplify: graph algebra before horizontal fusion (MIGraphX simplify_algebra).
_GRAPH_SIMPLIFY_STAGES = (
    # Constant subgraphs (e.g. a BatchNorm's parameter arithmetic) become single constants,
    # so the stages below see plain constant operands.
    "graph-propagate-constants",
    # Per-channel scales and shifts (BatchNorm, Mul/Add by [F, 1, 1]) fold into constant conv
    # weights and one canonical bias add: no elementwise work left, and sibling convs then
    # carry the one bias form horizontal fusion absorbs.
    "graph-fold-conv-affine",
    # Constant conv filters lose the taps that read only padding (DeepLabV3's ASPP at 224x224:
    # dilation-24 and -36 3x3 convs over a 14x14 map are 1x1 convs).
    "graph-drop-padding-taps",
    "graph-canonicalize",
    # GEMM chains re-planned for fewer FLOPs under the fast-math contract (finite values, as
    # every ML compiler assumes; the pass docstring).
    "graph-reassociate-dots",
    "cse",
    "dce",
)
PIPELINES["graph-simplify"] = Pipeline(
    "fold constants and conv affines, canonicalize and reassociate GEMM chains (run before "
    "horizontal fusion)",
    ",".join(_GRAPH_SIMPLIFY_STAGES),
)
# For programs whose run-time values may hold inf/NaN that must land where they did: GEMM
# chains re-planned only where no infinity can become NaN (sign-rigid constants).
_STRICT_REASSOCIATE = "graph-reassociate-dots{strict-nonfinite=true}"
PIPELINES["graph-simplify-strict-nonfinite"] = Pipeline(
    "graph-simplify keeping inf/NaN on the same elements (GEMM chains re-planned only with "
    "sign-rigid constants)",
    ",".join(_STRICT_REASSOCIATE if stage == "graph-reassociate-dots" else stage
             for stage in _GRAPH_SIMPLIFY_STAGES),
)


# graph-to-dispatch: the whole graph -> dispatch-region flow, one stage per line.
_GRAPH_TO_DISPATCH_STAGES = (
    # Algebra first: reassociating GEMM chains creates and destroys the dot groups that
    # horizontal fusion batches, so the groups must be final before it looks at them.
    "graph-simplify",
    # Pointwise ops applied per slice of one tensor become one op on the whole tensor, so the
    # towers' parallel Linear layers become visible as siblings.
    "graph-hoist-pointwise-above-slices",
    # Batching needs the whole-tower view (which dots are independent, where their epilogues
    # go): only the graph level has it; after lowering each dot is an isolated linalg op.
    "graph-horizontal-fuse-dots",
    # Sibling convolutions over one input become one conv on concatenated filters (IREE never
    # batches them); needs the same whole-block view, and folded biases (graph-simplify).
    "graph-horizontal-fuse-convs",
    # Lowering, then IREE-style dispatch formation on the (now few, batched) roots.
    "convert-graph-to-linalg",
    "dispatch-creation",
)
PIPELINES["graph-to-dispatch"] = Pipeline(
    "graph dialect -> flow.dispatch.regions (simplify, batch sibling GEMMs and convs, lower, form "
    "dispatches)",
    ",".join(_GRAPH_TO_DISPATCH_STAGES),
)
# The strict twin: GEMM chains re-planned only with sign-rigid constants, and unequal towers
# batched only in their zero-padded form (the block-diagonal one lets one tower's overflow
# reach another's outputs as inf * 0).
_STRICT_STAGES = {"graph-simplify": "graph-simplify-strict-nonfinite",
                  "graph-horizontal-fuse-dots": "graph-horizontal-fuse-dots{strict-nonfinite=true}"}
PIPELINES["graph-to-dispatch-strict-nonfinite"] = Pipeline(
    "graph-to-dispatch with graph-simplify-strict-nonfinite and strict tower batching (inf/NaN kept "
    "on the same elements)",
    ",".join(_STRICT_STAGES.get(stage, stage) for stage in _GRAPH_TO_DISPATCH_STAGES),
)
# graph-to-dispatch for IREE's llvm-cpu backend only: the same padded conv filters and register
# tiles as dispatch-creation-llvm-cpu.
PIPELINES["graph-to-dispatch-llvm-cpu"] = Pipeline(
    "graph-to-dispatch with dispatch-creation-llvm-cpu as its last stage (llvm-cpu only)",
    ",".join(_GRAPH_TO_DISPATCH_STAGES[:-1] + ("dispatch-creation-llvm-cpu",)),
)
# graph-to-dispatch with dispatch-creation-llvm-cpu-fewest as its last stage (the same counts from
# the ONNX files).
PIPELINES["graph-to-dispatch-llvm-cpu-fewest"] = Pipeline(
    "graph-to-dispatch with dispatch-creation-llvm-cpu-fewest as its last stage (llvm-cpu only)",
    ",".join(_GRAPH_TO_DISPATCH_STAGES[:-1] + ("dispatch-creation-llvm-cpu-fewest",)),
)
# The ONNX route for IREE's CUDA backend: graph-to-dispatch's graph stages, then
# dispatch-creation-cuda (convs as convs, attention raised, split-K matmuls).
# Its means keep f32 accumulators (IREE 3.13's sm_80 codegen fails to distribute an f64 one).
PIPELINES["graph-to-dispatch-cuda"] = Pipeline(
    "graph-to-dispatch with dispatch-creation-cuda as its last stage (CUDA)",
    ",".join(_GRAPH_TO_DISPATCH_STAGES[:-2] + ("convert-graph-to-linalg{wide-means-from=0}", "dispatch-creation-cuda")),
)


def _graph_patterns(op: type) -> tuple:
    """The graph ops' canonicalization patterns (they live with the graph passes)."""
    return importlib.import_module("fusionopt.transforms.graph.graph_canonicalization_patterns").patterns_for(op)


def _load_graph_dialect() -> Dialect:
    """The graph dialect, with its canonicalization patterns installed (the dialect does not
    import the transforms that provide them)."""
    importlib.import_module("fusionopt.dialects.graph_base").set_canonicalization_provider(_graph_patterns)
    return importlib.import_module("fusionopt.dialects.graph").Graph


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    dialects = dict(xdsl_dialects())
    for name, (module, attr) in _DIALECT_MODULES.items():
        dialects[name] = _lazy(module, attr, name)  # type: ignore[assignment]
    dialects["graph"] = _load_graph_dialect
    return dialects


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {name: _lazy(m, a) for name, (m, a) in _PASS_MODULES.items()}  # type: ignore[misc]


def iree_flags_for(passes: list[ModulePass]) -> list[str]:
    """The iree-compile flags a module these passes produced is built with: each pass's
    `iree_flags` (an attribute of the passes whose IREE configs pay only with them, or need the
    flag to build as written), once."""
    return list(dict.fromkeys(flag for p in passes for flag in getattr(p, "iree_flags", ())))


def iree_flags_of(pipeline: str) -> list[str]:
    """`iree_flags_for` the passes of a pipeline spec (`fusion-opt -p P --print-iree-flags`)."""
    from fusionopt.pipeline_spec import build_passes, parse_pipeline

    return iree_flags_for(build_passes(parse_pipeline(pipeline, PIPELINES), get_all_passes()))


def make_context(allow_unregistered: bool = False) -> Context:
    """A context that knows every dialect fusionopt parses (loaded lazily on first use)."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
