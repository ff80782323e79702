// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{aggressive=true}" | filecheck %s --check-prefix=AGG
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{guards-into-attention=true}" | filecheck %s --check-prefix=GUARD
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{guards-into-attention=true}" --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// STATS-COUNT-1: (attention NaN-guard reductions formed into the attention's region) : 1
// STATS-NOT:     NaN-guard reductions

// LinalgExt roots and encoding ops in form-dispatch-regions, as in IREE's form_dispatch_regions
// and dispatch_linalg_on_tensors tests (rules: iree_rules.py; named in each case), each with the
// case where the rule must not fire next to it.

// Scatter is a root (IREE's isRootLikeOp); under aggressive fusion the producer of its updates
// joins it (IREE's interchange_producer), without aggressive it keeps its own dispatch.
// CHECK-LABEL: func.func @scatter_takes_updates_producer
// CHECK:         %[[UPD:.*]] = flow.dispatch.region
// CHECK:           linalg.generic
// CHECK:           flow.return
// CHECK:         flow.dispatch.region
// CHECK:           iree_linalg_ext.scatter {{.*}} ins(%[[UPD]],
// AGG-LABEL: func.func @scatter_takes_updates_producer
// AGG:           flow.dispatch.region -> (tensor<4x2xi32>)
// AGG:             linalg.generic
// AGG:             iree_linalg_ext.scatter
// AGG:             flow.return
// AGG-NEXT:      }
// AGG-NEXT:      func.return
func.func @scatter_takes_updates_producer(%update: tensor<2x2xi32>, %original: tensor<4x2xi32>) -> tensor<4x2xi32> {
  %indices = arith.constant dense<[[1], [3]]> : tensor<2x1xi32>
  %e = tensor.empty() : tensor<2x2xi32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%update : tensor<2x2xi32>) outs(%e : tensor<2x2xi32>) {
  ^bb0(%b0: i32, %out: i32):
    %s = arith.addi %b0, %b0 : i32
    linalg.yield %s : i32
  } -> tensor<2x2xi32>
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%0, %indices : tensor<2x2xi32>, tensor<2x1xi32>) outs(%original : tensor<4x2xi32>) {
  ^bb0(%a: i32, %b: i32):
    iree_linalg_ext.yield %a : i32
  } -> tensor<4x2xi32>
  func.return %r : tensor<4x2xi32>
}

// -----

// The original is written at data-dependent positions: its producer keeps its own dispatch
// even under aggressive fusion (IREE's no_interchange_producer_crash).
// CHECK-LABEL: func.func @scatter_original_producer_separate
// CHECK:         %[[ORIG:.*]] = flow.dispatch.region
// CHECK:           linalg.generic
// CHECK:         flow.dispatch.region
// CHECK:           iree_linalg_ext.scatter {{.*}} outs(%[[ORIG]] :
// AGG-LABEL: func.func @scatter_original_producer_separate
// AGG:           %[[ORIG:.*]] = flow.dispatch.region
// AGG:             linalg.generic
// AGG:           flow.dispatch.region
// AGG:             iree_linalg_ext.scatter {{.*}} outs(%[[ORIG]] :
func.func @scatter_original_producer_separate(%update: tensor<2x2xi32>, %original: tensor<4x2xi32>) -> tensor<4x2xi32> {
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi32>
  %e = tensor.empty() : tensor<4x2xi32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%original : tensor<4x2xi32>) outs(%e : tensor<4x2xi32>) {
  ^bb0(%b0: i32, %out: i32):
    %s = arith.addi %b0, %b0 : i32
    linalg.yield %s : i32
  } -> tensor<4x2xi32>
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%update, %indices : tensor<2x2xi32>, tensor<2x1xi32>) outs(%0 : tensor<4x2xi32>) {
  ^bb0(%a: i32, %b: i32):
    iree_linalg_ext.yield %a : i32
  } -> tensor<4x2xi32>
  func.return %r : tensor<4x2xi32>
}

// -----

// An op computing only a scatter's indices is computed in the scatter's dispatch (IREE clones
// it there: scatter_no_index_producer_fusion), with or without aggressive fusion.
// CHECK-LABEL: func.func @scatter_indices_producer_joins
// CHECK:         flow.dispatch.region -> (tensor<8x2xf16>)
// CHECK:           %[[I:.*]] = linalg.generic
// CHECK:           iree_linalg_ext.scatter {{.*}} ins(%{{.*}}, %[[I]] :
// CHECK:           flow.return
// AGG-LABEL: func.func @scatter_indices_producer_joins
// AGG:           flow.dispatch.region -> (tensor<8x2xf16>)
// AGG:             linalg.generic
// AGG:             iree_linalg_ext.scatter
func.func @scatter_indices_producer_joins(%update: tensor<3x2xf16>, %original: tensor<8x2xf16>) -> tensor<8x2xf16> {
  %idx64 = arith.constant dense<[[7], [0], [4]]> : tensor<3x1xi64>
  %e = tensor.empty() : tensor<3x1xi32>
  %i = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx64 : tensor<3x1xi64>) outs(%e : tensor<3x1xi32>) {
  ^bb0(%b0: i64, %out: i32):
    %t = arith.trunci %b0 : i64 to i32
    linalg.yield %t : i32
  } -> tensor<3x1xi32>
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%update, %i : tensor<3x2xf16>, tensor<3x1xi32>) outs(%original : tensor<8x2xf16>) {
  ^bb0(%a: f16, %b: f16):
    iree_linalg_ext.yield %a : f16
  } -> tensor<8x2xf16>
  func.return %r : tensor<8x2xf16>
}

// -----

// A sort is a root of a dispatch of its own (IREE's sort tests); its dynamic results are sized
// by its outputs.
// CHECK-LABEL: func.func @sort_alone
// CHECK:         flow.dispatch.region -> (tensor<?x8xi32>{%{{.*}}}, tensor<?x8xf32>{%{{.*}}})
// CHECK-NEXT:      iree_linalg_ext.sort
// AGG-LABEL: func.func @sort_alone
// AGG:           flow.dispatch.region
// AGG-NEXT:        iree_linalg_ext.sort
func.func @sort_alone(%k: tensor<?x8xi32>, %v: tensor<?x8xf32>) -> (tensor<?x8xi32>, tensor<?x8xf32>) {
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%k, %v : tensor<?x8xi32>, tensor<?x8xf32>) {
  ^bb0(%a: i32, %b: i32, %c: f32, %d: f32):
    %lt = arith.cmpi slt, %a, %b : i32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<?x8xi32>, tensor<?x8xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  func.return %s#0, %s#1 : tensor<?x8xi32>, tensor<?x8xf32>
}

// -----

// A truncation of a reduction's result stays in the reduction's dispatch rather than joining the
// scatter that reads it (IREE's place_truncf_in_producer_dispatch: fuseWithTruncate rounds).
// CHECK-LABEL: func.func @truncf_stays_with_reduction
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x64xbf16>)
// CHECK:           iterator_types = ["parallel", "reduction"]
// CHECK:           arith.truncf
// CHECK:         flow.dispatch.region
// CHECK:           iree_linalg_ext.scatter {{.*}} ins(%[[R]],
// AGG-LABEL: func.func @truncf_stays_with_reduction
// AGG:           %[[R:.*]] = flow.dispatch.region -> (tensor<1x64xbf16>)
// AGG:             arith.truncf
// AGG:           flow.dispatch.region
// AGG:             iree_linalg_ext.scatter {{.*}} ins(%[[R]],
func.func @truncf_stays_with_reduction(%x: tensor<64x32xf32>, %original: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %indices = arith.constant dense<[[2]]> : tensor<1x1xi32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x32xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %eb = tensor.empty() : tensor<1x64xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<64xf32>) outs(%eb : tensor<1x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %c = arith.truncf %in : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<1x64xbf16>
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%t, %indices : tensor<1x64xbf16>, tensor<1x1xi32>) outs(%original : tensor<4x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16):
    iree_linalg_ext.yield %a : bf16
  } -> tensor<4x64xbf16>
  func.return %r : tensor<4x64xbf16>
}

// -----

// set_encoding joins the dispatch of the op computing its source (IREE's set_encoding_fusion);
// the region's dynamic dims are the source's.
// CHECK-LABEL: func.func @set_encoding_joins_producer
// CHECK:         flow.dispatch.region -> (tensor<?x?xf32, #iree_encoding.testing<>>{%{{.*}}, %{{.*}}})
// CHECK:           linalg.generic
// CHECK:           %[[E:.*]] = iree_encoding.set_encoding
// CHECK:           flow.return %[[E]]
// AGG-LABEL: func.func @set_encoding_joins_producer
// AGG:           flow.dispatch.region
// AGG:             iree_encoding.set_encoding
// AGG:             flow.return
#encoding = #iree_encoding.testing<>
func.func @set_encoding_joins_producer(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32, #encoding> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %r = iree_encoding.set_encoding %a : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  func.return %r : tensor<?x?xf32, #encoding>
}

// -----

// ... but not after a transposed write (IREE's pack rule: CPU codegen cannot tile the two).
// CHECK-LABEL: func.func @set_encoding_after_transposed_write
// CHECK:         %[[T:.*]] = flow.dispatch.region
// CHECK:         iree_encoding.set_encoding %[[T]]
// AGG-LABEL: func.func @set_encoding_after_transposed_write
// AGG:           %[[T:.*]] = flow.dispatch.region
// AGG:           iree_encoding.set_encoding %[[T]]
#encoding = #iree_encoding.testing<>
func.func @set_encoding_after_transposed_write(%x: tensor<4x8xf32>) -> tensor<8x4xf32, #encoding> {
  %e = tensor.empty() : tensor<8x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.negf %p : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %r = iree_encoding.set_encoding %a : tensor<8x4xf32> -> tensor<8x4xf32, #encoding>
  func.return %r : tensor<8x4xf32, #encoding>
}

// -----

// A high-only pad feeding a set_encoding forms a dispatch with it (IREE's
// set_encoding_pad_fusion), sized by source + high.
// CHECK-LABEL: func.func @pad_and_set_encoding
// CHECK:         arith.addi
// CHECK:         flow.dispatch.region -> (tensor<?x?xf32, #iree_encoding.testing<>>{%{{.*}}, %{{.*}}})
// CHECK:           tensor.pad
// CHECK:           iree_encoding.set_encoding
// CHECK:           flow.return
// AGG-LABEL: func.func @pad_and_set_encoding
// AGG:           flow.dispatch.region
// AGG:             tensor.pad
// AGG:             iree_encoding.set_encoding
#encoding = #iree_encoding.testing<>
func.func @pad_and_set_encoding(%x: tensor<?x?xf32>) -> tensor<?x?xf32, #encoding> {
  %cst = arith.constant 0.0 : f32
  %h0 = arith.constant 3 : index
  %h1 = arith.constant 1 : index
  %p = tensor.pad %x low[0, 0] high[%h0, %h1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %r = iree_encoding.set_encoding %p : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  func.return %r : tensor<?x?xf32, #encoding>
}

// -----

// A low pad stays at top level (IREE 3.13 computes it wrongly inside a region).
// CHECK-LABEL: func.func @low_pad_and_set_encoding
// CHECK-NOT:     flow.dispatch.region
// CHECK:         tensor.pad
// CHECK:         iree_encoding.set_encoding
// AGG-LABEL: func.func @low_pad_and_set_encoding
// AGG-NOT:       flow.dispatch.region
// AGG:           func.return
#encoding = #iree_encoding.testing<>
func.func @low_pad_and_set_encoding(%x: tensor<4x4xf32>) -> tensor<6x6xf32, #encoding> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %r = iree_encoding.set_encoding %p : tensor<6x6xf32> -> tensor<6x6xf32, #encoding>
  func.return %r : tensor<6x6xf32, #encoding>
}

// -----

// unset_encoding joins its elementwise consumer's dispatch (IREE's root_on_unset_encoding).
// CHECK-LABEL: func.func @unset_encoding_joins_consumer
// CHECK:         flow.dispatch.region
// CHECK:           iree_encoding.unset_encoding
// CHECK:           linalg.generic
// CHECK:           flow.return
// AGG-LABEL: func.func @unset_encoding_joins_consumer
// AGG:           flow.dispatch.region
// AGG:             iree_encoding.unset_encoding
#encoding = #iree_encoding.testing<>
func.func @unset_encoding_joins_consumer(%x: tensor<16x8xf32, #encoding>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %u = iree_encoding.unset_encoding %x : tensor<16x8xf32, #encoding> -> tensor<16x8xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %u : tensor<8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  func.return %a : tensor<16x8xf32>
}

// -----

// ... only when every use is there: a decoded tensor also returned is decoded outside.
// CHECK-LABEL: func.func @unset_encoding_also_returned
// CHECK:         %[[U:.*]] = iree_encoding.unset_encoding
// CHECK:         flow.dispatch.region
// CHECK-NOT:       iree_encoding.unset_encoding
// CHECK:           linalg.generic
// AGG-LABEL: func.func @unset_encoding_also_returned
// AGG:           iree_encoding.unset_encoding
// AGG:           flow.dispatch.region
#encoding = #iree_encoding.testing<>
func.func @unset_encoding_also_returned(%x: tensor<16x8xf32, #encoding>, %b: tensor<8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %u = iree_encoding.unset_encoding %x : tensor<16x8xf32, #encoding> -> tensor<16x8xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %u : tensor<8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  func.return %a, %u : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// An attention root takes an elementwise epilogue that reads its output in its own loop order
// (torch's NaN guard as linalg-raise-attention places it: IREE tiles the attention along its
// output dims, so the epilogue walks the same tiles); a transposing reader starts a region of
// its own.
// CHECK-LABEL: func.func @attention_takes_epilogue
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<4x2x8xf32>)
// CHECK:           iree_linalg_ext.attention
// CHECK:           %[[G:.*]] = linalg.generic
// CHECK:             arith.cmpf une
// CHECK:           flow.return %[[G]]
// CHECK:         flow.dispatch.region -> (tensor<2x4x8xf32>)
// CHECK:           linalg.transpose
func.func @attention_takes_epilogue(%q: tensor<4x2x8xf32>, %k: tensor<4x2x8xf32>, %v: tensor<4x2x8xf32>) -> (tensor<4x2x8xf32>, tensor<2x4x8xf32>) {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x2x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>, f32) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf32>
  %zero = arith.constant 0.0 : f32
  %eg = tensor.empty() : tensor<4x2x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<4x2x8xf32>) outs(%eg : tensor<4x2x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %nan = arith.cmpf une, %in, %in : f32
    %r = arith.select %nan, %zero, %in : f32
    linalg.yield %r : f32
  } -> tensor<4x2x8xf32>
  %et = tensor.empty() : tensor<2x4x8xf32>
  %t = linalg.transpose ins(%g : tensor<4x2x8xf32>) outs(%et : tensor<2x4x8xf32>) permutation = [1, 0, 2]
  return %g, %t : tensor<4x2x8xf32>, tensor<2x4x8xf32>
}

// -----

// Negative: an epilogue behind a reshape of the attention's output, even a unit-dim expand
// (LeViT's Hardswish on its heads' outputs), does not join the attention's region: IREE 3.13
// then vectorises the epilogue whole (`attention_then_unit_expand` in
// bench/iree_limits_found.py). The attention's region ends at the attention.
// CHECK-LABEL: func.func @attention_epilogue_behind_reshape
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<4x2x8xf32>)
// CHECK:           %[[A:.*]] = iree_linalg_ext.attention
// CHECK:           flow.return %[[A]]
// CHECK:         flow.dispatch.region -> (tensor<1x4x2x8xf32>)
// CHECK:           tensor.expand_shape %[[R]]
// CHECK:           linalg.generic
// CHECK:             arith.minimumf
func.func @attention_epilogue_behind_reshape(%q: tensor<4x2x8xf32>, %k: tensor<4x2x8xf32>, %v: tensor<4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x2x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>, f32) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf32>
  %x = tensor.expand_shape %a [[0, 1], [2], [3]] output_shape [1, 4, 2, 8] : tensor<4x2x8xf32> into tensor<1x4x2x8xf32>
  %one = arith.constant 1.0 : f32
  %eg = tensor.empty() : tensor<1x4x2x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x2x8xf32>) outs(%eg : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.minimumf %in, %one : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  return %g : tensor<1x4x2x8xf32>
}

// -----

// The NaN guard of a raised attention (linalg-raise-attention's attention_guard.py) reads the
// sum over keys of 0 * V: with `guards-into-attention` (dispatch/attention_guard_regions.py)
// that reduction joins the attention's dispatch (recomputed per tile of query rows, as fast as
// its own dispatch on llvm-cpu); by default it keeps its own (IREE's sm_80 codegen fails on the
// joined region).
// GUARD-LABEL: func.func @attention_takes_guard_reduction
// GUARD:         %[[R:.*]] = flow.dispatch.region -> (tensor<4x2x8xf32>)
// GUARD:           iree_linalg_ext.attention
// GUARD:           linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// GUARD:           %[[G:.*]] = linalg.generic
// GUARD:             arith.cmpf une
// GUARD:           flow.return %[[G]]
// GUARD-NOT:     flow.dispatch.region
// GUARD:         return %[[R]]
// CHECK-LABEL: func.func @attention_takes_guard_reduction
// CHECK:         flow.dispatch.region -> (tensor<2x8xf32>)
// CHECK:         flow.dispatch.region -> (tensor<4x2x8xf32>)
// CHECK-NOT:       "reduction"
// CHECK:           iree_linalg_ext.attention
func.func @attention_takes_guard_reduction(%q: tensor<4x2x8xf32>, %k: tensor<4x2x8xf32>, %v: tensor<4x2x8xf32>) -> tensor<4x2x8xf32> {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x2x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>, f32) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf32>
  %zero = arith.constant 0.0 : f32
  %ez = tensor.empty() : tensor<2x8xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%ez : tensor<2x8xf32>) -> tensor<2x8xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v : tensor<4x2x8xf32>) outs(%fz : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %zero, %in : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  } -> tensor<2x8xf32>
  %eg = tensor.empty() : tensor<4x2x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %z : tensor<4x2x8xf32>, tensor<2x8xf32>) outs(%eg : tensor<4x2x8xf32>) {
  ^bb0(%in: f32, %zin: f32, %o: f32):
    %nan = arith.cmpf une, %in, %in : f32
    %r = arith.select %nan, %zin, %in : f32
    linalg.yield %r : f32
  } -> tensor<4x2x8xf32>
  return %g : tensor<4x2x8xf32>
}

// -----

// Negative: the reduction is also returned, so its value leaves the attention's dispatch: it
// keeps a dispatch of its own (computing it twice would be a second result either way).
// CHECK-LABEL: func.func @guard_reduction_also_returned
// CHECK:         flow.dispatch.region -> (tensor<2x8xf32>)
// CHECK:         flow.dispatch.region -> (tensor<4x2x8xf32>)
// CHECK-NOT:       iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           iree_linalg_ext.attention
// GUARD-LABEL: func.func @guard_reduction_also_returned
// GUARD:         flow.dispatch.region -> (tensor<2x8xf32>)
// GUARD:         flow.dispatch.region -> (tensor<4x2x8xf32>)
// GUARD-NOT:       iterator_types = ["parallel", "parallel", "reduction"]
// GUARD:           iree_linalg_ext.attention
func.func @guard_reduction_also_returned(%q: tensor<4x2x8xf32>, %k: tensor<4x2x8xf32>, %v: tensor<4x2x8xf32>) -> (tensor<4x2x8xf32>, tensor<2x8xf32>) {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x2x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>, f32) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf32>
  %zero = arith.constant 0.0 : f32
  %ez = tensor.empty() : tensor<2x8xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%ez : tensor<2x8xf32>) -> tensor<2x8xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v : tensor<4x2x8xf32>) outs(%fz : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %zero, %in : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  } -> tensor<2x8xf32>
  %eg = tensor.empty() : tensor<4x2x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %z : tensor<4x2x8xf32>, tensor<2x8xf32>) outs(%eg : tensor<4x2x8xf32>) {
  ^bb0(%in: f32, %zin: f32, %o: f32):
    %nan = arith.cmpf une, %in, %in : f32
    %r = arith.select %nan, %zin, %in : f32
    linalg.yield %r : f32
  } -> tensor<4x2x8xf32>
  return %g, %z : tensor<4x2x8xf32>, tensor<2x8xf32>
}

// -----

// Negative: 512 keys of a 32-wide head, 64 KB of V per head: IREE's CPU codegen would vectorise
// the reduction in the attention's region whole per head, a vector it refuses ("large vector
// sizes", 32 KB), so it keeps its own dispatch, which IREE tiles.
// GUARD-LABEL: func.func @long_guard_reduction_stays_apart
// GUARD:         flow.dispatch.region -> (tensor<2x32xf32>)
// GUARD:           iterator_types = ["parallel", "parallel", "reduction"]
// GUARD:         flow.dispatch.region -> (tensor<4x2x32xf32>)
// GUARD-NOT:       iterator_types = ["parallel", "parallel", "reduction"]
// GUARD:           iree_linalg_ext.attention
func.func @long_guard_reduction_stays_apart(%q: tensor<4x2x32xf32>, %k: tensor<512x2x32xf32>, %v: tensor<512x2x32xf32>) -> tensor<4x2x32xf32> {
  %s = arith.constant 0.17 : f32
  %e = tensor.empty() : tensor<4x2x32xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<4x2x32xf32>, tensor<512x2x32xf32>, tensor<512x2x32xf32>, f32) outs(%e : tensor<4x2x32xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x32xf32>
  %zero = arith.constant 0.0 : f32
  %ez = tensor.empty() : tensor<2x32xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%ez : tensor<2x32xf32>) -> tensor<2x32xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v : tensor<512x2x32xf32>) outs(%fz : tensor<2x32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.subf %in, %in : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  } -> tensor<2x32xf32>
  %eg = tensor.empty() : tensor<4x2x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %z : tensor<4x2x32xf32>, tensor<2x32xf32>) outs(%eg : tensor<4x2x32xf32>) {
  ^bb0(%in: f32, %zin: f32, %o: f32):
    %nan = arith.cmpf une, %in, %in : f32
    %r = arith.select %nan, %zin, %in : f32
    linalg.yield %r : f32
  } -> tensor<4x2x32xf32>
  return %g : tensor<4x2x32xf32>
}

// -----

// Negative: a reduction of another operand (here K) that the epilogue reads is not the guard's
// sum over V: it keeps its own dispatch.
// CHECK-LABEL: func.func @reduction_of_keys_stays_apart
// CHECK:         flow.dispatch.region -> (tensor<2x8xf32>)
// CHECK:         flow.dispatch.region -> (tensor<4x2x8xf32>)
// CHECK-NOT:       iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           iree_linalg_ext.attention
// GUARD-LABEL: func.func @reduction_of_keys_stays_apart
// GUARD:         flow.dispatch.region -> (tensor<2x8xf32>)
// GUARD:         flow.dispatch.region -> (tensor<4x2x8xf32>)
// GUARD-NOT:       iterator_types = ["parallel", "parallel", "reduction"]
// GUARD:           iree_linalg_ext.attention
func.func @reduction_of_keys_stays_apart(%q: tensor<4x2x8xf32>, %k: tensor<4x2x8xf32>, %v: tensor<4x2x8xf32>) -> tensor<4x2x8xf32> {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x2x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>, f32) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf32>
  %zero = arith.constant 0.0 : f32
  %ez = tensor.empty() : tensor<2x8xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%ez : tensor<2x8xf32>) -> tensor<2x8xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%k : tensor<4x2x8xf32>) outs(%fz : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %zero, %in : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  } -> tensor<2x8xf32>
  %eg = tensor.empty() : tensor<4x2x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %z : tensor<4x2x8xf32>, tensor<2x8xf32>) outs(%eg : tensor<4x2x8xf32>) {
  ^bb0(%in: f32, %zin: f32, %o: f32):
    %nan = arith.cmpf une, %in, %in : f32
    %r = arith.select %nan, %zin, %in : f32
    linalg.yield %r : f32
  } -> tensor<4x2x8xf32>
  return %g : tensor<4x2x8xf32>
}
