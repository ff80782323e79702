"""IREE 3.13's limits that region formation works around, as minimal modules: which ones build and
which compute the right numbers.

    python bench/iree_limits.py

Each case is one `flow.dispatch.region` in a form a fusionopt pass would like to emit, compiled for
llvm-cpu (`--iree-llvmcpu-target-cpu=host`). The script prints whether it builds and IREE's first
error line; a run case is also run with the wheel's `iree-run-module` on an all-ones image, on
`local-sync` and `local-task`, and its output compared with the known answer. These are
reproducers to report upstream. `test/unit/test_iree_limits.py` pins the
outcomes, so that an IREE upgrade that lifts a limit shows up as a failing test (then the pass
that avoids it can stop avoiding it).

Cases:
- `pool_stored_plain_and_padded` fails. A max pool's region stores its result as is and into
  the interior of a padded splat. It is why `form-dispatch-regions{pads-into-pools}` moves the
  pad into the *reading* pool instead.
- `siblings_padded_into_equal_splats` fails. Two results of one multi-result contraction are
  stored into padded splats of one type; IREE merges the splats, so both stores claim one
  buffer. It is why `padded_results.returns_type` keeps a second pad of a type as a copy.
- `siblings_with_4d_epilogues` fails to configure ("slice along dimension 3 runs
  out-of-bounds"). The same contraction with 4-D epilogues behind unit expand_shapes. It is why
  `linalg-horizontal-fuse-1x1-convs` moves each epilogue to the rank-3 loops.
- `siblings_with_rank3_epilogues` builds: the form that pass emits.
- `shuffle_stored_plain_and_padded` fails the same way as the pool: shufflenet's channel shuffle
  (expand, transpose) stored as is and, collapsed, into a padded splat. It is why shufflenet's
  shuffled stage inputs, read plain by a 1x1 conv and padded by a depthwise conv, keep a copy.
- `residual_through_slice_in_region` fails: a matmul's residual add reading a pool result out of
  the pool's padded buffer through an extract_slice in its region (resnet18's first block).
- `residual_through_flat_offset_map` builds: the same read through a flat offset map,
  `(c, p) -> (c, (p floordiv 16) * 18 + p mod 16 + 19)`.

Run cases: a channels-last conv region storing into a padded buffer.
- `channels_last_conv_into_padded` (NHWC result into an NHWC padded buffer) is right: the form
  `form-dispatch-regions{padded-results}` takes.
- `channels_last_conv_into_column_padded` fails to configure ("slice along dimension 3 runs
  out-of-bounds"): the same store into a buffer padded along W (or C) but not along H. IREE
  builds it when H is padded too (any filter, any W/C pads). Inception-v3's 7x1 convs feeding
  1x7 ones pad that way; it is why `padded_results.conv_store_builds` leaves such a pad as a copy.
- `channels_last_conv_transposed_into_padded` (the epilogue takes the result back to NCHW) crashes
  on `local-sync` and writes wrong values on `local-task`; at other shapes it fails to build. It is
  why `padded_results.transposes_in_region` regions leave such a pad as a copy.

Cases found on models beyond the corpus (LeViT, MobileViT, SegFormer): bench/iree_limits_found.py;
chains of reductions and an unrolled scan's growing buffers: bench/iree_limits_chains.py; consumers behind a reshape of a reduction
(RT-DETR) or repeating a unit-dim epilogue (MoE layers): bench/iree_limits_reshaped.py.

Run cases (they build, and are wrong): a max pool's region storing *only* its padded result.
- `pool_stored_into_padded_splat` (insert_slice into a splat): crashes on `local-sync`, and on
  `local-task` writes later channels' rows at the wrong place.
- `pool_padded_in_region` (a tensor.pad of the pool's result in the region): the last row and
  column of the pool's result are lost, on both devices.
So resnet18's pool result, which the residual add reads as is and the next conv padded, keeps its
pad as a copy (bench/RESULTS.md, "resnet18's pool pad").

The region forms of issue-sized models that IREE 3.13 rejects at real sizes (a matmul whose rows
an expand splits before its bias; a grouped conv's collapsed groups before bias + ReLU; a
collapse-expand head split before a transposing consumer; a gather from a value computed in the
region; a concat-only region) are pinned as minimal modules in
test/lit/transforms/dispatch/dispatch-verify-with-iree.mlir, each expected to be rejected (the
remark names IREE's error), and the forms region formation emits instead are built at real sizes
by test/unit/transforms/linalg/test_sink_reshapes.py and test/unit/test_block_models_build.py.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fusionopt.iree_tools import compiler_executable, runtime_tools_dir, target_flags  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import iree_limits_chains  # noqa: E402
import iree_limits_found  # noqa: E402
import iree_limits_reshaped  # noqa: E402

DEVICES = ("local-sync", "local-task")

POOL_STORED_PLAIN_AND_PADDED = """func.func @main_graph(%x: tensor<1x8x8x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %buf = flow.tensor.splat %ninf : tensor<1x8x6x6xf32>
  %r:2 = flow.dispatch.region -> (tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>) {
    %e = tensor.empty() : tensor<1x8x4x4xf32>
    %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %k = tensor.empty() : tensor<2x2xf32>
    %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<1x8x8x8xf32>, tensor<2x2xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %i = tensor.insert_slice %p into %buf[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : tensor<1x8x4x4xf32> into tensor<1x8x6x6xf32>
    flow.return %p, %i : tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>
  }
  return %r#0, %r#1 : tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>
}
"""

_CONTRACTION = """func.func @main_graph(%x: tensor<32x16x16xf32>, %wa: tensor<16x32xf32>, %wb: tensor<16x32xf32>) -> (tensor<1x16x18x18xf32>, {b_type}) {{
  %zero = arith.constant 0.0 : f32
  %sa = flow.tensor.splat %zero : tensor<1x16x18x18xf32>
  %sb = flow.tensor.splat %zero : {b_type}
  %r:2 = flow.dispatch.region -> (tensor<1x16x18x18xf32>, {b_type}) {{
    %e = tensor.empty() : tensor<16x16x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16x16xf32>) -> tensor<16x16x16xf32>
    %m:2 = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins(%x, %wa, %wb : tensor<32x16x16xf32>, tensor<16x32xf32>, tensor<16x32xf32>) outs(%f, %f : tensor<16x16x16xf32>, tensor<16x16x16xf32>) {{
    ^bb0(%in: f32, %a: f32, %b: f32, %oa: f32, %ob: f32):
      %pa = arith.mulf %in, %a : f32
      %ta = arith.addf %oa, %pa : f32
      %pb = arith.mulf %in, %b : f32
      %tb = arith.addf %ob, %pb : f32
      linalg.yield %ta, %tb : f32, f32
    }} -> (tensor<16x16x16xf32>, tensor<16x16x16xf32>)
{epilogues}    %ia = tensor.insert_slice %A into %sa[0, 0, 1, 1] [1, 16, 16, 16] [1, 1, 1, 1] : tensor<1x16x16x16xf32> into tensor<1x16x18x18xf32>
    %ib = tensor.insert_slice %B into %sb[0, 0, {b_pad}, {b_pad}] [1, 16, 16, 16] [1, 1, 1, 1] : tensor<1x16x16x16xf32> into {b_type}
    flow.return %ia, %ib : tensor<1x16x18x18xf32>, {b_type}
  }}
  return %r#0, %r#1 : tensor<1x16x18x18xf32>, {b_type}
}}
"""


def _relu(name: str, source: str, rank: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({dims}) -> ({dims})>"
    image = "tensor<1x16x16x16xf32>" if rank == 4 else "tensor<16x16x16xf32>"
    return f"""    %{name}_init = tensor.empty() : {image}
    %{name} = linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{", ".join(['"parallel"'] * rank)}]}} ins({source} : {image}) outs(%{name}_init : {image}) {{
    ^bb0(%v: f32, %o: f32):
      %y = arith.maximumf %v, %zero : f32
      linalg.yield %y : f32
    }} -> {image}
"""


def _unit_expand(name: str, source: str) -> str:
    return (f"    %{name} = tensor.expand_shape {source} [[0, 1], [2], [3]] output_shape [1, 16, 16, 16] : "
            "tensor<16x16x16xf32> into tensor<1x16x16x16xf32>\n")


def siblings(rank3_epilogues: bool, equal_pads: bool) -> str:
    """Two 1x1 convs' contraction in one loop nest, each result (ReLU) stored padded."""
    pad = 1 if equal_pads else 2
    if rank3_epilogues:
        epilogues = (_relu("ea", "%m#0", 3) + _relu("eb", "%m#1", 3) + _unit_expand("A", "%ea")
                     + _unit_expand("B", "%eb"))
    else:
        epilogues = _unit_expand("xa", "%m#0") + _unit_expand("xb", "%m#1") + _relu("A", "%xa", 4) + _relu("B", "%xb", 4)
    b_type = f"tensor<1x16x{16 + 2 * pad}x{16 + 2 * pad}xf32>"
    return _CONTRACTION.format(b_type=b_type, b_pad=pad, epilogues=epilogues)


_POOL_INTO_PADDED = """func.func @main_graph(%x: tensor<1x8x10x10xf32>) -> tensor<1x8x6x6xf32> {{
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zeros = flow.tensor.splat %zero : tensor<1x8x6x6xf32>
  %r = flow.dispatch.region -> (tensor<1x8x6x6xf32>) {{
    %e = tensor.empty() : tensor<1x8x4x4xf32>
    %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %k = tensor.empty() : tensor<3x3xf32>
    %p = linalg.pooling_nchw_max {{dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}} ins(%x, %k : tensor<1x8x10x10xf32>, tensor<3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
{padded}    flow.return %i : tensor<1x8x6x6xf32>
  }}
  return %r : tensor<1x8x6x6xf32>
}}
"""
_INSERT_INTO_SPLAT = ("    %i = tensor.insert_slice %p into %zeros[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : "
                      "tensor<1x8x4x4xf32> into tensor<1x8x6x6xf32>\n")
_PAD_IN_REGION = """    %i = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
"""


_CHANNELS_LAST_INTO_PADDED = """func.func @main_graph(%x: tensor<1x16x16x32xf32>, %w: tensor<1x1x32x32xf32>) -> {padded} {{
  %zero = arith.constant 0.0 : f32
  %s = flow.tensor.splat %zero : {padded}
  %r = flow.dispatch.region -> ({padded}) {{
    %e = tensor.empty() : tensor<1x16x16x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
    %c = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<1x16x16x32xf32>, tensor<1x1x32x32xf32>) outs(%f : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
    %te = tensor.empty() : {image}
    %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, {out_map}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%c : tensor<1x16x16x32xf32>) outs(%te : {image}) {{
    ^bb0(%i: f32, %o: f32):
      %m = arith.maximumf %i, %zero : f32
      linalg.yield %m : f32
    }} -> {image}
    %ins = tensor.insert_slice %y into %s{offsets} {sizes} [1, 1, 1, 1] : {image} into {padded}
    flow.return %ins : {padded}
  }}
  return %r : {padded}
}}
"""
CHANNELS_LAST_INTO_PADDED = _CHANNELS_LAST_INTO_PADDED.format(
    image="tensor<1x16x16x32xf32>", padded="tensor<1x18x18x32xf32>", offsets="[0, 1, 1, 0]", sizes="[1, 16, 16, 32]",
    out_map="affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>")
CHANNELS_LAST_INTO_COLUMN_PADDED = _CHANNELS_LAST_INTO_PADDED.format(
    image="tensor<1x16x16x32xf32>", padded="tensor<1x16x18x32xf32>", offsets="[0, 0, 1, 0]", sizes="[1, 16, 16, 32]",
    out_map="affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>")
CHANNELS_LAST_TRANSPOSED_INTO_PADDED = _CHANNELS_LAST_INTO_PADDED.format(
    image="tensor<1x32x16x16xf32>", padded="tensor<1x32x18x18xf32>", offsets="[0, 0, 1, 1]", sizes="[1, 32, 16, 16]",
    out_map="affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>")


def _padded(shape: tuple[int, ...], value: float, channels_last: bool = False) -> np.ndarray:
    """`value` in the interior of a zero border one pixel wide (NCHW, or NHWC)."""
    want = np.zeros(shape, np.float32)
    if channels_last:
        want[:, 1:-1, 1:-1, :] = value
    else:
        want[:, :, 1:-1, 1:-1] = value
    return want


# name -> (module, input shapes, the output on all-ones inputs). A max pool of ones is ones; a
# 1x1 conv of ones over 32 channels, through a ReLU, is 32.
RUN_CASES = {
    "pool_stored_into_padded_splat": (_POOL_INTO_PADDED.format(padded=_INSERT_INTO_SPLAT), [(1, 8, 10, 10)],
                                      _padded((1, 8, 6, 6), 1)),
    "pool_padded_in_region": (_POOL_INTO_PADDED.format(padded=_PAD_IN_REGION), [(1, 8, 10, 10)],
                              _padded((1, 8, 6, 6), 1)),
    "channels_last_conv_into_padded": (CHANNELS_LAST_INTO_PADDED, [(1, 16, 16, 32), (1, 1, 32, 32)],
                                       _padded((1, 18, 18, 32), 32, channels_last=True)),
    "channels_last_conv_transposed_into_padded": (CHANNELS_LAST_TRANSPOSED_INTO_PADDED,
                                                  [(1, 16, 16, 32), (1, 1, 32, 32)], _padded((1, 32, 18, 18), 32)),
}

_RESIDUAL = """func.func @main_graph(%padded: tensor<8x6x6xf32>, %w: tensor<8x32xf32>, %col: tensor<32x16xf32>) -> tensor<8x16xf32> {{
  %zero = arith.constant 0.0 : f32
{outside}  %r = flow.dispatch.region -> (tensor<8x16xf32>) {{
{inside}    %e = tensor.empty() : tensor<8x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    %mm = linalg.matmul ins(%w, %col : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
    %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, {residual_map}, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%mm, {residual} : tensor<8x16xf32>, {residual_type}) outs(%e : tensor<8x16xf32>) {{
    ^bb0(%v: f32, %x: f32, %o: f32):
      %s = arith.addf %v, %x : f32
      %t = arith.maximumf %s, %zero : f32
      linalg.yield %t : f32
    }} -> tensor<8x16xf32>
    flow.return %y : tensor<8x16xf32>
  }}
  return %r : tensor<8x16xf32>
}}
"""
SHUFFLE_STORED_PLAIN_AND_PADDED = """func.func @main_graph(%c: tensor<1x48x8x8xf32>) -> (tensor<1x24x2x8x8xf32>, tensor<1x48x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = flow.tensor.splat %zero : tensor<1x48x10x10xf32>
  %r:2 = flow.dispatch.region -> (tensor<1x24x2x8x8xf32>, tensor<1x48x10x10xf32>) {
    %e = tensor.empty() : tensor<1x24x2x8x8xf32>
    %x = tensor.expand_shape %c [[0], [1, 2], [3], [4]] output_shape [1, 2, 24, 8, 8] : tensor<1x48x8x8xf32> into tensor<1x2x24x8x8xf32>
    %t = linalg.transpose ins(%x : tensor<1x2x24x8x8xf32>) outs(%e : tensor<1x24x2x8x8xf32>) permutation = [0, 2, 1, 3, 4]
    %f = tensor.collapse_shape %t [[0], [1, 2], [3], [4]] : tensor<1x24x2x8x8xf32> into tensor<1x48x8x8xf32>
    %i = tensor.insert_slice %f into %s[0, 0, 1, 1] [1, 48, 8, 8] [1, 1, 1, 1] : tensor<1x48x8x8xf32> into tensor<1x48x10x10xf32>
    flow.return %t, %i : tensor<1x24x2x8x8xf32>, tensor<1x48x10x10xf32>
  }
  return %r#0, %r#1 : tensor<1x24x2x8x8xf32>, tensor<1x48x10x10xf32>
}
"""

RESIDUAL_THROUGH_SLICE = _RESIDUAL.format(
    outside="", residual="%flat", residual_type="tensor<8x16xf32>", residual_map="affine_map<(d0, d1) -> (d0, d1)>",
    inside="    %sl = tensor.extract_slice %padded[0, 1, 1] [8, 4, 4] [1, 1, 1] : tensor<8x6x6xf32> to tensor<8x4x4xf32>\n"
           "    %flat = tensor.collapse_shape %sl [[0], [1, 2]] : tensor<8x4x4xf32> into tensor<8x16xf32>\n")
RESIDUAL_THROUGH_FLAT_OFFSET_MAP = _RESIDUAL.format(
    outside="  %flat = flow.tensor.reshape %padded : tensor<8x6x6xf32> -> tensor<8x36xf32>\n", inside="",
    residual="%flat", residual_type="tensor<8x36xf32>",
    residual_map="affine_map<(d0, d1) -> (d0, (d1 floordiv 4) * 6 + d1 mod 4 + 7)>")

CASES = {
    "pool_stored_plain_and_padded": POOL_STORED_PLAIN_AND_PADDED,
    "siblings_padded_into_equal_splats": siblings(rank3_epilogues=True, equal_pads=True),
    "siblings_with_4d_epilogues": siblings(rank3_epilogues=False, equal_pads=False),
    "siblings_with_rank3_epilogues": siblings(rank3_epilogues=True, equal_pads=False),
    "shuffle_stored_plain_and_padded": SHUFFLE_STORED_PLAIN_AND_PADDED,
    "residual_through_slice_in_region": RESIDUAL_THROUGH_SLICE,
    "residual_through_flat_offset_map": RESIDUAL_THROUGH_FLAT_OFFSET_MAP,
    "channels_last_conv_into_column_padded": CHANNELS_LAST_INTO_COLUMN_PADDED,
    **{name: text for name, (text, _, _) in RUN_CASES.items()},
}
# Those found on models beyond the corpus (their docstring says which and why).
RUN_CASES.update(iree_limits_found.RUN_CASES)
CASES.update(iree_limits_found.CASES)
CASES.update(iree_limits_chains.CASES)
CASES.update(iree_limits_reshaped.CASES)
CASES.update({name: text for name, (text, _, _) in iree_limits_found.RUN_CASES.items()})


# Cases built for CUDA sm_80 (a build needs no GPU).
CUDA_CASES = dict(iree_limits_found.CUDA_CASES)
CUDA_CASES.update(iree_limits_chains.CUDA_CASES)


def try_build(text: str, work: Path, name: str, target: str = "llvm-cpu") -> str | None:
    """None when IREE builds `text` for `target`, else its first error line."""
    source = work / f"{name}.mlir"
    source.write_text(text)
    result = subprocess.run([compiler_executable(), str(source), *target_flags(target), "-o", str(work / f"{name}.vmfb")],
                            capture_output=True, text=True)
    if result.returncode == 0:
        return None
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    return (errors[0] if errors else result.stderr.strip()[:300]).split("error:", 1)[-1].strip()


def try_run(name: str, work: Path, device: str) -> str:
    """A built run case on an all-ones image: "right", "wrong" or "crashes" (the exit status)."""
    _, shapes, want = RUN_CASES[name]
    out = work / f"{name}.{device}.npy"
    inputs = [f"--input={'x'.join(map(str, shape))}xf32=1" for shape in shapes]
    result = subprocess.run([str(runtime_tools_dir() / "iree-run-module"), f"--module={work / name}.vmfb",
                             f"--device={device}", "--function=main_graph", *inputs, f"--output=@{out}"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return f"crashes (exit status {result.returncode})"
    return "right" if np.array_equal(np.load(out), want) else "wrong"


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="iree_limits_"))
    print(f"| case | IREE llvm-cpu | {' | '.join(DEVICES)} |\n|---|---|{'---|' * len(DEVICES)}")
    for name, text in CASES.items():
        error = try_build(text, work, name)
        runs = [try_run(name, work, d) if error is None and name in RUN_CASES else "" for d in DEVICES]
        print(f"| {name} | {'builds' if error is None else 'fails: ' + error[:160]} | {' | '.join(runs)} |")
    print("\n| case | IREE cuda sm_80 |\n|---|---|")
    for name, text in CUDA_CASES.items():
        error = try_build(text, work, name, "cuda")
        print(f"| {name} | {'builds' if error is None else 'fails: ' + error[:160]} |")


if __name__ == "__main__":
    main()
