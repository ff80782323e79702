"""Models of an eleventh build sweep (`ELEVENTH_SWEEP`, exported by bench/export_models.py with
`--forms inline`): families the earlier sweeps did not have, conventions as
bench/export_tenth_sweep.py's. What each brings that the importer was not written against:

- olmoe: OLMoE's sparse blocks with 64 experts, 8 a token (more experts than
  `graph-dense-experts` densifies: each row's experts stay gathered), QK-norm over whole
  projections;
- deepseek_v3: DeepSeek-V3 (multi-head latent attention: queries and keys/values through
  low-rank projections with their own RMSNorms, a rotary part split off each head; 16 routed
  experts chosen by sigmoid scores, top-2 of 4 groups first, plus a shared expert; the first
  layer dense);
- gpt_oss: GPT-OSS (attention sinks as an extra logit a head, sliding-window layers between
  full ones, 8 experts with clamped SwiGLU, router softmax over the top-k);
- modernbert: ModernBERT (GeGLU MLPs, global attention every third layer and 128-token local
  windows between, rotary positions; 512 tokens);
- recurrent_gemma: RecurrentGemma (Griffin: RG-LRU recurrences with a temporal conv of width 4
  between local-attention layers, logits soft-capped);
- lfm2: LFM2 (gated short convolutions, a causal depthwise conv of width 3, between GQA layers);
- deformable_detr: Deformable DETR (ResNet-50, 4 scales, multi-scale deformable attention by
  bilinear grid sampling in encoder and decoder, 300 queries; 512x512).
"""

from __future__ import annotations

import torch

from export_decoders import GQA, SIZE, Logits
from export_encoders import Field
from export_tenth_sweep import moe_lm

TOKENS = {"pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2}


def _lm(family: str, **options):
    """A builder: `AutoModelForCausalLM` of `family` at the decoders' size, eager attention."""
    def build():
        from transformers import AutoConfig, AutoModelForCausalLM

        config = AutoConfig.for_model(family, **{**SIZE, **GQA, **TOKENS, **options})
        ids = torch.randint(0, config.vocab_size, (1, 64), dtype=torch.int64)
        return Logits(AutoModelForCausalLM.from_config(config)), {"input_ids": ids}, config.to_dict()
    return build


def modernbert():
    from transformers import ModernBertConfig, ModernBertModel

    config = ModernBertConfig(vocab_size=1000, hidden_size=256, intermediate_size=384, num_hidden_layers=6,
                              num_attention_heads=4, local_attention=128, global_attn_every_n_layers=3,
                              pad_token_id=0, bos_token_id=1, eos_token_id=2, cls_token_id=1, sep_token_id=2)
    model = Field(ModernBertModel(config).requires_grad_(False), ("input_ids",), "last_hidden_state")
    return model, {"input_ids": torch.randint(3, 1000, (1, 512))}, config.to_dict()


def deformable_detr():
    from transformers import DeformableDetrConfig, DeformableDetrForObjectDetection

    config = DeformableDetrConfig(use_timm_backbone=False, use_pretrained_backbone=False, encoder_layers=2,
                                  decoder_layers=2)
    model = Field(DeformableDetrForObjectDetection(config).requires_grad_(False), ("pixel_values",), "pred_boxes")
    return model, {"pixel_values": torch.randn(1, 3, 512, 512)}, config.to_dict()


ELEVENTH_SWEEP = {
    "sweep11/olmoe": (moe_lm("olmoe", intermediate_size=256, num_experts=64, num_experts_per_tok=8),
                      "OlmoeForCausalLM, hidden 256, 4 layers, 64 experts (8 a token), batched_mm experts", False),
    "sweep11/deepseek_v3": (moe_lm("deepseek_v3", intermediate_size=512, moe_intermediate_size=128,
                                   n_routed_experts=16, num_experts_per_tok=4, n_group=4, topk_group=2,
                                   n_shared_experts=1, first_k_dense_replace=1, q_lora_rank=128,
                                   kv_lora_rank=64, qk_rope_head_dim=16, qk_nope_head_dim=32, v_head_dim=32,
                                   rope_scaling=None, num_key_value_heads=8),
                            "DeepseekV3ForCausalLM, hidden 256, 4 layers, MLA, 16 routed experts + shared", False),
    "sweep11/gpt_oss": (moe_lm("gpt_oss", intermediate_size=256, num_local_experts=8, num_experts_per_tok=2,
                               head_dim=32, sliding_window=32, rope_scaling=None),
                        "GptOssForCausalLM, hidden 256, 4 layers, sinks, sliding windows, 8 experts", False),
    "sweep11/modernbert": (modernbert, "ModernBertModel, hidden 256, 6 layers, 512 tokens", False),
    "sweep11/recurrent_gemma": (_lm("recurrent_gemma", intermediate_size=768, lru_width=256, head_dim=32,
                                    attention_window_size=32, num_key_value_heads=1),
                                "RecurrentGemmaForCausalLM, hidden 256, 4 layers (RG-LRU, local attention)", False),
    "sweep11/lfm2": (_lm("lfm2", intermediate_size=512, full_attn_idxs=[1, 3]),
                     "Lfm2ForCausalLM, hidden 256, 4 layers (2 short-conv, 2 attention)", False),
    "sweep11/deformable_detr": (deformable_detr, "DeformableDetrForObjectDetection (ResNet-50), 512x512, 2+2 layers",
                                False),
}
