// dispatch-verify-with-iree: a region iree-compile (llvm-cpu, host) builds stays; each form IREE 3.13's
// codegen rejects (at the sizes used here) gives its ops back to the function, with a remark at its
// root op naming IREE's first error. Both strategies: the whole module first (default: alone only
// the regions IREE's errors point into, then the whole module again), and every region alone. The
// failing forms are fusionopt's own, from real models.
// REQUIRES: iree
// RUN: fusion-opt %s --split-input-file --verify-diagnostics -p dispatch-verify-with-iree --mlir-pass-statistics 2> %t.stats | filecheck %s
// RUN: filecheck %s --check-prefix=STATS < %t.stats
// RUN: fusion-opt %s --split-input-file -p 'dispatch-verify-with-iree{whole-module-first=false jobs=2}' --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=ALONE
// RUN: filecheck %s < %t.mlir
// RUN: not fusion-opt %s -p 'dispatch-verify-with-iree{target=rocm}' 2>&1 | filecheck %s --check-prefix=BADOPT
// RUN: not fusion-opt %s -p 'dispatch-verify-with-iree{compile-to=flow}' 2>&1 | filecheck %s --check-prefix=BADOPT
// BADOPT: dispatch-verify-with-iree

// A matmul with its bias add: builds, kept.
// CHECK-LABEL: func.func @kept_matmul_bias
// CHECK:         flow.dispatch.region -> (tensor<16x64xf32>)
// CHECK:           linalg.matmul
// CHECK:           linalg.generic
// CHECK:           flow.return
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS-NEXT:    (regions checked)        : 1
// STATS-NEXT:    (regions unwrapped)      : 0
// STATS-NEXT:    (modules compiled whole) : 1
// STATS-NOT:     (regions compiled alone)
func.func @kept_matmul_bias(%a: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %r = flow.dispatch.region -> (tensor<16x64xf32>) {
    %e = tensor.empty() : tensor<16x64xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %m = linalg.matmul ins(%a, %w : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<16x64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
    ^bb0(%i: f32, %j: f32, %o: f32):
      %s = arith.addf %i, %j : f32
      linalg.yield %s : f32
    } -> tensor<16x64xf32>
    flow.return %g : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// A dynamic row count: the region's result dims and its tensor.empty capture an index value,
// which the isolated module takes as an argument. Builds, kept.
// CHECK-LABEL: func.func @kept_dynamic
// CHECK:         %[[D:.*]] = tensor.dim
// CHECK:         flow.dispatch.region -> (tensor<?x64xf32>{%[[D]]})
// CHECK:           math.exp
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS-NEXT:    (regions checked)        : 1
// STATS-NEXT:    (regions unwrapped)      : 0
// STATS-NEXT:    (modules compiled whole) : 1
// STATS-NOT:     (regions compiled alone)
func.func @kept_dynamic(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x64xf32>
  %r = flow.dispatch.region -> (tensor<?x64xf32>{%d}) {
    %e = tensor.empty(%d) : tensor<?x64xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) {
    ^bb0(%i: f32, %o: f32):
      %s = math.exp %i : f32
      linalg.yield %s : f32
    } -> tensor<?x64xf32>
    flow.return %g : tensor<?x64xf32>
  }
  return %r : tensor<?x64xf32>
}

// -----

// No regions: nothing to check, nothing compiled.
// CHECK-LABEL: func.func @no_regions
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS-NOT:     (regions checked)
func.func @no_regions(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %i : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// matmul -> expand_shape of its rows -> bias add (ConvNeXt's Linear over NHWC): IREE stores
// vectors to the global result outside its distributed loop, at every size. Unwrapped: the ops
// in order, the function returns the generic's value.
// CHECK-LABEL: func.func @matmul_expand_elementwise
// CHECK-NOT:     flow.dispatch.region
// CHECK:         %[[M:.*]] = linalg.matmul
// CHECK-NEXT:    %[[X:.*]] = tensor.expand_shape %[[M]]
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[X]],
// CHECK:         func.return %[[G]]
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS-NEXT:    (regions checked)        : 1
// STATS-NEXT:    (regions unwrapped)      : 1
// STATS-NEXT:    (modules compiled whole) : 2
// STATS-NEXT:    (regions compiled alone) : 1
func.func @matmul_expand_elementwise(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<1x2x2x4xf32> {
  %r = flow.dispatch.region -> (tensor<1x2x2x4xf32>) {
    %e = tensor.empty() : tensor<4x4xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    // expected-remark@+1 {{dispatch-verify-with-iree: unwrapped the region of linalg.matmul: iree-compile (llvm-cpu) rejects it: 'vector.store' op write affecting operations on global resources are restricted to workgroup distributed contexts}}
    %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    %x = tensor.expand_shape %m [[0, 1, 2], [3]] output_shape [1, 2, 2, 4] : tensor<4x4xf32> into tensor<1x2x2x4xf32>
    %e2 = tensor.empty() : tensor<1x2x2x4xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : tensor<1x2x2x4xf32>, tensor<4xf32>) outs(%e2 : tensor<1x2x2x4xf32>) {
    ^bb0(%i: f32, %j: f32, %o: f32):
      %s = arith.addf %i, %j : f32
      linalg.yield %s : f32
    } -> tensor<1x2x2x4xf32>
    flow.return %g : tensor<1x2x2x4xf32>
  }
  return %r : tensor<1x2x2x4xf32>
}

// -----

// A grouped 3x3 conv at 56x56 whose result is collapsed (G, F) -> C before bias + ReLU
// (ResNeXt): a conv tile on the stack, over IREE's 32 KiB.
// CHECK-LABEL: func.func @grouped_conv_collapse_relu
// CHECK-NOT:     flow.dispatch.region
// CHECK:         linalg.conv_2d_ngchw_gfchw
// CHECK-NEXT:    tensor.collapse_shape
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS:         (regions unwrapped)      : 1
func.func @grouped_conv_collapse_relu(%x: tensor<1x16x4x58x58xf32>, %w: tensor<16x4x4x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  %r = flow.dispatch.region -> (tensor<1x64x56x56xf32>) {
    %e = tensor.empty() : tensor<1x16x4x56x56xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x4x56x56xf32>) -> tensor<1x16x4x56x56xf32>
    // expected-remark@+1 {{unwrapped the region of linalg.conv_2d_ngchw_gfchw: iree-compile (llvm-cpu) rejects it: 'func.func' op exceeded stack allocation limit of 32768 bytes}}
    %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x4x58x58xf32>, tensor<16x4x4x3x3xf32>) outs(%f : tensor<1x16x4x56x56xf32>) -> tensor<1x16x4x56x56xf32>
    %v = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x16x4x56x56xf32> into tensor<1x64x56x56xf32>
    %e2 = tensor.empty() : tensor<1x64x56x56xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v, %b : tensor<1x64x56x56xf32>, tensor<64xf32>) outs(%e2 : tensor<1x64x56x56xf32>) {
    ^bb0(%i: f32, %j: f32, %o: f32):
      %s = arith.addf %i, %j : f32
      %m = arith.maximumf %s, %z : f32
      linalg.yield %m : f32
    } -> tensor<1x64x56x56xf32>
    flow.return %g : tensor<1x64x56x56xf32>
  }
  return %r : tensor<1x64x56x56xf32>
}

// -----

// Producer -> collapse to 1-D -> expand to heads -> transposing consumer (ViT's head split): the
// whole producer (65 x 384 f32) on the stack. No root op: the remark names the returned value's op.
// CHECK-LABEL: func.func @collapse_expand_transpose
// CHECK-NOT:     flow.dispatch.region
// CHECK:         tensor.collapse_shape
// CHECK-NEXT:    tensor.expand_shape
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS:         (regions unwrapped)      : 1
func.func @collapse_expand_transpose(%x: tensor<65x1x384xf32>) -> tensor<6x65x64xf32> {
  %r = flow.dispatch.region -> (tensor<6x65x64xf32>) {
    %e = tensor.empty() : tensor<65x1x384xf32>
    %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<65x1x384xf32>) outs(%e : tensor<65x1x384xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<65x1x384xf32>
    %f = tensor.collapse_shape %p [[0, 1, 2]] : tensor<65x1x384xf32> into tensor<24960xf32>
    %v = tensor.expand_shape %f [[0, 1, 2]] output_shape [65, 6, 64] : tensor<24960xf32> into tensor<65x6x64xf32>
    %e2 = tensor.empty() : tensor<6x65x64xf32>
    // expected-remark@+1 {{unwrapped the region of linalg.generic: iree-compile (llvm-cpu) rejects it: 'func.func' op exceeded stack allocation limit of 32768 bytes}}
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<65x6x64xf32>) outs(%e2 : tensor<6x65x64xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    } -> tensor<6x65x64xf32>
    flow.return %c : tensor<6x65x64xf32>
  }
  return %r : tensor<6x65x64xf32>
}

// -----

// A gather (tensor.extract at a loaded index) from a value computed in the same region
// (bilinear Resize): the producer (64 x 256 f32) on the stack.
// CHECK-LABEL: func.func @gather_from_region_value
// CHECK-NOT:     flow.dispatch.region
// CHECK:         tensor.extract
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS:         (regions unwrapped)      : 1
func.func @gather_from_region_value(%x: tensor<64x256xf32>, %idx: tensor<256xi64>) -> tensor<64x256xf32> {
  %r = flow.dispatch.region -> (tensor<64x256xf32>) {
    %e = tensor.empty() : tensor<64x256xf32>
    %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<64x256xf32>
    %e2 = tensor.empty() : tensor<64x256xf32>
    // expected-remark@+1 {{unwrapped the region of linalg.generic: iree-compile (llvm-cpu) rejects it: 'func.func' op exceeded stack allocation limit of 32768 bytes}}
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<256xi64>) outs(%e2 : tensor<64x256xf32>) {
    ^bb0(%i: i64, %o: f32):
      %row = linalg.index 0 : index
      %col = arith.index_cast %i : i64 to index
      %v = tensor.extract %p[%row, %col] : tensor<64x256xf32>
      linalg.yield %v : f32
    } -> tensor<64x256xf32>
    flow.return %c : tensor<64x256xf32>
  }
  return %r : tensor<64x256xf32>
}

// -----

// A region that is only a concat of unequal parts (GPT-NeoX partial rotary).
// CHECK-LABEL: func.func @concat_uneven
// CHECK-NOT:     flow.dispatch.region
// CHECK:         %[[C:.*]] = tensor.concat dim(3)
// CHECK-NEXT:    func.return %[[C]]
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS:         (regions unwrapped)      : 1
func.func @concat_uneven(%a: tensor<1x4x64x16xf32>, %b: tensor<1x4x64x48xf32>) -> tensor<1x4x64x64xf32> {
  %r = flow.dispatch.region -> (tensor<1x4x64x64xf32>) {
    // expected-remark@+1 {{unwrapped the region of tensor.concat: iree-compile (llvm-cpu) rejects it: 'tensor.concat' op result type}}
    %cat = tensor.concat dim(3) %a, %b : (tensor<1x4x64x16xf32>, tensor<1x4x64x48xf32>) -> tensor<1x4x64x64xf32>
    flow.return %cat : tensor<1x4x64x64xf32>
  }
  return %r : tensor<1x4x64x64xf32>
}

// -----

// Two layers: the first region builds and stays; the second (a decode step's one-row matmul,
// expanded and transposed to heads first) is rejected and reads the first one's result. Its
// IREE config goes with the region.
// CHECK-LABEL: func.func @mixed
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x256xf32>)
// CHECK:         flow.return
// CHECK-NOT:     flow.dispatch.region
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[R]], %{{.*}} : tensor<1x256xf32>, tensor<256x256xf32>)
// CHECK-NOT:       compilation_info
// CHECK-NEXT:    tensor.expand_shape %[[M]]
// CHECK:         linalg.generic
// IREE's errors point into the second region only: it alone is compiled by itself.
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS-NEXT:    (regions checked)        : 2
// STATS-NEXT:    (regions unwrapped)      : 1
// STATS-NEXT:    (modules compiled whole) : 2
// STATS-NEXT:    (regions compiled alone) : 1
// Every region alone: no whole-module compile in any case, both regions here.
// ALONE-NOT:     modules compiled whole
// ALONE:         (regions checked)        : 2
// ALONE-NEXT:    (regions unwrapped)      : 1
// ALONE-NEXT:    (regions compiled alone) : 2
func.func @mixed(%x: tensor<1x256xf32>, %w: tensor<256x256xf32>) -> tensor<1x4x1x64xf32> {
  %r0 = flow.dispatch.region -> (tensor<1x256xf32>) {
    %e = tensor.empty() : tensor<1x256xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x256xf32>) outs(%e : tensor<1x256xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = math.tanh %a : f32
      linalg.yield %s : f32
    } -> tensor<1x256xf32>
    flow.return %g : tensor<1x256xf32>
  }
  %r = flow.dispatch.region -> (tensor<1x4x1x64xf32>) {
    %e = tensor.empty() : tensor<1x256xf32>
    %z = arith.constant 0.000000e+00 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x256xf32>) -> tensor<1x256xf32>
    // expected-remark-re@+1 {{unwrapped the region of linalg.matmul: iree-compile (llvm-cpu) rejects it: {{.*}} op write affecting operations on global resources are restricted to workgroup distributed contexts}}
    %m = linalg.matmul {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 0], vector_common_parallel = [1, 64, 0], vector_reduction = [0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>} ins(%r0, %w : tensor<1x256xf32>, tensor<256x256xf32>) outs(%f : tensor<1x256xf32>) -> tensor<1x256xf32>
    %v = tensor.expand_shape %m [[0], [1, 2, 3]] output_shape [1, 1, 4, 64] : tensor<1x256xf32> into tensor<1x1x4x64xf32>
    %t0 = tensor.empty() : tensor<1x4x1x64xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x1x4x64xf32>) outs(%t0 : tensor<1x4x1x64xf32>) {
    ^bb0(%a: f32, %b: f32):
      linalg.yield %a : f32
    } -> tensor<1x4x1x64xf32>
    flow.return %t : tensor<1x4x1x64xf32>
  }
  return %r : tensor<1x4x1x64xf32>
}

// -----

// A row norm whose result a rotate-half reads both in place (an operand) and at rotated columns
// (tensor.extract), in one region (Gemma 3's query norm before rotary): IREE's codegen rejects it
// even at 8 x 64 f32, far under the stack limit (form-dispatch-regions' gathers_group_value).
// CHECK-LABEL: func.func @gather_and_operand_of_one_value
// CHECK-NOT:     flow.dispatch.region
// CHECK:         tensor.extract
// STATS:       {{^}}dispatch-verify-with-iree{{$}}
// STATS:         (regions unwrapped)      : 1
func.func @gather_and_operand_of_one_value(%x: tensor<8x64xf32>, %idx: tensor<64xi64>) -> tensor<8x64xf32> {
  %r = flow.dispatch.region -> (tensor<8x64xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    // expected-remark@+1 {{unwrapped the region of linalg.generic: iree-compile (llvm-cpu) rejects it: 'vector.store' op write affecting operations on global resources are restricted to workgroup distributed contexts}}
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%f : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      %t = arith.addf %o, %m : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8x64xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %q = math.rsqrt %b : f32
      %y = arith.mulf %a, %q : f32
      linalg.yield %y : f32
    } -> tensor<8x64xf32>
    %rot = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n, %idx : tensor<8x64xf32>, tensor<64xi64>) outs(%e2 : tensor<8x64xf32>) {
    ^bb0(%a: f32, %i: i64, %o: f32):
      %row = linalg.index 0 : index
      %col = arith.index_cast %i : i64 to index
      %v = tensor.extract %n[%row, %col] : tensor<8x64xf32>
      %y = arith.addf %a, %v : f32
      linalg.yield %y : f32
    } -> tensor<8x64xf32>
    flow.return %rot : tensor<8x64xf32>
  }
  return %r : tensor<8x64xf32>
}
