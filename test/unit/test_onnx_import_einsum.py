"""ONNX Einsum and the composed reductions (ReduceMin, ReduceSumSquare, ReduceL1, ReduceL2):
imported, run by the numpy interpreter, compared with onnxruntime; ReduceL2 also with a float64
run on values whose squares leave float32's range; the unsupported forms fail naming the node."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_context import OnnxImportError
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.testing import run_module
from test_onnx_import_ops import check_against_ort, f32, make_model

EQUATIONS = [
    ("B G H I D, B G H J D -> B G H I J", [(2, 3, 4, 5, 6), (2, 3, 4, 7, 6)]),  # MaxViT's Q.K^T
    ("B G H I J, B G H J D -> B G H I D", [(2, 3, 4, 5, 7), (2, 3, 4, 7, 6)]),  # and its P.V
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),  # implicit output: the letters seen once, sorted
    ("bij,bjk->bki", [(2, 3, 4), (2, 4, 5)]),  # output transposed
    ("i,j->ij", [(3,), (4,)]),  # outer product: no contracted letter
    ("ij->ji", [(3, 4)]),
    ("ijk->i", [(3, 4, 5)]),  # a sum over letters nobody reads
    ("ij,ij->i", [(3, 4), (3, 4)]),  # batch and contraction, no free letter
    ("abc,cd,de->abe", [(2, 3, 4), (4, 5), (5, 6)]),  # a chain, left to right
    ("ik,kj,i->j", [(3, 4), (4, 5), (3,)]),  # a letter a later operand reads stays
    ("bik,bk->bi", [(2, 3, 4), (2, 4)]),  # matrix-vector
]


@pytest.mark.parametrize("equation,shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_matches_onnxruntime(equation, shapes):
    runtime = {f"x{i}": f32(*s) for i, s in enumerate(shapes)}
    check_against_ort(make_model("Einsum", runtime, {}, equation=equation), runtime)


@pytest.mark.parametrize("equation,shapes", [e for e in EQUATIONS if len(e[1]) == 2][:4])
def test_einsum_with_a_constant_operand_matches_onnxruntime(equation, shapes):
    runtime, const = {"x0": f32(*shapes[0])}, {"x1": f32(*shapes[1])}
    check_against_ort(make_model("Einsum", runtime, const, equation=equation), runtime)


@pytest.mark.parametrize("equation,shapes,message", [
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)], "'...' broadcasting is not supported"),
    ("ii->i", [(3, 3)], "repeats a letter"),
    ("ij,jk->ik", [(3, 4), (5, 6)], "letter 'j' is 4 and 5"),
])
def test_einsum_unsupported_forms_name_the_node(equation, shapes, message):
    runtime = {f"x{i}": f32(*s) for i, s in enumerate(shapes)}
    model = make_model("Einsum", runtime, {}, equation=equation)
    with pytest.raises(OnnxImportError, match="node_einsum") as error:
        import_onnx(model)
    assert message in str(error.value)


REDUCTIONS = ("ReduceMin", "ReduceSumSquare", "ReduceL1", "ReduceL2")


@pytest.mark.parametrize("op", REDUCTIONS)
@pytest.mark.parametrize("keepdims", [0, 1])
def test_composed_reductions_match_onnxruntime(op, keepdims):
    runtime = {"x": f32(3, 4, 5)}
    check_against_ort(make_model(op, runtime, {"axes": np.array([1, -1], np.int64)}, keepdims=keepdims), runtime)


@pytest.mark.parametrize("op", REDUCTIONS)
def test_composed_reductions_over_all_axes(op):
    runtime = {"x": f32(2, 6)}
    check_against_ort(make_model(op, runtime, {}, keepdims=0), runtime)


def l2_rows(rows: np.ndarray) -> np.ndarray:
    model = make_model("ReduceL2", {"x": rows}, {"axes": np.array([1], np.int64)}, keepdims=0)
    (out,) = run_module(import_onnx(model), [rows])
    return out


def test_reduce_l2_is_right_where_squares_leave_float32():
    big, tiny = np.float32(3e20), np.float32(3e-25)
    rows = np.array([[big, big, 0, -big], [tiny, -tiny, tiny, 0], [0, 0, 0, 0],
                     [np.finfo(np.float32).max, 1, 0, 0], [1e-45, 0, 0, 0]], np.float32)
    expected = np.sqrt(np.sum(rows.astype(np.float64) ** 2, axis=1))
    np.testing.assert_allclose(l2_rows(rows), expected.astype(np.float32), rtol=1e-6, atol=0)


def test_reduce_l2_of_inf_and_nan_rows():
    rows = np.array([[np.inf, 1, 0], [-np.inf, np.inf, 2], [np.nan, 1, 0]], np.float32)
    out = l2_rows(rows)
    assert out[0] == np.inf and out[1] == np.inf and np.isnan(out[2])


def test_reduce_l2_of_float16_matches_onnxruntime():
    runtime = {"x": (f32(3, 8) * 30).astype(np.float16)}
    check_against_ort(make_model("ReduceL2", runtime, {"axes": np.array([1], np.int64)}), runtime)


def test_reduce_l2_of_integers_is_a_located_error():
    runtime = {"x": np.arange(6, dtype=np.int64).reshape(2, 3)}
    with pytest.raises(OnnxImportError, match=r"ReduceL2 of i64 is not supported .*node_reducel2"):
        import_onnx(make_model("ReduceL2", runtime, {"axes": np.array([1], np.int64)}))
