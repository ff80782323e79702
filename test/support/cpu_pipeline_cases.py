"""What the tests of the llvm-cpu-only linalg passes (filter padding, weight packing) ask of a
pipeline run: region counts, the pipeline without one pass, which pipelines run a pass, and
constants written as MLIR hex literals."""

from __future__ import annotations

import numpy as np

from fusionopt.pipeline_spec import parse_pipeline
from fusionopt.registry import PIPELINES

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
