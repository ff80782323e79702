"""The transformers' matmuls in the forms IREE's llvm-cpu backend could be handed (the
`matmul-forms` set of `bench/cpu_kernel_forms.py`).

One group of functions per matmul shape of bert_mini, gpt2_mini and minilm_l6, every function of a
group computing the same values. A projection group reads one activation X [M, K] and `layers`
distinct weight arguments W_i [K, N] (as the models take them: function arguments, so any relayout
of a weight is paid on every call; distinct weights so they stream from memory as in the model) and
returns every X . W_i. Forms:
- `ours`: `linalg.batch_matmul` of X as [1, M, K] with the weight broadcast through its indexing map
  (what `dispatch-creation` writes for torch-mlir's `aten.matmul`);
- `mm`: a plain 2-D `linalg.matmul`;
- `mm_dt`: the same text built with `--iree-opt-data-tiling` (IREE's set_encoding -> mmt4d path; a
  reference only: the runtime benchmark gives every variant the same IREE flags);
- `mmt4d`: what a pass of ours could write for IREE's default flags: `linalg.pack` of X into
  [M/16, K, 16, 1] and of each W into [N/16, K, 16, 1], `linalg.mmt4d`, `linalg.unpack` (the tiles
  IREE's own data tiling picks for f32 on AVX-512);
- `mmt4d_fused`: the same, each weight's pack written into its mmt4d's dispatch region (one
  `flow.dispatch.region`: pack, mmt4d, unpack), so IREE packs each weight tile where it multiplies it;
  its N tiles set by a `compilation_info` so the packed tile fits IREE's 32 KiB stack limit (no such
  tile for K = 1536: no fused form there);
- `mmt4d_prepacked`: the same with each weight given already packed (the floor of that form if the
  weight relayout came free; not reachable with weights as arguments);
- `mm_wt_prepacked`: `linalg.matmul` reading W^T [N, K] given (transposed indexing map) (the weight-transposed layout,
  as a floor too).
An attention group multiplies two activations per head (`batch_matmul`, batch = heads) with forms
`ours`, `mm_dt` and `mmt4d` (`linalg.batch_mmt4d` between packs).
"""

from __future__ import annotations

import numpy as np

from kernel_ir import t

TILE = 16  # M0 = N0 = 16, K0 = 1: IREE's data-tiling choice for f32 on AVX-512

# group name -> (batch (0: projection), M, K, N, layers)
SHAPES = {
    "minilm_qkvo_64x384x384": (0, 64, 384, 384, 8),
    "minilm_ffn1_64x384x1536": (0, 64, 384, 1536, 4),
    "minilm_ffn2_64x1536x384": (0, 64, 1536, 384, 4),
    "bert_qkvo_64x128x128": (0, 64, 128, 128, 8),
    "bert_ffn1_64x128x512": (0, 64, 128, 512, 4),
    "bert_ffn2_64x512x128": (0, 64, 512, 128, 4),
    "gpt2_qkv_64x128x384": (0, 64, 128, 384, 4),
    "minilm_qk_12x64x32x64": (12, 64, 32, 64, 1),
    "minilm_av_12x64x64x32": (12, 64, 64, 32, 1),
    "bert_qk_2x64x64x64": (2, 64, 64, 64, 1),
}
PROJECTION_FORMS = ("ours", "mm", "mm_dt", "mmt4d", "mmt4d_fused", "mmt4d_prepacked", "mm_wt_prepacked")
ATTENTION_FORMS = ("ours", "mm_dt", "mmt4d")
# function-name suffix -> extra iree-compile flags (built as a module of their own)
FORM_FLAGS = {"__mm_dt": ["--iree-opt-data-tiling"]}


def _filled(name: str, ty: str) -> str:
    return f"  %e{name} = tensor.empty() : {ty}\n  %f{name} = linalg.fill ins(%z : f32) outs(%e{name} : {ty}) -> {ty}\n"


def _pack_lhs(x: str, shape: tuple[int, ...], out: str) -> str:
    """X [(B,) M, K] -> [(B,) M/16, K, 16, 1]."""
    *b, m, k = shape
    packed = t(*b, m // TILE, k, TILE, 1)
    lead = len(b)
    return (f"  %ep{out} = tensor.empty() : {packed}\n"
            f"  %{out} = linalg.pack {x} inner_dims_pos = [{lead}, {lead + 1}] inner_tiles = [{TILE}, 1] "
            f"into %ep{out} : {t(*shape)} -> {packed}\n")


def _pack_rhs(w: str, shape: tuple[int, ...], out: str) -> str:
    """W [(B,) K, N] -> [(B,) N/16, K, 16, 1] (transposed outer and inner)."""
    *b, k, n = shape
    packed = t(*b, n // TILE, k, TILE, 1)
    lead = len(b)
    perm = list(range(lead)) + [lead + 1, lead]
    return (f"  %ep{out} = tensor.empty() : {packed}\n"
            f"  %{out} = linalg.pack {w} outer_dims_perm = {perm} inner_dims_pos = [{lead + 1}, {lead}] "
            f"inner_tiles = [{TILE}, 1] into %ep{out} : {t(*shape)} -> {packed}\n")


STACK_LIMIT = 32768  # bytes: IREE llvm-cpu's per-workgroup stack allocation limit


def fused_n_tiles(k: int) -> int:
    """N/16 tiles per workgroup of a fused weight pack: 1 if its tile [1, K, 16, 1] fits the stack
    (and IREE's vector size limit, the same 32 KiB: more tiles fail there), else 0 (none fits)."""
    return int(TILE * k * 4 < STACK_LIMIT)


def _mmt4d(a: str, b: str, batch: int, m: int, k: int, n: int, out: str, config: str = "") -> str:
    """C = unpack(mmt4d(a, b)) into [(B,) M, N]; `config`: a compilation_info for the mmt4d."""
    bdims = (batch,) if batch else ()
    acc = t(*bdims, m // TILE, n // TILE, TILE, TILE)
    a_ty, b_ty = t(*bdims, m // TILE, k, TILE, 1), t(*bdims, n // TILE, k, TILE, 1)
    op = "linalg.batch_mmt4d" if batch else "linalg.mmt4d"
    lead = len(bdims)
    return (_filled(f"c{out}", acc)
            + f"  %c{out} = {op}{config} ins({a}, {b} : {a_ty}, {b_ty}) outs(%fc{out} : {acc}) -> {acc}\n"
            + f"  %eu{out} = tensor.empty() : {t(*bdims, m, n)}\n"
            + f"  %{out} = linalg.unpack %c{out} inner_dims_pos = [{lead}, {lead + 1}] inner_tiles = [{TILE}, {TILE}] "
            + f"into %eu{out} : {acc} -> {t(*bdims, m, n)}\n")


def weight_type(form: str, k: int, n: int) -> str:
    if form == "mmt4d_prepacked":
        return t(n // TILE, k, TILE, 1)
    if form == "mm_wt_prepacked":
        return t(n, k)
    return t(k, n)


def _projection_body(form: str, m: int, k: int, n: int, i: int) -> str:
    w, y = f"%w{i}", f"y{i}"
    if form == "ours":
        bmm = ("linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
               "affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]")
        return (_filled(y, t(1, m, n))
                + f"  %b{y} = {bmm} ins(%x3, {w} : {t(1, m, k)}, {t(k, n)}) outs(%f{y} : {t(1, m, n)}) -> {t(1, m, n)}\n"
                + f"  %{y} = tensor.collapse_shape %b{y} [[0, 1], [2]] : {t(1, m, n)} into {t(m, n)}\n")
    if form in ("mm", "mm_dt", "mm_wt_prepacked"):
        op = "linalg.matmul" + (" indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, "
                                "affine_map<(d0, d1, d2) -> (d0, d1)>]" if form == "mm_wt_prepacked" else "")
        return (_filled(y, t(m, n))
                + f"  %{y} = {op} ins(%x, {w} : {t(m, k)}, {weight_type(form, k, n)}) outs(%f{y} : {t(m, n)}) -> {t(m, n)}\n")
    if form == "mmt4d":
        return _pack_rhs(w, (k, n), f"pw{i}") + _mmt4d("%px", f"%pw{i}", 0, m, k, n, y)
    if form == "mmt4d_prepacked":
        return _mmt4d("%px", w, 0, m, k, n, y)
    if form == "mmt4d_fused":
        # IREE's own tiles would pack a weight slice bigger than the stack limit: N tiles set to fit
        config = (" {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<"
                  f"distribution = [{m // TILE}, {fused_n_tiles(k)}, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, {TILE}, {TILE}, 0], "
                  "vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<"
                  "pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>>}")
        inner = (_pack_rhs(w, (k, n), f"pw{i}") + _mmt4d("%px", f"%pw{i}", 0, m, k, n, f"r{i}", config)).replace("\n  ", "\n    ")
        return (f"  %{y} = flow.dispatch.region -> ({t(m, n)}) {{\n  {inner}"
                f"    flow.return %r{i} : {t(m, n)}\n  }}\n")
    raise ValueError(form)


def projection(group: str, form: str) -> str:
    _, m, k, n, layers = SHAPES[group]
    weights = ", ".join(f"%w{i}: {weight_type(form, k, n)}" for i in range(layers))
    results = ", ".join([t(m, n)] * layers)
    head = "  %z = arith.constant 0.0 : f32\n"
    if form == "ours":
        head += f"  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, {m}, {k}] : {t(m, k)} into {t(1, m, k)}\n"
    if form.startswith("mmt4d"):
        head += _pack_lhs("%x", (m, k), "px")
    body = "".join(_projection_body(form, m, k, n, i) for i in range(layers))
    values = ", ".join(f"%y{i}" for i in range(layers))
    return (f"func.func @{group}__{form}(%x: {t(m, k)}, {weights}) -> ({results}) {{\n{head}{body}"
            f"  return {values} : {results}\n}}")


def attention(group: str, form: str) -> str:
    b, m, k, n, _ = SHAPES[group]
    out = t(b, m, n)
    head = f"func.func @{group}__{form}(%a: {t(b, m, k)}, %c: {t(b, k, n)}) -> {out} {{\n  %z = arith.constant 0.0 : f32\n"
    if form == "mmt4d":
        body = _pack_lhs("%a", (b, m, k), "pa") + _pack_rhs("%c", (b, k, n), "pc") + _mmt4d("%pa", "%pc", b, m, k, n, "y")
    else:
        body = _filled("y", out) + f"  %y = linalg.batch_matmul ins(%a, %c : {t(b, m, k)}, {t(b, k, n)}) outs(%fy : {out}) -> {out}\n"
    return f"{head}{body}  return %y : {out}\n}}"


def matmul_forms(groups: tuple[str, ...] | None = None) -> str:
    """The set's module: every form of every group (all groups unless `groups` names some)."""
    fns = []
    for group in groups or tuple(SHAPES):
        batch = SHAPES[group][0]
        forms = ATTENTION_FORMS if batch else [f for f in PROJECTION_FORMS if f != "mmt4d_fused" or fused_n_tiles(SHAPES[group][2])]
        fns += [attention(group, f) if batch else projection(group, f) for f in forms]
    return "\n".join(fns)


def relayout(function: str, args: list[np.ndarray]) -> list[np.ndarray]:
    """Arguments of the group's `ours` form, laid out as `function` takes them (weights packed or
    transposed for the prepacked forms)."""
    if function.endswith("__mmt4d_prepacked"):
        return [args[0]] + [np.ascontiguousarray(w.reshape(w.shape[0], -1, TILE).transpose(1, 0, 2)[..., None]) for w in args[1:]]
    if function.endswith("__mm_wt_prepacked"):
        return [args[0]] + [np.ascontiguousarray(w.T) for w in args[1:]]
    return args
