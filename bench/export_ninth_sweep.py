"""Models of a ninth build sweep (`NINTH_SWEEP`, exported by bench/export_models.py with
`--forms inline`): families the earlier sweeps did not have, conventions as
bench/export_seventh_sweep.py's. What each brings that the importer was not written against:

- mamba2: a Mamba-2 decoder (2 layers, 128 tokens in chunks of 64) on transformers' torch path:
  the state-space dual form, segment sums masked to -inf above the diagonal and exponentiated,
  chunk states carried by a cumulative decay;
- rt_detr: RT-DETR (ResNet-50 backbone, 640x640): a hybrid encoder, the 300 best of 8400 anchors
  chosen by a top-k and gathered, multi-scale deformable attention by bilinear grid sampling;
- owlvit: OWL-ViT's open-vocabulary detector (ViT-B/32 at 768x768, 2 text queries of 16
  tokens): per-patch class logits against the query embeddings, boxes as sigmoids of a head's
  output plus a box bias computed from the patch grid;
- vit_mae: ViT-MAE's encoder at 224x224 with its masking noise an input: the kept 25% of the
  patches chosen by an argsort of the noise (ONNX `TopK` over all 196) and gathered.

Longformer was tried and is not among them: torch.export cannot trace it (its attention asks
whether any token is global, `.any().item()`, a data-dependent branch).
"""

from __future__ import annotations

import torch

from export_decoders import SIZE, Logits
from export_encoders import Field

TOKENS = 128


def _ids(vocab: int, tokens: int = TOKENS) -> dict[str, torch.Tensor]:
    return {"input_ids": torch.randint(0, vocab, (1, tokens), dtype=torch.int64)}


def mamba2():
    from transformers import Mamba2Config, Mamba2ForCausalLM

    config = Mamba2Config(vocab_size=SIZE["vocab_size"], hidden_size=256, num_hidden_layers=2, num_heads=8,
                          head_dim=64, state_size=64, n_groups=1, chunk_size=64)
    return Logits(Mamba2ForCausalLM(config)), _ids(config.vocab_size), config.to_dict()


def rt_detr():
    from transformers import RTDetrConfig, RTDetrForObjectDetection

    config = RTDetrConfig()
    model = Field(RTDetrForObjectDetection(config), ("pixel_values",), "pred_boxes")
    return model, {"pixel_values": torch.rand(1, 3, 640, 640)}, config.to_dict()


def owlvit():
    from transformers import OwlViTConfig, OwlViTForObjectDetection

    config = OwlViTConfig()
    model = Field(OwlViTForObjectDetection(config), ("input_ids", "pixel_values"), "pred_boxes")
    inputs = {"input_ids": torch.randint(0, 1000, (2, 16)), "pixel_values": torch.randn(1, 3, 768, 768)}
    return model, inputs, config.to_dict()


def vit_mae():
    from transformers import ViTMAEConfig, ViTMAEModel

    config = ViTMAEConfig(num_hidden_layers=4)
    model = Field(ViTMAEModel(config), ("pixel_values", "noise"), "last_hidden_state")
    inputs = {"pixel_values": torch.randn(1, 3, 224, 224), "noise": torch.rand(1, 196)}
    return model, inputs, config.to_dict()


NINTH_SWEEP = {
    "sweep9/mamba2": (mamba2, "Mamba2ForCausalLM, hidden 256, 2 layers, 128 tokens in chunks of 64", False),
    "sweep9/rt_detr": (rt_detr, "RTDetrForObjectDetection (ResNet-50), 640x640", False),
    "sweep9/owlvit": (owlvit, "OwlViTForObjectDetection (ViT-B/32), 768x768, 2 queries of 16 tokens", False),
    "sweep9/vit_mae": (vit_mae, "ViTMAEModel, base widths, 4 layers, 224x224, noise an input", False),
}
