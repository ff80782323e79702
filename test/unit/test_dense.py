"""Dense constants: splats stay one element, hex weights load fast, numpy conversion is exact."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, bf16, f16, f32, i1, i64

from fusionopt.diagnostics import FusionError
from fusionopt.dialects.dense import (
    dense_to_numpy,
    is_compact_splat,
    numpy_to_dense,
    splat_dense,
)
from fusionopt.ir_io import parse_module, print_module
from fusionopt.corpus import CORPUS_MISSING, corpus_dir

MODELS = corpus_dir()


def constant_module(attr_text: str, type_text: str) -> str:
    return textwrap.dedent(
        f"""\
        func.func @f() -> {type_text} {{
          %0 = arith.constant {attr_text} : {type_text}
          func.return %0 : {type_text}
        }}
        """
    )


def only_constant(text: str) -> DenseIntOrFPElementsAttr:
    module = parse_module(text)
    (value,) = [op.properties["value"] for op in module.walk() if op.name == "arith.constant"]
    assert isinstance(value, DenseIntOrFPElementsAttr)
    return value


def test_big_splat_parse_and_print_allocates_under_1_mib():
    text = constant_module("dense<0.0>", "tensor<4096x4096xf32>")
    parse_module(text)  # warm up: imports and dialect loading are not the constant's cost
    tracemalloc.start()
    printed = print_module(parse_module(text))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert "dense<0.000000e+00> : tensor<4096x4096xf32>" in printed
    assert peak < 1 << 20, f"peak {peak} bytes"


@pytest.mark.parametrize(
    "literal",
    ["dense<2.5>", 'dense<"0x00002040">', "dense<[[2.5, 2.5, 2.5], [2.5, 2.5, 2.5]]>"],
    ids=["scalar", "hex-one-element", "all-equal-list"],
)
def test_every_splat_spelling_is_stored_compactly(literal: str):
    attr = only_constant(constant_module(literal, "tensor<2x3xf32>"))
    assert is_compact_splat(attr)
    assert attr == splat_dense(2.5, TensorType(f32, [2, 3]))
    np.testing.assert_array_equal(dense_to_numpy(attr), np.full((2, 3), 2.5, np.float32))


def test_non_splat_literal_is_not_compacted_and_converts_exactly():
    attr = only_constant(constant_module("dense<[[1, 2], [3, -4]]>", "tensor<2x2xi64>"))
    assert not is_compact_splat(attr)
    np.testing.assert_array_equal(dense_to_numpy(attr), np.array([[1, 2], [3, -4]], np.int64))


def test_hex_weights_are_read_without_unpacking():
    values = np.arange(300, dtype=np.float32).reshape(3, 100) / 7
    hex_text = '"0x' + values.tobytes().hex().upper() + '"'
    text = constant_module(f"dense<{hex_text}>", "tensor<3x100xf32>")
    attr = only_constant(text)
    np.testing.assert_array_equal(dense_to_numpy(attr), values)
    assert hex_text in print_module(parse_module(text))


def test_dense_to_numpy_is_read_only_view():
    array = dense_to_numpy(splat_dense(1.0, TensorType(f32, [1024, 1024])))
    assert array.shape == (1024, 1024)
    assert array.base is not None and array.nbytes == 4 << 20 and not array.flags.writeable
    with pytest.raises(ValueError):
        array[0, 0] = 2.0


@pytest.mark.parametrize(
    ("array", "element_type"),
    [
        (np.array([[1.5, -2.0], [0.25, 8.0]], np.float16), f16),
        (np.array([1.0, -3.5, 0.0078125], np.float32), bf16),
        (np.array([True, False, True]), i1),
        (np.array([[-(2**40), 7]], np.int64), i64),
    ],
    ids=["f16", "bf16", "i1", "i64"],
)
def test_numpy_dense_round_trip_through_text(array: np.ndarray, element_type):
    attr = numpy_to_dense(array, TensorType(element_type, array.shape))
    reparsed = only_constant(constant_module(_print_attr(attr), str(attr.type)))
    assert reparsed == attr
    expected = array.astype(dense_to_numpy(attr).dtype)
    np.testing.assert_array_equal(dense_to_numpy(reparsed), expected)


def _print_attr(attr: DenseIntOrFPElementsAttr) -> str:
    from io import StringIO

    from xdsl.printer import Printer

    out = StringIO()
    attr.print_without_type(Printer(stream=out))
    return out.getvalue()


def test_numpy_to_dense_emits_splat_only_when_all_equal():
    assert is_compact_splat(numpy_to_dense(np.zeros((64, 64), np.float32)))
    almost = np.zeros((64, 64), np.float32)
    almost[63, 63] = 1.0
    attr = numpy_to_dense(almost)
    assert not is_compact_splat(attr) and len(attr.data.data) == 64 * 64 * 4


def test_numpy_to_dense_rejects_shape_mismatch():
    with pytest.raises(ValueError, match="does not match"):
        numpy_to_dense(np.zeros((2, 3), np.float32), TensorType(f32, [3, 2]))


@pytest.mark.parametrize(
    ("literal", "message"),
    [
        ('dense<"0x0000">', "Expected 6 elements"),
        ('dense<"0xZZ">', "Hex string in denseAttr is invalid"),
        ("dense<[1.0, 2.0]>", "Shape mismatch"),
    ],
)
def test_malformed_dense_is_a_located_error(literal: str, message: str):
    with pytest.raises(FusionError, match=message):
        parse_module(constant_module(literal, "tensor<2x3xf32>"), "bad.mlir")


@pytest.mark.skipif(not MODELS.is_dir(), reason=CORPUS_MISSING)
def test_inline_model_loads_in_little_memory():
    """Peak RSS of a fresh interpreter that parses and prints a 4.8 MB inline-weights model.

    Read from /proc/self/status (VmHWM: this process image's own peak) where there is one:
    Linux carries ru_maxrss across fork + exec, so under pytest-xdist it reported the peak of
    the worker that started the interpreter."""
    path = MODELS / "bert_mini" / "bert_mini.inline.linalg.mlir"
    script = textwrap.dedent(
        f"""
        import resource
        from pathlib import Path
        from fusionopt.dialects.dense import dense_to_numpy
        from fusionopt.ir_io import parse_file, print_module
        module = parse_file({str(path)!r})
        text = print_module(module)
        weights = [op.properties["value"] for op in module.walk() if op.name == "arith.constant"]
        floats = sum(dense_to_numpy(w).size for w in weights if hasattr(w, "data"))
        status = Path("/proc/self/status")
        hwm = [line.split()[1] for line in status.read_text().splitlines() if line.startswith("VmHWM:")] if status.exists() else []
        print(floats, len(text), hwm[0] if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    floats, printed_chars, peak_kib = map(int, done.stdout.split())
    assert floats > 500_000  # the model's weights really were decoded
    assert printed_chars > 4_500_000  # and printed back as hex
    # The text alone is 4.8 MB (kept twice: input and output); 256 MiB means no blow-up.
    assert peak_kib < 256 * 1024, f"peak RSS {peak_kib >> 10} MiB"


def test_hex_literal_in_float_tensor_is_a_bit_pattern():
    # MLIR spells -inf/NaN splats as bit patterns; reading them as integers gave 4.29e9.
    module = parse_module(
        "%c = arith.constant dense<0xFF800000> : tensor<2xf32>\n"
        "%d = arith.constant dense<[0x7FC00000, 0x3F800000]> : tensor<2xf32>\n"
    )
    c, d = (dense_to_numpy(op.value) for op in module.body.block.ops)
    assert np.isneginf(c).all() and c.shape == (2,)
    assert np.isnan(d[0]) and d[1] == 1.0


def test_hex_literal_mixed_with_numbers_is_read_per_element():
    # mlir-opt/iree-opt print NaN and inf inside a float list as bit patterns next to numbers
    # (`dense<[1.000000e+00, 0x7FC00000]>`), so a mixed list must parse, element by element.
    module = parse_module(
        "%c = arith.constant dense<[0xFF800000, 1.0]> : tensor<2xf32>\n"
        "%d = arith.constant dense<[1.000000e+00, 0x7FC00000, -0.000000e+00, 0x7F800000]> : tensor<4xf32>\n"
        "%e = arith.constant dense<[2.5, 0x7C00]> : tensor<2xf16>\n"
    )
    c, d, e = (dense_to_numpy(op.value) for op in module.body.block.ops)
    assert np.isneginf(c[0]) and c[1] == 1.0
    assert d[0] == 1.0 and np.isnan(d[1]) and np.signbit(d[2]) and np.isposinf(d[3])
    assert e.dtype == np.float16 and e[0] == 2.5 and np.isposinf(e[1])
    assert "0x7fc00000" in print_module(module).lower()  # printed back as MLIR does


def test_hex_literal_too_wide_for_the_element_is_an_error():
    with pytest.raises(FusionError, match="does not fit in 16 bits"):
        parse_module("%c = arith.constant dense<[0x7FC00000, 1.0]> : tensor<2xf16>\n")


def test_a_whole_view_of_bytes_is_stored_without_a_copy():
    """numpy_to_dense keeps the bytes object an array views whole (ONNX weights imported with
    np.frombuffer); a partial or strided view, or another dtype, is copied; values alike."""
    data = np.arange(12, dtype="<f4").tobytes()
    whole = np.frombuffer(data, dtype="<f4").reshape(3, 4)
    assert numpy_to_dense(whole, TensorType(f32, [3, 4])).data.data is data
    for view, shape in ((whole[1:], [2, 4]), (whole.T, [4, 3]), (whole.astype("<f8"), [3, 4])):
        attr = numpy_to_dense(view, TensorType(f32, list(shape)))
        assert attr.data.data is not data
        np.testing.assert_array_equal(dense_to_numpy(attr), np.asarray(view, dtype=np.float32))
