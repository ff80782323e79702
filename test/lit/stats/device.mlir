// RUN: fusion-stats --device h100 %s | filecheck %s
// RUN: fusion-stats --device h100 --json %s | filecheck %s --check-prefix=JSON
// RUN: not fusion-stats --device tpu %s 2>&1 | filecheck %s --check-prefix=BAD
// The roofline estimate per kernel: launch + max(flops / peak, bytes / bandwidth). With the
// published H100 profile (5 us launch, 67 TFLOP/s, 3.35 TB/s) this tiny region (64 FLOPs,
// 128 B read + 128 B written) costs 5 us + 256 B / 3.35 TB/s = 5.0000764 us.

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: @f
// CHECK:        flops {{ *}}64
// CHECK:        est_time_us {{ *}}5.000   (device h100, roofline per kernel)
// CHECK-NEXT:   # kind {{ *}}work {{ *}}root {{ *}}shape {{ *}}flops {{ *}}bytes {{ *}}est_us
// CHECK-NEXT:   0 dispatch elementwise linalg.generic {{ *}}4x8 {{ *}}64 {{ *}}256 {{ *}}5.000

// JSON:      "flops": 64,
// JSON:      "bytes_moved": 256,
// JSON:      "est_time_us": 5.0,
// JSON:      "per_kernel": [
// JSON:          "kind": "dispatch",
// JSON-NEXT:     "root": "linalg.generic",
// JSON-NEXT:     "work": "elementwise",
// JSON-NEXT:     "shape": "4x8",
// JSON-NEXT:     "flops": 64,
// JSON-NEXT:     "bytes": 256,
// JSON-NEXT:     "est_time_us": 5.0
// JSON:      "device": "h100"

// BAD: invalid choice: 'tpu'
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = flow.dispatch.region -> (tensor<4x8xf32>) {
    %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      %n = arith.negf %v : f32
      linalg.yield %n : f32
    } -> tensor<4x8xf32>
    flow.return %x : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
