"""What the tests of the llvm-cpu-only passes (filter padding, weight packing, CPU tiles) ask of a
pipeline run: region counts, the pipeline without one pass, which pipelines run a pass,
constants written as MLIR hex literals, and a tile config's build agreeing bit for bit with the
build without it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fusionopt.ir_io import print_module
from fusionopt.iree_tools import compile_vmfb, run_vmfb, target_flags
from fusionopt.pipeline_spec import parse_pipeline
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline

CPU = "dispatch-creation-llvm-cpu"
CPU_AND_CUDA = (CPU, "graph-to-dispatch-llvm-cpu", "dispatch-creation-cuda", "graph-to-dispatch-cuda")


def regions(module) -> int:
    return sum(op.name == "flow.dispatch.region" for op in module.walk())


def packed_contractions(module) -> int:
    """Contraction generics carrying an IREE lowering config (the packing passes write one)."""
    return sum(op.name == "linalg.generic" and "compilation_info" in op.attributes for op in module.walk())


def without_pass(pipeline: str, name: str) -> str:
    """The named pipeline's passes, `name` left out."""
    return ",".join(p for p in PIPELINES[pipeline].spec.split(",") if p != name)


def without_grouped_taps(pipeline: str) -> str:
    """The named llvm-cpu pipeline's passes with grouped convs left in the forms before their tap
    sums (`linalg-conv-channels-last` without grouped-taps: IREE's im2col op, the gather, the
    chained depthwise convs), for the tests of those forms, which convs the sums leave keep."""
    spec = PIPELINES[pipeline].spec
    if "dispatch-creation-llvm-cpu" in spec.split(","):
        spec = spec.replace("dispatch-creation-llvm-cpu", PIPELINES["dispatch-creation-llvm-cpu"].spec)
    taps = "linalg-conv-channels-last{grouped-taps=true}"
    assert taps in spec.split(","), pipeline
    return spec.replace(taps, "linalg-conv-channels-last")


def im2col_matmul_configs(module) -> list[str]:
    """The `compilation_info` of each contraction generic whose region computes IREE's im2col op
    (the im2col tile passes' targets)."""
    return [str(op.attributes["compilation_info"]) for op in module.walk()
            if op.name == "linalg.generic" and "compilation_info" in op.attributes
            and any(o.name == "iree_linalg_ext.im2col" for o in op.parent_op().walk())]


def pass_names(pipeline: str) -> list[str]:
    return [request.name for request in parse_pipeline(pipeline, PIPELINES)]


def runs_on_cpu_only(name: str) -> bool:
    """`name` is in both llvm-cpu pipelines and in neither CUDA one."""
    runs = {pipeline: name in pass_names(pipeline) for pipeline in CPU_AND_CUDA}
    return runs == {CPU: True, "graph-to-dispatch-llvm-cpu": True, "dispatch-creation-cuda": False,
                    "graph-to-dispatch-cuda": False}


def dense(array: np.ndarray) -> str:
    """An f32 `dense<"0x...">` literal of `array`."""
    return f'dense<"0x{array.astype("<f4").tobytes().hex().upper()}">'


def pipeline_with_and_without(text: str, name: str):
    """The CPU pipeline's module of `text` (checked to compute what `text` computes), and its
    region count without the pass `name`."""
    from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics

    return assert_pass_preserves_semantics(text, CPU), regions(apply_pipeline(text, without_pass(CPU, name)))


def assert_tiles_change_no_bit(text: str, pipelines: tuple[str, str], shape: tuple[int, ...], folder: Path) -> None:
    """IREE builds the graph program `text` through both pipelines (with and without a CPU tile
    pass) and the builds agree bit for bit, finite and not all zero, on random, constant,
    large-offset and zero images of `shape`: a tile config changes the loops, not any product
    or sum order."""
    vmfbs = []
    for index, pipeline in enumerate(pipelines):
        source = folder / f"build{index}.mlir"
        source.write_text(print_module(apply_pipeline(text, pipeline)))
        vmfbs.append(compile_vmfb(source, folder / f"build{index}.vmfb", target_flags("llvm-cpu")))
    rng = np.random.default_rng(0)
    images = {"random": rng.standard_normal(shape), "constant": np.full(shape, 0.75),
              "offset": 1000.5 + rng.standard_normal(shape), "zeros": np.zeros(shape)}
    for family, image in images.items():
        [ours], [theirs] = (run_vmfb(vmfb, [image.astype(np.float32)], "main") for vmfb in vmfbs)
        np.testing.assert_array_equal(ours, theirs, err_msg=family)
        assert np.all(np.isfinite(ours)) and np.any(ours), family


def conv_relu_block(channels: int, filters: int, groups: int, size: int, stride: int, seed: int,
                    scale: float) -> str:
    """A graph program: a padded 3x3 conv of a 1 x channels x size x size image over a constant
    filter (uniform in +-scale), `groups` groups, then a per-channel bias and ReLU."""
    out, per_group = size // stride, channels // groups
    count = filters * per_group * 9
    rng = np.random.default_rng(seed)
    weights = ", ".join(f"{v:.3f}" for v in rng.uniform(-scale, scale, count))
    bias = ", ".join(f"{v:.3f}" for v in rng.uniform(-0.5, 0.5, filters))
    image, result = f"tensor<1x{channels}x{size}x{size}xf32>", f"tensor<1x{filters}x{out}x{out}xf32>"
    kernel = f"tensor<{filters}x{per_group}x3x3xf32>"
    return f"""func.func @main(%x: {image}) -> {result} {{
  %w = arith.constant dense<[{weights}]> : tensor<{count}xf32>
  %wf = graph.reshape %w : tensor<{count}xf32> -> {kernel}
  %y = graph.conv %x, %wf strides = [{stride}, {stride}] dilations = [1, 1] pads = [1, 1, 1, 1] group = {groups} : ({image}, {kernel}) -> {result}
  %b = arith.constant dense<[{bias}]> : tensor<{filters}xf32>
  %bb = graph.broadcast %b dims = [1] : tensor<{filters}xf32> -> {result}
  %s = graph.add %y, %bb : {result}
  %r = graph.relu %s : {result}
  return %r : {result}
}}"""


def grouped_relu_block(size: int, stride: int, width: int = 16, groups: int = 4) -> str:
    """A RegNetX-like grouped 3x3 conv (`width` channels and filters a group, constant filter)
    with a per-channel bias and ReLU, at batch 1 (`conv_relu_block`)."""
    return conv_relu_block(width * groups, width * groups, groups, size, stride, size + stride, 0.5)
