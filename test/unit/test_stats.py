"""fusion-stats figures on small hand-computed programs (definitions: docs/cost-model.md).

Every expected number is derived in a comment from the shapes in the IR, f32 = 4 bytes.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from fusionopt.ir_io import parse_file, parse_module
from fusionopt.stats import compute_stats
from fusionopt.corpus import CORPUS_MISSING, corpus_dir

MAP2 = "affine_map<(d0, d1) -> (d0, d1)>"


def stats_of(text: str, func: str | None = None) -> dict:
    result = compute_stats(parse_module(textwrap.dedent(text)))
    return result["total"] if func is None else result["functions"][func]


def elementwise_generic(result: str, inputs: list[str], body: str, shape: str = "4x8") -> str:
    """`%result = linalg.generic` over tensor<SHAPExf32> operands; body ops use %in0, %in1, ..."""
    ttype = f"tensor<{shape}xf32>"
    args = ", ".join(f"%in{i}: f32" for i in range(len(inputs)))
    maps = ", ".join([MAP2] * (len(inputs) + 1))
    return f"""
    %{result} = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}}
        ins({", ".join(inputs)} : {", ".join([ttype] * len(inputs))}) outs(%empty : {ttype}) {{
    ^bb0({args}, %out: f32):
      {body}
    }} -> {ttype}"""


MATMUL_4x8x16 = """
func.func @mm(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
"""


def test_matmul_counts_2mnk_and_the_init_fill_is_free():
    s = stats_of(MATMUL_4x8x16)
    assert s["flops"] == 2 * 4 * 8 * 16
    # The fill only initialises the matmul's outs: cloned into it, not a kernel, not a read.
    assert (s["kernels"], s["unfused_compute_ops"], s["dispatches"], s["copies"]) == (1, 1, 0, 0)
    # reads a (4*16) and b (16*8), writes the 4x8 result; f32.
    assert s["bytes_moved"] == (4 * 16 + 16 * 8 + 4 * 8) * 4
    assert s["bytes_min"] == s["bytes_moved"]
    assert s["ops"] == {
        "arith.constant": 1,
        "func.return": 1,
        "linalg.fill": 1,
        "linalg.matmul": 1,
        "tensor.empty": 1,
    }


def test_elementwise_generic_counts_body_ops_per_point():
    body = "%s = arith.addf %in0, %in1 : f32\n      %p = arith.mulf %s, %in0 : f32\n      linalg.yield %p : f32"
    s = stats_of(
        f"""
        func.func @ew(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {{
          %empty = tensor.empty() : tensor<4x8xf32>
          {elementwise_generic("r", ["%x", "%y"], body)}
          return %r : tensor<4x8xf32>
        }}"""
    )
    assert s["flops"] == 32 * 2  # 32 points x (addf, mulf)
    assert s["kernels"] == 1
    assert s["bytes_moved"] == 3 * 32 * 4  # x, y read; r written; the empty init is not read
    assert s["ops"]["arith.addf"] == 1 and s["ops"]["linalg.yield"] == 1


def chained_exp_neg() -> str:
    exp = elementwise_generic("b", ["%a"], "%t = math.exp %in0 : f32\n      linalg.yield %t : f32")
    neg = elementwise_generic("c", ["%b"], "%t = arith.negf %in0 : f32\n      linalg.yield %t : f32")
    return f"""
    func.func @chain(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {{
      %empty = tensor.empty() : tensor<4x8xf32>
      {exp}
      {neg}
      return %c : tensor<4x8xf32>
    }}"""


def test_two_chained_elementwise_ops_are_two_kernels_and_the_intermediate_moves_twice():
    s = stats_of(chained_exp_neg())
    assert s["kernels"] == 2
    assert s["flops"] == 32 + 32
    tensor = 32 * 4
    # kernel 1: read a, write b; kernel 2: read b, write c -> b counted twice.
    assert s["bytes_moved"] == 4 * tensor
    assert s["bytes_min"] == 2 * tensor  # a read once, c written once


def test_fill_used_as_a_real_value_is_a_kernel():
    add = elementwise_generic("r", ["%x", "%f"], "%t = arith.addf %in0, %in1 : f32\n      linalg.yield %t : f32")
    s = stats_of(
        f"""
        func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {{
          %one = arith.constant 1.0 : f32
          %empty = tensor.empty() : tensor<4x8xf32>
          %f = linalg.fill ins(%one : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
          {add}
          return %r : tensor<4x8xf32>
        }}"""
    )
    assert s["kernels"] == 2  # the fill is read as an input, so it is materialised
    assert s["flops"] == 32  # a fill computes nothing
    assert s["bytes_moved"] == 128 + (128 + 128 + 128)  # fill writes f; generic reads x, f, writes r


def test_reshapes_scalars_and_constants_are_free_and_aliases_read_once():
    add = elementwise_generic(
        "r", ["%x", "%back"], "%t = arith.addf %in0, %in1 : f32\n      linalg.yield %t : f32"
    )
    s = stats_of(
        f"""
        func.func @views(%x: tensor<4x8xf32>, %i: index) -> (tensor<4x8xf32>, index) {{
          %c1 = arith.constant 1 : index
          %j = arith.addi %i, %c1 : index
          %empty = tensor.empty() : tensor<4x8xf32>
          %flat = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
          %back = tensor.expand_shape %flat [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
          {add}
          return %r, %j : tensor<4x8xf32>, index
        }}"""
    )
    assert s["kernels"] == 1
    assert s["bytes_moved"] == 2 * 128  # %back is a view of %x: read once; r written
    assert s["flops"] == 32  # the scalar addi is host math


def test_reduction_generic_with_mul_add_body_costs_two_per_point():
    s = stats_of(
        """
        func.func @dotrows(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
          %zero = arith.constant 0.0 : f32
          %e = tensor.empty() : tensor<4xf32>
          %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
          %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
              ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
          ^bb0(%a: f32, %b: f32, %o: f32):
            %m = arith.mulf %a, %b : f32
            %s = arith.addf %o, %m : f32
            linalg.yield %s : f32
          } -> tensor<4xf32>
          return %r : tensor<4xf32>
        }"""
    )
    assert s["flops"] == 2 * 4 * 8
    assert s["kernels"] == 1
    assert s["bytes_moved"] == (32 + 32 + 4) * 4


def test_slices_read_only_their_part_and_transposes_do_no_flops():
    s = stats_of(
        """
        func.func @mv(%x: tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<8x4xf32>) {
          %s = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
          %e = tensor.empty() : tensor<8x4xf32>
          %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
          return %s, %t : tensor<2x8xf32>, tensor<8x4xf32>
        }"""
    )
    assert s["kernels"] == 2 and s["flops"] == 0
    assert s["bytes_moved"] == (16 + 16) * 4 + (32 + 32) * 4  # slice: 2x8 in + out; transpose
    assert s["bytes_min"] == (32 + 16 + 32) * 4


def test_a_table_captured_by_a_gather_body_is_read_and_scalar_extract_is_no_kernel():
    s = stats_of(
        """
        func.func @gather(%table: tensor<16x4xf32>, %ids: tensor<2xi64>) -> (tensor<2x4xf32>, f32) {
          %c0 = arith.constant 0 : index
          %first = tensor.extract %table[%c0, %c0] : tensor<16x4xf32>
          %e = tensor.empty() : tensor<2x4xf32>
          %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
              ins(%ids : tensor<2xi64>) outs(%e : tensor<2x4xf32>) {
          ^bb0(%id: i64, %o: f32):
            %row = arith.index_cast %id : i64 to index
            %col = linalg.index 1 : index
            %v = tensor.extract %table[%row, %col] : tensor<16x4xf32>
            linalg.yield %v : f32
          } -> tensor<2x4xf32>
          return %r, %first : tensor<2x4xf32>, f32
        }"""
    )
    assert s["kernels"] == 1
    assert s["flops"] == 0  # index_cast yields an index: address math, not arithmetic
    assert s["bytes_moved"] == 2 * 8 + 16 * 4 * 4 + 2 * 4 * 4  # ids (i64), whole table, result


def test_splat_constants_are_not_read_but_dense_constants_are():
    add = elementwise_generic(
        "r", ["%splat", "%dense"], "%t = arith.addf %in0, %in1 : f32\n      linalg.yield %t : f32", "1x2"
    )
    s = stats_of(
        f"""
        func.func @consts() -> tensor<1x2xf32> {{
          %splat = arith.constant dense<1.0> : tensor<1x2xf32>
          %dense = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
          %empty = tensor.empty() : tensor<1x2xf32>
          {add}
          return %r : tensor<1x2xf32>
        }}"""
    )
    assert s["kernels"] == 1
    assert s["bytes_moved"] == 8 + 8  # dense read, result written; the splat is a scalar in-kernel
    assert s["bytes_min"] == 8 + 8  # the dense constant counts as an input read once


def test_totals_sum_over_functions_and_merge_op_counts():
    result = compute_stats(parse_module(MATMUL_4x8x16 + chained_exp_neg()))
    mm, chain, total = result["functions"]["mm"], result["functions"]["chain"], result["total"]
    assert total["kernels"] == mm["kernels"] + chain["kernels"] == 3
    assert total["flops"] == 1024 + 64
    assert total["ops"]["func.return"] == 2
    assert total["ops"]["linalg.generic"] == 2 and "linalg.generic" not in mm["ops"]


def test_json_keys_are_the_stable_interface():
    result = compute_stats(parse_module(MATMUL_4x8x16))
    assert set(result) == {"functions", "total"}
    expected = {"dispatches", "copies", "unfused_compute_ops", "kernels", "flops", "bytes_moved", "bytes_min", "ops"}
    assert set(result["functions"]["mm"]) == expected
    assert set(result["total"]) == expected


def test_function_declarations_are_not_reported():
    text = "func.func private @ext(tensor<4xf32>) -> tensor<4xf32>\n" + MATMUL_4x8x16
    assert set(compute_stats(parse_module(text))["functions"]) == {"mm"}


@pytest.mark.parametrize("bad", ["func.func @f( {", "%x = arith.addf"])
def test_cli_reports_bad_input_without_traceback(tmp_path, capsys, bad):
    from fusionopt.tools.fusion_stats import main

    path = tmp_path / "bad.mlir"
    path.write_text(bad)
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip()


def test_cli_json_and_table(tmp_path, capsys):
    import json

    from fusionopt.tools.fusion_stats import main

    path = tmp_path / "mm.mlir"
    path.write_text(MATMUL_4x8x16)
    assert main([str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["functions"]["mm"]["flops"] == 1024
    assert main([str(path)]) == 0
    table = capsys.readouterr().out
    assert table.startswith("@mm\n") and "1024" in table
    assert main([str(tmp_path / "missing.mlir")]) == 1
    assert "error: could not open input file" in capsys.readouterr().err


def test_ops_inside_structured_control_flow_are_classified_one_by_one():
    add = elementwise_generic("r", ["%acc", "%x"], "%t = arith.addf %in0, %in1 : f32\n      linalg.yield %t : f32")
    s = stats_of(
        f"""
        func.func @loop(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {{
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c3 = arith.constant 3 : index
          %empty = tensor.empty() : tensor<4x8xf32>
          %out = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4x8xf32>) {{
            {add}
            scf.yield %r : tensor<4x8xf32>
          }}
          return %out : tensor<4x8xf32>
        }}"""
    )
    assert s["unfused_compute_ops"] == 1  # the generic; scf.for itself is a container
    assert s["ops"]["scf.for"] == 1


GRAPH_CHAIN = """
func.func @g(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x1xf32> {
  %d = graph.dot %a, %b : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  %e = graph.add %d, %c : tensor<2x4x16xf32>
  %f = graph.exp %e : tensor<2x4x16xf32>
  %flat = graph.reshape %f : tensor<2x4x16xf32> -> tensor<128xf32>
  %back = graph.reshape %flat : tensor<128xf32> -> tensor<2x4x16xf32>
  %t = graph.transpose %back perm = [0, 2, 1] : tensor<2x4x16xf32> -> tensor<2x16x4xf32>
  %t2 = graph.transpose %t perm = [0, 2, 1] : tensor<2x16x4xf32> -> tensor<2x4x16xf32>
  %s = graph.reduce_sum %t2 axes = [2] : tensor<2x4x16xf32> -> tensor<2x4x1xf32>
  return %s : tensor<2x4x1xf32>
}
"""


def test_graph_ops_follow_the_graph_rules():
    pytest.importorskip("fusionopt.dialects.graph", reason="graph dialect not available")
    s = stats_of(GRAPH_CHAIN)
    # dot, add, exp, 2 transposes, reduce_sum; the reshapes are views.
    assert s["kernels"] == 6
    out = 2 * 4 * 16
    assert s["flops"] == 2 * out * 8 + out + out + out  # dot 2*B*M*N*K, add, exp, reduce (input)
    a, b, d = 2 * 4 * 8 * 4, 2 * 8 * 16 * 4, out * 4
    # dot: a, b -> d; add: d, c -> e; exp: e -> f; transposes: 2 x (d in, d out); reduce: d -> 2x4x1
    assert s["bytes_moved"] == (a + b + d) + 3 * d + 2 * d + 4 * d + (d + 2 * 4 * 4)
    assert s["ops"]["graph.reshape"] == 2


FLOW_REGION_AND_COPIES = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @fused(%a: tensor<4x8xf32>, %t: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<2x3xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %r = flow.dispatch.region -> (tensor<4x8xf32>) {
    %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.negf %in : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    flow.return %y : tensor<4x8xf32>
  }
  %s = flow.tensor.slice %r[%c0, %c0 for %c2, %c3] : tensor<4x8xf32> -> tensor<2x3xf32>
  %u = flow.tensor.update %s, %t[%c0, %c0] : tensor<2x3xf32> -> %t as tensor<4x8xf32>
  %splat = flow.tensor.splat %one : tensor<4x8xf32>
  return %r, %s, %u, %splat : tensor<4x8xf32>, tensor<2x3xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
"""


def test_a_region_is_one_kernel_copies_are_not_kernels_and_a_returned_splat_is():
    pytest.importorskip("fusionopt.dialects.flow", reason="flow dialect not available")
    s = stats_of(FLOW_REGION_AND_COPIES)
    assert (s["dispatches"], s["copies"], s["unfused_compute_ops"]) == (1, 2, 1)  # + the splat
    assert s["kernels"] == 2
    assert s["flops"] == 32 + 32  # both generics inside the region
    tensor, part = 32 * 4, 6 * 4
    # region: reads a (the captured empty is not a read), writes r; inner %x stays on chip.
    # slice: 2x3 in + out; update in place: 2x3 in + out; splat: writes 4x8.
    assert s["bytes_moved"] == 2 * tensor + 2 * part + 2 * part + tensor
    assert s["ops"]["flow.return"] == 1 and s["ops"]["linalg.generic"] == 2


SHARED_MODELS = corpus_dir()


@pytest.mark.skipif(not SHARED_MODELS.is_dir(), reason=CORPUS_MISSING)
@pytest.mark.parametrize("model", ["bert_mini", "gpt2_mini", "mlp_towers"])
def test_shared_models_give_the_same_figures_in_custom_and_generic_form(model):
    custom = compute_stats(parse_file(SHARED_MODELS / model / f"{model}.args.linalg.mlir"))
    generic = compute_stats(parse_file(SHARED_MODELS / model / f"{model}.args.linalg.generic.mlir"))
    assert custom == generic  # hidden named-op payloads must not leak into any figure
    total = custom["total"]
    assert total["dispatches"] == 0 and total["kernels"] == total["unfused_compute_ops"]
    # Unfused: more kernels than IREE's fused dispatches (37, 37, 12), traffic above the floor.
    assert total["kernels"] > {"bert_mini": 37, "gpt2_mini": 37, "mlp_towers": 12}[model]
    assert total["bytes_moved"] > total["bytes_min"] > 0


def test_a_top_level_pad_is_a_kernel_not_a_container():
    # tensor.pad writes a new 4x8 tensor from a 2x8 one: one kernel, reads 64 B, writes 128 B.
    stats = stats_of("""
    func.func @p(%x: tensor<2x8xf32>) -> tensor<4x8xf32> {
      %zero = arith.constant 0.0 : f32
      %p = tensor.pad %x low[1, 0] high[1, 0] {
      ^bb0(%i: index, %j: index):
        tensor.yield %zero : f32
      } : tensor<2x8xf32> to tensor<4x8xf32>
      return %p : tensor<4x8xf32>
    }
    """)
    assert stats["kernels"] == 1 and stats["unfused_compute_ops"] == 1
    assert stats["bytes_moved"] == 2 * 8 * 4 + 4 * 8 * 4
