// RUN: fusion-opt %s --split-input-file -p linalg-shrink-broadcast-generics | filecheck %s

// bert's attention mask after elementwise fusion: a gather (index arithmetic on a constant, then
// tensor.extract) written once per query row. It is computed once over the key loop, and the
// consumer broadcasts it through its own map.

// CHECK-LABEL: func.func @gather_broadcast_over_rows
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK:       %[[M:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (0, d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-SAME:    outs(%[[E]] : tensor<8xf32>)
// CHECK:         tensor.extract %{{.*}}[%{{.*}}] : tensor<8xi1>
// CHECK:       } -> tensor<8xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:    ins(%{{.*}}, %[[M]] : tensor<2x4x8xf32>, tensor<8xf32>)
func.func @gather_broadcast_over_rows(%scores: tensor<2x4x8xf32>, %ids: tensor<1x8xi64>, %keep: tensor<8xi1>) -> tensor<2x4x8xf32> {
  %e = tensor.empty() : tensor<1x4x8xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x8xi64>) outs(%e : tensor<1x4x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %k = tensor.extract %keep[%i] : tensor<8xi1>
    %zero = arith.constant 0.0 : f32
    %low = arith.constant -3.40282347e+38 : f32
    %v = arith.select %k, %zero, %low : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  %e2 = tensor.empty() : tensor<2x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores, %mask : tensor<2x4x8xf32>, tensor<1x4x8xf32>) outs(%e2 : tensor<2x4x8xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %a = arith.addf %s, %m : f32
    linalg.yield %a : f32
  } -> tensor<2x4x8xf32>
  func.return %r : tensor<2x4x8xf32>
}

// -----

// A linalg.index of a kept loop is renumbered with it; the broadcast loop (d0) goes.

// CHECK-LABEL: func.func @index_of_kept_loop
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK:         linalg.index 0 : index
// CHECK:       } -> tensor<8xf32>
// CHECK:       affine_map<(d0, d1) -> (d1)>
func.func @index_of_kept_loop(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    linalg.yield %jf : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %iota : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// Negative: the broadcast result is returned (no consumer map to carry the broadcast).

// CHECK-LABEL: func.func @returned_result_stays
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:       } -> tensor<4x8xf32>
func.func @returned_result_stays(%v: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  func.return %b : tensor<4x8xf32>
}

// -----

// Negative: the value depends on every loop (plain elementwise).

// CHECK-LABEL: func.func @depends_on_every_loop
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:       } -> tensor<4x8xf32>
func.func @depends_on_every_loop(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// Negative: the payload reads its init (accumulates into it), so the init's every element matters.

// CHECK-LABEL: func.func @reads_init_stays
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:       } -> tensor<4x8xf32>
func.func @reads_init_stays(%v: tensor<8xf32>, %init: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<8xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// Negative: the only consumer reduces over the broadcast loop, which no other map names (the
// shrunk read would leave that loop without an extent: MLIR's non-invertible maps).

// CHECK-LABEL: func.func @reduced_over_broadcast_loop_stays
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>]
// CHECK:       } -> tensor<5xf32>
func.func @reduced_over_broadcast_loop_stays(%v: tensor<1xf32>, %init: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<5xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%b : tensor<5xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// A broadcast over a dynamic dim (rows at a symbolic sequence length) is shrunk like a static
// one: the smaller result is static.
// CHECK-LABEL: func.func @dynamic_broadcast_dropped
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK:       %[[B:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]{{.*}} outs(%[[E]] : tensor<8xf32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%{{.*}}, %[[B]] : tensor<?x8xf32>, tensor<8xf32>)
func.func @dynamic_broadcast_dropped(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %bb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.exp %v : f32
    linalg.yield %t : f32
  } -> tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %bb : tensor<?x8xf32>, tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  func.return %r : tensor<?x8xf32>
}

// -----

// Negative: a broadcast whose kept dim is dynamic stays (its smaller result's tensor.empty would
// need a size the generic does not carry).
// CHECK-LABEL: func.func @dynamic_kept_dim_stays
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:    outs(%{{.*}} : tensor<?x8xf32>)
func.func @dynamic_kept_dim_stays(%x: tensor<?x8xf32>, %b: tensor<?xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %bb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<?xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.exp %v : f32
    linalg.yield %t : f32
  } -> tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %bb : tensor<?x8xf32>, tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  func.return %r : tensor<?x8xf32>
}
