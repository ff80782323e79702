// RUN: fusion-stats %s | filecheck %s
// RUN: fusion-stats --json %s | filecheck %s --check-prefix=JSON
// RUN: cat %s | fusion-stats - | filecheck %s

// A 4x8x16 matmul (flops 2*4*8*16 = 1024) whose zero fill only initialises the accumulator
// (free), then two chained elementwise generics: 3 kernels; the intermediate %b is written by
// one kernel and read by the next, so it is counted twice in bytes_moved.

// CHECK-LABEL: @mm
// CHECK-NEXT:   kernels {{ *}}1   (dispatches 0 + unfused compute ops 1)
// CHECK-NEXT:   copies {{ *}}0
// CHECK-NEXT:   flops {{ *}}1024
// a 4x16 + b 16x8 + result 4x8, f32 = (64 + 128 + 32) * 4
// CHECK-NEXT:   bytes_moved {{ *}}896
// CHECK-NEXT:   bytes_min {{ *}}896
func.func @mm(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// CHECK-LABEL: @chain
// CHECK-NEXT:   kernels {{ *}}2   (dispatches 0 + unfused compute ops 2)
// CHECK-NEXT:   copies {{ *}}0
// 32 points x 1 op, twice
// CHECK-NEXT:   flops {{ *}}64
// read a, write b, read b, write c: 4 * 32 * 4 bytes
// CHECK-NEXT:   bytes_moved {{ *}}512 {{.*}} 2.00x bytes_min
// CHECK-NEXT:   bytes_min {{ *}}256
// CHECK-NEXT:   ops {{ *}}10   (linalg.generic 2, linalg.yield 2, arith.negf 1, func.return 1, math.exp 1, tensor.collapse_shape 1, tensor.empty 1, tensor.expand_shape 1)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  // Reshapes are views: free, and %bb is the same buffer as %b.
  %flat = tensor.collapse_shape %b [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %bb = tensor.expand_shape %flat [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%bb : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// CHECK-LABEL: total
// CHECK-NEXT:   kernels {{ *}}3   (dispatches 0 + unfused compute ops 3)
// CHECK:        flops {{ *}}1088

// JSON:      "functions": {
// JSON-NEXT:   "mm": {
// JSON-NEXT:     "dispatches": 0,
// JSON-NEXT:     "copies": 0,
// JSON-NEXT:     "unfused_compute_ops": 1,
// JSON-NEXT:     "kernels": 1,
// JSON-NEXT:     "flops": 1024,
// JSON-NEXT:     "bytes_moved": 896,
// JSON-NEXT:     "bytes_min": 896,
// JSON-NEXT:     "ops": {
// JSON:            "linalg.matmul": 1,
// JSON:        "total": {
// JSON:          "kernels": 3,
// JSON:          "flops": 1088,
// JSON:          "bytes_moved": 1408,
// JSON:          "linalg.generic": 2,
