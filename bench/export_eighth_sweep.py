"""Models of an eighth build sweep (`EIGHTH_SWEEP`, exported by bench/export_models.py with
`--forms inline`): families the earlier sweeps did not have, conventions as
bench/export_seventh_sweep.py's. What each brings that the importer was not written against:

- groupvit: GroupViT's vision tower at 224x224: grouping blocks whose hard assignment is a
  one-hot scattered at each patch's argmax group (ONNX `ScatterElements` with indices computed
  in the graph);
- lilt: LiLT at 128 tokens with boxes: a layout stream beside the text stream, their attention
  scores shared;
- clipseg: CLIPSeg at 352x352 with 16 tokens: CLIP's pooled text token gathered at the largest
  id (`GatherND` with computed indices, an ArgMax over int32 ids), FiLM conditioning, a
  ConvTranspose of kernel = stride = 32 into one channel;
- pix2struct: Pix2Struct's vision encoder over 1024 flattened patches whose first two features
  are their row and column (embedded by a gather of computed ids).
"""

from __future__ import annotations

import torch

from export_encoders import Field, LastHidden

TOKENS = 128


def _image(size: int) -> dict[str, torch.Tensor]:
    return {"pixel_values": torch.randn(1, 3, size, size)}


def groupvit():
    from transformers import GroupViTVisionConfig, GroupViTVisionModel

    config = GroupViTVisionConfig()
    return LastHidden(GroupViTVisionModel(config), "pixel_values"), _image(224), config.to_dict()


def lilt():
    from transformers import LiltConfig, LiltModel

    config = LiltConfig(num_hidden_layers=2)
    ids = torch.randint(0, config.vocab_size, (1, TOKENS))
    boxes = torch.sort(torch.randint(0, 1000, (1, TOKENS, 4)), dim=-1).values  # x0 <= y0 <= x1 <= y1
    model = Field(LiltModel(config), ("input_ids", "bbox"), "last_hidden_state")
    return model, {"input_ids": ids, "bbox": boxes}, config.to_dict()


def clipseg():
    from transformers import CLIPSegConfig, CLIPSegForImageSegmentation

    config = CLIPSegConfig()
    config.text_config.num_hidden_layers = 2
    config.vision_config.num_hidden_layers = 4
    config.extract_layers = [1, 2, 3]
    model = Field(CLIPSegForImageSegmentation(config), ("input_ids", "pixel_values"), "logits")
    inputs = {"input_ids": torch.randint(0, 1000, (1, 16)), "pixel_values": torch.randn(1, 3, 352, 352)}
    return model, inputs, config.to_dict()


def pix2struct():
    from transformers import Pix2StructVisionConfig, Pix2StructVisionModel

    config = Pix2StructVisionConfig(num_hidden_layers=2)
    patches, columns = 1024, 32
    rows, cols = torch.arange(patches) // columns + 1, torch.arange(patches) % columns + 1
    flat = torch.cat([rows[:, None].float(), cols[:, None].float(), torch.randn(patches, 768)], dim=1)[None]
    return LastHidden(Pix2StructVisionModel(config), "flattened_patches"), {"flattened_patches": flat}, config.to_dict()


EIGHTH_SWEEP = {
    "sweep8/groupvit": (groupvit, "GroupViTVisionModel, 224x224", False),
    "sweep8/lilt": (lilt, "LiltModel, base widths, 2 layers, 128 tokens with boxes", False),
    "sweep8/clipseg": (clipseg, "CLIPSegForImageSegmentation, 352x352, 16 tokens, 4 + 2 layers", False),
    "sweep8/pix2struct": (pix2struct, "Pix2StructVisionModel, base widths, 2 layers, 1024 patches", False),
}
