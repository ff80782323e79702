"""Random graph programs through every pipeline, in the suite (bench/property_run.py).

A seeded run of `COUNT` programs (`graph_programs()` with the pattern blocks) through
graph-simplify, graph-to-dispatch, dispatch-creation (its opt-in attention variant and the
CUDA pipeline) and convert-to-flow: no invalid IR, no crash, no hang, no mismatch against a float64 run of the
input program on every input family. Each registered pass must change at least a stated share
of the programs (`FLOORS`, set a little below what this seed gives), so a strategy change that
stops reaching a pass fails here (~2 min of CPU). The long run is
`python bench/property_run.py --count 2000 --seed 1 --max-ops 10` (bench/RESULTS.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fusionopt import registry

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import property_run  # noqa: E402
from support.graph_blocks_gqa import REPEATED_KV_BLOCKS  # noqa: E402
from support.graph_blocks_norm import WIDE_NORM_BLOCKS  # noqa: E402
from support.graph_blocks_transformer import GATHERED_EXPERT_BLOCKS, GELU_BLOCKS, SCALED_KEY_BLOCKS  # noqa: E402
from support.graph_blocks import (  # noqa: E402  (property_run puts test/ on the path)
    ASSERTED_BLOCKS,
    DILATED_PADDING_BLOCKS, ODD_FILTER_1X1_BLOCKS, PACKED_WEIGHT_BLOCKS, PADDED_DEPTHWISE_BLOCKS, PADDED_FILTER_BLOCKS, PADDED_WEIGHT_BLOCKS, PROJECTION_BLOCKS, RESHAPED_ROOT_BLOCKS, SIBLING_1X1_BLOCKS, SPLIT_BROADCAST_BLOCKS,
    TILED_DEPTHWISE_BLOCKS,
    KEYS_OUTER_ATTENTION_BLOCKS,
    KEY_BLOCK_ATTENTION_BLOCKS,
    CONV1D_BLOCKS,
    ROW_SOFTMAX_BLOCKS,
    GROUPED_IM2COL_BLOCKS,
    GROUPED_TAPS_BLOCKS,
    KXK_CONV_BLOCKS,
    STRIDED_BLOCKS,
    WINOGRAD_BLOCKS,
    SQUEEZE_EXCITE_BLOCKS,
    WIDE_GROUPED_BLOCKS,
    UNEQUAL_TOWER_BLOCKS,
    block_position_embedding,
)

COUNT = 80
SEED = 3
# pass -> smallest share of the COUNT programs it must change (about 3/4 of what SEED gives).
FLOORS = {
    "canonicalize": 0.09,
    "convert-graph-to-linalg": 0.95,
    "convert-to-flow": 0.5,
    "cse": 0.35,
    "dce": 0.2,
    "form-dispatch-regions": 0.95,
    "graph-canonicalize": 0.18,
    "graph-hoist-pointwise-above-slices": 0.08,
    "graph-horizontal-fuse-dots": 0.08,
    "graph-propagate-constants": 0.3,
    "graph-reassociate-dots": 0.24,
    # Lower since graph-reassociate-dots keeps mixed-sign chains (fewer folded broadcast operands).
    "linalg-fold-transpose-into-matmul": 0.29,
    "linalg-fold-unit-reshapes": 0.27,
    "linalg-fuse-elementwise": 0.47,
    "linalg-interchange-for-fusion": 0.17,
    "linalg-merge-sibling-reductions": 0.33,
    "linalg-raise-attention": 0.05,
    # a generic in a region reading unit dims through constant 0s (this seed: 0.0375, 3 of 80)
    "dispatch-unit-dim-reads": 0.025,
    # every raised attention (1 x 1 tiles in the run: any drawn size fits)
    "dispatch-attention-cpu-tiles": 0.05,
    "linalg-shrink-broadcast-generics": 0.09,
    "linalg-split-k-contractions": 0.15,
}
# The passes for convolutions' forms and NT contraction operands, on programs drawn from
# `graph_blocks.FORM_BLOCKS` alone (FORM_COUNT programs of FORM_OPS steps; ~15 s).
FORM_COUNT, FORM_OPS = 48, 4
FORM_FLOORS = {
    "graph-fold-conv-affine": 0.1,
    "graph-horizontal-fuse-convs": 0.02,
    "linalg-conv-1x1-to-matmul": 0.14,
    # this seed gives 0.23; the NCHW rewrites below see the same convs in the opt-in run
    "linalg-conv-channels-last": 0.17,
    "linalg-depthwise-conv-drop-batch": 0.17,
    "linalg-transpose-nt-operands": 0.12,
    # this seed gives 0.06: depthwise convs over constant filters, whose transpose to
    # (kh, kw, c) is computed in numpy instead of left to IREE's JIT
    "linalg-fold-constants": 0.05,
    # this seed gives 0.23: the NCHW images the channels-last convs transpose, collapsed (the
    # dispatch-attention run's llvm-cpu stages)
    "linalg-collapse-transpose-dims": 0.2,
}
# Gathers at constant consecutive ids (position embeddings), drawn alone: GATHER_COUNT programs
# of `block_position_embedding` (~5 s). Its seed gives 0.83.
GATHER_COUNT = 12
GATHER_FLOORS = {"linalg-fold-constant-gather-indices": 0.6}
# Strided k x k convs (`graph_blocks.STRIDED_BLOCKS`), drawn on their own so FORM_FLOORS keep
# the shares they were set from (~8 s).
STRIDED_COUNT, STRIDED_OPS = 12, 3
STRIDED_FLOORS = {"linalg-strided-conv-to-im2col": 0.4}
# Batch-1 projections over weight arguments (`graph_blocks.PROJECTION_BLOCKS`, ~4 s): the opt-in
# run fuses sibling projections of one activation, gives CPU register tiles (1 x 16) and packs
# into batch_mmt4d (min-n=16). Its seed gives 0.33, 0.83 and 0.75.
PROJECTION_COUNT, PROJECTION_OPS = 12, 2
PROJECTION_FLOORS = {"dispatch-matmul-to-mmt4d": 0.35, "dispatch-matmul-cpu-tiles": 0.35,
                     "linalg-horizontal-fuse-contractions": 0.25}
# Stride-1 1x1 convs over one input with weight arguments (`graph_blocks.SIBLING_1X1_BLOCKS`,
# ~3 s): the opt-in run fuses those of one filter count. Its seed gives 0.25 (the other draws
# are not f32, which the block needs).
SIBLING_1X1_COUNT, SIBLING_1X1_OPS = 16, 2
SIBLING_1X1_FLOORS = {"linalg-horizontal-fuse-1x1-convs": 0.18}
# A per-channel broadcast split into groups by a reshape (`graph_blocks.SPLIT_BROADCAST_BLOCKS`,
# ~3 s): the expand moves above the broadcast. Its seed gives 0.44 (the rest fold earlier or
# draw unit groups).
SPLIT_BROADCAST_COUNT, SPLIT_BROADCAST_OPS = 16, 2
SPLIT_BROADCAST_FLOORS = {"linalg-bubble-expand-through-broadcast": 0.3}

# Towers of unequal widths (`graph_blocks.UNEQUAL_TOWER_BLOCKS`, ~45 s): batched zero-padded or
# block-diagonal where the cost model says it pays. Its seed gives 0.5 (6 of the 16 programs
# batch unequal layers; test_horizontal_unequal counts them).
UNEQUAL_COUNT, UNEQUAL_OPS = 16, 2
UNEQUAL_FLOORS = {"graph-horizontal-fuse-dots": 0.37}
# A grouped conv or a Linear layer over an NHWC image (`graph_blocks.RESHAPED_ROOT_BLOCKS`, ~15 s):
# a root's result reshaped before its epilogue. Its seed gives 0.31 and 0.50 (each program
# draws one of the two blocks, and the conv block skips f16/bf16); the grouped conv's gather +
# batched matmul (dispatch-creation) and its generic (the fewest and CUDA pipelines) both take it.
RESHAPED_ROOT_COUNT, RESHAPED_ROOT_OPS = 16, 2
# A 1x1 conv into 116 or 184 filters (`graph_blocks.ODD_FILTER_1X1_BLOCKS`, ~8 s): the
# dispatch-attention run's CPU tile stage gives it the matmul register tile (f32 only; an f64
# draw stays a conv). Its seed gives 1.0 (all four f32).
ODD_FILTER_1X1_COUNT, ODD_FILTER_1X1_OPS = 4, 1
ODD_FILTER_1X1_FLOORS = {"dispatch-conv-1x1-cpu-tiles": 0.5}
# A conv into 9-30 constant filters with a bias, ReLU and max pool
# (`graph_blocks.PADDED_FILTER_BLOCKS`): the dispatch-attention run pads its filters to 16 or 32
# (f32 and f64 draws; the others draw no block). Its seed gives 0.375 (3 of 8).
PADDED_FILTER_COUNT, PADDED_FILTER_OPS = 8, 1
# A dilated 3x3 conv over a constant filter whose outer taps read only padding
# (`graph_blocks.DILATED_PADDING_BLOCKS`; f32 and f64 draws, the others draw no block):
# graph-simplify slices its filter. Its seed gives 0.333 (2 of 6).
DILATED_PADDING_COUNT, DILATED_PADDING_OPS = 6, 1
DILATED_PADDING_FLOORS = {"graph-drop-padding-taps": 0.3}
PADDED_FILTER_FLOORS = {"linalg-pad-conv-filters": 0.3}
# A 1x1 conv into 9-30 constant filters, a 3x3 depthwise conv over a constant filter and a 1x1
# projection (`graph_blocks.PADDED_DEPTHWISE_BLOCKS`, ~10 s; f32 and f64 draws): the expansion
# is padded and its slice moves below the depthwise conv. Its seed gives 0.75 (6 of 8; 3 reach
# the depthwise conv through graph-to-dispatch-llvm-cpu).
PADDED_DEPTHWISE_COUNT, PADDED_DEPTHWISE_OPS = 8, 1
PADDED_DEPTHWISE_FLOORS = {"linalg-pad-conv-filters": 0.6}
# A 3x3 depthwise conv over 16 or 32 channels of a 7x7 or 8x8 image
# (`graph_blocks_conv.TILED_DEPTHWISE_BLOCKS`, ~3 s; f32 and f64 draws): the dispatch-attention
# run's CPU tile stage gives the f32 ones 7 (8) pixels x 16 (32) channels a register tile. Its
# seed gives 0.33 (2 of 6).
TILED_DEPTHWISE_COUNT, TILED_DEPTHWISE_OPS = 6, 1
TILED_DEPTHWISE_FLOORS = {"dispatch-depthwise-cpu-tiles": 0.3}
# RegNetX's grouped 3x3 conv, 2 groups of 16 channels into 16 filters each, at a 4x4 or 12x12
# output (`graph_blocks_conv.GROUPED_IM2COL_BLOCKS`; f32 and f64 draws): the dispatch-attention
# run's CPU tile stage gives the f32 ones' im2col matmuls one group a workgroup. Its seed gives
# 0.25 (3 of 12).
GROUPED_IM2COL_COUNT, GROUPED_IM2COL_OPS = 12, 1
GROUPED_IM2COL_FLOORS = {"dispatch-grouped-im2col-cpu-tiles": 0.2}
# RegNetX's and ResNeXt's grouped 3x3 convs, 2 groups of 16 or 4 groups of 8, at a 7x7 or 8x8
# output (`graph_blocks_conv.GROUPED_TAPS_BLOCKS`; f32 and f64 draws): the dispatch-attention
# run sums the f32 ones' taps and its CPU tile stage gives them register tiles. Its seed gives
# 0.25 (3 of 12).
GROUPED_TAPS_COUNT, GROUPED_TAPS_OPS = 12, 1
GROUPED_TAPS_FLOORS = {"dispatch-grouped-taps-cpu-tiles": 0.2}
# ResNet's 3x3 conv, 16 channels into 32 filters at a 7x7 or 8x8 output
# (`graph_blocks_conv.KXK_CONV_BLOCKS`; f32 and f64 draws): the dispatch-attention run's CPU tile
# stage gives the f32 ones 7 (8) pixels x 32 filters a register tile, and its last pass reads
# their biases from outside the regions. Its seed gives 0.25 (3 of 12) for both.
KXK_CONV_COUNT, KXK_CONV_OPS = 12, 1
KXK_CONV_FLOORS = {"dispatch-conv-kxk-cpu-tiles": 0.2, "dispatch-hoist-dense-constants": 0.2}
# ResNet's later 3x3 convs, 64 channels into 64 filters at 6x6, 7x6 or 8x8 outputs
# (`graph_blocks_conv.WINOGRAD_BLOCKS`; f32 and f64 draws): the CPU pipelines compute the f32
# ones as Winograd F(2x2, 3x3), and the dispatch-attention run's CPU tile stage configures
# their input transforms. Its seed gives 0.375 (3 of 8) for both.
WINOGRAD_COUNT, WINOGRAD_OPS = 8, 1
WINOGRAD_FLOORS = {"linalg-conv-winograd": 0.25, "dispatch-winograd-cpu-tiles": 0.25}
# EfficientNet's squeeze-excitation over 16 or 32 channels (`graph_blocks_conv.SQUEEZE_EXCITE_BLOCKS`;
# f32 and f64 draws): the depthwise conv's SiLU, written NCHW for the mean and the scale, is
# written in its loop order (channels last). Its seed gives 1.0 (6 of 6).
SQUEEZE_EXCITE_COUNT, SQUEEZE_EXCITE_OPS = 6, 1
SQUEEZE_EXCITE_FLOORS = {"linalg-sink-output-transposes": 0.75}
# A transformer MLP's expanding layer with torch's exact GELU (`graph_blocks_transformer.GELU_BLOCKS`; f32
# and f64 draws): the dispatch-attention run computes the f32 ones' erf as one rational function,
# 1/sqrt(2) in its coefficients. Its seed gives 0.875 (7 of 8).
GELU_COUNT, GELU_OPS = 8, 1
GELU_FLOORS = {"linalg-rational-erf": 0.6}
# Attention's K viewed [1, T, H, D], transposed [1, H, D, T] and scaled
# (`graph_blocks_transformer.SCALED_KEY_BLOCKS`; f32 and f64 draws): the dispatch-attention run
# computes the scale-and-transpose without the unit loop its input does not read. Its seed gives
# 0.625 (5 of 8).
SCALED_KEY_COUNT, SCALED_KEY_OPS = 8, 1
SCALED_KEY_FLOORS = {"dispatch-transpose-unit-loops": 0.45}
# MoE experts gathered per row by run-time ids and multiplied by the row
# (`graph_blocks_transformer.GATHERED_EXPERT_BLOCKS`; f32 and f64 draws): graph-simplify computes
# every expert for every row as one matmul; lowered as they are, the opt-in run reads the
# gathered matrices in place in the contraction (the llvm-cpu pipelines' form).
GATHERED_EXPERT_COUNT, GATHERED_EXPERT_OPS = 6, 1
GATHERED_EXPERT_FLOORS = {"graph-dense-experts": 0.5, "linalg-gather-into-contraction": 0.5}
# A softmax over 2-3 rows of 20, 33 or 45 elements (`graph_blocks.ROW_SOFTMAX_BLOCKS`; f32 and f64
# draws): the dispatch-attention run's CPU tile stage gives the f32 ones' reductions whole-row
# vectors. Its seed gives 0.67 (4 of 6).
ROW_SOFTMAX_COUNT, ROW_SOFTMAX_OPS = 6, 1
ROW_SOFTMAX_FLOORS = {"dispatch-reduction-cpu-tiles": 0.3}
# A LayerNorm over 1-3 rows of 256, 300 or 384 values (`graph_blocks_norm.WIDE_NORM_BLOCKS`; f32
# and f64 draws): its mean accumulates in f64, and the f32 ones subtract it in f64 in every
# dispatch-creation run. Its seed gives 0.5 (4 of 8).
WIDE_NORM_COUNT, WIDE_NORM_OPS = 8, 1
WIDE_NORM_FLOORS = {"linalg-widen-mean-subtractions": 0.35}
# Attention whose V comes as [keys, heads, dv] (`graph_blocks.KEYS_OUTER_ATTENTION_BLOCKS`): in
# the dispatch-attention run (raised at every size) the copy puts V's heads outermost.
KEYS_OUTER_ATTENTION_COUNT, KEYS_OUTER_ATTENTION_OPS = 6, 1
KEYS_OUTER_ATTENTION_FLOORS = {"linalg-attention-value-rows": 0.3}
# f32 attention at head dim 32 over 33, 40 or 64 keys (`graph_blocks.KEY_BLOCK_ATTENTION_BLOCKS`;
# the other draws' element types give no block): in the dispatch-attention run (raised at every
# size) K is read transposed, padded to whole blocks of 32 but at 64. Its seed gives 0.25 (3 of 12).
KEY_BLOCK_ATTENTION_COUNT, KEY_BLOCK_ATTENTION_OPS = 12, 1
KEY_BLOCK_ATTENTION_FLOORS = {"linalg-attention-key-blocks": 0.15}
# Two 1-D convs over constant filters, a GroupNorm or not between them (`graph_blocks_conv.CONV1D_BLOCKS`;
# the other draws' element types give no block): in the dispatch-attention run both compute
# channels last as patch matmuls. Its seed gives 0.33 (4 of 12).
CONV1D_COUNT, CONV1D_OPS = 12, 1
CONV1D_FLOORS = {"linalg-conv1d-channels-last": 0.25, "linalg-conv1d-patches": 0.25}
# Grouped-query attention with its K/V heads repeated (`graph_blocks_gqa.REPEATED_KV_BLOCKS`): in
# the opt-in run both contractions read the shared heads.
REPEATED_KV_COUNT, REPEATED_KV_OPS = 6, 1
REPEATED_KV_FLOORS = {"linalg-contract-shared-heads": 0.25}
# A 1x1 conv or a Linear layer into 96, 128 or 192 outputs over constant weights
# (`graph_blocks.PACKED_WEIGHT_BLOCKS`, f32 draws only): the dispatch-attention run reads the
# weights packed in panels. Its seed gives 0.125 and 0.375 (1 conv and 3 Linear layers of 8).
PACKED_WEIGHT_COUNT, PACKED_WEIGHT_OPS = 8, 1
PACKED_WEIGHT_FLOORS = {"linalg-pack-conv-filters": 0.1, "linalg-pack-matmul-weights": 0.3}
# A Linear layer into 200, 330 or 1000 outputs over a constant f32 weight
# (`graph_blocks.PADDED_WEIGHT_BLOCKS`, ~11 s): the dispatch-attention run pads its columns to
# whole panels and packs them. Its seed gives 1.0 (8 of 8).
PADDED_WEIGHT_COUNT, PADDED_WEIGHT_OPS = 8, 1
PADDED_WEIGHT_FLOORS = {"linalg-pad-matmul-weights": 0.5}
# torch-mlir's reciprocal with its payload assert amid graph ops (`graph_blocks.ASSERTED_BLOCKS`;
# the graph programs' own lowering writes no asserts): every pipeline over linalg drops it.
ASSERTED_COUNT, ASSERTED_OPS = 8, 2
ASSERTED_FLOORS = {"linalg-drop-payload-asserts": 0.5}
# A grouped 3x3 conv with 16 filters per group over a constant filter
# (`graph_blocks.WIDE_GROUPED_BLOCKS`; f32 and f64 draws, the others draw no block): the CPU and
# generic pipelines compute it channels last, the patches (im2col op at batch 1) + group-batched matmul.
WIDE_GROUPED_COUNT, WIDE_GROUPED_OPS = 6, 1
WIDE_GROUPED_FLOORS = {"linalg-conv-channels-last": 0.3}
RESHAPED_ROOT_FLOORS = {"linalg-generalize-grouped-convs": 0.25, "linalg-grouped-conv-to-im2col": 0.25,
                        "linalg-sink-reshapes": 0.4}


@pytest.fixture(scope="module")
def report():
    return property_run.run_property(COUNT, SEED, max_ops=10)


@pytest.fixture(scope="module")
def form_report():
    return property_run.run_property(FORM_COUNT, SEED, max_ops=FORM_OPS, blocks=property_run.FORM_BLOCKS)


@pytest.fixture(scope="module")
def gather_report():
    return property_run.run_property(GATHER_COUNT, SEED, max_ops=2, blocks=(block_position_embedding,))


@pytest.fixture(scope="module")
def strided_report():
    return property_run.run_property(STRIDED_COUNT, SEED, max_ops=STRIDED_OPS, blocks=STRIDED_BLOCKS)


def assert_valid_equal_and_changed(report, count: int, floors: dict[str, float]) -> None:
    """A block set's run: `count` programs, none invalid, crashing, hanging or wrong, and each
    pass of `floors` changed at least its stated share of them."""
    assert report.count == count
    assert report.bad() == {}, report.table(show=3)
    for name, floor in floors.items():
        assert report.change_share(name) >= floor, report.table()


def test_every_program_through_every_pipeline_is_valid_and_equal(report):
    print(report.table())
    assert report.count == COUNT
    assert report.bad() == {}, report.table(show=3)


def test_form_programs_through_every_pipeline_are_valid_and_equal(form_report):
    assert form_report.count == FORM_COUNT
    assert form_report.bad() == {}, form_report.table(show=3)


def test_strided_conv_programs_through_every_pipeline_are_valid_and_equal(strided_report):
    assert strided_report.count == STRIDED_COUNT
    assert strided_report.bad() == {}, strided_report.table(show=3)


@pytest.mark.parametrize("name", sorted(STRIDED_FLOORS))
def test_strided_pass_changes_a_stated_share(strided_report, name):
    assert strided_report.reached[name] == STRIDED_COUNT
    assert strided_report.change_share(name) >= STRIDED_FLOORS[name], strided_report.table()


@pytest.fixture(scope="module")
def projection_report():
    return property_run.run_property(PROJECTION_COUNT, SEED, max_ops=PROJECTION_OPS, blocks=PROJECTION_BLOCKS)


def test_projection_programs_are_valid_and_equal_and_packed(projection_report):
    assert_valid_equal_and_changed(projection_report, PROJECTION_COUNT, PROJECTION_FLOORS)
    for name in PROJECTION_FLOORS:
        assert projection_report.reached[name] == PROJECTION_COUNT


def test_every_registered_pass_has_a_floor():
    floors = (FLOORS, FORM_FLOORS, GATHER_FLOORS, STRIDED_FLOORS, PROJECTION_FLOORS, SIBLING_1X1_FLOORS,
              SPLIT_BROADCAST_FLOORS, UNEQUAL_FLOORS, RESHAPED_ROOT_FLOORS, ODD_FILTER_1X1_FLOORS,
              PADDED_FILTER_FLOORS, PACKED_WEIGHT_FLOORS, PADDED_WEIGHT_FLOORS, DILATED_PADDING_FLOORS, ASSERTED_FLOORS,
              TILED_DEPTHWISE_FLOORS, ROW_SOFTMAX_FLOORS, KEYS_OUTER_ATTENTION_FLOORS, KEY_BLOCK_ATTENTION_FLOORS, CONV1D_FLOORS, REPEATED_KV_FLOORS, GROUPED_IM2COL_FLOORS, GROUPED_TAPS_FLOORS, KXK_CONV_FLOORS, WIDE_NORM_FLOORS, WINOGRAD_FLOORS, SQUEEZE_EXCITE_FLOORS,
              GELU_FLOORS, SCALED_KEY_FLOORS, GATHERED_EXPERT_FLOORS)
    assert set().union(*floors) == set(registry.get_all_passes()) - set(property_run.NOT_REACHED)


@pytest.mark.parametrize("name", sorted(FORM_FLOORS))
def test_form_pass_changes_a_stated_share(form_report, name):
    assert form_report.reached[name] == FORM_COUNT
    assert form_report.change_share(name) >= FORM_FLOORS[name], form_report.table()


def test_gather_programs_are_valid_and_equal_and_folded(gather_report):
    assert_valid_equal_and_changed(gather_report, GATHER_COUNT, GATHER_FLOORS)


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_pass_changes_a_stated_share(report, name):
    assert report.reached[name] == COUNT, f"{name} ran on {report.reached[name]} programs"
    assert report.change_share(name) >= FLOORS[name], report.table()


# Block sets drawn alone whose test is only "valid, equal, and each pass of the floors changed
# its share": name -> (program count, ops per program, blocks, floors).
BLOCK_SET_RUNS = {
    "sibling_1x1": (SIBLING_1X1_COUNT, SIBLING_1X1_OPS, SIBLING_1X1_BLOCKS, SIBLING_1X1_FLOORS),
    "split_broadcast": (SPLIT_BROADCAST_COUNT, SPLIT_BROADCAST_OPS, SPLIT_BROADCAST_BLOCKS, SPLIT_BROADCAST_FLOORS),
    "unequal_towers": (UNEQUAL_COUNT, UNEQUAL_OPS, UNEQUAL_TOWER_BLOCKS, UNEQUAL_FLOORS),
    "reshaped_root": (RESHAPED_ROOT_COUNT, RESHAPED_ROOT_OPS, RESHAPED_ROOT_BLOCKS, RESHAPED_ROOT_FLOORS),
    "odd_filter_1x1": (ODD_FILTER_1X1_COUNT, ODD_FILTER_1X1_OPS, ODD_FILTER_1X1_BLOCKS, ODD_FILTER_1X1_FLOORS),
    "padded_filters": (PADDED_FILTER_COUNT, PADDED_FILTER_OPS, PADDED_FILTER_BLOCKS, PADDED_FILTER_FLOORS),
    "padded_depthwise": (PADDED_DEPTHWISE_COUNT, PADDED_DEPTHWISE_OPS, PADDED_DEPTHWISE_BLOCKS, PADDED_DEPTHWISE_FLOORS),
    "tiled_depthwise": (TILED_DEPTHWISE_COUNT, TILED_DEPTHWISE_OPS, TILED_DEPTHWISE_BLOCKS, TILED_DEPTHWISE_FLOORS),
    "row_softmax": (ROW_SOFTMAX_COUNT, ROW_SOFTMAX_OPS, ROW_SOFTMAX_BLOCKS, ROW_SOFTMAX_FLOORS),
    "wide_norm": (WIDE_NORM_COUNT, WIDE_NORM_OPS, WIDE_NORM_BLOCKS, WIDE_NORM_FLOORS),
    "repeated_kv": (REPEATED_KV_COUNT, REPEATED_KV_OPS, REPEATED_KV_BLOCKS, REPEATED_KV_FLOORS),
    "keys_outer_attention": (KEYS_OUTER_ATTENTION_COUNT, KEYS_OUTER_ATTENTION_OPS, KEYS_OUTER_ATTENTION_BLOCKS,
                             KEYS_OUTER_ATTENTION_FLOORS),
    "key_block_attention": (KEY_BLOCK_ATTENTION_COUNT, KEY_BLOCK_ATTENTION_OPS, KEY_BLOCK_ATTENTION_BLOCKS,
                            KEY_BLOCK_ATTENTION_FLOORS),
    "conv1d": (CONV1D_COUNT, CONV1D_OPS, CONV1D_BLOCKS, CONV1D_FLOORS),
    "grouped_im2col": (GROUPED_IM2COL_COUNT, GROUPED_IM2COL_OPS, GROUPED_IM2COL_BLOCKS, GROUPED_IM2COL_FLOORS),
    "grouped_taps": (GROUPED_TAPS_COUNT, GROUPED_TAPS_OPS, GROUPED_TAPS_BLOCKS, GROUPED_TAPS_FLOORS),
    "kxk_conv": (KXK_CONV_COUNT, KXK_CONV_OPS, KXK_CONV_BLOCKS, KXK_CONV_FLOORS),
    "winograd": (WINOGRAD_COUNT, WINOGRAD_OPS, WINOGRAD_BLOCKS, WINOGRAD_FLOORS),
    "squeeze_excite": (SQUEEZE_EXCITE_COUNT, SQUEEZE_EXCITE_OPS, SQUEEZE_EXCITE_BLOCKS, SQUEEZE_EXCITE_FLOORS),
    "gelu": (GELU_COUNT, GELU_OPS, GELU_BLOCKS, GELU_FLOORS),
    "scaled_keys": (SCALED_KEY_COUNT, SCALED_KEY_OPS, SCALED_KEY_BLOCKS, SCALED_KEY_FLOORS),
    "gathered_experts": (GATHERED_EXPERT_COUNT, GATHERED_EXPERT_OPS, GATHERED_EXPERT_BLOCKS, GATHERED_EXPERT_FLOORS),
    "packed_weights": (PACKED_WEIGHT_COUNT, PACKED_WEIGHT_OPS, PACKED_WEIGHT_BLOCKS, PACKED_WEIGHT_FLOORS),
    "padded_weights": (PADDED_WEIGHT_COUNT, PADDED_WEIGHT_OPS, PADDED_WEIGHT_BLOCKS, PADDED_WEIGHT_FLOORS),
    "dilated_padding": (DILATED_PADDING_COUNT, DILATED_PADDING_OPS, DILATED_PADDING_BLOCKS, DILATED_PADDING_FLOORS),
    "asserted": (ASSERTED_COUNT, ASSERTED_OPS, ASSERTED_BLOCKS, ASSERTED_FLOORS),
    "wide_grouped": (WIDE_GROUPED_COUNT, WIDE_GROUPED_OPS, WIDE_GROUPED_BLOCKS, WIDE_GROUPED_FLOORS),
}


@pytest.mark.parametrize("name", sorted(BLOCK_SET_RUNS))
def test_block_set_programs_are_valid_and_equal_and_rewritten(name: str):
    count, ops, blocks, floors = BLOCK_SET_RUNS[name]
    assert_valid_equal_and_changed(property_run.run_property(count, SEED, max_ops=ops, blocks=blocks), count, floors)

