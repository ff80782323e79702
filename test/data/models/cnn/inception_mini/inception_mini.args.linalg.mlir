#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main_graph(%arg0: tensor<1x3x32x32xf32>, %arg1: tensor<32x3x3x3xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<16x32x1x1xf32>, %arg5: tensor<16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16x32x1x1xf32>, %arg8: tensor<16xf32>, %arg9: tensor<16xf32>, %arg10: tensor<24x16x3x3xf32>, %arg11: tensor<24xf32>, %arg12: tensor<24xf32>, %arg13: tensor<8x32x1x1xf32>, %arg14: tensor<8xf32>, %arg15: tensor<8xf32>, %arg16: tensor<8x8x5x5xf32>, %arg17: tensor<8xf32>, %arg18: tensor<8xf32>, %arg19: tensor<8x32x1x1xf32>, %arg20: tensor<8xf32>, %arg21: tensor<8xf32>, %arg22: tensor<24x56x1x1xf32>, %arg23: tensor<24xf32>, %arg24: tensor<24xf32>, %arg25: tensor<24x56x1x1xf32>, %arg26: tensor<24xf32>, %arg27: tensor<24xf32>, %arg28: tensor<32x24x3x3xf32>, %arg29: tensor<32xf32>, %arg30: tensor<32xf32>, %arg31: tensor<8x56x1x1xf32>, %arg32: tensor<8xf32>, %arg33: tensor<8xf32>, %arg34: tensor<16x8x5x5xf32>, %arg35: tensor<16xf32>, %arg36: tensor<16xf32>, %arg37: tensor<16x56x1x1xf32>, %arg38: tensor<16xf32>, %arg39: tensor<16xf32>, %arg40: tensor<10x88xf32>, %arg41: tensor<10xf32>, %arg42: tensor<32xf32>, %arg43: tensor<32xf32>, %arg44: tensor<16xf32>, %arg45: tensor<16xf32>, %arg46: tensor<16xf32>, %arg47: tensor<16xf32>, %arg48: tensor<24xf32>, %arg49: tensor<24xf32>, %arg50: tensor<8xf32>, %arg51: tensor<8xf32>, %arg52: tensor<8xf32>, %arg53: tensor<8xf32>, %arg54: tensor<8xf32>, %arg55: tensor<8xf32>, %arg56: tensor<24xf32>, %arg57: tensor<24xf32>, %arg58: tensor<24xf32>, %arg59: tensor<24xf32>, %arg60: tensor<32xf32>, %arg61: tensor<32xf32>, %arg62: tensor<8xf32>, %arg63: tensor<8xf32>, %arg64: tensor<16xf32>, %arg65: tensor<16xf32>, %arg66: tensor<16xf32>, %arg67: tensor<16xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.000000e-03 : f32
    %cst_2 = arith.constant 6.400000e+01 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg68: index, %arg69: index, %arg70: index, %arg71: index):
      tensor.yield %cst : f32
    } : tensor<1x3x32x32xf32> to tensor<1x3x34x34xf32>
    %0 = tensor.empty() : tensor<1x32x16x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %arg1 : tensor<1x3x34x34xf32>, tensor<32x3x3x3xf32>) outs(%1 : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
    %expanded = tensor.expand_shape %arg42 [[0, 1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<32xf32> into tensor<1x32x1x1xf32>
    %expanded_3 = tensor.expand_shape %arg43 [[0, 1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<32xf32> into tensor<1x32x1x1xf32>
    %3 = tensor.empty() : tensor<1x32x1x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_3 : tensor<1x32x1x1xf32>) outs(%3 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x1x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x32x1x1xf32>) outs(%3 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x1x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %expanded : tensor<1x32x16x16xf32>, tensor<1x32x1x1xf32>) outs(%0 : tensor<1x32x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x16x16xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %5 : tensor<1x32x16x16xf32>, tensor<1x32x1x1xf32>) outs(%0 : tensor<1x32x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x16x16xf32>
    %expanded_4 = tensor.expand_shape %arg2 [[0, 1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<32xf32> into tensor<1x32x1x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_4 : tensor<1x32x16x16xf32>, tensor<1x32x1x1xf32>) outs(%0 : tensor<1x32x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x16x16xf32>
    %expanded_5 = tensor.expand_shape %arg3 [[0, 1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<32xf32> into tensor<1x32x1x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_5 : tensor<1x32x16x16xf32>, tensor<1x32x1x1xf32>) outs(%0 : tensor<1x32x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x16x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9 : tensor<1x32x16x16xf32>) outs(%0 : tensor<1x32x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x32x16x16xf32>
    %11 = tensor.empty() : tensor<1x16x16x16xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    %13 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%10, %arg4 : tensor<1x32x16x16xf32>, tensor<16x32x1x1xf32>) outs(%12 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    %expanded_6 = tensor.expand_shape %arg44 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %expanded_7 = tensor.expand_shape %arg45 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %14 = tensor.empty() : tensor<1x16x1x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<1x16x1x1xf32>) outs(%14 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x1x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x16x1x1xf32>) outs(%14 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x1x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_6 : tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x16x16xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %16 : tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x16x16xf32>
    %expanded_8 = tensor.expand_shape %arg5 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_8 : tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x16x16xf32>
    %expanded_9 = tensor.expand_shape %arg6 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %expanded_9 : tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x16x16xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<1x16x16x16xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x16x16x16xf32>
    %22 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%10, %arg7 : tensor<1x32x16x16xf32>, tensor<16x32x1x1xf32>) outs(%12 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    %expanded_10 = tensor.expand_shape %arg46 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %expanded_11 = tensor.expand_shape %arg47 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_11 : tensor<1x16x1x1xf32>) outs(%14 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x1x1xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<1x16x1x1xf32>) outs(%14 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x1x1xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %expanded_10 : tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x16x16xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %24 : tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x16x16xf32>
    %expanded_12 = tensor.expand_shape %arg8 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %expanded_12 : tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x16x16xf32>
    %expanded_13 = tensor.expand_shape %arg9 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %expanded_13 : tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x16x16xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%28 : tensor<1x16x16x16xf32>) outs(%11 : tensor<1x16x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x16x16x16xf32>
    %padded_14 = tensor.pad %29 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg68: index, %arg69: index, %arg70: index, %arg71: index):
      tensor.yield %cst : f32
    } : tensor<1x16x16x16xf32> to tensor<1x16x18x18xf32>
    %30 = tensor.empty() : tensor<1x24x16x16xf32>
    %31 = linalg.fill ins(%cst : f32) outs(%30 : tensor<1x24x16x16xf32>) -> tensor<1x24x16x16xf32>
    %32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_14, %arg10 : tensor<1x16x18x18xf32>, tensor<24x16x3x3xf32>) outs(%31 : tensor<1x24x16x16xf32>) -> tensor<1x24x16x16xf32>
    %expanded_15 = tensor.expand_shape %arg48 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %expanded_16 = tensor.expand_shape %arg49 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %33 = tensor.empty() : tensor<1x24x1x1xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_16 : tensor<1x24x1x1xf32>) outs(%33 : tensor<1x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x1x1xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<1x24x1x1xf32>) outs(%33 : tensor<1x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x1x1xf32>
    %36 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32, %expanded_15 : tensor<1x24x16x16xf32>, tensor<1x24x1x1xf32>) outs(%30 : tensor<1x24x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x16x16xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %35 : tensor<1x24x16x16xf32>, tensor<1x24x1x1xf32>) outs(%30 : tensor<1x24x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x16x16xf32>
    %expanded_17 = tensor.expand_shape %arg11 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %38 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%37, %expanded_17 : tensor<1x24x16x16xf32>, tensor<1x24x1x1xf32>) outs(%30 : tensor<1x24x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x16x16xf32>
    %expanded_18 = tensor.expand_shape %arg12 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%38, %expanded_18 : tensor<1x24x16x16xf32>, tensor<1x24x1x1xf32>) outs(%30 : tensor<1x24x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x16x16xf32>
    %40 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39 : tensor<1x24x16x16xf32>) outs(%30 : tensor<1x24x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x24x16x16xf32>
    %41 = tensor.empty() : tensor<1x8x16x16xf32>
    %42 = linalg.fill ins(%cst : f32) outs(%41 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %43 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%10, %arg13 : tensor<1x32x16x16xf32>, tensor<8x32x1x1xf32>) outs(%42 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %expanded_19 = tensor.expand_shape %arg50 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %expanded_20 = tensor.expand_shape %arg51 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %44 = tensor.empty() : tensor<1x8x1x1xf32>
    %45 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_20 : tensor<1x8x1x1xf32>) outs(%44 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x1x1xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45 : tensor<1x8x1x1xf32>) outs(%44 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x1x1xf32>
    %47 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %expanded_19 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %48 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%47, %46 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %expanded_21 = tensor.expand_shape %arg14 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %49 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48, %expanded_21 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %expanded_22 = tensor.expand_shape %arg15 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %50 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49, %expanded_22 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %51 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50 : tensor<1x8x16x16xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x8x16x16xf32>
    %padded_23 = tensor.pad %51 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg68: index, %arg69: index, %arg70: index, %arg71: index):
      tensor.yield %cst : f32
    } : tensor<1x8x16x16xf32> to tensor<1x8x20x20xf32>
    %52 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_23, %arg16 : tensor<1x8x20x20xf32>, tensor<8x8x5x5xf32>) outs(%42 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %expanded_24 = tensor.expand_shape %arg52 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %expanded_25 = tensor.expand_shape %arg53 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %53 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_25 : tensor<1x8x1x1xf32>) outs(%44 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x1x1xf32>
    %54 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%53 : tensor<1x8x1x1xf32>) outs(%44 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x1x1xf32>
    %55 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%52, %expanded_24 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %56 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55, %54 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %expanded_26 = tensor.expand_shape %arg17 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%56, %expanded_26 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %expanded_27 = tensor.expand_shape %arg18 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %58 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%57, %expanded_27 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%58 : tensor<1x8x16x16xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x8x16x16xf32>
    %padded_28 = tensor.pad %10 low[0, 0, 1, 1] high[0, 0, 2, 2] {
    ^bb0(%arg68: index, %arg69: index, %arg70: index, %arg71: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x32x16x16xf32> to tensor<1x32x19x19xf32>
    %60 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
    %61 = tensor.empty() : tensor<3x3xf32>
    %62 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_28, %61 : tensor<1x32x19x19xf32>, tensor<3x3xf32>) outs(%60 : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
    %63 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%62, %arg19 : tensor<1x32x16x16xf32>, tensor<8x32x1x1xf32>) outs(%42 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %expanded_29 = tensor.expand_shape %arg54 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %expanded_30 = tensor.expand_shape %arg55 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %64 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_30 : tensor<1x8x1x1xf32>) outs(%44 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x1x1xf32>
    %65 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%64 : tensor<1x8x1x1xf32>) outs(%44 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x1x1xf32>
    %66 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%63, %expanded_29 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %67 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%66, %65 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %expanded_31 = tensor.expand_shape %arg20 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%67, %expanded_31 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %expanded_32 = tensor.expand_shape %arg21 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %69 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%68, %expanded_32 : tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x16x16xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%69 : tensor<1x8x16x16xf32>) outs(%41 : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x8x16x16xf32>
    %concat = tensor.concat dim(1) %21, %40, %59, %70 : (tensor<1x16x16x16xf32>, tensor<1x24x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>) -> tensor<1x56x16x16xf32>
    %padded_33 = tensor.pad %concat low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg68: index, %arg69: index, %arg70: index, %arg71: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x56x16x16xf32> to tensor<1x56x18x18xf32>
    %71 = tensor.empty() : tensor<1x56x8x8xf32>
    %72 = linalg.fill ins(%cst_0 : f32) outs(%71 : tensor<1x56x8x8xf32>) -> tensor<1x56x8x8xf32>
    %73 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_33, %61 : tensor<1x56x18x18xf32>, tensor<3x3xf32>) outs(%72 : tensor<1x56x8x8xf32>) -> tensor<1x56x8x8xf32>
    %74 = tensor.empty() : tensor<1x24x8x8xf32>
    %75 = linalg.fill ins(%cst : f32) outs(%74 : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
    %76 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%73, %arg22 : tensor<1x56x8x8xf32>, tensor<24x56x1x1xf32>) outs(%75 : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
    %expanded_34 = tensor.expand_shape %arg56 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %expanded_35 = tensor.expand_shape %arg57 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %77 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_35 : tensor<1x24x1x1xf32>) outs(%33 : tensor<1x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x1x1xf32>
    %78 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%77 : tensor<1x24x1x1xf32>) outs(%33 : tensor<1x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x1x1xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76, %expanded_34 : tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x8x8xf32>
    %80 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%79, %78 : tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x8x8xf32>
    %expanded_36 = tensor.expand_shape %arg23 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %81 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%80, %expanded_36 : tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x8x8xf32>
    %expanded_37 = tensor.expand_shape %arg24 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%81, %expanded_37 : tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x8x8xf32>
    %83 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82 : tensor<1x24x8x8xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x24x8x8xf32>
    %84 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%73, %arg25 : tensor<1x56x8x8xf32>, tensor<24x56x1x1xf32>) outs(%75 : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
    %expanded_38 = tensor.expand_shape %arg58 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %expanded_39 = tensor.expand_shape %arg59 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_39 : tensor<1x24x1x1xf32>) outs(%33 : tensor<1x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x1x1xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%85 : tensor<1x24x1x1xf32>) outs(%33 : tensor<1x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x1x1xf32>
    %87 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%84, %expanded_38 : tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x8x8xf32>
    %88 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%87, %86 : tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x8x8xf32>
    %expanded_40 = tensor.expand_shape %arg26 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %89 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%88, %expanded_40 : tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x8x8xf32>
    %expanded_41 = tensor.expand_shape %arg27 [[0, 1, 2, 3]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
    %90 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%89, %expanded_41 : tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x24x8x8xf32>
    %91 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%90 : tensor<1x24x8x8xf32>) outs(%74 : tensor<1x24x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x24x8x8xf32>
    %padded_42 = tensor.pad %91 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg68: index, %arg69: index, %arg70: index, %arg71: index):
      tensor.yield %cst : f32
    } : tensor<1x24x8x8xf32> to tensor<1x24x10x10xf32>
    %92 = tensor.empty() : tensor<1x32x8x8xf32>
    %93 = linalg.fill ins(%cst : f32) outs(%92 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
    %94 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_42, %arg28 : tensor<1x24x10x10xf32>, tensor<32x24x3x3xf32>) outs(%93 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
    %expanded_43 = tensor.expand_shape %arg60 [[0, 1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<32xf32> into tensor<1x32x1x1xf32>
    %expanded_44 = tensor.expand_shape %arg61 [[0, 1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<32xf32> into tensor<1x32x1x1xf32>
    %95 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_44 : tensor<1x32x1x1xf32>) outs(%3 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x1x1xf32>
    %96 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%95 : tensor<1x32x1x1xf32>) outs(%3 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x1x1xf32>
    %97 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%94, %expanded_43 : tensor<1x32x8x8xf32>, tensor<1x32x1x1xf32>) outs(%92 : tensor<1x32x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x8x8xf32>
    %98 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%97, %96 : tensor<1x32x8x8xf32>, tensor<1x32x1x1xf32>) outs(%92 : tensor<1x32x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x8x8xf32>
    %expanded_45 = tensor.expand_shape %arg29 [[0, 1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<32xf32> into tensor<1x32x1x1xf32>
    %99 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%98, %expanded_45 : tensor<1x32x8x8xf32>, tensor<1x32x1x1xf32>) outs(%92 : tensor<1x32x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x8x8xf32>
    %expanded_46 = tensor.expand_shape %arg30 [[0, 1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<32xf32> into tensor<1x32x1x1xf32>
    %100 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%99, %expanded_46 : tensor<1x32x8x8xf32>, tensor<1x32x1x1xf32>) outs(%92 : tensor<1x32x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x32x8x8xf32>
    %101 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%100 : tensor<1x32x8x8xf32>) outs(%92 : tensor<1x32x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x32x8x8xf32>
    %102 = tensor.empty() : tensor<1x8x8x8xf32>
    %103 = linalg.fill ins(%cst : f32) outs(%102 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %104 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%73, %arg31 : tensor<1x56x8x8xf32>, tensor<8x56x1x1xf32>) outs(%103 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %expanded_47 = tensor.expand_shape %arg62 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %expanded_48 = tensor.expand_shape %arg63 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %105 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_48 : tensor<1x8x1x1xf32>) outs(%44 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x1x1xf32>
    %106 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%105 : tensor<1x8x1x1xf32>) outs(%44 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x1x1xf32>
    %107 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%104, %expanded_47 : tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) outs(%102 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x8x8xf32>
    %108 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%107, %106 : tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) outs(%102 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x8x8xf32>
    %expanded_49 = tensor.expand_shape %arg32 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %109 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%108, %expanded_49 : tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) outs(%102 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x8x8xf32>
    %expanded_50 = tensor.expand_shape %arg33 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
    %110 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%109, %expanded_50 : tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) outs(%102 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x8x8x8xf32>
    %111 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%110 : tensor<1x8x8x8xf32>) outs(%102 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x8x8x8xf32>
    %padded_51 = tensor.pad %111 low[0, 0, 2, 2] high[0, 0, 2, 2] {
    ^bb0(%arg68: index, %arg69: index, %arg70: index, %arg71: index):
      tensor.yield %cst : f32
    } : tensor<1x8x8x8xf32> to tensor<1x8x12x12xf32>
    %112 = tensor.empty() : tensor<1x16x8x8xf32>
    %113 = linalg.fill ins(%cst : f32) outs(%112 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    %114 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_51, %arg34 : tensor<1x8x12x12xf32>, tensor<16x8x5x5xf32>) outs(%113 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    %expanded_52 = tensor.expand_shape %arg64 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %expanded_53 = tensor.expand_shape %arg65 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %115 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_53 : tensor<1x16x1x1xf32>) outs(%14 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x1x1xf32>
    %116 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%115 : tensor<1x16x1x1xf32>) outs(%14 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x1x1xf32>
    %117 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%114, %expanded_52 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x8x8xf32>
    %118 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%117, %116 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x8x8xf32>
    %expanded_54 = tensor.expand_shape %arg35 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %119 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%118, %expanded_54 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x8x8xf32>
    %expanded_55 = tensor.expand_shape %arg36 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %120 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%119, %expanded_55 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x8x8xf32>
    %121 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%120 : tensor<1x16x8x8xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x16x8x8xf32>
    %padded_56 = tensor.pad %73 low[0, 0, 1, 1] high[0, 0, 2, 2] {
    ^bb0(%arg68: index, %arg69: index, %arg70: index, %arg71: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x56x8x8xf32> to tensor<1x56x11x11xf32>
    %122 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_56, %61 : tensor<1x56x11x11xf32>, tensor<3x3xf32>) outs(%72 : tensor<1x56x8x8xf32>) -> tensor<1x56x8x8xf32>
    %123 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%122, %arg37 : tensor<1x56x8x8xf32>, tensor<16x56x1x1xf32>) outs(%113 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    %expanded_57 = tensor.expand_shape %arg66 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %expanded_58 = tensor.expand_shape %arg67 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %124 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_58 : tensor<1x16x1x1xf32>) outs(%14 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %cst_1 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x1x1xf32>
    %125 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%124 : tensor<1x16x1x1xf32>) outs(%14 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = math.rsqrt %in : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x1x1xf32>
    %126 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%123, %expanded_57 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.subf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x8x8xf32>
    %127 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%126, %125 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x8x8xf32>
    %expanded_59 = tensor.expand_shape %arg38 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %128 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%127, %expanded_59 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.mulf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x8x8xf32>
    %expanded_60 = tensor.expand_shape %arg39 [[0, 1, 2, 3]] output_shape [1, 16, 1, 1] : tensor<16xf32> into tensor<1x16x1x1xf32>
    %129 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%128, %expanded_60 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x16x8x8xf32>
    %130 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%129 : tensor<1x16x8x8xf32>) outs(%112 : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.cmpf ugt, %in, %cst : f32
      %141 = arith.select %140, %in, %cst : f32
      linalg.yield %141 : f32
    } -> tensor<1x16x8x8xf32>
    %concat_61 = tensor.concat dim(1) %83, %101, %121, %130 : (tensor<1x24x8x8xf32>, tensor<1x32x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x88x8x8xf32>
    %131 = tensor.empty() : tensor<1x88x1x1xf32>
    %132 = linalg.fill ins(%cst : f32) outs(%131 : tensor<1x88x1x1xf32>) -> tensor<1x88x1x1xf32>
    %133 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%concat_61 : tensor<1x88x8x8xf32>) outs(%132 : tensor<1x88x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.addf %in, %out : f32
      linalg.yield %140 : f32
    } -> tensor<1x88x1x1xf32>
    %134 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%133 : tensor<1x88x1x1xf32>) outs(%131 : tensor<1x88x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %140 = arith.divf %in, %cst_2 : f32
      linalg.yield %140 : f32
    } -> tensor<1x88x1x1xf32>
    %collapsed = tensor.collapse_shape %134 [[0], [1, 2, 3]] : tensor<1x88x1x1xf32> into tensor<1x88xf32>
    %135 = tensor.empty() : tensor<88x10xf32>
    %transposed = linalg.transpose ins(%arg40 : tensor<10x88xf32>) outs(%135 : tensor<88x10xf32>) permutation = [1, 0] 
    %136 = tensor.empty() : tensor<1x10xf32>
    %137 = linalg.fill ins(%cst : f32) outs(%136 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %138 = linalg.matmul ins(%collapsed, %transposed : tensor<1x88xf32>, tensor<88x10xf32>) outs(%137 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %139 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%138, %arg41 : tensor<1x10xf32>, tensor<10xf32>) outs(%136 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_62: f32, %out: f32):
      %140 = arith.addf %in, %in_62 : f32
      linalg.yield %140 : f32
    } -> tensor<1x10xf32>
    return %139 : tensor<1x10xf32>
  }
}

