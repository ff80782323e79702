"""ONNX importer: Tile, DepthToSpace, SpaceToDepth, Col2Im, ScatterND and ScatterElements
(fusionopt/importers/onnx_ops_rearrange.py), each a one-node model imported, run at graph level and lowered, and
compared with onnxruntime. The inputs include infinities and values near the f32 limits: these
ops only move elements (Col2Im's overlapping blocks also add), so every value must arrive
unchanged, and no padding zero may turn an infinity into a NaN."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.dialects import graph
from fusionopt.importers.onnx_import import OnnxImportError, import_onnx
from fusionopt.testing import run_module
from support.onnx_single_node import check, make_model

pytest.importorskip("onnxruntime")

rng = np.random.default_rng(0)


def adversarial(*shape) -> np.ndarray:
    """Random normals with an infinity of each sign, the f32 extremes and a zero spread in."""
    x = rng.standard_normal(shape).astype(np.float32).reshape(-1)
    specials = np.float32([np.inf, -np.inf, 3.0e38, -3.0e38, 0.0, 1e-38])
    x[rng.choice(x.size, size=min(x.size, specials.size), replace=False)] = specials[:min(x.size, specials.size)]
    return x.reshape(shape)


def i64(*values) -> np.ndarray:
    return np.array(values, dtype=np.int64)


TILE_CASES = [
    ("swiftformer-rows", adversarial(1, 1, 8), i64(1, 6, 1)),
    ("two-axes", adversarial(2, 3), i64(2, 3)),
    ("leading-axis", adversarial(2, 3, 4), i64(3, 1, 1)),
    ("all-ones", adversarial(2, 3), i64(1, 1)),
    ("ints", np.array([[np.iinfo(np.int64).min, 0, np.iinfo(np.int64).max]], dtype=np.int64), i64(2, 2)),
]


@pytest.mark.parametrize("name,x,repeats", TILE_CASES, ids=[c[0] for c in TILE_CASES])
def test_tile_matches_onnxruntime(name, x, repeats):
    check(make_model("Tile", {"x": x}, {"r": repeats}), {"x": x})


def test_tile_is_a_broadcast_between_reshapes():
    module = import_onnx(make_model("Tile", {"x": adversarial(1, 1, 8)}, {"r": i64(1, 6, 1)}))
    names = [op.name for op in module.walk() if op.name.startswith("graph.")]
    assert names == ["graph.reshape", "graph.broadcast", "graph.reshape"], names


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_to_space_matches_onnxruntime(mode):
    x = adversarial(1, 12, 3, 5)
    check(make_model("DepthToSpace", {"x": x}, {}, blocksize=2, mode=mode), {"x": x})


def test_space_to_depth_matches_onnxruntime():
    x = adversarial(2, 3, 6, 4)
    check(make_model("SpaceToDepth", {"x": x}, {}, blocksize=2), {"x": x})


# (id, channels, image, block, attrs): the first tiles the image (MobileViTV2's fold), the
# others overlap, leave gaps, dilate, or pad (cropped back).
COL2IM_CASES = [
    ("tiles-image", 3, (8, 6), (2, 2), {"strides": [2, 2]}),
    ("overlapping", 2, (5, 6), (3, 2), {}),
    ("gaps", 2, (9, 7), (2, 2), {"strides": [3, 3]}),
    ("dilated-strided", 2, (9, 9), (2, 3), {"strides": [2, 1], "dilations": [2, 2]}),
    ("padded", 3, (6, 5), (3, 3), {"pads": [1, 0, 2, 1], "strides": [2, 1]}),
]


def _col2im_input(channels, image, block, attrs) -> np.ndarray:
    strides, dilations = attrs.get("strides", [1, 1]), attrs.get("dilations", [1, 1])
    pads = attrs.get("pads", [0, 0, 0, 0])
    grid = [(image[a] + pads[a] + pads[a + 2] - dilations[a] * (block[a] - 1) - 1) // strides[a] + 1
            for a in range(2)]
    return adversarial(1, channels * block[0] * block[1], grid[0] * grid[1])


@pytest.mark.parametrize("name,channels,image,block,attrs", COL2IM_CASES, ids=[c[0] for c in COL2IM_CASES])
def test_col2im_matches_onnxruntime(name, channels, image, block, attrs):
    cols = _col2im_input(channels, image, block, attrs)
    if name != "tiles-image":
        cols = np.nan_to_num(cols, posinf=7.0, neginf=-7.0, nan=0.0)
        cols[np.abs(cols) > 1e30] = 5.0  # overlapping blocks add: keep the sums finite and exact enough
    check(make_model("Col2Im", {"x": cols}, {"image": i64(*image), "block": i64(*block)}, **attrs), {"x": cols})


def test_col2im_tiling_the_image_is_a_transpose_between_reshapes():
    cols = _col2im_input(3, (8, 6), (2, 2), {"strides": [2, 2]})
    model = make_model("Col2Im", {"x": cols}, {"image": i64(8, 6), "block": i64(2, 2)}, strides=[2, 2])
    names = [op.name for op in import_onnx(model).walk() if op.name.startswith("graph.")]
    assert names == ["graph.reshape", "graph.transpose", "graph.reshape"], names


def test_col2im_overlapping_blocks_add_one_padded_tap_each():
    cols = _col2im_input(2, (5, 6), (3, 2), {})
    model = make_model("Col2Im", {"x": cols}, {"image": i64(5, 6), "block": i64(3, 2)})
    ops = [op for op in import_onnx(model).walk()]
    assert sum(isinstance(op, graph.AddOp) for op in ops) == 3 * 2 - 1


def test_col2im_with_the_wrong_number_of_blocks_names_the_node():
    cols = adversarial(1, 12, 7)
    model = make_model("Col2Im", {"x": cols}, {"image": i64(8, 6), "block": i64(2, 2)}, strides=[2, 2])
    with pytest.raises(OnnxImportError, match="Col2Im.*node_col2im"):
        import_onnx(model)


# (id, data shape, indices): a contiguous run of rows (Funnel's `x[1:] = y`), scattered rows
# with a repeat (the last update wins), depth-2 indices with negatives, one element each.
SCATTER_CASES = [
    ("run-of-rows", (6, 3, 4), np.arange(1, 5, dtype=np.int64).reshape(4, 1)),
    ("scattered-repeat", (6, 5), np.array([[4], [0], [4], [2]], dtype=np.int64)),
    ("depth-2-negative", (3, 4, 2), np.array([[0, -1], [2, 1], [-3, 0]], dtype=np.int64)),
    ("elements", (3, 4), np.array([[[0, 0], [2, 3]], [[1, 2], [0, 1]]], dtype=np.int64)),
]


@pytest.mark.parametrize("name,dims,indices", SCATTER_CASES, ids=[c[0] for c in SCATTER_CASES])
def test_scatter_nd_matches_onnxruntime(name, dims, indices):
    data = adversarial(*dims)
    updates = adversarial(*indices.shape[:-1], *dims[indices.shape[-1]:])
    if name == "scattered-repeat":
        indices = indices[[0, 1, 3]]  # onnxruntime rejects repeated indices; checked below
        updates = updates[[0, 1, 3]]
    runtime = {"data": data, "updates": updates}
    check(make_model("ScatterND", runtime, {"indices": indices}, order=["data", "indices", "updates"]), runtime)


def test_scatter_nd_repeated_row_takes_the_last_update():
    data, updates = adversarial(6, 5), adversarial(4, 5)
    indices = np.array([[4], [0], [4], [2]], dtype=np.int64)
    model = make_model("ScatterND", {"data": data, "updates": updates}, {"indices": indices},
                       order=["data", "indices", "updates"])
    want = data.copy()
    for row, update in zip(indices[:, 0], updates):
        want[row] = update
    np.testing.assert_array_equal(run_module(import_onnx(model), [data, updates])[0], want)


def test_scatter_nd_run_of_rows_is_a_concat():
    data, updates = adversarial(6, 3), adversarial(4, 3)
    indices = np.arange(1, 5, dtype=np.int64).reshape(4, 1)
    model = make_model("ScatterND", {"data": data, "updates": updates}, {"indices": indices},
                       order=["data", "indices", "updates"])
    names = [op.name for op in import_onnx(model).walk() if op.name.startswith("graph.")]
    assert names == ["graph.slice", "graph.slice", "graph.concat"], names


# (id, data shape, axis, indices): RWKV's token row `x[:, t] = y` (whole planes, one run), its
# last-axis state column, planes out of order with a negative index, single elements.
SCATTER_ELEMENTS_CASES = [
    ("token-row", (1, 6, 5), 1, np.full((1, 1, 5), 3, dtype=np.int64)),
    ("last-axis-column", (1, 4, 2), 2, np.zeros((1, 4, 1), dtype=np.int64)),
    ("planes-out-of-order", (2, 5, 3), 1, np.broadcast_to(np.array([4, -5, 2]).reshape(1, 3, 1), (2, 3, 3)).copy()),
    ("elements", (3, 4), 1, np.array([[0, 3], [2, 1], [3, 0]], dtype=np.int64)),
]


@pytest.mark.parametrize("name,dims,axis,indices", SCATTER_ELEMENTS_CASES, ids=[c[0] for c in SCATTER_ELEMENTS_CASES])
def test_scatter_elements_matches_onnxruntime(name, dims, axis, indices):
    runtime = {"data": adversarial(*dims), "updates": adversarial(*indices.shape)}
    check(make_model("ScatterElements", runtime, {"indices": indices}, order=["data", "indices", "updates"],
                     axis=axis), runtime)


def test_scatter_elements_token_row_is_a_concat_of_rows():
    runtime = {"data": adversarial(1, 6, 5), "updates": adversarial(1, 1, 5)}
    model = make_model("ScatterElements", runtime, {"indices": np.full((1, 1, 5), 3, dtype=np.int64)},
                       order=["data", "indices", "updates"], axis=1)
    names = [op.name for op in import_onnx(model).walk() if op.name.startswith("graph.")]
    assert "graph.gather" not in names and names.count("graph.concat") == 1, names


def test_scatter_elements_with_a_reduction_names_the_node():
    runtime = {"data": adversarial(3, 4), "updates": adversarial(3, 1)}
    model = make_model("ScatterElements", runtime, {"indices": np.zeros((3, 1), dtype=np.int64)},
                       order=["data", "indices", "updates"], axis=1, reduction="add")
    with pytest.raises(OnnxImportError, match="reduction.*node_scatterelements"):
        import_onnx(model)


def test_scatter_elements_index_out_of_range_names_the_node():
    runtime = {"data": adversarial(3, 4), "updates": adversarial(3, 1)}
    model = make_model("ScatterElements", runtime, {"indices": np.full((3, 1), 4, dtype=np.int64)},
                       order=["data", "indices", "updates"], axis=1)
    with pytest.raises(OnnxImportError, match=r"ScatterElements index out of range \[0, 4\).*node_scatterelements"):
        import_onnx(model)



# The same scatters with the indices an input (computed in the graph: GroupViT's argmax one-hot),
# and that one-hot itself with a negative index.
RUNTIME_SCATTER_CASES = [*SCATTER_ELEMENTS_CASES,
                         ("one-hot", (1, 5, 7), 1, np.array([[[0, 4, -1, 2, 2, -5, 3]]], dtype=np.int64))]


@pytest.mark.parametrize("name,dims,axis,indices", RUNTIME_SCATTER_CASES, ids=[c[0] for c in RUNTIME_SCATTER_CASES])
def test_scatter_elements_with_runtime_indices_matches_onnxruntime(name, dims, axis, indices):
    runtime = {"data": adversarial(*dims), "indices": indices, "updates": adversarial(*indices.shape)}
    check(make_model("ScatterElements", runtime, {}, order=["data", "indices", "updates"], axis=axis), runtime)


def test_scatter_elements_with_runtime_repeated_indices_keeps_the_last_update():
    data, updates = adversarial(4, 4), adversarial(3, 4)
    indices = np.array([[1, 0, 3, 1], [1, 2, 3, 0], [0, 2, 0, 1]], dtype=np.int64)
    model = make_model("ScatterElements", {"data": data, "indices": indices, "updates": updates}, {},
                       order=["data", "indices", "updates"], axis=0)
    want = data.copy()
    for j in range(3):
        for c in range(4):
            want[indices[j, c], c] = updates[j, c]
    np.testing.assert_array_equal(run_module(import_onnx(model), [data, indices, updates])[0], want)


def test_scatter_elements_with_runtime_indices_narrower_than_the_data_names_the_node():
    runtime = {"data": adversarial(3, 4), "indices": np.zeros((2, 1), dtype=np.int64), "updates": adversarial(2, 1)}
    model = make_model("ScatterElements", runtime, {}, order=["data", "indices", "updates"], axis=1)
    with pytest.raises(OnnxImportError, match="narrower than data.*node_scatterelements"):
        import_onnx(model)
