"""Models of a sixth build sweep (`SIXTH_SWEEP`, exported by bench/export_models.py with
`--forms inline`): families the earlier sweeps did not have. bench/export_encoders.py's
conventions: random init from configs, real base widths, 2 layers where a family repeats one
block, batch 1. What each brings that the passes were not written against:

- t5: T5's encoder-decoder (t5-small widths: 512 wide, 8 heads, FFN 2048, ReLU): relative
  position biases from log-spaced buckets (a `Log`, integer `Min`/`Where` on the bucket ids),
  RMS norms without a mean, unscaled attention logits, no biases anywhere;
- layoutlm: LayoutLM's text encoder reading token boxes (`bbox`, four integer coordinates a
  token): 2-D position embeddings gathered at the box edges and at their differences (width,
  height), which go negative when a box is drawn backwards (ONNX gathers wrap negative ids);
- conformer: wav2vec2-conformer on one second of audio: rotary-free relative attention and a
  convolution module (pointwise conv, GLU, depthwise 1-D conv of 31 taps, BatchNorm, SiLU);
- patchtst: PatchTST over 512 steps of 7 series: per-series standardisation by mean and
  standard deviation over time (RevIN), patches by unfold (length 16, stride 8);
- encodec: EnCodec 24 kHz on one second of audio: weight-normed 1-D convs with reflect pads,
  ELU, a 2-layer LSTM, residual vector quantisation (argmin over 1024 codes, 32 quantisers
  deep), transposed 1-D convs back to the waveform;
- hifigan: SpeechT5's HiFi-GAN vocoder on 100 mel frames: four transposed 1-D convs of stride 4
  (kernel 8) up to 25600 samples, dilated 1-D convs in residual blocks, leaky ReLUs, tanh;
- rwkv: RWKV's time mixing (a token shift by zero pad and slice, the WKV recurrence unrolled
  over 64 tokens with exp and a running max), 2 layers at rwkv-169m's width;
- videomae, timesformer: video transformers on 16 / 8 frames of 224x224: a 2 x 16 x 16
  tubelet Conv3d into 1568 tokens; divided space-time attention (each token attends over time,
  then over space, by reshapes between the two);
- mvit_v2_s, s3d: torchvision's video classifiers on 16 frames of 224x224: pooling attention
  (Conv3d pools of Q, K and V, relative positions decomposed over t, h, w); separable 3-D
  convs and 3-D max pools.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from export_encoders import LAYERS, VOCAB, LastHidden
from export_fourth_sweep import DECODER_TOKENS, ENCODER_TOKENS, Seq2SeqLogits, _tokens

AUDIO_SAMPLES = 16000
FRAMES = 16


def t5():
    from transformers import T5Config, T5ForConditionalGeneration

    config = T5Config(vocab_size=VOCAB, d_model=512, d_kv=64, d_ff=2048, num_heads=8, num_layers=LAYERS,
                      num_decoder_layers=LAYERS, pad_token_id=0, eos_token_id=2, decoder_start_token_id=0,
                      attn_implementation="eager")
    inputs = {"input_ids": _tokens(ENCODER_TOKENS), "decoder_input_ids": _tokens(DECODER_TOKENS)}
    return Seq2SeqLogits(T5ForConditionalGeneration(config)), inputs, config.to_dict()


class BoxedTokens(nn.Module):
    """LayoutLM's last hidden state for token ids and their boxes."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.m = model

    def forward(self, input_ids, bbox):
        return self.m(input_ids=input_ids, bbox=bbox).last_hidden_state


def layoutlm():
    from transformers import LayoutLMConfig, LayoutLMModel

    config = LayoutLMConfig(vocab_size=VOCAB, num_hidden_layers=LAYERS)
    corners = torch.randint(0, 500, (1, ENCODER_TOKENS, 2))
    boxes = torch.cat([corners, corners + torch.randint(0, 500, (1, ENCODER_TOKENS, 2))], dim=-1)
    inputs = {"input_ids": _tokens(ENCODER_TOKENS), "bbox": boxes}
    return BoxedTokens(LayoutLMModel(config)), inputs, config.to_dict()


def conformer():
    from transformers import Wav2Vec2ConformerConfig, Wav2Vec2ConformerModel

    config = Wav2Vec2ConformerConfig(num_hidden_layers=LAYERS, vocab_size=VOCAB, attn_implementation="eager")
    return LastHidden(Wav2Vec2ConformerModel(config), "input_values"), \
        {"input_values": torch.randn(1, AUDIO_SAMPLES)}, config.to_dict()


def patchtst():
    from transformers import PatchTSTConfig, PatchTSTModel

    config = PatchTSTConfig(num_input_channels=7, context_length=512, patch_length=16, patch_stride=8,
                            num_hidden_layers=LAYERS)
    return LastHidden(PatchTSTModel(config), "past_values"), {"past_values": torch.randn(1, 512, 7)}, \
        config.to_dict()


class Reconstruction(nn.Module):
    """EnCodec's decoded waveform for a waveform: encoder, quantiser at 6 kbps (8 codebooks),
    decoder (the model's own forward measures the unpadded length from a mask, which
    torch.export cannot trace)."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.m = model

    def forward(self, input_values):
        codes = self.m.quantizer.encode(self.m.encoder(input_values), 6.0)
        return self.m.decoder(self.m.quantizer.decode(codes))


def _static_conv_padding(conv: nn.Module) -> None:
    """EnCodec's padded 1-D conv keeps its stride and kernel extent as tensor buffers and pads
    by amounts computed from them, which torch.export takes for data-dependent sizes: the same
    amounts as Python integers."""
    for name in ("stride", "kernel_size", "padding_total"):
        value = int(conv._buffers.pop(name))
        setattr(conv, name, value)

    def extra_padding(hidden_states):
        length = hidden_states.shape[-1]
        frames = math.ceil((length - conv.kernel_size + conv.padding_total) / conv.stride + 1) - 1
        return frames * conv.stride + conv.kernel_size - conv.padding_total - length
    conv._get_extra_padding_for_conv1d = extra_padding


def _codebooks_from_frames(model: nn.Module, audio: torch.Tensor, quantizers: int = 8) -> None:
    """EnCodec's codebooks start at zero (trained ones come from k-means on encoder frames):
    each of the first `quantizers` gets 1024 of its residual's frames plus noise, so the
    argmin picks codes that depend on the input."""
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():
        residual = model.encoder(audio)
        for layer in model.quantizer.layers[:quantizers]:
            frames = residual[0].T
            embed = layer.codebook.embed
            picks = torch.randint(0, frames.shape[0], (embed.shape[0],), generator=generator)
            noise = 0.1 * frames.std() * torch.randn(embed.shape, generator=generator)
            embed.copy_(frames[picks] + noise)
            residual = residual - layer.decode(layer.encode(residual))


def encodec():
    from transformers import EncodecConfig, EncodecModel
    from transformers.models.encodec.modeling_encodec import EncodecConv1d

    config = EncodecConfig()
    model = EncodecModel(config)
    for module in model.modules():
        if isinstance(module, EncodecConv1d):
            _static_conv_padding(module)
    _codebooks_from_frames(model, torch.randn(1, 1, config.sampling_rate))
    samples = config.sampling_rate
    return Reconstruction(model), {"input_values": torch.randn(1, 1, samples)}, config.to_dict()


def hifigan():
    from transformers import SpeechT5HifiGan, SpeechT5HifiGanConfig

    config = SpeechT5HifiGanConfig()
    return SpeechT5HifiGan(config), {"spectrogram": torch.randn(100, config.model_in_dim)}, config.to_dict()


def rwkv():
    from transformers import RwkvConfig, RwkvModel

    config = RwkvConfig(vocab_size=VOCAB, hidden_size=768, num_hidden_layers=LAYERS, context_length=1024)
    return LastHidden(RwkvModel(config), "input_ids"), {"input_ids": _tokens(64)}, config.to_dict()


def video_transformer(family: str, model_class: str, frames: int, **options):
    def build():
        import transformers

        config = transformers.AutoConfig.for_model(family, num_hidden_layers=LAYERS, num_frames=frames, **options)
        model = getattr(transformers, model_class)(config)
        return LastHidden(model, "pixel_values"), {"pixel_values": torch.randn(1, frames, 3, 224, 224)}, \
            config.to_dict()
    return build


def torchvision_video(name: str):
    def build():
        from torchvision.models import video

        model = getattr(video, name)(weights=None).eval()
        return model, {"video": torch.randn(1, 3, FRAMES, 224, 224)}, None
    return build


SIXTH_SWEEP = {
    "sweep6/t5": (t5, "T5ForConditionalGeneration, t5-small widths, 2+2 layers, 128 -> 32 tokens", False),
    "sweep6/layoutlm": (layoutlm, "LayoutLMModel, base widths, 2 layers, 128 tokens with boxes", False),
    "sweep6/conformer": (conformer, "Wav2Vec2ConformerModel, base widths, 2 layers, 16000 samples", False),
    "sweep6/patchtst": (patchtst, "PatchTSTModel, 7 series x 512 steps, patches of 16 by 8, 2 layers", False),
    "sweep6/encodec": (encodec, "EncodecModel, 24 kHz config, one second", False),
    "sweep6/hifigan": (hifigan, "SpeechT5HifiGan (HiFi-GAN vocoder: four stride-4 transposed 1-D convs, "
                        "multi-receptive-field residual blocks), 100 frames of 80 mels", False),
    "sweep6/rwkv": (rwkv, "RwkvModel, rwkv-169m width (768), 2 layers, 64 tokens", False),
    "sweep6/videomae": (video_transformer("videomae", "VideoMAEModel", FRAMES),
                        "VideoMAEModel, base widths, 2 layers, 16 frames of 224x224", False),
    "sweep6/timesformer": (video_transformer("timesformer", "TimesformerModel", 8),
                           "TimesformerModel, base widths, 2 layers, 8 frames of 224x224", False),
    "sweep6/mvit_v2_s": (torchvision_video("mvit_v2_s"), "torchvision mvit_v2_s(weights=None), 16 frames of 224x224",
                         False),
    "sweep6/s3d": (torchvision_video("s3d"), "torchvision s3d(weights=None), 16 frames of 224x224", False),
}
