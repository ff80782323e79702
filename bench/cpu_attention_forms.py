"""One `iree_linalg_ext.attention` per function, under IREE's own CPU config and under
`dispatch-attention-cpu-tiles`' (the `attention-tiles` set of `bench/cpu_kernel_forms.py`).

Per shape `<group>` = `b<heads>_m<queries>_k<keys>_d<head dim>`:
- `<group>__iree_choice`: the op at top level; IREE forms its dispatch and picks the tile;
- `<group>__pass`: the op in a `flow.dispatch.region`, so the set's pipeline (the pass alone)
  configures it;
- `<group>__m<rows>_k<keys>`: neighbouring tiles written out (query rows x keys per step, whole
  head dims), which the pass's choice was measured against.
"""

from __future__ import annotations

from kernel_ir import t

SCALE = 0.125
# (heads, queries, keys, head dim): bert_mini's layer; minilm_l6-like heads; larger sequences;
# a head dim of 128 (IREE's own tile is slowest there) and of 16
SHAPES = ((2, 64, 64, 64), (12, 64, 64, 32), (8, 128, 128, 64), (4, 128, 128, 128), (8, 64, 128, 16))
NEIGHBOURS = ((4, 16), (8, 8), (4, 8), (8, 16))
MAPS = ("[affine_map<(b, m, k2, k1, n) -> (b, m, k1)>, affine_map<(b, m, k2, k1, n) -> (b, k2, k1)>, "
        "affine_map<(b, m, k2, k1, n) -> (b, k2, n)>, affine_map<(b, m, k2, k1, n) -> ()>, "
        "affine_map<(b, m, k2, k1, n) -> (b, m, n)>]")


def group_name(heads: int, queries: int, keys: int, dim: int) -> str:
    return f"b{heads}_m{queries}_k{keys}_d{dim}"


def tile_attr(rows: int, keys: int, queries: int, dim: int) -> str:
    config = (f"distribution = [1, {min(queries, 64)}, 0, 0, {dim}], vector_common_parallel = [1, {rows}, 0, 0, {dim}], "
              f"vector_reduction = [0, 0, {keys}, 0, 0]")
    return (" {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<"
            f"{config}>, translation_info = #iree_codegen.translation_info<pipeline = "
            "#iree_cpu.pipeline<LinalgExtTileAndVectorize>>>}")


def attention_function(name: str, heads: int, queries: int, keys: int, dim: int, attr: str = "",
                       in_region: bool = False) -> str:
    q, k, out = t(heads, queries, dim), t(heads, keys, dim), t(heads, queries, dim)
    op = f"""%e = tensor.empty() : {out}
    %r = iree_linalg_ext.attention <indexing_maps = {MAPS}>{attr} ins(%q, %k, %v, %s : {q}, {k}, {k}, f32) outs(%e : {out}) {{
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    }} -> {out}"""
    if in_region:
        op = f"""%w = flow.dispatch.region -> ({out}) {{
    {op}
    flow.return %r : {out}
  }}"""
    result = "%w" if in_region else "%r"
    return f"""func.func @{name}(%q: {q}, %k: {k}, %v: {k}) -> {out} {{
  %s = arith.constant {SCALE} : f32
  {op}
  return {result} : {out}
}}"""


def attention_tiles(shapes=SHAPES) -> str:
    fns = []
    for heads, queries, keys, dim in shapes:
        group = group_name(heads, queries, keys, dim)
        fns.append(attention_function(f"{group}__iree_choice", heads, queries, keys, dim))
        fns.append(attention_function(f"{group}__pass", heads, queries, keys, dim, in_region=True))
        for rows, step in NEIGHBOURS:
            if rows * step * dim <= 4096 and queries % rows == 0 and keys % step == 0:
                fns.append(attention_function(f"{group}__m{rows}_k{step}", heads, queries, keys, dim,
                                              tile_attr(rows, step, queries, dim)))
    return "module {\n" + "\n".join(fns) + "\n}"
