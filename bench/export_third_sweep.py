"""transformers text and vision backbones of a third build sweep (`THIRD_SWEEP`, exported by
bench/export_models.py with `--forms inline`), bench/export_encoders.py's conventions: random
init from configs, real base widths, 2 layers where a family repeats one block, 128 tokens or
224x224 images, batch 1. What each brings that the passes were not written against:

- fnet: token mixing by a 2-D FFT (`torch.fft.fftn(...).real`: two ONNX DFTs over a complex
  signal whose imaginary parts are concatenated zeros); IREE's own ONNX route cannot lower DFT;
- canine: characters hashed into buckets (`Mod`), a strided 1-D conv downsampling 4 characters
  to one (kernel 4, stride 4), local attention blocks;
- esm: ESM-2's widths (480, 20 heads), rotary positions, pre-norm;
- roformer: rotary positions in an encoder; mpnet: relative position buckets;
- big_bird: BigBird at full attention (128 tokens are below its block-sparse size);
- rembert, megatron_bert, xlm_roberta_xl: decoupled embeddings (RemBERT's 256-wide input
  embeddings), pre-norm BERTs;
- yolos, deit, dpt: ViTs with detection tokens, a distillation token, DPT's backbone at 224;
- vitdet: windowed attention with relative position tables in one block, global in the other;
- swinv2: Swin V2's cosine attention with a log-spaced continuous position bias (an MLP over
  coordinates), shifted windows (Roll as Slice + Concat), post-norm;
- efficientnet, mobilenet_v2_hf, regnet_hf: transformers' CNNs (EfficientNet at its default
  B7-sized config, TensorFlow "same" padding in the MobileNetV2), their BatchNorms folded;
- textnet: TextNet's re-parameterisable convs (1x3, 3x1, 3x3 branches), BatchNorm kept.

Nystromformer (torch.export fails on its iterative pseudo-inverse), Data2VecVision (the
decomposition step of torch 2.13's exporter fails) and HGNetV2 (its backbone returns no
`last_hidden_state`) did not export and are not listed.
"""

from __future__ import annotations

from export_encoders import LAYERS, text_encoder
from export_vision_encoders import vision_backbone

_LAYERS = {"num_hidden_layers": LAYERS}

THIRD_SWEEP = {
    "sweep3/fnet": (text_encoder("fnet", **_LAYERS, use_tpu_fourier_optimizations=False),
                    "FNetModel, fnet-base widths, 2 layers, 128 tokens", False),
    "sweep3/canine": (text_encoder("canine", **_LAYERS), "CanineModel, canine-s widths, 2 layers, 128 characters", False),
    "sweep3/esm": (text_encoder("esm", **_LAYERS, hidden_size=480, num_attention_heads=20, intermediate_size=1920,
                                position_embedding_type="rotary", pad_token_id=1, mask_token_id=2),
                   "EsmModel, ESM-2 35M widths, rotary, 2 layers, 128 tokens", False),
    "sweep3/roformer": (text_encoder("roformer", **_LAYERS), "RoFormerModel, 2 layers, 128 tokens", False),
    "sweep3/mpnet": (text_encoder("mpnet", **_LAYERS), "MPNetModel, 2 layers, 128 tokens", False),
    "sweep3/big_bird": (text_encoder("big_bird", **_LAYERS, attention_type="original_full"),
                        "BigBirdModel, full attention, 2 layers, 128 tokens", False),
    "sweep3/rembert": (text_encoder("rembert", **_LAYERS), "RemBertModel, 2 layers, 128 tokens", False),
    "sweep3/megatron_bert": (text_encoder("megatron-bert", **_LAYERS), "MegatronBertModel, 2 layers, 128 tokens", False),
    "sweep3/xlm_roberta_xl": (text_encoder("xlm-roberta-xl", **_LAYERS, hidden_size=768, num_attention_heads=12,
                                           intermediate_size=3072),
                              "XLMRobertaXLModel at base widths, 2 layers, 128 tokens", False),
    "sweep3/yolos": (vision_backbone("yolos", "YolosModel", **_LAYERS, image_size=[224, 224]),
                     "YolosModel, 2 layers, 224x224", False),
    "sweep3/dpt": (vision_backbone("dpt", "DPTModel", **_LAYERS, image_size=224), "DPTModel, 2 layers, 224x224", False),
    "sweep3/deit": (vision_backbone("deit", "DeiTModel", **_LAYERS), "DeiTModel, 2 layers, 224x224", False),
    "sweep3/vitdet": (vision_backbone("vitdet", "VitDetModel", **_LAYERS, image_size=224, window_size=14,
                                      window_block_indices=[0], use_relative_position_embeddings=True),
                      "VitDetModel, 2 layers (one windowed), 224x224", False),
    "sweep3/swinv2": (vision_backbone("swinv2", "Swinv2Model", depths=[2, 2, 2, 2], image_size=224, window_size=7),
                      "Swinv2Model, 2 blocks a stage, window 7, 224x224", False),
    "sweep3/efficientnet": (vision_backbone("efficientnet", "EfficientNetModel", image_size=224),
                            "EfficientNetModel at its default config, 224x224", False),
    "sweep3/mobilenet_v2_hf": (vision_backbone("mobilenet_v2", "MobileNetV2Model", image_size=224),
                               "MobileNetV2Model (TensorFlow padding), 224x224", False),
    "sweep3/regnet_hf": (vision_backbone("regnet", "RegNetModel"), "RegNetModel at its default config, 224x224", False),
    "sweep3/textnet": (vision_backbone("textnet", "TextNetModel"), "TextNetModel, 224x224", False),
}
