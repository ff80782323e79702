// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s

// A consumer that reads a reduction's result twice, along its own rows and along its columns
// (x_i < x_j, the pairwise comparison of TopK's ranks after a max over the classes): IREE tiles
// the region along the reduction's rows, and the read along the columns then sees only the
// tile's own elements: its build computes wrong ranks without a word (RT-DETR's query selection
// picked index 0 three hundred times). Every read must walk the root's loops; here the second
// does not, so the comparison starts a dispatch of its own.
// CHECK-LABEL: func.func @reduction_read_twice
// CHECK:         %[[MAX:.*]] = flow.dispatch.region -> (tensor<1x64xf32>) {
// CHECK:           iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<1x64x64xf32>) {
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%[[MAX]], %[[MAX]] :
// CHECK:           flow.return
func.func @reduction_read_twice(%x: tensor<1x64x2xf32>) -> tensor<1x64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x64x2xf32>) outs(%f : tensor<1x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %b, %a : f32
    linalg.yield %c : f32
  } -> tensor<1x64xf32>
  %e2 = tensor.empty() : tensor<1x64x64xf32>
  %lt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %m : tensor<1x64xf32>, tensor<1x64xf32>) outs(%e2 : tensor<1x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.cmpf olt, %a, %b : f32
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %s = arith.select %c, %one, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x64x64xf32>
  return %lt : tensor<1x64x64xf32>
}

// -----

// Negative: the same value read twice along the root's own loops (x_i * x_i): one region.
// CHECK-LABEL: func.func @reduction_read_twice_in_order
// CHECK:         flow.dispatch.region -> (tensor<1x64xf32>) {
// CHECK:           iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           arith.mulf
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @reduction_read_twice_in_order(%x: tensor<1x64x2xf32>) -> tensor<1x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x64x2xf32>) outs(%f : tensor<1x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %b, %a : f32
    linalg.yield %c : f32
  } -> tensor<1x64xf32>
  %e2 = tensor.empty() : tensor<1x64xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %m : tensor<1x64xf32>, tensor<1x64xf32>) outs(%e2 : tensor<1x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.mulf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<1x64xf32>
  return %sq : tensor<1x64xf32>
}

// -----

// An elementwise producer that broadcasts two 64-vectors to their 64 x 64 pairs (64 times each
// input) joins the reduction that counts them: the pairs are never stored (IREE's own
// ElementwiseOpFusion inlines such a producer before formation).
// CHECK-LABEL: func.func @pairs_counted_in_one_region
// CHECK:         flow.dispatch.region -> (tensor<1x64xf32>) {
// CHECK:           arith.cmpf olt
// CHECK:           iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @pairs_counted_in_one_region(%m: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %e2 = tensor.empty() : tensor<1x64x64xf32>
  %lt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %m : tensor<1x64xf32>, tensor<1x64xf32>) outs(%e2 : tensor<1x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.cmpf olt, %a, %b : f32
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %s = arith.select %c, %one, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x64x64xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%lt : tensor<1x64x64xf32>) outs(%f : tensor<1x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %b, %a : f32
    linalg.yield %c : f32
  } -> tensor<1x64xf32>
  return %n : tensor<1x64xf32>
}

// -----

// Negative: an elementwise producer as large as its input (exp of the 64 x 64 scores) keeps its
// own region without `aggressive`, as in IREE's default formation.
// CHECK-LABEL: func.func @same_size_producer_stays_apart
// CHECK:         flow.dispatch.region -> (tensor<1x64x64xf32>) {
// CHECK:           math.exp
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<1x64xf32>) {
// CHECK:           iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           flow.return
func.func @same_size_producer_stays_apart(%x: tensor<1x64x64xf32>) -> tensor<1x64xf32> {
  %e2 = tensor.empty() : tensor<1x64x64xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x64x64xf32>) outs(%e2 : tensor<1x64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = math.exp %a : f32
    linalg.yield %c : f32
  } -> tensor<1x64x64xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<1x64x64xf32>) outs(%f : tensor<1x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %b, %a : f32
    linalg.yield %c : f32
  } -> tensor<1x64xf32>
  return %n : tensor<1x64xf32>
}
