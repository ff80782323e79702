// RUN: fusion-opt %s --split-input-file -p graph-horizontal-fuse-dots | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'graph-horizontal-fuse-dots{allow-runtime-concat=true}' | filecheck %s --check-prefix=RUNTIME
// RUN: fusion-opt %s --split-input-file -p 'graph-horizontal-fuse-dots{min-group=3}' | filecheck %s --check-prefix=MIN3
// RUN: fusion-opt %s --split-input-file -p 'graph-horizontal-fuse-dots{fuse-batched-dots=true}' | filecheck %s --check-prefix=BATCHED
// RUN: fusion-opt %s --split-input-file -p 'graph-horizontal-fuse-dots{strict-nonfinite=true}' | filecheck %s --check-prefix=STRICT
// RUN: fusion-opt %s --split-input-file -p 'graph-horizontal-fuse-dots{unequal-shapes=false}' | filecheck %s --check-prefix=EQUAL
// The pass's helper modules these cases exercise: graph/horizontal_layers.py,
// graph/horizontal_linear.py, graph/horizontal_concat_fold.py, graph/horizontal_unequal.py.

// Two towers x two Linear+SiLU layers on a shared input. Layer 0 shares %x: one dot on the
// N-concatenated weights; its result is viewed as [2, 1, 4] (a reshape, M = 1) and feeds one
// batched dot for layer 1; the final concat of the towers folds into a reshape of that dot.
// CHECK-LABEL: func.func @towers_chain
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4xf32>)
// CHECK:         %[[D0:.*]] = graph.dot %[[X]], %{{.*}} : (tensor<1x4xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    %[[B0:.*]] = arith.constant dense<{{.*}}> : tensor<8xf32>
// CHECK-NEXT:    %[[BB0:.*]] = graph.broadcast %[[B0]] dims = [1] : tensor<8xf32> -> tensor<1x8xf32>
// CHECK-NEXT:    %[[A0:.*]] = graph.add %[[D0]], %[[BB0]] : tensor<1x8xf32>
// CHECK-NEXT:    %[[S0:.*]] = graph.sigmoid %[[A0]] : tensor<1x8xf32>
// CHECK-NEXT:    %[[M0:.*]] = graph.mul %[[A0]], %[[S0]] : tensor<1x8xf32>
// CHECK-NEXT:    %[[R0:.*]] = graph.reshape %[[M0]] : tensor<1x8xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %[[W1:.*]] = arith.constant dense<{{.*}}> : tensor<2x4x4xf32>
// CHECK-NEXT:    %[[D1:.*]] = graph.dot %[[R0]], %[[W1]] : (tensor<2x1x4xf32>, tensor<2x4x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT:    %[[B1:.*]] = arith.constant dense<{{.*}}> : tensor<2x4xf32>
// CHECK-NEXT:    %[[BB1:.*]] = graph.broadcast %[[B1]] dims = [0, 2] : tensor<2x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %[[A1:.*]] = graph.add %[[D1]], %[[BB1]] : tensor<2x1x4xf32>
// CHECK-NEXT:    %[[S1:.*]] = graph.sigmoid %[[A1]] : tensor<2x1x4xf32>
// CHECK-NEXT:    %[[M1:.*]] = graph.mul %[[A1]], %[[S1]] : tensor<2x1x4xf32>
// CHECK-NEXT:    %[[OUT:.*]] = graph.reshape %[[M1]] : tensor<2x1x4xf32> -> tensor<1x8xf32>
// CHECK-NEXT:    func.return %[[OUT]] : tensor<1x8xf32>
// MIN3-LABEL:  func.func @towers_chain
// MIN3-COUNT-4: graph.dot
// MIN3-NOT:    graph.dot
// MIN3:        func.return
func.func @towers_chain(%x: tensor<1x4xf32>) -> tensor<1x8xf32> {
  %w00 = arith.constant dense<0.1> : tensor<4x4xf32>
  %b00 = arith.constant dense<0.01> : tensor<4xf32>
  %w01 = arith.constant dense<0.2> : tensor<4x4xf32>
  %b01 = arith.constant dense<0.02> : tensor<4xf32>
  %w10 = arith.constant dense<0.3> : tensor<4x4xf32>
  %b10 = arith.constant dense<0.03> : tensor<4xf32>
  %w11 = arith.constant dense<0.4> : tensor<4x4xf32>
  %b11 = arith.constant dense<0.04> : tensor<4xf32>
  %d00 = graph.dot %x, %w00 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %bb00 = graph.broadcast %b00 dims = [1] : tensor<4xf32> -> tensor<1x4xf32>
  %a00 = graph.add %d00, %bb00 : tensor<1x4xf32>
  %s00 = graph.sigmoid %a00 : tensor<1x4xf32>
  %m00 = graph.mul %a00, %s00 : tensor<1x4xf32>
  %d01 = graph.dot %m00, %w01 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %bb01 = graph.broadcast %b01 dims = [1] : tensor<4xf32> -> tensor<1x4xf32>
  %a01 = graph.add %d01, %bb01 : tensor<1x4xf32>
  %s01 = graph.sigmoid %a01 : tensor<1x4xf32>
  %m01 = graph.mul %a01, %s01 : tensor<1x4xf32>
  %d10 = graph.dot %x, %w10 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %bb10 = graph.broadcast %b10 dims = [1] : tensor<4xf32> -> tensor<1x4xf32>
  %a10 = graph.add %bb10, %d10 : tensor<1x4xf32>
  %s10 = graph.sigmoid %a10 : tensor<1x4xf32>
  %m10 = graph.mul %s10, %a10 : tensor<1x4xf32>
  %d11 = graph.dot %m10, %w11 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %bb11 = graph.broadcast %b11 dims = [1] : tensor<4xf32> -> tensor<1x4xf32>
  %a11 = graph.add %d11, %bb11 : tensor<1x4xf32>
  %s11 = graph.sigmoid %a11 : tensor<1x4xf32>
  %m11 = graph.mul %a11, %s11 : tensor<1x4xf32>
  %out = graph.concat %m01, %m11 axis = 1 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
  func.return %out : tensor<1x8xf32>
}

// -----

// A shared-input fan-out of three plain dots with different N: one dot, three slices.
// CHECK-LABEL: func.func @fanout_different_n
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4xf32>)
// CHECK:         %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<4x10xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[X]], %[[W]] : (tensor<2x4xf32>, tensor<4x10xf32>) -> tensor<2x10xf32>
// CHECK-NEXT:    %[[P:.*]] = graph.slice %[[D]] axes = [1] starts = [0] ends = [2] : tensor<2x10xf32> -> tensor<2x2xf32>
// CHECK-NEXT:    %[[Q:.*]] = graph.slice %[[D]] axes = [1] starts = [2] ends = [5] : tensor<2x10xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.slice %[[D]] axes = [1] starts = [5] ends = [10] : tensor<2x10xf32> -> tensor<2x5xf32>
// CHECK-NEXT:    func.return %[[P]], %[[Q]], %[[R]]
// MIN3-LABEL:  func.func @fanout_different_n
// MIN3-COUNT-1: graph.dot
// MIN3-NOT:    graph.dot
// MIN3:        func.return
func.func @fanout_different_n(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>) {
  %wa = arith.constant dense<0.1> : tensor<4x2xf32>
  %wb = arith.constant dense<0.2> : tensor<4x3xf32>
  %wc = arith.constant dense<0.3> : tensor<4x5xf32>
  %a = graph.dot %x, %wa : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  %b = graph.dot %x, %wb : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %c = graph.dot %x, %wc : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %a, %b, %c : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>
}

// -----

// Different inputs, same shapes (M = 2): activations stacked to [2, 2, 4], one batched dot,
// each result recovered as a lane (slice on axis 0 + reshape).
// CHECK-LABEL: func.func @distinct_inputs
// CHECK-SAME:    (%[[A:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<2x4xf32>)
// CHECK-DAG:     %[[RA:.*]] = graph.reshape %[[A]] : tensor<2x4xf32> -> tensor<1x2x4xf32>
// CHECK-DAG:     %[[RB:.*]] = graph.reshape %[[B]] : tensor<2x4xf32> -> tensor<1x2x4xf32>
// CHECK:         %[[ST:.*]] = graph.concat %[[RA]], %[[RB]] axis = 0
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<2x4x3xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[ST]], %[[W]] : (tensor<2x2x4xf32>, tensor<2x4x3xf32>) -> tensor<2x2x3xf32>
// CHECK-DAG:     graph.slice %[[D]] axes = [0] starts = [0] ends = [1]
// CHECK-DAG:     graph.slice %[[D]] axes = [0] starts = [1] ends = [2]
// CHECK-NOT:     graph.dot
func.func @distinct_inputs(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %wa = arith.constant dense<0.1> : tensor<4x3xf32>
  %wb = arith.constant dense<0.2> : tensor<4x3xf32>
  %da = graph.dot %a, %wa : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %db = graph.dot %b, %wb : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  func.return %da, %db : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Epilogue kind is part of the key: two SiLU members and two plain (bias-only) members on
// the same input form two groups, each absorbing its own epilogue.
// CHECK-LABEL: func.func @mixed_epilogues
// CHECK:         graph.dot %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK:         graph.sigmoid %{{.*}} : tensor<1x8xf32>
// CHECK:         graph.dot %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK-NOT:     graph.sigmoid
// CHECK-NOT:     graph.dot
// CHECK:         func.return
func.func @mixed_epilogues(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) {
  %w0 = arith.constant dense<0.1> : tensor<4x4xf32>
  %w1 = arith.constant dense<0.2> : tensor<4x4xf32>
  %w2 = arith.constant dense<0.3> : tensor<4x4xf32>
  %w3 = arith.constant dense<0.4> : tensor<4x4xf32>
  %b = arith.constant dense<0.5> : tensor<4xf32>
  %bb = graph.broadcast %b dims = [1] : tensor<4xf32> -> tensor<1x4xf32>
  %d0 = graph.dot %x, %w0 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a0 = graph.add %d0, %bb : tensor<1x4xf32>
  %s0 = graph.sigmoid %a0 : tensor<1x4xf32>
  %m0 = graph.mul %a0, %s0 : tensor<1x4xf32>
  %d1 = graph.dot %x, %w1 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a1 = graph.add %d1, %bb : tensor<1x4xf32>
  %d2 = graph.dot %x, %w2 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a2 = graph.add %d2, %bb : tensor<1x4xf32>
  %s2 = graph.sigmoid %a2 : tensor<1x4xf32>
  %m2 = graph.mul %a2, %s2 : tensor<1x4xf32>
  %d3 = graph.dot %x, %w3 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a3 = graph.add %d3, %bb : tensor<1x4xf32>
  func.return %m0, %a1, %m2, %a3 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// Negative: the second dot reads the first one's result (a path between members).
// CHECK-LABEL: func.func @dependent_members
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    %[[D0:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[D1:.*]] = graph.dot %[[D0]], %{{.*}} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    func.return %[[D0]], %[[D1]]
func.func @dependent_members(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %w0 = arith.constant dense<0.1> : tensor<4x4xf32>
  %w1 = arith.constant dense<0.2> : tensor<4x4xf32>
  %d0 = graph.dot %x, %w0 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %d1 = graph.dot %d0, %w1 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  func.return %d0, %d1 : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// Non-constant weights: unchanged by default; `allow-runtime-concat=true` concatenates them
// at run time.
// CHECK-LABEL: func.func @runtime_weights
// CHECK-NEXT:    graph.dot %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    graph.dot %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    func.return
// RUNTIME-LABEL: func.func @runtime_weights
// RUNTIME-SAME:    (%[[X:.*]]: tensor<1x4xf32>, %[[W0:.*]]: tensor<4x4xf32>, %[[W1:.*]]: tensor<4x4xf32>)
// RUNTIME-NEXT:    %[[W:.*]] = graph.concat %[[W0]], %[[W1]] axis = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
// RUNTIME-NEXT:    %[[D:.*]] = graph.dot %[[X]], %[[W]] : (tensor<1x4xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
// RUNTIME-NOT:     graph.dot
// RUNTIME:         func.return
func.func @runtime_weights(%x: tensor<1x4xf32>, %w0: tensor<4x4xf32>, %w1: tensor<4x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %d0 = graph.dot %x, %w0 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %d1 = graph.dot %x, %w1 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  func.return %d0, %d1 : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// f16 towers with different inputs batch the same way.
// CHECK-LABEL: func.func @f16_towers
// CHECK:         graph.dot %{{.*}}, %{{.*}} : (tensor<3x1x8xf16>, tensor<3x8x8xf16>) -> tensor<3x1x8xf16>
// CHECK-NOT:     graph.dot
func.func @f16_towers(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>, %c: tensor<1x8xf16>) -> tensor<1x24xf16> {
  %wa = arith.constant dense<0.125> : tensor<8x8xf16>
  %wb = arith.constant dense<0.25> : tensor<8x8xf16>
  %wc = arith.constant dense<0.5> : tensor<8x8xf16>
  %da = graph.dot %a, %wa : (tensor<1x8xf16>, tensor<8x8xf16>) -> tensor<1x8xf16>
  %db = graph.dot %b, %wb : (tensor<1x8xf16>, tensor<8x8xf16>) -> tensor<1x8xf16>
  %dc = graph.dot %c, %wc : (tensor<1x8xf16>, tensor<8x8xf16>) -> tensor<1x8xf16>
  %out = graph.concat %da, %db, %dc axis = 1 : (tensor<1x8xf16>, tensor<1x8xf16>, tensor<1x8xf16>) -> tensor<1x24xf16>
  func.return %out : tensor<1x24xf16>
}

// -----

// Negative (MIGraphX's guard): both activations are slices of one tensor and each dot has
// its own bias epilogue; per-dot slice -> dot -> add kernels beat batching.
// CHECK-LABEL: func.func @guard_slices_of_one_tensor
// CHECK-COUNT-2: graph.dot %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
func.func @guard_slices_of_one_tensor(%x: tensor<1x8xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %w0 = arith.constant dense<0.1> : tensor<4x4xf32>
  %w1 = arith.constant dense<0.2> : tensor<4x4xf32>
  %b = arith.constant dense<0.5> : tensor<4xf32>
  %bb = graph.broadcast %b dims = [1] : tensor<4xf32> -> tensor<1x4xf32>
  %s0 = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<1x8xf32> -> tensor<1x4xf32>
  %s1 = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<1x8xf32> -> tensor<1x4xf32>
  %d0 = graph.dot %s0, %w0 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a0 = graph.add %d0, %bb : tensor<1x4xf32>
  %d1 = graph.dot %s1, %w1 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a1 = graph.add %d1, %bb : tensor<1x4xf32>
  func.return %a0, %a1 : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// By default batched (rank >= 3) dots are left alone (see the pass doc: no dispatch saved yet).
// CHECK-LABEL: func.func @dot_horiz
// CHECK-COUNT-2: graph.dot %{{.*}} : (tensor<3x2x2xf32>, tensor<3x2x2xf32>)
// CHECK-NOT:   graph.slice
// The 2-D reshape case is fused by default.
// CHECK-LABEL: func.func @dots_behind_reshapes
// CHECK:       graph.dot %{{.*}} : (tensor<6x4xf32>, tensor<4x10xf32>)

// Shared-input dots with batch dims and dots behind reshapes of one input: graph-dialect
// versions of MIGraphX's `simplify_dot_horiz`, `simplify_dot_horiz_same_constant`,
// `simplify_dot_horiz_flipped`, `simplify_dot_horiz_reshape` and `dot_fusion_reshape`.

// simplify_dot_horiz: input [3, 2, 2], constant weights a, b [3, 2, 2] -> one dot on
// concat(a, b) along the last axis, lanes sliced back on it, then added.
// BATCHED-LABEL: func.func @dot_horiz
// BATCHED-SAME:    (%[[IN:.*]]: tensor<3x2x2xf32>)
// BATCHED:         %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}[1.000000e+00, 2.000000e+00, 9.000000e+00, 1.000000e+01], {{.*}}]]> : tensor<3x2x4xf32>
// BATCHED-NEXT:    %[[D:.*]] = graph.dot %[[IN]], %[[W]] : (tensor<3x2x2xf32>, tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
// BATCHED-NEXT:    %[[X:.*]] = graph.slice %[[D]] axes = [2] starts = [0] ends = [2] : tensor<3x2x4xf32> -> tensor<3x2x2xf32>
// BATCHED-NEXT:    %[[Y:.*]] = graph.slice %[[D]] axes = [2] starts = [2] ends = [4] : tensor<3x2x4xf32> -> tensor<3x2x2xf32>
// BATCHED-NEXT:    %[[S:.*]] = graph.add %[[X]], %[[Y]]
// BATCHED-NEXT:    func.return %[[S]]
func.func @dot_horiz(%input: tensor<3x2x2xf32>) -> tensor<3x2x2xf32> {
  %a = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]], [[-1.0, -2.0], [-3.0, -4.0]]]> : tensor<3x2x2xf32>
  %b = arith.constant dense<[[[9.0, 10.0], [11.0, 12.0]], [[13.0, 14.0], [15.0, 16.0]], [[-5.0, -6.0], [-7.0, -8.0]]]> : tensor<3x2x2xf32>
  %x = graph.dot %input, %a : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %y = graph.dot %input, %b : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %sum = graph.add %x, %y : tensor<3x2x2xf32>
  func.return %sum : tensor<3x2x2xf32>
}

// -----

// simplify_dot_horiz_same_constant: the same weight twice is concatenated with itself.
// BATCHED-LABEL: func.func @dot_horiz_same_constant
// BATCHED:         %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}[1, 2, 1, 2], {{.*}}]]> : tensor<3x2x4xi32>
// BATCHED-NEXT:    %[[D:.*]] = graph.dot %{{.*}}, %[[W]] : (tensor<3x2x2xi32>, tensor<3x2x4xi32>) -> tensor<3x2x4xi32>
// BATCHED-COUNT-2: graph.slice %[[D]] axes = [2]
// BATCHED-NEXT:    graph.add
func.func @dot_horiz_same_constant(%input: tensor<3x2x2xi32>) -> tensor<3x2x2xi32> {
  %a = arith.constant dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]]> : tensor<3x2x2xi32>
  %x = graph.dot %input, %a : (tensor<3x2x2xi32>, tensor<3x2x2xi32>) -> tensor<3x2x2xi32>
  %y = graph.dot %input, %a : (tensor<3x2x2xi32>, tensor<3x2x2xi32>) -> tensor<3x2x2xi32>
  %sum = graph.add %x, %y : tensor<3x2x2xi32>
  func.return %sum : tensor<3x2x2xi32>
}

// -----

// simplify_dot_horiz_flipped (negative): the input is the LHS of one dot and the RHS of the
// other: nothing shared on the same side, unchanged.
// BATCHED-LABEL: func.func @dot_horiz_flipped
// BATCHED:         %[[X:.*]] = graph.dot %[[IN:.*]], %{{.*}} : (tensor<3x2x2xf32>, tensor<3x2x2xf32>)
// BATCHED-NEXT:    %[[Y:.*]] = graph.dot %{{.*}}, %[[IN]] : (tensor<3x2x2xf32>, tensor<3x2x2xf32>)
// BATCHED-NEXT:    graph.add %[[X]], %[[Y]]
// BATCHED-NOT:     graph.slice
func.func @dot_horiz_flipped(%input: tensor<3x2x2xf32>) -> tensor<3x2x2xf32> {
  %a = arith.constant dense<1.0> : tensor<3x2x2xf32>
  %b = arith.constant dense<2.0> : tensor<3x2x2xf32>
  %x = graph.dot %input, %a : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %y = graph.dot %b, %input : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %sum = graph.add %x, %y : tensor<3x2x2xf32>
  func.return %sum : tensor<3x2x2xf32>
}

// -----

// simplify_dot_horiz_reshape: batched dots whose results are reshaped ([3, 4, 4] ->
// [3, 4, 2, 2]) fuse; each lane is sliced back before its reshape.
// BATCHED-LABEL: func.func @dot_horiz_reshape
// BATCHED:         %[[D:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<3x4x4xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
// BATCHED-NEXT:    %[[X:.*]] = graph.slice %[[D]] axes = [2] starts = [0] ends = [4]
// BATCHED-NEXT:    %[[Y:.*]] = graph.slice %[[D]] axes = [2] starts = [4] ends = [8]
// BATCHED-NEXT:    %[[XR:.*]] = graph.reshape %[[X]] : tensor<3x4x4xf32> -> tensor<3x4x2x2xf32>
// BATCHED-NEXT:    %[[YR:.*]] = graph.reshape %[[Y]] : tensor<3x4x4xf32> -> tensor<3x4x2x2xf32>
// BATCHED-NEXT:    graph.add %[[XR]], %[[YR]]
func.func @dot_horiz_reshape(%input: tensor<3x4x4xf32>) -> tensor<3x4x2x2xf32> {
  %a = arith.constant dense<0.5> : tensor<3x4x4xf32>
  %b = arith.constant dense<0.25> : tensor<3x4x4xf32>
  %x = graph.dot %input, %a : (tensor<3x4x4xf32>, tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
  %y = graph.dot %input, %b : (tensor<3x4x4xf32>, tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
  %xr = graph.reshape %x : tensor<3x4x4xf32> -> tensor<3x4x2x2xf32>
  %yr = graph.reshape %y : tensor<3x4x4xf32> -> tensor<3x4x2x2xf32>
  %sum = graph.add %xr, %yr : tensor<3x4x2x2xf32>
  func.return %sum : tensor<3x4x2x2xf32>
}

// -----

// dot_fusion_reshape: one lane reshaped, the other returned as is.
// BATCHED-LABEL: func.func @dot_fusion_reshape
// BATCHED:         %[[D:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<2x6x8xf32>, tensor<2x8x16xf32>) -> tensor<2x6x16xf32>
// BATCHED-NEXT:    %[[X:.*]] = graph.slice %[[D]] axes = [2] starts = [0] ends = [8]
// BATCHED-NEXT:    %[[Y:.*]] = graph.slice %[[D]] axes = [2] starts = [8] ends = [16]
// BATCHED-NEXT:    %[[R:.*]] = graph.reshape %[[X]] : tensor<2x6x8xf32> -> tensor<2x6x2x4xf32>
// BATCHED-NEXT:    func.return %[[R]], %[[Y]]
func.func @dot_fusion_reshape(%input: tensor<2x6x8xf32>) -> (tensor<2x6x2x4xf32>, tensor<2x6x8xf32>) {
  %p0 = arith.constant dense<0.5> : tensor<2x8x8xf32>
  %p1 = arith.constant dense<0.25> : tensor<2x8x8xf32>
  %d0 = graph.dot %input, %p0 : (tensor<2x6x8xf32>, tensor<2x8x8xf32>) -> tensor<2x6x8xf32>
  %d1 = graph.dot %input, %p1 : (tensor<2x6x8xf32>, tensor<2x8x8xf32>) -> tensor<2x6x8xf32>
  %r0 = graph.reshape %d0 : tensor<2x6x8xf32> -> tensor<2x6x2x4xf32>
  func.return %r0, %d1 : tensor<2x6x2x4xf32>, tensor<2x6x8xf32>
}

// -----

// Dots behind separate reshapes of one input (a [B, S, D] activation flattened to [B*S, D]
// per projection, as importers emit Q/K/V): one dot on the first reshape.
// BATCHED-LABEL: func.func @dots_behind_reshapes
// BATCHED-SAME:    (%[[IN:.*]]: tensor<2x3x4xf32>)
// BATCHED:         %[[R:.*]] = graph.reshape %[[IN]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
// BATCHED-NOT:     graph.reshape %[[IN]]
// BATCHED:         %[[D:.*]] = graph.dot %[[R]], %{{.*}} : (tensor<6x4xf32>, tensor<4x10xf32>) -> tensor<6x10xf32>
// BATCHED-NEXT:    %[[Q:.*]] = graph.slice %[[D]] axes = [1] starts = [0] ends = [4]
// BATCHED-NEXT:    %[[K:.*]] = graph.slice %[[D]] axes = [1] starts = [4] ends = [10]
// BATCHED-NOT:     graph.dot
// BATCHED:         func.return
func.func @dots_behind_reshapes(%input: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x6xf32>) {
  %wq = arith.constant dense<0.5> : tensor<4x4xf32>
  %wk = arith.constant dense<0.25> : tensor<4x6xf32>
  %rq = graph.reshape %input : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %q = graph.dot %rq, %wq : (tensor<6x4xf32>, tensor<4x4xf32>) -> tensor<6x4xf32>
  %rk = graph.reshape %input : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %k = graph.dot %rk, %wk : (tensor<6x4xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
  %q3 = graph.reshape %q : tensor<6x4xf32> -> tensor<2x3x4xf32>
  %k3 = graph.reshape %k : tensor<6x6xf32> -> tensor<2x3x6xf32>
  func.return %q3, %k3 : tensor<2x3x4xf32>, tensor<2x3x6xf32>
}

// -----

// Batched dots with a bias on the last axis: the biases are concatenated and added once.
// BATCHED-LABEL: func.func @batched_with_bias
// BATCHED:         %[[D:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// BATCHED:         %[[B:.*]] = graph.broadcast %{{.*}} dims = [2] : tensor<5xf32> -> tensor<2x3x5xf32>
// BATCHED-NEXT:    %[[S:.*]] = graph.add %[[D]], %[[B]]
// BATCHED-NEXT:    graph.slice %[[S]] axes = [2] starts = [0] ends = [2]
// BATCHED-NEXT:    graph.slice %[[S]] axes = [2] starts = [2] ends = [5]
func.func @batched_with_bias(%input: tensor<2x3x4xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x3xf32>) {
  %w0 = arith.constant dense<0.5> : tensor<2x4x2xf32>
  %w1 = arith.constant dense<0.25> : tensor<2x4x3xf32>
  %b0v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b1v = arith.constant dense<[3.0, 4.0, 5.0]> : tensor<3xf32>
  %d0 = graph.dot %input, %w0 : (tensor<2x3x4xf32>, tensor<2x4x2xf32>) -> tensor<2x3x2xf32>
  %b0 = graph.broadcast %b0v dims = [2] : tensor<2xf32> -> tensor<2x3x2xf32>
  %o0 = graph.add %d0, %b0 : tensor<2x3x2xf32>
  %d1 = graph.dot %input, %w1 : (tensor<2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x3x3xf32>
  %b1 = graph.broadcast %b1v dims = [2] : tensor<3xf32> -> tensor<2x3x3xf32>
  %o1 = graph.add %d1, %b1 : tensor<2x3x3xf32>
  func.return %o0, %o1 : tensor<2x3x2xf32>, tensor<2x3x3xf32>
}

// -----

// Negative: batched dots whose weights differ in batch size cannot share one dot.
// BATCHED-LABEL: func.func @different_batch_weights
// BATCHED-COUNT-2: graph.dot
// BATCHED-NOT:     graph.slice
// BATCHED:         func.return
func.func @different_batch_weights(%input: tensor<2x3x4xf32>, %other: tensor<2x3x4xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x2xf32>) {
  %w0 = arith.constant dense<0.5> : tensor<2x4x2xf32>
  %w1 = arith.constant dense<0.25> : tensor<2x4x2xf32>
  %d0 = graph.dot %input, %w0 : (tensor<2x3x4xf32>, tensor<2x4x2xf32>) -> tensor<2x3x2xf32>
  %d1 = graph.dot %other, %w1 : (tensor<2x3x4xf32>, tensor<2x4x2xf32>) -> tensor<2x3x2xf32>
  func.return %d0, %d1 : tensor<2x3x2xf32>, tensor<2x3x2xf32>
}

// -----

// Unequal towers (hidden 4/6/4, outputs 4/3/5) over one input: the first layers share %x (one
// N-concatenated dot); the second layers, three shapes, are one block-diagonal dot on that
// dot's whole result ([2, 14] x [14, 12]), and the concat of the towers is its result.
// CHECK-LABEL: func.func @unequal_towers_block
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4xf32>)
// CHECK:         %[[H:.*]] = graph.dot %[[X]], %{{.*}} : (tensor<2x4xf32>, tensor<4x14xf32>) -> tensor<2x14xf32>
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<14x12xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.dot %[[H]], %[[W]] : (tensor<2x14xf32>, tensor<14x12xf32>) -> tensor<2x12xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<2x12xf32>
// Without block-diagonal dots (strict-nonfinite) or unequal batching: the three second layers stay.
// STRICT-LABEL: func.func @unequal_towers_block
// STRICT-COUNT-4: graph.dot
// STRICT-NOT:     graph.dot
// STRICT:         graph.concat
// EQUAL-LABEL:  func.func @unequal_towers_block
// EQUAL-COUNT-4: graph.dot
// EQUAL-NOT:    graph.dot
// EQUAL:        func.return
func.func @unequal_towers_block(%x: tensor<2x4xf32>) -> tensor<2x12xf32> {
  %w00 = arith.constant dense<0.1> : tensor<4x4xf32>
  %w10 = arith.constant dense<0.2> : tensor<4x6xf32>
  %w20 = arith.constant dense<0.3> : tensor<4x4xf32>
  %w01 = arith.constant dense<0.4> : tensor<4x4xf32>
  %w11 = arith.constant dense<0.5> : tensor<6x3xf32>
  %w21 = arith.constant dense<0.6> : tensor<4x5xf32>
  %h0 = graph.dot %x, %w00 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %h1 = graph.dot %x, %w10 : (tensor<2x4xf32>, tensor<4x6xf32>) -> tensor<2x6xf32>
  %h2 = graph.dot %x, %w20 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %y0 = graph.dot %h0, %w01 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %y1 = graph.dot %h1, %w11 : (tensor<2x6xf32>, tensor<6x3xf32>) -> tensor<2x3xf32>
  %y2 = graph.dot %h2, %w21 : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  %out = graph.concat %y0, %y1, %y2 axis = 1 : (tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x12xf32>
  func.return %out : tensor<2x12xf32>
}

// -----

// Equal first layers (stacked [3, 1, 4]) whose next layers differ in N (2/3/4): the batched
// value feeds one dot on weights zero-padded to [3, 4, 4] (biases to [3, 4]); each output is
// its lane's first N_i columns, one slice each. Exact on infinities too, so also strict.
// CHECK-LABEL: func.func @unequal_outputs_padded
// CHECK:         %[[D:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<3x1x4xf32>, tensor<3x4x4xf32>) -> tensor<3x1x4xf32>
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<[{{\[\[}}4.000000e-01, 4.000000e-01, 0.000000e+00, 0.000000e+00]{{.*}}> : tensor<3x4x4xf32>
// CHECK-NEXT:    %[[P:.*]] = graph.dot %[[D]], %[[W]] : (tensor<3x1x4xf32>, tensor<3x4x4xf32>) -> tensor<3x1x4xf32>
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<{{\[\[}}1.000000e-02, 1.000000e-02, 0.000000e+00, 0.000000e+00]{{.*}}> : tensor<3x4xf32>
// CHECK-NEXT:    %[[BB:.*]] = graph.broadcast %[[B]] dims = [0, 2] : tensor<3x4xf32> -> tensor<3x1x4xf32>
// CHECK-NEXT:    %[[A:.*]] = graph.add %[[P]], %[[BB]] : tensor<3x1x4xf32>
// CHECK-NEXT:    %[[L0:.*]] = graph.slice %[[A]] axes = [0, 2] starts = [0, 0] ends = [1, 2] : tensor<3x1x4xf32> -> tensor<1x1x2xf32>
// CHECK-NEXT:    %[[Y0:.*]] = graph.reshape %[[L0]] : tensor<1x1x2xf32> -> tensor<1x2xf32>
// CHECK-NEXT:    %[[L1:.*]] = graph.slice %[[A]] axes = [0, 2] starts = [1, 0] ends = [2, 3] : tensor<3x1x4xf32> -> tensor<1x1x3xf32>
// CHECK-NEXT:    %[[Y1:.*]] = graph.reshape %[[L1]] : tensor<1x1x3xf32> -> tensor<1x3xf32>
// CHECK-NEXT:    %[[L2:.*]] = graph.slice %[[A]] axes = [0] starts = [2] ends = [3] : tensor<3x1x4xf32> -> tensor<1x1x4xf32>
// CHECK-NEXT:    %[[Y2:.*]] = graph.reshape %[[L2]] : tensor<1x1x4xf32> -> tensor<1x4xf32>
// CHECK-NEXT:    func.return %[[Y0]], %[[Y1]], %[[Y2]]
// STRICT-LABEL: func.func @unequal_outputs_padded
// STRICT-COUNT-2: graph.dot
// STRICT-NOT:     graph.dot
// STRICT:         func.return
// EQUAL-LABEL:  func.func @unequal_outputs_padded
// EQUAL-COUNT-4: graph.dot
// EQUAL-NOT:    graph.dot
// EQUAL:        func.return
func.func @unequal_outputs_padded(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>, %c: tensor<1x4xf32>) -> (tensor<1x2xf32>, tensor<1x3xf32>, tensor<1x4xf32>) {
  %w0 = arith.constant dense<0.1> : tensor<4x4xf32>
  %w1 = arith.constant dense<0.2> : tensor<4x4xf32>
  %w2 = arith.constant dense<0.3> : tensor<4x4xf32>
  %v0 = arith.constant dense<0.4> : tensor<4x2xf32>
  %v1 = arith.constant dense<0.5> : tensor<4x3xf32>
  %v2 = arith.constant dense<0.6> : tensor<4x4xf32>
  %bv0 = arith.constant dense<0.01> : tensor<2xf32>
  %bv1 = arith.constant dense<0.02> : tensor<3xf32>
  %bv2 = arith.constant dense<0.03> : tensor<4xf32>
  %h0 = graph.dot %a, %w0 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %h1 = graph.dot %b, %w1 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %h2 = graph.dot %c, %w2 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %d0 = graph.dot %h0, %v0 : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %d1 = graph.dot %h1, %v1 : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  %d2 = graph.dot %h2, %v2 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %bb0 = graph.broadcast %bv0 dims = [1] : tensor<2xf32> -> tensor<1x2xf32>
  %bb1 = graph.broadcast %bv1 dims = [1] : tensor<3xf32> -> tensor<1x3xf32>
  %bb2 = graph.broadcast %bv2 dims = [1] : tensor<4xf32> -> tensor<1x4xf32>
  %y0 = graph.add %d0, %bb0 : tensor<1x2xf32>
  %y1 = graph.add %d1, %bb1 : tensor<1x3xf32>
  %y2 = graph.add %d2, %bb2 : tensor<1x4xf32>
  func.return %y0, %y1, %y2 : tensor<1x2xf32>, tensor<1x3xf32>, tensor<1x4xf32>
}

// -----

// Negative: padding costs more than it saves. Second layers [256, 8] and [8, 256] over 512
// rows: block-diagonal is a [512, 264] x [264, 264] dot (17x the FLOPs), padded [2, 512,
// 256] x [2, 256, 256] (32x); the cost model keeps the two dots.
// CHECK-LABEL: func.func @unequal_padding_costs_more
// CHECK:         graph.dot %{{.*}}, %{{.*}} : (tensor<512x8xf32>, tensor<8x264xf32>) -> tensor<512x264xf32>
// CHECK:         graph.dot %{{.*}}, %{{.*}} : (tensor<512x256xf32>, tensor<256x8xf32>) -> tensor<512x8xf32>
// CHECK-NEXT:    graph.dot %{{.*}}, %{{.*}} : (tensor<512x8xf32>, tensor<8x256xf32>) -> tensor<512x256xf32>
// CHECK-NOT:     graph.dot
func.func @unequal_padding_costs_more(%x: tensor<512x8xf32>) -> (tensor<512x8xf32>, tensor<512x256xf32>) {
  %w0 = arith.constant dense<0.1> : tensor<8x256xf32>
  %w1 = arith.constant dense<0.2> : tensor<8x8xf32>
  %v0 = arith.constant dense<0.3> : tensor<256x8xf32>
  %v1 = arith.constant dense<0.4> : tensor<8x256xf32>
  %h0 = graph.dot %x, %w0 : (tensor<512x8xf32>, tensor<8x256xf32>) -> tensor<512x256xf32>
  %h1 = graph.dot %x, %w1 : (tensor<512x8xf32>, tensor<8x8xf32>) -> tensor<512x8xf32>
  %y0 = graph.dot %h0, %v0 : (tensor<512x256xf32>, tensor<256x8xf32>) -> tensor<512x8xf32>
  %y1 = graph.dot %h1, %v1 : (tensor<512x8xf32>, tensor<8x256xf32>) -> tensor<512x256xf32>
  func.return %y0, %y1 : tensor<512x8xf32>, tensor<512x256xf32>
}

// -----

// Negative: unequal towers over separate inputs. Stacking them would take a pad and a copy per
// input, more kernels than the three dots it saves: kept.
// CHECK-LABEL: func.func @unequal_roots_kept
// CHECK-NOT:     graph.pad
// CHECK-NOT:     graph.concat
// CHECK-COUNT-3: graph.dot
// CHECK-NOT:     graph.dot
// CHECK:         func.return
func.func @unequal_roots_kept(%a: tensor<1x4xf32>, %b: tensor<1x6xf32>, %c: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x3xf32>, tensor<1x5xf32>) {
  %w0 = arith.constant dense<0.1> : tensor<4x4xf32>
  %w1 = arith.constant dense<0.2> : tensor<6x3xf32>
  %w2 = arith.constant dense<0.3> : tensor<4x5xf32>
  %y0 = graph.dot %a, %w0 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %y1 = graph.dot %b, %w1 : (tensor<1x6xf32>, tensor<6x3xf32>) -> tensor<1x3xf32>
  %y2 = graph.dot %c, %w2 : (tensor<1x4xf32>, tensor<4x5xf32>) -> tensor<1x5xf32>
  func.return %y0, %y1, %y2 : tensor<1x4xf32>, tensor<1x3xf32>, tensor<1x5xf32>
}

// -----

// Negative: argument weights (allow-runtime-concat). The first layers' weights are joined at
// run time as before; a block-diagonal second layer would pad and copy each weight at run time
// (four copy kernels to save one dot): kept.
// RUNTIME-LABEL: func.func @unequal_argument_weights
// RUNTIME:         graph.concat %{{.*}}, %{{.*}} axis = 1 : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x10xf32>
// RUNTIME-COUNT-3: graph.dot
// RUNTIME-NOT:     graph.pad
// RUNTIME:         func.return
// Without allow-runtime-concat nothing is joined.
// CHECK-LABEL: func.func @unequal_argument_weights
// CHECK-COUNT-4: graph.dot
// CHECK-NOT:     graph.concat %{{.*}}, %{{.*}} axis = 1 : (tensor<4x4xf32>
func.func @unequal_argument_weights(%x: tensor<2x4xf32>, %w00: tensor<4x4xf32>, %w10: tensor<4x6xf32>, %w01: tensor<4x4xf32>, %w11: tensor<6x3xf32>) -> tensor<2x7xf32> {
  %h0 = graph.dot %x, %w00 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %h1 = graph.dot %x, %w10 : (tensor<2x4xf32>, tensor<4x6xf32>) -> tensor<2x6xf32>
  %y0 = graph.dot %h0, %w01 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %y1 = graph.dot %h1, %w11 : (tensor<2x6xf32>, tensor<6x3xf32>) -> tensor<2x3xf32>
  %out = graph.concat %y0, %y1 axis = 1 : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
  func.return %out : tensor<2x7xf32>
}

// -----

// Three dots share %x, a fourth of the same shapes reads %y and comes first: the three are one
// dot on the N-concatenated weights and %y's keeps its own. A tower of all four would stack %x
// three times (RT-DETR: six decoder layers' value projections of one memory, 8.6 MB each).
// CHECK-LABEL: func.func @shared_activation_beside_a_tower
// CHECK-SAME:    (%[[Y:.*]]: tensor<64x32xf32>, %[[X:.*]]: tensor<64x32xf32>)
// CHECK-NOT:     graph.concat
// CHECK:         graph.dot %[[Y]], %{{.*}} : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
// CHECK:         %[[WIDE:.*]] = graph.dot %[[X]], %{{.*}} : (tensor<64x32xf32>, tensor<32x96xf32>) -> tensor<64x96xf32>
// CHECK-COUNT-3: graph.slice %[[WIDE]] axes = [1]
// CHECK-NOT:     graph.dot
// CHECK:         func.return
func.func @shared_activation_beside_a_tower(%y: tensor<64x32xf32>, %x: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) {
  %wy = arith.constant dense<0.5> : tensor<32x32xf32>
  %w0 = arith.constant dense<0.1> : tensor<32x32xf32>
  %w1 = arith.constant dense<0.2> : tensor<32x32xf32>
  %w2 = arith.constant dense<0.3> : tensor<32x32xf32>
  %dy = graph.dot %y, %wy : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %d0 = graph.dot %x, %w0 : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %d1 = graph.dot %x, %w1 : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %d2 = graph.dot %x, %w2 : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  func.return %dy, %d0, %d1, %d2 : tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>
}
