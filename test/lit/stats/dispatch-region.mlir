// RUN: fusion-stats %s | filecheck %s
// The same exp -> neg chain, fused into one dispatch region and unfused: fusion halves the
// kernels and removes the intermediate's write and read from bytes_moved (512 -> 256 bytes).

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: @fused
// CHECK-NEXT:   kernels {{ *}}1   (dispatches 1 + unfused compute ops 0)
// CHECK-NEXT:   copies {{ *}}0
// CHECK-NEXT:   flops {{ *}}64
// CHECK-NEXT:   bytes_moved {{ *}}256 {{.*}} 1.00x bytes_min
func.func @fused(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
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
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: @unfused
// CHECK-NEXT:   kernels {{ *}}2   (dispatches 0 + unfused compute ops 2)
// CHECK-NEXT:   copies {{ *}}0
// CHECK-NEXT:   flops {{ *}}64
// CHECK-NEXT:   bytes_moved {{ *}}512 {{.*}} 2.00x bytes_min
func.func @unfused(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
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
  return %y : tensor<4x8xf32>
}
