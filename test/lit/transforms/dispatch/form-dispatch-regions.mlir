// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{aggressive=true}" | filecheck %s --check-prefix=AGG
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{reduction-chains=all}" | filecheck %s --check-prefix=ALL
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{reduction-chains=none}" | filecheck %s --check-prefix=NONE
// The pass's helper modules these cases exercise: dispatch/fusion_decision.py (the order in
// which groups take ops), dispatch/fusion_groups.py, dispatch/region_cloning.py,
// dispatch/sliced_roots.py.

// Matmul + bias + activation: one region; the fill and its constant are cloned inside.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-SAME:    (%[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16x32xf32>, %[[BIAS:.*]]: tensor<32xf32>)
// CHECK-NEXT:    %[[R:.*]] = flow.dispatch.region -> (tensor<8x32xf32>) {
// CHECK:           %[[FILL:.*]] = linalg.fill
// CHECK:           %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[FILL]] : {{.*}})
// CHECK:           %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[MM]], %[[BIAS]] :
// CHECK:           %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[ADD]] :
// CHECK:           flow.return %[[RELU]] : tensor<8x32xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

func.func @matmul_bias_relu(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %bias: tensor<32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %add = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<8x32xf32>, tensor<32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%add : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  func.return %relu : tensor<8x32xf32>
}

// -----

// An elementwise op on a named matmul's LHS keeps its own dispatch, aggressive or not (IREE's
// keep_separate_dispatches_for_producer, run with aggressive-fusion): only a linalg.generic
// consumer takes input producers (`iree_rules.takes_input_producers`).
// CHECK-LABEL: func.func @elementwise_on_lhs
// CHECK:         %[[NEG:.*]] = flow.dispatch.region -> (tensor<8x16xf32>) {
// CHECK:           arith.negf
// CHECK:         flow.dispatch.region -> (tensor<8x32xf32>) {
// CHECK:           linalg.matmul ins(%[[NEG]], %{{.*}} :
// AGG-LABEL:   func.func @elementwise_on_lhs
// AGG:           %[[NEG:.*]] = flow.dispatch.region -> (tensor<8x16xf32>) {
// AGG:             arith.negf
// AGG:           flow.dispatch.region -> (tensor<8x32xf32>) {
// AGG:             linalg.matmul ins(%[[NEG]], %{{.*}} :
func.func @elementwise_on_lhs(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%ea : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%neg, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  func.return %m : tensor<8x32xf32>
}

// -----

// Negative: a consumer reading the matmul result transposed does not fuse (tile+fuse needs an
// identity read); `linalg-interchange-for-fusion` fixes that, see its test.
// CHECK-LABEL: func.func @transposed_consumer_not_fused
// CHECK:         %[[MM:.*]] = flow.dispatch.region -> (tensor<8x32xf32>) {
// CHECK:           linalg.matmul
// CHECK:         flow.dispatch.region -> (tensor<32x8xf32>) {
// CHECK:           linalg.generic {{.*}} ins(%[[MM]] :
func.func @transposed_consumer_not_fused(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<32x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %et = tensor.empty() : tensor<32x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%et : tensor<32x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<32x8xf32>
  func.return %t : tensor<32x8xf32>
}

// -----

// Negative: two chained contractions are never in one region (one root per region).
// CHECK-LABEL: func.func @chained_matmuls
// CHECK:         %[[M1:.*]] = flow.dispatch.region
// CHECK:           linalg.matmul
// CHECK:           flow.return
// CHECK:         flow.dispatch.region
// CHECK:           linalg.matmul ins(%[[M1]], %{{.*}} :
func.func @chained_matmuls(%a: tensor<8x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m2 = linalg.matmul ins(%m1, %c : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %m2 : tensor<8x16xf32>
}

// -----

// Reduction + elementwise consumer: one region.
// CHECK-LABEL: func.func @reduction_elementwise
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           iterator_types = ["parallel", "reduction"]
// CHECK:           arith.divf
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @reduction_elementwise(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %d = arith.divf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  func.return %div : tensor<4x8xf32>
}

// -----

// Softmax: max and sum are two roots (chained reductions), each with its consumers. The
// default chains only normalizations (a sum first); reduction-chains=all puts the whole
// softmax in one region.
// ALL-LABEL: func.func @softmax
// ALL:         flow.dispatch.region -> (tensor<4x8xf32>) {
// ALL:           arith.maximumf
// ALL:           math.exp
// ALL:           iterator_types = ["parallel", "reduction"]
// ALL:           arith.addf
// ALL:           arith.divf
// ALL:           flow.return
// ALL-NOT:     flow.dispatch.region
// ALL:         func.return
// CHECK-LABEL: func.func @softmax
// CHECK:         %[[EXP:.*]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           arith.maximumf
// CHECK:           math.exp
// CHECK-NOT:       "reduction"
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           iterator_types = ["parallel", "reduction"]} ins(%[[EXP]]
// CHECK:           arith.divf
// CHECK:           flow.return
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%fmax : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<4x8xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%fsum : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %d = arith.divf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  func.return %div : tensor<4x8xf32>
}

// -----

// Contiguous slices become flow.tensor.slice between dispatches; the non-contiguous column
// slice is cloned into its consumer's region as an indexed read.
// CHECK-LABEL: func.func @slices
// CHECK:         %[[ROWS:.*]] = flow.tensor.slice %{{.*}}[%{{.*}}, %{{.*}} for %{{.*}}, %{{.*}}] : tensor<4x8xf32> -> tensor<2x8xf32>
// CHECK:         %[[W:.*]] = flow.tensor.slice {{.*}} : tensor<8x8xf32> -> tensor<4x8xf32>
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           %[[COLS:.*]] = tensor.extract_slice %{{.*}}[0, 2] [4, 4] [1, 1]
// CHECK:           linalg.matmul ins(%[[COLS]], %[[W]] :
// CHECK:         func.return %[[ROWS]]
func.func @slices(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<2x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.extract_slice %x[1, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %cols = tensor.extract_slice %x[0, 2] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %wcols = tensor.extract_slice %w[0, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%cols, %wcols : tensor<4x4xf32>, tensor<4x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %rows, %m : tensor<2x8xf32>, tensor<4x8xf32>
}

// -----

// A collapse of a non-contiguous slice is cloned with it where it merges whole inner dims
// (rows of 2 of 4 columns, 3 rows a group); one merging a dim the slice takes in part into an
// outer one (2 of 3 rows a group, a per-slice crop) stays outside: the slice a copy region and
// the collapse a reshape of it. Cloned, IREE 3.13 read such a collapse as one vector of the
// whole tensor and built no module (r3d_18's residual add reading its conv's cropped rows).
// CHECK-LABEL: func.func @collapsed_crops
// CHECK:         %[[COPY:.*]] = flow.dispatch.region -> (tensor<2x2x4xf32>) {
// CHECK:           tensor.extract %{{.*}} : tensor<2x3x4xf32>
// CHECK:         %[[CC:.*]] = flow.tensor.reshape %[[COPY]] : tensor<2x2x4xf32> -> tensor<4x4xf32>
// CHECK:         flow.dispatch.region -> (tensor<4x4xf32>) {
// CHECK-NOT:       tensor.collapse_shape
// CHECK:           linalg.matmul ins(%[[CC]], %{{.*}} :
// CHECK:         flow.dispatch.region -> (tensor<6x4xf32>) {
// CHECK:           %[[D:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0] [2, 3, 2] [1, 1, 1]
// CHECK:           %[[DC:.*]] = tensor.collapse_shape %[[D]] {{\[}}[0, 1], [2]]
// CHECK:           linalg.matmul ins(%[[DC]], %{{.*}} :
func.func @collapsed_crops(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>, %w: tensor<4x4xf32>, %v: tensor<2x4xf32>) -> (tensor<4x4xf32>, tensor<6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = tensor.extract_slice %x[0, 0, 0] [2, 2, 4] [1, 1, 1] : tensor<2x3x4xf32> to tensor<2x2x4xf32>
  %cc = tensor.collapse_shape %c [[0, 1], [2]] : tensor<2x2x4xf32> into tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%cc, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = tensor.extract_slice %y[0, 0, 0] [2, 3, 2] [1, 1, 1] : tensor<2x3x4xf32> to tensor<2x3x2xf32>
  %dc = tensor.collapse_shape %d [[0, 1], [2]] : tensor<2x3x2xf32> into tensor<6x2xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  %m2 = linalg.matmul ins(%dc, %v : tensor<6x2xf32>, tensor<2x4xf32>) outs(%f2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  func.return %m, %m2 : tensor<4x4xf32>, tensor<6x4xf32>
}

// -----

// An insert of a root's result into a fill: IREE would fuse it, but IREE 3.13 cannot compile
// such a pre-formed region, so the (non-contiguous) insert is a copy dispatch, a generic that
// gathers from the source inside the window and keeps the (cloned) fill elsewhere.
// CHECK-LABEL: func.func @insert_into_fill
// CHECK:         %[[MM:.*]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           linalg.matmul
// CHECK:         flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK:           %[[PAD:.*]] = linalg.fill {{.*}} -> tensor<4x16xf32>
// CHECK:           linalg.generic {{.*}} ins(%[[PAD]] : tensor<4x16xf32>)
// CHECK:             tensor.extract %[[MM]]
// CHECK:             arith.select
// CHECK-NOT:     flow.tensor.update
func.func @insert_into_fill(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %big = tensor.empty() : tensor<4x16xf32>
  %pad = linalg.fill ins(%zero : f32) outs(%big : tensor<4x16xf32>) -> tensor<4x16xf32>
  %ins = tensor.insert_slice %m into %pad[0, 4] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x16xf32>
  func.return %ins : tensor<4x16xf32>
}

// -----

// Reshapes outside regions become flow.tensor.reshape, a lone fill flow.tensor.splat.
// CHECK-LABEL: func.func @reshape_and_lone_fill
// CHECK:         flow.tensor.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
// CHECK:         flow.tensor.splat %{{.*}} : tensor<4x8xf32>
// CHECK-NOT:     flow.dispatch.region
func.func @reshape_and_lone_fill(%a: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<4x8xf32>) {
  %one = arith.constant 1.0 : f32
  %r = tensor.collapse_shape %a [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r, %f : tensor<32xf32>, tensor<4x8xf32>
}

// -----

// A non-contiguous insert of a value nothing computes (no root) is a copy dispatch of its own
// with the fill cloned in; a contiguous one into a tensor is a flow.tensor.update.
// CHECK-LABEL: func.func @update_into_fill
// CHECK:         flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK:           %[[PAD:.*]] = linalg.fill
// CHECK:           linalg.generic {{.*}} ins(%[[PAD]] :
// CHECK-LABEL: func.func @update_rows
// CHECK:         flow.tensor.update %{{.*}}, %[[D:.*]][%{{.*}}, %{{.*}}] : tensor<2x16xf32> -> %[[D]] as tensor<4x16xf32>
// CHECK-NOT:     flow.dispatch.region
func.func @update_into_fill(%a: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %big = tensor.empty() : tensor<4x16xf32>
  %pad = linalg.fill ins(%zero : f32) outs(%big : tensor<4x16xf32>) -> tensor<4x16xf32>
  %ins = tensor.insert_slice %a into %pad[0, 4] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x16xf32>
  func.return %ins : tensor<4x16xf32>
}
func.func @update_rows(%a: tensor<2x16xf32>, %d: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %ins = tensor.insert_slice %a into %d[1, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<4x16xf32>
  func.return %ins : tensor<4x16xf32>
}

// -----

// A tensor.pad with low padding does not join its producer's region as a pad: IREE 3.13 builds
// such a region but computes the padded values at the wrong offset (dispatch_utils.has_low_padding).
// The contraction region writes it in IREE's own form instead, a store into the interior of a
// splat (padded_results.py; the option off: form-dispatch-regions-padded-results.mlir).
// CHECK-LABEL: func.func @pad_after_matmul
// CHECK:         %[[S:.*]] = flow.tensor.splat %{{.*}} : tensor<6x10xf32>
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<6x10xf32>) {
// CHECK:           %[[MM:.*]] = linalg.matmul
// CHECK:           %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[MM]] :
// CHECK-NOT:       tensor.pad
// CHECK:           %[[I:.*]] = tensor.insert_slice %[[RELU]] into %[[S]][1, 1] [4, 8] [1, 1]
// CHECK:           flow.return %[[I]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]
func.func @pad_after_matmul(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<6x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %p = tensor.pad %r low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<6x10xf32>
  func.return %p : tensor<6x10xf32>
}

// -----

// A bias broadcast of a constant (320 bytes: too big to inline, IREE's limit is 256) feeding the
// matmul's elementwise epilogue is cloned into the region: one dispatch, the constant captured.
// CHECK-LABEL: func.func @batch_matmul_constant_bias
// CHECK:         %[[CST:.*]] = arith.constant dense<{{.*}}> : tensor<2x40xf32>
// CHECK-NEXT:    %[[R:.*]] = flow.dispatch.region -> (tensor<2x3x40xf32>) {
// CHECK:           %[[BB:.*]] = linalg.generic {{.*}} ins(%[[CST]] : tensor<2x40xf32>)
// CHECK:           %[[MM:.*]] = linalg.batch_matmul
// CHECK:           %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[MM]], %[[BB]] :
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]
#bias = affine_map<(d0, d1, d2) -> (d0, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @batch_matmul_constant_bias(%a: tensor<2x3x8xf32>, %b: tensor<2x8x40xf32>) -> tensor<2x3x40xf32> {
  %zero = arith.constant 0.0 : f32
  %cst = arith.constant dense<[[-1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375], [-1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, -1.5]]> : tensor<2x40xf32>
  %e = tensor.empty() : tensor<2x3x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x40xf32>) -> tensor<2x3x40xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x3x8xf32>, tensor<2x8x40xf32>) outs(%f : tensor<2x3x40xf32>) -> tensor<2x3x40xf32>
  %eb = tensor.empty() : tensor<2x3x40xf32>
  %bb = linalg.generic {indexing_maps = [#bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : tensor<2x40xf32>) outs(%eb : tensor<2x3x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x3x40xf32>
  %add = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %bb : tensor<2x3x40xf32>, tensor<2x3x40xf32>) outs(%e : tensor<2x3x40xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x3x40xf32>
  func.return %add : tensor<2x3x40xf32>
}

// -----

// One broadcast of an argument read by the epilogues of two matmuls: cloned into both regions
// (each clone is an indexed read of %bias), so it costs no dispatch of its own.
// CHECK-LABEL: func.func @shared_bias_cloned_into_both
// CHECK-SAME:    %[[BIAS:[^:]*]]: tensor<16xf32>
// CHECK:         %[[R1:.*]] = flow.dispatch.region
// CHECK:           linalg.generic {{.*}} ins(%[[BIAS]] : tensor<16xf32>)
// CHECK:           linalg.matmul
// CHECK:           arith.addf
// CHECK:           flow.return
// CHECK:         %[[R2:.*]] = flow.dispatch.region
// CHECK:           linalg.generic {{.*}} ins(%[[BIAS]] : tensor<16xf32>)
// CHECK:           linalg.matmul ins(%[[R1]], %{{.*}} :
// CHECK:           arith.addf
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R2]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @shared_bias_cloned_into_both(%a: tensor<4x16xf32>, %w: tensor<16x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %bb = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m1 = linalg.matmul ins(%a, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%m1, %bb : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %m2 = linalg.matmul ins(%h1, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%m2, %bb : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  func.return %h2 : tensor<4x16xf32>
}

// -----

// Negative: a broadcast feeding a matmul's LHS is not cloned (a root's input producer keeps its
// own dispatch unless fusion is aggressive), nor is one the function returns.
// CHECK-LABEL: func.func @broadcast_into_matmul_lhs_not_cloned
// CHECK:         %[[BB:.*]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[G:.*]] = linalg.generic
// CHECK-NEXT:        ^bb0
// CHECK-NEXT:        linalg.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      flow.return %[[G]]
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK-NOT:       ^bb0
// CHECK:           linalg.matmul ins(%[[BB]], %{{.*}} :
// CHECK:         func.return %{{.*}}, %[[BB]]
// AGG-LABEL:   func.func @broadcast_into_matmul_lhs_not_cloned
// AGG:           %[[BB:.*]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// AGG:           flow.dispatch.region -> (tensor<4x8xf32>) {
// AGG:             linalg.matmul ins(%[[BB]], %{{.*}} :
func.func @broadcast_into_matmul_lhs_not_cloned(%v: tensor<16xf32>, %w: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %bb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x16xf32>
  %eo = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%bb, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %m, %bb : tensor<4x8xf32>, tensor<4x16xf32>
}

// -----

// Negative: a broadcast only on a named matmul's LHS, not returned, keeps its own dispatch,
// aggressive or not (only a linalg.generic consumer takes input producers, as in IREE).
// CHECK-LABEL: func.func @broadcast_lhs_only
// CHECK:         %[[BB:.*]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           linalg.matmul ins(%[[BB]], %{{.*}} :
// AGG-LABEL:   func.func @broadcast_lhs_only
// AGG:           %[[BB:.*]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// AGG:           flow.dispatch.region -> (tensor<4x8xf32>) {
// AGG:             linalg.matmul ins(%[[BB]], %{{.*}} :
func.func @broadcast_lhs_only(%v: tensor<16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %bb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x16xf32>
  %eo = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%bb, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %m : tensor<4x8xf32>
}

// -----

// Aggressive mode fuses an input producer into a linalg.generic consumer (here a contraction
// written as a generic); without it the producer keeps its own dispatch.
// CHECK-LABEL: func.func @negate_into_generic_contraction
// CHECK:         %[[NEG:.*]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           linalg.generic {{.*}} ins(%[[NEG]], %{{.*}} :
// AGG-LABEL:   func.func @negate_into_generic_contraction
// AGG:           flow.dispatch.region -> (tensor<4x8xf32>) {
// AGG:             %[[N:.*]] = linalg.generic
// AGG:             linalg.generic {{.*}} ins(%[[N]], %{{.*}} :
// AGG:             flow.return
// AGG-NEXT:      }
// AGG-NEXT:      func.return
func.func @negate_into_generic_contraction(%a: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  %eo = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  func.return %m : tensor<4x8xf32>
}

// -----

// Negative: a broadcast of a value computed at run time is not cloned (the clone would add a
// dependence between dispatches); it fuses with its producer as an elementwise dispatch.
// CHECK-LABEL: func.func @broadcast_of_computed_value_not_cloned
// CHECK:         %[[BB:.*]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK:           arith.negf
// CHECK:           linalg.generic
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NOT:       arith.negf
// CHECK:           linalg.matmul
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[BB]] :
func.func @broadcast_of_computed_value_not_cloned(%a: tensor<4x16xf32>, %w: tensor<16x16xf32>, %v: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %bb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%neg : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %add = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bb : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  func.return %add : tensor<4x16xf32>
}

// -----

// A layer norm: mean, then the sum of squared deviations over the same rows, then the
// normalisation. By default (reduction-chains=normalization) the chain is one region with the
// exact two-pass arithmetic; with reduction-chains=none each reduction is a root of its own.
// CHECK-LABEL: func.func @layer_norm
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]}
// CHECK:           %[[D:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[S]] :
// CHECK:           %[[Q:.*]] = linalg.generic {{.*}} ins(%[[D]], %[[D]] :
// CHECK:           %[[V:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[Q]] :
// CHECK:           %[[N:.*]] = linalg.generic {{.*}} ins(%[[D]], %[[V]] :
// CHECK:           flow.return %[[N]]
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
// NONE-LABEL: func.func @layer_norm
// NONE-COUNT-2:  flow.dispatch.region
// ALL-LABEL: func.func @layer_norm
// ALL-COUNT-1:   flow.dispatch.region
// ALL-NOT:       flow.dispatch.region
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @layer_norm(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %m = arith.divf %sum, %n : f32
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %q = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%d, %d : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  %v = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%q : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %norm = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%d, %v : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %var: f32, %out: f32):
    %mv = arith.divf %var, %n : f32
    %ve = arith.addf %mv, %eps : f32
    %r = math.rsqrt %ve : f32
    %y = arith.mulf %in, %r : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  func.return %norm : tensor<4x8xf32>
}

// -----

// The same layer norm with its mean accumulated in f64 (convert-graph-to-linalg widens long
// means: extf in the sum, the mean truncated back in the centring): still one region; without
// the chain (reduction-chains=none) each reduction is a root.
// CHECK-LABEL: func.func @layer_norm_wide_mean
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           arith.extf
// CHECK:           arith.truncf
// CHECK:           math.rsqrt
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
// NONE-LABEL: func.func @layer_norm_wide_mean
// NONE-COUNT-2:  flow.dispatch.region
// ALL-LABEL: func.func @layer_norm_wide_mean
// ALL-COUNT-1:   flow.dispatch.region
// ALL-NOT:       flow.dispatch.region
#id2w = affine_map<(d0, d1) -> (d0, d1)>
#rowsw = affine_map<(d0, d1) -> (d0)>
func.func @layer_norm_wide_mean(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %zero64 = arith.constant 0.0 : f64
  %n64 = arith.constant 8.0 : f64
  %n = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<4xf64>
  %f64 = linalg.fill ins(%zero64 : f64) outs(%e1 : tensor<4xf64>) -> tensor<4xf64>
  %s = linalg.generic {indexing_maps = [#id2w, #rowsw], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f64 : tensor<4xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %w = arith.extf %in : f32 to f64
    %a = arith.addf %acc, %w : f64
    linalg.yield %a : f64
  } -> tensor<4xf64>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#id2w, #rowsw, #id2w], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x8xf32>, tensor<4xf64>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %sum: f64, %out: f32):
    %m = arith.divf %sum, %n64 : f64
    %m32 = arith.truncf %m : f64 to f32
    %c = arith.subf %in, %m32 : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %q = linalg.generic {indexing_maps = [#id2w, #id2w, #id2w], iterator_types = ["parallel", "parallel"]} ins(%d, %d : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%i: f32, %j: f32, %out: f32):
    %p = arith.mulf %i, %j : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  %v = linalg.generic {indexing_maps = [#id2w, #rowsw], iterator_types = ["parallel", "reduction"]} ins(%q : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %norm = linalg.generic {indexing_maps = [#id2w, #rowsw, #id2w], iterator_types = ["parallel", "parallel"]} ins(%d, %v : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %var: f32, %out: f32):
    %mv = arith.divf %var, %n : f32
    %ve = arith.addf %mv, %eps : f32
    %r = math.rsqrt %ve : f32
    %y = arith.mulf %in, %r : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  func.return %norm : tensor<4x8xf32>
}

// -----

// Negative: the second sum reduces the columns, not the rows, so it cannot be tiled along the
// first one's rows: two regions in every mode.
// CHECK-LABEL: func.func @sums_over_other_dims
// CHECK-COUNT-2: flow.dispatch.region
// ALL-LABEL: func.func @sums_over_other_dims
// ALL-COUNT-2:   flow.dispatch.region
func.func @sums_over_other_dims(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %c = arith.subf %in, %sum : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<8xf32>
  %g = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  %cols = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%d : tensor<4x8xf32>) outs(%g : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  func.return %cols : tensor<8xf32>
}

// -----

// Negative: a matmul between the two reductions is a root of its own; the chain would hold two
// roots of different kinds, so the sums stay in separate regions.
// CHECK-LABEL: func.func @matmul_between_sums
// CHECK-COUNT-3: flow.dispatch.region
func.func @matmul_between_sums(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %c = arith.subf %in, %sum : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%d, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%mm : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  func.return %t : tensor<4xf32>
}

// -----

// Issue 20: a horizontally fused dot (x . [Wa | Wb]) read only through column slices, each
// with an elementwise consumer. The consumers cannot share the dot's region (IREE 3.13's CPU
// codegen rejects consumers of a slice of the root) and the slices are not contiguous, so
// unsplit this was 3 dispatches; computed per slice it is 2, each weight slice cloned in.
// CHECK-LABEL: func.func @sliced_matmul_is_split
// CHECK-SAME:    (%[[X:.*]]: tensor<8x16xf32>, %[[W:.*]]: tensor<16x32xf32>)
// CHECK:         flow.dispatch.region -> (tensor<8x12xf32>) {
// CHECK:           %[[WA:.*]] = tensor.extract_slice %[[W]][0, 0] [16, 12] [1, 1]
// CHECK:           %[[MA:.*]] = linalg.matmul ins(%[[X]], %[[WA]] : tensor<8x16xf32>, tensor<16x12xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[MA]] : tensor<8x12xf32>)
// CHECK:           arith.maximumf
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<8x20xf32>) {
// CHECK:           %[[WB:.*]] = tensor.extract_slice %[[W]][0, 12] [16, 20] [1, 1]
// CHECK:           %[[MB:.*]] = linalg.matmul ins(%[[X]], %[[WB]] : tensor<8x16xf32>, tensor<16x20xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[MB]] : tensor<8x20xf32>)
// CHECK:           math.exp
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
// CHECK-NOT:     tensor<8x32xf32>
// CHECK:         func.return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @sliced_matmul_is_split(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> (tensor<8x12xf32>, tensor<8x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %a = tensor.extract_slice %m[0, 0] [8, 12] [1, 1] : tensor<8x32xf32> to tensor<8x12xf32>
  %b = tensor.extract_slice %m[0, 12] [8, 20] [1, 1] : tensor<8x32xf32> to tensor<8x20xf32>
  %ea = tensor.empty() : tensor<8x12xf32>
  %ra = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x12xf32>) outs(%ea : tensor<8x12xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.maximumf %v, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x12xf32>
  %eb = tensor.empty() : tensor<8x20xf32>
  %rb = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8x20xf32>) outs(%eb : tensor<8x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.exp %v : f32
    linalg.yield %y : f32
  } -> tensor<8x20xf32>
  func.return %ra, %rb : tensor<8x12xf32>, tensor<8x20xf32>
}

// -----

// Issue 20: column slices returned as they are (no consumer) would each be a copy dispatch
// (non-contiguous); the dot computed per slice is 2 dispatches instead of 1 + 2 copies.
// CHECK-LABEL: func.func @sliced_matmul_returned_is_split
// CHECK-COUNT-2: linalg.matmul
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
func.func @sliced_matmul_returned_is_split(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %a = tensor.extract_slice %m[0, 0] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %b = tensor.extract_slice %m[0, 16] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  func.return %a, %b : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Negative: row slices of the result are contiguous (free flow.tensor.slice of one dispatch);
// splitting would add a dispatch, so the matmul stays whole.
// CHECK-LABEL: func.func @row_slices_stay
// CHECK:         flow.dispatch.region -> (tensor<8x32xf32>)
// CHECK-COUNT-1: linalg.matmul
// CHECK-NOT:     linalg.matmul
// CHECK:         func.return
func.func @row_slices_stay(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %a = tensor.extract_slice %m[0, 0] [4, 32] [1, 1] : tensor<8x32xf32> to tensor<4x32xf32>
  %b = tensor.extract_slice %m[4, 0] [4, 32] [1, 1] : tensor<8x32xf32> to tensor<4x32xf32>
  func.return %a, %b : tensor<4x32xf32>, tensor<4x32xf32>
}

// -----

// Negative: one slice feeds another matmul (cloned into its region as an indexed read, no
// dispatch of its own); splitting would not save a dispatch, so the dot stays whole.
// CHECK-LABEL: func.func @slice_into_matmul_stays
// CHECK:         flow.dispatch.region -> (tensor<8x32xf32>)
// CHECK:           linalg.matmul {{.*}} -> tensor<8x32xf32>
// CHECK:         func.return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @slice_into_matmul_stays(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %w2: tensor<16x4xf32>) -> (tensor<8x4xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %a = tensor.extract_slice %m[0, 0] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %b = tensor.extract_slice %m[0, 16] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m2 = linalg.matmul ins(%a, %w2 : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %eb = tensor.empty() : tensor<8x16xf32>
  %rb = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8x16xf32>) outs(%eb : tensor<8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.exp %v : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  func.return %m2, %rb : tensor<8x4xf32>, tensor<8x16xf32>
}

// -----

// Negative: overlapping slices would compute the overlap twice; the dot stays whole.
// CHECK-LABEL: func.func @overlapping_slices_stay
// CHECK:         linalg.matmul {{.*}} -> tensor<8x32xf32>
// CHECK:         func.return
func.func @overlapping_slices_stay(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> (tensor<8x20xf32>, tensor<8x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %a = tensor.extract_slice %m[0, 0] [8, 20] [1, 1] : tensor<8x32xf32> to tensor<8x20xf32>
  %b = tensor.extract_slice %m[0, 12] [8, 20] [1, 1] : tensor<8x32xf32> to tensor<8x20xf32>
  func.return %a, %b : tensor<8x20xf32>, tensor<8x20xf32>
}

// -----

// A squeeze-excite scale: the consumer walks 16x16 pixels the 1x1-spatial conv root does not
// have (it replicates the conv's result). IREE 3.13's CPU codegen fails on such a conv
// dispatch, so the scale starts its own; a consumer walking the root's own loops still joins.
// CHECK-LABEL: func.func @conv_then_replicating_consumer
// CHECK:       %[[S:.*]] = flow.dispatch.region -> (tensor<1x4x1x1xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         linalg.generic
// CHECK:         flow.return
// CHECK:       flow.dispatch.region -> (tensor<1x4x8x8xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK:         linalg.generic {{.*}} ins(%x, %[[S]] :
func.func @conv_then_replicating_consumer(%x: tensor<1x4x8x8xf32>, %p: tensor<1x2x1x1xf32>, %w: tensor<4x2x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x4x1x1xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x1x1xf32>, tensor<4x2x1x1xf32>) outs(%f : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x1x1xf32>) outs(%e : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x4x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %r : tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%e2 : tensor<1x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  return %s : tensor<1x4x8x8xf32>
}

// -----

// A torch-mlir conv block: pad -> conv (bias broadcast as init) -> ReLU. The conv is the root;
// the bias broadcast and the ReLU join it. The low-padding pad stays outside, where IREE writes
// it itself: with its producer in a region IREE 3.13 computes it wrongly, and inside the conv's
// region the conv measured 1.4-2.2x slower.
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK: %[[PAD:.*]] = tensor.pad
// CHECK: flow.dispatch.region -> (tensor<1x8x16x16xf32>)
// CHECK-NOT: tensor.pad
// CHECK: linalg.broadcast
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[PAD]],
// CHECK: linalg.generic
// CHECK: flow.return
// CHECK-NOT: flow.dispatch.region
// CHECK: func.return
func.func @conv_bias_relu(%x: tensor<1x4x16x16xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x16x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %0 = tensor.empty() : tensor<1x8x16x16xf32>
  %bias = linalg.broadcast ins(%b : tensor<8xf32>) outs(%0 : tensor<1x8x16x16xf32>) dimensions = [0, 2, 3]
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x4x18x18xf32>, tensor<8x4x3x3xf32>) outs(%bias : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x8x16x16xf32>) outs(%0 : tensor<1x8x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = arith.cmpf ugt, %in, %cst : f32
    %4 = arith.select %3, %in, %cst : f32
    linalg.yield %4 : f32
  } -> tensor<1x8x16x16xf32>
  return %2 : tensor<1x8x16x16xf32>
}

// -----

// A transposing copy of a matmul's epilogue, read through reshapes (attention's K laid out as
// [heads, dim, keys]), is not fused into the matmul's dispatch: it cannot be tiled along the
// matmul's loops (IREE 3.13 rejects such a region). The epilogue stays with the matmul.

// CHECK-LABEL: func.func @transposing_consumer_after_reshape
// CHECK:       %[[MM:.*]] = flow.dispatch.region -> (tensor<8x16xf32>)
// CHECK:         linalg.matmul
// CHECK:         linalg.generic
// CHECK:         flow.return
// CHECK:       flow.dispatch.region -> (tensor<2x8x8xf32>)
// CHECK:         tensor.expand_shape %[[MM]]
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>
func.func @transposing_consumer_after_reshape(%x: tensor<8x4xf32>, %w: tensor<4x16xf32>, %b: tensor<16xf32>) -> tensor<2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x4xf32>, tensor<4x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %heads = tensor.expand_shape %biased [[0], [1, 2]] output_shape [8, 2, 8] : tensor<8x16xf32> into tensor<8x2x8xf32>
  %et = tensor.empty() : tensor<2x8x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%heads : tensor<8x2x8xf32>) outs(%et : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x8x8xf32>
  func.return %t : tensor<2x8x8xf32>
}

// -----

// A consumer that gathers from a producer's result inside its payload (tensor.extract at loaded
// ids: a bilinear Resize's second pass) does not take that producer: IREE cannot tile such a read
// and keeps the whole producer on its 32 KB stack. Two regions. A producer read through an
// indexing map (the ids' scaling) still joins.
// CHECK-LABEL: func.func @gather_from_producer
// CHECK:         %[[P:.*]] = flow.dispatch.region -> (tensor<64x256xf32>)
// CHECK:           arith.addf
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<64x256xf32>)
// CHECK:           arith.muli
// CHECK:           tensor.extract %[[P]]
// CHECK:           flow.return
func.func @gather_from_producer(%x: tensor<64x256xf32>, %idx: tensor<256xi64>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  %ei = tensor.empty() : tensor<256xi64>
  %half = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%idx : tensor<256xi64>) outs(%ei : tensor<256xi64>) {
  ^bb0(%i: i64, %o: i64):
    %one = arith.constant 1 : i64
    %m = arith.muli %i, %one : i64
    linalg.yield %m : i64
  } -> tensor<256xi64>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%half : tensor<256xi64>) outs(%e2 : tensor<64x256xf32>) {
  ^bb0(%i: i64, %o: f32):
    %row = linalg.index 0 : index
    %col = arith.index_cast %i : i64 to index
    %v = tensor.extract %p[%row, %col] : tensor<64x256xf32>
    linalg.yield %v : f32
  } -> tensor<64x256xf32>
  func.return %c : tensor<64x256xf32>
}

// -----

// A root's result split on its way to a consumer (Swin's window scores: windows x heads split
// before a per-head position bias, which reads only part of the split group, so
// linalg-sink-reshapes cannot move the expand): the consumer does not join the root's region
// (IREE 3.13 cannot tile it back through the reshape); the consumer's region reads the expand of
// the root's result as its input (a view of the loaded buffer, which IREE builds). A unit-dim
// expand still joins the root's region (the second function).
// CHECK-LABEL: func.func @root_split_before_consumer
// CHECK:         %[[S:.*]] = flow.dispatch.region -> (tensor<8x16x16xf32>)
// CHECK:           linalg.batch_matmul
// CHECK-NOT:       tensor.expand_shape
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<2x4x16x16xf32>)
// CHECK:           tensor.expand_shape %[[S]]
// CHECK:           linalg.generic
// CHECK:           flow.return
func.func @root_split_before_consumer(%q: tensor<8x16x32xf32>, %k: tensor<8x32x16xf32>, %bias: tensor<4x16x16xf32>) -> tensor<2x4x16x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%f : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %x = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  %e2 = tensor.empty() : tensor<2x4x16x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %bias : tensor<2x4x16x16xf32>, tensor<4x16x16xf32>) outs(%e2 : tensor<2x4x16x16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %a = arith.addf %i, %j : f32
    linalg.yield %a : f32
  } -> tensor<2x4x16x16xf32>
  func.return %g : tensor<2x4x16x16xf32>
}

// CHECK-LABEL: func.func @root_unit_expand_before_consumer
// CHECK:         flow.dispatch.region -> (tensor<1x8x16xf32>)
// CHECK:           linalg.matmul
// CHECK:           tensor.expand_shape
// CHECK:           linalg.generic
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @root_unit_expand_before_consumer(%a: tensor<8x32xf32>, %w: tensor<32x16xf32>) -> tensor<1x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 8, 16] : tensor<8x16xf32> into tensor<1x8x16xf32>
  %e2 = tensor.empty() : tensor<1x8x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x16xf32>) outs(%e2 : tensor<1x8x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.maximumf %i, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x8x16xf32>
  func.return %g : tensor<1x8x16xf32>
}
