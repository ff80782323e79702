#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1) -> ()>
module {
  func.func @main_graph(%arg0: tensor<1x3x64x64xf32>, %arg1: tensor<16x3x3x3xf32>, %arg2: tensor<16x1x3x3xf32>, %arg3: tensor<8x16x1x1xf32>, %arg4: tensor<8xf32>, %arg5: tensor<16x8x1x1xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16x16x1x1xf32>, %arg8: tensor<72x16x1x1xf32>, %arg9: tensor<72x1x3x3xf32>, %arg10: tensor<24x72x1x1xf32>, %arg11: tensor<88x24x1x1xf32>, %arg12: tensor<88x1x3x3xf32>, %arg13: tensor<24x88x1x1xf32>, %arg14: tensor<96x24x1x1xf32>, %arg15: tensor<96x1x5x5xf32>, %arg16: tensor<24x96x1x1xf32>, %arg17: tensor<24xf32>, %arg18: tensor<96x24x1x1xf32>, %arg19: tensor<96xf32>, %arg20: tensor<40x96x1x1xf32>, %arg21: tensor<240x40x1x1xf32>, %arg22: tensor<240x1x5x5xf32>, %arg23: tensor<64x240x1x1xf32>, %arg24: tensor<64xf32>, %arg25: tensor<240x64x1x1xf32>, %arg26: tensor<240xf32>, %arg27: tensor<40x240x1x1xf32>, %arg28: tensor<240x40x1x1xf32>, %arg29: tensor<240x1x5x5xf32>, %arg30: tensor<64x240x1x1xf32>, %arg31: tensor<64xf32>, %arg32: tensor<240x64x1x1xf32>, %arg33: tensor<240xf32>, %arg34: tensor<40x240x1x1xf32>, %arg35: tensor<120x40x1x1xf32>, %arg36: tensor<120x1x5x5xf32>, %arg37: tensor<32x120x1x1xf32>, %arg38: tensor<32xf32>, %arg39: tensor<120x32x1x1xf32>, %arg40: tensor<120xf32>, %arg41: tensor<48x120x1x1xf32>, %arg42: tensor<144x48x1x1xf32>, %arg43: tensor<144x1x5x5xf32>, %arg44: tensor<40x144x1x1xf32>, %arg45: tensor<40xf32>, %arg46: tensor<144x40x1x1xf32>, %arg47: tensor<144xf32>, %arg48: tensor<48x144x1x1xf32>, %arg49: tensor<288x48x1x1xf32>, %arg50: tensor<288x1x5x5xf32>, %arg51: tensor<72x288x1x1xf32>, %arg52: tensor<72xf32>, %arg53: tensor<288x72x1x1xf32>, %arg54: tensor<288xf32>, %arg55: tensor<96x288x1x1xf32>, %arg56: tensor<576x96x1x1xf32>, %arg57: tensor<576x1x5x5xf32>, %arg58: tensor<144x576x1x1xf32>, %arg59: tensor<144xf32>, %arg60: tensor<576x144x1x1xf32>, %arg61: tensor<576xf32>, %arg62: tensor<96x576x1x1xf32>, %arg63: tensor<576x96x1x1xf32>, %arg64: tensor<576x1x5x5xf32>, %arg65: tensor<144x576x1x1xf32>, %arg66: tensor<144xf32>, %arg67: tensor<576x144x1x1xf32>, %arg68: tensor<576xf32>, %arg69: tensor<96x576x1x1xf32>, %arg70: tensor<576x96x1x1xf32>, %arg71: tensor<1024x576xf32>, %arg72: tensor<1024xf32>, %arg73: tensor<10x1024xf32>, %arg74: tensor<10xf32>, %arg75: tensor<16xf32>, %arg76: tensor<16xf32>, %arg77: tensor<16xf32>, %arg78: tensor<72xf32>, %arg79: tensor<72xf32>, %arg80: tensor<24xf32>, %arg81: tensor<88xf32>, %arg82: tensor<88xf32>, %arg83: tensor<24xf32>, %arg84: tensor<96xf32>, %arg85: tensor<96xf32>, %arg86: tensor<40xf32>, %arg87: tensor<240xf32>, %arg88: tensor<240xf32>, %arg89: tensor<40xf32>, %arg90: tensor<240xf32>, %arg91: tensor<240xf32>, %arg92: tensor<40xf32>, %arg93: tensor<120xf32>, %arg94: tensor<120xf32>, %arg95: tensor<48xf32>, %arg96: tensor<144xf32>, %arg97: tensor<144xf32>, %arg98: tensor<48xf32>, %arg99: tensor<288xf32>, %arg100: tensor<288xf32>, %arg101: tensor<96xf32>, %arg102: tensor<576xf32>, %arg103: tensor<576xf32>, %arg104: tensor<96xf32>, %arg105: tensor<576xf32>, %arg106: tensor<576xf32>, %arg107: tensor<96xf32>, %arg108: tensor<576xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_1 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<6.000000e+00> : tensor<f32>
    %cst_3 = arith.constant 3.000000e+00 : f32
    %cst_4 = arith.constant 6.000000e+00 : f32
    %cst_5 = arith.constant 2.560000e+02 : f32
    %cst_6 = arith.constant 0.166666672 : f32
    %cst_7 = arith.constant 5.000000e-01 : f32
    %cst_8 = arith.constant 1.600000e+01 : f32
    %cst_9 = arith.constant 4.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x3x64x64xf32> to tensor<1x3x66x66xf32>
    %0 = tensor.empty() : tensor<1x16x32x32xf32>
    %broadcasted = linalg.broadcast ins(%arg75 : tensor<16xf32>) outs(%0 : tensor<1x16x32x32xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %arg1 : tensor<1x3x66x66xf32>, tensor<16x3x3x3xf32>) outs(%broadcasted : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x16x32x32xf32>) outs(%0 : tensor<1x16x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x16x32x32xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x16x32x32xf32>) outs(%0 : tensor<1x16x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x16x32x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %cst_2 : tensor<1x16x32x32xf32>, tensor<f32>) outs(%0 : tensor<1x16x32x32xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x16x32x32xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x16x32x32xf32>) outs(%0 : tensor<1x16x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x16x32x32xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %1 : tensor<1x16x32x32xf32>, tensor<1x16x32x32xf32>) outs(%0 : tensor<1x16x32x32xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x16x32x32xf32>
    %padded_10 = tensor.pad %6 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x16x32x32xf32> to tensor<1x16x34x34xf32>
    %7 = tensor.empty() : tensor<1x16x16x16xf32>
    %broadcasted_11 = linalg.broadcast ins(%arg76 : tensor<16xf32>) outs(%7 : tensor<1x16x16x16xf32>) dimensions = [0, 2, 3] 
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<16x1x3x3xf32> into tensor<16x3x3xf32>
    %8 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_10, %collapsed : tensor<1x16x34x34xf32>, tensor<16x3x3xf32>) outs(%broadcasted_11 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<1x16x16x16xf32>) outs(%7 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x16x16x16xf32>
    %10 = tensor.empty() : tensor<1x16x1x1xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%9 : tensor<1x16x16x16xf32>) outs(%11 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x16x1x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<1x16x1x1xf32>) outs(%10 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_5 : f32
      linalg.yield %279 : f32
    } -> tensor<1x16x1x1xf32>
    %14 = tensor.empty() : tensor<1x8x1x1xf32>
    %broadcasted_12 = linalg.broadcast ins(%arg4 : tensor<8xf32>) outs(%14 : tensor<1x8x1x1xf32>) dimensions = [0, 2, 3] 
    %15 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%13, %arg3 : tensor<1x16x1x1xf32>, tensor<8x16x1x1xf32>) outs(%broadcasted_12 : tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x8x1x1xf32>) outs(%14 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x8x1x1xf32>
    %broadcasted_13 = linalg.broadcast ins(%arg6 : tensor<16xf32>) outs(%10 : tensor<1x16x1x1xf32>) dimensions = [0, 2, 3] 
    %17 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%16, %arg5 : tensor<1x8x1x1xf32>, tensor<16x8x1x1xf32>) outs(%broadcasted_13 : tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17 : tensor<1x16x1x1xf32>) outs(%10 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x16x1x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<1x16x1x1xf32>) outs(%10 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x16x1x1xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %19 : tensor<f32>, tensor<1x16x1x1xf32>) outs(%10 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x16x1x1xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %20 : tensor<f32>, tensor<1x16x1x1xf32>) outs(%10 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x16x1x1xf32>
    %22 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %9 : tensor<1x16x1x1xf32>, tensor<1x16x16x16xf32>) outs(%7 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x16x16x16xf32>
    %broadcasted_14 = linalg.broadcast ins(%arg77 : tensor<16xf32>) outs(%7 : tensor<1x16x16x16xf32>) dimensions = [0, 2, 3] 
    %23 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%22, %arg7 : tensor<1x16x16x16xf32>, tensor<16x16x1x1xf32>) outs(%broadcasted_14 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    %24 = tensor.empty() : tensor<1x72x16x16xf32>
    %broadcasted_15 = linalg.broadcast ins(%arg78 : tensor<72xf32>) outs(%24 : tensor<1x72x16x16xf32>) dimensions = [0, 2, 3] 
    %25 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%23, %arg8 : tensor<1x16x16x16xf32>, tensor<72x16x1x1xf32>) outs(%broadcasted_15 : tensor<1x72x16x16xf32>) -> tensor<1x72x16x16xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<1x72x16x16xf32>) outs(%24 : tensor<1x72x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x72x16x16xf32>
    %padded_16 = tensor.pad %26 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x72x16x16xf32> to tensor<1x72x18x18xf32>
    %27 = tensor.empty() : tensor<1x72x8x8xf32>
    %broadcasted_17 = linalg.broadcast ins(%arg79 : tensor<72xf32>) outs(%27 : tensor<1x72x8x8xf32>) dimensions = [0, 2, 3] 
    %collapsed_18 = tensor.collapse_shape %arg9 [[0, 1], [2], [3]] : tensor<72x1x3x3xf32> into tensor<72x3x3xf32>
    %28 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_16, %collapsed_18 : tensor<1x72x18x18xf32>, tensor<72x3x3xf32>) outs(%broadcasted_17 : tensor<1x72x8x8xf32>) -> tensor<1x72x8x8xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%28 : tensor<1x72x8x8xf32>) outs(%27 : tensor<1x72x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x72x8x8xf32>
    %30 = tensor.empty() : tensor<1x24x8x8xf32>
    %broadcasted_19 = linalg.broadcast ins(%arg80 : tensor<24xf32>) outs(%30 : tensor<1x24x8x8xf32>) dimensions = [0, 2, 3] 
    %31 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%29, %arg10 : tensor<1x72x8x8xf32>, tensor<24x72x1x1xf32>) outs(%broadcasted_19 : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
    %32 = tensor.empty() : tensor<1x88x8x8xf32>
    %broadcasted_20 = linalg.broadcast ins(%arg81 : tensor<88xf32>) outs(%32 : tensor<1x88x8x8xf32>) dimensions = [0, 2, 3] 
    %33 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%31, %arg11 : tensor<1x24x8x8xf32>, tensor<88x24x1x1xf32>) outs(%broadcasted_20 : tensor<1x88x8x8xf32>) -> tensor<1x88x8x8xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33 : tensor<1x88x8x8xf32>) outs(%32 : tensor<1x88x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x88x8x8xf32>
    %padded_21 = tensor.pad %34 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x88x8x8xf32> to tensor<1x88x10x10xf32>
    %broadcasted_22 = linalg.broadcast ins(%arg82 : tensor<88xf32>) outs(%32 : tensor<1x88x8x8xf32>) dimensions = [0, 2, 3] 
    %collapsed_23 = tensor.collapse_shape %arg12 [[0, 1], [2], [3]] : tensor<88x1x3x3xf32> into tensor<88x3x3xf32>
    %35 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_21, %collapsed_23 : tensor<1x88x10x10xf32>, tensor<88x3x3xf32>) outs(%broadcasted_22 : tensor<1x88x8x8xf32>) -> tensor<1x88x8x8xf32>
    %36 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%35 : tensor<1x88x8x8xf32>) outs(%32 : tensor<1x88x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x88x8x8xf32>
    %broadcasted_24 = linalg.broadcast ins(%arg83 : tensor<24xf32>) outs(%30 : tensor<1x24x8x8xf32>) dimensions = [0, 2, 3] 
    %37 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%36, %arg13 : tensor<1x88x8x8xf32>, tensor<24x88x1x1xf32>) outs(%broadcasted_24 : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
    %38 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%37, %31 : tensor<1x24x8x8xf32>, tensor<1x24x8x8xf32>) outs(%30 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.addf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x24x8x8xf32>
    %39 = tensor.empty() : tensor<1x96x8x8xf32>
    %broadcasted_25 = linalg.broadcast ins(%arg84 : tensor<96xf32>) outs(%39 : tensor<1x96x8x8xf32>) dimensions = [0, 2, 3] 
    %40 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%38, %arg14 : tensor<1x24x8x8xf32>, tensor<96x24x1x1xf32>) outs(%broadcasted_25 : tensor<1x96x8x8xf32>) -> tensor<1x96x8x8xf32>
    %41 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40 : tensor<1x96x8x8xf32>) outs(%39 : tensor<1x96x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x8x8xf32>
    %42 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41 : tensor<1x96x8x8xf32>) outs(%39 : tensor<1x96x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x96x8x8xf32>
    %43 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42, %cst_2 : tensor<1x96x8x8xf32>, tensor<f32>) outs(%39 : tensor<1x96x8x8xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x96x8x8xf32>
    %44 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43 : tensor<1x96x8x8xf32>) outs(%39 : tensor<1x96x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x8x8xf32>
    %45 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %40 : tensor<1x96x8x8xf32>, tensor<1x96x8x8xf32>) outs(%39 : tensor<1x96x8x8xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x8x8xf32>
    %padded_26 = tensor.pad %45 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x96x8x8xf32> to tensor<1x96x12x12xf32>
    %46 = tensor.empty() : tensor<1x96x4x4xf32>
    %broadcasted_27 = linalg.broadcast ins(%arg85 : tensor<96xf32>) outs(%46 : tensor<1x96x4x4xf32>) dimensions = [0, 2, 3] 
    %collapsed_28 = tensor.collapse_shape %arg15 [[0, 1], [2], [3]] : tensor<96x1x5x5xf32> into tensor<96x5x5xf32>
    %47 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_26, %collapsed_28 : tensor<1x96x12x12xf32>, tensor<96x5x5xf32>) outs(%broadcasted_27 : tensor<1x96x4x4xf32>) -> tensor<1x96x4x4xf32>
    %48 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%47 : tensor<1x96x4x4xf32>) outs(%46 : tensor<1x96x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x4x4xf32>
    %49 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48 : tensor<1x96x4x4xf32>) outs(%46 : tensor<1x96x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x96x4x4xf32>
    %50 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49, %cst_2 : tensor<1x96x4x4xf32>, tensor<f32>) outs(%46 : tensor<1x96x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x96x4x4xf32>
    %51 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50 : tensor<1x96x4x4xf32>) outs(%46 : tensor<1x96x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x4x4xf32>
    %52 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51, %47 : tensor<1x96x4x4xf32>, tensor<1x96x4x4xf32>) outs(%46 : tensor<1x96x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x4x4xf32>
    %53 = tensor.empty() : tensor<1x96x1x1xf32>
    %54 = linalg.fill ins(%cst : f32) outs(%53 : tensor<1x96x1x1xf32>) -> tensor<1x96x1x1xf32>
    %55 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%52 : tensor<1x96x4x4xf32>) outs(%54 : tensor<1x96x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x1x1xf32>
    %56 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55 : tensor<1x96x1x1xf32>) outs(%53 : tensor<1x96x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_8 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x1x1xf32>
    %57 = tensor.empty() : tensor<1x24x1x1xf32>
    %broadcasted_29 = linalg.broadcast ins(%arg17 : tensor<24xf32>) outs(%57 : tensor<1x24x1x1xf32>) dimensions = [0, 2, 3] 
    %58 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%56, %arg16 : tensor<1x96x1x1xf32>, tensor<24x96x1x1xf32>) outs(%broadcasted_29 : tensor<1x24x1x1xf32>) -> tensor<1x24x1x1xf32>
    %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%58 : tensor<1x24x1x1xf32>) outs(%57 : tensor<1x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x24x1x1xf32>
    %broadcasted_30 = linalg.broadcast ins(%arg19 : tensor<96xf32>) outs(%53 : tensor<1x96x1x1xf32>) dimensions = [0, 2, 3] 
    %60 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%59, %arg18 : tensor<1x24x1x1xf32>, tensor<96x24x1x1xf32>) outs(%broadcasted_30 : tensor<1x96x1x1xf32>) -> tensor<1x96x1x1xf32>
    %61 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%60 : tensor<1x96x1x1xf32>) outs(%53 : tensor<1x96x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x1x1xf32>
    %62 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%61 : tensor<1x96x1x1xf32>) outs(%53 : tensor<1x96x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x1x1xf32>
    %63 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %62 : tensor<f32>, tensor<1x96x1x1xf32>) outs(%53 : tensor<1x96x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x96x1x1xf32>
    %64 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %63 : tensor<f32>, tensor<1x96x1x1xf32>) outs(%53 : tensor<1x96x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x96x1x1xf32>
    %65 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%64, %52 : tensor<1x96x1x1xf32>, tensor<1x96x4x4xf32>) outs(%46 : tensor<1x96x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x4x4xf32>
    %66 = tensor.empty() : tensor<1x40x4x4xf32>
    %broadcasted_31 = linalg.broadcast ins(%arg86 : tensor<40xf32>) outs(%66 : tensor<1x40x4x4xf32>) dimensions = [0, 2, 3] 
    %67 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%65, %arg20 : tensor<1x96x4x4xf32>, tensor<40x96x1x1xf32>) outs(%broadcasted_31 : tensor<1x40x4x4xf32>) -> tensor<1x40x4x4xf32>
    %68 = tensor.empty() : tensor<1x240x4x4xf32>
    %broadcasted_32 = linalg.broadcast ins(%arg87 : tensor<240xf32>) outs(%68 : tensor<1x240x4x4xf32>) dimensions = [0, 2, 3] 
    %69 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%67, %arg21 : tensor<1x40x4x4xf32>, tensor<240x40x1x1xf32>) outs(%broadcasted_32 : tensor<1x240x4x4xf32>) -> tensor<1x240x4x4xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%69 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %71 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%70 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x4x4xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%71, %cst_2 : tensor<1x240x4x4xf32>, tensor<f32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x4x4xf32>
    %73 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%72 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %74 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73, %69 : tensor<1x240x4x4xf32>, tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %padded_33 = tensor.pad %74 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x240x4x4xf32> to tensor<1x240x8x8xf32>
    %broadcasted_34 = linalg.broadcast ins(%arg88 : tensor<240xf32>) outs(%68 : tensor<1x240x4x4xf32>) dimensions = [0, 2, 3] 
    %collapsed_35 = tensor.collapse_shape %arg22 [[0, 1], [2], [3]] : tensor<240x1x5x5xf32> into tensor<240x5x5xf32>
    %75 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_33, %collapsed_35 : tensor<1x240x8x8xf32>, tensor<240x5x5xf32>) outs(%broadcasted_34 : tensor<1x240x4x4xf32>) -> tensor<1x240x4x4xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%75 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %77 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x4x4xf32>
    %78 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%77, %cst_2 : tensor<1x240x4x4xf32>, tensor<f32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x4x4xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%78 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %80 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%79, %75 : tensor<1x240x4x4xf32>, tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %81 = tensor.empty() : tensor<1x240x1x1xf32>
    %82 = linalg.fill ins(%cst : f32) outs(%81 : tensor<1x240x1x1xf32>) -> tensor<1x240x1x1xf32>
    %83 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%80 : tensor<1x240x4x4xf32>) outs(%82 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x1x1xf32>
    %84 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83 : tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_8 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x1x1xf32>
    %85 = tensor.empty() : tensor<1x64x1x1xf32>
    %broadcasted_36 = linalg.broadcast ins(%arg24 : tensor<64xf32>) outs(%85 : tensor<1x64x1x1xf32>) dimensions = [0, 2, 3] 
    %86 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%84, %arg23 : tensor<1x240x1x1xf32>, tensor<64x240x1x1xf32>) outs(%broadcasted_36 : tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
    %87 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%86 : tensor<1x64x1x1xf32>) outs(%85 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x64x1x1xf32>
    %broadcasted_37 = linalg.broadcast ins(%arg26 : tensor<240xf32>) outs(%81 : tensor<1x240x1x1xf32>) dimensions = [0, 2, 3] 
    %88 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%87, %arg25 : tensor<1x64x1x1xf32>, tensor<240x64x1x1xf32>) outs(%broadcasted_37 : tensor<1x240x1x1xf32>) -> tensor<1x240x1x1xf32>
    %89 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%88 : tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x1x1xf32>
    %90 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%89 : tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x1x1xf32>
    %91 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %90 : tensor<f32>, tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x1x1xf32>
    %92 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %91 : tensor<f32>, tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x1x1xf32>
    %93 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%92, %80 : tensor<1x240x1x1xf32>, tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %broadcasted_38 = linalg.broadcast ins(%arg89 : tensor<40xf32>) outs(%66 : tensor<1x40x4x4xf32>) dimensions = [0, 2, 3] 
    %94 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%93, %arg27 : tensor<1x240x4x4xf32>, tensor<40x240x1x1xf32>) outs(%broadcasted_38 : tensor<1x40x4x4xf32>) -> tensor<1x40x4x4xf32>
    %95 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%94, %67 : tensor<1x40x4x4xf32>, tensor<1x40x4x4xf32>) outs(%66 : tensor<1x40x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.addf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x40x4x4xf32>
    %broadcasted_39 = linalg.broadcast ins(%arg90 : tensor<240xf32>) outs(%68 : tensor<1x240x4x4xf32>) dimensions = [0, 2, 3] 
    %96 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%95, %arg28 : tensor<1x40x4x4xf32>, tensor<240x40x1x1xf32>) outs(%broadcasted_39 : tensor<1x240x4x4xf32>) -> tensor<1x240x4x4xf32>
    %97 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%96 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %98 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%97 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x4x4xf32>
    %99 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%98, %cst_2 : tensor<1x240x4x4xf32>, tensor<f32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x4x4xf32>
    %100 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%99 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %101 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%100, %96 : tensor<1x240x4x4xf32>, tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %padded_40 = tensor.pad %101 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x240x4x4xf32> to tensor<1x240x8x8xf32>
    %broadcasted_41 = linalg.broadcast ins(%arg91 : tensor<240xf32>) outs(%68 : tensor<1x240x4x4xf32>) dimensions = [0, 2, 3] 
    %collapsed_42 = tensor.collapse_shape %arg29 [[0, 1], [2], [3]] : tensor<240x1x5x5xf32> into tensor<240x5x5xf32>
    %102 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_40, %collapsed_42 : tensor<1x240x8x8xf32>, tensor<240x5x5xf32>) outs(%broadcasted_41 : tensor<1x240x4x4xf32>) -> tensor<1x240x4x4xf32>
    %103 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%102 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %104 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%103 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x4x4xf32>
    %105 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%104, %cst_2 : tensor<1x240x4x4xf32>, tensor<f32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x4x4xf32>
    %106 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%105 : tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %107 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%106, %102 : tensor<1x240x4x4xf32>, tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %108 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%107 : tensor<1x240x4x4xf32>) outs(%82 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x1x1xf32>
    %109 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%108 : tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_8 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x1x1xf32>
    %broadcasted_43 = linalg.broadcast ins(%arg31 : tensor<64xf32>) outs(%85 : tensor<1x64x1x1xf32>) dimensions = [0, 2, 3] 
    %110 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%109, %arg30 : tensor<1x240x1x1xf32>, tensor<64x240x1x1xf32>) outs(%broadcasted_43 : tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
    %111 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%110 : tensor<1x64x1x1xf32>) outs(%85 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x64x1x1xf32>
    %broadcasted_44 = linalg.broadcast ins(%arg33 : tensor<240xf32>) outs(%81 : tensor<1x240x1x1xf32>) dimensions = [0, 2, 3] 
    %112 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%111, %arg32 : tensor<1x64x1x1xf32>, tensor<240x64x1x1xf32>) outs(%broadcasted_44 : tensor<1x240x1x1xf32>) -> tensor<1x240x1x1xf32>
    %113 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%112 : tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x1x1xf32>
    %114 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%113 : tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x1x1xf32>
    %115 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %114 : tensor<f32>, tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x1x1xf32>
    %116 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %115 : tensor<f32>, tensor<1x240x1x1xf32>) outs(%81 : tensor<1x240x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x240x1x1xf32>
    %117 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%116, %107 : tensor<1x240x1x1xf32>, tensor<1x240x4x4xf32>) outs(%68 : tensor<1x240x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x240x4x4xf32>
    %broadcasted_45 = linalg.broadcast ins(%arg92 : tensor<40xf32>) outs(%66 : tensor<1x40x4x4xf32>) dimensions = [0, 2, 3] 
    %118 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%117, %arg34 : tensor<1x240x4x4xf32>, tensor<40x240x1x1xf32>) outs(%broadcasted_45 : tensor<1x40x4x4xf32>) -> tensor<1x40x4x4xf32>
    %119 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%118, %95 : tensor<1x40x4x4xf32>, tensor<1x40x4x4xf32>) outs(%66 : tensor<1x40x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.addf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x40x4x4xf32>
    %120 = tensor.empty() : tensor<1x120x4x4xf32>
    %broadcasted_46 = linalg.broadcast ins(%arg93 : tensor<120xf32>) outs(%120 : tensor<1x120x4x4xf32>) dimensions = [0, 2, 3] 
    %121 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%119, %arg35 : tensor<1x40x4x4xf32>, tensor<120x40x1x1xf32>) outs(%broadcasted_46 : tensor<1x120x4x4xf32>) -> tensor<1x120x4x4xf32>
    %122 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%121 : tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x4x4xf32>
    %123 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%122 : tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x120x4x4xf32>
    %124 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%123, %cst_2 : tensor<1x120x4x4xf32>, tensor<f32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x120x4x4xf32>
    %125 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%124 : tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x4x4xf32>
    %126 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%125, %121 : tensor<1x120x4x4xf32>, tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x4x4xf32>
    %padded_47 = tensor.pad %126 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x120x4x4xf32> to tensor<1x120x8x8xf32>
    %broadcasted_48 = linalg.broadcast ins(%arg94 : tensor<120xf32>) outs(%120 : tensor<1x120x4x4xf32>) dimensions = [0, 2, 3] 
    %collapsed_49 = tensor.collapse_shape %arg36 [[0, 1], [2], [3]] : tensor<120x1x5x5xf32> into tensor<120x5x5xf32>
    %127 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_47, %collapsed_49 : tensor<1x120x8x8xf32>, tensor<120x5x5xf32>) outs(%broadcasted_48 : tensor<1x120x4x4xf32>) -> tensor<1x120x4x4xf32>
    %128 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%127 : tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x4x4xf32>
    %129 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%128 : tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x120x4x4xf32>
    %130 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%129, %cst_2 : tensor<1x120x4x4xf32>, tensor<f32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x120x4x4xf32>
    %131 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%130 : tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x4x4xf32>
    %132 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%131, %127 : tensor<1x120x4x4xf32>, tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x4x4xf32>
    %133 = tensor.empty() : tensor<1x120x1x1xf32>
    %134 = linalg.fill ins(%cst : f32) outs(%133 : tensor<1x120x1x1xf32>) -> tensor<1x120x1x1xf32>
    %135 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%132 : tensor<1x120x4x4xf32>) outs(%134 : tensor<1x120x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x1x1xf32>
    %136 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%135 : tensor<1x120x1x1xf32>) outs(%133 : tensor<1x120x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_8 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x1x1xf32>
    %137 = tensor.empty() : tensor<1x32x1x1xf32>
    %broadcasted_50 = linalg.broadcast ins(%arg38 : tensor<32xf32>) outs(%137 : tensor<1x32x1x1xf32>) dimensions = [0, 2, 3] 
    %138 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%136, %arg37 : tensor<1x120x1x1xf32>, tensor<32x120x1x1xf32>) outs(%broadcasted_50 : tensor<1x32x1x1xf32>) -> tensor<1x32x1x1xf32>
    %139 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%138 : tensor<1x32x1x1xf32>) outs(%137 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x32x1x1xf32>
    %broadcasted_51 = linalg.broadcast ins(%arg40 : tensor<120xf32>) outs(%133 : tensor<1x120x1x1xf32>) dimensions = [0, 2, 3] 
    %140 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%139, %arg39 : tensor<1x32x1x1xf32>, tensor<120x32x1x1xf32>) outs(%broadcasted_51 : tensor<1x120x1x1xf32>) -> tensor<1x120x1x1xf32>
    %141 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%140 : tensor<1x120x1x1xf32>) outs(%133 : tensor<1x120x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x1x1xf32>
    %142 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%141 : tensor<1x120x1x1xf32>) outs(%133 : tensor<1x120x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x1x1xf32>
    %143 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %142 : tensor<f32>, tensor<1x120x1x1xf32>) outs(%133 : tensor<1x120x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x120x1x1xf32>
    %144 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %143 : tensor<f32>, tensor<1x120x1x1xf32>) outs(%133 : tensor<1x120x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x120x1x1xf32>
    %145 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%144, %132 : tensor<1x120x1x1xf32>, tensor<1x120x4x4xf32>) outs(%120 : tensor<1x120x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x120x4x4xf32>
    %146 = tensor.empty() : tensor<1x48x4x4xf32>
    %broadcasted_52 = linalg.broadcast ins(%arg95 : tensor<48xf32>) outs(%146 : tensor<1x48x4x4xf32>) dimensions = [0, 2, 3] 
    %147 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%145, %arg41 : tensor<1x120x4x4xf32>, tensor<48x120x1x1xf32>) outs(%broadcasted_52 : tensor<1x48x4x4xf32>) -> tensor<1x48x4x4xf32>
    %148 = tensor.empty() : tensor<1x144x4x4xf32>
    %broadcasted_53 = linalg.broadcast ins(%arg96 : tensor<144xf32>) outs(%148 : tensor<1x144x4x4xf32>) dimensions = [0, 2, 3] 
    %149 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%147, %arg42 : tensor<1x48x4x4xf32>, tensor<144x48x1x1xf32>) outs(%broadcasted_53 : tensor<1x144x4x4xf32>) -> tensor<1x144x4x4xf32>
    %150 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%149 : tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x4x4xf32>
    %151 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%150 : tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x144x4x4xf32>
    %152 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%151, %cst_2 : tensor<1x144x4x4xf32>, tensor<f32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x144x4x4xf32>
    %153 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%152 : tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x4x4xf32>
    %154 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%153, %149 : tensor<1x144x4x4xf32>, tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x4x4xf32>
    %padded_54 = tensor.pad %154 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x144x4x4xf32> to tensor<1x144x8x8xf32>
    %broadcasted_55 = linalg.broadcast ins(%arg97 : tensor<144xf32>) outs(%148 : tensor<1x144x4x4xf32>) dimensions = [0, 2, 3] 
    %collapsed_56 = tensor.collapse_shape %arg43 [[0, 1], [2], [3]] : tensor<144x1x5x5xf32> into tensor<144x5x5xf32>
    %155 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_54, %collapsed_56 : tensor<1x144x8x8xf32>, tensor<144x5x5xf32>) outs(%broadcasted_55 : tensor<1x144x4x4xf32>) -> tensor<1x144x4x4xf32>
    %156 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%155 : tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x4x4xf32>
    %157 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%156 : tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x144x4x4xf32>
    %158 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%157, %cst_2 : tensor<1x144x4x4xf32>, tensor<f32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x144x4x4xf32>
    %159 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%158 : tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x4x4xf32>
    %160 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%159, %155 : tensor<1x144x4x4xf32>, tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x4x4xf32>
    %161 = tensor.empty() : tensor<1x144x1x1xf32>
    %162 = linalg.fill ins(%cst : f32) outs(%161 : tensor<1x144x1x1xf32>) -> tensor<1x144x1x1xf32>
    %163 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%160 : tensor<1x144x4x4xf32>) outs(%162 : tensor<1x144x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x1x1xf32>
    %164 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%163 : tensor<1x144x1x1xf32>) outs(%161 : tensor<1x144x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_8 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x1x1xf32>
    %165 = tensor.empty() : tensor<1x40x1x1xf32>
    %broadcasted_57 = linalg.broadcast ins(%arg45 : tensor<40xf32>) outs(%165 : tensor<1x40x1x1xf32>) dimensions = [0, 2, 3] 
    %166 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%164, %arg44 : tensor<1x144x1x1xf32>, tensor<40x144x1x1xf32>) outs(%broadcasted_57 : tensor<1x40x1x1xf32>) -> tensor<1x40x1x1xf32>
    %167 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%166 : tensor<1x40x1x1xf32>) outs(%165 : tensor<1x40x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x40x1x1xf32>
    %broadcasted_58 = linalg.broadcast ins(%arg47 : tensor<144xf32>) outs(%161 : tensor<1x144x1x1xf32>) dimensions = [0, 2, 3] 
    %168 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%167, %arg46 : tensor<1x40x1x1xf32>, tensor<144x40x1x1xf32>) outs(%broadcasted_58 : tensor<1x144x1x1xf32>) -> tensor<1x144x1x1xf32>
    %169 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%168 : tensor<1x144x1x1xf32>) outs(%161 : tensor<1x144x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x1x1xf32>
    %170 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%169 : tensor<1x144x1x1xf32>) outs(%161 : tensor<1x144x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x1x1xf32>
    %171 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %170 : tensor<f32>, tensor<1x144x1x1xf32>) outs(%161 : tensor<1x144x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x144x1x1xf32>
    %172 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %171 : tensor<f32>, tensor<1x144x1x1xf32>) outs(%161 : tensor<1x144x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x144x1x1xf32>
    %173 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%172, %160 : tensor<1x144x1x1xf32>, tensor<1x144x4x4xf32>) outs(%148 : tensor<1x144x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x144x4x4xf32>
    %broadcasted_59 = linalg.broadcast ins(%arg98 : tensor<48xf32>) outs(%146 : tensor<1x48x4x4xf32>) dimensions = [0, 2, 3] 
    %174 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%173, %arg48 : tensor<1x144x4x4xf32>, tensor<48x144x1x1xf32>) outs(%broadcasted_59 : tensor<1x48x4x4xf32>) -> tensor<1x48x4x4xf32>
    %175 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%174, %147 : tensor<1x48x4x4xf32>, tensor<1x48x4x4xf32>) outs(%146 : tensor<1x48x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.addf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x48x4x4xf32>
    %176 = tensor.empty() : tensor<1x288x4x4xf32>
    %broadcasted_60 = linalg.broadcast ins(%arg99 : tensor<288xf32>) outs(%176 : tensor<1x288x4x4xf32>) dimensions = [0, 2, 3] 
    %177 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%175, %arg49 : tensor<1x48x4x4xf32>, tensor<288x48x1x1xf32>) outs(%broadcasted_60 : tensor<1x288x4x4xf32>) -> tensor<1x288x4x4xf32>
    %178 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%177 : tensor<1x288x4x4xf32>) outs(%176 : tensor<1x288x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x4x4xf32>
    %179 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%178 : tensor<1x288x4x4xf32>) outs(%176 : tensor<1x288x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x288x4x4xf32>
    %180 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%179, %cst_2 : tensor<1x288x4x4xf32>, tensor<f32>) outs(%176 : tensor<1x288x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x288x4x4xf32>
    %181 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%180 : tensor<1x288x4x4xf32>) outs(%176 : tensor<1x288x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x4x4xf32>
    %182 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%181, %177 : tensor<1x288x4x4xf32>, tensor<1x288x4x4xf32>) outs(%176 : tensor<1x288x4x4xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x4x4xf32>
    %padded_61 = tensor.pad %182 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x288x4x4xf32> to tensor<1x288x8x8xf32>
    %183 = tensor.empty() : tensor<1x288x2x2xf32>
    %broadcasted_62 = linalg.broadcast ins(%arg100 : tensor<288xf32>) outs(%183 : tensor<1x288x2x2xf32>) dimensions = [0, 2, 3] 
    %collapsed_63 = tensor.collapse_shape %arg50 [[0, 1], [2], [3]] : tensor<288x1x5x5xf32> into tensor<288x5x5xf32>
    %184 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_61, %collapsed_63 : tensor<1x288x8x8xf32>, tensor<288x5x5xf32>) outs(%broadcasted_62 : tensor<1x288x2x2xf32>) -> tensor<1x288x2x2xf32>
    %185 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%184 : tensor<1x288x2x2xf32>) outs(%183 : tensor<1x288x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x2x2xf32>
    %186 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%185 : tensor<1x288x2x2xf32>) outs(%183 : tensor<1x288x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x288x2x2xf32>
    %187 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%186, %cst_2 : tensor<1x288x2x2xf32>, tensor<f32>) outs(%183 : tensor<1x288x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x288x2x2xf32>
    %188 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%187 : tensor<1x288x2x2xf32>) outs(%183 : tensor<1x288x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x2x2xf32>
    %189 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%188, %184 : tensor<1x288x2x2xf32>, tensor<1x288x2x2xf32>) outs(%183 : tensor<1x288x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x2x2xf32>
    %190 = tensor.empty() : tensor<1x288x1x1xf32>
    %191 = linalg.fill ins(%cst : f32) outs(%190 : tensor<1x288x1x1xf32>) -> tensor<1x288x1x1xf32>
    %192 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%189 : tensor<1x288x2x2xf32>) outs(%191 : tensor<1x288x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x1x1xf32>
    %193 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%192 : tensor<1x288x1x1xf32>) outs(%190 : tensor<1x288x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_9 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x1x1xf32>
    %194 = tensor.empty() : tensor<1x72x1x1xf32>
    %broadcasted_64 = linalg.broadcast ins(%arg52 : tensor<72xf32>) outs(%194 : tensor<1x72x1x1xf32>) dimensions = [0, 2, 3] 
    %195 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%193, %arg51 : tensor<1x288x1x1xf32>, tensor<72x288x1x1xf32>) outs(%broadcasted_64 : tensor<1x72x1x1xf32>) -> tensor<1x72x1x1xf32>
    %196 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%195 : tensor<1x72x1x1xf32>) outs(%194 : tensor<1x72x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x72x1x1xf32>
    %broadcasted_65 = linalg.broadcast ins(%arg54 : tensor<288xf32>) outs(%190 : tensor<1x288x1x1xf32>) dimensions = [0, 2, 3] 
    %197 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%196, %arg53 : tensor<1x72x1x1xf32>, tensor<288x72x1x1xf32>) outs(%broadcasted_65 : tensor<1x288x1x1xf32>) -> tensor<1x288x1x1xf32>
    %198 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%197 : tensor<1x288x1x1xf32>) outs(%190 : tensor<1x288x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x1x1xf32>
    %199 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%198 : tensor<1x288x1x1xf32>) outs(%190 : tensor<1x288x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x1x1xf32>
    %200 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %199 : tensor<f32>, tensor<1x288x1x1xf32>) outs(%190 : tensor<1x288x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x288x1x1xf32>
    %201 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %200 : tensor<f32>, tensor<1x288x1x1xf32>) outs(%190 : tensor<1x288x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x288x1x1xf32>
    %202 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%201, %189 : tensor<1x288x1x1xf32>, tensor<1x288x2x2xf32>) outs(%183 : tensor<1x288x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x288x2x2xf32>
    %203 = tensor.empty() : tensor<1x96x2x2xf32>
    %broadcasted_66 = linalg.broadcast ins(%arg101 : tensor<96xf32>) outs(%203 : tensor<1x96x2x2xf32>) dimensions = [0, 2, 3] 
    %204 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%202, %arg55 : tensor<1x288x2x2xf32>, tensor<96x288x1x1xf32>) outs(%broadcasted_66 : tensor<1x96x2x2xf32>) -> tensor<1x96x2x2xf32>
    %205 = tensor.empty() : tensor<1x576x2x2xf32>
    %broadcasted_67 = linalg.broadcast ins(%arg102 : tensor<576xf32>) outs(%205 : tensor<1x576x2x2xf32>) dimensions = [0, 2, 3] 
    %206 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%204, %arg56 : tensor<1x96x2x2xf32>, tensor<576x96x1x1xf32>) outs(%broadcasted_67 : tensor<1x576x2x2xf32>) -> tensor<1x576x2x2xf32>
    %207 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%206 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %208 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%207 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %209 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%208, %cst_2 : tensor<1x576x2x2xf32>, tensor<f32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %210 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%209 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %211 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%210, %206 : tensor<1x576x2x2xf32>, tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %padded_68 = tensor.pad %211 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x576x2x2xf32> to tensor<1x576x6x6xf32>
    %broadcasted_69 = linalg.broadcast ins(%arg103 : tensor<576xf32>) outs(%205 : tensor<1x576x2x2xf32>) dimensions = [0, 2, 3] 
    %collapsed_70 = tensor.collapse_shape %arg57 [[0, 1], [2], [3]] : tensor<576x1x5x5xf32> into tensor<576x5x5xf32>
    %212 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_68, %collapsed_70 : tensor<1x576x6x6xf32>, tensor<576x5x5xf32>) outs(%broadcasted_69 : tensor<1x576x2x2xf32>) -> tensor<1x576x2x2xf32>
    %213 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%212 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %214 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%213 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %215 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%214, %cst_2 : tensor<1x576x2x2xf32>, tensor<f32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %216 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%215 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %217 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%216, %212 : tensor<1x576x2x2xf32>, tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %218 = tensor.empty() : tensor<1x576x1x1xf32>
    %219 = linalg.fill ins(%cst : f32) outs(%218 : tensor<1x576x1x1xf32>) -> tensor<1x576x1x1xf32>
    %220 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%217 : tensor<1x576x2x2xf32>) outs(%219 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %221 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%220 : tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_9 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %broadcasted_71 = linalg.broadcast ins(%arg59 : tensor<144xf32>) outs(%161 : tensor<1x144x1x1xf32>) dimensions = [0, 2, 3] 
    %222 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%221, %arg58 : tensor<1x576x1x1xf32>, tensor<144x576x1x1xf32>) outs(%broadcasted_71 : tensor<1x144x1x1xf32>) -> tensor<1x144x1x1xf32>
    %223 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%222 : tensor<1x144x1x1xf32>) outs(%161 : tensor<1x144x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x144x1x1xf32>
    %broadcasted_72 = linalg.broadcast ins(%arg61 : tensor<576xf32>) outs(%218 : tensor<1x576x1x1xf32>) dimensions = [0, 2, 3] 
    %224 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%223, %arg60 : tensor<1x144x1x1xf32>, tensor<576x144x1x1xf32>) outs(%broadcasted_72 : tensor<1x576x1x1xf32>) -> tensor<1x576x1x1xf32>
    %225 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%224 : tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %226 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%225 : tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %227 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %226 : tensor<f32>, tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x1x1xf32>
    %228 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %227 : tensor<f32>, tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x1x1xf32>
    %229 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%228, %217 : tensor<1x576x1x1xf32>, tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %broadcasted_73 = linalg.broadcast ins(%arg104 : tensor<96xf32>) outs(%203 : tensor<1x96x2x2xf32>) dimensions = [0, 2, 3] 
    %230 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%229, %arg62 : tensor<1x576x2x2xf32>, tensor<96x576x1x1xf32>) outs(%broadcasted_73 : tensor<1x96x2x2xf32>) -> tensor<1x96x2x2xf32>
    %231 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%230, %204 : tensor<1x96x2x2xf32>, tensor<1x96x2x2xf32>) outs(%203 : tensor<1x96x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.addf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x2x2xf32>
    %broadcasted_74 = linalg.broadcast ins(%arg105 : tensor<576xf32>) outs(%205 : tensor<1x576x2x2xf32>) dimensions = [0, 2, 3] 
    %232 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%231, %arg63 : tensor<1x96x2x2xf32>, tensor<576x96x1x1xf32>) outs(%broadcasted_74 : tensor<1x576x2x2xf32>) -> tensor<1x576x2x2xf32>
    %233 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%232 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %234 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%233 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %235 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%234, %cst_2 : tensor<1x576x2x2xf32>, tensor<f32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %236 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%235 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %237 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%236, %232 : tensor<1x576x2x2xf32>, tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %padded_75 = tensor.pad %237 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg109: index, %arg110: index, %arg111: index, %arg112: index):
      tensor.yield %cst : f32
    } : tensor<1x576x2x2xf32> to tensor<1x576x6x6xf32>
    %broadcasted_76 = linalg.broadcast ins(%arg106 : tensor<576xf32>) outs(%205 : tensor<1x576x2x2xf32>) dimensions = [0, 2, 3] 
    %collapsed_77 = tensor.collapse_shape %arg64 [[0, 1], [2], [3]] : tensor<576x1x5x5xf32> into tensor<576x5x5xf32>
    %238 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_75, %collapsed_77 : tensor<1x576x6x6xf32>, tensor<576x5x5xf32>) outs(%broadcasted_76 : tensor<1x576x2x2xf32>) -> tensor<1x576x2x2xf32>
    %239 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%238 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %240 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%239 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %241 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%240, %cst_2 : tensor<1x576x2x2xf32>, tensor<f32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %242 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%241 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %243 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%242, %238 : tensor<1x576x2x2xf32>, tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %244 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%243 : tensor<1x576x2x2xf32>) outs(%219 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %245 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%244 : tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_9 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %broadcasted_78 = linalg.broadcast ins(%arg66 : tensor<144xf32>) outs(%161 : tensor<1x144x1x1xf32>) dimensions = [0, 2, 3] 
    %246 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%245, %arg65 : tensor<1x576x1x1xf32>, tensor<144x576x1x1xf32>) outs(%broadcasted_78 : tensor<1x144x1x1xf32>) -> tensor<1x144x1x1xf32>
    %247 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%246 : tensor<1x144x1x1xf32>) outs(%161 : tensor<1x144x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x144x1x1xf32>
    %broadcasted_79 = linalg.broadcast ins(%arg68 : tensor<576xf32>) outs(%218 : tensor<1x576x1x1xf32>) dimensions = [0, 2, 3] 
    %248 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%247, %arg67 : tensor<1x144x1x1xf32>, tensor<576x144x1x1xf32>) outs(%broadcasted_79 : tensor<1x576x1x1xf32>) -> tensor<1x576x1x1xf32>
    %249 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%248 : tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.mulf %in, %cst_6 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %250 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%249 : tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_7 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %251 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %250 : tensor<f32>, tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x1x1xf32>
    %252 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %251 : tensor<f32>, tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf ogt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x1x1xf32>
    %253 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%252, %243 : tensor<1x576x1x1xf32>, tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %broadcasted_80 = linalg.broadcast ins(%arg107 : tensor<96xf32>) outs(%203 : tensor<1x96x2x2xf32>) dimensions = [0, 2, 3] 
    %254 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%253, %arg69 : tensor<1x576x2x2xf32>, tensor<96x576x1x1xf32>) outs(%broadcasted_80 : tensor<1x96x2x2xf32>) -> tensor<1x96x2x2xf32>
    %255 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%254, %231 : tensor<1x96x2x2xf32>, tensor<1x96x2x2xf32>) outs(%203 : tensor<1x96x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.addf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x96x2x2xf32>
    %broadcasted_81 = linalg.broadcast ins(%arg108 : tensor<576xf32>) outs(%205 : tensor<1x576x2x2xf32>) dimensions = [0, 2, 3] 
    %256 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%255, %arg70 : tensor<1x96x2x2xf32>, tensor<576x96x1x1xf32>) outs(%broadcasted_81 : tensor<1x576x2x2xf32>) -> tensor<1x576x2x2xf32>
    %257 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%256 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %258 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%257 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %259 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%258, %cst_2 : tensor<1x576x2x2xf32>, tensor<f32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x576x2x2xf32>
    %260 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%259 : tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %261 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%260, %256 : tensor<1x576x2x2xf32>, tensor<1x576x2x2xf32>) outs(%205 : tensor<1x576x2x2xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x2x2xf32>
    %262 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%261 : tensor<1x576x2x2xf32>) outs(%219 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %out : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %263 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%262 : tensor<1x576x1x1xf32>) outs(%218 : tensor<1x576x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_9 : f32
      linalg.yield %279 : f32
    } -> tensor<1x576x1x1xf32>
    %collapsed_82 = tensor.collapse_shape %263 [[0], [1, 2, 3]] : tensor<1x576x1x1xf32> into tensor<1x576xf32>
    %264 = tensor.empty() : tensor<576x1024xf32>
    %transposed = linalg.transpose ins(%arg71 : tensor<1024x576xf32>) outs(%264 : tensor<576x1024xf32>) permutation = [1, 0] 
    %265 = tensor.empty() : tensor<1x1024xf32>
    %266 = linalg.fill ins(%cst : f32) outs(%265 : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %267 = linalg.matmul ins(%collapsed_82, %transposed : tensor<1x576xf32>, tensor<576x1024xf32>) outs(%266 : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %268 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%267, %arg72 : tensor<1x1024xf32>, tensor<1024xf32>) outs(%265 : tensor<1x1024xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.addf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x1024xf32>
    %269 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%268 : tensor<1x1024xf32>) outs(%265 : tensor<1x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.addf %in, %cst_3 : f32
      linalg.yield %279 : f32
    } -> tensor<1x1024xf32>
    %270 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%269 : tensor<1x1024xf32>) outs(%265 : tensor<1x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.cmpf ugt, %in, %cst : f32
      %280 = arith.select %279, %in, %cst : f32
      linalg.yield %280 : f32
    } -> tensor<1x1024xf32>
    %271 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel"]} ins(%270, %cst_2 : tensor<1x1024xf32>, tensor<f32>) outs(%265 : tensor<1x1024xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.cmpf olt, %in, %in_84 : f32
      %280 = arith.select %279, %in, %in_84 : f32
      linalg.yield %280 : f32
    } -> tensor<1x1024xf32>
    %272 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%271 : tensor<1x1024xf32>) outs(%265 : tensor<1x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %279 = arith.divf %in, %cst_4 : f32
      linalg.yield %279 : f32
    } -> tensor<1x1024xf32>
    %273 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%272, %268 : tensor<1x1024xf32>, tensor<1x1024xf32>) outs(%265 : tensor<1x1024xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.mulf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x1024xf32>
    %274 = tensor.empty() : tensor<1024x10xf32>
    %transposed_83 = linalg.transpose ins(%arg73 : tensor<10x1024xf32>) outs(%274 : tensor<1024x10xf32>) permutation = [1, 0] 
    %275 = tensor.empty() : tensor<1x10xf32>
    %276 = linalg.fill ins(%cst : f32) outs(%275 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %277 = linalg.matmul ins(%273, %transposed_83 : tensor<1x1024xf32>, tensor<1024x10xf32>) outs(%276 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %278 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%277, %arg74 : tensor<1x10xf32>, tensor<10xf32>) outs(%275 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_84: f32, %out: f32):
      %279 = arith.addf %in, %in_84 : f32
      linalg.yield %279 : f32
    } -> tensor<1x10xf32>
    return %278 : tensor<1x10xf32>
  }
}

