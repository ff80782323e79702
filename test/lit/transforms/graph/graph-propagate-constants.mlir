// RUN: fusion-opt %s --split-input-file -p graph-propagate-constants | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'graph-propagate-constants{max-bytes=8}' | filecheck %s --check-prefix=SMALL

// A constant subgraph (mul, transpose, add of a broadcast bias) folds into one constant,
// evaluated with the interpreter's numpy semantics.
// CHECK-LABEL: func.func @subgraph
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[}}[3.000000e+00, 8.000000e+00], [5.000000e+00, 1.000000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.add %{{.*}}, %[[C]] : tensor<2x2xf32>
// CHECK-NEXT:    func.return %[[R]]
// 8 bytes: the 16-byte results stay, only the splat-sized ones would fold.
// SMALL-LABEL: func.func @subgraph
// SMALL:         graph.mul
// SMALL:         graph.transpose
func.func @subgraph(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<2.0> : tensor<2x2xf32>
  %c = graph.mul %a, %b : tensor<2x2xf32>
  %t = graph.transpose %c perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %bb = graph.broadcast %v dims = [1] : tensor<2xf32> -> tensor<2x2xf32>
  %s = graph.add %t, %bb : tensor<2x2xf32>
  %r = graph.add %x, %s : tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// -----

// Splats stay splats whatever the shape (one stored element: fits even the 8-byte budget).
// CHECK-LABEL: func.func @splat
// CHECK-NEXT:    arith.constant dense<3.000000e+00> : tensor<1024x1024xf32>
// SMALL-LABEL: func.func @splat
// SMALL-NEXT:    arith.constant dense<3.000000e+00> : tensor<1024x1024xf32>
func.func @splat(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %a = arith.constant dense<1.5> : tensor<1024x1024xf32>
  %b = arith.constant dense<2.0> : tensor<1024x1024xf32>
  %c = graph.mul %a, %b : tensor<1024x1024xf32>
  %r = graph.add %x, %c : tensor<1024x1024xf32>
  func.return %r : tensor<1024x1024xf32>
}

// -----

// Not folded: an op with a run-time operand, and a broadcast of a non-splat constant (a view
// consumers fuse; materialising it would only multiply memory), nor the sum of two such
// broadcasts (it would grow beyond its inputs).
// CHECK-LABEL: func.func @kept
// CHECK:         graph.broadcast
// CHECK:         graph.broadcast
// CHECK:         graph.add
// CHECK:         graph.exp %{{.*}}
func.func @kept(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %v = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %w = arith.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %bv = graph.broadcast %v dims = [1] : tensor<3xf32> -> tensor<4x3xf32>
  %bw = graph.broadcast %w dims = [1] : tensor<3xf32> -> tensor<4x3xf32>
  %s = graph.add %bv, %bw : tensor<4x3xf32>
  %e = graph.exp %x : tensor<4x3xf32>
  func.return %s, %e : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// Integer and i1 results fold too (compare + where on constants).
// CHECK-LABEL: func.func @ints
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[0, 7, 0]> : tensor<3xi32>
// CHECK-NEXT:    func.return %[[C]]
func.func @ints() -> tensor<3xi32> {
  %a = arith.constant dense<[1, 7, 3]> : tensor<3xi32>
  %b = arith.constant dense<5> : tensor<3xi32>
  %z = arith.constant dense<0> : tensor<3xi32>
  %m = graph.greater %a, %b : tensor<3xi32> -> tensor<3xi1>
  %r = graph.where %m, %a, %z : tensor<3xi1>, tensor<3xi32>
  func.return %r : tensor<3xi32>
}
