"""Models of a fourth build sweep (`FOURTH_SWEEP`, exported by bench/export_models.py with
`--forms inline`): what users translate, transcribe, detect and track with, beyond the encoders,
decoders and classifiers of the first three. bench/export_encoders.py's conventions: random init
from configs, real base widths, 2 layers where a family repeats one block, batch 1. What each
brings that the passes were not written against:

- bart, marian, m2m100, pegasus, whisper_s2s: whole encoder-decoder models (`input_ids` of 128
  tokens and `decoder_input_ids` of 32 -> logits; the text ones at their configs' default
  widths: 1024 wide, 16 heads, FFN 4096): a causal decoder whose cross-attention reads
  the encoder's output, sinusoidal positions (marian, m2m100, pegasus), pre-norm (m2m100,
  pegasus), a tied output head over the vocabulary; Whisper-base on 3000 log-mel frames;
- detr: DETR with a ResNet-50 backbone (transformers' own, no timm) at 224x224: frozen
  BatchNorms, a sine position embedding of the image mask, 100 object queries through a decoder
  that cross-attends to the 49 image tokens;
- siglip: SigLIP's vision tower at 224x224: patch embedding without a class token, a pooling head
  that attends from one learned probe (torch's MultiheadAttention);
- wavlm: WavLM-base on one second of audio: gated relative position biases (log-spaced buckets,
  a sigmoid gate per head computed from the queries);
- speech_to_text: Speech2Text's encoder on 584 filterbank frames: two strided 1-D convs with GLU;
- xlnet: XLNet's two-stream-free relative attention (sinusoidal relative positions, the
  rel-shift by reshape and slice, segment biases);
- tinyllama_1l, opt_2048_1l: decoders at real widths, one layer each (IREE's CPU limits are
  size-dependent; the decoder table's models are 256 wide): TinyLlama's 2048 hidden, 32 heads over
  4 KV heads and 5632-wide SwiGLU; OPT-1.3B's 2048 hidden with LayerNorms (chains over 2048 f32
  a row) and an 8192-wide FFN; 64 tokens, a 1000-token vocabulary;
- unet_resblock: a diffusion UNet's resnet block at Stable Diffusion's first level (GroupNorm(32,
  320) and SiLU before each of two 3x3 convs, 320 channels of 64 x 64 latents, a residual add);
  torch exports each GroupNorm as an InstanceNorm over [1, 32, 40960];
- raft_small: torchvision's RAFT-small optical flow between two 224x224 frames: a correlation
  volume (all-pairs dot products, pooled 4 times), bilinear sampling (`grid_sample`) around the
  current flow, 12 recurrent refinement steps, a convex upsampling (unfold) of the flow.
"""

from __future__ import annotations

import torch
from torch import nn

from export_decoders import Logits, causal_lm
from export_encoders import LAYERS, VOCAB, LastHidden, text_encoder
from export_vision_encoders import vision_backbone

ENCODER_TOKENS = 128
DECODER_TOKENS = 32
_SPECIAL = {"pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2, "decoder_start_token_id": 2}


class Seq2SeqLogits(Logits):
    """An encoder-decoder's logits for `input_ids` (or audio `input_features`) and
    `decoder_input_ids` (no cache)."""

    def __init__(self, model: nn.Module, key: str = "input_ids"):
        super().__init__(model)
        self.key = key

    def forward(self, source, decoder_input_ids):
        return self.m(**{self.key: source}, decoder_input_ids=decoder_input_ids, use_cache=False).logits


def _tokens(length: int) -> torch.Tensor:
    return torch.randint(3, VOCAB, (1, length), dtype=torch.int64)


def seq2seq(family: str, **options):
    """transformers' `AutoModelForSeq2SeqLM` for `family` with 2 encoder and 2 decoder layers."""
    def build():
        from transformers import AutoConfig, AutoModelForSeq2SeqLM

        config = AutoConfig.for_model(family, vocab_size=VOCAB, encoder_layers=LAYERS, decoder_layers=LAYERS,
                                      **_SPECIAL, **options)
        model = AutoModelForSeq2SeqLM.from_config(config)
        inputs = {"input_ids": _tokens(ENCODER_TOKENS), "decoder_input_ids": _tokens(DECODER_TOKENS)}
        return Seq2SeqLogits(model), inputs, config.to_dict()
    return build


def whisper_seq2seq():
    from transformers import WhisperConfig, WhisperForConditionalGeneration

    config = WhisperConfig(d_model=512, encoder_layers=LAYERS, decoder_layers=LAYERS, encoder_attention_heads=8,
                           decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048,
                           vocab_size=VOCAB, **_SPECIAL)
    model = WhisperForConditionalGeneration(config)
    inputs = {"input_features": torch.randn(1, 80, 3000), "decoder_input_ids": _tokens(DECODER_TOKENS)}
    return Seq2SeqLogits(model, "input_features"), inputs, config.to_dict()


def detr():
    from transformers import DetrConfig, DetrModel, ResNetConfig

    backbone = ResNetConfig(out_features=["stage4"])
    config = DetrConfig(use_timm_backbone=False, use_pretrained_backbone=False, backbone_config=backbone,
                        encoder_layers=LAYERS, decoder_layers=LAYERS)
    return LastHidden(DetrModel(config), "pixel_values"), {"pixel_values": torch.randn(1, 3, 224, 224)}, \
        config.to_dict()


def speech_to_text():
    from transformers import Speech2TextConfig, Speech2TextModel

    config = Speech2TextConfig(encoder_layers=LAYERS, decoder_layers=LAYERS, vocab_size=VOCAB, **_SPECIAL)
    model = Speech2TextModel(config).get_encoder()
    return LastHidden(model, "input_features"), {"input_features": torch.randn(1, 584, 80)}, config.to_dict()


def wavlm():
    from transformers import WavLMConfig, WavLMModel

    config = WavLMConfig(num_hidden_layers=LAYERS, vocab_size=VOCAB)
    return LastHidden(WavLMModel(config), "input_values"), {"input_values": torch.randn(1, 16000)}, \
        config.to_dict()


class FinalFlow(nn.Module):
    """RAFT's last flow estimate for a pair of frames (torchvision returns every iteration's)."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.m = model

    def forward(self, image1, image2):
        return self.m(image1, image2)[-1]


class UNetResBlock(nn.Module):
    def __init__(self, channels: int = 320, groups: int = 32):
        super().__init__()
        self.norm1, self.norm2 = nn.GroupNorm(groups, channels), nn.GroupNorm(groups, channels)
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        h = self.conv1(nn.functional.silu(self.norm1(x)))
        return x + self.conv2(nn.functional.silu(self.norm2(h)))


def unet_resblock():
    return UNetResBlock(), {"x": torch.randn(1, 320, 64, 64)}, None


def raft_small():
    from torchvision.models.optical_flow import raft_small as build

    frames = {"image1": torch.randn(1, 3, 224, 224), "image2": torch.randn(1, 3, 224, 224)}
    return FinalFlow(build(weights=None)), frames, None


FOURTH_SWEEP = {
    "sweep4/bart": (seq2seq("bart"), "BartForConditionalGeneration, its config's (bart-large) widths, 2+2 layers, 128 -> 32 tokens",
                    False),
    "sweep4/marian": (seq2seq("marian"), "MarianMTModel, its config's widths (1024, 16 heads), 2+2 layers, 128 -> 32 tokens", False),
    "sweep4/m2m100": (seq2seq("m2m_100"), "M2M100ForConditionalGeneration, 2+2 layers, 128 -> 32 tokens", False),
    "sweep4/pegasus": (seq2seq("pegasus"), "PegasusForConditionalGeneration, 2+2 layers, 128 -> 32 tokens", False),
    "sweep4/whisper_s2s": (whisper_seq2seq, "WhisperForConditionalGeneration, whisper-base widths, 2+2 layers, "
                           "3000 frames -> 32 tokens", False),
    "sweep4/detr": (detr, "DetrModel, ResNet-50 backbone, 2+2 layers, 100 queries, 224x224", False),
    "sweep4/siglip": (vision_backbone("siglip_vision_model", "SiglipVisionModel", num_hidden_layers=LAYERS),
                      "SiglipVisionModel, base widths, 2 layers, 224x224", False),
    "sweep4/wavlm": (wavlm, "WavLMModel, base widths, 2 layers, 16000 samples", False),
    "sweep4/speech_to_text": (speech_to_text, "Speech2Text encoder, 2 layers, 584 frames", False),
    "sweep4/xlnet": (text_encoder("xlnet", num_hidden_layers=LAYERS),
                     "XLNetModel, base widths, 2 layers, 128 tokens", False),
    "sweep4/tinyllama_1l": (causal_lm("llama", vocab_size=VOCAB, hidden_size=2048, num_hidden_layers=1,
                                      num_attention_heads=32, num_key_value_heads=4, intermediate_size=5632,
                                      max_position_embeddings=128),
                            "LlamaForCausalLM at TinyLlama's widths, 1 layer, 64 tokens", False),
    "sweep4/opt_2048_1l": (causal_lm("opt", vocab_size=VOCAB, hidden_size=2048, num_hidden_layers=1,
                                     num_attention_heads=32, ffn_dim=8192, word_embed_proj_dim=2048,
                                     max_position_embeddings=128, pad_token_id=0, bos_token_id=1, eos_token_id=2),
                           "OPTForCausalLM at OPT-1.3B's widths, 1 layer, 64 tokens", False),
    "sweep4/unet_resblock": (unet_resblock, "a UNet resnet block: GroupNorm(32, 320), SiLU, 3x3 conv, twice, "
                             "over 1x320x64x64", False),
    "sweep4/raft_small": (raft_small, "torchvision raft_small(weights=None), two 224x224 frames", False),
}
