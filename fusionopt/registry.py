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
from fusionopt.pipelines_llvm_cpu import CPU_LINALG_CHANGES, CPU_PAYLOADS, CPU_TILES, FEWEST_CHANGES, UNIT_READS
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
    # A wide (f64) mean, now truncated inside the payloads that subtract it, is subtracted in
    # f64: the f32-rounded mean lost its accuracy at a large common offset.
    "linalg-widen-mean-subtractions",
    # A channels-last conv over a constant filter computes a multiple of 16 filters (zeros added,
    # the result sliced back): IREE vectorises a filter count like 58, 116 or 244 in 2-8 lane
    # vectors (ShuffleNetV2 x2.0's 1x1 convs at 6-10 GFLOP/s, the model 1.58x of IREE default's
    # time). After elementwise fusion, so the epilogue moves past the slice whole.
    "linalg-pad-conv-filters{panel-min-channels=0}",
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
    # A region's generics read no operand's unit dims through constant 0s (a conv's one-element
    # operand at rank 0): IREE's llvm-cpu backend leaves such reads scalar and fails to build a
    # conv region whose epilogue reads a dynamic quantization's [1, 1, 1, 1] scale so, or a
    # layer norm's region whose second result reads its output at (0, d0, d2).
    UNIT_READS,
)
PIPELINES["dispatch-creation"] = Pipeline(
    "linalg on tensors -> flow.dispatch.regions (one root each) + flow tensor ops",
    ",".join(_DISPATCH_CREATION_STAGES),
)


def _dispatch_creation_with(changes: dict[str, str]) -> str:
    """dispatch-creation's stages with some replaced (by the stage as written; "" drops it)."""
    return ",".join(p for p in (changes.get(s, s) for s in _DISPATCH_CREATION_STAGES) if p)


# dispatch-creation for IREE's llvm-cpu backend only: its stage changes and register tiles, each
# with why, are in pipelines_llvm_cpu.py.
PIPELINES["dispatch-creation-llvm-cpu"] = Pipeline(
    "dispatch-creation with conv filters padded to full vectors and constant 1x1 filters and matmul weights "
    "packed in panels, 3x3 convs as Winograd F(2x2, 3x3), then IREE CPU register tiles: 4 x 64 "
    "on matmul regions and on 1x1 convs IREE vectorises narrowly, whole head dims on attention, "
    "whole rows on softmax reductions (llvm-cpu only)",
    f"{_dispatch_creation_with(CPU_LINALG_CHANGES)},{CPU_TILES},{CPU_PAYLOADS}",
)
# The fewest dispatches an llvm-cpu build makes, for users who count them (pipelines_llvm_cpu.py).
PIPELINES["dispatch-creation-llvm-cpu-fewest"] = Pipeline(
    "dispatch-creation-llvm-cpu with attention raised, Q/K/V fused and NaN guards in the attention "
    "dispatches: the fewest dispatches, not the fastest build (llvm-cpu only)",
    f"{_dispatch_creation_with(FEWEST_CHANGES)},{CPU_TILES},{CPU_PAYLOADS}",
)


# dispatch-creation for IREE's CUDA backend, each difference measured on an H100
# (bench/RESULTS.md, "IREE runtime: CUDA"):
_CUDA_CHANGES = {
    # Convolutions stay IREE's conv named ops: the 1x1-as-matmul and strided-im2col forms won on
    # llvm-cpu but IREE's CUDA conv kernels beat them (squeezenet 0.65x, mobilenet_mini 0.82x).
    "linalg-conv-1x1-to-matmul": "",
    "linalg-strided-conv-to-im2col": "",
    "linalg-conv-channels-last": "",
    "linalg-pad-conv-filters{panel-min-channels=0}": "",
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
    # An elementwise result collapsed by unit dims is computed collapsed: sm_80 stages the whole
    # tensor in shared memory when a transpose reads it through the collapse and a split.
    "linalg-fold-unit-reshapes": "linalg-fold-unit-reshapes{constants-into-reductions=false "
                                 "collapses-into-producers=true}",
    # IREE's sm_80 f32 matmuls give a 64x64 output tile one workgroup that walks all of K: at
    # 64 tokens a projection keeps 2-24 SMs busy. Split K so more of the GPU works.
    "linalg-interchange-for-fusion": "linalg-interchange-for-fusion,linalg-split-k-contractions",
    # A reduction's region ends in one op: IREE's sm_80 codegen cannot distribute a fork
    # (GPT-NeoX's two LayerNorms of one input, sharing one normalisation); a copy region
    # transposes on one side of a reshape only (MaxViT's window partitions overflowed shared
    # memory; the default everywhere since MobileViT's unfold overflowed llvm-cpu's stack too).
    # ...nor a reduction to one element with any consumer (a dynamically quantized BERT's
    # range reductions).
    "form-dispatch-regions": "form-dispatch-regions{reduction-chains=all reduction-forks=false "
                             "full-reduction-consumers=false transposes-across-reshapes=false}",
    # Unit dims are dropped only in conv regions, as IREE's sm_80 codegen needs (Mamba's causal
    # depthwise 1-D conv reading its [C, 1, W] result at (c, 0, w): "failed to apply fusion +
    # hoisting patterns"); elsewhere on CUDA the reads stay as they were, unmeasured on a GPU.
    UNIT_READS: "dispatch-unit-dim-reads{windowed-regions-only=true}",
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
    # MoE experts as transformers' batched_mm exports them (each row times its expert's weights,
    # gathered per row: S weight matrices copied) become one matmul over every expert and a
    # gather of each row's outputs, where the experts are few (Mixtral's 8: 82 -> 4-6 ms a
    # projection on one core).
    "graph-dense-experts",
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
# tiles as dispatch-creation-llvm-cpu. Matrix-vector towers stay apart: IREE packs each one's
# constant weight (a recurrent step's two directions: 4x the batched form's rate).
_CPU_GRAPH_STAGES = tuple("graph-horizontal-fuse-dots{tower-matvecs=false}" if stage == "graph-horizontal-fuse-dots"
                          else stage for stage in _GRAPH_TO_DISPATCH_STAGES[:-1])
PIPELINES["graph-to-dispatch-llvm-cpu"] = Pipeline(
    "graph-to-dispatch with dispatch-creation-llvm-cpu as its last stage (llvm-cpu only)",
    ",".join(_CPU_GRAPH_STAGES + ("dispatch-creation-llvm-cpu",)),
)
# graph-to-dispatch with dispatch-creation-llvm-cpu-fewest as its last stage (the same counts from
# the ONNX files).
PIPELINES["graph-to-dispatch-llvm-cpu-fewest"] = Pipeline(
    "graph-to-dispatch with dispatch-creation-llvm-cpu-fewest as its last stage (llvm-cpu only)",
    ",".join(_CPU_GRAPH_STAGES + ("dispatch-creation-llvm-cpu-fewest",)),
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
