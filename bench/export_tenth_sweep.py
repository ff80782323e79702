"""Models of a tenth build sweep (`TENTH_SWEEP`, exported by bench/export_models.py with
`--forms inline`): families the earlier sweeps did not have, conventions as
bench/export_ninth_sweep.py's. What each brings that the importer was not written against:

- mixtral: a Mixtral decoder (hidden 256, 4 layers, 8 experts, 2 a token) with transformers'
  `batched_mm` experts, the form torch.export traces (the default grouped-matmul kernel is a
  custom op the ONNX exporter lacks; the eager loop's token counts are data-dependent): the
  router's softmax and top-2, each token's row repeated for its experts, the experts' weights
  gathered per token (GatherND on an [8, 1024, 256] constant) and batched matvecs;
- qwen2_moe: Qwen2-MoE's sparse blocks (8 experts of 256, 2 a token) beside a shared expert
  gated by a sigmoid of its own projection;
- jamba: Jamba (attention every other layer, the rest Mamba-1 selective scans unrolled over the
  64 tokens; MoE of 4 experts every other layer);
- sam: Segment Anything (ViT-B widths, 4 layers of which 2 global, at 1024x1024; windowed
  attention over 14 x 14 windows padded from 64 x 64 patches, decomposed relative positions; a
  prompt of two points through random Fourier features; the two-way mask decoder with its
  transposed-conv upscaling and hypernetwork MLPs);
- mask2former: Mask2Former (Swin-T backbone at 384x384, a deformable-attention pixel decoder by
  bilinear grid sampling, a 4-layer masked-attention decoder whose masks come from sigmoid <
  0.5, rows masked whole let through).

SAM and Mask2Former are exported without gradients (`requires_grad_(False)`): with them,
torch.export's decomposition fails on their attention windows' views ("Cannot view a tensor with
shape [1, 64, 64, 12, 64] ... as [1, 64, 64, 768]").
"""

from __future__ import annotations

import torch

from export_decoders import GQA, SIZE, Logits
from export_encoders import Field

TOKENS = {"pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2}


def _ids(vocab: int, tokens: int = 64) -> dict[str, torch.Tensor]:
    return {"input_ids": torch.randint(0, vocab, (1, tokens), dtype=torch.int64)}


def moe_lm(family: str, **options):
    """A builder: `AutoModelForCausalLM` of `family` at the decoders' size, experts computed by
    transformers' `batched_mm` (module docstring)."""
    def build():
        from transformers import AutoConfig, AutoModelForCausalLM

        config = AutoConfig.for_model(family, **{**SIZE, **GQA, **TOKENS, **options})
        config._experts_implementation = "batched_mm"
        return Logits(AutoModelForCausalLM.from_config(config)), _ids(config.vocab_size), config.to_dict()
    return build


def sam():
    from transformers import SamConfig, SamModel, SamVisionConfig

    vision = SamVisionConfig(num_hidden_layers=4, global_attn_indexes=[1, 3])
    config = SamConfig(vision_config=vision.to_dict())
    model = Field(SamModel(config).requires_grad_(False), ("pixel_values", "input_points"), "pred_masks")
    inputs = {"pixel_values": torch.randn(1, 3, 1024, 1024), "input_points": torch.rand(1, 1, 2, 2) * 1024}
    return model, inputs, config.to_dict()


def mask2former():
    from transformers import Mask2FormerConfig, Mask2FormerForUniversalSegmentation

    config = Mask2FormerConfig(decoder_layers=4)
    model = Field(Mask2FormerForUniversalSegmentation(config).requires_grad_(False), ("pixel_values",),
                  "masks_queries_logits")
    return model, {"pixel_values": torch.randn(1, 3, 384, 384)}, config.to_dict()


TENTH_SWEEP = {
    "sweep10/mixtral": (moe_lm("mixtral", intermediate_size=512, num_local_experts=8, num_experts_per_tok=2),
                        "MixtralForCausalLM, hidden 256, 4 layers, 8 experts (2 a token), batched_mm experts", False),
    "sweep10/qwen2_moe": (moe_lm("qwen2_moe", intermediate_size=512, moe_intermediate_size=256,
                                 shared_expert_intermediate_size=512, num_experts=8, num_experts_per_tok=2,
                                 decoder_sparse_step=1),
                          "Qwen2MoeForCausalLM, hidden 256, 4 layers, 8 experts + a shared one", False),
    "sweep10/jamba": (moe_lm("jamba", intermediate_size=512, num_experts=4, num_experts_per_tok=2,
                             attn_layer_period=2, attn_layer_offset=1, expert_layer_period=2, expert_layer_offset=1,
                             use_mamba_kernels=False),
                      "JambaForCausalLM, hidden 256, 4 layers (2 attention, 2 Mamba), 4 experts", False),
    "sweep10/sam": (sam, "SamModel, ViT-B widths, 4 layers (2 global), 1024x1024, two points", False),
    "sweep10/mask2former": (mask2former, "Mask2FormerForUniversalSegmentation (Swin-T), 384x384, 4 layers", False),
}
