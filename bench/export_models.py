"""Export the repo-shipped models (`test/data/models/`) the way the shared corpus was exported.

Runs in a separate export environment, never in the project's venv (the package and the tests
do not import it): torch 2.13 (CPU), torchvision 0.28, transformers 5.23, onnx, onnxscript,
onnxruntime and iree-base-compiler 3.13, e.g.

    python3.11 -m venv /tmp/exportenv
    /tmp/exportenv/bin/pip install torch==2.13.0+cpu torchvision==0.28.0 transformers==5.23.0 \\
        numpy onnx onnxscript onnxruntime iree-base-compiler==3.13.0
    /tmp/exportenv/bin/python bench/export_models.py [--models minilm_l6,cnn/resnet18] [--out DIR]
    /tmp/exportenv/bin/python bench/export_models.py --models cnn/regnet_y_400mf --out /tmp/check  # CHECK_MODELS

Recipe (the one `../shared/models/README.md` describes; checked: re-lowering the shared
`bert_mini.args.onnx` / `resnet_mini.args.onnx` with step 3 reproduces their `M.args.linalg.mlir`
byte for byte):
1. A PyTorch module in eval mode with random weights (no pretrained weights); every parameter
   gets `+= 0.02 * N(0, 1)` so no two weight tensors are identical (the exporter would share
   them); BatchNorm running means get the same additive noise, running variances are multiplied
   by `exp(0.02 * N(0, 1))` so they stay positive.
2. `torch.onnx.export(..., dynamo=True, opset_version=18, optimize=True)`, static shapes, batch 1.
   `optimize=True` folds BatchNorm into the preceding Conv (onnxscript's rewriter); a model with
   `keep_batchnorm` is exported with that one rewrite rule disabled, so `BatchNormalization`
   stays a node and the rest of the graph is optimized as usual.
   Metadata props are stripped. Then every float initializer of rank >= 1 becomes a graph
   **input** (after the model inputs, in initializer order) -> `M.args.onnx`; scalars and integer
   or boolean initializers stay inline. A moved initializer keeps its name when it is a parameter;
   a transposed copy the exporter made is named `<param>.T`; other exporter-made tensors (folded
   BatchNorm weights) keep the exporter's name (`initializer_provenance` in `M.build.json`).
3. `iree-import-onnx M.args.onnx`, then `iree-opt --pass-pipeline='builtin.module(
   torch-onnx-to-torch-backend-pipeline, torch-backend-to-linalg-on-tensors-backend-pipeline)'`
   (torch-mlir's pipelines as IREE 3.13 ships them) -> `M.args.linalg.mlir`: a plain
   `func.func @main_graph` on tensors, upstream dialects only, weights as arguments.
4. IREE's dispatch counts: `iree-compile M.args.linalg.mlir --iree-hal-target-device=local
   --iree-hal-local-target-device-backends=llvm-cpu --compile-to=flow` (default, and with
   `--iree-dispatch-creation-enable-aggressive-fusion
   --iree-dispatch-creation-enable-fuse-horizontal-contractions`), counting `flow.dispatch @`
   call sites (and how many of them are `slow_memcpy` copies); recorded in `M.build.json`.

Only `M.args.onnx`, `M.args.linalg.mlir` and `M.build.json` are written (no inline-weight files,
to keep the repository small); the inline ONNX size is recorded in `M.build.json`.
`--forms inline` writes `M.inline.onnx` (steps 1-2, weights left initializers) and a short
`M.build.json` instead, `--forms both` both: the held-out whole models (`HELDOUT_MODELS`, 224x224),
checked by bench/heldout_models.py, e.g.

    /tmp/exportenv/bin/python bench/export_models.py --forms inline --out /tmp/heldout \
        --models heldout/mobilenet_v2,heldout/resnext50_32x4d

The held-out whole decoders (`DECODER_MODELS`, bench/export_decoders.py: transformers causal LMs
of six families, `input_ids -> logits`, seq 64) are exported the same way; with `--forms inline`
each also gets `M.dynamic.onnx`, the same model with a symbolic `seq` axis (`dynamic_shapes`).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))

from export_decoders import DECODER_MODELS, DYNAMIC_AXES, Logits  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT_ROOT = REPO_ROOT / "test" / "data" / "models"
NOISE = 0.02
SEED = 0
TORCH_MLIR_PIPELINE = ("builtin.module(torch-onnx-to-torch-backend-pipeline,"
                       "torch-backend-to-linalg-on-tensors-backend-pipeline)")
IREE_FLOW = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
             "--compile-to=flow"]
IREE_BEST = ["--iree-dispatch-creation-enable-aggressive-fusion",
             "--iree-dispatch-creation-enable-fuse-horizontal-contractions"]


# -- model definitions ------------------------------------------------------------------------

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

ALL_MODELS = {**MODELS, **CHECK_MODELS, **HELDOUT_MODELS, **DECODER_MODELS}


# -- export -----------------------------------------------------------------------------------

def add_noise(model: nn.Module, generator: torch.Generator) -> None:
    with torch.no_grad():
        for param in model.parameters():
            param += NOISE * torch.randn(param.shape, generator=generator)
        for module in model.modules():
            if isinstance(module, nn.modules.batchnorm._BatchNorm):
                module.running_mean += NOISE * torch.randn(module.running_mean.shape, generator=generator)
                module.running_var *= torch.exp(NOISE * torch.randn(module.running_var.shape, generator=generator))


@contextlib.contextmanager
def batchnorm_kept(keep: bool):
    """`optimize=True` without onnxscript's BatchNorm-into-Conv rewrite (the optimizer reads the
    default rule list when it runs); `optimize=False` would also keep Shape/Expand/CastLike noise."""
    from onnxscript import rewriter
    from onnxscript.rewriter.rules.common import _fuse_batchnorm

    saved = rewriter._DEFAULT_REWRITE_RULES
    if keep:
        fusions = {id(rule) for rule in _fuse_batchnorm.rules}
        rewriter._DEFAULT_REWRITE_RULES = tuple(r for r in saved if id(r) not in fusions)
    try:
        yield
    finally:
        rewriter._DEFAULT_REWRITE_RULES = saved


def export_onnx(model: nn.Module, inputs: dict, keep_batchnorm: bool, path: Path, output: str,
                dynamic_shapes: dict | None = None) -> None:
    """`dynamic_shapes`: input -> {axis: name}, the ONNX file's symbolic dims (None: static)."""
    with batchnorm_kept(keep_batchnorm):
        torch.onnx.export(model, tuple(inputs.values()), str(path), dynamo=True, opset_version=18,
                          optimize=True, input_names=list(inputs), output_names=[output],
                          external_data=False, dynamic_shapes=dynamic_shapes)


def output_name(model: nn.Module, config: dict | None) -> str:
    if isinstance(model, Logits):
        return "logits"
    return "last_hidden_state" if config else "output"


def export_dynamic(model: nn.Module, inputs: dict, output: str, path: Path) -> None:
    """A decoder again with `DYNAMIC_AXES` symbolic, metadata stripped."""
    axes = {name: axes for name, axes in DYNAMIC_AXES.items() if name in inputs}
    export_onnx(model, inputs, False, path, output, axes)
    onnx_model = onnx.load(str(path))
    strip_metadata(onnx_model)
    onnx.checker.check_model(onnx_model)
    onnx.save(onnx_model, str(path))


def strip_metadata(model: onnx.ModelProto) -> int:
    count = len(model.metadata_props)
    del model.metadata_props[:]
    for node in model.graph.node:
        count += len(node.metadata_props)
        del node.metadata_props[:]
    return count


def input_name(init_name: str, value: np.ndarray, params: dict[str, np.ndarray]) -> tuple[str, str]:
    """(graph input name, provenance) of a moved initializer."""
    if init_name in params and np.array_equal(params[init_name], value):
        return init_name, "parameter"
    for name, param in params.items():
        if param.ndim == 2 and param.T.shape == value.shape and np.array_equal(param.T, value):
            return f"{name}.T", "transposed"
    return init_name, "folded"


def move_initializers(model: onnx.ModelProto, params: dict[str, np.ndarray]) -> dict:
    graph = model.graph
    moved, kept, provenance = [], [], {}
    keep = []
    for init in graph.initializer:
        value = onnx.numpy_helper.to_array(init)
        if value.dtype.kind != "f" or value.ndim == 0:
            keep.append(init)
            kept.append([init.name, list(value.shape), str(value.dtype)])
            continue
        name, origin = input_name(init.name, value, params)
        provenance[name] = origin
        moved.append([init.name, name, list(value.shape), str(value.dtype)])
    renames = {old: new for old, new, _, _ in moved if old != new}
    for node in graph.node:
        node.input[:] = [renames.get(i, i) for i in node.input]
    for onnx_name, name, shape, _ in moved:
        elem = next(i.data_type for i in graph.initializer if i.name == onnx_name)
        graph.input.append(onnx.helper.make_tensor_value_info(name, elem, shape))
    del graph.initializer[:]
    graph.initializer.extend(keep)
    return {"initializers_moved_to_inputs": moved, "initializers_kept_inline": kept,
            "initializer_provenance": provenance}


def named_tensors(model: nn.Module) -> dict[str, np.ndarray]:
    tensors = {n: p.detach().numpy() for n, p in model.named_parameters()}
    tensors.update({n: b.detach().numpy() for n, b in model.named_buffers() if b.dtype.is_floating_point})
    return tensors


def run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr[-4000:]}")
    return done.stdout


def tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).parent / name)
    return found


def lower_to_linalg(onnx_path: Path, out: Path, work: Path) -> None:
    torch_mlir = work / "torch.mlir"
    run([tool("iree-import-onnx"), str(onnx_path), "-o", str(torch_mlir)])
    run([tool("iree-opt"), str(torch_mlir), f"--pass-pipeline={TORCH_MLIR_PIPELINE}", "-o", str(out)])


def iree_dispatches(linalg: Path, work: Path, extra: list[str]) -> dict:
    flow = work / "flow.mlir"
    run([tool("iree-compile"), str(linalg), *IREE_FLOW, *extra, "-o", str(flow)])
    calls = re.findall(r"flow\.dispatch @(\S+)", flow.read_text())
    return {"dispatches": len(calls), "slow_memcpy": sum("slow_memcpy" in c for c in calls)}


def op_counts(model: onnx.ModelProto) -> dict[str, int]:
    return dict(collections.Counter(n.op_type for n in model.graph.node).most_common())


def linalg_op_counts(text: str) -> dict[str, int]:
    ops = re.findall(r"= ((?:linalg|tensor)\.[a-z_0-9]+)", text)
    return dict(collections.Counter(ops).most_common())


def export(name: str, out_root: Path, forms: str = "args") -> dict:
    """`forms`: "args" (the corpus files), "inline" (`M.inline.onnx` only, weights as
    initializers, metadata stripped: no lowering or IREE counts) or "both"."""
    build, definition, keep_batchnorm = ALL_MODELS[name]
    _declare_torchvision_ops()
    torch.manual_seed(SEED)
    model, inputs, config = build()
    model.eval()
    add_noise(model, torch.Generator().manual_seed(SEED))
    stem = Path(name).name
    out = out_root / name
    out.mkdir(parents=True, exist_ok=True)
    output = output_name(model, config)
    with torch.no_grad():
        result = model(*inputs.values())
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        export_onnx(model, inputs, keep_batchnorm, work / "inline.onnx", output)
        onnx_model = onnx.load(str(work / "inline.onnx"))
        stripped = strip_metadata(onnx_model)
        inline_bytes = len(onnx_model.SerializeToString())
        if forms != "args":
            onnx.checker.check_model(onnx_model)
            onnx.save(onnx_model, str(out / f"{stem}.inline.onnx"))
            if name in DECODER_MODELS:
                export_dynamic(model, inputs, output, out / f"{stem}.dynamic.onnx")
        if forms == "inline":
            info = {"name": stem, "definition": definition, "torch": torch.__version__,
                    "inputs": {k: [list(v.shape), str(v.dtype)] for k, v in inputs.items()},
                    "output_shape": list(result.shape), "onnx_nodes": len(onnx_model.graph.node),
                    "onnx_op_counts": op_counts(onnx_model), "onnx_bytes": {"inline": inline_bytes},
                    **({"config": config} if config else {})}
            (out / f"{stem}.build.json").write_text(json.dumps(info, indent=1, default=str) + "\n")
            return info
        moved = move_initializers(onnx_model, named_tensors(model))
        onnx.checker.check_model(onnx_model)
        args_onnx = out / f"{stem}.args.onnx"
        onnx.save(onnx_model, str(args_onnx))
        linalg = out / f"{stem}.args.linalg.mlir"
        lower_to_linalg(args_onnx, linalg, work)
        counts = {"default": iree_dispatches(linalg, work, []),
                  "aggressive+horizontal": iree_dispatches(linalg, work, IREE_BEST)}
    info = {
        "name": stem, "definition": definition, "exporter": "dynamo", "opset": 18,
        "optimize": True, "keep_batchnorm": keep_batchnorm,
        "torch": torch.__version__, "onnx": onnx.__version__,
        "inputs": {k: [list(v.shape), str(v.dtype)] for k, v in inputs.items()},
        "output_shape": list(result.shape),
        "num_parameters": sum(p.numel() for p in model.parameters()),
        "num_batchnorm_modules": sum(isinstance(m, nn.modules.batchnorm._BatchNorm) for m in model.modules()),
        "onnx_nodes": len(onnx_model.graph.node), "onnx_op_counts": op_counts(onnx_model),
        **moved, "metadata_props_stripped": stripped,
        "onnx_bytes": {"inline": inline_bytes, "args": args_onnx.stat().st_size},
        "linalg_bytes": linalg.stat().st_size,
        "linalg_op_counts": linalg_op_counts(linalg.read_text()),
        "iree_3_13_flow": counts,
    }
    if config:
        info["config"] = config
    (out / f"{stem}.build.json").write_text(json.dumps(info, indent=1, default=str) + "\n")
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS),
                        help="comma-separated, of: " + ", ".join(ALL_MODELS)
                        + " (default: the shipped ones)")
    parser.add_argument("--out", type=Path, default=OUT_ROOT)
    parser.add_argument("--forms", choices=("args", "inline", "both"), default="args",
                        help="args: the corpus files; inline: M.inline.onnx only; both")
    args = parser.parse_args(argv)
    for name in args.models.split(","):
        info = export(name, args.out, args.forms)
        if args.forms == "inline":
            print(f"{name}: {info['onnx_nodes']} ONNX nodes, inline.onnx {info['onnx_bytes']['inline']} B")
            continue
        flow = info["iree_3_13_flow"]
        print(f"{name}: {info['onnx_nodes']} ONNX nodes, args.onnx {info['onnx_bytes']['args']} B, "
              f"linalg {info['linalg_bytes']} B, IREE dispatches {flow['default']} / {flow['aggressive+horizontal']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
