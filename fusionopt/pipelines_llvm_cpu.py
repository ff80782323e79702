"""The llvm-cpu pipelines' differences from dispatch-creation, each with why it is there.

`registry.py` builds `dispatch-creation-llvm-cpu` and `dispatch-creation-llvm-cpu-fewest` from
these tables: a stage of dispatch-creation (as written there) -> what runs in its place, and the
CPU register-tile stage run after region formation. Kept apart because the reasons, each with
its measurement, outgrow the registry.
"""

from __future__ import annotations

# dispatch-creation for IREE's llvm-cpu backend only: matmul regions get an IREE CPU lowering
# config with a wide register tile (IREE's own 8 x 16 tile leaves the FMA units idle), and
# attention ops (those the input brings, and the long ones the pipeline raises, below) one over
# whole head dims (IREE's own walks 4 keys x 16 columns at a time, 2.6x-33x
# slower), channels-last 1x1 convs whose filter count IREE splits into 2-lane vectors the
# matmul tile, and depthwise convs 8 (7) pixels x 32 channels (IREE's own keeps 4 accumulators:
# mnasnet1_0's depthwise convs 0.75x of the time), and a softmax's row reductions whole rows
# (its two dispatches 0.5x of the time in vit_s16_6l), and a grouped conv's im2col matmul one
# group a workgroup (RegNetX's at 112x112 and 56x56 ~0.5x-0.6x of the time), an NCHW conv's im2col
# matmul (the `-fewest` forms) one patch row a reduction step (IREE's 15-16 unroll the tile's
# im2col into 256 masked reads, 8-10 s of `iree-compile` an executable), and a grouped conv's
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
# (It runs here, after the tiles' passes' regions are final: dispatch-creation's own run of it is
# dropped below.)
# Then a generic that reads its one input transposed and iterates a unit loop that input does not
# read (attention's scaled K written [1, heads, dim, keys]) computes without it: IREE runs a full
# permutation as a transpose and a read that leaves a loop out as a broadcast, each vector
# gathered element by element (vit_s16_6l's 112 -> 11 us; `transpose_unit_loops.py`).
UNIT_READS = "dispatch-unit-dim-reads"
CPU_TILES = ("dispatch-unit-dim-reads,dispatch-transpose-unit-loops,dispatch-matmul-cpu-tiles,dispatch-attention-cpu-tiles,dispatch-conv-1x1-cpu-tiles,dispatch-depthwise-cpu-tiles,"
             "dispatch-reduction-cpu-tiles,dispatch-grouped-im2col-cpu-tiles,dispatch-im2col-cpu-tiles,dispatch-grouped-taps-cpu-tiles,"
             "dispatch-conv-kxk-cpu-tiles,dispatch-winograd-cpu-tiles,dispatch-hoist-dense-constants")
# Last, each f32 erf is one rational function of its operand, GELU's 1/sqrt(2) in its
# coefficients: IREE lowers erf with three intervals' coefficients picked by selects, ~35 vector
# ops an element, in the epilogue of a GELU's expanding matmul (convnext_tiny's 56x56 stage:
# 0.7 ms of that 3.0 ms dispatch; `linalg_rational_erf.py`). After the regions are final: the
# rewrite is inside payloads and changes no region.
CPU_PAYLOADS = "linalg-rational-erf"
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
# An elementwise generic that writes its result permuted for generics only writes it in loop
# order, its readers taking the permutation (EfficientNet's SE blocks: the SiLU written NCHW for
# the mean and the scale, the scale writing it channels last again; EfficientNet-B1 0.96x of its
# time, `linalg_sink_output_transposes.py`).
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
# Then 3x3 stride-1 convs over constant filters of 32 channels and filters or more (64 past
# 56x56 outputs) are Winograd F(2x2, 3x3): an input transform, a batch matmul of the 16
# transformed values with the filter transformed at build time, an output transform that takes
# the conv's epilogue; 16 multiplies
# where the direct conv, already at the FMA peak, takes 36 (resnet18 36.4 -> 27.4 ms at one
# thread; `linalg_conv_winograd.py`). Its input transform gets 4 k x 16 channel register tiles,
# and the batch matmul reads its constant weight packed in panels like a matmul's (ResNet's 7x7
# stage's products stream 16 MB of weight each: 0.60x of IREE's own tile, resnet18 0.91x of its
# time; `linalg_pack_matmul_weights.py`); one panel of filters keeps IREE's own tile
# (`matmul_cpu_tiles`).
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
# 1-D convs over constant filters (audio encoders' feature convs) compute channels last, the
# activations between them too (a GroupNorm's and a GELU's generics; its variance summed in
# f64), first, before the 2-D convs' own channels-last stage; after elementwise fusion each is a
# patch copy and a matmul with a [KW*C, F] weight, which is packed like a linear layer's: the
# NCHW im2col matmul left its constant filter on the left, unpacked (wav2vec2's strided convs
# 0.5x-0.8x of their time, the model 1.15x -> 0.95x of onnxruntime's at one thread;
# `linalg_conv1d_channels_last.py`, `linalg_conv1d_patches.py`).
# An activation transposed into a matmul over a constant weight stays a copy: IREE's CPU matmul
# read it K-major at 16 G multiply-adds/s (EnCodec's LSTM input projection), not packed.
# Matvecs over matrices gathered per row (MoE experts left gathered by graph-dense-experts) read
# each matrix in place in the contraction's payload, before elementwise fusion changes the
# gather (IREE's CUDA codegen cannot distribute that form: CPU only; OLMoE's down projection,
# `linalg_gather_into_contraction.py`).
GATHERS_IN_PLACE = {"linalg-drop-payload-asserts": "linalg-drop-payload-asserts,linalg-gather-into-contraction"}
CPU_RAISE_MIN_SCORES_BYTES = 16 * 1024 * 1024
CPU_LINALG_CHANGES = {**GATHERS_IN_PLACE,
                      "linalg-fold-transpose-into-matmul": "linalg-fold-transpose-into-matmul{row-major-activations=true}",
                      "linalg-conv-channels-last": "linalg-conv1d-channels-last,linalg-conv-channels-last{grouped-taps=true},"
                       "linalg-conv-winograd",
                       "linalg-strided-conv-to-im2col": "linalg-strided-conv-to-im2col,linalg-fold-unit-reshapes",
                       "linalg-merge-sibling-reductions": "linalg-merge-sibling-reductions,"
                       f"linalg-raise-attention{{min-scores-bytes={CPU_RAISE_MIN_SCORES_BYTES}}},"
                       f"linalg-attention-key-blocks{{min-scores-bytes={CPU_RAISE_MIN_SCORES_BYTES}}},"
                       f"linalg-attention-value-rows{{min-scores-bytes={CPU_RAISE_MIN_SCORES_BYTES}}},"
                       "linalg-contract-shared-heads",
                       "linalg-fuse-elementwise{aggressive=false}":
                       "linalg-fuse-elementwise{aggressive=false},linalg-conv1d-patches,linalg-pad-conv-filters,linalg-pack-conv-filters,"
                       "linalg-pad-matmul-weights,linalg-pack-matmul-weights",
                       # the filter padding runs above, with the panels the packing needs
                       "linalg-pad-conv-filters{panel-min-channels=0}": "",
                       "form-dispatch-regions": "linalg-sink-output-transposes,linalg-collapse-transpose-dims,"
                       "form-dispatch-regions{pads-into-depthwise=true padded-results=0}",
                       UNIT_READS: ""}

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
FEWEST_CHANGES = {**GATHERS_IN_PLACE,
    "linalg-conv-channels-last": "",
    # Grouped convs stay IREE's grouped-conv op (no gather dispatch), but groups of 128 input
    # channels and more are matmuls of their own, which that op runs at 3-5 GFLOP/s: gathered
    # and group-batched (SqueezeBERT's 4 groups of 192 and 768 channels).
    "linalg-grouped-conv-to-im2col": "linalg-grouped-conv-to-im2col{min-group-channels=128}",
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
    UNIT_READS: "",
}
