"""IREE's codegen configuration attributes, as its tests attach them to ops before dispatch
creation: `#iree_codegen.lowering_config<...>`, `#iree_codegen.compilation_info<...>`,
`#iree_cpu.pipeline<...>`, `#iree_gpu.lowering_config<...>`. They steer IREE's kernel
generation, never the values an op computes, so fusionopt keeps them as opaque text
(dialects/opaque.py) and prints them back unchanged.

    %r = linalg.generic {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[0, 0]]>, ...}
"""

from __future__ import annotations

from xdsl.ir import Dialect

from fusionopt.dialects.opaque import opaque_attribute

CODEGEN_ATTRIBUTES = [opaque_attribute(f"iree_codegen.{name}")
                      for name in ("lowering_config", "compilation_info", "translation_info",
                                   "export_config", "encoding_nop_layout", "ukernel_descriptor")]
CPU_ATTRIBUTES = [opaque_attribute(f"iree_cpu.{name}") for name in ("pipeline", "lowering_config", "vmvx_encoding_layout", "cpu_encoding_layout")]
GPU_ATTRIBUTES = [opaque_attribute(f"iree_gpu.{name}")
                  for name in ("lowering_config", "pipeline", "mma_layout", "target", "derived_thread_config")]

IreeCodegen = Dialect("iree_codegen", [], CODEGEN_ATTRIBUTES)
IreeCpu = Dialect("iree_cpu", [], CPU_ATTRIBUTES)
IreeGpu = Dialect("iree_gpu", [], GPU_ATTRIBUTES)
