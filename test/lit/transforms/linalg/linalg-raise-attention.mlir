// RUN: fusion-opt %s --split-input-file -p linalg-raise-attention | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-raise-attention | fusion-opt - --split-input-file > /dev/null
// RUN: fusion-opt %s --split-input-file -p 'linalg-raise-attention{nan-guards=false}' | filecheck %s --check-prefix=KEEP
// RUN: fusion-opt %s --split-input-file -p 'linalg-raise-attention{min-scores-bytes=128}' | filecheck %s --check-prefix=AT-MIN
// RUN: fusion-opt %s --split-input-file -p 'linalg-raise-attention{min-scores-bytes=129}' | filecheck %s --check-prefix=UNDER-MIN
// The pass's helper modules these cases exercise: linalg/attention_match.py (its pieces in
// linalg/attention_pieces.py; linalg/attention_groups.py: linalg-raise-attention-shared-kv-heads.mlir),
// linalg/attention_mask.py, linalg/attention_operands.py, linalg/attention_guard.py,
// linalg/attention_casts.py (the f16 cases: onnx_f16_mixed, onnx_f16_isnan_guarded, f16_guard_compares_rounding, f16_rounded_products,
// onnx_f16_rounded_scores, f16_score_copy_not_scores, f32_scores_rounded_to_f16; bf16:
// onnx_bf16_mixed).

// QK^T (x scale) (+ mask) -> softmax (max, exp(x - max), sum, div) -> . V as one
// iree_linalg_ext.attention (IREE 3.13 syntax). Small shapes: 2 heads, 4 queries/keys, head dim 8.
// bert_mini's form: Q, K, V read as [seq, head, dim] through transposed maps (no copies), a
// runtime mask over the keys (clamped so IREE's mask * log2 e cannot overflow), torch's argmax
// result on the max (unused), and the transpose after A.V folded into the output map.
// With min-scores-bytes (the llvm-cpu pipelines raise only large scores) bert_like's 2 x 4 x 4
// f32 scores, 128 bytes, are raised at a minimum of 128 and kept decomposed at 129.
// AT-MIN-LABEL:    func.func @bert_like
// AT-MIN:            iree_linalg_ext.attention
// UNDER-MIN-LABEL: func.func @bert_like
// UNDER-MIN-NOT:     iree_linalg_ext.attention
// UNDER-MIN:         math.exp
// UNDER-MIN:         func.return
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

// bert_like in f16 (Q, K, V, mask and result f16): raised the same, with the f16 scale, and the
// region's score in f32, the type IREE computes Q.K^T of f16 operands in (an f16 score fails to
// build: "type of yield operand 1 ('f16') doesn't match ... ('f32')").
// CHECK-LABEL: func.func @bert_like_f16
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x2x8xf16>, %[[K:.*]]: tensor<4x2x8xf16>, %[[V:.*]]: tensor<4x2x8xf16>, %[[M:.*]]: tensor<4xf16>)
// CHECK:         %[[MC:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<4xf16>)
// CHECK:           arith.constant -1.637600e+04 : f16
// CHECK:         %[[S:.*]] = arith.constant 1.250000e-01 : f16
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [{{.*}}]> ins(%[[Q]], %[[K]], %[[V]], %[[S]], %[[MC]] : tensor<4x2x8xf16>, tensor<4x2x8xf16>, tensor<4x2x8xf16>, f16, tensor<4xf16>) outs(%{{.*}} : tensor<4x2x8xf16>) {
// CHECK-NEXT:    ^bb0(%[[SC:.*]]: f32):
// CHECK-NEXT:      iree_linalg_ext.yield %[[SC]] : f32
// CHECK-NEXT:    } -> tensor<4x2x8xf16>
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[R]] : tensor<4x2x8xf16>
func.func @bert_like_f16(%q: tensor<4x2x8xf16>, %k: tensor<4x2x8xf16>, %v: tensor<4x2x8xf16>, %mask: tensor<4xf16>) -> tensor<4x2x8xf16> {
  %zero0 = arith.constant 0.000000e+00 : f16
  %e3 = tensor.empty() : tensor<2x4x4xf16>
  %z3 = linalg.fill ins(%zero0 : f16) outs(%e3 : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %e3v = tensor.empty() : tensor<2x4x8xf16>
  %z3v = linalg.fill ins(%zero0 : f16) outs(%e3v : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x2x8xf16>, tensor<4x2x8xf16>) outs(%z3 : tensor<2x4x4xf16>) {
  ^bb0(%ca: f16, %cb: f16, %co: f16):
    %cm = arith.mulf %ca, %cb : f16
    %cs = arith.addf %co, %cm : f16
    linalg.yield %cs : f16
  } -> tensor<2x4x4xf16>
  %e3s = tensor.empty() : tensor<2x4x4xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<2x4x4xf16>, tensor<4xf16>) outs(%e3s : tensor<2x4x4xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %c = arith.constant 1.250000e-01 : f16
    %y = arith.mulf %a, %c : f16
    %z = arith.addf %y, %b : f16
    linalg.yield %z : f16
  } -> tensor<2x4x4xf16>
  %ninf = arith.constant 0xFC00 : f16
  %er = tensor.empty() : tensor<2x4xf16>
  %mi = linalg.fill ins(%ninf : f16) outs(%er : tensor<2x4xf16>) -> tensor<2x4xf16>
  %c0i = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<2x4xi64>
  %ii = linalg.fill ins(%c0i : i64) outs(%ei : tensor<2x4xi64>) -> tensor<2x4xi64>
  %mx, %idx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf16>) outs(%mi, %ii : tensor<2x4xf16>, tensor<2x4xi64>) {
  ^bb0(%a: f16, %o: f16, %oi: i64):
    %i = linalg.index 2 : index
    %ic = arith.index_cast %i : index to i64
    %m = arith.maximumf %a, %o : f16
    %gt = arith.cmpf ogt, %a, %o : f16
    %si = arith.select %gt, %ic, %oi : i64
    linalg.yield %m, %si : f16, i64
  } -> (tensor<2x4xf16>, tensor<2x4xi64>)
  %ee = tensor.empty() : tensor<2x4x4xf16>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<2x4x4xf16>, tensor<2x4xf16>) outs(%ee : tensor<2x4x4xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %d = arith.subf %a, %b : f16
    %e = math.exp %d : f16
    linalg.yield %e : f16
  } -> tensor<2x4x4xf16>
  %zero = arith.constant 0.000000e+00 : f16
  %si0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2x4xf16>) -> tensor<2x4xf16>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf16>) outs(%si0 : tensor<2x4xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %o : f16
    linalg.yield %s : f16
  } -> tensor<2x4xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf16>, tensor<2x4xf16>) outs(%ee : tensor<2x4x4xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %dv = arith.divf %a, %b : f16
    linalg.yield %dv : f16
  } -> tensor<2x4x4xf16>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x4xf16>, tensor<4x2x8xf16>) outs(%z3v : tensor<2x4x8xf16>) {
  ^bb0(%ca: f16, %cb: f16, %co: f16):
    %cm = arith.mulf %ca, %cb : f16
    %cs = arith.addf %co, %cm : f16
    linalg.yield %cs : f16
  } -> tensor<2x4x8xf16>
  %eo = tensor.empty() : tensor<4x2x8xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pv : tensor<2x4x8xf16>) outs(%eo : tensor<4x2x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<4x2x8xf16>
  return %out : tensor<4x2x8xf16>
}

// -----

// gpt2_mini's form: a constant causal mask of 0 / -FLT_MAX; the mask constant is clamped at

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

// -----

// minilm_l6's form (torch's scaled_dot_product_attention through torch-mlir): Q and K copied out
// of the projections as [heads, seq, dim] and [heads, dim, seq], each scaled by
// 1/sqrt(sqrt(dim)), a batch_matmul, and torch's NaN guard on the probabilities. The copies
// fold away: the attention reads the projections in place (their unit dim dropped), the two
// factors multiply into its scale (0.5946 x 0.5946 = 1/sqrt(8)), and the guard moves after it:
// a NaN output is a row torch zeroes, i.e. sum_k 0 * V[k, n] (0, or NaN where V is not finite),
// each term written V - V (the same value; IREE's sm_80 codegen builds it, not 0 * V).
// CHECK-LABEL: func.func @torch_sdpa_guarded
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x4x16xf32>, %[[K:.*]]: tensor<1x4x16xf32>, %[[V:.*]]: tensor<1x4x16xf32>, %[[M:.*]]: tensor<4xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK-DAG:     %[[QE:.*]] = tensor.expand_shape %[[Q]] {{.*}} into tensor<1x4x2x8xf32>
// CHECK-DAG:     %[[QC:.*]] = tensor.collapse_shape %[[QE]] {{.*}} into tensor<4x2x8xf32>
// CHECK-DAG:     %[[S:.*]] = arith.constant 0.353553{{[0-9]*}} : f32
// CHECK:         %[[Z:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[VE:.*]] : tensor<4x2x8xf32>)
// CHECK-NEXT:    ^bb0(%[[VX:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.subf %[[VX]], %[[VX]] : f32
// CHECK-NEXT:      arith.addf %[[ACC]], %[[T]] : f32
// CHECK:         %[[A:.*]] = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%[[QC]], %{{.*}}, %[[VE]], %[[S]], %{{.*}} : tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>, f32, tensor<4xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[A]], %[[Z]] : tensor<4x2x8xf32>, tensor<2x8xf32>)
// CHECK:           %[[NAN:.*]] = arith.cmpf une, %[[X:.*]], %[[X]] : f32
// CHECK:           arith.select %[[NAN]], %{{.*}}, %[[X]] : f32
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     math.exp
// CHECK:         func.return
// KEEP-LABEL:  func.func @torch_sdpa_guarded
// KEEP-NOT:    iree_linalg_ext.attention
// KEEP:        math.exp
func.func @torch_sdpa_guarded(%qp: tensor<1x4x16xf32>, %kp: tensor<1x4x16xf32>, %vp: tensor<1x4x16xf32>, %mask: tensor<4xf32>) -> tensor<1x4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %qe = tensor.expand_shape %qp [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : tensor<1x4x16xf32> into tensor<1x4x2x8xf32>
  %et = tensor.empty() : tensor<1x2x4x8xf32>
  %qt = linalg.transpose ins(%qe : tensor<1x4x2x8xf32>) outs(%et : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %ke = tensor.expand_shape %kp [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : tensor<1x4x16xf32> into tensor<1x4x2x8xf32>
  %et2 = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%ke : tensor<1x4x2x8xf32>) outs(%et2 : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %eqs = tensor.empty() : tensor<1x2x4x8xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qt : tensor<1x2x4x8xf32>) outs(%eqs : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.594603539 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x8xf32>
  %eks = tensor.empty() : tensor<1x2x8x4xf32>
  %ks = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kt : tensor<1x2x4x8xf32>) outs(%eks : tensor<1x2x8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.594603539 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x8x4xf32>
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %k3 = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %qk = linalg.batch_matmul ins(%q3, %k3 : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ex4 = tensor.empty() : tensor<1x2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<2x4x4xf32>, tensor<4xf32>) outs(%ex4 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : tensor<1x2x4x4xf32>) outs(%mi : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4xf32>
  %ee = tensor.empty() : tensor<1x2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%ee : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1x2x4x4xf32>
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x4x4xf32>) outs(%si0 : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4xf32>
  %ep = tensor.empty() : tensor<1x2x4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%ep : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    %nan = arith.cmpf une, %dv, %dv : f32
    %z = arith.constant 0.000000e+00 : f32
    %g = arith.select %nan, %z, %dv : f32
    linalg.yield %g : f32
  } -> tensor<1x2x4x4xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %v2 = tensor.collapse_shape %vp [[0, 1], [2]] : tensor<1x4x16xf32> into tensor<4x16xf32>
  %v3 = tensor.expand_shape %v2 [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p3, %v3 : tensor<2x4x4xf32>, tensor<4x2x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  %eo = tensor.empty() : tensor<1x4x2x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv : tensor<2x4x8xf32>) outs(%eo : tensor<1x4x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x2x8xf32>
  %flat = tensor.collapse_shape %out [[0], [1], [2, 3]] : tensor<1x4x2x8xf32> into tensor<1x4x16xf32>
  return %flat : tensor<1x4x16xf32>
}

// -----

// The same guard as our ONNX importer writes IsNaN: not (p oeq p), a select of i1 constants.
// The raised form is the same.
// CHECK-LABEL: func.func @onnx_isnan_guarded
// CHECK:         %[[Z:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel"]
// CHECK:         %[[A:.*]] = iree_linalg_ext.attention
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[Z]] : tensor<4x2x8xf32>, tensor<2x8xf32>)
// CHECK:           %[[NAN:.*]] = arith.cmpf une, %[[X:.*]], %[[X]] : f32
// CHECK:           arith.select %[[NAN]], %{{.*}}, %[[X]] : f32
// CHECK-NOT:     math.exp
// CHECK:         func.return
// KEEP-LABEL:  func.func @onnx_isnan_guarded
// KEEP-NOT:    iree_linalg_ext.attention
func.func @onnx_isnan_guarded(%qp: tensor<1x4x16xf32>, %kp: tensor<1x4x16xf32>, %vp: tensor<1x4x16xf32>, %mask: tensor<4xf32>) -> tensor<1x4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %qe = tensor.expand_shape %qp [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : tensor<1x4x16xf32> into tensor<1x4x2x8xf32>
  %et = tensor.empty() : tensor<1x2x4x8xf32>
  %qt = linalg.transpose ins(%qe : tensor<1x4x2x8xf32>) outs(%et : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %ke = tensor.expand_shape %kp [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : tensor<1x4x16xf32> into tensor<1x4x2x8xf32>
  %et2 = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%ke : tensor<1x4x2x8xf32>) outs(%et2 : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %eqs = tensor.empty() : tensor<1x2x4x8xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qt : tensor<1x2x4x8xf32>) outs(%eqs : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.594603539 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x8xf32>
  %eks = tensor.empty() : tensor<1x2x8x4xf32>
  %ks = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kt : tensor<1x2x4x8xf32>) outs(%eks : tensor<1x2x8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.594603539 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x8x4xf32>
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %k3 = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %qk = linalg.batch_matmul ins(%q3, %k3 : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ex4 = tensor.empty() : tensor<1x2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<2x4x4xf32>, tensor<4xf32>) outs(%ex4 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : tensor<1x2x4x4xf32>) outs(%mi : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4xf32>
  %ee = tensor.empty() : tensor<1x2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%ee : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1x2x4x4xf32>
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x4x4xf32>) outs(%si0 : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4xf32>
  %ep = tensor.empty() : tensor<1x2x4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%ep : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    %eq = arith.cmpf oeq, %dv, %dv : f32
    %f = arith.constant false
    %t = arith.constant true
    %nan = arith.select %eq, %f, %t : i1
    %z = arith.constant 0.000000e+00 : f32
    %g = arith.select %nan, %z, %dv : f32
    linalg.yield %g : f32
  } -> tensor<1x2x4x4xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %v2 = tensor.collapse_shape %vp [[0, 1], [2]] : tensor<1x4x16xf32> into tensor<4x16xf32>
  %v3 = tensor.expand_shape %v2 [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p3, %v3 : tensor<2x4x4xf32>, tensor<4x2x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  %eo = tensor.empty() : tensor<1x4x2x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv : tensor<2x4x8xf32>) outs(%eo : tensor<1x4x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x2x8xf32>
  %flat = tensor.collapse_shape %out [[0], [1], [2, 3]] : tensor<1x4x2x8xf32> into tensor<1x4x16xf32>
  return %flat : tensor<1x4x16xf32>
}

// -----

// Negative: select(p oeq p, true, false) is "p is not NaN": zeroing the probabilities that are
// numbers is no NaN guard, so nothing is raised.
// CHECK-LABEL: func.func @not_nan_select_kept
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         math.exp
func.func @not_nan_select_kept(%qp: tensor<1x4x16xf32>, %kp: tensor<1x4x16xf32>, %vp: tensor<1x4x16xf32>, %mask: tensor<4xf32>) -> tensor<1x4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %qe = tensor.expand_shape %qp [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : tensor<1x4x16xf32> into tensor<1x4x2x8xf32>
  %et = tensor.empty() : tensor<1x2x4x8xf32>
  %qt = linalg.transpose ins(%qe : tensor<1x4x2x8xf32>) outs(%et : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %ke = tensor.expand_shape %kp [[0], [1], [2, 3]] output_shape [1, 4, 2, 8] : tensor<1x4x16xf32> into tensor<1x4x2x8xf32>
  %et2 = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%ke : tensor<1x4x2x8xf32>) outs(%et2 : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %eqs = tensor.empty() : tensor<1x2x4x8xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qt : tensor<1x2x4x8xf32>) outs(%eqs : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.594603539 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x8xf32>
  %eks = tensor.empty() : tensor<1x2x8x4xf32>
  %ks = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kt : tensor<1x2x4x8xf32>) outs(%eks : tensor<1x2x8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.594603539 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x8x4xf32>
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %k3 = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %qk = linalg.batch_matmul ins(%q3, %k3 : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ex4 = tensor.empty() : tensor<1x2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<2x4x4xf32>, tensor<4xf32>) outs(%ex4 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : tensor<1x2x4x4xf32>) outs(%mi : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4xf32>
  %ee = tensor.empty() : tensor<1x2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%ee : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1x2x4x4xf32>
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x4x4xf32>) outs(%si0 : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4xf32>
  %ep = tensor.empty() : tensor<1x2x4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%ep : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    %eq = arith.cmpf oeq, %dv, %dv : f32
    %f = arith.constant false
    %t = arith.constant true
    %nan = arith.select %eq, %t, %f : i1
    %z = arith.constant 0.000000e+00 : f32
    %g = arith.select %nan, %z, %dv : f32
    linalg.yield %g : f32
  } -> tensor<1x2x4x4xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %v2 = tensor.collapse_shape %vp [[0, 1], [2]] : tensor<1x4x16xf32> into tensor<4x16xf32>
  %v3 = tensor.expand_shape %v2 [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p3, %v3 : tensor<2x4x4xf32>, tensor<4x2x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<2x4x8xf32>
  %eo = tensor.empty() : tensor<1x4x2x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv : tensor<2x4x8xf32>) outs(%eo : tensor<1x4x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x2x8xf32>
  %flat = tensor.collapse_shape %out [[0], [1], [2, 3]] : tensor<1x4x2x8xf32> into tensor<1x4x16xf32>
  return %flat : tensor<1x4x16xf32>
}

// -----

// f16 attention as our ONNX importer writes it (test: an f16 ONNX MatMul -> Mul -> Add ->
// Softmax -> MatMul -> Transpose): f16 operands widened into f32 accumulators, the softmax's max
// and sum reduced in f32, each elementwise op widening, computing and rounding back to f16, the
// result rounded by the final transpose. Raised with the casts looked through: f16 scale and
// result, f32 scores.
// CHECK-LABEL: func.func @onnx_f16_mixed
// CHECK:         %[[S:.*]] = arith.constant 3.535160e-01 : f16
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [{{.*}}]> ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}} : tensor<2x4x8xf16>, tensor<2x4x8xf16>, tensor<2x4x8xf16>, f16, tensor<4xf16>) outs(%{{.*}} : tensor<4x2x8xf16>) {
// CHECK-NEXT:    ^bb0(%[[SC:.*]]: f32):
// CHECK-NEXT:      iree_linalg_ext.yield %[[SC]] : f32
// CHECK-NEXT:    } -> tensor<4x2x8xf16>
// CHECK-NOT:     math.exp
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         %[[O:.*]] = tensor.expand_shape %[[R]] {{.*}} into tensor<1x4x2x8xf16>
// CHECK:         func.return %[[O]] : tensor<1x4x2x8xf16>
// KEEP-LABEL:  func.func @onnx_f16_mixed
// KEEP:          iree_linalg_ext.attention
func.func @onnx_f16_mixed(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x4x8xf16>, %v: tensor<1x2x4x8xf16>, %mask: tensor<1x1x1x4xf16>) -> tensor<1x4x2x8xf16> {
  %qk = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %qk_1 = tensor.empty() : tensor<2x4x4xf32>
  %qk_2 = arith.constant 0.000000e+00 : f32
  %qk_3 = linalg.fill ins(%qk_2 : f32) outs(%qk_1 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %0 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %qk_4 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%qk, %0 : tensor<2x4x8xf16>, tensor<2x4x8xf16>) outs(%qk_3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %1 = tensor.empty() : tensor<1x2x4x4xf16>
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk_4, %mask : tensor<2x4x4xf32>, tensor<1x1x1x4xf16>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%2: f32, %3: f16, %4: f16):
    %5 = arith.truncf %2 : f32 to f16
    %6 = arith.constant 3.535160e-01 : f16
    %7 = arith.extf %5 : f16 to f32
    %8 = arith.extf %6 : f16 to f32
    %9 = arith.mulf %7, %8 : f32
    %10 = arith.truncf %9 : f32 to f16
    %11 = arith.extf %10 : f16 to f32
    %12 = arith.extf %3 : f16 to f32
    %13 = arith.addf %11, %12 : f32
    %14 = arith.truncf %13 : f32 to f16
    linalg.yield %14 : f16
  } -> tensor<1x2x4x4xf16>
  %15 = arith.constant 0xff800000 : f32
  %16 = tensor.empty() : tensor<1x2x4xf32>
  %17 = linalg.fill ins(%15 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%masked : tensor<1x2x4x4xf16>) outs(%17 : tensor<1x2x4xf32>) {
  ^bb0(%19: f16, %20: f32):
    %21 = arith.extf %19 : f16 to f32
    %22 = arith.maximumf %20, %21 : f32
    linalg.yield %22 : f32
  } -> tensor<1x2x4xf32>
  %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %18 : tensor<1x2x4x4xf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%24: f16, %25: f32, %26: f16):
    %27 = arith.truncf %25 : f32 to f16
    %28 = arith.extf %24 : f16 to f32
    %29 = arith.extf %27 : f16 to f32
    %30 = arith.subf %28, %29 : f32
    %31 = arith.truncf %30 : f32 to f16
    %32 = arith.extf %31 : f16 to f32
    %33 = math.exp %32 : f32
    %34 = arith.truncf %33 : f32 to f16
    linalg.yield %34 : f16
  } -> tensor<1x2x4x4xf16>
  %35 = linalg.fill ins(%qk_2 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<1x2x4x4xf16>) outs(%35 : tensor<1x2x4xf32>) {
  ^bb0(%37: f16, %38: f32):
    %39 = arith.extf %37 : f16 to f32
    %40 = arith.addf %38, %39 : f32
    linalg.yield %40 : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %36 : tensor<1x2x4x4xf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%41: f16, %42: f32, %43: f16):
    %44 = arith.truncf %42 : f32 to f16
    %45 = arith.extf %41 : f16 to f32
    %46 = arith.extf %44 : f16 to f32
    %47 = arith.divf %45, %46 : f32
    %48 = arith.truncf %47 : f32 to f16
    linalg.yield %48 : f16
  } -> tensor<1x2x4x4xf16>
  %pv = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf16> into tensor<2x4x4xf16>
  %pv_1 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %pv_2 = tensor.empty() : tensor<2x4x8xf32>
  %pv_3 = linalg.fill ins(%qk_2 : f32) outs(%pv_2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv_4 = linalg.batch_matmul ins(%pv, %pv_1 : tensor<2x4x4xf16>, tensor<2x4x8xf16>) outs(%pv_3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %49 = tensor.empty() : tensor<1x4x2x8xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv_4 : tensor<2x4x8xf32>) outs(%49 : tensor<1x4x2x8xf16>) {
  ^bb0(%50: f32, %51: f16):
    %52 = arith.truncf %50 : f32 to f16
    linalg.yield %52 : f16
  } -> tensor<1x4x2x8xf16>
  func.return %out : tensor<1x4x2x8xf16>
}

// -----

// The f16 attention of a transformers decoder exported by torch (f16 Llama, Qwen2, ...): the same
// mixed-precision body, the probabilities NaN-guarded as our importer writes ONNX IsNaN on an f16
// tensor: the rounded quotient widened and compared with itself (a float cast keeps NaN-ness), the
// rounded quotient selected. Raised, the guard after the op in f16.
// CHECK-LABEL: func.func @onnx_f16_isnan_guarded
// CHECK:         %[[Z:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}} outs(%{{.*}} : tensor<2x8xf16>)
// CHECK:         %[[A:.*]] = iree_linalg_ext.attention
// CHECK:           ^bb0(%{{.*}}: f32):
// CHECK:         } -> tensor<4x2x8xf16>
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[Z]] : tensor<4x2x8xf16>, tensor<2x8xf16>)
// CHECK:           %[[NAN:.*]] = arith.cmpf une, %[[X:.*]], %[[X]] : f16
// CHECK:           arith.select %[[NAN]], %{{.*}}, %[[X]] : f16
// CHECK-NOT:     math.exp
// CHECK:         func.return
// KEEP-LABEL:  func.func @onnx_f16_isnan_guarded
// KEEP-NOT:    iree_linalg_ext.attention
func.func @onnx_f16_isnan_guarded(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x4x8xf16>, %v: tensor<1x2x4x8xf16>, %mask: tensor<1x1x1x4xf16>) -> tensor<1x4x2x8xf16> {
  %qk = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %qk_1 = tensor.empty() : tensor<2x4x4xf32>
  %qk_2 = arith.constant 0.000000e+00 : f32
  %qk_3 = linalg.fill ins(%qk_2 : f32) outs(%qk_1 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %0 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %qk_4 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%qk, %0 : tensor<2x4x8xf16>, tensor<2x4x8xf16>) outs(%qk_3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %1 = tensor.empty() : tensor<1x2x4x4xf16>
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk_4, %mask : tensor<2x4x4xf32>, tensor<1x1x1x4xf16>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%2: f32, %3: f16, %4: f16):
    %5 = arith.truncf %2 : f32 to f16
    %6 = arith.constant 3.535160e-01 : f16
    %7 = arith.extf %5 : f16 to f32
    %8 = arith.extf %6 : f16 to f32
    %9 = arith.mulf %7, %8 : f32
    %10 = arith.truncf %9 : f32 to f16
    %11 = arith.extf %10 : f16 to f32
    %12 = arith.extf %3 : f16 to f32
    %13 = arith.addf %11, %12 : f32
    %14 = arith.truncf %13 : f32 to f16
    linalg.yield %14 : f16
  } -> tensor<1x2x4x4xf16>
  %15 = arith.constant 0xff800000 : f32
  %16 = tensor.empty() : tensor<1x2x4xf32>
  %17 = linalg.fill ins(%15 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%masked : tensor<1x2x4x4xf16>) outs(%17 : tensor<1x2x4xf32>) {
  ^bb0(%19: f16, %20: f32):
    %21 = arith.extf %19 : f16 to f32
    %22 = arith.maximumf %20, %21 : f32
    linalg.yield %22 : f32
  } -> tensor<1x2x4xf32>
  %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %18 : tensor<1x2x4x4xf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%24: f16, %25: f32, %26: f16):
    %27 = arith.truncf %25 : f32 to f16
    %28 = arith.extf %24 : f16 to f32
    %29 = arith.extf %27 : f16 to f32
    %30 = arith.subf %28, %29 : f32
    %31 = arith.truncf %30 : f32 to f16
    %32 = arith.extf %31 : f16 to f32
    %33 = math.exp %32 : f32
    %34 = arith.truncf %33 : f32 to f16
    linalg.yield %34 : f16
  } -> tensor<1x2x4x4xf16>
  %35 = linalg.fill ins(%qk_2 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<1x2x4x4xf16>) outs(%35 : tensor<1x2x4xf32>) {
  ^bb0(%37: f16, %38: f32):
    %39 = arith.extf %37 : f16 to f32
    %40 = arith.addf %38, %39 : f32
    linalg.yield %40 : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %36 : tensor<1x2x4x4xf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%41: f16, %42: f32, %43: f16):
    %44 = arith.truncf %42 : f32 to f16
    %45 = arith.extf %41 : f16 to f32
    %46 = arith.extf %44 : f16 to f32
    %47 = arith.divf %45, %46 : f32
    %48 = arith.truncf %47 : f32 to f16
    %w = arith.extf %48 : f16 to f32
    %eq = arith.cmpf oeq, %w, %w : f32
    %f = arith.constant false
    %t = arith.constant true
    %nan = arith.select %eq, %f, %t : i1
    %z = arith.constant 0.000000e+00 : f16
    %g = arith.select %nan, %z, %48 : f16
    linalg.yield %g : f16
  } -> tensor<1x2x4x4xf16>
  %pv = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf16> into tensor<2x4x4xf16>
  %pv_1 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %pv_2 = tensor.empty() : tensor<2x4x8xf32>
  %pv_3 = linalg.fill ins(%qk_2 : f32) outs(%pv_2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv_4 = linalg.batch_matmul ins(%pv, %pv_1 : tensor<2x4x4xf16>, tensor<2x4x8xf16>) outs(%pv_3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %49 = tensor.empty() : tensor<1x4x2x8xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv_4 : tensor<2x4x8xf32>) outs(%49 : tensor<1x4x2x8xf16>) {
  ^bb0(%50: f32, %51: f16):
    %52 = arith.truncf %50 : f32 to f16
    linalg.yield %52 : f16
  } -> tensor<1x4x2x8xf16>
  func.return %out : tensor<1x4x2x8xf16>
}

// -----

// Negative: the quotient compared with its own f16 rounding is no NaN test (a finite quotient
// past f16's range rounds to inf and compares unequal), so nothing is raised.
// CHECK-LABEL: func.func @f16_guard_compares_rounding
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         math.exp
// KEEP-LABEL:  func.func @f16_guard_compares_rounding
// KEEP-NOT:    iree_linalg_ext.attention
// KEEP:        math.exp
func.func @f16_guard_compares_rounding(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x4x8xf16>, %v: tensor<1x2x4x8xf16>, %mask: tensor<1x1x1x4xf16>) -> tensor<1x4x2x8xf16> {
  %qk = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %qk_1 = tensor.empty() : tensor<2x4x4xf32>
  %qk_2 = arith.constant 0.000000e+00 : f32
  %qk_3 = linalg.fill ins(%qk_2 : f32) outs(%qk_1 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %0 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %qk_4 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%qk, %0 : tensor<2x4x8xf16>, tensor<2x4x8xf16>) outs(%qk_3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %1 = tensor.empty() : tensor<1x2x4x4xf16>
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk_4, %mask : tensor<2x4x4xf32>, tensor<1x1x1x4xf16>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%2: f32, %3: f16, %4: f16):
    %5 = arith.truncf %2 : f32 to f16
    %6 = arith.constant 3.535160e-01 : f16
    %7 = arith.extf %5 : f16 to f32
    %8 = arith.extf %6 : f16 to f32
    %9 = arith.mulf %7, %8 : f32
    %10 = arith.truncf %9 : f32 to f16
    %11 = arith.extf %10 : f16 to f32
    %12 = arith.extf %3 : f16 to f32
    %13 = arith.addf %11, %12 : f32
    %14 = arith.truncf %13 : f32 to f16
    linalg.yield %14 : f16
  } -> tensor<1x2x4x4xf16>
  %15 = arith.constant 0xff800000 : f32
  %16 = tensor.empty() : tensor<1x2x4xf32>
  %17 = linalg.fill ins(%15 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%masked : tensor<1x2x4x4xf16>) outs(%17 : tensor<1x2x4xf32>) {
  ^bb0(%19: f16, %20: f32):
    %21 = arith.extf %19 : f16 to f32
    %22 = arith.maximumf %20, %21 : f32
    linalg.yield %22 : f32
  } -> tensor<1x2x4xf32>
  %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %18 : tensor<1x2x4x4xf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%24: f16, %25: f32, %26: f16):
    %27 = arith.truncf %25 : f32 to f16
    %28 = arith.extf %24 : f16 to f32
    %29 = arith.extf %27 : f16 to f32
    %30 = arith.subf %28, %29 : f32
    %31 = arith.truncf %30 : f32 to f16
    %32 = arith.extf %31 : f16 to f32
    %33 = math.exp %32 : f32
    %34 = arith.truncf %33 : f32 to f16
    linalg.yield %34 : f16
  } -> tensor<1x2x4x4xf16>
  %35 = linalg.fill ins(%qk_2 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<1x2x4x4xf16>) outs(%35 : tensor<1x2x4xf32>) {
  ^bb0(%37: f16, %38: f32):
    %39 = arith.extf %37 : f16 to f32
    %40 = arith.addf %38, %39 : f32
    linalg.yield %40 : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %36 : tensor<1x2x4x4xf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%41: f16, %42: f32, %43: f16):
    %44 = arith.truncf %42 : f32 to f16
    %45 = arith.extf %41 : f16 to f32
    %46 = arith.extf %44 : f16 to f32
    %47 = arith.divf %45, %46 : f32
    %48 = arith.truncf %47 : f32 to f16
    %w = arith.extf %48 : f16 to f32
    %eq = arith.cmpf oeq, %47, %w : f32
    %f = arith.constant false
    %t = arith.constant true
    %nan = arith.select %eq, %f, %t : i1
    %z = arith.constant 0.000000e+00 : f16
    %g = arith.select %nan, %z, %48 : f16
    linalg.yield %g : f16
  } -> tensor<1x2x4x4xf16>
  %pv = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf16> into tensor<2x4x4xf16>
  %pv_1 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %pv_2 = tensor.empty() : tensor<2x4x8xf32>
  %pv_3 = linalg.fill ins(%qk_2 : f32) outs(%pv_2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv_4 = linalg.batch_matmul ins(%pv, %pv_1 : tensor<2x4x4xf16>, tensor<2x4x8xf16>) outs(%pv_3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %49 = tensor.empty() : tensor<1x4x2x8xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv_4 : tensor<2x4x8xf32>) outs(%49 : tensor<1x4x2x8xf16>) {
  ^bb0(%50: f32, %51: f16):
    %52 = arith.truncf %50 : f32 to f16
    linalg.yield %52 : f16
  } -> tensor<1x4x2x8xf16>
  func.return %out : tensor<1x4x2x8xf16>
}

// -----

// Not raised: the scores' contraction rounds each product to f16 before accumulating (a cast
// the raised op could not keep; only widenings are looked through in contractions).
// CHECK-LABEL: func.func @f16_rounded_products
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         math.exp
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         func.return
func.func @f16_rounded_products(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x4x8xf16>, %v: tensor<1x2x4x8xf16>, %mask: tensor<1x1x1x4xf16>) -> tensor<1x4x2x8xf16> {
  %qk = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %qk_1 = tensor.empty() : tensor<2x4x4xf32>
  %qk_2 = arith.constant 0.000000e+00 : f32
  %qk_3 = linalg.fill ins(%qk_2 : f32) outs(%qk_1 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %0 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %qk_4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qk, %0 : tensor<2x4x8xf16>, tensor<2x4x8xf16>) outs(%qk_3 : tensor<2x4x4xf32>) {
  ^bb0(%ra: f16, %rb: f16, %ro: f32):
    %rm = arith.mulf %ra, %rb : f16
    %rw = arith.extf %rm : f16 to f32
    %rs = arith.addf %ro, %rw : f32
    linalg.yield %rs : f32
  } -> tensor<2x4x4xf32>
  %1 = tensor.empty() : tensor<1x2x4x4xf16>
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk_4, %mask : tensor<2x4x4xf32>, tensor<1x1x1x4xf16>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%2: f32, %3: f16, %4: f16):
    %5 = arith.truncf %2 : f32 to f16
    %6 = arith.constant 3.535160e-01 : f16
    %7 = arith.extf %5 : f16 to f32
    %8 = arith.extf %6 : f16 to f32
    %9 = arith.mulf %7, %8 : f32
    %10 = arith.truncf %9 : f32 to f16
    %11 = arith.extf %10 : f16 to f32
    %12 = arith.extf %3 : f16 to f32
    %13 = arith.addf %11, %12 : f32
    %14 = arith.truncf %13 : f32 to f16
    linalg.yield %14 : f16
  } -> tensor<1x2x4x4xf16>
  %15 = arith.constant 0xff800000 : f32
  %16 = tensor.empty() : tensor<1x2x4xf32>
  %17 = linalg.fill ins(%15 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%masked : tensor<1x2x4x4xf16>) outs(%17 : tensor<1x2x4xf32>) {
  ^bb0(%19: f16, %20: f32):
    %21 = arith.extf %19 : f16 to f32
    %22 = arith.maximumf %20, %21 : f32
    linalg.yield %22 : f32
  } -> tensor<1x2x4xf32>
  %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %18 : tensor<1x2x4x4xf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%24: f16, %25: f32, %26: f16):
    %27 = arith.truncf %25 : f32 to f16
    %28 = arith.extf %24 : f16 to f32
    %29 = arith.extf %27 : f16 to f32
    %30 = arith.subf %28, %29 : f32
    %31 = arith.truncf %30 : f32 to f16
    %32 = arith.extf %31 : f16 to f32
    %33 = math.exp %32 : f32
    %34 = arith.truncf %33 : f32 to f16
    linalg.yield %34 : f16
  } -> tensor<1x2x4x4xf16>
  %35 = linalg.fill ins(%qk_2 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<1x2x4x4xf16>) outs(%35 : tensor<1x2x4xf32>) {
  ^bb0(%37: f16, %38: f32):
    %39 = arith.extf %37 : f16 to f32
    %40 = arith.addf %38, %39 : f32
    linalg.yield %40 : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %36 : tensor<1x2x4x4xf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xf16>) {
  ^bb0(%41: f16, %42: f32, %43: f16):
    %44 = arith.truncf %42 : f32 to f16
    %45 = arith.extf %41 : f16 to f32
    %46 = arith.extf %44 : f16 to f32
    %47 = arith.divf %45, %46 : f32
    %48 = arith.truncf %47 : f32 to f16
    linalg.yield %48 : f16
  } -> tensor<1x2x4x4xf16>
  %pv = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf16> into tensor<2x4x4xf16>
  %pv_1 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %pv_2 = tensor.empty() : tensor<2x4x8xf32>
  %pv_3 = linalg.fill ins(%qk_2 : f32) outs(%pv_2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv_4 = linalg.batch_matmul ins(%pv, %pv_1 : tensor<2x4x4xf16>, tensor<2x4x8xf16>) outs(%pv_3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %49 = tensor.empty() : tensor<1x4x2x8xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv_4 : tensor<2x4x8xf32>) outs(%49 : tensor<1x4x2x8xf16>) {
  ^bb0(%50: f32, %51: f16):
    %52 = arith.truncf %50 : f32 to f16
    linalg.yield %52 : f16
  } -> tensor<1x4x2x8xf16>
  func.return %out : tensor<1x4x2x8xf16>
}

// -----

// torch's exported MultiheadAttention (the ViT's): the softmax reads the scores Q.K straight
// from the batch_matmul, through maps that drop a unit dim (the 1/sqrt(sqrt(d)) factors were on
// Q and K), V read as [keys, heads, dim]: raised with scale 1.
// CHECK-LABEL: func.func @unscaled_scores
// CHECK:         %[[S:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]] : tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<4x2x8xf32>, f32)
// CHECK-NOT:     math.exp
// CHECK-NOT:     linalg.batch_matmul
func.func @unscaled_scores(%q: tensor<2x4x8xf32>, %kt: tensor<2x8x4xf32>, %v: tensor<4x2x8xf32>) -> (tensor<2x4x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %qk = linalg.batch_matmul ins(%q, %kt : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qk : tensor<2x4x4xf32>) outs(%mi : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %o, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4xf32>
  %e4 = tensor.empty() : tensor<1x2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk, %mx : tensor<2x4x4xf32>, tensor<1x2x4xf32>) outs(%e4 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<1x2x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x4x4xf32>) outs(%si : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %o, %a : f32
    linalg.yield %t : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %s : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%e4 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pc, %v : tensor<2x4x4xf32>, tensor<4x2x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<2x4x8xf32>
  return %pv : tensor<2x4x8xf32>
}

// -----

// Negative: the same, with the scores returned too (a third user): nothing is raised.
// CHECK-LABEL: func.func @unscaled_scores_used_elsewhere
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         math.exp
func.func @unscaled_scores_used_elsewhere(%q: tensor<2x4x8xf32>, %kt: tensor<2x8x4xf32>, %v: tensor<4x2x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x4xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %qk = linalg.batch_matmul ins(%q, %kt : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qk : tensor<2x4x4xf32>) outs(%mi : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %o, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4xf32>
  %e4 = tensor.empty() : tensor<1x2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk, %mx : tensor<2x4x4xf32>, tensor<1x2x4xf32>) outs(%e4 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<1x2x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x4x4xf32>) outs(%si : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %o, %a : f32
    linalg.yield %t : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %s : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%e4 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %e3v = tensor.empty() : tensor<2x4x8xf32>
  %z3v = linalg.fill ins(%zero : f32) outs(%e3v : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pc, %v : tensor<2x4x4xf32>, tensor<4x2x8xf32>) outs(%z3v : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<2x4x8xf32>
  return %pv, %qk : tensor<2x4x8xf32>, tensor<2x4x4xf32>
}

// -----

// The KV-cache decode step of an f16 Llama block (torch's f16 export): the f32 scores of the
// f16 MatMul rounded to f16 and widened back for transformers' softmax(dtype=float32), in a
// copy that only drops a unit dim; the probabilities rounded to f16 for the P.V MatMul. The
// copy's rounding is looked through like the others: raised with scale 1 (the 1/sqrt(d) is on
// Q upstream), f16 operands and result, f32 scores.
// CHECK-LABEL: func.func @onnx_f16_rounded_scores
// CHECK:         %[[S:.*]] = arith.constant 1.000000e+00 : f16
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]] : tensor<2x1x8xf16>, tensor<2x4x8xf16>, tensor<2x4x8xf16>, f16) outs(%{{.*}} : tensor<1x2x8xf16>) {
// CHECK-NEXT:    ^bb0(%[[SC:.*]]: f32):
// CHECK-NEXT:      iree_linalg_ext.yield %[[SC]] : f32
// CHECK-NEXT:    } -> tensor<1x2x8xf16>
// CHECK-NOT:     math.exp
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         %[[O:.*]] = tensor.expand_shape %[[R]] {{.*}} into tensor<1x1x2x8xf16>
// CHECK:         func.return %[[O]] : tensor<1x1x2x8xf16>
// KEEP-LABEL:  func.func @onnx_f16_rounded_scores
// KEEP:          iree_linalg_ext.attention
func.func @onnx_f16_rounded_scores(%q: tensor<2x1x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x4x8xf16>) -> tensor<1x1x2x8xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xff800000 : f32
  %e0 = tensor.empty() : tensor<2x1x4xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %qk = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<2x1x8xf16>, tensor<2x4x8xf16>) outs(%z0 : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %e1 = tensor.empty() : tensor<1x2x1x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk : tensor<2x1x4xf32>) outs(%e1 : tensor<1x2x1x4xf32>) {
  ^bb0(%xa: f32, %xo: f32):
    %xt = arith.truncf %xa : f32 to f16
    %xw = arith.extf %xt : f16 to f32
    linalg.yield %xw : f32
  } -> tensor<1x2x1x4xf32>
  %e2 = tensor.empty() : tensor<1x2x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : tensor<1x2x1x4xf32>) outs(%mi : tensor<1x2x1xf32>) {
  ^bb0(%ma: f32, %mo: f32):
    %mm = arith.maximumf %mo, %ma : f32
    linalg.yield %mm : f32
  } -> tensor<1x2x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<1x2x1x4xf32>, tensor<1x2x1xf32>) outs(%e1 : tensor<1x2x1x4xf32>) {
  ^bb0(%ea: f32, %eb: f32, %eo: f32):
    %es = arith.subf %ea, %eb : f32
    %ee = math.exp %es : f32
    linalg.yield %ee : f32
  } -> tensor<1x2x1x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x1x4xf32>) outs(%zs : tensor<1x2x1xf32>) {
  ^bb0(%sa: f32, %so: f32):
    %ss = arith.addf %so, %sa : f32
    linalg.yield %ss : f32
  } -> tensor<1x2x1xf32>
  %e3 = tensor.empty() : tensor<1x2x1x4xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %s : tensor<1x2x1x4xf32>, tensor<1x2x1xf32>) outs(%e3 : tensor<1x2x1x4xf16>) {
  ^bb0(%da: f32, %db: f32, %do: f16):
    %dq = arith.divf %da, %db : f32
    %dt = arith.truncf %dq : f32 to f16
    linalg.yield %dt : f16
  } -> tensor<1x2x1x4xf16>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x1x4xf16> into tensor<2x1x4xf16>
  %e4 = tensor.empty() : tensor<2x1x8xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %pv = linalg.batch_matmul ins(%pc, %v : tensor<2x1x4xf16>, tensor<2x4x8xf16>) outs(%z4 : tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %e5 = tensor.empty() : tensor<1x1x2x8xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv : tensor<2x1x8xf32>) outs(%e5 : tensor<1x1x2x8xf16>) {
  ^bb0(%oa: f32, %oo: f16):
    %ot = arith.truncf %oa : f32 to f16
    linalg.yield %ot : f16
  } -> tensor<1x1x2x8xf16>
  func.return %out : tensor<1x1x2x8xf16>
}

// -----

// Not raised: the copy in front of the softmax is casts alone but yields a constant, not the
// scores (a softmax of constants is not this attention).
// CHECK-LABEL: func.func @f16_score_copy_not_scores
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         math.exp
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         func.return
func.func @f16_score_copy_not_scores(%q: tensor<2x1x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x4x8xf16>) -> tensor<1x1x2x8xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xff800000 : f32
  %e0 = tensor.empty() : tensor<2x1x4xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %qk = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<2x1x8xf16>, tensor<2x4x8xf16>) outs(%z0 : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %e1 = tensor.empty() : tensor<1x2x1x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk : tensor<2x1x4xf32>) outs(%e1 : tensor<1x2x1x4xf32>) {
  ^bb0(%xa: f32, %xo: f32):
    %xc = arith.constant 0.000000e+00 : f16
    %xw = arith.extf %xc : f16 to f32
    linalg.yield %xw : f32
  } -> tensor<1x2x1x4xf32>
  %e2 = tensor.empty() : tensor<1x2x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : tensor<1x2x1x4xf32>) outs(%mi : tensor<1x2x1xf32>) {
  ^bb0(%ma: f32, %mo: f32):
    %mm = arith.maximumf %mo, %ma : f32
    linalg.yield %mm : f32
  } -> tensor<1x2x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<1x2x1x4xf32>, tensor<1x2x1xf32>) outs(%e1 : tensor<1x2x1x4xf32>) {
  ^bb0(%ea: f32, %eb: f32, %eo: f32):
    %es = arith.subf %ea, %eb : f32
    %ee = math.exp %es : f32
    linalg.yield %ee : f32
  } -> tensor<1x2x1x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x1x4xf32>) outs(%zs : tensor<1x2x1xf32>) {
  ^bb0(%sa: f32, %so: f32):
    %ss = arith.addf %so, %sa : f32
    linalg.yield %ss : f32
  } -> tensor<1x2x1xf32>
  %e3 = tensor.empty() : tensor<1x2x1x4xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %s : tensor<1x2x1x4xf32>, tensor<1x2x1xf32>) outs(%e3 : tensor<1x2x1x4xf16>) {
  ^bb0(%da: f32, %db: f32, %do: f16):
    %dq = arith.divf %da, %db : f32
    %dt = arith.truncf %dq : f32 to f16
    linalg.yield %dt : f16
  } -> tensor<1x2x1x4xf16>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x1x4xf16> into tensor<2x1x4xf16>
  %e4 = tensor.empty() : tensor<2x1x8xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %pv = linalg.batch_matmul ins(%pc, %v : tensor<2x1x4xf16>, tensor<2x4x8xf16>) outs(%z4 : tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %e5 = tensor.empty() : tensor<1x1x2x8xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv : tensor<2x1x8xf32>) outs(%e5 : tensor<1x1x2x8xf16>) {
  ^bb0(%oa: f32, %oo: f16):
    %ot = arith.truncf %oa : f32 to f16
    linalg.yield %ot : f16
  } -> tensor<1x1x2x8xf16>
  func.return %out : tensor<1x1x2x8xf16>
}

// -----

// Not raised: an f32 attention whose scores are rounded to f16 in the copy (a narrower rounding
// than the operands': a different program, which the raised op's f32 scores would not keep).
// CHECK-LABEL: func.func @f32_scores_rounded_to_f16
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         math.exp
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         func.return
func.func @f32_scores_rounded_to_f16(%q: tensor<2x1x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<1x1x2x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xff800000 : f32
  %e0 = tensor.empty() : tensor<2x1x4xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %qk = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<2x1x8xf32>, tensor<2x4x8xf32>) outs(%z0 : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %e1 = tensor.empty() : tensor<1x2x1x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk : tensor<2x1x4xf32>) outs(%e1 : tensor<1x2x1x4xf32>) {
  ^bb0(%xa: f32, %xo: f32):
    %xt = arith.truncf %xa : f32 to f16
    %xw = arith.extf %xt : f16 to f32
    linalg.yield %xw : f32
  } -> tensor<1x2x1x4xf32>
  %e2 = tensor.empty() : tensor<1x2x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : tensor<1x2x1x4xf32>) outs(%mi : tensor<1x2x1xf32>) {
  ^bb0(%ma: f32, %mo: f32):
    %mm = arith.maximumf %mo, %ma : f32
    linalg.yield %mm : f32
  } -> tensor<1x2x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<1x2x1x4xf32>, tensor<1x2x1xf32>) outs(%e1 : tensor<1x2x1x4xf32>) {
  ^bb0(%ea: f32, %eb: f32, %eo: f32):
    %es = arith.subf %ea, %eb : f32
    %ee = math.exp %es : f32
    linalg.yield %ee : f32
  } -> tensor<1x2x1x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x1x4xf32>) outs(%zs : tensor<1x2x1xf32>) {
  ^bb0(%sa: f32, %so: f32):
    %ss = arith.addf %so, %sa : f32
    linalg.yield %ss : f32
  } -> tensor<1x2x1xf32>
  %e3 = tensor.empty() : tensor<1x2x1x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %s : tensor<1x2x1x4xf32>, tensor<1x2x1xf32>) outs(%e3 : tensor<1x2x1x4xf32>) {
  ^bb0(%da: f32, %db: f32, %do: f32):
    %dq = arith.divf %da, %db : f32
    linalg.yield %dq : f32
  } -> tensor<1x2x1x4xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x1x4xf32> into tensor<2x1x4xf32>
  %e4 = tensor.empty() : tensor<2x1x8xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %pv = linalg.batch_matmul ins(%pc, %v : tensor<2x1x4xf32>, tensor<2x4x8xf32>) outs(%z4 : tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %e5 = tensor.empty() : tensor<1x1x2x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv : tensor<2x1x8xf32>) outs(%e5 : tensor<1x1x2x8xf32>) {
  ^bb0(%oa: f32, %oo: f32):
    linalg.yield %oa : f32
  } -> tensor<1x1x2x8xf32>
  func.return %out : tensor<1x1x2x8xf32>
}

// -----

// bf16 attention as our ONNX importer writes it: `onnx_f16_mixed` in bf16 (the block models'
// llama_bf16 form). Raised as in f16: bf16 operands, scale and result, f32 scores (IREE's op
// accumulates bf16 in f32, as it does f16); the mask is clamped to +-1/4 of bf16's largest value
// (f32's range), not f16's.
// CHECK-LABEL: func.func @onnx_bf16_mixed
// CHECK:         arith.constant -8.473830e+37 : bf16
// CHECK:         arith.constant 8.473830e+37 : bf16
// CHECK:         %[[S:.*]] = arith.constant 3.535160e-01 : bf16
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [{{.*}}]> ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}} : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, bf16, tensor<4xbf16>) outs(%{{.*}} : tensor<4x2x8xbf16>) {
// CHECK-NEXT:    ^bb0(%[[SC:.*]]: f32):
// CHECK-NEXT:      iree_linalg_ext.yield %[[SC]] : f32
// CHECK-NEXT:    } -> tensor<4x2x8xbf16>
// CHECK-NOT:     math.exp
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         %[[O:.*]] = tensor.expand_shape %[[R]] {{.*}} into tensor<1x4x2x8xbf16>
// CHECK:         func.return %[[O]] : tensor<1x4x2x8xbf16>
// KEEP-LABEL:  func.func @onnx_bf16_mixed
// KEEP:          iree_linalg_ext.attention
func.func @onnx_bf16_mixed(%q: tensor<1x2x4x8xbf16>, %k: tensor<1x2x4x8xbf16>, %v: tensor<1x2x4x8xbf16>, %mask: tensor<1x1x1x4xbf16>) -> tensor<1x4x2x8xbf16> {
  %qk = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xbf16> into tensor<2x4x8xbf16>
  %qk_1 = tensor.empty() : tensor<2x4x4xf32>
  %qk_2 = arith.constant 0.000000e+00 : f32
  %qk_3 = linalg.fill ins(%qk_2 : f32) outs(%qk_1 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %0 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x8xbf16> into tensor<2x4x8xbf16>
  %qk_4 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%qk, %0 : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>) outs(%qk_3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %1 = tensor.empty() : tensor<1x2x4x4xbf16>
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk_4, %mask : tensor<2x4x4xf32>, tensor<1x1x1x4xbf16>) outs(%1 : tensor<1x2x4x4xbf16>) {
  ^bb0(%2: f32, %3: bf16, %4: bf16):
    %5 = arith.truncf %2 : f32 to bf16
    %6 = arith.constant 3.535160e-01 : bf16
    %7 = arith.extf %5 : bf16 to f32
    %8 = arith.extf %6 : bf16 to f32
    %9 = arith.mulf %7, %8 : f32
    %10 = arith.truncf %9 : f32 to bf16
    %11 = arith.extf %10 : bf16 to f32
    %12 = arith.extf %3 : bf16 to f32
    %13 = arith.addf %11, %12 : f32
    %14 = arith.truncf %13 : f32 to bf16
    linalg.yield %14 : bf16
  } -> tensor<1x2x4x4xbf16>
  %15 = arith.constant 0xff800000 : f32
  %16 = tensor.empty() : tensor<1x2x4xf32>
  %17 = linalg.fill ins(%15 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%masked : tensor<1x2x4x4xbf16>) outs(%17 : tensor<1x2x4xf32>) {
  ^bb0(%19: bf16, %20: f32):
    %21 = arith.extf %19 : bf16 to f32
    %22 = arith.maximumf %20, %21 : f32
    linalg.yield %22 : f32
  } -> tensor<1x2x4xf32>
  %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %18 : tensor<1x2x4x4xbf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xbf16>) {
  ^bb0(%24: bf16, %25: f32, %26: bf16):
    %27 = arith.truncf %25 : f32 to bf16
    %28 = arith.extf %24 : bf16 to f32
    %29 = arith.extf %27 : bf16 to f32
    %30 = arith.subf %28, %29 : f32
    %31 = arith.truncf %30 : f32 to bf16
    %32 = arith.extf %31 : bf16 to f32
    %33 = math.exp %32 : f32
    %34 = arith.truncf %33 : f32 to bf16
    linalg.yield %34 : bf16
  } -> tensor<1x2x4x4xbf16>
  %35 = linalg.fill ins(%qk_2 : f32) outs(%16 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<1x2x4x4xbf16>) outs(%35 : tensor<1x2x4xf32>) {
  ^bb0(%37: bf16, %38: f32):
    %39 = arith.extf %37 : bf16 to f32
    %40 = arith.addf %38, %39 : f32
    linalg.yield %40 : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %36 : tensor<1x2x4x4xbf16>, tensor<1x2x4xf32>) outs(%1 : tensor<1x2x4x4xbf16>) {
  ^bb0(%41: bf16, %42: f32, %43: bf16):
    %44 = arith.truncf %42 : f32 to bf16
    %45 = arith.extf %41 : bf16 to f32
    %46 = arith.extf %44 : bf16 to f32
    %47 = arith.divf %45, %46 : f32
    %48 = arith.truncf %47 : f32 to bf16
    linalg.yield %48 : bf16
  } -> tensor<1x2x4x4xbf16>
  %pv = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xbf16> into tensor<2x4x4xbf16>
  %pv_1 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xbf16> into tensor<2x4x8xbf16>
  %pv_2 = tensor.empty() : tensor<2x4x8xf32>
  %pv_3 = linalg.fill ins(%qk_2 : f32) outs(%pv_2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %pv_4 = linalg.batch_matmul ins(%pv, %pv_1 : tensor<2x4x4xbf16>, tensor<2x4x8xbf16>) outs(%pv_3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %49 = tensor.empty() : tensor<1x4x2x8xbf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pv_4 : tensor<2x4x8xf32>) outs(%49 : tensor<1x4x2x8xbf16>) {
  ^bb0(%50: f32, %51: bf16):
    %52 = arith.truncf %50 : f32 to bf16
    linalg.yield %52 : bf16
  } -> tensor<1x4x2x8xbf16>
  func.return %out : tensor<1x4x2x8xbf16>
}
