// RUN: fusion-opt %s --split-input-file -p linalg-strided-conv-to-im2col | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col,form-dispatch-regions" | filecheck %s --check-prefix=FUSED
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col,form-dispatch-regions{im2col-into-contractions=false}" | filecheck %s --check-prefix=APART
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{gathers=none im2col-op-max-filters=64 im2col-op-max-taps=153}" | filecheck %s --check-prefix=NOGATHER
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{gathers=strided}" | filecheck %s --check-prefix=STRIDED
// RUN: not fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{gathers=some}" 2>&1 | filecheck %s --check-prefix=BAD
// BAD: gathers must be all, strided or none, not 'some'
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{absorb-argument-pads=true}" | filecheck %s --check-prefix=ABSORB
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{absorb-pool-pads=true}" | filecheck %s --check-prefix=POOL
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{im2col-op-pixel-multiple=64}" | filecheck %s --check-prefix=MULTIPLE
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{im2col-op-max-filters=1024 im2col-op-max-taps=4608 im2col-op-pixel-multiple=64}" | filecheck %s --check-prefix=WIDE

// linalg/im2col_op_form.py (the op form) and dispatch/im2col_producers.py (its region).
// A strided conv with few filters (8 filters, 27 taps, 16 output pixels) becomes IREE's im2col op
// on the padded image (the unit batch collapsed away; the pad stays where it was), the patches
// K x P for the filter-first matmul. Region formation computes the op in the matmul's region;
// with im2col-into-contractions off it keeps a region of its own (IREE's rule).
// CHECK-LABEL: func.func @few_filters
// CHECK:         %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         %[[X:.*]] = tensor.collapse_shape %[[PAD]] {{\[\[}}0, 1], [2], [3]] : tensor<1x3x10x10xf32> into tensor<3x10x10xf32>
// CHECK:         %[[P:.*]] = iree_linalg_ext.im2col strides = [2, 2] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = {{\[\[}}4, 4], [3, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] ins(%[[X]] : tensor<3x10x10xf32>) outs(%{{.*}} : tensor<27x16xf32>) -> tensor<27x16xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[P]] : tensor<8x27xf32>, tensor<27x16xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// FUSED-LABEL: func.func @few_filters
// FUSED:         flow.dispatch.region -> (tensor<8x16xf32>)
// FUSED:           %[[P:.*]] = iree_linalg_ext.im2col
// FUSED:           linalg.generic {{.*}} ins(%{{.*}}, %[[P]] :
// FUSED:           flow.return
// FUSED-NOT:     flow.dispatch.region
// APART-LABEL: func.func @few_filters
// APART:         flow.dispatch.region -> (tensor<27x16xf32>)
// APART-NOT:       linalg.generic
// APART:           iree_linalg_ext.im2col
// APART-NEXT:      flow.return
// APART:         flow.dispatch.region -> (tensor<8x16xf32>)
// NOGATHER-LABEL: func.func @few_filters
// NOGATHER:        iree_linalg_ext.im2col
// NOGATHER-NOT:    linalg.conv_2d_nchw_fchw
func.func @few_filters(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %c : tensor<1x8x4x4xf32>
}

// -----

// The gather form: 64 filters; 153 taps; 12 output pixels (not a power of two).
// CHECK-LABEL: func.func @gather_form
// FUSED-LABEL: func.func @gather_form
// APART-LABEL: func.func @gather_form
// CHECK-NOT:     iree_linalg_ext.im2col
// CHECK-COUNT-3: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0,
// With the op's bounds raised to 64 filters and 153 taps the first two take the op; without
// gathers the third (no power-of-two pixel count) stays a conv: one dispatch each.
// NOGATHER-LABEL: func.func @gather_form
// NOGATHER-NOT:    affine_map<(d0, d1, d2, d3, d4) -> (0, d0,
// NOGATHER:        iree_linalg_ext.im2col {{.*}} output_sizes = {{\[\[}}4, 4], [3, 3, 3]] {{.*}} outs(%{{.*}} : tensor<27x16xf32>)
// NOGATHER:        linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64x27xf32>, tensor<27x16xf32>)
// NOGATHER:        iree_linalg_ext.im2col {{.*}} output_sizes = {{\[\[}}4, 4], [17, 3, 3]] {{.*}} outs(%{{.*}} : tensor<153x16xf32>)
// NOGATHER:        linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3x9x7xf32>, tensor<8x3x3x3xf32>)
// NOGATHER-NOT:    iree_linalg_ext.im2col
func.func @gather_form(%x: tensor<1x3x10x10xf32>, %w64: tensor<64x3x3x3xf32>, %x17: tensor<1x17x10x10xf32>,
                       %w17: tensor<8x17x3x3xf32>, %x7: tensor<1x3x9x7xf32>, %w7: tensor<8x3x3x3xf32>)
    -> (tensor<1x64x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %e64 = tensor.empty() : tensor<1x64x4x4xf32>
  %f64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w64 : tensor<1x3x10x10xf32>, tensor<64x3x3x3xf32>) outs(%f64 : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
  %e8 = tensor.empty() : tensor<1x8x4x4xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x17, %w17 : tensor<1x17x10x10xf32>, tensor<8x17x3x3xf32>) outs(%f8 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %e7 = tensor.empty() : tensor<1x8x4x3xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<1x8x4x3xf32>) -> tensor<1x8x4x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x7, %w7 : tensor<1x3x9x7xf32>, tensor<8x3x3x3xf32>) outs(%f7 : tensor<1x8x4x3xf32>) -> tensor<1x8x4x3xf32>
  func.return %a, %b, %c : tensor<1x64x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x3xf32>
}

// -----

// Stride-1 convs the op does not take (6 x 6 output pixels): gather + matmul by default; with
// gathers=strided they stay convs while a strided one (12 pixels) is still gathered. A stride-1
// conv with 16 output pixels and 8 filters takes the op either way.
// CHECK-LABEL: func.func @stride_one_gathers
// CHECK-COUNT-2: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0,
// CHECK:         iree_linalg_ext.im2col
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// NOGATHER-LABEL: func.func @stride_one_gathers
// STRIDED-LABEL: func.func @stride_one_gathers
// STRIDED:         linalg.conv_2d_nchw_fchw {{.*}}strides = dense<1> {{.*}} -> tensor<1x8x6x6xf32>
// STRIDED:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0, ((d3 * 2) + d1), ((d4 * 2) + d2))>
// STRIDED:         iree_linalg_ext.im2col
// STRIDED-NOT:     linalg.conv_2d_nchw_fchw
func.func @stride_one_gathers(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>, %x7: tensor<1x3x9x7xf32>, %x6: tensor<1x3x6x6xf32>)
    -> (tensor<1x8x6x6xf32>, tensor<1x8x4x3xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e6 = tensor.empty() : tensor<1x8x6x6xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) outs(%f6 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %e7 = tensor.empty() : tensor<1x8x4x3xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<1x8x4x3xf32>) -> tensor<1x8x4x3xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x7, %w : tensor<1x3x9x7xf32>, tensor<8x3x3x3xf32>) outs(%f7 : tensor<1x8x4x3xf32>) -> tensor<1x8x4x3xf32>
  %e4 = tensor.empty() : tensor<1x8x4x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x6, %w : tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>) outs(%f4 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %a, %b, %c : tensor<1x8x6x6xf32>, tensor<1x8x4x3xf32>, tensor<1x8x4x4xf32>
}

// -----

// absorb-argument-pads: the pad of an argument read only by the conv becomes the im2col op's
// input padding (no pad left); a pad of a computed value, or one read twice, stays.
// ABSORB-LABEL: func.func @argument_pad
// ABSORB-NOT:     tensor.pad
// ABSORB:         %[[X:.*]] = tensor.collapse_shape %x {{\[\[}}0, 1], [2], [3]] : tensor<1x3x8x8xf32> into tensor<3x8x8xf32>
// ABSORB:         iree_linalg_ext.im2col {{.*}} input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%{{.*}} : f32) ins(%[[X]] : tensor<3x8x8xf32>)
// ABSORB-NOT:     tensor.pad
// CHECK-LABEL: func.func @argument_pad
// CHECK:         tensor.pad
func.func @argument_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %c : tensor<1x8x4x4xf32>
}

// -----

// POOL-LABEL:   func.func @pads_kept
// POOL-COUNT-2:  tensor.pad
// POOL-NOT:      input_pad_low
// ABSORB-LABEL: func.func @pads_kept
// ABSORB:         %[[E:.*]] = math.exp
// ABSORB:         %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1]
// ABSORB:         %[[Q:.*]] = tensor.pad %y low[0, 0, 1, 1]
// ABSORB:         tensor.collapse_shape %[[P]]
// ABSORB-NOT:     input_pad_low
// ABSORB:         tensor.collapse_shape %[[Q]]
// ABSORB-NOT:     input_pad_low
// ABSORB:         return
func.func @pads_kept(%x: tensor<1x3x8x8xf32>, %y: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x3x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %xe = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x3x8x8xf32>) outs(%x : tensor<1x3x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ex = math.exp %a : f32
    linalg.yield %ex : f32
  } -> tensor<1x3x8x8xf32>
  %xp = tensor.pad %xe low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %yp = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%yp, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %c, %d, %yp : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x3x10x10xf32>
}

// -----

// absorb-pool-pads: the pad of a max pool's result, which the caller reads too (a residual
// add's other operand), becomes the im2col op's input padding; with absorb-argument-pads alone
// it stays (a copy dispatch: a pool region cannot store its result plain and padded).
// POOL-LABEL:   func.func @pool_pad
// POOL:         %[[P:.*]] = linalg.pooling_nchw_max
// POOL-NOT:     tensor.pad
// POOL:         %[[X:.*]] = tensor.collapse_shape %[[P]] {{\[\[}}0, 1], [2], [3]] : tensor<1x3x8x8xf32> into tensor<3x8x8xf32>
// POOL:         iree_linalg_ext.im2col {{.*}} input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%{{.*}} : f32) ins(%[[X]] : tensor<3x8x8xf32>)
// POOL:         return {{.*}}, %[[P]]
// ABSORB-LABEL: func.func @pool_pad
// ABSORB:       tensor.pad
// CHECK-LABEL:  func.func @pool_pad
// CHECK:        tensor.pad
func.func @pool_pad(%x: tensor<1x3x16x16xf32>, %w: tensor<8x3x3x3xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x3x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %pe = tensor.empty() : tensor<1x3x8x8xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<1x3x16x16xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %pp = tensor.pad %pool low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pp, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  func.return %c, %pool : tensor<1x8x8x8xf32>, tensor<1x3x8x8xf32>
}

// -----

// Output pixel counts that are no power of two: 16x12 = 192 (3 x 64) and 14x14 = 196. By
// default both are gather + matmul; with im2col-op-pixel-multiple=64 the multiple of 64 takes
// the op (IREE builds that region: the 224x224 stems' 112x112), 196 does not (IREE fails it).
// CHECK-LABEL: func.func @pixel_multiple
// CHECK-NOT:     iree_linalg_ext.im2col
// CHECK-COUNT-2: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0,
// MULTIPLE-LABEL: func.func @pixel_multiple
// MULTIPLE:        iree_linalg_ext.im2col {{.*}} output_sizes = {{\[\[}}16, 12], [3, 3, 3]] {{.*}} outs(%{{.*}} : tensor<27x192xf32>)
// MULTIPLE:        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0,
// MULTIPLE-SAME:     ins(%{{.*}} : tensor<1x3x29x29xf32>) outs(%{{.*}} : tensor<3x3x3x14x14xf32>)
// MULTIPLE-NOT:    iree_linalg_ext.im2col
// With the fewest pipeline's raised bounds a multiple of 64 still takes the op only within 32
// filters and 144 taps (past them it was slower than IREE's conv: im2col_op_form.py); a stem
// (3 input channels) past them stays IREE's conv (one dispatch), another conv is gather + matmul.
// WIDE-LABEL: func.func @pixel_multiple
// WIDE:         iree_linalg_ext.im2col {{.*}} outs(%{{.*}} : tensor<27x192xf32>)
// WIDE-NOT:     iree_linalg_ext.im2col
// WIDE:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3x3x14x14xf32>)
// WIDE:         linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w96 : tensor<1x3x33x25xf32>, tensor<96x3x3x3xf32>)
// WIDE:         linalg.generic {{.*}} outs(%{{.*}} : tensor<8x3x3x16x12xf32>)
// WIDE-NOT:     linalg.conv_2d_nchw_fchw
func.func @pixel_multiple(%x: tensor<1x3x33x25xf32>, %w: tensor<8x3x3x3xf32>, %y: tensor<1x3x29x29xf32>, %w96: tensor<96x3x3x3xf32>,
                          %z: tensor<1x8x33x25xf32>, %w64: tensor<64x8x3x3xf32>)
    -> (tensor<1x8x16x12xf32>, tensor<1x8x14x14xf32>, tensor<1x96x16x12xf32>, tensor<1x64x16x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x16x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x16x12xf32>) -> tensor<1x8x16x12xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x3x33x25xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x8x16x12xf32>) -> tensor<1x8x16x12xf32>
  %e2 = tensor.empty() : tensor<1x8x14x14xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%y, %w : tensor<1x3x29x29xf32>, tensor<8x3x3x3xf32>) outs(%f2 : tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32>
  %e3 = tensor.empty() : tensor<1x96x16x12xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x96x16x12xf32>) -> tensor<1x96x16x12xf32>
  %c3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w96 : tensor<1x3x33x25xf32>, tensor<96x3x3x3xf32>) outs(%f3 : tensor<1x96x16x12xf32>) -> tensor<1x96x16x12xf32>
  %e4 = tensor.empty() : tensor<1x64x16x12xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x64x16x12xf32>) -> tensor<1x64x16x12xf32>
  %c4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%z, %w64 : tensor<1x8x33x25xf32>, tensor<64x8x3x3xf32>) outs(%f4 : tensor<1x64x16x12xf32>) -> tensor<1x64x16x12xf32>
  func.return %c, %c2, %c3, %c4 : tensor<1x8x16x12xf32>, tensor<1x8x14x14xf32>, tensor<1x96x16x12xf32>, tensor<1x64x16x12xf32>
}

// -----

// A 1-D conv as a unit-height 2-D one whose windows do not overlap (CANINE's downsampling:
// kernel 4, stride 4): IREE 3.13 computes the op's region wrongly for it (it reads the row at
// stride 1; bench/iree_limits_found.py), so it stays the gather form, even at the fewest
// pipeline's bounds. Overlapping windows (kernel 4, stride 2) take the op.
// CHECK-LABEL: func.func @unit_height_rows
// FUSED-LABEL: func.func @unit_height_rows
// APART-LABEL: func.func @unit_height_rows
// NOGATHER-LABEL: func.func @unit_height_rows
// STRIDED-LABEL: func.func @unit_height_rows
// ABSORB-LABEL: func.func @unit_height_rows
// POOL-LABEL: func.func @unit_height_rows
// MULTIPLE-LABEL: func.func @unit_height_rows
// WIDE-LABEL: func.func @unit_height_rows
// WIDE:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0, (d3 + d1), ((d4 * 4) + d2))>
// WIDE-NOT:     iree_linalg_ext.im2col strides = [1, 4]
// WIDE:         iree_linalg_ext.im2col strides = [1, 2] dilations = [1, 1] kernel_size = [1, 4]
// WIDE-NOT:     linalg.conv_2d_nchw_fchw
func.func @unit_height_rows(%x: tensor<1x16x1x128xf32>, %w: tensor<16x16x1x4xf32>, %y: tensor<1x16x1x130xf32>)
    -> (tensor<1x16x1x32xf32>, tensor<1x16x1x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x1x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x1x32xf32>) -> tensor<1x16x1x32xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 4]> : vector<2xi64>} ins(%x, %w : tensor<1x16x1x128xf32>, tensor<16x16x1x4xf32>) outs(%f : tensor<1x16x1x32xf32>) -> tensor<1x16x1x32xf32>
  %e2 = tensor.empty() : tensor<1x16x1x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x1x64xf32>) -> tensor<1x16x1x64xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%y, %w : tensor<1x16x1x130xf32>, tensor<16x16x1x4xf32>) outs(%f2 : tensor<1x16x1x64xf32>) -> tensor<1x16x1x64xf32>
  func.return %c, %c2 : tensor<1x16x1x32xf32>, tensor<1x16x1x64xf32>
}
