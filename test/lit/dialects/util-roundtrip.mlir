// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// IREE's util dialect as IREE 3.13 prints it (iree-opt re-reads it: test/unit/test_iree_dialects_interop.py).

// CHECK: util.global private mutable @state = dense<0.000000e+00> : tensor<4xf32>
// CHECK: util.global private @w : tensor<4xf32>
// CHECK: util.global public @k {note} = 3 : i32
// CHECK: util.func private @ext(tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: util.func public @f
// CHECK: %[[G:.*]] = util.global.load @state : tensor<4xf32>
// CHECK: util.global.load immutable @w : tensor<4xf32>
// CHECK: %[[B:[^ ,:]+]]{{(:2|, %[^ ]+)}} = util.optimization_barrier %{{.*}}, %[[G]] : tensor<4xf32>, tensor<4xf32>
// CHECK: %[[C:.*]] = util.call @ext(%[[B]]{{(#0)?}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: util.global.store %[[C]], @state : tensor<4xf32>
// CHECK: util.return %[[C]] : tensor<4xf32>
// CHECK: util.initializer {
// CHECK: util.global.store %{{.*}}, @w : tensor<4xf32>
// CHECK: util.return
util.global private mutable @state = dense<0.0> : tensor<4xf32>
util.global private @w : tensor<4xf32>
util.global public @k {note} = 3 : i32
util.func private @ext(%a: tensor<4xf32>) -> tensor<4xf32>
util.func public @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %g = util.global.load @state : tensor<4xf32>
  %w = util.global.load immutable @w : tensor<4xf32>
  %b:2 = util.optimization_barrier %a, %g : tensor<4xf32>, tensor<4xf32>
  %c = util.call @ext(%b#0) : (tensor<4xf32>) -> tensor<4xf32>
  util.global.store %c, @state : tensor<4xf32>
  util.return %c : tensor<4xf32>
}
util.initializer {
  %z = arith.constant dense<1.0> : tensor<4xf32>
  util.global.store %z, @w : tensor<4xf32>
  util.return
}

// -----

// CHECK-LABEL: util.func @no_results(%{{.*}}: i32) attributes {note = 1 : i64}
// CHECK-NEXT: util.return
util.func @no_results(%x: i32) attributes {note = 1} {
  util.return
}

// -----

// A function's preprocessing pipeline is kept as opaque text.
// CHECK-LABEL: util.func public @with_preprocessing
// CHECK-SAME: attributes {preprocessing_pipeline = #util.preprocessing_pipeline<"iree-preprocessing-make-single-dispatch">}
util.func public @with_preprocessing(%a: tensor<4xf32>) -> tensor<4xf32>
    attributes {preprocessing_pipeline = #util.preprocessing_pipeline<"iree-preprocessing-make-single-dispatch">} {
  util.return %a : tensor<4xf32>
}
