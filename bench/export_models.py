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
`M.build.json` instead, `--forms both` both: the held-out whole models (`HELDOUT_MODELS`, `UNSEEN_MODELS`; 224x224, their
BatchNorm statistics calibrated on random images, `calibrate_batchnorm`),
checked by bench/heldout_models.py, e.g.

    /tmp/exportenv/bin/python bench/export_models.py --forms inline --out /tmp/heldout \
        --models heldout/mobilenet_v2,heldout/resnext50_32x4d

The held-out whole decoders (`DECODER_MODELS`, bench/export_decoders.py: transformers causal LMs
of six families, `input_ids -> logits`, seq 64) are exported the same way; with `--forms inline`
each also gets `M.dynamic.onnx`, the same model with a symbolic `seq` axis (`dynamic_shapes`), and
`M.f16.onnx`, the same model in f16 (`model.half()`: torch's f16 export, f32 only where
transformers computes in f32, e.g. RMSNorm's statistics). transformers encoders
(`ENCODER_MODELS`, bench/export_encoders.py) and vision backbones (`VISION_ENCODER_MODELS`,
bench/export_vision_encoders.py: SegFormer, MobileViT, ConvNeXt V2, PoolFormer, LeViT, DINOv2,
BEiT, and SqueezeBERT's grouped 1-D convs) and recurrent networks (`RECURRENT_MODELS`,
bench/export_recurrent.py: LSTM and GRU) and a third sweep of text and vision backbones
(`THIRD_SWEEP`, bench/export_third_sweep.py: FNet, CANINE, Swin V2, ...) and the fourth's
(`FOURTH_SWEEP`, bench/export_fourth_sweep.py: seq2seq models, DETR, RAFT, ...) and the sixth's
(`SIXTH_SWEEP`, bench/export_sixth_sweep.py: T5, LayoutLM, EnCodec, RWKV, video models, ...) and the
seventh's (`SEVENTH_SWEEP`, bench/export_seventh_sweep.py: Nystromformer, Perceiver IO, UperNet,
Depth Anything, DAC, UnivNet, Autoformer, video Swin, ...) and the eighth's (`EIGHTH_SWEEP`,
bench/export_eighth_sweep.py: GroupViT, LiLT, CLIPSeg, Pix2Struct) and the ninth's (`NINTH_SWEEP`,
bench/export_ninth_sweep.py: Mamba-2, RT-DETR, OWL-ViT, ViT-MAE) and the tenth's (`TENTH_SWEEP`,
bench/export_tenth_sweep.py: Mixtral, Qwen2-MoE, Jamba, SAM, Mask2Former) and the eleventh's
(`ELEVENTH_SWEEP`, bench/export_eleventh_sweep.py: OLMoE, DeepSeek-V3, GPT-OSS, ModernBERT,
RecurrentGemma, LFM2, Deformable DETR) go with `--forms inline` too.
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

from export_decoders import DECODER_MODELS, DYNAMIC_AXES, MORE_DECODERS, Logits  # noqa: E402
from export_encoders import ENCODER_MODELS  # noqa: E402

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


from export_vision_encoders import MORE_VISION_ENCODERS, VISION_ENCODER_MODELS  # noqa: E402
from export_recurrent import RECURRENT_MODELS  # noqa: E402
from export_third_sweep import THIRD_SWEEP  # noqa: E402
from export_fourth_sweep import FOURTH_SWEEP  # noqa: E402
from export_sixth_sweep import SIXTH_SWEEP  # noqa: E402
from export_seventh_sweep import SEVENTH_SWEEP  # noqa: E402
from export_eighth_sweep import EIGHTH_SWEEP  # noqa: E402
from export_ninth_sweep import NINTH_SWEEP  # noqa: E402
from export_tenth_sweep import TENTH_SWEEP  # noqa: E402
from export_eleventh_sweep import ELEVENTH_SWEEP  # noqa: E402
from export_model_defs import CHECK_MODELS, HELDOUT_MODELS, MODELS, UNSEEN_MODELS, _declare_torchvision_ops  # noqa: E402


# Decoders exported with static shapes only: Mamba's selective scan is a Python loop over the
# tokens, so torch.export specialises `seq` (a symbolic axis fails) and the f16 form is skipped
# with it.
STATIC_ONLY = {"decoder/mamba"}

ALL_MODELS = {**MODELS, **CHECK_MODELS, **HELDOUT_MODELS, **UNSEEN_MODELS, **DECODER_MODELS,
              **MORE_DECODERS, **ENCODER_MODELS, **VISION_ENCODER_MODELS,
              **MORE_VISION_ENCODERS, **RECURRENT_MODELS, **THIRD_SWEEP,
              **FOURTH_SWEEP, **SIXTH_SWEEP, **SEVENTH_SWEEP, **EIGHTH_SWEEP,
              **NINTH_SWEEP, **TENTH_SWEEP, **ELEVENTH_SWEEP}


# -- export -----------------------------------------------------------------------------------

def add_noise(model: nn.Module, generator: torch.Generator) -> None:
    with torch.no_grad():
        for param in model.parameters():
            param += NOISE * torch.randn(param.shape, generator=generator)
        for module in model.modules():
            if isinstance(module, nn.modules.batchnorm._BatchNorm):
                module.running_mean += NOISE * torch.randn(module.running_mean.shape, generator=generator)
                module.running_var *= torch.exp(NOISE * torch.randn(module.running_var.shape, generator=generator))


def calibrate_batchnorm(model: nn.Module, inputs: dict[str, torch.Tensor], generator: torch.Generator,
                        batches: int = 4) -> None:
    """BatchNorm statistics measured on random images (N(0, 1), the input's shape, batch 2), as
    training would have left them. A random-init torchvision model with noised parameters is
    otherwise nearly blind to its input (mobilenet_v2, mobilenet_v3_large, efficientnet_b0: two
    random images gave outputs 1e-7 apart), and agreeing with onnxruntime on it proved little."""
    norms = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if not norms or len(inputs) != 1:
        return
    (image,) = inputs.values()
    saved = [m.momentum for m in norms]
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a cumulative average over the batches
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn((2, *image.shape[1:]), generator=generator))
    model.eval()
    for m, momentum in zip(norms, saved):
        m.momentum = momentum


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


def export_half(model: nn.Module, inputs: dict, output: str, path: Path) -> None:
    """A decoder again in f16 (`model.half()`, in place: call it last), metadata stripped."""
    export_onnx(model.half(), inputs, False, path, output)
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
    if any(name in group for group in (HELDOUT_MODELS, UNSEEN_MODELS, MORE_VISION_ENCODERS, SIXTH_SWEEP, SEVENTH_SWEEP,
                                          EIGHTH_SWEEP, NINTH_SWEEP, TENTH_SWEEP, ELEVENTH_SWEEP)):
        calibrate_batchnorm(model, inputs, torch.Generator().manual_seed(SEED + 1))
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
            if (name in DECODER_MODELS or name in MORE_DECODERS) and name not in STATIC_ONLY:
                export_dynamic(model, inputs, output, out / f"{stem}.dynamic.onnx")
                export_half(model, inputs, output, out / f"{stem}.f16.onnx")
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
