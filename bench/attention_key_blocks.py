"""One long attention op built two ways by `dispatch-creation-llvm-cpu`: as it was (K read as
[keys, heads, dim], the tile by head dim) and over key blocks (`linalg-attention-key-blocks`: K
transposed, K and V padded to whole blocks, masked), timed interleaved with an A/A copy; prints
ms per call and each build's ratio to the one as it was.

    python bench/attention_key_blocks.py [--shapes 8x1500x64,4x1500x128,16x1500x32,8x1024x64]
                                         [--rounds 5] [--iterations 3] [--threads 1]

A shape is heads x tokens x head dim (self-attention: as many keys as queries, no mask, Q, K, V
as [tokens, heads, dim], as Whisper's encoder leaves them). Why: the pass's measured claim
(bench/RESULTS.md, "Attention over key blocks").
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from iree_bench_timing import comparison_row, shape_sweep_arguments, spec_builds, timed_shape  # noqa: E402

from fusionopt import registry  # noqa: E402

PIPELINE = "dispatch-creation-llvm-cpu"
KEY_BLOCKS = "linalg-attention-key-blocks"


def attention_program(heads: int, tokens: int, head_dim: int) -> str:
    t = f"tensor<{tokens}x{heads}x{head_dim}xf32>"
    maps = ", ".join(f"affine_map<(d0, d1, d2, d3, d4) -> {m}>" for m in
                     ("(d1, d0, d3)", "(d2, d0, d3)", "(d2, d0, d4)", "()", "(d1, d0, d4)"))
    return (f"func.func @main_graph(%q: {t}, %k: {t}, %v: {t}) -> {t} {{\n"
            f"  %s = arith.constant {head_dim ** -0.5} : f32\n  %e = tensor.empty() : {t}\n"
            f"  %a = iree_linalg_ext.attention <indexing_maps = [{maps}]> ins(%q, %k, %v, %s : {t}, {t}, {t}, f32) "
            f"outs(%e : {t}) {{\n  ^bb0(%x: f32):\n    iree_linalg_ext.yield %x : f32\n  }} -> {t}\n"
            f"  return %a : {t}\n}}\n")


def pipeline_without_key_blocks() -> str:
    spec = registry.PIPELINES[PIPELINE].spec
    stage = next(p for p in spec.split(",") if p.startswith(KEY_BLOCKS))
    return spec.replace(stage + ",", "")


def builds(shape: str, folder: Path) -> dict[str, Path]:
    """variant -> vmfb of the op at `shape` (HxTxD): `as-it-was`, `key-blocks`, `aa`."""
    heads, tokens, head_dim = (int(n) for n in shape.split("x"))
    specs = {"as-it-was": pipeline_without_key_blocks(), "key-blocks": PIPELINE}
    return spec_builds(attention_program(heads, tokens, head_dim), specs, folder, shape)


def main(argv: list[str] | None = None) -> int:
    args = shape_sweep_arguments(argv, __doc__.splitlines()[0], "8x1500x64,4x1500x128,16x1500x32,8x1024x64", 3)
    print("| heads x tokens x head dim | as it was | key blocks | key blocks / as it was | A/A |")
    print("|---|---:|---:|---:|---:|")
    rng = np.random.default_rng(0)
    for shape in args.shapes.split(","):
        heads, tokens, head_dim = (int(n) for n in shape.split("x"))
        arrays = [rng.standard_normal((tokens, heads, head_dim), dtype=np.float32) for _ in range(3)]
        med, low = timed_shape(builds, shape, arrays, args)
        print(comparison_row(shape, med, low, ("as-it-was", "key-blocks"), "key-blocks", "as-it-was", 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
