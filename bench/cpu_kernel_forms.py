"""Kernel forms that could move the transformers' CPU time, each timed against the form we emit.

    python bench/cpu_kernel_forms.py [--sets kt-projection,kt-in-region,softmax-argmax,matmul-tiles,attention-tiles]
                                     [--rounds 11] [--iterations 100]

Every set is one module of functions that compute the same values (`test/unit/test_cpu_kernel_forms.py`
runs them and compares), compiled for llvm-cpu (`--iree-llvmcpu-target-cpu=host`) and timed with
`iree-benchmark-module --device=local-sync`, interleaved round by round (seeded shuffle); the first
form is ours, `<first>_aa` a second call of it: its ratio is the noise. Sets:
- `kt-projection` (through `dispatch-creation`): bert's K projection [64,128]x[128,128] + bias and
  the scores `Q . K^T * 0.125`. `proj_nt` is ours (K row-major, the scores read it "NT");
  `proj_kt` computes K^T as the projection itself, out[n, s] = sum_c X[s, c] W[c, n] (the output
  map transposed, no copy), so the scores read K^T "NN".
- `kt-in-region` (flow regions as written): the scores `Q . K^T * 0.125 + mask` read K "NT"
  (`qk_nt`, ours), or K^T made by a transpose inside the same region (`qk_fused_kt`), or K^T given
  (`qk_nn_given_kt`: the floor a free K^T would reach).
- `softmax-argmax` (through `dispatch-creation`): torch-mlir's softmax max carries an argmax
  result nobody reads; `with_argmax` (ours) vs `no_argmax`, max and exp over 12x64x64.
- `position-gather` (through `dispatch-creation` less `linalg-fold-constant-gather-indices`):
  bert_mini's embedding (word rows at the input ids + position rows at constant ids 0..63 +
  token-type row 0) as torch-mlir writes it (`gather_asserts`: ids wrapped and bounds-checked per
  element) and as that pass writes it (`gather_loop_index`: the position row is `linalg.index`).
- `matmul-forms`: every matmul shape of bert_mini, gpt2_mini and minilm_l6 as we emit it, as a 2-D
  matmul, as pack + mmt4d + unpack, with prepacked weights, and with IREE's data tiling
  (`cpu_matmul_forms.py` says which); ratios per shape group (`<group>__<form>`), `--groups`
  picks groups; each group has its own A/A.
- `matmul-tiles`: 16 chained [64,384]x[384,384] matmuls with 16 different weights (minilm_l6's
  projections, weights streamed from memory as in the model), IREE's own tile choice vs
  `compilation_info` tile sizes (`d64x64_v4x64` is `dispatch-matmul-cpu-tiles`' default).
- `producer-reduction-consumer` (flow regions as written): IREE's avoid_illegal_consumer_fusion
  shape, y = x + x; s = rowsum(y); z = y - s[row] over [1024, 2048]: one region (`one_region`,
  ours with aggressive fusion), IREE's aggressive grouping {y, s} + {z} (`iree_y_s_then_z`), and
  ours without aggressive fusion {y} + {s, z} (`ours_y_then_s_z`).
- `attention-tiles`: one `iree_linalg_ext.attention` per shape group under IREE's own config,
  `dispatch-attention-cpu-tiles`' and neighbouring tiles (`cpu_attention_forms.py`).
Prints median (min) us per call and the ratio to the first form.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fusionopt.iree_tools import benchmark_vmfb, compile_vmfb, save_inputs, target_flags  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cpu_attention_forms  # noqa: E402
import cpu_matmul_forms  # noqa: E402
import cpu_region_forms  # noqa: E402
from kernel_ir import amap, t  # noqa: E402

ROW = '["parallel", "parallel", "reduction"]'
BATCHED = '["parallel", "parallel", "parallel", "reduction"]'
MAC = """^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32"""


def _scaled_scores(k: str, k_type: str, k_map: str, mask: bool = False) -> str:
    """%r2 = (Q . K) * 0.125 (+ mask[t]) from %q [64,2,64] and `k` read through `k_map`."""
    out = t(2, 64, 64)
    mask_in = (", %mask", ", tensor<64xf32>", ", " + amap(3, "(d2)")) if mask else ("", "", "")
    mask_add = "%sy = arith.addf %sx, %mk : f32" if mask else "%sy = arith.addf %sx, %z : f32"
    mask_arg = "%mk: f32, " if mask else ""
    return f"""  %e = tensor.empty() : {out}
  %f = linalg.fill ins(%z : f32) outs(%e : {out}) -> {out}
  %r = linalg.generic {{indexing_maps = [{amap(4, '(d1, d0, d3)')}, {amap(4, k_map)}, {amap(4, '(d0, d1, d2)')}], iterator_types = {BATCHED}}} ins(%q, {k} : {t(64, 2, 64)}, {k_type}) outs(%f : {out}) {{
  {MAC}
  }} -> {out}
  %r2 = linalg.generic {{indexing_maps = [{amap(3, '(d0, d1, d2)')}{mask_in[2]}, {amap(3, '(d0, d1, d2)')}], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%r{mask_in[0]} : {out}{mask_in[1]}) outs(%e : {out}) {{
  ^bb0(%a: f32, {mask_arg}%o: f32):
    %c = arith.constant 1.250000e-01 : f32
    %sx = arith.mulf %a, %c : f32
    {mask_add}
    linalg.yield %sy : f32
  }} -> {out}"""


def _bias(value: str, shape: tuple[int, int], bias_dim: str) -> str:
    ty = t(*shape)
    return f"""  %eb = tensor.empty() : {ty}
  %kb = linalg.generic {{indexing_maps = [{amap(2, '(d0, d1)')}, {amap(2, bias_dim)}, {amap(2, '(d0, d1)')}], iterator_types = ["parallel", "parallel"]}} ins({value}, %bias : {ty}, {t(128)}) outs(%eb : {ty}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> {ty}"""


def kt_projection() -> str:
    sig = f"(%x: {t(64, 128)}, %w: {t(128, 128)}, %bias: {t(128)}, %q: {t(64, 2, 64)}) -> {t(2, 64, 64)}"
    nt = f"""func.func @proj_nt{sig} {{
  %z = arith.constant 0.0 : f32
  %ek = tensor.empty() : {t(64, 128)}
  %fk = linalg.fill ins(%z : f32) outs(%ek : {t(64, 128)}) -> {t(64, 128)}
  %k0 = linalg.matmul ins(%x, %w : {t(64, 128)}, {t(128, 128)}) outs(%fk : {t(64, 128)}) -> {t(64, 128)}
{_bias('%k0', (64, 128), '(d1)')}
  %k = tensor.expand_shape %kb [[0], [1, 2]] output_shape [64, 2, 64] : {t(64, 128)} into {t(64, 2, 64)}
{_scaled_scores('%k', t(64, 2, 64), '(d2, d0, d3)')}
  return %r2 : {t(2, 64, 64)}
}}"""
    kt = f"""func.func @proj_kt{sig} {{
  %z = arith.constant 0.0 : f32
  %ek = tensor.empty() : {t(128, 64)}
  %fk = linalg.fill ins(%z : f32) outs(%ek : {t(128, 64)}) -> {t(128, 64)}
  %k0 = linalg.generic {{indexing_maps = [{amap(3, '(d1, d2)')}, {amap(3, '(d2, d0)')}, {amap(3, '(d0, d1)')}], iterator_types = {ROW}}} ins(%x, %w : {t(64, 128)}, {t(128, 128)}) outs(%fk : {t(128, 64)}) {{
  {MAC}
  }} -> {t(128, 64)}
{_bias('%k0', (128, 64), '(d0)')}
  %k = tensor.expand_shape %kb [[0, 1], [2]] output_shape [2, 64, 64] : {t(128, 64)} into {t(2, 64, 64)}
{_scaled_scores('%k', t(2, 64, 64), '(d0, d3, d2)')}
  return %r2 : {t(2, 64, 64)}
}}"""
    return nt + "\n" + kt


def kt_in_region() -> str:
    def fn(name: str, k_type: str, body: str) -> str:
        out = t(2, 64, 64)
        return f"""func.func @{name}(%q: {t(64, 2, 64)}, %k: {k_type}, %mask: {t(64)}) -> {out} {{
  %res = flow.dispatch.region -> ({out}) {{
  %z = arith.constant 0.0 : f32
{body}
  flow.return %r2 : {out}
  }}
  func.return %res : {out}
}}"""

    transpose = f"""  %et = tensor.empty() : {t(2, 64, 64)}
  %kt = linalg.generic {{indexing_maps = [{amap(3, '(d2, d0, d1)')}, {amap(3, '(d0, d1, d2)')}], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%k : {t(64, 2, 64)}) outs(%et : {t(2, 64, 64)}) {{
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }} -> {t(2, 64, 64)}
"""
    return "\n".join([
        fn("qk_nt", t(64, 2, 64), _scaled_scores("%k", t(64, 2, 64), "(d2, d0, d3)", mask=True)),
        fn("qk_fused_kt", t(64, 2, 64), transpose + _scaled_scores("%kt", t(2, 64, 64), "(d0, d3, d2)", mask=True)),
        fn("qk_nn_given_kt", t(2, 64, 64), _scaled_scores("%k", t(2, 64, 64), "(d0, d3, d2)", mask=True)),
    ])


def softmax_argmax() -> str:
    x, row, idx = t(1, 12, 64, 64), t(1, 12, 64), t(1, 12, 64, elt="i64")

    def fn(name: str, argmax: bool) -> str:
        rows = amap(4, "(d0, d1, d2)")
        outs = f"%fm, %fi : {row}, {idx}" if argmax else f"%fm : {row}"
        args = "^bb0(%in: f32, %o: f32, %oi: i64):" if argmax else "^bb0(%in: f32, %o: f32):"
        track = """%i = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %gt = arith.cmpf ogt, %in, %o : f32
    %sel = arith.select %gt, %ii, %oi : i64
    linalg.yield %mx, %sel : f32, i64""" if argmax else "linalg.yield %mx : f32"
        return f"""func.func @{name}(%x: {x}) -> {x} {{
  %lo = arith.constant -3.40282347e+38 : f32
  %z = arith.constant 0 : i64
  %em = tensor.empty() : {row}
  %fm = linalg.fill ins(%lo : f32) outs(%em : {row}) -> {row}
  %ei = tensor.empty() : {idx}
  %fi = linalg.fill ins(%z : i64) outs(%ei : {idx}) -> {idx}
  {'%m, %mi' if argmax else '%m'} = linalg.generic {{indexing_maps = [{amap(4, '(d0, d1, d2, d3)')}, {rows}{', ' + rows if argmax else ''}], iterator_types = {BATCHED}}} ins(%x : {x}) outs({outs}) {{
  {args}
    %mx = arith.maximumf %in, %o : f32
    {track}
  }} -> {f'({row}, {idx})' if argmax else row}
  %e = tensor.empty() : {x}
  %p = linalg.generic {{indexing_maps = [{amap(4, '(d0, d1, d2, d3)')}, {rows}, {amap(4, '(d0, d1, d2, d3)')}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%x, %m : {x}, {row}) outs(%e : {x}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    %y = math.exp %s : f32
    linalg.yield %y : f32
  }} -> {x}
  return %p : {x}
}}"""

    return fn("with_argmax", True) + "\n" + fn("no_argmax", False)


def position_gather() -> str:
    out, ids = t(1, 64, 128), t(1, 64, elt="i64")
    words, positions, types = t(1024, 128), t(512, 128), t(2, 128)
    checked = """    %pneg = arith.cmpi slt, %p, %c0 : i64
    %pwrap = arith.addi %p, %c512 : i64
    %pw = arith.select %pneg, %pwrap, %p : i64
    %row = arith.index_cast %pw : i64 to index
    %below = arith.cmpi slt, %row, %c512i : index
    cf.assert %below, "index must be smaller than dim size"
    %above = arith.cmpi sge, %pw, %c0 : i64
    cf.assert %above, "index must be larger or equal to 0"
"""

    def fn(name: str, position_row: str) -> str:
        return f"""func.func @{name}(%ids: {ids}, %words: {words}, %positions: {positions}, %types: {types}) -> {out} {{
  %pos = arith.constant dense<[{list(range(64))}]> : {ids}
  %c0 = arith.constant 0 : i64
  %c1024 = arith.constant 1024 : i64
  %c512 = arith.constant 512 : i64
  %c512i = arith.constant 512 : index
  %t0 = arith.constant 0 : index
  %e = tensor.empty() : {out}
  %r = linalg.generic {{indexing_maps = [{amap(3, '(0, d1)')}, {amap(3, '(0, d1)')}, {amap(3, '(d0, d1, d2)')}], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%ids, %pos : {ids}, {ids}) outs(%e : {out}) {{
  ^bb0(%id: i64, %p: i64, %o: f32):
    %neg = arith.cmpi slt, %id, %c0 : i64
    %wrap = arith.addi %id, %c1024 : i64
    %w = arith.select %neg, %wrap, %id : i64
    %wi = arith.index_cast %w : i64 to index
    %col = linalg.index 2 : index
    %word = tensor.extract %words[%wi, %col] : {words}
{position_row.rstrip()}
    %type = tensor.extract %types[%t0, %col] : {types}
    %s = arith.addf %word, %type : f32
    %position = tensor.extract %positions[%row, %col] : {positions}
    %y = arith.addf %s, %position : f32
    linalg.yield %y : f32
  }} -> {out}
  return %r : {out}
}}"""

    return fn("gather_asserts", checked) + "\n" + fn("gather_loop_index", "    %row = linalg.index 1 : index")


# name -> IREE CPU lowering config (None: IREE's choice, distribution [32, 64, 0], vector [8, 16, 0]).
TILE_CONFIGS = {
    "iree_choice": None,
    "d64x64": "distribution = [64, 64, 0], vector_common_parallel = [8, 16, 0], vector_reduction = [0, 0, 16]",
    "d64x128_v8x32": "distribution = [64, 128, 0], vector_common_parallel = [8, 32, 0], vector_reduction = [0, 0, 1]",
    "d64x64_v16x16": "distribution = [64, 64, 0], vector_common_parallel = [16, 16, 0], vector_reduction = [0, 0, 1]",
    # dispatch-matmul-cpu-tiles' default: 4 rows x 4 AVX-512 vectors, IREE's reduction step
    "d64x64_v4x64": "distribution = [64, 64, 0], vector_common_parallel = [4, 64, 0], vector_reduction = [0, 0, 16]",
    "d64x64_v2x64": "distribution = [64, 64, 0], vector_common_parallel = [2, 64, 0], vector_reduction = [0, 0, 16]",
    "d64x64_v4x16": "distribution = [64, 64, 0], vector_common_parallel = [4, 16, 0], vector_reduction = [0, 0, 16]",
}


def matmul_tiles(layers: int = 16, m: int = 64, k: int = 384) -> str:
    fns = []
    for name, config in TILE_CONFIGS.items():
        attr = "" if config is None else (
            " {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<"
            f"{config}>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>}}")
        weights = ", ".join(f"%w{i}: {t(k, k)}" for i in range(layers))
        lines, prev = [], "%x"
        for i in range(layers):
            lines.append(f"  %m{i} = linalg.matmul{attr} ins({prev}, %w{i} : {t(m, k)}, {t(k, k)}) outs(%f : {t(m, k)}) -> {t(m, k)}")
            prev = f"%m{i}"
        fns.append(f"""func.func @{name}(%x: {t(m, k)}, {weights}) -> {t(m, k)} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {t(m, k)}
  %f = linalg.fill ins(%z : f32) outs(%e : {t(m, k)}) -> {t(m, k)}
{chr(10).join(lines)}
  return {prev} : {t(m, k)}
}}""")
    return "\n".join(fns)


# set -> (module text maker, pipeline run first or None)
SETS = {
    "kt-projection": (kt_projection, "dispatch-creation"),
    "kt-in-region": (lambda: "module {\n" + kt_in_region() + "\n}", None),
    "softmax-argmax": (softmax_argmax, "dispatch-creation"),
    "position-gather": (position_gather, "WITHOUT_GATHER_FOLD"),
    "matmul-tiles": (matmul_tiles, None),
    "producer-reduction-consumer": (lambda: "module {\n" + cpu_region_forms.producer_reduction_consumer() + "\n}", None),
    "matmul-forms": (cpu_matmul_forms.matmul_forms, None),
    "attention-tiles": (cpu_attention_forms.attention_tiles, "dispatch-attention-cpu-tiles"),
}


def pipeline_spec(name: str | None) -> str | None:
    """The pass pipeline a set names (dispatch-creation less the gather fold for its own set)."""
    if name != "WITHOUT_GATHER_FOLD":
        return name
    from fusionopt.registry import PIPELINES

    return ",".join(p for p in PIPELINES["dispatch-creation"].spec.split(",") if p != "linalg-fold-constant-gather-indices")


Args = list[tuple[list[int], str]]


def functions(text: str) -> list[tuple[str, Args]]:
    """(name, [(shape, element type)] of its arguments) of every function of `text`, in order."""
    sigs = re.findall(r"func\.func @(\w+)\(([^)]*)\)", text)
    return [(name, [(list(map(int, s.split("x"))), elt) for s, elt in re.findall(r"tensor<([\dx]+)x(f32|i64)>", args)])
            for name, args in sigs]


def arguments(args: Args, rng: np.random.Generator) -> list[np.ndarray]:
    """Normal f32 values; i64 ids in [0, 64) (valid rows of every table here)."""
    return [rng.standard_normal(s, dtype=np.float32) if elt == "f32" else rng.integers(0, 64, s, dtype=np.int64)
            for s, elt in args]


def compile_forms(text: str, pipeline: str | None, work: Path, stem: str, extra_flags: list[str] | None = None) -> Path:
    """Compile a module of forms for llvm-cpu (through `pipeline` of ours first if given)."""
    source = work / f"{stem}.mlir"
    source.write_text(text)
    if pipeline is not None:
        formed = work / f"{stem}.formed.mlir"
        subprocess.run(["fusion-opt", str(source), "-p", pipeline_spec(pipeline), "-o", str(formed)],
                       check=True, capture_output=True, text=True)
        source = formed
    return compile_vmfb(source, work / f"{stem}.vmfb", target_flags("llvm-cpu") + (extra_flags or []))


def flagged(fn: str) -> list[str]:
    """Extra iree-compile flags of a form (matmul-forms' IREE data-tiling reference), else []."""
    return next((f for suffix, f in cpu_matmul_forms.FORM_FLAGS.items() if fn.endswith(suffix)), [])


def build(name: str, work: Path, groups: str | None = None) -> tuple[dict[str, Path], list[tuple[str, Args]]]:
    """Set `name`'s module compiled (a second build with the extra flags of the forms that have
    them), with the vmfb of each function and its functions' names and argument types."""
    make, ours = SETS[name]
    text = make(tuple(groups.split(","))) if groups and name == "matmul-forms" else make()
    fns = functions(text)
    plain = compile_forms(text, ours, work, name)
    vmfbs = {fn: plain for fn, _ in fns}
    for flags in {tuple(flagged(fn)) for fn, _ in fns} - {()}:
        extra = compile_forms(text, ours, work, f"{name}.{len(flags)}", list(flags))
        vmfbs.update({fn: extra for fn, _ in fns if tuple(flagged(fn)) == flags})
    return vmfbs, fns


def baselines(fns: list[tuple[str, Args]]) -> list[str]:
    """The forms that get an A/A copy: the first form of the set, or of each `<group>__` group."""
    firsts: dict[str, str] = {}
    for fn, _ in fns:
        firsts.setdefault(fn.split("__")[0] if "__" in fn else "", fn)
    return list(firsts.values())


def time_set(name: str, work: Path, rounds: int, iterations: int, groups: str | None = None) -> dict[str, list[float]]:
    vmfbs, fns = build(name, work, groups)
    rng = np.random.default_rng(0)
    inputs: dict[str, tuple[list[Path], list[np.ndarray]]] = {}
    for fn, args in fns:
        # a group's forms get its first form's values, laid out as each form takes them
        first = next((f for f in baselines(fns) if "__" in fn and f.startswith(fn.split("__")[0] + "__")), fn)
        values = arguments(args, rng) if first == fn else cpu_matmul_forms.relayout(fn, inputs[first][1])
        inputs[fn] = (save_inputs(values, work / f"{name}.{fn}"), values)
    order_names = [fn for fn, _ in fns] + [fn + "_aa" for fn in baselines(fns)]
    runs = list(order_names)
    times: dict[str, list[float]] = {r: [] for r in runs}
    order = random.Random(0)
    for _ in range(rounds):
        order.shuffle(runs)
        for run in runs:
            fn = run.removesuffix("_aa")
            ms = benchmark_vmfb(vmfbs[fn], inputs[fn][0], fn, iterations, device="local-sync").ms_per_call
            times[run].append(1000 * ms)
    return {r: times[r] for r in order_names}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sets", default=",".join(SETS))
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--groups", default=None, help="matmul-forms: comma-separated shape groups (default: all)")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="cpu_kernel_forms_"))
    for name in args.sets.split(","):
        times = time_set(name, work, args.rounds, args.iterations, args.groups)
        print(f"\n{name}: us per call, median (min) of {args.rounds} interleaved rounds")
        print("| form | median us | min us | / first form median (min) |\n|---|---:|---:|---:|")
        for run, ts in times.items():
            group = run.split("__")[0] if "__" in run else ""
            first = next(r for r in times if (r.split("__")[0] if "__" in r else "") == group)
            ratio = f"{statistics.median(ts) / statistics.median(times[first]):.2f}x ({min(ts) / min(times[first]):.2f}x)"
            print(f"| {run} | {statistics.median(ts):.2f} | {min(ts):.2f} | {ratio} |")


if __name__ == "__main__":
    main()
