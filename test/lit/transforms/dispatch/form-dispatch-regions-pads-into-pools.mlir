// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{pads-into-pools=64}" | filecheck %s
// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s --check-prefix=OFF
// The pass's helper modules these cases exercise: dispatch/padded_pools.py, dispatch/padded_gathers.py
// (pull_pads_into).

// An Inception block's pool branch: a stride-1 3x3 max pool (8x8 outputs) reads the -inf pad of
// the previous max pool's result, which is returned too (its region cannot also store it
// padded). The pad joins the second pool's region: no copy dispatch.
// CHECK-LABEL: func.func @pool_of_pool
// CHECK:         %[[A:.*]] = flow.dispatch.region -> (tensor<1x8x8x8xf32>)
// CHECK:           linalg.pooling_nchw_max {{.*}} strides = dense<2>
// CHECK:         flow.dispatch.region -> (tensor<1x8x8x8xf32>)
// CHECK:           %[[P:.*]] = tensor.pad %[[A]] low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK:           linalg.pooling_nchw_max {{.*}} ins(%[[P]],
// OFF-LABEL:   func.func @pool_of_pool
// OFF:           flow.return
// OFF:         tensor.pad
// OFF:         flow.dispatch.region
func.func @pool_of_pool(%x: tensor<1x8x16x16xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) {
  %neutral = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<1x8x8x8xf32>
  %sf = linalg.fill ins(%neutral : f32) outs(%se : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %sk = tensor.empty() : tensor<2x2xf32>
  %src = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %sk : tensor<1x8x16x16xf32>, tensor<2x2xf32>) outs(%sf : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %p = tensor.pad %src low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %neutral : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x11x11xf32>
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%neutral : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x8x11x11xf32>, tensor<3x3xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  func.return %src, %r : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>
}

// -----

// The same with a sum pool (an average pool before its division) and zero padding.
// CHECK-LABEL: func.func @sum_pool_of_pool
// CHECK:         flow.dispatch.region
// CHECK:         flow.dispatch.region
// CHECK:           tensor.pad
// CHECK:           linalg.pooling_nchw_sum
// OFF-LABEL:   func.func @sum_pool_of_pool
func.func @sum_pool_of_pool(%x: tensor<1x4x12x12xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %neutral = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<1x4x6x6xf32>
  %sf = linalg.fill ins(%neutral : f32) outs(%se : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sk = tensor.empty() : tensor<2x2xf32>
  %src = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %sk : tensor<1x4x12x12xf32>, tensor<2x2xf32>) outs(%sf : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %p = tensor.pad %src low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %neutral : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%neutral : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x8x8xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  func.return %src, %r : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}

// -----

// Negative: 16x16 outputs (stride-1 pools of 14x14 and more measured 1.2x-1.4x slower with
// the pad inside): the pad stays a copy.
// CHECK-LABEL: func.func @larger_pool
// CHECK:         flow.return
// CHECK:         tensor.pad
// CHECK:         flow.dispatch.region
// CHECK-NOT:       tensor.pad
func.func @larger_pool(%x: tensor<1x4x32x32xf32>) -> (tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>) {
  %neutral = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<1x4x16x16xf32>
  %sf = linalg.fill ins(%neutral : f32) outs(%se : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %sk = tensor.empty() : tensor<2x2xf32>
  %src = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %sk : tensor<1x4x32x32xf32>, tensor<2x2xf32>) outs(%sf : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %p = tensor.pad %src low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %neutral : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %e = tensor.empty() : tensor<1x4x16x16xf32>
  %f = linalg.fill ins(%neutral : f32) outs(%e : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x18x18xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  func.return %src, %r : tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>
}

// -----

// Negative: the pad's source is no pool (an elementwise op): its producer's region writes such
// pads (padded-results), not the pool's.
// CHECK-LABEL: func.func @pad_of_other_producer
// CHECK:         flow.return
// CHECK:         tensor.pad
// CHECK:         flow.dispatch.region
// CHECK-NOT:       tensor.pad
func.func @pad_of_other_producer(%x: tensor<1x4x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  %neutral = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<1x4x8x8xf32>
  %src = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x8x8xf32>) outs(%se : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x8x8xf32>
  %p = tensor.pad %src low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %neutral : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%neutral : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x10x10xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  func.return %src, %r : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}

// -----

// Negative: the padded tensor is returned too, so it is needed on its own.
// CHECK-LABEL: func.func @pad_read_twice
// CHECK:         flow.return
// CHECK:         tensor.pad
// CHECK:         flow.dispatch.region
// CHECK-NOT:       tensor.pad
func.func @pad_read_twice(%x: tensor<1x4x16x16xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x10x10xf32>) {
  %neutral = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<1x4x8x8xf32>
  %sf = linalg.fill ins(%neutral : f32) outs(%se : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %sk = tensor.empty() : tensor<2x2xf32>
  %src = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %sk : tensor<1x4x16x16xf32>, tensor<2x2xf32>) outs(%sf : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p = tensor.pad %src low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %neutral : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%neutral : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x10x10xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  func.return %src, %r, %p : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x10x10xf32>
}

// -----

// googlenet's Inception blocks: the pad of a concat that the next block's 1x1 conv reads too
// (padded-concats takes only a concat its pad alone reads) joins the pool branch's region.
// CHECK-LABEL: func.func @pad_of_shared_concat
// CHECK:         flow.tensor.update
// CHECK:         %[[C:.*]] = flow.tensor.update
// CHECK-NOT:     tensor.pad
// CHECK:         flow.dispatch.region
// CHECK:           tensor.pad %[[C]] low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK:           linalg.pooling_nchw_max
// OFF-LABEL: func.func @pad_of_shared_concat
// OFF:           tensor.pad
// OFF:           flow.dispatch.region
// OFF-NOT:         tensor.pad
func.func @pad_of_shared_concat(%a: tensor<1x4x4x4xf32>, %b: tensor<1x4x4x4xf32>, %w: tensor<6x8x1x1xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x6x4x4xf32>) {
  %neutral = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<1x4x4x4xf32>
  %na = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x4x4x4xf32>) outs(%ea : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %nb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<1x4x4x4xf32>) outs(%ea : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %cat = tensor.concat dim(1) %na, %nb : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x8x4x4xf32>
  %p = tensor.pad %cat low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %neutral : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x7x7xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%neutral : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x8x7x7xf32>, tensor<3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %ce = tensor.empty() : tensor<1x6x4x4xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%cat, %w : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) outs(%cf : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  func.return %r, %c : tensor<1x8x4x4xf32>, tensor<1x6x4x4xf32>
}

// -----

// Negative: a concat only its pad reads is left to padded-concats (its parts' regions write
// it); without that option its pad stays a copy.
// CHECK-LABEL: func.func @pad_of_unshared_concat
// OFF-LABEL: func.func @pad_of_unshared_concat
// CHECK:         tensor.pad
// CHECK:         flow.dispatch.region
// CHECK-NOT:       tensor.pad
func.func @pad_of_unshared_concat(%a: tensor<1x4x4x4xf32>, %b: tensor<1x4x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %neutral = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<1x4x4x4xf32>
  %na = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x4x4x4xf32>) outs(%ea : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %cat = tensor.concat dim(1) %na, %b : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x8x4x4xf32>
  %p = tensor.pad %cat low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %neutral : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x7x7xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%neutral : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x8x7x7xf32>, tensor<3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %r : tensor<1x8x4x4xf32>
}
