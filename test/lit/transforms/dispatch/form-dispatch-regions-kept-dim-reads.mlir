// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s

// A root's result read at a constant index (its kept unit dim) while the consumer broadcasts
// it over a loop of extent > 1: IREE 3.13 tiles the reduction but not the consumer and fails
// to build the region (bench/iree_limits_found.py, `reduction_kept_dim_broadcast`; FocalNet's
// context mean). The consumer starts a dispatch of its own.
// CHECK-LABEL: func.func @kept_dim_mean_broadcast
// CHECK:         %[[SUM:.*]] = flow.dispatch.region -> (tensor<96x1xf32>) {
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<96x56xf32>) {
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %[[SUM]] :
// CHECK:           flow.return
func.func @kept_dim_mean_broadcast(%x: tensor<96x56xf32>, %y: tensor<96x56xf32>) -> tensor<96x56xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<96x1xf32>) -> tensor<96x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<96x56xf32>) outs(%f : tensor<96x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %b, %a : f32
    linalg.yield %c : f32
  } -> tensor<96x1xf32>
  %e2 = tensor.empty() : tensor<96x56xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %s : tensor<96x56xf32>, tensor<96x1xf32>) outs(%e2 : tensor<96x56xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.addf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<96x56xf32>
  func.return %o : tensor<96x56xf32>
}

// -----

// Negative: the same mean without its unit dim, broadcast through `(d0, d1) -> (d0)`: one
// dispatch (IREE builds it: `reduction_broadcast`).
// CHECK-LABEL: func.func @mean_broadcast
// CHECK:         flow.dispatch.region -> (tensor<96x56xf32>) {
// CHECK:           iterator_types = ["parallel", "reduction"]
// CHECK:           iterator_types = ["parallel", "parallel"]
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @mean_broadcast(%x: tensor<96x56xf32>, %y: tensor<96x56xf32>) -> tensor<96x56xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<96xf32>) -> tensor<96xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<96x56xf32>) outs(%f : tensor<96xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %b, %a : f32
    linalg.yield %c : f32
  } -> tensor<96xf32>
  %e2 = tensor.empty() : tensor<96x56xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %s : tensor<96x56xf32>, tensor<96xf32>) outs(%e2 : tensor<96x56xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.addf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<96x56xf32>
  func.return %o : tensor<96x56xf32>
}

// -----

// Negative: a constant index read without a broadcast (the consumer's loops are the kept
// shape, [96, 1]): one dispatch.
// CHECK-LABEL: func.func @kept_dim_mean_scaled
// CHECK:         flow.dispatch.region -> (tensor<96x1xf32>) {
// CHECK:           iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           iterator_types = ["parallel", "parallel"]
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @kept_dim_mean_scaled(%x: tensor<96x56xf32>) -> tensor<96x1xf32> {
  %z = arith.constant 0.0 : f32
  %k = arith.constant 0.0178571437 : f32
  %e = tensor.empty() : tensor<96x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<96x1xf32>) -> tensor<96x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<96x56xf32>) outs(%f : tensor<96x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %b, %a : f32
    linalg.yield %c : f32
  } -> tensor<96x1xf32>
  %e2 = tensor.empty() : tensor<96x1xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<96x1xf32>) outs(%e2 : tensor<96x1xf32>) {
  ^bb0(%a: f32, %c: f32):
    %d = arith.mulf %a, %k : f32
    linalg.yield %d : f32
  } -> tensor<96x1xf32>
  func.return %o : tensor<96x1xf32>
}

// -----

// Negative: a one-element result (ConvNeXt V2's GRN: the mean of the pixels' norms over the
// channels) read at constant indices by every element: IREE does not tile such a root and
// builds the region, so the consumer stays in it.
// CHECK-LABEL: func.func @scalar_mean_broadcast
// CHECK:         flow.dispatch.region -> (tensor<1x56x96xf32>) {
// CHECK:           iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @scalar_mean_broadcast(%x: tensor<1x1x96xf32>, %y: tensor<1x56x96xf32>) -> tensor<1x56x96xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x1x96xf32>) outs(%f : tensor<1x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %b, %a : f32
    linalg.yield %c : f32
  } -> tensor<1x1xf32>
  %e2 = tensor.empty() : tensor<1x56x96xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y, %s : tensor<1x56x96xf32>, tensor<1x1xf32>) outs(%e2 : tensor<1x56x96xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<1x56x96xf32>
  func.return %o : tensor<1x56x96xf32>
}
