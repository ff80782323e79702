// RUN: fusion-opt %s --split-input-file -p linalg-raise-attention | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-raise-attention | fusion-opt - --split-input-file > /dev/null
// The pass's helper modules these cases exercise: linalg/attention_match.py,
// linalg/attention_mask.py.

// QK^T (x scale) (+ mask) -> softmax (max, exp(x - max), sum, div) -> . V as one
// iree_linalg_ext.attention (IREE 3.13 syntax). Small shapes: 2 heads, 4 queries/keys, head dim 8.
// bert_mini's form: Q, K, V read as [seq, head, dim] through transposed maps (no copies), a
// runtime mask over the keys (clamped so IREE's mask * log2 e cannot overflow), torch's argmax
// result on the max (unused), and the transpose after A.V folded into the output map.
// CHECK-LABEL: func.func @bert_like
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x2x8xf32>, %[[K:.*]]: tensor<4x2x8xf32>, %[[V:.*]]: tensor<4x2x8xf32>, %[[M:.*]]: tensor<4xf32>)
// CHECK:         %[[MC:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<4xf32>)
// CHECK:           arith.constant -8.50705867e+37 : f32
// CHECK:         %[[S:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%[[Q]], %[[K]], %[[V]], %[[S]], %[[MC]] : tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>, f32, tensor<4xf32>) outs(%{{.*}} : tensor<4x2x8xf32>) {
// CHECK-NEXT:    ^bb0(%[[SC:.*]]: f32):
// CHECK-NEXT:      iree_linalg_ext.yield %[[SC]] : f32
// CHECK-NEXT:    } -> tensor<4x2x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[R]] : tensor<4x2x8xf32>
func.func @bert_like(%q: tensor<4x2x8xf32>, %k: tensor<4x2x8xf32>, %v: tensor<4x2x8xf32>, %mask: tensor<4xf32>) -> tensor<4x2x8xf32> {
  %zero0 = arith.constant 0.000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero0 : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero0 : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x2x8xf32>, tensor<4x2x8xf32>) outs(%z3 : tensor<2x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x4xf32>
  %e3s = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<2x4x4xf32>, tensor<4xf32>) outs(%e3s : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 1.250000e-01 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<2x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %c0i = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<2x4xi64>
  %ii = linalg.fill ins(%c0i : i64) outs(%ei : tensor<2x4xi64>) -> tensor<2x4xi64>
  %mx, %idx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi, %ii : tensor<2x4xf32>, tensor<2x4xi64>) {
  ^bb0(%a: f32, %o: f32, %oi: i64):
    %i = linalg.index 2 : index
    %ic = arith.index_cast %i : index to i64
    %m = arith.maximumf %a, %o : f32
    %gt = arith.cmpf ogt, %a, %o : f32
    %si = arith.select %gt, %ic, %oi : i64
    linalg.yield %m, %si : f32, i64
  } -> (tensor<2x4xf32>, tensor<2x4xi64>)
  %ee = tensor.empty() : tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%si0 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<2x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x4xf32>, tensor<4x2x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  %eo = tensor.empty() : tensor<4x2x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pv : tensor<2x4x8xf32>) outs(%eo : tensor<4x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x2x8xf32>
  return %out : tensor<4x2x8xf32>
}

// -----

// gpt2_mini's form: a constant causal mask of 0 / -FLT_MAX; the mask constant is clamped at
// compile time (no clamp op), everything else disappears.
// CHECK-LABEL: func.func @gpt2_causal
// CHECK:         %[[C:.*]] = arith.constant dense<[[0.000000e+00, -8.50705867e+37, -8.50705867e+37, -8.50705867e+37], [0.000000e+00, 0.000000e+00, -8.50705867e+37, -8.50705867e+37]
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[C]] :
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[R]]
func.func @gpt2_causal(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %causal = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %zero0 = arith.constant 0.000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero0 : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero0 : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%z3 : tensor<2x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x4xf32>
  %e3s = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %causal : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e3s : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 1.250000e-01 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<2x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %c0i = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<2x4xi64>
  %ii = linalg.fill ins(%c0i : i64) outs(%ei : tensor<2x4xi64>) -> tensor<2x4xi64>
  %mx, %idx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi, %ii : tensor<2x4xf32>, tensor<2x4xi64>) {
  ^bb0(%a: f32, %o: f32, %oi: i64):
    %i = linalg.index 2 : index
    %ic = arith.index_cast %i : index to i64
    %m = arith.maximumf %a, %o : f32
    %gt = arith.cmpf ogt, %a, %o : f32
    %si = arith.select %gt, %ic, %oi : i64
    linalg.yield %m, %si : f32, i64
  } -> (tensor<2x4xf32>, tensor<2x4xi64>)
  %ee = tensor.empty() : tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%si0 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<2x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  return %pv : tensor<2x4x8xf32>
}

// -----

// bert's padding mask select(keep, 0, -FLT_MAX) from a generic: the generic is rewritten with
// the clamped constant (no extra op).
// CHECK-LABEL: func.func @select_mask
// CHECK:         %[[MASK:.*]] = linalg.generic
// CHECK:           %[[LO:.*]] = arith.constant -8.50705867e+37 : f32
// CHECK:           arith.select %{{.*}}, %{{.*}}, %[[LO]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MASK]] :
func.func @select_mask(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %keep: tensor<4xi64>) -> tensor<2x4x8xf32> {
  %em = tensor.empty() : tensor<4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%keep : tensor<4xi64>) outs(%em : tensor<4xf32>) {
  ^bb0(%a: i64, %o: f32):
    %c0 = arith.constant 0 : i64
    %ne = arith.cmpi ne, %a, %c0 : i64
    %f0 = arith.constant 0.000000e+00 : f32
    %fm = arith.constant -3.40282347E+38 : f32
    %r = arith.select %ne, %f0, %fm : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %zero0 = arith.constant 0.000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero0 : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero0 : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%z3 : tensor<2x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x4xf32>
  %e3s = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<2x4x4xf32>, tensor<4xf32>) outs(%e3s : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 1.250000e-01 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<2x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<2x4xf32>
  %ee = tensor.empty() : tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%si0 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<2x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  return %pv : tensor<2x4x8xf32>
}

// -----

// The probabilities are also a result: nothing is raised.
// CHECK-LABEL: func.func @probs_used_elsewhere
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         math.exp
// CHECK:         arith.divf
func.func @probs_used_elsewhere(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %mask: tensor<4xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x4xf32>) {
  %zero0 = arith.constant 0.000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero0 : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero0 : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%z3 : tensor<2x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x4xf32>
  %e3s = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<2x4x4xf32>, tensor<4xf32>) outs(%e3s : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 1.250000e-01 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<2x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<2x4xf32>
  %ee = tensor.empty() : tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%si0 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<2x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  return %pv, %p : tensor<2x4x8xf32>, tensor<2x4x4xf32>
}

// -----

// No softmax between the contractions: nothing is raised.
// CHECK-LABEL: func.func @no_softmax
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK-COUNT-2: arith.mulf
func.func @no_softmax(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zero0 = arith.constant 0.000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero0 : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero0 : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%z3 : tensor<2x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x4xf32>
  %e3s = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk : tensor<2x4x4xf32>) outs(%e3s : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.250000e-01 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  return %pv : tensor<2x4x8xf32>
}

// -----

// The softmax normalises over the queries, not the keys that A.V reduces: nothing is raised.
// CHECK-LABEL: func.func @softmax_wrong_dim
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         math.exp
func.func @softmax_wrong_dim(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zero0 = arith.constant 0.000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero0 : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero0 : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%z3 : tensor<2x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x4xf32>
  %e3s = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk : tensor<2x4x4xf32>) outs(%e3s : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.250000e-01 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<2x4xf32>
  %ee = tensor.empty() : tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%ex : tensor<2x4x4xf32>) outs(%si0 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%ee : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<2x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  return %pv : tensor<2x4x8xf32>
}
