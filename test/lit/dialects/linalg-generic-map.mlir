// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// Multi-result linalg.generic in custom form (`} -> (T1, T2)`).

// CHECK-LABEL: func.func @generic_two_results
// CHECK: %[[R0:.*]], %[[R1:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%o, %s : tensor<4x8xf32>, tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%x: f32, %y: f32, %acc: f32):
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK-NEXT: } -> (tensor<4x8xf32>, tensor<4xf32>)
// CHECK: func.return %[[R0]], %[[R1]]
// GENERIC-LABEL: sym_name = "generic_two_results"
// GENERIC: "linalg.generic"(%a, %o, %s) <{indexing_maps = {{.*}}, iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], operandSegmentSizes = array<i32: 1, 2>}>
// GENERIC: : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
func.func @generic_two_results(%a: tensor<4x8xf32>, %o: tensor<4x8xf32>, %s: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %0:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%o, %s : tensor<4x8xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %e = math.exp %x : f32
    %sum = arith.addf %acc, %e : f32
    linalg.yield %e, %sum : f32, f32
  } -> (tensor<4x8xf32>, tensor<4xf32>)
  func.return %0#0, %0#1 : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Single result keeps the bare `-> T` form.
// CHECK-LABEL: func.func @generic_one_result
// CHECK: } -> tensor<4xf32>
func.func @generic_one_result(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// linalg.map: short form when the body is one op on the inputs (default fastmath elided),
// explicit region otherwise; the mapper takes one argument per input plus one for the init.

// CHECK-LABEL: func.func @map_forms
// CHECK: %[[A:.*]] = linalg.map { arith.addf } ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%i : tensor<4xf32>)
// CHECK: %[[E:.*]] = linalg.map { math.exp } ins(%a : tensor<4xf32>) outs(%i : tensor<4xf32>)
// CHECK: %[[F:.*]] = linalg.map { arith.mulf {fastmath = #arith.fastmath<fast>} } ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%i : tensor<4xf32>)
// CHECK: %[[R:.*]] = linalg.map ins(%a : tensor<4xf32>) outs(%i : tensor<4xf32>) (%x: f32, %init: f32) {
// CHECK-NEXT: %[[D:.*]] = arith.addf %x, %x : f32
// CHECK-NEXT: linalg.yield %[[D]] : f32
// CHECK-NEXT: }
// GENERIC-LABEL: sym_name = "map_forms"
// GENERIC: "linalg.map"(%a, %b, %i) ({
// GENERIC-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// GENERIC-NEXT: "arith.addf"
func.func @map_forms(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = linalg.map ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%i : tensor<4xf32>)
    (%x: f32, %y: f32, %z: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  %1 = linalg.map { math.exp } ins(%a : tensor<4xf32>) outs(%i : tensor<4xf32>)
  %2 = linalg.map { arith.mulf {fastmath = #arith.fastmath<fast>} } ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%i : tensor<4xf32>)
  %3 = linalg.map ins(%a : tensor<4xf32>) outs(%i : tensor<4xf32>)
    (%x: f32, %init: f32) {
      %d = arith.addf %x, %x : f32
      linalg.yield %d : f32
    }
  func.return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
