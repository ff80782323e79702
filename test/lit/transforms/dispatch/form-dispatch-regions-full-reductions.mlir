// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{full-reduction-consumers=false}" | filecheck %s --check-prefix=ALONE
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{full-reduction-consumers=false}" | iree-opt --split-input-file > /dev/null
// The pass's helper these cases exercise: dispatch/iree_rules.py (is_full_reduction).

// A dynamically quantized activation's range: the max over every element, its scale (one
// element) and the tensor quantized with it. By default the reduction's region takes both
// (llvm-cpu builds it); with full-reduction-consumers=false (the CUDA pipeline: IREE's sm_80
// codegen cannot distribute a reduction to one element with any consumer) the reduction is a
// region alone and the scale and the quantizing op form their own.
// CHECK-LABEL: func.func @range_then_quantize
// CHECK-COUNT-1: flow.dispatch.region
// CHECK-NOT:     flow.dispatch.region
// ALONE-LABEL: func.func @range_then_quantize
// ALONE:         flow.dispatch.region -> (tensor<1xf32>) {
// ALONE:           iterator_types = ["reduction"]
// ALONE-NOT:       iterator_types = ["parallel"]
// ALONE:           flow.return
// ALONE:         flow.dispatch.region
// ALONE:           math.roundeven
func.func @range_then_quantize(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %e1 = tensor.empty() : tensor<1xf32>
  %ninf = arith.constant 0xff800000 : f32
  %f = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<1xf32>) -> tensor<1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]} ins(%x : tensor<4096xf32>) outs(%f : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %o, %a : f32
    linalg.yield %y : f32
  } -> tensor<1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m : tensor<1xf32>) outs(%e1 : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 127.0 : f32
    %y = arith.divf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<1xf32>
  %e = tensor.empty() : tensor<4096xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %s : tensor<4096xf32>, tensor<1xf32>) outs(%e : tensor<4096xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    %r = math.roundeven %d : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  func.return %q : tensor<4096xf32>
}
