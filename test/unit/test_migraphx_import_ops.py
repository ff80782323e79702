"""MIGraphX importer, op by op: one-instruction programs in MIGraphX's print format
(`support.migraphx_programs.MigraphxPrinter`), imported, run with the numpy interpreter and
compared with numpy on the same inputs. Literal operands exercise the constant path, parameters
the SSA path; the GPU-lowered names are checked against their reference meaning."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fusionopt.importers.migraphx_import import import_migraphx_text
from fusionopt.interpreter import FAMILIES, family_values
from fusionopt.interpreter.compare import judge_against_reference
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import run_module
from support.migraphx_programs import MigraphxPrinter

RNG = np.random.default_rng(7)
F32 = np.float32


def normal(*shape) -> np.ndarray:
    return RNG.standard_normal(shape).astype(F32)


def printable(*shape) -> np.ndarray:
    """Literal values MIGraphX prints exactly (6 significant digits): multiples of 1/8."""
    return (RNG.integers(-16, 17, size=shape) / 8).astype(F32)


def positive(*shape) -> np.ndarray:
    return (np.abs(RNG.standard_normal(shape)) + 0.5).astype(F32)


def check(printer: MigraphxPrinter, result: str, inputs: list[np.ndarray], expected,
          rtol: float = 1e-5) -> None:
    printer.lines.append(f"@{printer.count} = @return({result})")
    module = import_migraphx_text(printer.text(), "case.txt")
    parse_module(print_module(module))  # the printed IR re-parses and verifies
    (actual,) = run_module(module, inputs)
    expected = np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=1e-6)


UNARY = {
    "neg": np.negative, "relu": lambda x: np.maximum(x, 0), "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "tanh": np.tanh, "exp": np.exp, "abs": np.abs,
    "erf": np.vectorize(math.erf, otypes=[F32]),
}
BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
          "max": np.maximum, "min": np.minimum}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    p = MigraphxPrinter()
    x = normal(3, 4)
    check(p, p.op(name, [p.param("x", x.shape)]), [x], UNARY[name](x).astype(F32))


@pytest.mark.parametrize("name,fn", [("sqrt", np.sqrt), ("rsqrt", lambda x: 1 / np.sqrt(x))])
def test_roots(name, fn):
    p = MigraphxPrinter()
    x = positive(3, 4)
    check(p, p.op(name, [p.param("x", x.shape)]), [x], fn(x).astype(F32))


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_with_a_literal(name):
    p = MigraphxPrinter()
    x, c = normal(2, 5), printable(2, 5)
    check(p, p.op(name, [p.param("x", x.shape), p.literal(c)]), [x], BINARY[name](x, c))


def test_pow():
    p = MigraphxPrinter()
    x, e = positive(2, 3), normal(2, 3)
    check(p, p.op("pow", [p.param("x", x.shape), p.param("e", e.shape)]), [x, e], x ** e, 1e-4)


@pytest.mark.parametrize("a_shape,b_shape", [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5))])
def test_dot_batches_over_leading_dims(a_shape, b_shape):
    p = MigraphxPrinter()
    a, b = normal(*a_shape), normal(*b_shape)
    out = p.op("dot", [p.param("a", a.shape), p.param("b", b.shape)], (*a_shape[:-1], b_shape[-1]))
    check(p, out, [a, b], a @ b, 1e-4)


def test_gpu_gemm_alpha_beta_and_output_buffer():
    """gpu::gemm(A, B, C, out) = alpha A.B + beta C; `out` (a `load` of scratch) is not read."""
    p = MigraphxPrinter()
    a, b, c = normal(3, 4), normal(4, 5), normal(3, 5)
    names = [p.param("a", a.shape), p.param("b", b.shape), p.param("c", c.shape)]
    p.shapes["scratch"] = ("int8_type", (1024,), (1,))
    out_buffer = p.op("load", ["scratch"], (3, 5), "offset=0,end=60", type_name="float_type")
    y = p.op("gpu::gemm", [*names, out_buffer], (3, 5),
             "alpha=0.5,beta=2,compute_fp32=1,trans_batch=0,solution_idx=0")
    check(p, y, [a, b, c], 0.5 * (a @ b) + 2 * c, 1e-4)


def test_reshape_reshape_lazy_squeeze_unsqueeze_flatten():
    p = MigraphxPrinter()
    x = normal(2, 3, 4)
    r = p.op("reshape", [p.param("x", x.shape)], (6, 4), "dims={6, 4}")
    r = p.op("reshape_lazy", [r], (4, 6), "dims={4, 6}")
    r = p.op("unsqueeze", [r], (4, 1, 6), "axes={1},steps={}")
    r = p.op("squeeze", [r], (4, 6), "axes={1}")
    r = p.op("flatten", [r], (24, 1), "axis=2")
    check(p, r, [x], x.reshape(24, 1))


def test_transpose_contiguous_and_views():
    """The transpose's printed strides are its view; the value is lens + permutation."""
    p = MigraphxPrinter()
    x = normal(2, 3, 4)
    t = p.op("contiguous", [p.transpose(p.param("x", x.shape), [2, 0, 1])])
    check(p, t, [x], x.transpose(2, 0, 1))


def test_multibroadcast_and_broadcast():
    p = MigraphxPrinter()
    v, w = normal(4), normal(3)
    a = p.multibroadcast(p.param("v", v.shape), [2, 3, 4])
    b = p.op("broadcast", [p.param("w", w.shape)], (2, 3, 4), "axis=1,out_lens={2, 3, 4}",
             (0, 1, 0))
    expected = np.broadcast_to(v[None, None, :] + w[None, :, None], (2, 3, 4))
    check(p, p.op("add", [a, b]), [v, w], expected)


def test_slice_with_negative_start_and_clamped_end():
    p = MigraphxPrinter()
    x = normal(4, 6)
    s = p.op("slice", [p.param("x", x.shape)], (2, 4),
             "axes={0, 1},starts={-2, 2},ends={4, 9223372036854775807}", (6, 1))
    check(p, s, [x], x[-2:, 2:])


def test_concat_of_a_parameter_and_a_literal():
    p = MigraphxPrinter()
    x, c = normal(2, 3), printable(2, 2)
    check(p, p.op("concat", [p.param("x", x.shape), p.literal(c)], (2, 5), "axis=1"), [x],
          np.concatenate([x, c], axis=1))


def test_convert_takes_the_printed_result_type():
    p = MigraphxPrinter()
    x = normal(2, 3) * 4
    out = p.op("convert", [p.param("x", x.shape)], attrs="target_type=9", type_name="int64_type")
    check(p, out, [x], x.astype(np.int64))


@pytest.mark.parametrize("name,fn", [("reduce_sum", np.sum), ("reduce_mean", np.mean),
                                     ("reduce_max", np.max)])
def test_reductions_keep_dims(name, fn):
    p = MigraphxPrinter()
    x = normal(2, 3, 4)
    out = p.op(name, [p.param("x", x.shape)], (2, 1, 1), "axes={1, -1}")
    check(p, out, [x], fn(x, axis=(1, 2), keepdims=True).astype(F32), 1e-5)


def test_softmax():
    p = MigraphxPrinter()
    x = normal(2, 5)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    check(p, p.op("softmax", [p.param("x", x.shape)], attrs="axis=1"), [x],
          e / e.sum(axis=1, keepdims=True))


def test_gather_with_runtime_and_literal_indices():
    p = MigraphxPrinter()
    table, ids = normal(5, 3), np.array([4, 0, 2], dtype=np.int64)
    t = p.param("table", table.shape)
    g1 = p.op("gather", [t, p.param("ids", ids.shape, "int64_type")], (3, 3), "axis=0")
    g2 = p.op("gather", [t, p.literal(np.array([1, 1], dtype=np.int64))], (2, 3), "axis=0")
    both = p.op("concat", [g1, g2], (5, 3), "axis=0")
    check(p, both, [table, ids], np.concatenate([table[ids], table[[1, 1]]]))


def test_where_and_compare():
    p = MigraphxPrinter()
    a, b = normal(3, 4), normal(3, 4)
    pa, pb = p.param("a", a.shape), p.param("b", b.shape)
    cond = p.op("greater", [pa, pb], type_name="bool_type")
    check(p, p.op("where", [cond, pa, pb], type_name="float_type"), [a, b], np.where(a > b, a, b))


def test_bool_and_scalar_literals():
    p = MigraphxPrinter()
    x = normal(1, 3)
    mask = p.literal(np.array([[True, False, True]]))
    zero = p.multibroadcast(p.literal(np.array([0.0], dtype=F32)), [1, 3])
    out = p.op("where", [mask, p.param("x", x.shape), zero], type_name="float_type")
    check(p, out, [x], np.where([[True, False, True]], x, F32(0)))


def test_hip_copy_literal_becomes_an_argument(capsys):
    p = MigraphxPrinter()
    w, x = normal(4, 2), normal(3, 4)
    lit = p.op("hip::hip_copy_literal", [], (4, 2), "id=main:@literal:3", type_name="float_type")
    alloc = p.op("hip::allocate", [], (3, 2), "shape=float_type, {3, 2}, {2, 1},id=",
                 type_name="float_type")
    y = p.op("gpu::gemm", [p.param("x", x.shape), lit, alloc], (3, 2),
             "alpha=1,beta=0,compute_fp32=1,trans_batch=0,solution_idx=0")
    p.lines.append(f"@{p.count} = @return({y})")
    module = import_migraphx_text(p.text(), "case.txt")
    assert "copies literal 'main:@literal:3'" in capsys.readouterr().err
    (actual,) = run_module(module, [w, x])
    np.testing.assert_allclose(actual, x @ w, rtol=1e-5)


@pytest.mark.parametrize("family", FAMILIES)
def test_scaled_softmax_scores_on_adversarial_inputs(family):
    """softmax(q k^T * 0.5) judged like a rewrite: within tolerance of numpy's float64 model, or
    no worse than numpy's float32 model (inputs near f32's limits overflow any f32 program)."""
    p = MigraphxPrinter()
    q, k = (family_values((2, 4, 3), np.float32, family, np.random.default_rng(s)) for s in (1, 2))
    scores = p.op("dot", [p.param("q", q.shape), p.transpose(p.param("k", k.shape), [0, 2, 1])],
                  (2, 4, 4))
    half = p.multibroadcast(p.literal(np.array([0.5], dtype=F32)), [2, 4, 4])
    out = p.op("softmax", [p.op("mul", [scores, half])], attrs="axis=2")
    p.lines.append(f"@{p.count} = @return({out})")
    (actual,) = run_module(import_migraphx_text(p.text(), "case.txt"), [q, k])
    verdicts = judge_against_reference([actual], [_scaled_softmax(q, k, F32)],
                                       [_scaled_softmax(q, k, np.float64)])
    assert all(v.ok for v in verdicts), "\n".join(v.describe() for v in verdicts)


def _scaled_softmax(q: np.ndarray, k: np.ndarray, dtype) -> np.ndarray:
    with np.errstate(invalid="ignore", over="ignore"):
        s = (q.astype(dtype) @ k.astype(dtype).transpose(0, 2, 1)) * dtype(0.5)
        e = np.exp(s - s.max(axis=2, keepdims=True))
        return e / e.sum(axis=2, keepdims=True)
