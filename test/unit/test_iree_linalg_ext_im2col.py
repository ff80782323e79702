"""`iree_linalg_ext.im2col` in the interpreter against a plain per-element numpy loop of the
documented index rule, against a direct convolution (im2col then matmul), and against IREE 3.13
itself (its own `iree-linalg-ext-decompose-im2col` lowering, compiled and run); on strides,
dilations, permuted K and output dims, split M dims, dynamic offsets, input padding with an
adversarial pad value (-inf) and high output padding."""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from fusionopt import iree_tools
from fusionopt.interpreter import run_function
from fusionopt.ir_io import parse_module


@dataclass
class Case:
    name: str
    input_shape: tuple[int, ...]
    output_shape: tuple[int, ...]
    strides: list[int]
    dilations: list[int]
    kernel: list[int]
    offsets: list[int]
    sizes: list[list[int]]
    batch_pos: list[int]
    m_pos: list[int]
    k_pos: list[int]
    k_perm: list[int]
    out_perm: list[int]
    pad_low: list[int] = field(default_factory=list)
    pad_high: list[int] = field(default_factory=list)
    out_pad_high: list[int] = field(default_factory=list)
    pad_value: float | None = None
    dynamic_offsets: bool = False


CASES = [
    Case("nhwc", (2, 6, 6, 3), (2, 16, 27), [1, 1], [1, 1], [3, 3], [0, 0, 0], [[2], [4, 4], [3, 3, 3]],
         [0], [1, 2], [3], [0, 1, 2], [0, 1, 2]),
    Case("strided_dilated", (1, 9, 8, 2), (1, 6, 8), [2, 2], [2, 1], [2, 2], [0, 0, 0], [[1], [3, 2], [2, 2, 2]],
         [0], [1, 2], [3], [0, 1, 2], [0, 1, 2]),
    Case("nchw_k_perm", (1, 3, 5, 5), (1, 9, 27), [1, 1], [1, 1], [3, 3], [0, 0, 0], [[1], [3, 3], [3, 3, 3]],
         [0], [2, 3], [1], [1, 2, 0], [0, 1, 2]),
    Case("k_before_m", (2, 5, 5, 2), (2, 18, 9), [1, 1], [1, 1], [3, 3], [0, 0, 0], [[2], [3, 3], [3, 3, 2]],
         [0], [1, 2], [3], [0, 1, 2], [0, 2, 1]),
    Case("split_m_dims", (1, 6, 5, 2), (1, 4, 3, 18), [1, 1], [1, 1], [3, 3], [0, 0, 0, 0], [[1], [4], [3], [3, 3, 2]],
         [0], [1, 2], [3], [0, 1, 2], [0, 1, 2, 3]),
    Case("dynamic_offsets", (2, 6, 6, 3), (2, 5, 7), [1, 1], [1, 1], [3, 3], [0, 6, 11], [[2], [4, 4], [3, 3, 3]],
         [0], [1, 2], [3], [0, 1, 2], [0, 1, 2], dynamic_offsets=True),
    Case("padded_minus_inf", (1, 5, 5, 2), (1, 25, 18), [1, 1], [1, 1], [3, 3], [0, 0, 0], [[1], [5, 5], [3, 3, 2]],
         [0], [1, 2], [3], [0, 1, 2], [0, 1, 2], pad_low=[0, 1, 1, 0], pad_high=[0, 1, 1, 0], pad_value=-np.inf),
    Case("output_padding", (1, 6, 6, 2), (1, 20, 18), [1, 1], [1, 1], [3, 3], [0, 0, 0], [[1], [4, 4], [3, 3, 2]],
         [0], [1, 2], [3], [0, 1, 2], [0, 1, 2], out_pad_high=[0, 4, 0], pad_value=7.5),
]


def _list(values: list[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def program(case: Case) -> str:
    tin = "tensor<" + "x".join(map(str, case.input_shape)) + "xf32>"
    tout = "tensor<" + "x".join(map(str, case.output_shape)) + "xf32>"
    offsets = _list(case.offsets)
    extra_args = ""
    if case.dynamic_offsets:
        offsets, extra_args = "[0, %m_off, %k_off]", ", %m_off: index, %k_off: index"
    attrs = (
        f"strides = {_list(case.strides)} dilations = {_list(case.dilations)} kernel_size = {_list(case.kernel)} "
        f"offsets = {offsets} output_sizes = [{', '.join(_list(s) for s in case.sizes)}] "
        f"batch_pos = {_list(case.batch_pos)} m_pos = {_list(case.m_pos)} k_pos = {_list(case.k_pos)} "
        f"input_k_perm = {_list(case.k_perm)} output_perm = {_list(case.out_perm)}"
    )
    zeros = [0] * len(case.output_shape)
    if case.pad_low:
        attrs += f" input_pad_low = {_list(case.pad_low)} input_pad_high = {_list(case.pad_high)}"
    if case.out_pad_high:
        attrs += f" output_pad_low = {_list(zeros)} output_pad_high = {_list(case.out_pad_high)}"
    pad = ""
    if case.pad_value is not None:
        value = "0xFF800000" if case.pad_value == -np.inf else f"{case.pad_value:e}"
        pad, attrs = f"\n  %pad = arith.constant {value} : f32", attrs + " pad_value(%pad : f32)"
    return f"""
func.func @main(%in: {tin}{extra_args}) -> {tout} {{{pad}
  %out = tensor.empty() : {tout}
  %r = iree_linalg_ext.im2col {attrs}
      ins(%in : {tin}) outs(%out : {tout}) -> {tout}
  func.return %r : {tout}
}}
"""


def _delinearize(position: int, sizes: list[int]) -> list[int]:
    parts = []
    for size in reversed(sizes[1:]):
        parts.append(position % size)
        position //= size
    return [position, *reversed(parts)]


def loop_reference(case: Case, x: np.ndarray) -> np.ndarray:
    """Element by element: the documented rule, with no vectorisation shared with the op."""
    out = np.empty(case.output_shape, np.float32)
    n_batch, m_count = len(case.batch_pos), len(case.m_pos)
    for index in np.ndindex(*case.output_shape):
        canonical = {case.out_perm[a]: i for a, i in enumerate(index)}
        parts = [_delinearize(case.offsets[c] + canonical[c], s) for c, s in enumerate(case.sizes)]
        flat = [p for c in parts[n_batch:] for p in c]
        m_parts, k_parts = flat[:m_count], flat[m_count:]
        k_in_input_order = [k_parts[case.k_perm.index(i)] for i in range(len(k_parts))]
        coords, window, channel = [0] * x.ndim, [], []
        for dim, part in zip([d for d in range(x.ndim) if d not in case.batch_pos], k_in_input_order):
            (window if dim in case.m_pos else channel).append(part)
        for j, dim in enumerate(case.batch_pos):
            coords[dim] = parts[j][0]
        for j, dim in enumerate(case.m_pos):
            coords[dim] = m_parts[j] * case.strides[j] + window[j] * case.dilations[j]
        for dim, part in zip(case.k_pos, channel):
            coords[dim] = part
        real = [c - (case.pad_low[d] if case.pad_low else 0) for d, c in enumerate(coords)]
        in_output_pad = case.out_pad_high and any(i >= n - p for i, n, p in zip(index, case.output_shape, case.out_pad_high))
        inside = all(0 <= c < n for c, n in zip(real, x.shape))
        out[index] = x[tuple(real)] if inside and not in_output_pad else case.pad_value
    return out


def run_case(case: Case, x: np.ndarray) -> np.ndarray:
    extra = [np.int64(case.offsets[1]), np.int64(case.offsets[2])] if case.dynamic_offsets else []
    return run_function(parse_module(program(case), case.name), [x, *extra])[0]


def _input(case: Case, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(case.input_shape).astype(np.float32)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_matches_per_element_loop(case: Case):
    x = _input(case)
    np.testing.assert_array_equal(run_case(case, x), loop_reference(case, x))


def test_im2col_then_matmul_is_the_convolution():
    """NHWC 3x3 stride 2, padded by one: patches . filter = direct convolution."""
    case = Case("conv", (1, 7, 7, 3), (1, 16, 27), [2, 2], [1, 1], [3, 3], [0, 0, 0], [[1], [4, 4], [3, 3, 3]],
                [0], [1, 2], [3], [0, 1, 2], [0, 1, 2], pad_low=[0, 1, 1, 0], pad_high=[0, 1, 1, 0], pad_value=0.0)
    x = _input(case, 1)
    w = np.random.default_rng(2).standard_normal((3, 3, 3, 5)).astype(np.float32)
    patches = run_case(case, x)
    padded = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    direct = np.zeros((1, 4, 4, 5))
    for oh, ow, kh, kw in np.ndindex(4, 4, 3, 3):
        direct[0, oh, ow] += padded[0, 2 * oh + kh, 2 * ow + kw] @ w[kh, kw].astype(np.float64)
    np.testing.assert_allclose(patches @ w.reshape(27, 5), direct.reshape(1, 16, 5), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not iree_tools.iree_available(), reason="IREE (iree-opt, iree-compile, iree.runtime) is not installed")
@pytest.mark.parametrize("case", [c for c in CASES if not c.dynamic_offsets], ids=lambda c: c.name)
def test_agrees_with_iree_decomposition(case: Case):
    """IREE 3.13's CPU backend does not build a lone im2col ("failed to run translation"), so
    its own decomposition pass lowers it to loops of slices first; that is compiled and run."""
    x = _input(case, 3)
    with tempfile.TemporaryDirectory() as tmp:
        source, lowered = Path(tmp) / "m.mlir", Path(tmp) / "lowered.mlir"
        source.write_text(program(case))
        subprocess.run(["iree-opt", str(source), "-o", str(lowered),
                        "--pass-pipeline=builtin.module(func.func(iree-linalg-ext-decompose-im2col{unroll=false}))"],
                       check=True, capture_output=True, timeout=120)
        vmfb = iree_tools.compile_vmfb(lowered, Path(tmp) / "m.vmfb", iree_tools.cpu_flags("generic"))
        (theirs,) = iree_tools.run_vmfb(vmfb, [x], "main")
    np.testing.assert_array_equal(run_case(case, x), theirs)
