"""transformers vision (and one text) backbones beyond the corpus, for the build sweep at real
sizes: built from configs with random init (nothing downloaded), one input -> the backbone's
`last_hidden_state`, batch 1, 224x224 images (bench/export_encoders.py's conventions: real base
widths, fewer layers where a family repeats one block). Imported by bench/export_models.py
(`VISION_ENCODER_MODELS`, exported with `--forms inline`). What each brings that the passes were
not written against:

- segformer: MiT-b0 (Mix Transformer): overlapping strided patch-embedding convs, attention whose
  keys and values come from a strided conv that shrinks the sequence (spatial reduction), a
  depthwise 3x3 conv inside each MLP over the tokens reshaped back to an image;
- mobilevit: MobileViT-S: inverted residual convs, then transformer blocks over unfolded 2x2
  patches (reshape/transpose folds the image into sequences and back), SiLU everywhere;
- convnextv2: ConvNeXt V2-tiny's blocks (2 per stage): depthwise 7x7 convs, LayerNorm over
  channels, and GRN (global response normalization: an L2 norm over the pixels, divided by its
  channel mean);
- poolformer: PoolFormer-S12: 3x3 average pooling as the token mixer (`count_include_pad=False`),
  GroupNorm(1) as its norm;
- levit: LeViT-128S: convs then attention with learned per-head position biases gathered by
  offset, subsampling attention, Hardswish, BatchNorm after every linear;
- dinov2: DINOv2-small widths (patch 14, 224 -> 16x16 tokens, interpolated positions), LayerScale;
- beit: BEiT-base widths, 2 layers: relative position bias tables gathered per layer, mean pooling;
- squeezebert: SqueezeBERT: its Q/K/V and FFN projections are grouped 1-D convs (4 groups).

`MORE_VISION_ENCODERS`, the second sweep (same conventions):
- mobilevitv2: separable self-attention (a softmax over one context score per patch), patches
  folded back with Col2Im (torch's `fold`; IREE's own import cannot lower it), GroupNorm(1);
- swiftformer: efficient additive attention, its query weights broadcast by `repeat` (Tile);
- cvt: convolutional projections (depthwise 3x3 conv + BatchNorm) of queries, keys and values;
- pvt_v2: spatial-reduction attention, a depthwise conv in each MLP (overlapping patch embeds);
- focalnet: focal modulation, depthwise convs at growing kernels, gated by channels-last slices,
  a global context mean broadcast back over the pixels;
- bit: weight-standardized convs (the weights' mean and variance computed in the graph), GroupNorm;
- hiera: mask-unit attention (tokens unrolled into units and rerolled by reshapes/transposes);
- glpn: GLPN's MiT encoder at its defaults (MiT-b0: the same widths as pvt_v2's b0, SegFormer's
  attention and Mix-FFN);
- convbert: span-based dynamic convolution (an unfold of the tokens, kernels predicted per token);
- mobilebert: 128-wide bottlenecks, four stacked FFNs, NoNorm (a per-channel affine);
- funnel: blocks that pool the tokens by half, relative-shift attention (ScatterND assignments).
"""

from __future__ import annotations

import torch

from export_encoders import LAYERS, LastHidden, text_encoder

IMAGE = 224


def _pixels() -> dict[str, torch.Tensor]:
    return {"pixel_values": torch.randn(1, 3, IMAGE, IMAGE)}


def vision_backbone(family: str, model_class: str, **options):
    """transformers' `model_class` from `AutoConfig.for_model(family, **options)`, on a 224x224 image."""
    def build():
        import transformers

        config = transformers.AutoConfig.for_model(family, **options)
        model = getattr(transformers, model_class)(config)
        return LastHidden(model, "pixel_values"), _pixels(), config.to_dict()
    return build


_TWO_PER_STAGE = {"depths": [2, 2, 2, 2]}

VISION_ENCODER_MODELS = {
    "vision/segformer": (vision_backbone("segformer", "SegformerModel"),
                         "SegformerModel, MiT-b0 widths (32/64/160/256, reduction ratios 8/4/2/1), 224x224", False),
    "vision/mobilevit": (vision_backbone("mobilevit", "MobileViTModel", image_size=IMAGE),
                         "MobileViTModel, MobileViT-S widths (its config's defaults), 224x224 (the default 256 "
                         "set to 224)", False),
    "vision/convnextv2": (vision_backbone("convnextv2", "ConvNextV2Model", **_TWO_PER_STAGE,
                                          hidden_sizes=[96, 192, 384, 768]),
                          "ConvNextV2Model, ConvNeXt V2-tiny widths, 2 blocks a stage, 224x224", False),
    "vision/poolformer": (vision_backbone("poolformer", "PoolFormerModel"),
                          "PoolFormerModel, PoolFormer-S12 (its config's defaults), 224x224", False),
    "vision/levit": (vision_backbone("levit", "LevitModel"),
                     "LevitModel, LeViT-128S (its config's defaults), 224x224", False),
    "vision/dinov2": (vision_backbone("dinov2", "Dinov2Model", hidden_size=384, num_attention_heads=6,
                                      num_hidden_layers=LAYERS, image_size=518, patch_size=14),
                      "Dinov2Model, DINOv2-small widths (384, 6 heads, patch 14, positions for 518 "
                      "interpolated to 224), 2 layers", False),
    "vision/beit": (vision_backbone("beit", "BeitModel", num_hidden_layers=LAYERS,
                                    use_relative_position_bias=True, use_mean_pooling=True,
                                    attn_implementation="eager"),
                    "BeitModel, BEiT-base widths, per-layer relative position bias, 2 layers, 224x224 (eager "
                    "attention: torch 2.13 cannot export its SDPA path)", False),
    "encoder/squeezebert": (text_encoder("squeezebert", num_hidden_layers=LAYERS),
                            "SqueezeBertModel, squeezebert-uncased widths (768, grouped 1-D convs), 2 layers, "
                            "seq 128", False),
}

# The second sweep's backbones. Their BatchNorm statistics are calibrated on random images like
# the torchvision models' (export_models.calibrate_batchnorm): with init statistics MobileViTV2's
# activations shrink ~1e-10 a stage, and its output did not depend on the input at all.
MORE_VISION_ENCODERS = {
    "vision/mobilevitv2": (vision_backbone("mobilevitv2", "MobileViTV2Model", image_size=IMAGE),
                           "MobileViTV2Model, MobileViTV2-1.0 (its config's defaults), 224x224", False),
    "vision/swiftformer": (vision_backbone("swiftformer", "SwiftFormerModel"),
                           "SwiftFormerModel, SwiftFormer-XS (its config's defaults), 224x224", False),
    "vision/cvt": (vision_backbone("cvt", "CvtModel"),
                   "CvtModel, CvT-13 (its config's defaults: convolutional projections of queries, keys and "
                   "values), 224x224", False),
    "vision/pvt_v2": (vision_backbone("pvt_v2", "PvtV2Model"),
                      "PvtV2Model, PVTv2-b0 (its config's defaults), 224x224", False),
    "vision/focalnet": (vision_backbone("focalnet", "FocalNetModel", depths=[1, 1, 2, 1]),
                        "FocalNetModel, FocalNet-T widths (96..768, focal level 2), 1/1/2/1 blocks, 224x224", False),
    "vision/bit": (vision_backbone("bit", "BitModel", depths=[1, 1, 1, 1]),
                   "BitModel, BiT-R50 widths (weight-standardized convs, GroupNorm), 1 block a stage, 224x224",
                   False),
    "vision/hiera": (vision_backbone("hiera", "HieraModel", depths=[1, 1, 2, 1]),
                     "HieraModel, Hiera-T widths (mask-unit attention), 1/1/2/1 blocks, 224x224", False),
    "vision/glpn": (vision_backbone("glpn", "GLPNModel"),
                    "GLPNModel, GLPN's MiT encoder at MiT-b0 widths (its config's defaults), 224x224", False),
    "encoder/convbert": (text_encoder("convbert", num_hidden_layers=LAYERS),
                         "ConvBertModel, convbert-base widths (span-based dynamic convolution), 2 layers, seq 128",
                         False),
    "encoder/mobilebert": (text_encoder("mobilebert", num_hidden_layers=LAYERS),
                           "MobileBertModel, mobilebert-uncased widths (bottleneck 128, 4 FFNs, NoNorm), "
                           "2 layers, seq 128", False),
    "encoder/funnel": (text_encoder("funnel", block_sizes=[1, 1, 1], model_class="FunnelBaseModel"),
                       "FunnelBaseModel, funnel-small widths (pooled blocks, relative shifts), 1 layer "
                       "a block, seq 128", False),
}
