"""Strided k x k convolutions on llvm-cpu: which form IREE 3.13 runs fastest.

    python bench/strided_conv_forms.py [--shapes all|NAME,...] [--rounds R] [--iterations N] [--pad-inside]

One single-conv module per (shape, form), each the conv + bias + ReLU of the corpus CNNs
(pre-padded NCHW input, FCHW filter, bias, all function arguments, f32, batch 1), built with
IREE's default flags (`iree-default`) and through `fusion-opt -p dispatch-creation` (`ours`):
- `conv`: `linalg.conv_2d_nchw_fchw` strides 2, bias broadcast into the init (torch-mlir's form);
- `im2col`: a gather generic patches[c, kh, kw, oh, ow] = x[0, c, s*oh + kh, s*ow + kw] collapsed
  to (C*k*k) x (OH*OW), the filter collapsed to F x (C*k*k) (a free reshape), then
  `linalg.matmul` (what `linalg-strided-conv-to-im2col` writes);
- `s2d`: space-to-depth: the input rearranged to 1 x (C*s*s) x H/s x W/s, the filter zero-padded
  to a multiple of s and rearranged alike, a stride-1 conv with kernel ceil(k/s) (inexact when the
  input holds inf/NaN: the padded zero taps multiply real pixels; timed only to compare);
- `pass`: `conv` through `dispatch-creation` without `linalg-conv-channels-last` (so
  `linalg-strided-conv-to-im2col` takes it); `pass-off`: without either (the conv in our region);
  `channels-last`: through `dispatch-creation` (the NHWC conv of `linalg-conv-channels-last`);
- `iree-im2col-flag`: `conv` built with IREE's `--iree-global-opt-use-im2col-for-convs` (not a
  default flag; for comparison only);
- `im2col-op-kmajor` / `im2col-op-mmajor`: IREE's `iree_linalg_ext.im2col` and the matmul in one
  hand-formed dispatch region, the patches K x P (filter-first matmul) or P x K.
`--pad-inside`: every function takes the unpadded image and pads it itself (`tensor.pad`, as
torch-mlir writes it); the im2col-op forms take the pad as the op's own input padding instead.
`aa` is a second copy of conv/iree-default: aa / conv-iree-default is the run's noise.
Variants are interleaved round by round in a seeded shuffled order; ms per call of a round,
median (min) over rounds. Ratios are to conv/iree-default.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from iree_bench_build import _dispatch_creation  # noqa: E402

from fusionopt.iree_tools import benchmark_vmfb, compile_vmfb, run_vmfb, save_inputs, target_flags  # noqa: E402

FUNCTION = "main_graph"


@dataclass(frozen=True)
class Shape:
    name: str
    c: int  # input channels
    hp: int  # padded input height = width
    f: int  # filters
    k: int  # kernel
    s: int = 2

    @property
    def oh(self) -> int:
        return (self.hp - self.k) // self.s + 1


SHAPES = {
    "resnet18-stem": Shape("resnet18-stem", 3, 70, 64, 7),
    "resnet18-3x3-64": Shape("resnet18-3x3-64", 64, 18, 128, 3),
    "resnet18-3x3-128": Shape("resnet18-3x3-128", 128, 10, 256, 3),
    "resnet18-3x3-256": Shape("resnet18-3x3-256", 256, 6, 512, 3),
    "resnet_mini-3x3-16": Shape("resnet_mini-3x3-16", 16, 34, 32, 3),
    "resnet_mini-3x3-32": Shape("resnet_mini-3x3-32", 32, 18, 64, 3),
    "mobilenet-stem": Shape("mobilenet-stem", 3, 66, 16, 3),
    "inception-stem": Shape("inception-stem", 3, 34, 32, 3),
    "squeezenet-stem": Shape("squeezenet-stem", 3, 64, 64, 3),  # unpadded in the model
    # ImageNet-sized (224 x 224 input): where a patch matrix is largest
    "r224-stem": Shape("r224-stem", 3, 230, 64, 7),
    "r224-3x3-64": Shape("r224-3x3-64", 64, 58, 128, 3),
    # stride 1, for comparison (not rewritten by default)
    "s1-3x3-64": Shape("s1-3x3-64", 64, 18, 64, 3, 1),
    "s1-3x3-256": Shape("s1-3x3-256", 256, 6, 256, 3, 1),
}


def _t(*dims: int) -> str:
    return f"tensor<{'x'.join(map(str, dims))}xf32>"


def _par(rank: int) -> str:
    return ", ".join(['"parallel"'] * rank)


def _header(sh: Shape) -> str:
    return (f"func.func @{FUNCTION}(%x: {_t(1, sh.c, sh.hp, sh.hp)}, %w: {_t(sh.f, sh.c, sh.k, sh.k)}, "
            f"%b: {_t(sh.f)}) -> {_t(1, sh.f, sh.oh, sh.oh)} {{\n")


def _pad(sh: Shape) -> int:
    return (sh.k - 1) // 2


def _unpadded(sh: Shape) -> int:
    """The image's height and width before `--pad-inside`'s pad (`sh.hp` is the padded one)."""
    return sh.hp - 2 * _pad(sh)


def _padding_header(sh: Shape, absorb: bool) -> str:
    """`--pad-inside`: the function takes the unpadded image; the form pads it itself as torch-mlir
    does (`tensor.pad`), or, `absorb`, leaves the padding to the im2col op."""
    p, h = _pad(sh), _unpadded(sh)
    head = (f"func.func @{FUNCTION}(%x0: {_t(1, sh.c, h, h)}, %w: {_t(sh.f, sh.c, sh.k, sh.k)}, "
            f"%b: {_t(sh.f)}) -> {_t(1, sh.f, sh.oh, sh.oh)} {{\n")
    if absorb:
        return head
    return head + (f"  %zp = arith.constant 0.0 : f32\n  %x = tensor.pad %x0 low[0, 0, {p}, {p}] high[0, 0, {p}, {p}] {{\n"
                   f"  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):\n    tensor.yield %zp : f32\n"
                   f"  }} : {_t(1, sh.c, h, h)} to {_t(1, sh.c, sh.hp, sh.hp)}\n")


def _relu(value: str, dims: tuple[int, ...], name: str) -> str:
    rank = len(dims)
    ids = ", ".join(f"d{i}" for i in range(rank))
    return (f"  %{name}e = tensor.empty() : {_t(*dims)}\n"
            f"  %{name} = linalg.generic {{indexing_maps = [affine_map<({ids}) -> ({ids})>, "
            f"affine_map<({ids}) -> ({ids})>], iterator_types = [{_par(rank)}]}} "
            f"ins(%{value} : {_t(*dims)}) outs(%{name}e : {_t(*dims)}) {{\n"
            f"  ^bb0(%a: f32, %o: f32):\n    %z = arith.constant 0.0 : f32\n"
            f"    %m = arith.maximumf %a, %z : f32\n    linalg.yield %m : f32\n  }} -> {_t(*dims)}\n")


def _bias_init(sh: Shape, dims: tuple[int, ...], fdim: int) -> str:
    return (f"  %be = tensor.empty() : {_t(*dims)}\n"
            f"  %init = linalg.broadcast ins(%b : {_t(sh.f)}) outs(%be : {_t(*dims)}) "
            f"dimensions = [{', '.join(str(i) for i in range(len(dims)) if i != fdim)}]\n")


def conv_form(sh: Shape, x: str = "%x", w: str = "%w", c: int | None = None, hp: int | None = None,
              k: int | None = None, s: int | None = None) -> str:
    c, hp, k, s = c or sh.c, hp or sh.hp, k or sh.k, s or sh.s
    out = (1, sh.f, sh.oh, sh.oh)
    return (_bias_init(sh, out, 1)
            + f"  %y = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, "
              f"strides = dense<{s}> : vector<2xi64>}} ins({x}, {w} : {_t(1, c, hp, hp)}, {_t(sh.f, c, k, k)}) "
              f"outs(%init : {_t(*out)}) -> {_t(*out)}\n"
            + _relu("y", out, "r") + f"  return %r : {_t(*out)}\n}}\n")


def im2col_form(sh: Shape) -> str:
    ckk, p = sh.c * sh.k * sh.k, sh.oh * sh.oh
    patches = (sh.c, sh.k, sh.k, sh.oh, sh.oh)
    text = (f"  %pe = tensor.empty() : {_t(*patches)}\n"
            f"  %pt = linalg.generic {{indexing_maps = [affine_map<(c, kh, kw, oh, ow) -> "
            f"(0, c, oh * {sh.s} + kh, ow * {sh.s} + kw)>, affine_map<(c, kh, kw, oh, ow) -> (c, kh, kw, oh, ow)>], "
            f"iterator_types = [{_par(5)}]}} ins(%x : {_t(1, sh.c, sh.hp, sh.hp)}) "
            f"outs(%pe : {_t(*patches)}) {{\n  ^bb0(%a: f32, %o: f32):\n    linalg.yield %a : f32\n"
            f"  }} -> {_t(*patches)}\n"
            f"  %pm = tensor.collapse_shape %pt [[0, 1, 2], [3, 4]] : {_t(*patches)} into {_t(ckk, p)}\n"
            f"  %wm = tensor.collapse_shape %w [[0], [1, 2, 3]] : {_t(sh.f, sh.c, sh.k, sh.k)} into {_t(sh.f, ckk)}\n"
            + _bias_init(sh, (sh.f, p), 0)
            + f"  %y = linalg.matmul ins(%wm, %pm : {_t(sh.f, ckk)}, {_t(ckk, p)}) outs(%init : {_t(sh.f, p)}) "
              f"-> {_t(sh.f, p)}\n"
            + _relu("y", (sh.f, p), "r")
            + f"  %ro = tensor.expand_shape %r [[0, 1], [2, 3]] output_shape [1, {sh.f}, {sh.oh}, {sh.oh}] : "
              f"{_t(sh.f, p)} into {_t(1, sh.f, sh.oh, sh.oh)}\n"
            + f"  return %ro : {_t(1, sh.f, sh.oh, sh.oh)}\n}}\n")
    return text


def im2col_op_form(sh: Shape, k_major: bool = True, absorb_pad: bool = False) -> str:
    """IREE's `iree_linalg_ext.im2col` and the matmul in one hand-formed dispatch region.

    k_major: the patches as (C*k*k) x (OH*OW) (`output_perm = [1, 0]`), the filter-first matmul
    order the gather form measured fastest; otherwise (OH*OW) x (C*k*k), im2col's own order."""
    ckk, p = sh.c * sh.k * sh.k, sh.oh * sh.oh
    pt_dims, perm, pmap = ((ckk, p), "[1, 0]", "(k, p)") if k_major else ((p, ckk), "[0, 1]", "(p, k)")
    pd, h = (_pad(sh), _unpadded(sh)) if absorb_pad else (0, sh.hp)
    src, pads = ("%x0", f"input_pad_low = [0, {pd}, {pd}] input_pad_high = [0, {pd}, {pd}] pad_value(%zp : f32) "
                 ) if absorb_pad else ("%x", "")
    return (f"  %zp = arith.constant 0.0 : f32\n"
            f"  %xr = flow.tensor.reshape {src} : {_t(1, sh.c, h, h)} -> {_t(sh.c, h, h)}\n"
            f"  %wm = flow.tensor.reshape %w : {_t(sh.f, sh.c, sh.k, sh.k)} -> {_t(sh.f, ckk)}\n"
            f"  %reg = flow.dispatch.region -> ({_t(sh.f, p)}) {{\n"
            f"  %pe = tensor.empty() : {_t(*pt_dims)}\n"
            f"  %pt = iree_linalg_ext.im2col strides = [{sh.s}, {sh.s}] dilations = [1, 1] "
            f"kernel_size = [{sh.k}, {sh.k}] offsets = [0, 0] output_sizes = [[{sh.oh}, {sh.oh}], "
            f"[{sh.c}, {sh.k}, {sh.k}]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] "
            f"output_perm = {perm} {pads}ins(%xr : {_t(sh.c, h, h)}) outs(%pe : {_t(*pt_dims)}) -> {_t(*pt_dims)}\n"
            + _bias_init(sh, (sh.f, p), 0)
            + f"  %y = linalg.generic {{indexing_maps = [affine_map<(f, p, k) -> (f, k)>, affine_map<(f, p, k) -> {pmap}>, "
              f"affine_map<(f, p, k) -> (f, p)>], iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}} "
              f"ins(%wm, %pt : {_t(sh.f, ckk)}, {_t(*pt_dims)}) outs(%init : {_t(sh.f, p)}) {{\n"
              f"  ^bb0(%a: f32, %bb: f32, %o: f32):\n    %m = arith.mulf %a, %bb : f32\n"
              f"    %s = arith.addf %o, %m : f32\n    linalg.yield %s : f32\n  }} -> {_t(sh.f, p)}\n"
            + _relu("y", (sh.f, p), "r")
            + f"  flow.return %r : {_t(sh.f, p)}\n  }}\n"
            + f"  %ro = flow.tensor.reshape %reg : {_t(sh.f, p)} -> {_t(1, sh.f, sh.oh, sh.oh)}\n"
            + f"  return %ro : {_t(1, sh.f, sh.oh, sh.oh)}\n}}\n")


def s2d_form(sh: Shape) -> str:
    s, k2 = sh.s, -(-sh.k // sh.s)
    h2 = sh.oh + k2 - 1
    extra = s * h2 - sh.hp
    kp = s * k2
    x_dims, w_dims = (sh.c, s, s, h2, h2), (sh.f, sh.c, s, s, k2, k2)
    text = ""
    src = "%x"
    if extra > 0:
        text += (f"  %zx = arith.constant 0.0 : f32\n  %xp = tensor.pad %x low[0, 0, 0, 0] high[0, 0, {extra}, {extra}] {{\n"
                 f"  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):\n    tensor.yield %zx : f32\n"
                 f"  }} : {_t(1, sh.c, sh.hp, sh.hp)} to {_t(1, sh.c, s * h2, s * h2)}\n")
        src = "%xp"
    hx = max(sh.hp, s * h2)
    text += (f"  %xe = tensor.empty() : {_t(*x_dims)}\n"
             f"  %x2 = linalg.generic {{indexing_maps = [affine_map<(c, ph, pw, i, j) -> (0, c, i * {s} + ph, j * {s} + pw)>, "
             f"affine_map<(c, ph, pw, i, j) -> (c, ph, pw, i, j)>], iterator_types = [{_par(5)}]}} "
             f"ins({src} : {_t(1, sh.c, hx, hx)}) outs(%xe : {_t(*x_dims)}) {{\n  ^bb0(%a: f32, %o: f32):\n"
             f"    linalg.yield %a : f32\n  }} -> {_t(*x_dims)}\n"
             f"  %xs = tensor.expand_shape %x2 [[0, 1], [2], [3], [4], [5]] output_shape [1, {sh.c}, {s}, {s}, {h2}, {h2}] : "
             f"{_t(*x_dims)} into {_t(1, *x_dims)}\n"
             f"  %xc = tensor.collapse_shape %xs [[0], [1, 2, 3], [4], [5]] : {_t(1, *x_dims)} into {_t(1, sh.c * s * s, h2, h2)}\n"
             f"  %zw = arith.constant 0.0 : f32\n  %wp = tensor.pad %w low[0, 0, 0, 0] high[0, 0, {kp - sh.k}, {kp - sh.k}] {{\n"
             f"  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):\n    tensor.yield %zw : f32\n"
             f"  }} : {_t(sh.f, sh.c, sh.k, sh.k)} to {_t(sh.f, sh.c, kp, kp)}\n"
             f"  %we = tensor.empty() : {_t(*w_dims)}\n"
             f"  %w2 = linalg.generic {{indexing_maps = [affine_map<(f, c, ph, pw, i, j) -> (f, c, i * {s} + ph, j * {s} + pw)>, "
             f"affine_map<(f, c, ph, pw, i, j) -> (f, c, ph, pw, i, j)>], iterator_types = [{_par(6)}]}} "
             f"ins(%wp : {_t(sh.f, sh.c, kp, kp)}) outs(%we : {_t(*w_dims)}) {{\n  ^bb0(%a: f32, %o: f32):\n"
             f"    linalg.yield %a : f32\n  }} -> {_t(*w_dims)}\n"
             f"  %wc = tensor.collapse_shape %w2 [[0], [1, 2, 3], [4], [5]] : {_t(*w_dims)} into {_t(sh.f, sh.c * s * s, k2, k2)}\n")
    return text + conv_form(sh, "%xc", "%wc", sh.c * s * s, h2, k2, 1)


FORMS = {"conv": lambda sh: conv_form(sh), "im2col": im2col_form, "s2d": s2d_form,
         "im2col-op-kmajor": im2col_op_form, "im2col-op-mmajor": lambda sh: im2col_op_form(sh, k_major=False)}
# (form, pipeline): pipeline None = IREE's own formation on the form as written
VARIANTS = {
    "conv-iree": ("conv", None), "aa": ("conv", None),
    "im2col-iree": ("im2col", None), "im2col-ours": ("im2col", "dispatch-creation"),
    "s2d-iree": ("s2d", None), "s2d-ours": ("s2d", "dispatch-creation"),
    "pass": ("conv", "NCHW"),
    "pass-off": ("conv", "OFF"),
    "channels-last": ("conv", "dispatch-creation"),
    "iree-im2col-flag": ("conv", None),
    "im2col-op-kmajor": ("im2col-op-kmajor", None), "im2col-op-mmajor": ("im2col-op-mmajor", None),
}
# IREE's own im2col (not a default flag: for comparison only)
EXTRA_FLAGS = {"iree-im2col-flag": ["--iree-global-opt-use-im2col-for-convs"]}


def module_text(sh: Shape, form: str, pad_inside: bool = False) -> str:
    if not pad_inside:
        return _header(sh) + FORMS[form](sh)
    if form.startswith("im2col-op"):
        return _padding_header(sh, absorb=True) + im2col_op_form(sh, form.endswith("kmajor"), absorb_pad=True)
    return _padding_header(sh, absorb=False) + FORMS[form](sh)


def build(sh: Shape, variant: str, work: Path, pad_inside: bool = False) -> Path:
    form, pipeline = VARIANTS[variant]
    src = work / f"{sh.name}.{variant}.mlir"
    text = module_text(sh, form, pad_inside)
    if pipeline == "NCHW":
        pipeline = _dispatch_creation(linalg_conv_channels_last="")
    if pipeline == "OFF":
        pipeline = _dispatch_creation(linalg_conv_channels_last="", linalg_strided_conv_to_im2col="")
    if pipeline:
        text = subprocess.run(["fusion-opt", "-p", pipeline], input=text, capture_output=True, text=True,
                              check=True).stdout
    src.write_text(text)
    flags = target_flags("llvm-cpu") + EXTRA_FLAGS.get(variant, [])
    return compile_vmfb(src, work / f"{sh.name}.{variant}.vmfb", flags)


def inputs(sh: Shape, pad_inside: bool = False) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    h = _unpadded(sh) if pad_inside else sh.hp
    return [rng.standard_normal((1, sh.c, h, h), dtype=np.float32),
            (0.1 * rng.standard_normal((sh.f, sh.c, sh.k, sh.k))).astype(np.float32),
            rng.standard_normal(sh.f, dtype=np.float32)]


def check_agreement(sh: Shape, vmfbs: dict[str, Path], pad_inside: bool) -> None:
    """Every form computes the same conv (to f32 rounding of a reordered sum)."""
    args = inputs(sh, pad_inside)
    ref = run_vmfb(vmfbs["conv-iree"], args, FUNCTION)[0]
    for variant, vmfb in vmfbs.items():
        diff = float(np.max(np.abs(run_vmfb(vmfb, args, FUNCTION)[0] - ref)))
        if diff > 1e-4 * float(np.max(np.abs(ref))):
            raise SystemExit(f"{sh.name}: {variant} disagrees with conv-iree (max abs diff {diff:.3e})")


def run_shape(sh: Shape, variants: list[str], rounds: int, iterations: int, work: Path,
              pad_inside: bool = False) -> dict[str, list[float]]:
    vmfbs = {v: build(sh, v, work, pad_inside) for v in variants}
    check_agreement(sh, vmfbs, pad_inside)
    files = save_inputs(inputs(sh, pad_inside), work / f"{sh.name}.inputs")
    return interleaved_rounds(vmfbs, files, rounds, iterations)


def interleaved_rounds(vmfbs: dict[str, Path], files: list[Path], rounds: int, iterations: int) -> dict[str, list[float]]:
    """ms per call of each module in each round; the modules run in a seeded shuffled order per round."""
    order = random.Random(0)
    variants = list(vmfbs)
    times: dict[str, list[float]] = {v: [] for v in variants}
    for _ in range(rounds):
        order.shuffle(variants)
        for v in variants:
            times[v].append(benchmark_vmfb(vmfbs[v], files, FUNCTION, iterations, device="local-sync").ms_per_call)
    return times


def report(sh: Shape, times: dict[str, list[float]], variants: list[str]) -> str:
    base = times["conv-iree"]
    cells = []
    for v in variants:
        med, low = statistics.median(times[v]), min(times[v])
        cells.append(f"{med:.3f} ({low:.3f}) {med / statistics.median(base):.2f}x ({low / min(base):.2f}x)")
    return f"| {sh.name} | {sh.c}->{sh.f} {sh.k}x{sh.k}/{sh.s} {sh.hp}->{sh.oh} | " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="all")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--pad-inside", action="store_true",
                        help="take the unpadded image; each form pads it itself (the im2col op absorbs the pad)")
    args = parser.parse_args(argv)
    shapes = list(SHAPES.values()) if args.shapes == "all" else [SHAPES[n] for n in args.shapes.split(",")]
    variants = args.variants.split(",")
    if "conv-iree" not in variants:
        variants.insert(0, "conv-iree")
    print("ms per call, median (min) over rounds; ratio to conv-iree median (min)")
    print("| shape | conv | " + " | ".join(variants) + " |")
    print("|---|---|" + "---:|" * len(variants))
    with tempfile.TemporaryDirectory() as tmp:
        for sh in shapes:
            times = run_shape(sh, list(variants), args.rounds, args.iterations, Path(tmp), args.pad_inside)
            print(report(sh, times, variants), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
