// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{reduction-forks=false}" | filecheck %s --check-prefix=ONE
// The pass's helper module these cases exercise: dispatch/reduction_chains.py
// (forks_reduction_group, links_read_in_rows).

// Two epilogues of one row normalisation (GPT-NeoX's two LayerNorms of one input, sharing the
// centring): by default one region with two ends; with reduction-forks=false the region keeps
// the first end and the second starts an elementwise region of its own (IREE's sm_80 codegen
// cannot distribute the fork).
// CHECK-LABEL: func.func @normalisation_two_ends
// CHECK:         %{{.*}}, %{{.*}} = flow.dispatch.region -> (tensor<4x16xf32>, tensor<4x16xf32>)
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
// ONE-LABEL:   func.func @normalisation_two_ends
// ONE:           %[[C:.*]], %[[Y1:.*]] = flow.dispatch.region -> (tensor<4x16xf32>, tensor<4x16xf32>)
// ONE:             %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// ONE:             %[[CI:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[SUM]] :
// ONE:             %[[Y1I:.*]] = linalg.generic {{.*}} ins(%[[CI]], %{{.*}} : tensor<4x16xf32>, tensor<16xf32>)
// ONE:             arith.mulf
// ONE:             flow.return %[[CI]], %[[Y1I]] : tensor<4x16xf32>, tensor<4x16xf32>
// ONE:           %[[Y2:.*]] = flow.dispatch.region -> (tensor<4x16xf32>)
// ONE:             linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<4x16xf32>, tensor<16xf32>)
// ONE:             arith.addf
// ONE:           func.return %[[Y1]], %[[Y2]]
func.func @normalisation_two_ends(%x: tensor<4x16xf32>, %w1: tensor<16xf32>, %w2: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%fr : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<4x16xf32>, tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.divf %b, %n : f32
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x16xf32>
  %y1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %w1 : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  %y2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %w2 : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.addf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  func.return %y1, %y2 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Not a fork: the centred rows leave the region and also feed the one epilogue (a chain with an
// escaping link, as IREE's own formation makes it). One region either way.
// CHECK-LABEL: func.func @escaping_link_one_end
// CHECK:         %{{.*}}, %{{.*}} = flow.dispatch.region -> (tensor<4x16xf32>, tensor<4x16xf32>)
// CHECK-NOT:     flow.dispatch.region
// ONE-LABEL:   func.func @escaping_link_one_end
// ONE:           %{{.*}}, %{{.*}} = flow.dispatch.region -> (tensor<4x16xf32>, tensor<4x16xf32>)
// ONE-NOT:       flow.dispatch.region
// ONE:           func.return
func.func @escaping_link_one_end(%x: tensor<4x16xf32>, %w1: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%fr : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<4x16xf32>, tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.divf %b, %n : f32
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x16xf32>
  %y1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %w1 : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  func.return %c, %y1 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// A chain whose centred link a transposing op reads (ConvNeXt's LayerNorm2d writing back to
// NCHW): that op cannot join, so the link leaves the chain's region beside the sum of squares.
// By default one chain region with both results; with reduction-forks=false no chain (IREE's
// sm_80 codegen fails to distribute the two-result region): the mean with its centring, then
// the sum of squares, each a region.
// CHECK-LABEL: func.func @escaping_link_read_transposed
// CHECK:         %{{.*}}, %{{.*}} = flow.dispatch.region -> (tensor<4x16xf32>, tensor<4xf32>)
// CHECK:         flow.dispatch.region -> (tensor<16x4xf32>)
// ONE-LABEL:   func.func @escaping_link_read_transposed
// ONE:           flow.dispatch.region -> (tensor<4x16xf32>)
// ONE:           flow.dispatch.region -> (tensor<4xf32>)
// ONE:           flow.dispatch.region -> (tensor<16x4xf32>)
func.func @escaping_link_read_transposed(%x: tensor<4x16xf32>) -> (tensor<16x4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %et = tensor.empty() : tensor<16x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%fr : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<4x16xf32>, tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.divf %b, %n : f32
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x16xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<4x16xf32>) outs(%fr : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %sq : tensor<4x16xf32>, tensor<4xf32>) outs(%et : tensor<16x4xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %r = math.rsqrt %v : f32
    %y = arith.mulf %a, %r : f32
    linalg.yield %y : f32
  } -> tensor<16x4xf32>
  func.return %t, %sq : tensor<16x4xf32>, tensor<4xf32>
}

// -----

// Not a reduction root: a matmul's two epilogues stay in its region either way (the rule is
// for reductions, whose GPU codegen tiles from the one last op).
// CHECK-LABEL: func.func @matmul_two_ends
// CHECK:         %{{.*}}, %{{.*}} = flow.dispatch.region -> (tensor<4x16xf32>, tensor<4x16xf32>)
// CHECK-NOT:     flow.dispatch.region
// ONE-LABEL:   func.func @matmul_two_ends
// ONE:           %{{.*}}, %{{.*}} = flow.dispatch.region -> (tensor<4x16xf32>, tensor<4x16xf32>)
// ONE-NOT:       flow.dispatch.region
// ONE:           func.return
func.func @matmul_two_ends(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.maximumf %a, %zero : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.negf %a : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  func.return %r, %g : tensor<4x16xf32>, tensor<4x16xf32>
}
