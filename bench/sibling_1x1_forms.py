"""Sibling 1x1 convs over one input with argument weights: IREE's dispatches vs one dispatch.

    python bench/sibling_1x1_forms.py [--rounds 21] [--iterations 2000]

An Inception block starts with 1x1 convs over its input: the 1x1 branch (its result read as is
here) and the reductions in front of the 3x3 and 5x5 convs (results padded by 1 and 2 for them).
Each has a bias + ReLU epilogue. Forms, all compiled for llvm-cpu (`--iree-llvmcpu-target-cpu=
host`) and timed with `iree-benchmark-module --device=local-sync`, interleaved round by round
(seeded shuffle), `iree_aa` a second load of the first form (the noise):
- `iree`: the linalg input as given, IREE's own formation (a dispatch per conv, each writing its
  pad into a splat);
- `ours`: `linalg-horizontal-fuse-1x1-convs,form-dispatch-regions` (what the fewest pipeline does
  with them): the convs of one filter count one rank-3 multi-result contraction whose dispatch
  stores each result, padded or not; a conv of another count stays IREE's;
- `one_rank3_padded_filters`: all convs in one dispatch, the smaller weights and biases padded
  with zero filters to the largest count at run time (`flow.tensor.update` into a splat, no
  dispatch), the loops IREE's (f, h, w, c);
- `one_flat_padded_filters`: the same over flat pixels (f, h*w, c), each result expanded to the
  image before its padded store (`linalg-conv-1x1-to-matmul`'s layout).
The one-dispatch forms return the padded filters' buffers whole (their extra channels are zero);
the agreement check compares the channels the model reads. Shapes: inception_mini's two blocks.
Prints median (min) us per call and the ratio to `iree`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fusionopt.iree_tools import compile_vmfb, run_vmfb, save_inputs, target_flags  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iree_runtime import timed_rounds  # noqa: E402
from kernel_ir import amap, t  # noqa: E402

FUNCTION = "main_graph"
OURS = "linalg-horizontal-fuse-1x1-convs,form-dispatch-regions,cse,canonicalize"
PAR = '"parallel"'


@dataclass(frozen=True)
class Block:
    name: str
    channels: int
    pixels: int  # image height = width
    filters: tuple[int, ...]
    pads: tuple[int, ...]  # 0: the result read as is

    def image(self, f: int, pad: int = 0) -> str:
        return t(1, f, self.pixels + 2 * pad, self.pixels + 2 * pad)


BLOCKS = (Block("inception_block1", 32, 16, (16, 16, 8), (0, 1, 2)),
          Block("inception_block2", 56, 8, (24, 24, 8), (0, 1, 2)))


def signature(block: Block, filters: tuple[int, ...]) -> str:
    args = [f"%x: {block.image(block.channels)}"]
    args += [f"%w{i}: {t(f, block.channels, 1, 1)}" for i, f in enumerate(block.filters)]
    args += [f"%b{i}: {t(f)}" for i, f in enumerate(block.filters)]
    results = [block.image(f, p) for f, p in zip(filters, block.pads, strict=True)]
    return f"func.func @{FUNCTION}({', '.join(args)}) -> ({', '.join(results)})"


def bias_relu(name: str, value: str, bias: str, rank: int, shape: str, bias_type: str, empty: str) -> str:
    full = amap(rank, "(" + ", ".join(f"d{i}" for i in range(rank)) + ")")
    channel = amap(rank, "(d1)" if rank == 4 else "(d0)")
    return f"""  %{name} = linalg.generic {{indexing_maps = [{full}, {channel}, {full}], iterator_types = [{", ".join([PAR] * rank)}]}} ins({value}, {bias} : {shape}, {bias_type}) outs({empty} : {shape}) {{
  ^bb0(%in: f32, %c: f32, %o: f32):
    %s = arith.addf %in, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }} -> {shape}
"""


def pad(name: str, value: str, amount: int, source: str, result: str) -> str:
    return f"""  %{name} = tensor.pad {value} low[0, 0, {amount}, {amount}] high[0, 0, {amount}, {amount}] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  }} : {source} to {result}
"""


def linalg_input(block: Block) -> str:
    """The convs, their epilogues and pads as torch-mlir writes them."""
    body, results = "  %zero = arith.constant 0.0 : f32\n", []
    for i, (f, p) in enumerate(zip(block.filters, block.pads, strict=True)):
        image = block.image(f)
        body += f"  %e{i} = tensor.empty() : {image}\n"
        body += f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {image}) -> {image}\n"
        body += (f"  %c{i} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : "
                 f"vector<2xi64>}} ins(%x, %w{i} : {block.image(block.channels)}, {t(f, block.channels, 1, 1)}) "
                 f"outs(%f{i} : {image}) -> {image}\n")
        body += bias_relu(f"r{i}", f"%c{i}", f"%b{i}", 4, image, t(f), f"%e{i}")
        if p:
            body += pad(f"p{i}", f"%r{i}", p, image, block.image(f, p))
        results.append(f"%p{i}" if p else f"%r{i}")
    types = ", ".join(block.image(f, p) for f, p in zip(block.filters, block.pads, strict=True))
    return f"{signature(block, block.filters)} {{\n{body}  return {', '.join(results)} : {types}\n}}\n"


def one_dispatch(block: Block, flat: bool) -> str:
    """Every conv in one region, weights and biases padded to the largest filter count."""
    top = max(block.filters)
    hw, c = block.pixels, block.channels
    filters = tuple(top if p else f for f, p in zip(block.filters, block.pads, strict=True))
    space = [hw * hw] if flat else [hw, hw]
    x_type, result = t(c, *space), t(top, *space)
    lines = ["  %zero = arith.constant 0.0 : f32", "  %c0 = arith.constant 0 : index",
             f"  %xr = flow.tensor.reshape %x : {block.image(c)} -> {x_type}"]
    for i, f in enumerate(block.filters):
        lines.append(f"  %wr{i} = flow.tensor.reshape %w{i} : {t(f, c, 1, 1)} -> {t(f, c)}")
        if f < top:
            lines += [f"  %wz{i} = flow.tensor.splat %zero : {t(top, c)}",
                      f"  %wr{i}p = flow.tensor.update %wr{i}, %wz{i}[%c0, %c0] : {t(f, c)} -> %wz{i} as {t(top, c)}",
                      f"  %bz{i} = flow.tensor.splat %zero : {t(top)}",
                      f"  %b{i}p = flow.tensor.update %b{i}, %bz{i}[%c0] : {t(f)} -> %bz{i} as {t(top)}"]
    weights = [f"%wr{i}p" if f < top else f"%wr{i}" for i, f in enumerate(block.filters)]
    biases = [f"%b{i}p" if f < top else f"%b{i}" for i, f in enumerate(block.filters)]
    outs = [block.image(f, p) for f, p in zip(filters, block.pads, strict=True)]
    lines += [f"  %o{i} = flow.tensor.splat %zero : {outs[i]}" for i, p in enumerate(block.pads) if p]
    k = len(block.filters)
    loops = len(space) + 2
    d = [f"d{i}" for i in range(loops)]
    x_map = amap(loops, f"({d[-1]}, {', '.join(d[1:-1])})")
    w_map = amap(loops, f"(d0, {d[-1]})")
    o_map = amap(loops, f"({', '.join(d[:-1])})")
    region = [f"  %r:{k} = flow.dispatch.region -> ({', '.join(outs)}) {{",
              f"    %me = tensor.empty() : {result}",
              f"    %mf = linalg.fill ins(%zero : f32) outs(%me : {result}) -> {result}"]
    args = ", ".join(f"%a{i}: f32" for i in range(1 + 2 * k))
    body = [f"      %p{i} = arith.mulf %a0, %a{1 + i} : f32\n      %s{i} = arith.addf %a{1 + k + i}, %p{i} : f32" for i in range(k)]
    region += [f"    %mm:{k} = linalg.generic {{indexing_maps = [{x_map}, {', '.join([w_map] * k)}, {', '.join([o_map] * k)}], "
               f"iterator_types = [{', '.join([PAR] * (loops - 1))}, \"reduction\"]}} ins(%xr, {', '.join(weights)} : "
               f"{x_type}, {', '.join([t(top, c)] * k)}) outs({', '.join(['%mf'] * k)} : {', '.join([result] * k)}) {{",
               f"    ^bb0({args}):", *body, f"      linalg.yield {', '.join(f'%s{i}' for i in range(k))} : {', '.join(['f32'] * k)}",
               f"    }} -> ({', '.join([result] * k)})"]
    returned = []
    groups = "[[0, 1], [2, 3]]" if flat else "[[0, 1], [2], [3]]"
    for i, p in enumerate(block.pads):
        region.append("  " + bias_relu(f"e{i}", f"%mm#{i}", biases[i], loops - 1, result, t(top), "%me").rstrip("\n").replace("\n", "\n  "))
        region.append(f"    %x{i} = tensor.expand_shape %e{i} {groups} output_shape [1, {top}, {hw}, {hw}] : {result} into {block.image(top)}")
        if p:
            region.append(f"    %i{i} = tensor.insert_slice %x{i} into %o{i}[0, 0, {p}, {p}] [1, {top}, {hw}, {hw}] [1, 1, 1, 1] : "
                          f"{block.image(top)} into {outs[i]}")
        returned.append(f"%i{i}" if p else f"%x{i}")
    region += [f"    flow.return {', '.join(returned)} : {', '.join(outs)}", "  }"]
    lines += region
    lines.append(f"  return {', '.join(f'%r#{i}' for i in range(k))} : {', '.join(outs)}")
    return f"{signature(block, filters)} {{\n" + "\n".join(lines) + "\n}\n"


def forms(block: Block) -> dict[str, tuple[str, str | None]]:
    """form -> (module text, pipeline of ours to run first or None)."""
    source = linalg_input(block)
    return {"iree": (source, None), "ours": (source, OURS),
            "one_rank3_padded_filters": (one_dispatch(block, flat=False), None),
            "one_flat_padded_filters": (one_dispatch(block, flat=True), None)}


def build(block: Block, work: Path) -> dict[str, Path]:
    vmfbs = {}
    for name, (text, pipeline) in forms(block).items():
        source = work / f"{block.name}.{name}.mlir"
        source.write_text(text)
        if pipeline is not None:
            formed = work / f"{block.name}.{name}.formed.mlir"
            subprocess.run(["fusion-opt", str(source), "-p", pipeline, "-o", str(formed)],
                           check=True, capture_output=True, text=True)
            source = formed
        vmfbs[name] = compile_vmfb(source, work / f"{block.name}.{name}.vmfb", target_flags("llvm-cpu"))
    return vmfbs


def block_inputs(block: Block, rng: np.random.Generator) -> list[np.ndarray]:
    shapes = [(1, block.channels, block.pixels, block.pixels)]
    shapes += [(f, block.channels, 1, 1) for f in block.filters] + [(f,) for f in block.filters]
    return [rng.standard_normal(s, dtype=np.float32) for s in shapes]


def check_agreement(block: Block, vmfbs: dict[str, Path], inputs: list[np.ndarray]) -> None:
    """Every form's outputs equal `iree`'s on the channels the model reads (to float32 rounding)."""
    want = run_vmfb(vmfbs["iree"], inputs, FUNCTION)
    for name, vmfb in vmfbs.items():
        got = run_vmfb(vmfb, inputs, FUNCTION)
        for index, (g, w) in enumerate(zip(got, want, strict=True)):
            np.testing.assert_allclose(g[:, :w.shape[1]], w, rtol=1e-5, atol=1e-5, err_msg=f"{block.name} {name} #{index}")
            assert not g[:, w.shape[1]:].any(), f"{block.name} {name} #{index}: padded filters are not zero"


def time_block(block: Block, work: Path, rounds: int, iterations: int) -> dict[str, list[float]]:
    vmfbs = build(block, work)
    inputs = block_inputs(block, np.random.default_rng(0))
    check_agreement(block, vmfbs, inputs)
    files = save_inputs(inputs, work / f"{block.name}.inputs")
    runs = {**vmfbs, "iree_aa": vmfbs["iree"]}
    return {name: [1000 * ms for ms in times] for name, times in timed_rounds(runs, files, rounds, iterations).items()}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=21)
    p.add_argument("--iterations", type=int, default=2000)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="sibling_1x1_forms_"))
    for block in BLOCKS:
        times = time_block(block, work, args.rounds, args.iterations)
        base, low = statistics.median(times["iree"]), min(times["iree"])
        print(f"\n{block.name} (C={block.channels}, {block.pixels}x{block.pixels}, filters {block.filters}, "
              f"pads {block.pads}): us per call, median (min) of {args.rounds} interleaved rounds")
        print("| form | median us | min us | / iree median (min) |\n|---|---:|---:|---:|")
        for name, ts in times.items():
            print(f"| {name} | {statistics.median(ts):.2f} | {min(ts):.2f} | "
                  f"{statistics.median(ts) / base:.2f}x ({min(ts) / low:.2f}x) |")


if __name__ == "__main__":
    main()
