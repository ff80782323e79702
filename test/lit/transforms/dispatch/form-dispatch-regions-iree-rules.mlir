// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{aggressive=true}" | filecheck %s --check-prefix=AGG

// The rules of fusionopt/transforms/dispatch/iree_rules.py, each as in IREE's own
// DispatchCreation tests (named in each case), with a negative case next to it.

// Dequantization (IREE's clone_dequantization / no_dequantization_fusion): the widening
// generic gets no dispatch of its own; it is cloned into its consumer's, so the f32 weight is
// never written out.
// CHECK-LABEL: func.func @dequant_cloned_into_matmul
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           %[[W:.*]] = linalg.generic
// CHECK:             arith.sitofp
// CHECK:           linalg.matmul ins(%{{.*}}, %[[W]] :
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// AGG-LABEL: func.func @dequant_cloned_into_matmul
// AGG:           flow.dispatch.region -> (tensor<4x8xf32>) {
// AGG:             arith.sitofp
// AGG:             linalg.matmul
// AGG:             flow.return
// AGG-NEXT:      }
// AGG-NEXT:      func.return
func.func @dequant_cloned_into_matmul(%a: tensor<4x16xf32>, %q: tensor<16x8xi8>, %scale: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<16x8xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %scale : tensor<16x8xi8>, tensor<8xf32>) outs(%ew : tensor<16x8xf32>) {
  ^bb0(%x: i8, %s: f32, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    %m = arith.mulf %f, %s : f32
    linalg.yield %m : f32
  } -> tensor<16x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%a, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// Negative: a dequantization the function also returns is computed once, in a dispatch of its
// own (its consumers read the result).
// CHECK-LABEL: func.func @dequant_also_returned
// CHECK:         %[[W:.*]] = flow.dispatch.region -> (tensor<16x8xf32>) {
// CHECK:           arith.sitofp
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK-NOT:       arith.sitofp
// CHECK:           linalg.matmul ins(%{{.*}}, %[[W]] :
// CHECK:         func.return %{{.*}}, %[[W]]
func.func @dequant_also_returned(%a: tensor<4x16xf32>, %q: tensor<16x8xi8>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<16x8xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<16x8xi8>) outs(%ew : tensor<16x8xf32>) {
  ^bb0(%x: i8, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    linalg.yield %f : f32
  } -> tensor<16x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%a, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r, %w : tensor<4x8xf32>, tensor<16x8xf32>
}

// -----

// A widening cast after a matmul's epilogue stays out of the matmul's dispatch (IREE's
// no_fuse_consumer_dequantize_op); a non-widening consumer (exp) joins it (negative case below).
// CHECK-LABEL: func.func @widening_consumer_not_fused
// CHECK:         %[[T:.*]] = flow.dispatch.region -> (tensor<4x8xf16>) {
// CHECK:           linalg.matmul
// CHECK:           arith.truncf
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           arith.extf
func.func @widening_consumer_not_fused(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %eh = tensor.empty() : tensor<4x8xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x8xf32>) outs(%eh : tensor<4x8xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x8xf16>
  %x2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  func.return %x2 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @non_widening_consumer_fused
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           linalg.matmul
// CHECK:           arith.truncf
// CHECK:           math.exp
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @non_widening_consumer_fused(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %eh = tensor.empty() : tensor<4x8xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x8xf32>) outs(%eh : tensor<4x8xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x8xf16>
  %x2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    %z = math.exp %y : f32
    linalg.yield %z : f32
  } -> tensor<4x8xf32>
  func.return %x2 : tensor<4x8xf32>
}

// -----

// A generic inside scf.if gets its dispatch inside the branch (IREE's scf_nested_dispatch).
// CHECK-LABEL: func.func @generic_under_scf_if
// CHECK:         scf.if
// CHECK:           flow.dispatch.region -> (tensor<8xi32>) {
// CHECK:             arith.addi
// CHECK:           scf.yield
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %arg0
func.func @generic_under_scf_if(%arg0: tensor<8xi32>, %c: i1) -> tensor<8xi32> {
  %e = tensor.empty() : tensor<8xi32>
  %r = scf.if %c -> (tensor<8xi32>) {
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xi32>) outs(%e : tensor<8xi32>) {
    ^bb0(%x: i32, %o: i32):
      %y = arith.addi %x, %x : i32
      linalg.yield %y : i32
    } -> tensor<8xi32>
    scf.yield %g : tensor<8xi32>
  } else {
    scf.yield %arg0 : tensor<8xi32>
  }
  func.return %r : tensor<8xi32>
}

// -----

// Negative: an scf.if with no compute in it gets no dispatch.
// CHECK-LABEL: func.func @scf_if_without_compute
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
func.func @scf_if_without_compute(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>, %c: i1) -> tensor<8xi32> {
  %r = scf.if %c -> (tensor<8xi32>) {
    scf.yield %arg1 : tensor<8xi32>
  } else {
    scf.yield %arg0 : tensor<8xi32>
  }
  func.return %r : tensor<8xi32>
}

// -----

// A slice with dynamic offsets is read inside its consumer's dispatch (IREE's inline_dag_3:
// one dispatch), not copied out by a dispatch of its own.
// CHECK-LABEL: func.func @dynamic_slice_read_in_consumer
// CHECK:         flow.dispatch.region -> (tensor<9xi1>) {
// CHECK:           tensor.extract_slice %arg0[%i] [9] [1]
// CHECK:           linalg.generic
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @dynamic_slice_read_in_consumer(%arg0: tensor<18xi32>, %i: index) -> tensor<9xi1> {
  %c5 = arith.constant 5 : i32
  %s = tensor.extract_slice %arg0[%i] [9] [1] : tensor<18xi32> to tensor<9xi32>
  %e = tensor.empty() : tensor<9xi1>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<9xi32>) outs(%e : tensor<9xi1>) {
  ^bb0(%x: i32, %o: i1):
    %y = arith.cmpi eq, %x, %c5 : i32
    linalg.yield %y : i1
  } -> tensor<9xi1>
  func.return %g : tensor<9xi1>
}

// -----

// Negative: a static contiguous slice stays a flow.tensor.slice between dispatches.
// CHECK-LABEL: func.func @static_contiguous_slice_not_cloned
// CHECK:         %[[S:.*]] = flow.tensor.slice %arg0
// CHECK:         flow.dispatch.region -> (tensor<9xi1>) {
// CHECK-NOT:       tensor.extract_slice
// CHECK:           linalg.generic {{.*}} ins(%[[S]] :
func.func @static_contiguous_slice_not_cloned(%arg0: tensor<18xi32>) -> tensor<9xi1> {
  %c5 = arith.constant 5 : i32
  %s = tensor.extract_slice %arg0[4] [9] [1] : tensor<18xi32> to tensor<9xi32>
  %e = tensor.empty() : tensor<9xi1>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<9xi32>) outs(%e : tensor<9xi1>) {
  ^bb0(%x: i32, %o: i1):
    %y = arith.cmpi eq, %x, %c5 : i32
    linalg.yield %y : i1
  } -> tensor<9xi1>
  func.return %g : tensor<9xi1>
}

// -----

// A batch_mmt4d microkernel takes no elementwise consumer (IREE's no_batch_mmt4d_fusion).
// CHECK-LABEL: func.func @mmt4d_takes_no_consumer
// CHECK:         %[[M:.*]] = flow.dispatch.region -> (tensor<1x1x32x1x4xf32>) {
// CHECK:           linalg.batch_mmt4d
// CHECK:         flow.dispatch.region -> (tensor<1x1x32x1x4xf32>) {
// CHECK:           linalg.generic {{.*}} ins(%arg2, %[[M]] :
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @mmt4d_takes_no_consumer(%arg0: tensor<1x1x64x1x1xf32>, %arg1: tensor<1x32x64x4x1xf32>, %arg2: tensor<1x1x32x1x4xf32>) -> tensor<1x1x32x1x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x32x1x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1x32x1x4xf32>) -> tensor<1x1x32x1x4xf32>
  %2 = linalg.batch_mmt4d ins(%arg0, %arg1 : tensor<1x1x64x1x1xf32>, tensor<1x32x64x4x1xf32>) outs(%1 : tensor<1x1x32x1x4xf32>) -> tensor<1x1x32x1x4xf32>
  %3 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg2, %2 : tensor<1x1x32x1x4xf32>, tensor<1x1x32x1x4xf32>) outs(%0 : tensor<1x1x32x1x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %4 = arith.addf %in, %in_0 : f32
    linalg.yield %4 : f32
  } -> tensor<1x1x32x1x4xf32>
  func.return %3 : tensor<1x1x32x1x4xf32>
}

// -----

// Negative: a batch_matmul takes the same consumer.
// CHECK-LABEL: func.func @batch_matmul_takes_consumer
// CHECK:         flow.dispatch.region -> (tensor<2x4x8xf32>) {
// CHECK:           linalg.batch_matmul
// CHECK:           arith.addf
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @batch_matmul_takes_consumer(%a: tensor<2x4x16xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x4x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %2 = linalg.batch_matmul ins(%a, %b : tensor<2x4x16xf32>, tensor<2x16x8xf32>) outs(%1 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c, %2 : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%0 : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %4 = arith.addf %in, %in_0 : f32
    linalg.yield %4 : f32
  } -> tensor<2x4x8xf32>
  func.return %3 : tensor<2x4x8xf32>
}

// -----

// Aggressive: the producer of a matmul's init joins its dispatch even though the function also
// returns it; the dispatch returns both (IREE's keep_original_producer_uses). Not aggressive:
// two dispatches.
// CHECK-LABEL: func.func @init_producer_also_returned
// CHECK:         %[[CC:.*]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           linalg.matmul
// AGG-LABEL: func.func @init_producer_also_returned
// AGG:           %[[CC:.*]], %[[D:.*]] = flow.dispatch.region -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// AGG:             %[[G:.*]] = linalg.generic
// AGG:             %[[M:.*]] = linalg.matmul {{.*}} outs(%[[G]] :
// AGG:             flow.return %[[G]], %[[M]]
// AGG-NEXT:      }
// AGG-NEXT:      func.return %[[D]], %[[CC]]
func.func @init_producer_also_returned(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %f12 = arith.constant 12.0 : f32
  %cc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : tensor<4x8xf32>) {
  ^bb0(%o: f32):
    %y = arith.addf %o, %f12 : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %d = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%cc : tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %d, %cc : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: when another linalg op also reads the init producer, it keeps its own dispatch
// (no dispatch should wait on the matmul's for it).
// AGG-LABEL: func.func @init_producer_read_by_another_op
// AGG:           %[[CC:.*]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// AGG:             arith.addf
// AGG:           flow.dispatch.region
// AGG:             linalg.matmul {{.*}} outs(%[[CC]] :
func.func @init_producer_read_by_another_op(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %f12 = arith.constant 12.0 : f32
  %cc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : tensor<4x8xf32>) {
  ^bb0(%o: f32):
    %y = arith.addf %o, %f12 : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %d = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%cc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cc : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %y = math.exp %i : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  func.return %d, %x : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A layer norm whose mean is a separate row-wise op (sum, then / n over the rows alone) is one
// chain: sum, mean, variance and the normalisation share one dispatch (IREE's
// softmax_like_fusion).
// CHECK-LABEL: func.func @norm_with_row_mean
// CHECK-COUNT-1: flow.dispatch.region
// CHECK-NOT:     flow.dispatch.region
#r3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#s3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#r2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @norm_with_row_mean(%x: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#r3, #s3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x16xf32>) outs(%f : tensor<2x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %y = arith.addf %i, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %mean = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %y = arith.divf %i, %n : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %var = linalg.generic {indexing_maps = [#r3, #s3, #s3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %mean : tensor<2x4x16xf32>, tensor<2x4xf32>) outs(%f : tensor<2x4xf32>) {
  ^bb0(%i: f32, %m: f32, %o: f32):
    %d = arith.subf %i, %m : f32
    %s = arith.mulf %d, %d : f32
    %y = arith.addf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %e3 = tensor.empty() : tensor<2x4x16xf32>
  %out = linalg.generic {indexing_maps = [#r3, #s3, #s3, #r3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mean, %var : tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x16xf32>) {
  ^bb0(%i: f32, %m: f32, %v: f32, %o: f32):
    %d = arith.subf %i, %m : f32
    %q = arith.divf %v, %n : f32
    %r = math.rsqrt %q : f32
    %y = arith.mulf %d, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16xf32>
  func.return %out : tensor<2x4x16xf32>
}

// -----

// Negative: a row-wise op over other rows (here transposed, 4x2) is no link of the chain: the
// variance starts a dispatch of its own.
#r3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#s3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#r2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @norm_with_transposed_row_op
// CHECK-COUNT-2: flow.dispatch.region
#t2 = affine_map<(d0, d1) -> (d1, d0)>
#s3t = affine_map<(d0, d1, d2) -> (d1, d0)>
func.func @norm_with_transposed_row_op(%x: tensor<2x4x16xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %e2 = tensor.empty() : tensor<2x4xf32>
  %e2t = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#r3, #s3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x16xf32>) outs(%f : tensor<2x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %y = arith.addf %i, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %mean = linalg.generic {indexing_maps = [#t2, #r2], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<2x4xf32>) outs(%e2t : tensor<4x2xf32>) {
  ^bb0(%i: f32, %o: f32):
    %y = arith.divf %i, %n : f32
    linalg.yield %y : f32
  } -> tensor<4x2xf32>
  %var = linalg.generic {indexing_maps = [#r3, #s3t, #s3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %mean : tensor<2x4x16xf32>, tensor<4x2xf32>) outs(%f : tensor<2x4xf32>) {
  ^bb0(%i: f32, %m: f32, %o: f32):
    %d = arith.subf %i, %m : f32
    %s = arith.mulf %d, %d : f32
    %y = arith.addf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  func.return %var : tensor<2x4xf32>
}

// -----

// A reduction of a square ((a - b)^2, a variance) with a broadcast input is a reduction, not a
// contraction: its broadcasting consumer joins its dispatch (IREE's
// reduction_broadcast_elementwise_binary1).
#r2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @squared_difference_reduction_takes_consumer
// CHECK-COUNT-1: flow.dispatch.region
// CHECK-NOT:     flow.dispatch.region
#m1 = affine_map<(d0, d1) -> (d0)>
func.func @squared_difference_reduction_takes_consumer(%a1: tensor<128x384xf32>, %a2: tensor<128xf32>, %b: tensor<128x384xf32>) -> tensor<128x384xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %37 = tensor.empty() : tensor<128xf32>
  %38 = linalg.fill ins(%cst : f32) outs(%37 : tensor<128xf32>) -> tensor<128xf32>
  %39 = linalg.generic {indexing_maps = [#r2, #m1, #m1], iterator_types = ["parallel", "reduction"]} ins(%a1, %a2 : tensor<128x384xf32>, tensor<128xf32>) outs(%38 : tensor<128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.subf %x, %y : f32
    %s = arith.mulf %d, %d : f32
    %r = arith.addf %s, %o : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %40 = tensor.empty() : tensor<128x384xf32>
  %42 = linalg.generic {indexing_maps = [#r2, #m1, #r2], iterator_types = ["parallel", "parallel"]} ins(%b, %39 : tensor<128x384xf32>, tensor<128xf32>) outs(%40 : tensor<128x384xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<128x384xf32>
  func.return %42 : tensor<128x384xf32>
}

// -----

// Negative: a true contraction (a product of two inputs) with a consumer that broadcasts its
// result along a loop the read does not index keeps that consumer out (IREE 3.13 cannot build
// it; see fusion_groups._replicates_group_value).
#r2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @dot_reduction_keeps_broadcasting_consumer_out
// CHECK-COUNT-2: flow.dispatch.region
func.func @dot_reduction_keeps_broadcasting_consumer_out(%a1: tensor<128x384xf32>, %a2: tensor<128x384xf32>, %b: tensor<128x384xf32>) -> tensor<128x384xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %37 = tensor.empty() : tensor<128xf32>
  %38 = linalg.fill ins(%cst : f32) outs(%37 : tensor<128xf32>) -> tensor<128xf32>
  %39 = linalg.generic {indexing_maps = [#r2, #r2, #m1], iterator_types = ["parallel", "reduction"]} ins(%a1, %a2 : tensor<128x384xf32>, tensor<128x384xf32>) outs(%38 : tensor<128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    %r = arith.addf %s, %o : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %40 = tensor.empty() : tensor<128x384xf32>
  %42 = linalg.generic {indexing_maps = [#r2, #m1, #r2], iterator_types = ["parallel", "parallel"]} ins(%b, %39 : tensor<128x384xf32>, tensor<128xf32>) outs(%40 : tensor<128x384xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<128x384xf32>
  func.return %42 : tensor<128x384xf32>
}

// -----

// A pack joins the dispatch of the elementwise op producing its source (IREE's
// pack_elementwise_fusion).
// CHECK-LABEL: func.func @pack_joins_elementwise_producer
// CHECK:         flow.dispatch.region -> (tensor<2x2x8x32xf32>) {
// CHECK:           arith.addf
// CHECK:           linalg.pack
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @pack_joins_elementwise_producer(%a: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<2x2x8x32xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %d = tensor.empty() : tensor<2x2x8x32xf32>
  %p = linalg.pack %g inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %d : tensor<16x64xf32> -> tensor<2x2x8x32xf32>
  func.return %p : tensor<2x2x8x32xf32>
}

// -----

// Negative: not after an op writing its result transposed (IREE's transpose_pack_fusion: its CPU
// codegen cannot tile the transpose and the pack as one).
// CHECK-LABEL: func.func @pack_after_transpose_separate
// CHECK:         %[[T:.*]] = flow.dispatch.region -> (tensor<16x64xf32>) {
// CHECK:           linalg.generic
// CHECK:         flow.dispatch.region -> (tensor<2x2x8x32xf32>) {
// CHECK:           linalg.pack %[[T]]
func.func @pack_after_transpose_separate(%a: tensor<64x16xf32>) -> tensor<2x2x8x32xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x16xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<16x64xf32>
  %d = tensor.empty() : tensor<2x2x8x32xf32>
  %p = linalg.pack %g inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %d : tensor<16x64xf32> -> tensor<2x2x8x32xf32>
  func.return %p : tensor<2x2x8x32xf32>
}
