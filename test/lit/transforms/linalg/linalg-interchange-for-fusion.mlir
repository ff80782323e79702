// RUN: fusion-opt %s --split-input-file -p linalg-interchange-for-fusion 2>&1 | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-interchange-for-fusion,form-dispatch-regions | filecheck %s --check-prefix=FUSED

// The IREE issue #8951 case: a consumer reads the matmul result transposed. Interchanging its loops
// moves the transpose to the output map, so the consumer now fuses with the matmul.

// CHECK-LABEL: func.func @transposed_consumer
// CHECK:       %[[MM:.*]] = linalg.matmul
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>]
// CHECK-SAME:    ins(%[[MM]], %{{.*}} : tensor<8x32xf32>, tensor<32x8xf32>)
// FUSED-LABEL: func.func @transposed_consumer
// FUSED:       flow.dispatch.region -> (tensor<32x8xf32>)
// FUSED:         linalg.matmul
// FUSED:         linalg.generic
// FUSED:         flow.return
// FUSED-NEXT:  }
// FUSED-NEXT:  func.return
func.func @transposed_consumer(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x8xf32>) -> tensor<32x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %et = tensor.empty() : tensor<32x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %c : tensor<8x32xf32>, tensor<32x8xf32>) outs(%et : tensor<32x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<32x8xf32>
  func.return %t : tensor<32x8xf32>
}

// -----

// A linalg.index in the payload follows its loop to the new position.

// CHECK-LABEL: func.func @index_follows_loop
// CHECK:       iterator_types = ["parallel", "parallel"]
// CHECK:       linalg.index 1 : index
func.func @index_follows_loop(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<32x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %et = tensor.empty() : tensor<32x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%et : tensor<32x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %s = arith.addf %x, %fi : f32
    linalg.yield %s : f32
  } -> tensor<32x8xf32>
  func.return %t : tensor<32x8xf32>
}

// -----

// Refusal: the matmul result has a second use, so interchanging would not make it fusable.

// CHECK:       remark: linalg-interchange-for-fusion: not interchanged: the linalg.matmul result has 2 uses
// CHECK-LABEL: func.func @multi_use_refused
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// FUSED-LABEL: func.func @multi_use_refused
// FUSED-COUNT-2: flow.dispatch.region
func.func @multi_use_refused(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> (tensor<32x8xf32>, tensor<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %et = tensor.empty() : tensor<32x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%et : tensor<32x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<32x8xf32>
  func.return %t, %m : tensor<32x8xf32>, tensor<8x32xf32>
}

// -----

// Already normalized (identity read): left alone, no remark.

// CHECK-NOT:   remark
// CHECK-LABEL: func.func @identity_untouched
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
func.func @identity_untouched(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  func.return %t : tensor<8x32xf32>
}

// -----

// Reduction loops move innermost.

// CHECK-LABEL: func.func @reduction_innermost
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
func.func @reduction_innermost(%x: tensor<8x4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<8x4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
