"""The models `bench/export_models.py` exports: the shipped corpus models (`MODELS`), the check-run
CNNs (`CHECK_MODELS`) and the held-out 224x224 models (`HELDOUT_MODELS`), each name -> (builder,
definition, keep BatchNormalization nodes); a builder returns (module, example inputs, config).
The held-out decoders are in `export_decoders.py`. Runs in the export environment
(`export_models.py`'s docstring)."""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn


class HiddenStates(nn.Module):
    """`BertModel` returning `last_hidden_state` only (the attribute `m` gives the `m.` names)."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.m = model

    def forward(self, input_ids, attention_mask):
        return self.m(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state


def minilm_l6():
    """all-MiniLM-L6-v2's architecture (6 layers, hidden 384, 12 heads, FFN 1536), vocab 1024."""
    from transformers import BertConfig, BertModel

    config = BertConfig(vocab_size=1024, hidden_size=384, num_hidden_layers=6, num_attention_heads=12,
                        intermediate_size=1536, hidden_act="gelu", hidden_dropout_prob=0.0,
                        attention_probs_dropout_prob=0.0, max_position_embeddings=512)
    model = HiddenStates(BertModel(config, add_pooling_layer=False))
    ids = torch.randint(0, 1024, (1, 64), dtype=torch.int64)
    mask = torch.ones((1, 64), dtype=torch.int64)
    return model, {"input_ids": ids, "attention_mask": mask}, config.to_dict()


class InceptionMini(nn.Module):
    """Two inception blocks (torchvision GoogLeNet's `Inception`: parallel branches of
    conv+BN+ReLU, concatenated: 1x1 / 1x1->3x3 / 1x1->5x5 / maxpool->1x1) between a stem and a
    classifier. torchvision's third branch is a 3x3 (kept from the original port); here it is
    the 5x5 of the GoogLeNet paper, so a pad-2 convolution is covered too."""

    def __init__(self, num_classes: int = 10):
        super().__init__()
        from torchvision.models.googlenet import BasicConv2d

        self.stem = BasicConv2d(3, 32, kernel_size=3, stride=2, padding=1)
        self.block1 = inception_block(32, 16, 16, 24, 8, 8, 8)      # -> 56 channels
        self.pool = nn.MaxPool2d(3, stride=2, padding=1)
        self.block2 = inception_block(56, 24, 24, 32, 8, 16, 16)    # -> 88 channels
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(88, num_classes)

    def forward(self, x):
        x = self.block2(self.pool(self.block1(self.stem(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def inception_block(in_ch, ch1x1, ch3x3red, ch3x3, ch5x5red, ch5x5, pool_proj) -> nn.Module:
    from torchvision.models.googlenet import BasicConv2d, Inception

    block = Inception(in_ch, ch1x1, ch3x3red, ch3x3, ch5x5red, ch5x5, pool_proj)
    block.branch3[1] = BasicConv2d(ch5x5red, ch5x5, kernel_size=5, padding=2)
    return block


def _declare_torchvision_ops() -> None:
    """Let `import torchvision` succeed when its `_C` extension cannot load.

    PyPI's torchvision wheels link against CUDA torch; next to the CPU torch wheel their `_C`
    does not load, and the import then fails registering fake kernels for `torchvision::nms` and
    `qnms` (transformers imports torchvision when it is installed). The models exported here use none of torchvision's custom ops, so declaring those two
    schemas is enough; with a working `_C` this does nothing."""
    if _torchvision_extension_loads():
        return
    try:
        torch.ops.torchvision.nms
    except (AttributeError, RuntimeError):
        library = torch.library.Library("torchvision", "DEF")
        library.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        library.define("qnms(Tensor qdets, Tensor qscores, float iou_threshold) -> Tensor")
        _KEEP_ALIVE.append(library)


_KEEP_ALIVE: list = []


def _torchvision_extension_loads() -> bool:
    """Whether torchvision's `_C` loads beside this torch (it then registers nms itself, and a
    declaration here would clash with it)."""
    import importlib.util

    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        return False
    for library in Path(next(iter(spec.submodule_search_locations))).glob("_C*.so"):
        try:
            torch.ops.load_library(str(library))
            return True
        except OSError:
            return False
    return False


def _image(size: int) -> dict[str, torch.Tensor]:
    return {"input": torch.randn(1, 3, size, size)}


def resnet18():
    from torchvision.models import resnet18 as build
    return build(num_classes=10), _image(64), None


def squeezenet1_1():
    from torchvision.models import squeezenet1_1 as build
    return build(num_classes=10), _image(64), None


def mobilenet_v3_small():
    from torchvision.models import mobilenet_v3_small as build
    return build(num_classes=10), _image(64), None


def inception_mini():
    return InceptionMini(10), _image(32), None


# name -> (builder, definition, keep BatchNormalization nodes)
MODELS = {
    "minilm_l6": (minilm_l6, "transformers BertModel with all-MiniLM-L6-v2's config (6 layers, hidden 384, "
                  "12 heads, intermediate 1536), vocab 1024, no pooler, seq 64", False),
    "cnn/resnet18": (resnet18, "torchvision resnet18(num_classes=10), 64x64 input", False),
    "cnn/squeezenet1_1": (squeezenet1_1, "torchvision squeezenet1_1(num_classes=10), 64x64 input", False),
    "cnn/mobilenet_v3_small": (mobilenet_v3_small, "torchvision mobilenet_v3_small(num_classes=10) "
                               "(hardswish, squeeze-excite with hardsigmoid), 64x64 input", False),
    "cnn/inception_mini": (inception_mini, "stem conv3x3/2 + two torchvision GoogLeNet Inception blocks "
                           "(1x1, 1x1->3x3, 1x1->5x5, maxpool->1x1; conv+BN+ReLU; concat) + maxpool, "
                           "global average pool, Linear(88, 10); 32x32 input", True),
}


def torchvision_cnn(name: str, **options):
    """A torchvision classifier with 10 classes at a 64x64 input."""
    def build():
        import torchvision.models as models
        return getattr(models, name)(num_classes=10, **options), _image(64), None
    return build


# CNNs the passes were not written against, exported the same way for a check run (not shipped:
# `--out DIR`, then `FUSIONOPT_CORPUS=DIR python bench/iree_runtime.py --models cnn/NAME`;
# bench/RESULTS.md, "Six CNNs the passes were not written for").
CHECK_MODELS = {
    f"cnn/{name}": (torchvision_cnn(name, **options), f"torchvision {name}(num_classes=10), 64x64 input", keep)
    for name, options, keep in (
        ("shufflenet_v2_x0_5", {}, False),
        ("regnet_y_400mf", {}, False),
        ("efficientnet_b0", {}, False),
        ("mnasnet0_5", {}, True),
        ("googlenet", {"aux_logits": False, "init_weights": True}, False),
        ("densenet121", {}, False),
    )
}


class MainOutput(nn.Module):
    """A segmentation model's `["out"]` (torchvision returns a dict)."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.m = model

    def forward(self, x):
        return self.m(x)["out"]


def torchvision_224(name: str, **options):
    """A whole torchvision model (its default head) at a 224x224 input; no weights (nor backbone
    weights) are downloaded."""
    def build():
        import torchvision.models as models
        import torchvision.models.segmentation as segmentation

        if hasattr(segmentation, name) and not hasattr(models, name):
            return MainOutput(getattr(segmentation, name)(weights=None, weights_backbone=None, **options)), _image(224), None
        return getattr(models, name)(weights=None, **options), _image(224), None
    return build


def vit_s16_224():
    """A ViT-S/16 (hidden 384, 6 heads, MLP 1536) with 6 layers, torchvision's VisionTransformer."""
    from torchvision.models.vision_transformer import VisionTransformer
    return VisionTransformer(image_size=224, patch_size=16, num_layers=6, num_heads=6, hidden_dim=384,
                             mlp_dim=1536), _image(224), None


# Whole models at 224x224 held out from tuning (issue "Every model builds"): exported with
# `--forms inline --out DIR`; checked by bench/heldout_models.py.
HELDOUT_MODELS = {
    **{f"heldout/{name}": (torchvision_224(name), f"torchvision {name}(weights=None), 224x224 input", False)
       for name in ("mobilenet_v2", "resnext50_32x4d", "convnext_tiny", "lraspp_mobilenet_v3_large",
                    "densenet121", "regnet_x_400mf", "shufflenet_v2_x1_0", "efficientnet_v2_s", "mnasnet1_0")},
    "heldout/vit_s16_6l": (vit_s16_224, "torchvision VisionTransformer (patch 16, 6 layers, hidden 384, "
                           "6 heads, MLP 1536), 224x224 input", False),
}


def inception_v3_299():
    """torchvision inception_v3 at its own 299x299 input, without the auxiliary head."""
    from torchvision.models import inception_v3
    return inception_v3(weights=None, aux_logits=False, init_weights=True), _image(299), None


def video_clip(name: str):
    """A torchvision video classifier (3D convs) on one 16-frame 112x112 clip."""
    def build():
        import torchvision.models.video as video
        return getattr(video, name)(weights=None), {"input": torch.randn(1, 3, 16, 112, 112)}, None
    return build


# Architectures beyond the held-out ten, for a build sweep at real sizes (every formed region
# through iree-compile): plain and bottleneck ResNets, Fire modules, Inception's 1x7/7x1 and
# asymmetric pads, MobileNetV3's hardswish SE, EfficientNet's SiLU SE, RegNetY's grouped SE blocks
# (8-wide groups at 400MF, 16-wide at 800MF; RegNetX-1.6GF's 24-wide ones no vector fills),
# Swin's shifted windows (roll, window partition, relative position bias), DeepLabV3's dilated ASPP;
# then MaxViT (Einsum attention, MBConv), Swin V2 (cosine attention: ReduceL2), ViT-B/16 at full
# size, SqueezeNet 1.0, EfficientNet-B3, VGG11-BN (531 MB of weights), DeepLabV3-ResNet50 and the
# video ResNets r3d_18 / r2plus1d_18 (3-D convs over 16 frames).
UNSEEN_MODELS = {
    **{f"unseen/{name}": (torchvision_224(name, **options), f"torchvision {name}(weights=None), 224x224 input", False)
       for name, options in (("resnet18", {}), ("resnet50", {}), ("squeezenet1_1", {}),
                             ("googlenet", {"aux_logits": False, "init_weights": True}),
                             ("mobilenet_v3_large", {}), ("efficientnet_b0", {}), ("regnet_y_400mf", {}),
                             ("regnet_y_800mf", {}), ("regnet_x_1_6gf", {}),
                             ("swin_t", {}), ("deeplabv3_mobilenet_v3_large", {"aux_loss": False}),
                             ("alexnet", {}), ("resnext101_32x8d", {}), ("wide_resnet50_2", {}),
                             ("regnet_y_1_6gf", {}), ("shufflenet_v2_x0_5", {}), ("mnasnet0_5", {}),
                             ("mobilenet_v3_small", {}), ("fcn_resnet50", {"aux_loss": False}))},
    "unseen/inception_v3": (inception_v3_299, "torchvision inception_v3(weights=None, aux_logits=False), "
                            "299x299 input", False),
    **{f"unseen/{name}": (torchvision_224(name), f"torchvision {name}(weights=None), 224x224 input", False)
       for name in ("maxvit_t", "swin_v2_t", "vit_b_16", "squeezenet1_0", "efficientnet_b3", "vgg11_bn",
                    "deeplabv3_resnet50")},
    **{f"unseen/{name}": (torchvision_224(name), f"torchvision {name}(weights=None), 224x224 input", False)
       for name in ("resnext101_64x4d", "regnet_x_3_2gf", "regnet_y_3_2gf", "shufflenet_v2_x2_0", "efficientnet_b1")},
    "unseen/r3d_18": (video_clip("r3d_18"), "torchvision video r3d_18(weights=None), 16 frames of 112x112", False),
    "unseen/r2plus1d_18": (video_clip("r2plus1d_18"), "torchvision video r2plus1d_18(weights=None), 16 frames "
                           "of 112x112", False),
}
