"""IREE 3.13 limits found building models beyond the corpus (LeViT, MobileViT, SegFormer,
FocalNet at 224x224), as minimal modules at the models' sizes: bench/iree_limits.py prints them with its own
cases and test/unit/test_iree_limits.py pins them.

- `two_transposes_across_unfold` fails ("exceeded stack allocation limit"): MobileViT's unfold of a
  144 x 28 x 28 image into 2 x 2 patches (a reshape, a transpose, a reshape that splits and
  merges, a transpose) as one copy region; IREE stages the 2016 x 14 x 2 x 2 middle on the stack.
  It is why `form-dispatch-regions` transposes on one side of a reshape only by default
  (`transposes-across-reshapes=false`); `one_transpose_of_unfold` (the second half) builds.
- `config_over_strided_collapse` fails ("large vector sizes"; with the packed weights' generic,
  "failed to build pass pipeline"): LeViT's subsampled queries, every other pixel's channels
  collapsed to 49 x 128 in the region, read by a contraction with a lowering config. IREE expands
  the contraction's rows through the collapse (49 -> 7 x 7) and the config no longer fits. It is why `dispatch-matmul-cpu-tiles` leaves such an op to IREE
  (`reads_reshaped_strided_slice`); `strided_collapse_without_config` builds.
- `attention_then_unit_expand` fails ("large vector sizes"): LeViT's Hardswish on the attention
  output behind a unit-dim expand_shape in the attention's region is vectorised whole. It is why
  `form-dispatch-regions` gives attention no consumer through a reshape;
  `attention_then_epilogue` (the epilogue on the attention's own shape) builds.
- `contraction_stored_twice_through_split` fails ("write affecting operations on global
  resources"): MobileViT's 1x1 conv as a matmul whose result, split to an image, is stored into
  its own padded buffer and into a padded concat. It is why `padded_concats` takes no part
  through a reshape from a region that already stores into a buffer.
- `transposed_matmul_into_padded` (run case) builds and is wrong: SegFormer's 1x1 conv as a
  3136 x 32 . 32 x 128 matmul whose epilogue writes it NCHW, then into a padded splat. It is why
  `padded_results.transposes_in_region` regions leave the pad as a copy, whatever their root.
- `reduction_kept_dim_broadcast` fails ("failed to run translation"): FocalNet's context, a
  [1, 96, 1] mean (its unit dim kept) read through `(d0, d1, d2, d3) -> (d0, d1, 0)` by an
  elementwise op over every pixel in the reduction's region; IREE tiles the reduction and leaves
  the consumer untiled. It is why `form-dispatch-regions` gives a root no consumer that reads
  its result at a constant index while broadcasting it (`broadcasts_through_constant`);
  `reduction_broadcast` (the mean without its unit dim) builds.
- `unit_reads_in_conv_epilogue` fails ("write affecting operations on global resources are
  restricted to workgroup distributed contexts"): a dynamically quantized CNN's depthwise conv
  as a channels-first generic whose epilogue multiplies by the activation's scale, a [1, 1, 1, 1]
  tensor from outside the region read through `(0, 0, 0, 0)` (a per-channel [1, C, 1, 1] read
  through `(0, d1, 0, 0)` fails alike). It is why `dispatch-unit-dim-reads` reads a one-element
  operand from outside a region at rank 0; `rank_0_read_in_conv_epilogue` (that read) builds.
- `matvec_through_unit_expand` fails (the same message): a squeeze-excitation's 1x1 conv at 1x1
  pixels as a 16 x 256 . 256 x 1 matvec whose result an elementwise consumer reads through the
  expand to [1, 16, 1, 1], in one region (a dynamically quantized EfficientNetV2's; its consumer
  read the scale at (0, 0, 0, 0), which `linalg-conv-1x1-to-matmul` did not carry to the flat
  shape, so the expand stayed between them). `matvec_epilogue_flat` (the consumer on the flat
  shape, the expand after it: what the pass makes now) builds.

- `im2col_unit_height_disjoint_windows` (run case) builds and is wrong: CANINE's downsampling
  conv (768 channels, kernel 4, stride 4 over 128 characters) as a unit-height 2-D conv through
  `iree_linalg_ext.im2col` in its matmul's region (the `-fewest` pipeline's form); with windows
  that do not overlap (stride >= kernel) over an input of height 1, IREE reads the row at stride
  1. It is why `im2col_op_form.is_few_filter_conv` refuses such a conv (`unit_height_disjoint`);
  `im2col_unit_height_overlapping_windows` (kernel 4, stride 2) is right.

CUDA sm_80 (`CUDA_CASES`, built for `--iree-cuda-target=sm_80`):
- `transpose_through_unit_collapse_split` fails ("uses 302592 bytes of shared memory; exceeded
  the limit of 166912 bytes"): a quantized ViT's head split, an elementwise op (the quantize)
  over [197, 1, 384], a collapse of its unit dim, a split into 6 x 64 and a transposing
  elementwise op to [1, 6, 197, 64], in one region; IREE stages the whole first result in shared
  memory. It is why the CUDA pipeline sets `linalg-fold-unit-reshapes{collapses-into-producers}`;
  `transpose_through_split` (the producer writing [197, 384], what the pass makes) builds.
"""

from __future__ import annotations

import numpy as np

_COPY = """^bb0(%i: f32, %o: f32):
      linalg.yield %i : f32
    }"""

# The unfold's second half: the transposed patches regrouped and transposed again.
_UNFOLD_SECOND_HALF = f"""    %e2 = tensor.empty() : tensor<4x196x144xf32>
    %m = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<2016x14x2x2xf32> into tensor<28224x4xf32>
    %p = tensor.expand_shape %m [[0, 1], [2]] output_shape [144, 196, 4] : tensor<28224x4xf32> into tensor<144x196x4xf32>
    %u = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%p : tensor<144x196x4xf32>) outs(%e2 : tensor<4x196x144xf32>) {{
    {_COPY} -> tensor<4x196x144xf32>
    flow.return %u : tensor<4x196x144xf32>
  }}
  return %r : tensor<4x196x144xf32>
}}
"""
TWO_TRANSPOSES_ACROSS_UNFOLD = f"""func.func @main_graph(%x: tensor<1x144x28x28xf32>) -> tensor<4x196x144xf32> {{
  %r = flow.dispatch.region -> (tensor<4x196x144xf32>) {{
    %e1 = tensor.empty() : tensor<2016x14x2x2xf32>
    %c = tensor.collapse_shape %x [[0, 1, 2], [3]] : tensor<1x144x28x28xf32> into tensor<4032x28xf32>
    %s = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [2016, 2, 14, 2] : tensor<4032x28xf32> into tensor<2016x2x14x2xf32>
    %t = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%s : tensor<2016x2x14x2xf32>) outs(%e1 : tensor<2016x14x2x2xf32>) {{
    {_COPY} -> tensor<2016x14x2x2xf32>
""" + _UNFOLD_SECOND_HALF
ONE_TRANSPOSE_OF_UNFOLD = """func.func @main_graph(%t: tensor<2016x14x2x2xf32>) -> tensor<4x196x144xf32> {
  %r = flow.dispatch.region -> (tensor<4x196x144xf32>) {
""" + _UNFOLD_SECOND_HALF

_STRIDED_COLLAPSE = """func.func @main_graph(%x: tensor<1x7x7x2x128xf32>, %w: tensor<128x128xf32>) -> tensor<49x128xf32> {{
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<49x128xf32>) {{
    %s = tensor.extract_slice %x[0, 0, 0, 0, 0] [1, 7, 7, 1, 128] [1, 1, 1, 1, 1] : tensor<1x7x7x2x128xf32> to tensor<1x7x7x1x128xf32>
    %c = tensor.collapse_shape %s [[0, 1, 2], [3, 4]] : tensor<1x7x7x1x128xf32> into tensor<49x128xf32>
    %e = tensor.empty() : tensor<49x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<49x128xf32>) -> tensor<49x128xf32>
    %m = linalg.matmul {config}ins(%c, %w : tensor<49x128xf32>, tensor<128x128xf32>) outs(%f : tensor<49x128xf32>) -> tensor<49x128xf32>
    flow.return %m : tensor<49x128xf32>
  }}
  return %r : tensor<49x128xf32>
}}
"""
_MATMUL_CONFIG = ("{compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<"
                  "distribution = [49, 64, 0], vector_common_parallel = [4, 64, 0], vector_reduction = [0, 0, 16]>, "
                  "translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, "
                  "{enable_loop_peeling = true}>>} ")
CONFIG_OVER_STRIDED_COLLAPSE = _STRIDED_COLLAPSE.format(config=_MATMUL_CONFIG)
STRIDED_COLLAPSE_WITHOUT_CONFIG = _STRIDED_COLLAPSE.format(config="")

_ATTENTION = """func.func @main_graph(%qkv: tensor<196x4x64xf32>, %bias: tensor<4x196x196xf32>) -> {result} {{
  %r = flow.dispatch.region -> ({result}) {{
    %q = tensor.extract_slice %qkv[0, 0, 0] [196, 4, 16] [1, 1, 1] : tensor<196x4x64xf32> to tensor<196x4x16xf32>
    %k = tensor.extract_slice %qkv[0, 0, 16] [196, 4, 16] [1, 1, 1] : tensor<196x4x64xf32> to tensor<196x4x16xf32>
    %v = tensor.extract_slice %qkv[0, 0, 32] [196, 4, 32] [1, 1, 1] : tensor<196x4x64xf32> to tensor<196x4x32xf32>
    %scale = arith.constant 0.25 : f32
    %e = tensor.empty() : tensor<196x4x32xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %scale, %bias : tensor<196x4x16xf32>, tensor<196x4x16xf32>, tensor<196x4x32xf32>, f32, tensor<4x196x196xf32>) outs(%e : tensor<196x4x32xf32>) {{
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
    }} -> tensor<196x4x32xf32>
{epilogue}
  }}
  return %r : {result}
}}
"""
_HARDSWISH = """^bb0(%i: f32, %o: f32):
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %sixth = arith.constant 0.166666672 : f32
      %half = arith.constant 0.5 : f32
      %m = arith.mulf %i, %sixth : f32
      %h = arith.addf %m, %half : f32
      %lo = arith.maximumf %h, %zero : f32
      %hi = arith.minimumf %lo, %one : f32
      %y = arith.mulf %i, %hi : f32
      linalg.yield %y : f32
    }"""
ATTENTION_THEN_UNIT_EXPAND = _ATTENTION.format(result="tensor<1x196x4x32xf32>", epilogue=f"""\
    %x = tensor.expand_shape %a [[0, 1], [2], [3]] output_shape [1, 196, 4, 32] : tensor<196x4x32xf32> into tensor<1x196x4x32xf32>
    %e4 = tensor.empty() : tensor<1x196x4x32xf32>
    %h = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%x : tensor<1x196x4x32xf32>) outs(%e4 : tensor<1x196x4x32xf32>) {{
    {_HARDSWISH} -> tensor<1x196x4x32xf32>
    flow.return %h : tensor<1x196x4x32xf32>""")
ATTENTION_THEN_EPILOGUE = _ATTENTION.format(result="tensor<196x4x32xf32>", epilogue=f"""\
    %h = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%a : tensor<196x4x32xf32>) outs(%e : tensor<196x4x32xf32>) {{
    {_HARDSWISH} -> tensor<196x4x32xf32>
    flow.return %h : tensor<196x4x32xf32>""")

CONTRACTION_STORED_TWICE_THROUGH_SPLIT = """func.func @main_graph(%x: tensor<256x784xf32>, %w: tensor<96x256xf32>) -> (tensor<1x192x30x30xf32>, tensor<1x96x30x30xf32>) {
  %zero = arith.constant 0.0 : f32
  %own = flow.tensor.splat %zero : tensor<1x96x30x30xf32>
  %cat = flow.tensor.splat %zero : tensor<1x192x30x30xf32>
  %r:2 = flow.dispatch.region -> (tensor<1x192x30x30xf32>, tensor<1x96x30x30xf32>) {
    %e = tensor.empty() : tensor<96x784xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<96x784xf32>) -> tensor<96x784xf32>
    %m = linalg.matmul ins(%w, %x : tensor<96x256xf32>, tensor<256x784xf32>) outs(%f : tensor<96x784xf32>) -> tensor<96x784xf32>
    %image = tensor.expand_shape %m [[0, 1], [2, 3]] output_shape [1, 96, 28, 28] : tensor<96x784xf32> into tensor<1x96x28x28xf32>
    %i1 = tensor.insert_slice %image into %own[0, 0, 1, 1] [1, 96, 28, 28] [1, 1, 1, 1] : tensor<1x96x28x28xf32> into tensor<1x96x30x30xf32>
    %i2 = tensor.insert_slice %image into %cat[0, 0, 1, 1] [1, 96, 28, 28] [1, 1, 1, 1] : tensor<1x96x28x28xf32> into tensor<1x192x30x30xf32>
    flow.return %i2, %i1 : tensor<1x192x30x30xf32>, tensor<1x96x30x30xf32>
  }
  return %r#0, %r#1 : tensor<1x192x30x30xf32>, tensor<1x96x30x30xf32>
}
"""

TRANSPOSED_MATMUL_INTO_PADDED = """func.func @main_graph(%x: tensor<3136x32xf32>, %w: tensor<32x128xf32>) -> tensor<1x128x58x58xf32> {
  %zero = arith.constant 0.0 : f32
  %buf = flow.tensor.splat %zero : tensor<1x128x58x58xf32>
  %r = flow.dispatch.region -> (tensor<1x128x58x58xf32>) {
    %e = tensor.empty() : tensor<3136x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3136x128xf32>) -> tensor<3136x128xf32>
    %m = linalg.matmul ins(%x, %w : tensor<3136x32xf32>, tensor<32x128xf32>) outs(%f : tensor<3136x128xf32>) -> tensor<3136x128xf32>
    %et = tensor.empty() : tensor<1x128x3136xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1, d0)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m : tensor<3136x128xf32>) outs(%et : tensor<1x128x3136xf32>) {
    ^bb0(%i: f32, %o: f32):
      linalg.yield %i : f32
    } -> tensor<1x128x3136xf32>
    %image = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [1, 128, 56, 56] : tensor<1x128x3136xf32> into tensor<1x128x56x56xf32>
    %p = tensor.insert_slice %image into %buf[0, 0, 1, 1] [1, 128, 56, 56] [1, 1, 1, 1] : tensor<1x128x56x56xf32> into tensor<1x128x58x58xf32>
    flow.return %p : tensor<1x128x58x58xf32>
  }
  return %r : tensor<1x128x58x58xf32>
}
"""


def _border(shape: tuple[int, ...], value: float) -> np.ndarray:
    want = np.zeros(shape, np.float32)
    want[:, :, 1:-1, 1:-1] = value
    return want


_REDUCTION_THEN_BROADCAST = """func.func @main_graph(%x: tensor<1x96x{unit}56xf32>, %y: tensor<1x96x56x56xf32>) -> tensor<1x96x56x56xf32> {{
  %r = flow.dispatch.region -> (tensor<1x96x56x56xf32>) {{
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x96{kept}xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x96{kept}xf32>) -> tensor<1x96{kept}xf32>
    %s = linalg.generic {{indexing_maps = [{sum_maps}], iterator_types = [{sum_loops}"reduction"]}} ins(%x : tensor<1x96x{unit}56xf32>) outs(%f : tensor<1x96{kept}xf32>) {{
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %b, %a : f32
      linalg.yield %c : f32
    }} -> tensor<1x96{kept}xf32>
    %e2 = tensor.empty() : tensor<1x96x56x56xf32>
    %o = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> {read}>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%y, %s : tensor<1x96x56x56xf32>, tensor<1x96{kept}xf32>) outs(%e2 : tensor<1x96x56x56xf32>) {{
    ^bb0(%a: f32, %b: f32, %c: f32):
      %d = arith.addf %a, %b : f32
      linalg.yield %d : f32
    }} -> tensor<1x96x56x56xf32>
    flow.return %o : tensor<1x96x56x56xf32>
  }}
  return %r : tensor<1x96x56x56xf32>
}}
"""
REDUCTION_KEPT_DIM_BROADCAST = _REDUCTION_THEN_BROADCAST.format(
    unit="1x", kept="x1", read="(d0, d1, 0)", sum_loops='"parallel", "parallel", "parallel", ',
    sum_maps="affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>")
REDUCTION_BROADCAST = _REDUCTION_THEN_BROADCAST.format(
    unit="", kept="", read="(d0, d1)", sum_loops='"parallel", "parallel", ',
    sum_maps="affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>")

_CONV_THEN_SCALE = """func.func @main_graph(%x: tensor<32x114x114xf32>, %w: tensor<32x3x3xf32>, %s: {scale}) -> tensor<1x32x112x112xf32> {{
  %r = flow.dispatch.region -> (tensor<1x32x112x112xf32>) {{
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<32x112x112xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x112x112xf32>) -> tensor<32x112x112xf32>
    %e4 = tensor.empty() : tensor<1x32x112x112xf32>
    %c = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d0 + d3, d1 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d1)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}} ins(%x, %w : tensor<32x114x114xf32>, tensor<32x3x3xf32>) outs(%f : tensor<32x112x112xf32>) {{
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %t = arith.addf %o, %m : f32
      linalg.yield %t : f32
    }} -> tensor<32x112x112xf32>
    %g = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> {read}>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%c, %s : tensor<32x112x112xf32>, {scale}) outs(%e4 : tensor<1x32x112x112xf32>) {{
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      linalg.yield %p : f32
    }} -> tensor<1x32x112x112xf32>
    flow.return %g : tensor<1x32x112x112xf32>
  }}
  return %r : tensor<1x32x112x112xf32>
}}
"""
_MATVEC_THEN = """func.func @main_graph(%x: tensor<256x1xf32>, %w: tensor<16x256xf32>) -> tensor<1x16x1x1xf32> {{
  %r = flow.dispatch.region -> (tensor<1x16x1x1xf32>) {{
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x1xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x1xf32>) -> tensor<16x1xf32>
    %m = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%x, %w : tensor<256x1xf32>, tensor<16x256xf32>) outs(%f : tensor<16x1xf32>) {{
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %o, %p : f32
      linalg.yield %t : f32
    }} -> tensor<16x1xf32>
{tail}
  }}
  return %r : tensor<1x16x1x1xf32>
}}
"""
_SQUARE = """^bb0(%a: f32, %o: f32):
      %q = arith.mulf %a, %a : f32
      linalg.yield %q : f32
    }"""
MATVEC_THROUGH_UNIT_EXPAND = _MATVEC_THEN.format(tail=f"""    %x4 = tensor.expand_shape %m [[0, 1], [2, 3]] output_shape [1, 16, 1, 1] : tensor<16x1xf32> into tensor<1x16x1x1xf32>
    %e4 = tensor.empty() : tensor<1x16x1x1xf32>
    %g = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%x4 : tensor<1x16x1x1xf32>) outs(%e4 : tensor<1x16x1x1xf32>) {{
    {_SQUARE} -> tensor<1x16x1x1xf32>
    flow.return %g : tensor<1x16x1x1xf32>""")
MATVEC_EPILOGUE_FLAT = _MATVEC_THEN.format(tail=f"""    %g = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%m : tensor<16x1xf32>) outs(%e : tensor<16x1xf32>) {{
    {_SQUARE} -> tensor<16x1xf32>
    %x4 = tensor.expand_shape %g [[0, 1], [2, 3]] output_shape [1, 16, 1, 1] : tensor<16x1xf32> into tensor<1x16x1x1xf32>
    flow.return %x4 : tensor<1x16x1x1xf32>""")
UNIT_READS_IN_CONV_EPILOGUE = _CONV_THEN_SCALE.format(scale="tensor<1x1x1x1xf32>", read="(0, 0, 0, 0)")
RANK_0_READ_IN_CONV_EPILOGUE = _CONV_THEN_SCALE.format(scale="tensor<f32>", read="()")

CASES = {
    "two_transposes_across_unfold": TWO_TRANSPOSES_ACROSS_UNFOLD,
    "one_transpose_of_unfold": ONE_TRANSPOSE_OF_UNFOLD,
    "config_over_strided_collapse": CONFIG_OVER_STRIDED_COLLAPSE,
    "strided_collapse_without_config": STRIDED_COLLAPSE_WITHOUT_CONFIG,
    "attention_then_unit_expand": ATTENTION_THEN_UNIT_EXPAND,
    "attention_then_epilogue": ATTENTION_THEN_EPILOGUE,
    "contraction_stored_twice_through_split": CONTRACTION_STORED_TWICE_THROUGH_SPLIT,
    "reduction_kept_dim_broadcast": REDUCTION_KEPT_DIM_BROADCAST,
    "reduction_broadcast": REDUCTION_BROADCAST,
    "unit_reads_in_conv_epilogue": UNIT_READS_IN_CONV_EPILOGUE,
    "rank_0_read_in_conv_epilogue": RANK_0_READ_IN_CONV_EPILOGUE,
    "matvec_through_unit_expand": MATVEC_THROUGH_UNIT_EXPAND,
    "matvec_epilogue_flat": MATVEC_EPILOGUE_FLAT,
}
_IM2COL_ROW = """func.func @main_graph(%x: tensor<16x1x{width}xf32>, %w: tensor<16x{taps}xf32>) -> tensor<16x{pixels}xf32> {{
  %pos = tensor.empty() : tensor<16x1x{width}xf32>
  %ramp = linalg.generic {{indexing_maps = [affine_map<(c, h, w) -> (c, h, w)>, affine_map<(c, h, w) -> (c, h, w)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%x : tensor<16x1x{width}xf32>) outs(%pos : tensor<16x1x{width}xf32>) {{
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 2 : index
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %m = arith.mulf %v, %f : f32
    linalg.yield %m : f32
  }} -> tensor<16x1x{width}xf32>
  %r = flow.dispatch.region -> (tensor<16x{pixels}xf32>) {{
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<{taps}x{pixels}xf32>
    %o = tensor.empty() : tensor<16x{pixels}xf32>
    %acc = linalg.fill ins(%z : f32) outs(%o : tensor<16x{pixels}xf32>) -> tensor<16x{pixels}xf32>
    %p = iree_linalg_ext.im2col strides = [1, {stride}] dilations = [1, 1] kernel_size = [1, {kernel}] offsets = [0, 0] output_sizes = [[1, {pixels}], [16, 1, {kernel}]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] ins(%ramp : tensor<16x1x{width}xf32>) outs(%e : tensor<{taps}x{pixels}xf32>) -> tensor<{taps}x{pixels}xf32>
    %mm = linalg.matmul ins(%w, %p : tensor<16x{taps}xf32>, tensor<{taps}x{pixels}xf32>) outs(%acc : tensor<16x{pixels}xf32>) -> tensor<16x{pixels}xf32>
    flow.return %mm : tensor<16x{pixels}xf32>
  }}
  return %r : tensor<16x{pixels}xf32>
}}
"""


def im2col_row(kernel: int, stride: int, pixels: int) -> tuple[str, list[tuple[int, ...]], np.ndarray]:
    """A 1-D conv as a unit-height 2-D one through the im2col op: 16 channels of the ramp
    0, 1, 2, ... (each image position times ones), 16 filters of ones: output pixel p is
    16 x the sum of positions p * stride .. p * stride + kernel - 1."""
    width = (pixels - 1) * stride + kernel
    text = _IM2COL_ROW.format(width=width, taps=16 * kernel, pixels=pixels, kernel=kernel, stride=stride)
    starts = np.arange(pixels) * stride
    want = 16.0 * (kernel * starts + kernel * (kernel - 1) / 2)
    return text, [(16, 1, width), (16, 16 * kernel)], np.broadcast_to(want, (16, pixels)).astype(np.float32)


# A 3136 x 32 . 32 x 128 matmul of ones is 32 everywhere.
RUN_CASES = {
    "transposed_matmul_into_padded": (TRANSPOSED_MATMUL_INTO_PADDED, [(3136, 32), (32, 128)],
                                      _border((1, 128, 58, 58), 32)),
    "im2col_unit_height_disjoint_windows": im2col_row(kernel=2, stride=2, pixels=32),
    "im2col_unit_height_overlapping_windows": im2col_row(kernel=4, stride=2, pixels=64),
}


_HEAD_SPLIT = """func.func @main_graph(%x: tensor<1x197x1x384xf32>) -> tensor<1x6x197x64xf32> {{
  %r = flow.dispatch.region -> (tensor<1x6x197x64xf32>) {{
    %e0 = tensor.empty() : tensor<{produced}xf32>
    %q = linalg.generic {{indexing_maps = [affine_map<{read}>, affine_map<{write}>], iterator_types = [{loops}]}} ins(%x : tensor<1x197x1x384xf32>) outs(%e0 : tensor<{produced}xf32>) {{
    ^bb0(%a: f32, %b: f32):
      %s = arith.constant 0.0339277908 : f32
      %d = arith.divf %a, %s : f32
      %rr = math.roundeven %d : f32
      linalg.yield %rr : f32
    }} -> tensor<{produced}xf32>
{split}
    %e1 = tensor.empty() : tensor<1x6x197x64xf32>
    %t = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%h : tensor<197x6x64xf32>) outs(%e1 : tensor<1x6x197x64xf32>) {{
    ^bb0(%a: f32, %b: f32):
      %s = arith.constant 0.0339277908 : f32
      %m = arith.mulf %a, %s : f32
      linalg.yield %m : f32
    }} -> tensor<1x6x197x64xf32>
    flow.return %t : tensor<1x6x197x64xf32>
  }}
  return %r : tensor<1x6x197x64xf32>
}}
"""
TRANSPOSE_THROUGH_UNIT_COLLAPSE_SPLIT = _HEAD_SPLIT.format(
    produced="197x1x384", read="(d0, d1, d2) -> (0, d0, d1, d2)", write="(d0, d1, d2) -> (d0, d1, d2)",
    loops='"parallel", "parallel", "parallel"',
    split="""    %c = tensor.collapse_shape %q [[0], [1, 2]] : tensor<197x1x384xf32> into tensor<197x384xf32>
    %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [197, 6, 64] : tensor<197x384xf32> into tensor<197x6x64xf32>""")
TRANSPOSE_THROUGH_SPLIT = _HEAD_SPLIT.format(
    produced="197x384", read="(d0, d1) -> (0, d0, 0, d1)", write="(d0, d1) -> (d0, d1)",
    loops='"parallel", "parallel"',
    split="""    %h = tensor.expand_shape %q [[0], [1, 2]] output_shape [197, 6, 64] : tensor<197x384xf32> into tensor<197x6x64xf32>""")

CUDA_CASES = {
    "transpose_through_unit_collapse_split": TRANSPOSE_THROUGH_UNIT_COLLAPSE_SPLIT,
    "transpose_through_split": TRANSPOSE_THROUGH_SPLIT,
}
