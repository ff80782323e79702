"""Models of a seventh build sweep (`SEVENTH_SWEEP`, exported by bench/export_models.py with
`--forms inline`): families the earlier sweeps did not have. bench/export_encoders.py's
conventions: random init from configs, real base widths and input sizes, 2 layers where a
family repeats one block, batch 1. What each brings that the passes were not written against:

- mobilenet_v1: transformers' MobileNetV1 with TensorFlow's "same" padding, computed in the
  graph from the input's size (asymmetric pads before every strided conv);
- swin2sr: Swin2SR x2 super-resolution on a 64x64 image: residual Swin V2 groups, a conv
  upsampler by PixelShuffle (ONNX `DepthToSpace`), the image mean added back;
- depth_anything: Depth Anything (DINOv2-small backbone at 518x518, a DPT neck and head):
  reassembled tokens, transposed convs, bilinear resizes with aligned corners (the head's last
  ReLU left out: at random init it zeroed every depth, and the metric head's sigmoid saturates);
- upernet: UperNet on a ConvNeXt backbone at 512x512: a pyramid pooling module whose adaptive
  average pools over 16x16 give 1, 2, 3 and 6 bins (3 and 6 do not divide 16), resized back;
- nystromformer: Nystromformer at 512 tokens: landmark attention by segment means and an
  iterated Moore-Penrose pseudo-inverse (a chain of six matmul rounds), a depthwise conv of 65
  taps over V;
- perceiver: Perceiver IO for masked language modelling at 2048 bytes: cross-attention from
  2048 inputs into 256 latents, latent self-attention, cross-attention back to 2048 outputs;
- sew_d: SEW-D on one second of 16 kHz audio: DeBERTa's disentangled attention over squeezed
  (pooled by 2) frames, upsampled back by repetition;
- ast: the Audio Spectrogram Transformer over 1024 frames of 128 mels: overlapping 16x16
  patches at stride 10 (1212 tokens);
- dac: the Descript Audio Codec's 16 kHz model on one second: Snake activations
  (x + sin(a x)^2 / a), weight-normed dilated 1-D convs, residual vector quantisation;
- univnet: UnivNet's vocoder on 100 mel frames: location-variable convolutions whose kernels
  are predicted from the mels (an unfold and a per-frame contraction);
- autoformer: Autoformer's encoder over 96 steps (its decoder runs only with future values):
  series decomposition by a moving average (replicate pads), auto-correlation by rfft / irfft,
  top-k delays gathered by a roll;
- swin3d_t: torchvision's video Swin on 16 frames of 224x224: 3-D shifted windows (rolls and
  masks), 3-D patch merging.
"""

from __future__ import annotations

import torch
from torch import nn

from export_encoders import LAYERS, VOCAB, Field, LastHidden
from export_sixth_sweep import AUDIO_SAMPLES, FRAMES

MELS = 100


def _image(size: int) -> dict[str, torch.Tensor]:
    return {"pixel_values": torch.randn(1, 3, size, size)}


def mobilenet_v1():
    from transformers import MobileNetV1Config, MobileNetV1Model

    config = MobileNetV1Config(tf_padding=True)
    return LastHidden(MobileNetV1Model(config), "pixel_values"), _image(224), config.to_dict()


def swin2sr():
    from transformers import Swin2SRConfig, Swin2SRForImageSuperResolution

    config = Swin2SRConfig(image_size=64, depths=[2, 2], num_heads=[6, 6], upscale=2, upsampler="pixelshuffle")
    model = Field(Swin2SRForImageSuperResolution(config), ("pixel_values",), "reconstruction")
    return model, _image(64), config.to_dict()


def depth_anything():
    from transformers import DepthAnythingConfig, DepthAnythingForDepthEstimation, Dinov2Config

    backbone = Dinov2Config(image_size=518, hidden_size=384, num_attention_heads=6, num_hidden_layers=4,
                            out_features=["stage1", "stage2", "stage3", "stage4"], reshape_hidden_states=False)
    config = DepthAnythingConfig(backbone_config=backbone, reassemble_hidden_size=384,
                                 neck_hidden_sizes=[48, 96, 192, 384], fusion_hidden_size=64)
    estimator = DepthAnythingForDepthEstimation(config)
    estimator.head.activation2 = nn.Identity()
    model = Field(estimator, ("pixel_values",), "predicted_depth")
    return model, _image(518), config.to_dict()


def upernet():
    from transformers import ConvNextConfig, UperNetConfig, UperNetForSemanticSegmentation

    backbone = ConvNextConfig(depths=[1, 1, 2, 1], hidden_sizes=[96, 192, 384, 768], out_features=["stage1", "stage2", "stage3", "stage4"])
    config = UperNetConfig(backbone_config=backbone, num_labels=150, use_auxiliary_head=False)
    return Field(UperNetForSemanticSegmentation(config), ("pixel_values",), "logits"), _image(512), \
        config.to_dict()


def _without_padding_mask(modeling) -> None:
    """No padding, so no mask: under torch.export transformers 5 builds the all-ones mask as
    [1, 1, T, T] where eager drops it, and Nystromformer's landmark scores ([1, heads, 64, T])
    and Autoformer's auto-correlations cannot take it."""
    modeling.create_bidirectional_mask = lambda *args, **kwargs: None


def nystromformer():
    from transformers import NystromformerConfig, NystromformerModel
    from transformers.models.nystromformer import modeling_nystromformer

    _without_padding_mask(modeling_nystromformer)

    config = NystromformerConfig(vocab_size=VOCAB, num_hidden_layers=LAYERS, max_position_embeddings=512 + 2,
                                 segment_means_seq_len=512, num_landmarks=64)
    return LastHidden(NystromformerModel(config), "input_ids"), \
        {"input_ids": torch.randint(3, VOCAB, (1, 512))}, config.to_dict()


def perceiver():
    from transformers import PerceiverConfig, PerceiverForMaskedLM

    config = PerceiverConfig(num_self_attends_per_block=LAYERS, num_blocks=1)
    inputs = {"inputs": torch.randint(3, config.vocab_size, (1, config.max_position_embeddings))}
    return Field(PerceiverForMaskedLM(config), ("inputs",), "logits"), inputs, config.to_dict()


def sew_d():
    from transformers import SEWDConfig, SEWDModel

    config = SEWDConfig(num_hidden_layers=LAYERS, vocab_size=VOCAB)
    return LastHidden(SEWDModel(config), "input_values"), {"input_values": torch.randn(1, AUDIO_SAMPLES)}, \
        config.to_dict()


def ast():
    from transformers import ASTConfig, ASTModel

    config = ASTConfig(num_hidden_layers=LAYERS)
    inputs = {"input_values": torch.randn(1, config.max_length, config.num_mel_bins)}
    return LastHidden(ASTModel(config), "input_values"), inputs, config.to_dict()


def dac():
    from transformers import DacConfig, DacModel

    config = DacConfig(sampling_rate=16000, downsampling_ratios=[2, 4, 5, 8], hop_length=320)
    return Field(DacModel(config), ("input_values",), "audio_values"), \
        {"input_values": torch.randn(1, 1, AUDIO_SAMPLES)}, config.to_dict()


def univnet():
    from transformers import UnivNetConfig, UnivNetModel

    config = UnivNetConfig()
    inputs = {"input_features": torch.randn(1, MELS, config.num_mel_bins),
              "noise_sequence": torch.randn(1, MELS, config.model_in_channels)}
    return Field(UnivNetModel(config), tuple(inputs), "waveforms"), inputs, config.to_dict()


def autoformer():
    from transformers import AutoformerConfig, AutoformerModel
    from transformers.models.autoformer import modeling_autoformer

    _without_padding_mask(modeling_autoformer)

    config = AutoformerConfig(prediction_length=24, context_length=96, lags_sequence=[1, 2, 3],
                              num_time_features=2, encoder_layers=LAYERS, decoder_layers=1, d_model=64)
    past = config.context_length + max(config.lags_sequence)
    inputs = {"past_values": torch.randn(1, past), "past_time_features": torch.randn(1, past, 2),
              "past_observed_mask": torch.ones(1, past),
              "future_time_features": torch.randn(1, config.prediction_length, 2)}
    return Field(AutoformerModel(config), tuple(inputs), "encoder_last_hidden_state"), inputs, config.to_dict()


def swin3d_t():
    from torchvision.models import video

    return video.swin3d_t(weights=None).eval(), {"video": torch.randn(1, 3, FRAMES, 224, 224)}, None


SEVENTH_SWEEP = {
    "sweep7/mobilenet_v1": (mobilenet_v1, "MobileNetV1Model, TF 'same' padding, 224x224", False),
    "sweep7/swin2sr": (swin2sr, "Swin2SRForImageSuperResolution x2 (pixel shuffle), 2 groups of 2, 64x64", False),
    "sweep7/depth_anything": (depth_anything, "DepthAnythingForDepthEstimation, DINOv2-small 4 layers, 518x518",
                              False),
    "sweep7/upernet": (upernet, "UperNetForSemanticSegmentation, ConvNeXt-T widths 1-1-2-1 blocks, 512x512",
                       False),
    "sweep7/nystromformer": (nystromformer, "NystromformerModel, base widths, 2 layers, 512 tokens, 64 landmarks",
                             False),
    "sweep7/perceiver": (perceiver, "PerceiverForMaskedLM, 2048 bytes, 256 latents, 2 self-attentions", False),
    "sweep7/sew_d": (sew_d, "SEWDModel, base widths, 2 layers, 16000 samples", False),
    "sweep7/ast": (ast, "ASTModel, base widths, 2 layers, 1024 frames of 128 mels", False),
    "sweep7/dac": (dac, "DacModel, 16 kHz (hop 320), one second", False),
    "sweep7/univnet": (univnet, "UnivNetModel, 100 frames of 100 mels", False),
    "sweep7/autoformer": (autoformer, "AutoformerModel, 96 -> 24 steps, d_model 64, 2+1 layers", False),
    "sweep7/swin3d_t": (swin3d_t, "torchvision swin3d_t(weights=None), 16 frames of 224x224", False),
}
