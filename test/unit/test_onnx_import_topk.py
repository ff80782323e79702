"""ONNX TopK by pairwise ranks (fusionopt/importers/onnx_ops_topk.py): single nodes against
onnxruntime (graph level and lowered) on ties, NaNs, infinities and int64 ids at the range ends;
constant inputs folded at import; the router model built by IREE from every CPU pipeline against a
numpy stable sort on adversarial inputs (constant rows: all ties)."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import compile_vmfb, cuda_flags, run_vmfb
from fusionopt.registry import iree_flags_of
from fusionopt.testing import apply_pipeline, run_module
from support.iree_pairs import build_llvm_cpu
from support.onnx_family_runs import CPU_PIPELINES, adversarial_signals
from support.onnx_single_node import check, make_model
from support.topk_onnx_models import router

ort = pytest.importorskip("onnxruntime")
rng = np.random.default_rng(0)
X = rng.standard_normal((2, 9, 3)).astype(np.float32)
X[0, 2, 1] = X[0, 5, 1]  # a tie: the lower index first
X[1, :, 0] = 1.5  # a constant row: every element tied
IDS = rng.integers(-2**62, 2**62, (3, 7)).astype(np.int64)
IDS[0, :2] = np.iinfo(np.int64).max, np.iinfo(np.int64).min
IDS[1] = 5
SPECIAL = X.copy()
SPECIAL[0, 3, 2] = SPECIAL[0, 7, 2] = np.nan
SPECIAL[1, 1, 1], SPECIAL[1, 4, 1] = np.inf, -np.inf


def topk_model(x: np.ndarray, k: int, **attrs):
    return make_model("TopK", {"x": x}, {"k": np.array([k], np.int64)}, n_outputs=2, opset=18, **attrs)


def onnxruntime_run(model, x: np.ndarray) -> list[np.ndarray]:
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})


@pytest.mark.parametrize("attrs,k", [({"axis": 1}, 4), ({"axis": -1}, 2), ({"axis": 1, "largest": 0}, 4),
                                     ({"axis": 0}, 1), ({"axis": 1}, 9)],
                         ids=["axis1", "last-axis", "smallest", "axis0", "all"])
def test_floats_match_onnxruntime(attrs, k):
    check(topk_model(X, k, **attrs), {"x": X})


@pytest.mark.parametrize("largest", [1, 0])
def test_int64_ids_at_the_range_ends_match_onnxruntime(largest):
    check(topk_model(IDS, 3, axis=1, largest=largest), {"x": IDS})


@pytest.mark.parametrize("largest", [1, 0])
def test_nans_and_infinities_order_as_onnxruntime(largest):
    """NaN above every number (first when largest, last when smallest), NaNs by index."""
    model = topk_model(SPECIAL, 4, axis=1, largest=largest)
    want = onnxruntime_run(model, SPECIAL)
    module = import_onnx(model)
    for got in (run_module(module, [SPECIAL]),
                run_module(apply_pipeline(print_module(module), "convert-graph-to-linalg"), [SPECIAL])):
        np.testing.assert_array_equal(got[0], want[0])  # NaNs compare equal here
        np.testing.assert_array_equal(got[1], want[1])


def test_unsorted_request_gets_the_same_elements():
    """sorted=0 leaves the order to the runtime: the same values and ids, sorted here."""
    model = topk_model(X, 4, axis=1, sorted=0)
    want = onnxruntime_run(model, X)
    got = run_module(import_onnx(model), [X])
    np.testing.assert_array_equal(np.sort(got[1], axis=1), np.sort(want[1], axis=1))


def test_constant_input_is_folded_at_import():
    from onnx import helper, numpy_helper

    model = topk_model(X, 3, axis=1)
    model.graph.initializer.append(numpy_helper.from_array(SPECIAL, "c"))
    model.graph.node[0].input[0] = "c"
    model.graph.ClearField("input")
    model.graph.input.append(helper.make_tensor_value_info("unused", 1, [1]))
    text = print_module(import_onnx(model))
    assert "graph.greater" not in text and "graph.reduce_sum" not in text
    got = run_module(import_onnx(model), [np.zeros(1, np.float32)])
    # this input has no NaN and inf in one line, so NaN as inf orders as onnxruntime does
    order = np.argsort(-np.where(np.isnan(SPECIAL), np.inf, SPECIAL), axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(got[1], order)
    np.testing.assert_array_equal(got[0], np.take_along_axis(SPECIAL, order, axis=1))


@pytest.mark.parametrize("k,message", [(0, "out of range"), (10, "less than the requested k")])
def test_k_out_of_range_is_refused(k, message):
    with pytest.raises(Exception, match=message):
        import_onnx(topk_model(X, k, axis=1))


def router_in_numpy(x: np.ndarray, k: int = 2) -> list[np.ndarray]:
    ids = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
    best = np.take_along_axis(x.astype(np.float64), ids, axis=-1)
    weights = np.exp(best - best.max(axis=-1, keepdims=True))
    return [weights / weights.sum(axis=-1, keepdims=True), ids]


@pytest.mark.parametrize("pipeline", CPU_PIPELINES)
def test_router_built_by_iree_matches_a_stable_sort(pipeline, tmp_path):
    """Constant rows (all tied: experts 0 and 1), a large offset, zeros and extremes."""
    formed = print_module(apply_pipeline(print_module(import_onnx(router())), pipeline))
    vmfb = build_llvm_cpu({"router": formed}, tmp_path, iree_flags_of(pipeline))["router"]
    for family, x in adversarial_signals((1, 6, 8), 1e38).items():
        x = x.astype(np.float32)
        weights, ids = run_vmfb(vmfb, [x], "main_graph")
        want_weights, want_ids = router_in_numpy(x)
        np.testing.assert_array_equal(ids, want_ids, err_msg=family)
        np.testing.assert_allclose(weights, want_weights, rtol=1e-6, atol=1e-7, err_msg=family)


@pytest.mark.parametrize("pipeline", ["graph-to-dispatch-cuda", "graph-to-dispatch"])
def test_router_builds_for_cuda(pipeline, tmp_path):
    """Autoformer's size (13 of 96): IREE's sm_80 codegen cannot distribute the i64 sum an
    integer count accumulates in, so ranks and ids are counted in f32 (no GPU needed to build)."""
    source = tmp_path / "router.mlir"
    source.write_text(print_module(apply_pipeline(print_module(import_onnx(router(4, 96, 13))), pipeline)))
    flags = [*cuda_flags("sm_80"), *iree_flags_of(pipeline)]
    assert compile_vmfb(source, tmp_path / "router.vmfb", flags).stat().st_size > 0
