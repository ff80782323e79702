#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main_graph(%arg0: tensor<1x3x64x64xf32>, %arg1: tensor<64x3x7x7xf32>, %arg2: tensor<64x64x3x3xf32>, %arg3: tensor<64x64x3x3xf32>, %arg4: tensor<64x64x3x3xf32>, %arg5: tensor<64x64x3x3xf32>, %arg6: tensor<128x64x3x3xf32>, %arg7: tensor<128x128x3x3xf32>, %arg8: tensor<128x64x1x1xf32>, %arg9: tensor<128x128x3x3xf32>, %arg10: tensor<128x128x3x3xf32>, %arg11: tensor<256x128x3x3xf32>, %arg12: tensor<256x256x3x3xf32>, %arg13: tensor<256x128x1x1xf32>, %arg14: tensor<256x256x3x3xf32>, %arg15: tensor<256x256x3x3xf32>, %arg16: tensor<512x256x3x3xf32>, %arg17: tensor<512x512x3x3xf32>, %arg18: tensor<512x256x1x1xf32>, %arg19: tensor<512x512x3x3xf32>, %arg20: tensor<512x512x3x3xf32>, %arg21: tensor<10x512xf32>, %arg22: tensor<10xf32>, %arg23: tensor<64xf32>, %arg24: tensor<64xf32>, %arg25: tensor<64xf32>, %arg26: tensor<64xf32>, %arg27: tensor<64xf32>, %arg28: tensor<128xf32>, %arg29: tensor<128xf32>, %arg30: tensor<128xf32>, %arg31: tensor<128xf32>, %arg32: tensor<128xf32>, %arg33: tensor<256xf32>, %arg34: tensor<256xf32>, %arg35: tensor<256xf32>, %arg36: tensor<256xf32>, %arg37: tensor<256xf32>, %arg38: tensor<512xf32>, %arg39: tensor<512xf32>, %arg40: tensor<512xf32>, %arg41: tensor<512xf32>, %arg42: tensor<512xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 4.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 3, 3] high[0, 0, 3, 3] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x3x64x64xf32> to tensor<1x3x70x70xf32>
    %0 = tensor.empty() : tensor<1x64x32x32xf32>
    %broadcasted = linalg.broadcast ins(%arg23 : tensor<64xf32>) outs(%0 : tensor<1x64x32x32xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %arg1 : tensor<1x3x70x70xf32>, tensor<64x3x7x7xf32>) outs(%broadcasted : tensor<1x64x32x32xf32>) -> tensor<1x64x32x32xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x64x32x32xf32>) outs(%0 : tensor<1x64x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x64x32x32xf32>
    %padded_2 = tensor.pad %2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x64x32x32xf32> to tensor<1x64x34x34xf32>
    %3 = tensor.empty() : tensor<1x64x16x16xf32>
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %5 = tensor.empty() : tensor<3x3xf32>
    %6 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_2, %5 : tensor<1x64x34x34xf32>, tensor<3x3xf32>) outs(%4 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %padded_3 = tensor.pad %6 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x64x16x16xf32> to tensor<1x64x18x18xf32>
    %broadcasted_4 = linalg.broadcast ins(%arg24 : tensor<64xf32>) outs(%3 : tensor<1x64x16x16xf32>) dimensions = [0, 2, 3] 
    %7 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_3, %arg2 : tensor<1x64x18x18xf32>, tensor<64x64x3x3xf32>) outs(%broadcasted_4 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7 : tensor<1x64x16x16xf32>) outs(%3 : tensor<1x64x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x64x16x16xf32>
    %padded_5 = tensor.pad %8 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x64x16x16xf32> to tensor<1x64x18x18xf32>
    %broadcasted_6 = linalg.broadcast ins(%arg25 : tensor<64xf32>) outs(%3 : tensor<1x64x16x16xf32>) dimensions = [0, 2, 3] 
    %9 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_5, %arg3 : tensor<1x64x18x18xf32>, tensor<64x64x3x3xf32>) outs(%broadcasted_6 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %6 : tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>) outs(%3 : tensor<1x64x16x16xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x64x16x16xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<1x64x16x16xf32>) outs(%3 : tensor<1x64x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x64x16x16xf32>
    %padded_7 = tensor.pad %11 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x64x16x16xf32> to tensor<1x64x18x18xf32>
    %broadcasted_8 = linalg.broadcast ins(%arg26 : tensor<64xf32>) outs(%3 : tensor<1x64x16x16xf32>) dimensions = [0, 2, 3] 
    %12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_7, %arg4 : tensor<1x64x18x18xf32>, tensor<64x64x3x3xf32>) outs(%broadcasted_8 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<1x64x16x16xf32>) outs(%3 : tensor<1x64x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x64x16x16xf32>
    %padded_9 = tensor.pad %13 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x64x16x16xf32> to tensor<1x64x18x18xf32>
    %broadcasted_10 = linalg.broadcast ins(%arg27 : tensor<64xf32>) outs(%3 : tensor<1x64x16x16xf32>) dimensions = [0, 2, 3] 
    %14 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_9, %arg5 : tensor<1x64x18x18xf32>, tensor<64x64x3x3xf32>) outs(%broadcasted_10 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %11 : tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>) outs(%3 : tensor<1x64x16x16xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x64x16x16xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x64x16x16xf32>) outs(%3 : tensor<1x64x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x64x16x16xf32>
    %padded_11 = tensor.pad %16 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x64x16x16xf32> to tensor<1x64x18x18xf32>
    %17 = tensor.empty() : tensor<1x128x8x8xf32>
    %broadcasted_12 = linalg.broadcast ins(%arg28 : tensor<128xf32>) outs(%17 : tensor<1x128x8x8xf32>) dimensions = [0, 2, 3] 
    %18 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_11, %arg6 : tensor<1x64x18x18xf32>, tensor<128x64x3x3xf32>) outs(%broadcasted_12 : tensor<1x128x8x8xf32>) -> tensor<1x128x8x8xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<1x128x8x8xf32>) outs(%17 : tensor<1x128x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x128x8x8xf32>
    %padded_13 = tensor.pad %19 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x128x8x8xf32> to tensor<1x128x10x10xf32>
    %broadcasted_14 = linalg.broadcast ins(%arg29 : tensor<128xf32>) outs(%17 : tensor<1x128x8x8xf32>) dimensions = [0, 2, 3] 
    %20 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_13, %arg7 : tensor<1x128x10x10xf32>, tensor<128x128x3x3xf32>) outs(%broadcasted_14 : tensor<1x128x8x8xf32>) -> tensor<1x128x8x8xf32>
    %broadcasted_15 = linalg.broadcast ins(%arg30 : tensor<128xf32>) outs(%17 : tensor<1x128x8x8xf32>) dimensions = [0, 2, 3] 
    %21 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%16, %arg8 : tensor<1x64x16x16xf32>, tensor<128x64x1x1xf32>) outs(%broadcasted_15 : tensor<1x128x8x8xf32>) -> tensor<1x128x8x8xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %21 : tensor<1x128x8x8xf32>, tensor<1x128x8x8xf32>) outs(%17 : tensor<1x128x8x8xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x128x8x8xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22 : tensor<1x128x8x8xf32>) outs(%17 : tensor<1x128x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x128x8x8xf32>
    %padded_16 = tensor.pad %23 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x128x8x8xf32> to tensor<1x128x10x10xf32>
    %broadcasted_17 = linalg.broadcast ins(%arg31 : tensor<128xf32>) outs(%17 : tensor<1x128x8x8xf32>) dimensions = [0, 2, 3] 
    %24 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_16, %arg9 : tensor<1x128x10x10xf32>, tensor<128x128x3x3xf32>) outs(%broadcasted_17 : tensor<1x128x8x8xf32>) -> tensor<1x128x8x8xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<1x128x8x8xf32>) outs(%17 : tensor<1x128x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x128x8x8xf32>
    %padded_18 = tensor.pad %25 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x128x8x8xf32> to tensor<1x128x10x10xf32>
    %broadcasted_19 = linalg.broadcast ins(%arg32 : tensor<128xf32>) outs(%17 : tensor<1x128x8x8xf32>) dimensions = [0, 2, 3] 
    %26 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_18, %arg10 : tensor<1x128x10x10xf32>, tensor<128x128x3x3xf32>) outs(%broadcasted_19 : tensor<1x128x8x8xf32>) -> tensor<1x128x8x8xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %23 : tensor<1x128x8x8xf32>, tensor<1x128x8x8xf32>) outs(%17 : tensor<1x128x8x8xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x128x8x8xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27 : tensor<1x128x8x8xf32>) outs(%17 : tensor<1x128x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x128x8x8xf32>
    %padded_20 = tensor.pad %28 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x128x8x8xf32> to tensor<1x128x10x10xf32>
    %29 = tensor.empty() : tensor<1x256x4x4xf32>
    %broadcasted_21 = linalg.broadcast ins(%arg33 : tensor<256xf32>) outs(%29 : tensor<1x256x4x4xf32>) dimensions = [0, 2, 3] 
    %30 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_20, %arg11 : tensor<1x128x10x10xf32>, tensor<256x128x3x3xf32>) outs(%broadcasted_21 : tensor<1x256x4x4xf32>) -> tensor<1x256x4x4xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30 : tensor<1x256x4x4xf32>) outs(%29 : tensor<1x256x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x256x4x4xf32>
    %padded_22 = tensor.pad %31 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x256x4x4xf32> to tensor<1x256x6x6xf32>
    %broadcasted_23 = linalg.broadcast ins(%arg34 : tensor<256xf32>) outs(%29 : tensor<1x256x4x4xf32>) dimensions = [0, 2, 3] 
    %32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_22, %arg12 : tensor<1x256x6x6xf32>, tensor<256x256x3x3xf32>) outs(%broadcasted_23 : tensor<1x256x4x4xf32>) -> tensor<1x256x4x4xf32>
    %broadcasted_24 = linalg.broadcast ins(%arg35 : tensor<256xf32>) outs(%29 : tensor<1x256x4x4xf32>) dimensions = [0, 2, 3] 
    %33 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%28, %arg13 : tensor<1x128x8x8xf32>, tensor<256x128x1x1xf32>) outs(%broadcasted_24 : tensor<1x256x4x4xf32>) -> tensor<1x256x4x4xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32, %33 : tensor<1x256x4x4xf32>, tensor<1x256x4x4xf32>) outs(%29 : tensor<1x256x4x4xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x256x4x4xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<1x256x4x4xf32>) outs(%29 : tensor<1x256x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x256x4x4xf32>
    %padded_25 = tensor.pad %35 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x256x4x4xf32> to tensor<1x256x6x6xf32>
    %broadcasted_26 = linalg.broadcast ins(%arg36 : tensor<256xf32>) outs(%29 : tensor<1x256x4x4xf32>) dimensions = [0, 2, 3] 
    %36 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_25, %arg14 : tensor<1x256x6x6xf32>, tensor<256x256x3x3xf32>) outs(%broadcasted_26 : tensor<1x256x4x4xf32>) -> tensor<1x256x4x4xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36 : tensor<1x256x4x4xf32>) outs(%29 : tensor<1x256x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x256x4x4xf32>
    %padded_27 = tensor.pad %37 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x256x4x4xf32> to tensor<1x256x6x6xf32>
    %broadcasted_28 = linalg.broadcast ins(%arg37 : tensor<256xf32>) outs(%29 : tensor<1x256x4x4xf32>) dimensions = [0, 2, 3] 
    %38 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_27, %arg15 : tensor<1x256x6x6xf32>, tensor<256x256x3x3xf32>) outs(%broadcasted_28 : tensor<1x256x4x4xf32>) -> tensor<1x256x4x4xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%38, %35 : tensor<1x256x4x4xf32>, tensor<1x256x4x4xf32>) outs(%29 : tensor<1x256x4x4xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x256x4x4xf32>
    %40 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39 : tensor<1x256x4x4xf32>) outs(%29 : tensor<1x256x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x256x4x4xf32>
    %padded_29 = tensor.pad %40 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x256x4x4xf32> to tensor<1x256x6x6xf32>
    %41 = tensor.empty() : tensor<1x512x2x2xf32>
    %broadcasted_30 = linalg.broadcast ins(%arg38 : tensor<512xf32>) outs(%41 : tensor<1x512x2x2xf32>) dimensions = [0, 2, 3] 
    %42 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_29, %arg16 : tensor<1x256x6x6xf32>, tensor<512x256x3x3xf32>) outs(%broadcasted_30 : tensor<1x512x2x2xf32>) -> tensor<1x512x2x2xf32>
    %43 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42 : tensor<1x512x2x2xf32>) outs(%41 : tensor<1x512x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x512x2x2xf32>
    %padded_31 = tensor.pad %43 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x512x2x2xf32> to tensor<1x512x4x4xf32>
    %broadcasted_32 = linalg.broadcast ins(%arg39 : tensor<512xf32>) outs(%41 : tensor<1x512x2x2xf32>) dimensions = [0, 2, 3] 
    %44 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_31, %arg17 : tensor<1x512x4x4xf32>, tensor<512x512x3x3xf32>) outs(%broadcasted_32 : tensor<1x512x2x2xf32>) -> tensor<1x512x2x2xf32>
    %broadcasted_33 = linalg.broadcast ins(%arg40 : tensor<512xf32>) outs(%41 : tensor<1x512x2x2xf32>) dimensions = [0, 2, 3] 
    %45 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%40, %arg18 : tensor<1x256x4x4xf32>, tensor<512x256x1x1xf32>) outs(%broadcasted_33 : tensor<1x512x2x2xf32>) -> tensor<1x512x2x2xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %45 : tensor<1x512x2x2xf32>, tensor<1x512x2x2xf32>) outs(%41 : tensor<1x512x2x2xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x512x2x2xf32>
    %47 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%46 : tensor<1x512x2x2xf32>) outs(%41 : tensor<1x512x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x512x2x2xf32>
    %padded_34 = tensor.pad %47 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x512x2x2xf32> to tensor<1x512x4x4xf32>
    %broadcasted_35 = linalg.broadcast ins(%arg41 : tensor<512xf32>) outs(%41 : tensor<1x512x2x2xf32>) dimensions = [0, 2, 3] 
    %48 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_34, %arg19 : tensor<1x512x4x4xf32>, tensor<512x512x3x3xf32>) outs(%broadcasted_35 : tensor<1x512x2x2xf32>) -> tensor<1x512x2x2xf32>
    %49 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48 : tensor<1x512x2x2xf32>) outs(%41 : tensor<1x512x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x512x2x2xf32>
    %padded_36 = tensor.pad %49 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg43: index, %arg44: index, %arg45: index, %arg46: index):
      tensor.yield %cst : f32
    } : tensor<1x512x2x2xf32> to tensor<1x512x4x4xf32>
    %broadcasted_37 = linalg.broadcast ins(%arg42 : tensor<512xf32>) outs(%41 : tensor<1x512x2x2xf32>) dimensions = [0, 2, 3] 
    %50 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_36, %arg20 : tensor<1x512x4x4xf32>, tensor<512x512x3x3xf32>) outs(%broadcasted_37 : tensor<1x512x2x2xf32>) -> tensor<1x512x2x2xf32>
    %51 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50, %47 : tensor<1x512x2x2xf32>, tensor<1x512x2x2xf32>) outs(%41 : tensor<1x512x2x2xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x512x2x2xf32>
    %52 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51 : tensor<1x512x2x2xf32>) outs(%41 : tensor<1x512x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.cmpf ugt, %in, %cst : f32
      %63 = arith.select %62, %in, %cst : f32
      linalg.yield %63 : f32
    } -> tensor<1x512x2x2xf32>
    %53 = tensor.empty() : tensor<1x512x1x1xf32>
    %54 = linalg.fill ins(%cst : f32) outs(%53 : tensor<1x512x1x1xf32>) -> tensor<1x512x1x1xf32>
    %55 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%52 : tensor<1x512x2x2xf32>) outs(%54 : tensor<1x512x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.addf %in, %out : f32
      linalg.yield %62 : f32
    } -> tensor<1x512x1x1xf32>
    %56 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55 : tensor<1x512x1x1xf32>) outs(%53 : tensor<1x512x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.divf %in, %cst_1 : f32
      linalg.yield %62 : f32
    } -> tensor<1x512x1x1xf32>
    %collapsed = tensor.collapse_shape %56 [[0], [1, 2, 3]] : tensor<1x512x1x1xf32> into tensor<1x512xf32>
    %57 = tensor.empty() : tensor<512x10xf32>
    %transposed = linalg.transpose ins(%arg21 : tensor<10x512xf32>) outs(%57 : tensor<512x10xf32>) permutation = [1, 0] 
    %58 = tensor.empty() : tensor<1x10xf32>
    %59 = linalg.fill ins(%cst : f32) outs(%58 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %60 = linalg.matmul ins(%collapsed, %transposed : tensor<1x512xf32>, tensor<512x10xf32>) outs(%59 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %61 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%60, %arg22 : tensor<1x10xf32>, tensor<10xf32>) outs(%58 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_38: f32, %out: f32):
      %62 = arith.addf %in, %in_38 : f32
      linalg.yield %62 : f32
    } -> tensor<1x10xf32>
    return %61 : tensor<1x10xf32>
  }
}

