"""transformers encoders as users export them, for the build sweep at real sizes: models built from
configs with random init (nothing downloaded), one input -> `last_hidden_state`, batch 1.
Imported by bench/export_models.py (`ENCODER_MODELS`, exported with `--forms inline`).

Each family keeps its real base widths (hidden, heads, FFN, sequence or image or audio length:
IREE's size-dependent limits follow these) with 2 layers and a 1000-word vocabulary, so an export
and a build take seconds, not minutes; depth repeats the same blocks. What each brings that the
passes were not written against:

- bert, roberta, electra: post-norm encoder, erf GELU, absolute positions (the reference family);
- distilbert: no token types, its own attention module;
- albert: factorized 128-wide embeddings projected to 768, one block's weights shared by layers;
- deberta_v2: disentangled attention (content-to-position and position-to-content scores, relative
  position buckets gathered per query and key);
- whisper: the Whisper-base encoder on 3000 log-mel frames: two 1-D convs (stride 2), sinusoidal
  positions, pre-norm blocks over 1500 positions;
- wav2vec2: one second of 16 kHz audio: seven 1-D convs (GroupNorm on the first), a grouped
  positional 1-D conv of width 128 (16 groups, weight-normalized), 49 frames;
- clip_vision: CLIP ViT-B/32's vision tower at 224x224 (quick GELU, pre-norm, class embedding).

T5's encoder is not among them: torch 2.13's ONNX export fails on it ("Cannot view a tensor with
shape [1, 128, 8, 64] and strides (65536, 64, 8192, 1) as [1, 128, 512]", in its decomposition).
"""

from __future__ import annotations

import torch
from torch import nn

SEQ = 128
VOCAB = 1000
LAYERS = 2


class Field(nn.Module):
    """One named field of a model's output for its keyword inputs, passed in the order of `keys`
    (the attribute `m` gives the `m.` names)."""

    def __init__(self, model: nn.Module, keys: tuple[str, ...], field: str):
        super().__init__()
        self.m = model
        self.keys = keys
        self.field = field

    def forward(self, *args):
        return getattr(self.m(**dict(zip(self.keys, args))), self.field)


class LastHidden(Field):
    """An encoder's `last_hidden_state` for its one input, passed as `key`."""

    def __init__(self, model: nn.Module, key: str):
        super().__init__(model, (key,), "last_hidden_state")


def _token_ids() -> dict[str, torch.Tensor]:
    return {"input_ids": torch.randint(0, VOCAB, (1, SEQ), dtype=torch.int64)}


def text_encoder(family: str, model_class: str = "AutoModel", **options):
    """transformers' `AutoConfig.for_model(family)` with 2 layers, VOCAB and `options`."""
    def build():
        import transformers

        config = transformers.AutoConfig.for_model(family, vocab_size=VOCAB, **options)
        model = getattr(transformers, model_class).from_config(config) if model_class == "AutoModel" \
            else getattr(transformers, model_class)(config)
        return LastHidden(model, "input_ids"), _token_ids(), config.to_dict()
    return build


def whisper_encoder():
    from transformers import WhisperConfig, WhisperModel

    config = WhisperConfig(d_model=512, encoder_layers=LAYERS, decoder_layers=1, encoder_attention_heads=8,
                           decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048, vocab_size=VOCAB,
                           pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=1)
    model = WhisperModel(config).get_encoder()
    return LastHidden(model, "input_features"), {"input_features": torch.randn(1, 80, 3000)}, config.to_dict()


def wav2vec2():
    from transformers import Wav2Vec2Config, Wav2Vec2Model

    config = Wav2Vec2Config(num_hidden_layers=LAYERS, vocab_size=VOCAB)
    model = Wav2Vec2Model(config)
    return LastHidden(model, "input_values"), {"input_values": torch.randn(1, 16000)}, config.to_dict()


def clip_vision():
    from transformers import CLIPVisionConfig, CLIPVisionModel

    config = CLIPVisionConfig(num_hidden_layers=LAYERS, patch_size=32, image_size=224)
    model = CLIPVisionModel(config)
    return LastHidden(model, "pixel_values"), {"pixel_values": torch.randn(1, 3, 224, 224)}, config.to_dict()


_LAYERS = {"num_hidden_layers": LAYERS}

# name -> (builder, definition, keep BatchNormalization nodes), as bench/export_models.py's tables.
ENCODER_MODELS = {
    "encoder/bert": (text_encoder("bert", **_LAYERS), "BertModel, bert-base widths (768, 12 heads, "
                     "FFN 3072), 2 layers, seq 128", False),
    "encoder/roberta": (text_encoder("roberta", **_LAYERS, max_position_embeddings=SEQ + 2),
                        "RobertaModel, roberta-base widths, 2 layers, seq 128", False),
    "encoder/electra": (text_encoder("electra", **_LAYERS), "ElectraModel (discriminator), "
                        "electra-small widths (embeddings 128 projected to 256), 2 layers, seq 128", False),
    "encoder/distilbert": (text_encoder("distilbert", n_layers=LAYERS), "DistilBertModel, "
                           "distilbert-base widths, 2 layers, seq 128", False),
    "encoder/albert": (text_encoder("albert", **_LAYERS, hidden_size=768, num_attention_heads=12,
                                    intermediate_size=3072),
                       "AlbertModel, albert-base widths (embeddings 128 -> 768, shared layer), 2 layers, "
                       "seq 128", False),
    "encoder/deberta_v2": (text_encoder("deberta-v2", **_LAYERS, hidden_size=768, num_attention_heads=12,
                                        intermediate_size=3072, relative_attention=True,
                                        pos_att_type=["p2c", "c2p"], position_buckets=256,
                                        max_relative_positions=-1, position_biased_input=False,
                                        norm_rel_ebd="layer_norm", share_att_key=True),
                           "DebertaV2Model, deberta-v3-base's attention (c2p + p2c, 256 buckets), "
                           "2 layers, seq 128", False),
    "encoder/whisper": (whisper_encoder, "WhisperModel's encoder, whisper-base widths (512, 8 heads), "
                        "2 layers, 80 x 3000 log-mel frames", False),
    "encoder/wav2vec2": (wav2vec2, "Wav2Vec2Model, wav2vec2-base widths, 2 layers, 16000 samples", False),
    "encoder/clip_vision": (clip_vision, "CLIPVisionModel, ViT-B/32 widths, 2 layers, 224x224", False),
}
