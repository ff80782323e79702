#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d2)>
#map6 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map7 = affine_map<(d0) -> (d0)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map11 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map12 = affine_map<(d0, d1, d2, d3) -> ()>
#map13 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map14 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map15 = affine_map<(d0, d1, d2) -> ()>
module {
  func.func @main_graph(%arg0: tensor<1x64xi64>, %arg1: tensor<1x64xi64>, %arg2: tensor<1024x384xf32>, %arg3: tensor<512x384xf32>, %arg4: tensor<2x384xf32>, %arg5: tensor<384xf32>, %arg6: tensor<384xf32>, %arg7: tensor<384xf32>, %arg8: tensor<384xf32>, %arg9: tensor<384xf32>, %arg10: tensor<384xf32>, %arg11: tensor<384xf32>, %arg12: tensor<384xf32>, %arg13: tensor<1536xf32>, %arg14: tensor<384xf32>, %arg15: tensor<384xf32>, %arg16: tensor<384xf32>, %arg17: tensor<384xf32>, %arg18: tensor<384xf32>, %arg19: tensor<384xf32>, %arg20: tensor<384xf32>, %arg21: tensor<384xf32>, %arg22: tensor<384xf32>, %arg23: tensor<1536xf32>, %arg24: tensor<384xf32>, %arg25: tensor<384xf32>, %arg26: tensor<384xf32>, %arg27: tensor<384xf32>, %arg28: tensor<384xf32>, %arg29: tensor<384xf32>, %arg30: tensor<384xf32>, %arg31: tensor<384xf32>, %arg32: tensor<384xf32>, %arg33: tensor<1536xf32>, %arg34: tensor<384xf32>, %arg35: tensor<384xf32>, %arg36: tensor<384xf32>, %arg37: tensor<384xf32>, %arg38: tensor<384xf32>, %arg39: tensor<384xf32>, %arg40: tensor<384xf32>, %arg41: tensor<384xf32>, %arg42: tensor<384xf32>, %arg43: tensor<1536xf32>, %arg44: tensor<384xf32>, %arg45: tensor<384xf32>, %arg46: tensor<384xf32>, %arg47: tensor<384xf32>, %arg48: tensor<384xf32>, %arg49: tensor<384xf32>, %arg50: tensor<384xf32>, %arg51: tensor<384xf32>, %arg52: tensor<384xf32>, %arg53: tensor<1536xf32>, %arg54: tensor<384xf32>, %arg55: tensor<384xf32>, %arg56: tensor<384xf32>, %arg57: tensor<384xf32>, %arg58: tensor<384xf32>, %arg59: tensor<384xf32>, %arg60: tensor<384xf32>, %arg61: tensor<384xf32>, %arg62: tensor<384xf32>, %arg63: tensor<1536xf32>, %arg64: tensor<384xf32>, %arg65: tensor<384xf32>, %arg66: tensor<384xf32>, %arg67: tensor<384x384xf32>, %arg68: tensor<384x384xf32>, %arg69: tensor<384x384xf32>, %arg70: tensor<384x384xf32>, %arg71: tensor<384x1536xf32>, %arg72: tensor<1536x384xf32>, %arg73: tensor<384x384xf32>, %arg74: tensor<384x384xf32>, %arg75: tensor<384x384xf32>, %arg76: tensor<384x384xf32>, %arg77: tensor<384x1536xf32>, %arg78: tensor<1536x384xf32>, %arg79: tensor<384x384xf32>, %arg80: tensor<384x384xf32>, %arg81: tensor<384x384xf32>, %arg82: tensor<384x384xf32>, %arg83: tensor<384x1536xf32>, %arg84: tensor<1536x384xf32>, %arg85: tensor<384x384xf32>, %arg86: tensor<384x384xf32>, %arg87: tensor<384x384xf32>, %arg88: tensor<384x384xf32>, %arg89: tensor<384x1536xf32>, %arg90: tensor<1536x384xf32>, %arg91: tensor<384x384xf32>, %arg92: tensor<384x384xf32>, %arg93: tensor<384x384xf32>, %arg94: tensor<384x384xf32>, %arg95: tensor<384x1536xf32>, %arg96: tensor<1536x384xf32>, %arg97: tensor<384x384xf32>, %arg98: tensor<384x384xf32>, %arg99: tensor<384x384xf32>, %arg100: tensor<384x384xf32>, %arg101: tensor<384x1536xf32>, %arg102: tensor<1536x384xf32>) -> tensor<1x64x384xf32> {
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c512_i64 = arith.constant 512 : i64
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %cst = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<true> : tensor<1x1x64x1xi1>
    %cst_2 = arith.constant dense<0.420448214> : tensor<f32>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_5 = arith.constant dense<1.41421354> : tensor<f32>
    %cst_6 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_7 = arith.constant dense<5.000000e-01> : tensor<f32>
    %cst_8 = arith.constant 3.840000e+02 : f32
    %cst_9 = arith.constant 9.99999996E-13 : f32
    %c2_i64 = arith.constant 2 : i64
    %c64_i64 = arith.constant 64 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %cst_10 = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]]> : tensor<1x64xi64>
    %cst_11 = arith.constant dense<"0x0000000000000000000000000000000000000000000000000100000000000000000000000000000002000000000000000000000000000000030000000000000000000000000000000400000000000000000000000000000005000000000000000000000000000000060000000000000000000000000000000700000000000000000000000000000008000000000000000000000000000000090000000000000000000000000000000A0000000000000000000000000000000B0000000000000000000000000000000C0000000000000000000000000000000D0000000000000000000000000000000E0000000000000000000000000000000F000000000000000000000000000000100000000000000000000000000000001100000000000000000000000000000012000000000000000000000000000000130000000000000000000000000000001400000000000000000000000000000015000000000000000000000000000000160000000000000000000000000000001700000000000000000000000000000018000000000000000000000000000000190000000000000000000000000000001A0000000000000000000000000000001B0000000000000000000000000000001C0000000000000000000000000000001D0000000000000000000000000000001E0000000000000000000000000000001F000000000000000000000000000000200000000000000000000000000000002100000000000000000000000000000022000000000000000000000000000000230000000000000000000000000000002400000000000000000000000000000025000000000000000000000000000000260000000000000000000000000000002700000000000000000000000000000028000000000000000000000000000000290000000000000000000000000000002A0000000000000000000000000000002B0000000000000000000000000000002C0000000000000000000000000000002D0000000000000000000000000000002E0000000000000000000000000000002F000000000000000000000000000000300000000000000000000000000000003100000000000000000000000000000032000000000000000000000000000000330000000000000000000000000000003400000000000000000000000000000035000000000000000000000000000000360000000000000000000000000000003700000000000000000000000000000038000000000000000000000000000000390000000000000000000000000000003A0000000000000000000000000000003B0000000000000000000000000000003C0000000000000000000000000000003D0000000000000000000000000000003E0000000000000000000000000000003F00000000000000"> : tensor<1x1x1x64x2xi64>
    %0 = tensor.empty() : tensor<1x64xi64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%cst_10 : tensor<1x64xi64>) outs(%0 : tensor<1x64xi64>) {
    ^bb0(%in: i64, %out: i64):
      %452 = arith.addi %in, %c512_i64 : i64
      linalg.yield %452 : i64
    } -> tensor<1x64xi64>
    %2 = tensor.empty() : tensor<1x64xi1>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%cst_10 : tensor<1x64xi64>) outs(%2 : tensor<1x64xi1>) {
    ^bb0(%in: i64, %out: i1):
      %452 = arith.cmpi slt, %in, %c0_i64 : i64
      linalg.yield %452 : i1
    } -> tensor<1x64xi1>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %1, %cst_10 : tensor<1x64xi1>, tensor<1x64xi64>, tensor<1x64xi64>) outs(%0 : tensor<1x64xi64>) {
    ^bb0(%in: i1, %in_153: i64, %in_154: i64, %out: i64):
      %452 = arith.select %in, %in_153, %in_154 : i64
      linalg.yield %452 : i64
    } -> tensor<1x64xi64>
    %5 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<1x64xi64>) -> tensor<1x64xi64>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<1x64xi64>) outs(%5 : tensor<1x64xi64>) {
    ^bb0(%in: i64, %out: i64):
      %452 = arith.index_cast %in : i64 to index
      %453 = arith.cmpi slt, %452, %c512 : index
      cf.assert %453, "index must be smaller than dim size"
      %454 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %454, "index must be larger or equal to 0"
      linalg.yield %c0_i64 : i64
    } -> tensor<1x64xi64>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<1x64xi64>) outs(%2 : tensor<1x64xi1>) {
    ^bb0(%in: i64, %out: i1):
      %452 = arith.cmpi slt, %in, %c0_i64 : i64
      linalg.yield %452 : i1
    } -> tensor<1x64xi1>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<1x64xi64>) outs(%0 : tensor<1x64xi64>) {
    ^bb0(%in: i64, %out: i64):
      %452 = arith.addi %in, %c1024_i64 : i64
      linalg.yield %452 : i64
    } -> tensor<1x64xi64>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %8, %arg0 : tensor<1x64xi1>, tensor<1x64xi64>, tensor<1x64xi64>) outs(%0 : tensor<1x64xi64>) {
    ^bb0(%in: i1, %in_153: i64, %in_154: i64, %out: i64):
      %452 = arith.select %in, %in_153, %in_154 : i64
      linalg.yield %452 : i64
    } -> tensor<1x64xi64>
    %collapsed = tensor.collapse_shape %9 [[0, 1]] : tensor<1x64xi64> into tensor<64xi64>
    %10 = tensor.empty() : tensor<64x384xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%collapsed : tensor<64xi64>) outs(%10 : tensor<64x384xf32>) {
    ^bb0(%in: i64, %out: f32):
      %452 = arith.index_cast %in : i64 to index
      %453 = linalg.index 1 : index
      %extracted = tensor.extract %arg2[%452, %453] : tensor<1024x384xf32>
      linalg.yield %extracted : f32
    } -> tensor<64x384xf32>
    %expanded = tensor.expand_shape %11 [[0, 1], [2]] output_shape [1, 64, 384] : tensor<64x384xf32> into tensor<1x64x384xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<1x64xi64>) outs(%2 : tensor<1x64xi1>) {
    ^bb0(%in: i64, %out: i1):
      %452 = arith.cmpi slt, %in, %c0_i64 : i64
      linalg.yield %452 : i1
    } -> tensor<1x64xi1>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<1x64xi64>) outs(%0 : tensor<1x64xi64>) {
    ^bb0(%in: i64, %out: i64):
      %452 = arith.addi %in, %c2_i64 : i64
      linalg.yield %452 : i64
    } -> tensor<1x64xi64>
    %14 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %13, %6 : tensor<1x64xi1>, tensor<1x64xi64>, tensor<1x64xi64>) outs(%0 : tensor<1x64xi64>) {
    ^bb0(%in: i1, %in_153: i64, %in_154: i64, %out: i64):
      %452 = arith.select %in, %in_153, %in_154 : i64
      linalg.yield %452 : i64
    } -> tensor<1x64xi64>
    %collapsed_12 = tensor.collapse_shape %14 [[0, 1]] : tensor<1x64xi64> into tensor<64xi64>
    %15 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%collapsed_12 : tensor<64xi64>) outs(%10 : tensor<64x384xf32>) {
    ^bb0(%in: i64, %out: f32):
      %452 = arith.index_cast %in : i64 to index
      %453 = linalg.index 1 : index
      %extracted = tensor.extract %arg4[%452, %453] : tensor<2x384xf32>
      linalg.yield %extracted : f32
    } -> tensor<64x384xf32>
    %expanded_13 = tensor.expand_shape %15 [[0, 1], [2]] output_shape [1, 64, 384] : tensor<64x384xf32> into tensor<1x64x384xf32>
    %16 = tensor.empty() : tensor<1x64x384xf32>
    %17 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %expanded_13 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %collapsed_14 = tensor.collapse_shape %4 [[0, 1]] : tensor<1x64xi64> into tensor<64xi64>
    %18 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%collapsed_14 : tensor<64xi64>) outs(%10 : tensor<64x384xf32>) {
    ^bb0(%in: i64, %out: f32):
      %452 = arith.index_cast %in : i64 to index
      %453 = linalg.index 1 : index
      %extracted = tensor.extract %arg3[%452, %453] : tensor<512x384xf32>
      linalg.yield %extracted : f32
    } -> tensor<64x384xf32>
    %expanded_15 = tensor.expand_shape %18 [[0, 1], [2]] output_shape [1, 64, 384] : tensor<64x384xf32> into tensor<1x64x384xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17, %expanded_15 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %20 = tensor.empty() : tensor<1x64x1xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<1x64x1xf32>) -> tensor<1x64x1xf32>
    %22 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%19 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_16 = tensor.collapse_shape %23 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %24 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_16 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %25 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %24 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %26 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %25 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %27 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%26 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %28 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%27 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%28 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %30 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%29 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_17 = tensor.collapse_shape %30 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %31 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_17 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %32 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %31 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %33 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%32, %arg5 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %34 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%33, %arg6 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<1x64xi64>) outs(%2 : tensor<1x64xi1>) {
    ^bb0(%in: i64, %out: i1):
      %452 = arith.cmpi ne, %in, %c0_i64 : i64
      linalg.yield %452 : i1
    } -> tensor<1x64xi1>
    %extracted_slice = tensor.extract_slice %cst_11[0, 0, 0, 0, 0] [1, 1, 1, 64, 1] [1, 1, 1, 1, 1] : tensor<1x1x1x64x2xi64> to tensor<1x1x1x64x1xi64>
    %36 = tensor.empty() : tensor<1x1x1x64x1xi1>
    %37 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<1x1x1x64x1xi64>) outs(%36 : tensor<1x1x1x64x1xi1>) {
    ^bb0(%in: i64, %out: i1):
      %452 = arith.cmpi slt, %in, %c0_i64 : i64
      linalg.yield %452 : i1
    } -> tensor<1x1x1x64x1xi1>
    %38 = tensor.empty() : tensor<1x1x1x64x1xi64>
    %39 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<1x1x1x64x1xi64>) outs(%38 : tensor<1x1x1x64x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %452 = arith.addi %in, %c1_i64 : i64
      linalg.yield %452 : i64
    } -> tensor<1x1x1x64x1xi64>
    %40 = linalg.generic {indexing_maps = [#map6, #map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%37, %39, %extracted_slice : tensor<1x1x1x64x1xi1>, tensor<1x1x1x64x1xi64>, tensor<1x1x1x64x1xi64>) outs(%38 : tensor<1x1x1x64x1xi64>) {
    ^bb0(%in: i1, %in_153: i64, %in_154: i64, %out: i64):
      %452 = arith.select %in, %in_153, %in_154 : i64
      linalg.yield %452 : i64
    } -> tensor<1x1x1x64x1xi64>
    %extracted_slice_18 = tensor.extract_slice %cst_11[0, 0, 0, 0, 1] [1, 1, 1, 64, 1] [1, 1, 1, 1, 1] : tensor<1x1x1x64x2xi64> to tensor<1x1x1x64x1xi64>
    %41 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_18 : tensor<1x1x1x64x1xi64>) outs(%36 : tensor<1x1x1x64x1xi1>) {
    ^bb0(%in: i64, %out: i1):
      %452 = arith.cmpi slt, %in, %c0_i64 : i64
      linalg.yield %452 : i1
    } -> tensor<1x1x1x64x1xi1>
    %42 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_18 : tensor<1x1x1x64x1xi64>) outs(%38 : tensor<1x1x1x64x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %452 = arith.addi %in, %c64_i64 : i64
      linalg.yield %452 : i64
    } -> tensor<1x1x1x64x1xi64>
    %43 = linalg.generic {indexing_maps = [#map6, #map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%41, %42, %extracted_slice_18 : tensor<1x1x1x64x1xi1>, tensor<1x1x1x64x1xi64>, tensor<1x1x1x64x1xi64>) outs(%38 : tensor<1x1x1x64x1xi64>) {
    ^bb0(%in: i1, %in_153: i64, %in_154: i64, %out: i64):
      %452 = arith.select %in, %in_153, %in_154 : i64
      linalg.yield %452 : i64
    } -> tensor<1x1x1x64x1xi64>
    %44 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%43, %40 : tensor<1x1x1x64x1xi64>, tensor<1x1x1x64x1xi64>) outs(%38 : tensor<1x1x1x64x1xi64>) {
    ^bb0(%in: i64, %in_153: i64, %out: i64):
      %452 = arith.muli %in_153, %c64_i64 : i64
      %453 = arith.addi %in, %452 : i64
      linalg.yield %453 : i64
    } -> tensor<1x1x1x64x1xi64>
    %collapsed_19 = tensor.collapse_shape %44 [[0, 1, 2, 3, 4]] : tensor<1x1x1x64x1xi64> into tensor<64xi64>
    %collapsed_20 = tensor.collapse_shape %35 [[0, 1]] : tensor<1x64xi1> into tensor<64xi1>
    %45 = tensor.empty() : tensor<64xi1>
    %46 = linalg.fill ins(%false : i1) outs(%45 : tensor<64xi1>) -> tensor<64xi1>
    %47 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel"]} ins(%collapsed_19 : tensor<64xi64>) outs(%46 : tensor<64xi1>) {
    ^bb0(%in: i64, %out: i1):
      %452 = arith.index_cast %in : i64 to index
      %453 = arith.cmpi slt, %452, %c64 : index
      cf.assert %453, "index must be smaller than dim size"
      %454 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %454, "index must be larger or equal to 0"
      %extracted = tensor.extract %collapsed_20[%452] : tensor<64xi1>
      linalg.yield %extracted : i1
    } -> tensor<64xi1>
    %expanded_21 = tensor.expand_shape %47 [[0, 1, 2, 3]] output_shape [1, 1, 1, 64] : tensor<64xi1> into tensor<1x1x1x64xi1>
    %48 = tensor.empty() : tensor<1x1x64x64xi1>
    %49 = linalg.generic {indexing_maps = [#map8, #map9, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %expanded_21 : tensor<1x1x64x1xi1>, tensor<1x1x1x64xi1>) outs(%48 : tensor<1x1x64x64xi1>) {
    ^bb0(%in: i1, %in_153: i1, %out: i1):
      %452 = arith.andi %in, %in_153 : i1
      linalg.yield %452 : i1
    } -> tensor<1x1x64x64xi1>
    %50 = tensor.empty() : tensor<1x384x384xf32>
    %51 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg67 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %52 = linalg.fill ins(%cst : f32) outs(%16 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %53 = linalg.batch_matmul ins(%34, %51 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %54 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%53, %arg7 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_22 = tensor.expand_shape %54 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %55 = tensor.empty() : tensor<1x12x64x32xf32>
    %transposed = linalg.transpose ins(%expanded_22 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %56 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg68 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %57 = linalg.batch_matmul ins(%34, %56 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %58 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57, %arg8 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_23 = tensor.expand_shape %58 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_24 = linalg.transpose ins(%expanded_23 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %59 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg69 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %60 = linalg.batch_matmul ins(%34, %59 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %61 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60, %arg9 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_25 = tensor.expand_shape %61 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_26 = linalg.transpose ins(%expanded_25 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_27 = tensor.collapse_shape %transposed_24 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %62 = tensor.empty() : tensor<12x32x64xf32>
    %transposed_28 = linalg.transpose ins(%collapsed_27 : tensor<12x64x32xf32>) outs(%62 : tensor<12x32x64xf32>) permutation = [0, 2, 1] 
    %expanded_29 = tensor.expand_shape %transposed_28 [[0, 1], [2], [3]] output_shape [1, 12, 32, 64] : tensor<12x32x64xf32> into tensor<1x12x32x64xf32>
    %63 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed, %cst_2 : tensor<1x12x64x32xf32>, tensor<f32>) outs(%55 : tensor<1x12x64x32xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x32xf32>
    %64 = tensor.empty() : tensor<1x12x32x64xf32>
    %65 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_29, %cst_2 : tensor<1x12x32x64xf32>, tensor<f32>) outs(%64 : tensor<1x12x32x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x32x64xf32>
    %66 = tensor.empty() : tensor<1x1x64x64xf32>
    %67 = linalg.generic {indexing_maps = [#map10, #map12, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49, %cst_3, %cst_4 : tensor<1x1x64x64xi1>, tensor<f32>, tensor<f32>) outs(%66 : tensor<1x1x64x64xf32>) {
    ^bb0(%in: i1, %in_153: f32, %in_154: f32, %out: f32):
      %452 = arith.select %in, %in_153, %in_154 : f32
      linalg.yield %452 : f32
    } -> tensor<1x1x64x64xf32>
    %collapsed_30 = tensor.collapse_shape %63 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %collapsed_31 = tensor.collapse_shape %65 [[0, 1], [2], [3]] : tensor<1x12x32x64xf32> into tensor<12x32x64xf32>
    %68 = tensor.empty() : tensor<12x64x64xf32>
    %69 = linalg.fill ins(%cst : f32) outs(%68 : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
    %70 = linalg.batch_matmul ins(%collapsed_30, %collapsed_31 : tensor<12x64x32xf32>, tensor<12x32x64xf32>) outs(%69 : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
    %expanded_32 = tensor.expand_shape %70 [[0, 1], [2], [3]] output_shape [1, 12, 64, 64] : tensor<12x64x64xf32> into tensor<1x12x64x64xf32>
    %71 = tensor.empty() : tensor<1x12x64x64xf32>
    %72 = linalg.generic {indexing_maps = [#map10, #map13, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_32, %67 : tensor<1x12x64x64xf32>, tensor<1x1x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %73 = tensor.empty() : tensor<1x12x64xi64>
    %74 = linalg.fill ins(%c0_i64 : i64) outs(%73 : tensor<1x12x64xi64>) -> tensor<1x12x64xi64>
    %75 = tensor.empty() : tensor<1x12x64xf32>
    %76 = linalg.fill ins(%cst_0 : f32) outs(%75 : tensor<1x12x64xf32>) -> tensor<1x12x64xf32>
    %77:2 = linalg.generic {indexing_maps = [#map10, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%72 : tensor<1x12x64x64xf32>) outs(%76, %74 : tensor<1x12x64xf32>, tensor<1x12x64xi64>) {
    ^bb0(%in: f32, %out: f32, %out_153: i64):
      %452 = linalg.index 3 : index
      %453 = arith.index_cast %452 : index to i64
      %454 = arith.maximumf %in, %out : f32
      %455 = arith.cmpf ogt, %in, %out : f32
      %456 = arith.select %455, %453, %out_153 : i64
      linalg.yield %454, %456 : f32, i64
    } -> (tensor<1x12x64xf32>, tensor<1x12x64xi64>)
    %expanded_33 = tensor.expand_shape %77#0 [[0], [1], [2, 3]] output_shape [1, 12, 64, 1] : tensor<1x12x64xf32> into tensor<1x12x64x1xf32>
    %78 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%72, %expanded_33 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %79 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%78 : tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.exp %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %80 = tensor.empty() : tensor<1x12x64x1xf32>
    %81 = linalg.fill ins(%cst : f32) outs(%80 : tensor<1x12x64x1xf32>) -> tensor<1x12x64x1xf32>
    %82 = linalg.generic {indexing_maps = [#map10, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%79 : tensor<1x12x64x64xf32>) outs(%81 : tensor<1x12x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x1xf32>
    %83 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%79, %82 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %84 = tensor.empty() : tensor<1x12x64x64xi1>
    %85 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83, %83 : tensor<1x12x64x64xf32>, tensor<1x12x64x64xf32>) outs(%84 : tensor<1x12x64x64xi1>) {
    ^bb0(%in: f32, %in_153: f32, %out: i1):
      %452 = arith.cmpf une, %in, %in_153 : f32
      linalg.yield %452 : i1
    } -> tensor<1x12x64x64xi1>
    %86 = linalg.generic {indexing_maps = [#map10, #map12, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%85, %cst_3, %83 : tensor<1x12x64x64xi1>, tensor<f32>, tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: i1, %in_153: f32, %in_154: f32, %out: f32):
      %452 = arith.select %in, %in_153, %in_154 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %collapsed_34 = tensor.collapse_shape %86 [[0, 1], [2], [3]] : tensor<1x12x64x64xf32> into tensor<12x64x64xf32>
    %collapsed_35 = tensor.collapse_shape %transposed_26 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %87 = tensor.empty() : tensor<12x64x32xf32>
    %88 = linalg.fill ins(%cst : f32) outs(%87 : tensor<12x64x32xf32>) -> tensor<12x64x32xf32>
    %89 = linalg.batch_matmul ins(%collapsed_34, %collapsed_35 : tensor<12x64x64xf32>, tensor<12x64x32xf32>) outs(%88 : tensor<12x64x32xf32>) -> tensor<12x64x32xf32>
    %expanded_36 = tensor.expand_shape %89 [[0, 1], [2], [3]] output_shape [1, 12, 64, 32] : tensor<12x64x32xf32> into tensor<1x12x64x32xf32>
    %90 = tensor.empty() : tensor<1x64x12x32xf32>
    %transposed_37 = linalg.transpose ins(%expanded_36 : tensor<1x12x64x32xf32>) outs(%90 : tensor<1x64x12x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_38 = tensor.collapse_shape %transposed_37 [[0], [1], [2, 3]] : tensor<1x64x12x32xf32> into tensor<1x64x384xf32>
    %91 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg70 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %92 = linalg.batch_matmul ins(%collapsed_38, %91 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %93 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%92, %arg10 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %94 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%93, %34 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %95 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%94 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %96 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%95 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_39 = tensor.collapse_shape %96 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %97 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_39 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %98 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%94, %97 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %99 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%98, %98 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %100 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%99 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %101 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%100 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %102 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%101 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %103 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%102 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_40 = tensor.collapse_shape %103 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %104 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_40 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %105 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%98, %104 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %106 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%105, %arg11 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %107 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%106, %arg12 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %108 = tensor.empty() : tensor<1x384x1536xf32>
    %109 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg71 : tensor<384x1536xf32>) outs(%108 : tensor<1x384x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x1536xf32>
    %110 = tensor.empty() : tensor<1x64x1536xf32>
    %111 = linalg.fill ins(%cst : f32) outs(%110 : tensor<1x64x1536xf32>) -> tensor<1x64x1536xf32>
    %112 = linalg.batch_matmul ins(%107, %109 : tensor<1x64x384xf32>, tensor<1x384x1536xf32>) outs(%111 : tensor<1x64x1536xf32>) -> tensor<1x64x1536xf32>
    %113 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%112, %arg13 : tensor<1x64x1536xf32>, tensor<1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %114 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%113, %cst_5 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %115 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%114 : tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.erf %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %116 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%115, %cst_6 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %117 = linalg.generic {indexing_maps = [#map15, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_7, %116 : tensor<f32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %118 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%113, %117 : tensor<1x64x1536xf32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %119 = tensor.empty() : tensor<1x1536x384xf32>
    %120 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg72 : tensor<1536x384xf32>) outs(%119 : tensor<1x1536x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x1536x384xf32>
    %121 = linalg.batch_matmul ins(%118, %120 : tensor<1x64x1536xf32>, tensor<1x1536x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %122 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%121, %arg14 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %123 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%122, %107 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %124 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%123 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %125 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%124 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_41 = tensor.collapse_shape %125 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %126 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_41 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %127 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%123, %126 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %128 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%127, %127 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %129 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%128 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %130 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%129 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %131 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%130 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %132 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%131 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_42 = tensor.collapse_shape %132 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %133 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_42 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %134 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%127, %133 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %135 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%134, %arg15 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %136 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%135, %arg16 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %137 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg73 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %138 = linalg.batch_matmul ins(%136, %137 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %139 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%138, %arg17 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_43 = tensor.expand_shape %139 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_44 = linalg.transpose ins(%expanded_43 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %140 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg74 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %141 = linalg.batch_matmul ins(%136, %140 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %142 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%141, %arg18 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_45 = tensor.expand_shape %142 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_46 = linalg.transpose ins(%expanded_45 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %143 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg75 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %144 = linalg.batch_matmul ins(%136, %143 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %145 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%144, %arg19 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_47 = tensor.expand_shape %145 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_48 = linalg.transpose ins(%expanded_47 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_49 = tensor.collapse_shape %transposed_46 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %transposed_50 = linalg.transpose ins(%collapsed_49 : tensor<12x64x32xf32>) outs(%62 : tensor<12x32x64xf32>) permutation = [0, 2, 1] 
    %expanded_51 = tensor.expand_shape %transposed_50 [[0, 1], [2], [3]] output_shape [1, 12, 32, 64] : tensor<12x32x64xf32> into tensor<1x12x32x64xf32>
    %146 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_44, %cst_2 : tensor<1x12x64x32xf32>, tensor<f32>) outs(%55 : tensor<1x12x64x32xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x32xf32>
    %147 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_51, %cst_2 : tensor<1x12x32x64xf32>, tensor<f32>) outs(%64 : tensor<1x12x32x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x32x64xf32>
    %collapsed_52 = tensor.collapse_shape %146 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %collapsed_53 = tensor.collapse_shape %147 [[0, 1], [2], [3]] : tensor<1x12x32x64xf32> into tensor<12x32x64xf32>
    %148 = linalg.batch_matmul ins(%collapsed_52, %collapsed_53 : tensor<12x64x32xf32>, tensor<12x32x64xf32>) outs(%69 : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
    %expanded_54 = tensor.expand_shape %148 [[0, 1], [2], [3]] output_shape [1, 12, 64, 64] : tensor<12x64x64xf32> into tensor<1x12x64x64xf32>
    %149 = linalg.generic {indexing_maps = [#map10, #map13, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_54, %67 : tensor<1x12x64x64xf32>, tensor<1x1x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %150:2 = linalg.generic {indexing_maps = [#map10, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%149 : tensor<1x12x64x64xf32>) outs(%76, %74 : tensor<1x12x64xf32>, tensor<1x12x64xi64>) {
    ^bb0(%in: f32, %out: f32, %out_153: i64):
      %452 = linalg.index 3 : index
      %453 = arith.index_cast %452 : index to i64
      %454 = arith.maximumf %in, %out : f32
      %455 = arith.cmpf ogt, %in, %out : f32
      %456 = arith.select %455, %453, %out_153 : i64
      linalg.yield %454, %456 : f32, i64
    } -> (tensor<1x12x64xf32>, tensor<1x12x64xi64>)
    %expanded_55 = tensor.expand_shape %150#0 [[0], [1], [2, 3]] output_shape [1, 12, 64, 1] : tensor<1x12x64xf32> into tensor<1x12x64x1xf32>
    %151 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%149, %expanded_55 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %152 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%151 : tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.exp %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %153 = linalg.generic {indexing_maps = [#map10, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%152 : tensor<1x12x64x64xf32>) outs(%81 : tensor<1x12x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x1xf32>
    %154 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%152, %153 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %155 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%154, %154 : tensor<1x12x64x64xf32>, tensor<1x12x64x64xf32>) outs(%84 : tensor<1x12x64x64xi1>) {
    ^bb0(%in: f32, %in_153: f32, %out: i1):
      %452 = arith.cmpf une, %in, %in_153 : f32
      linalg.yield %452 : i1
    } -> tensor<1x12x64x64xi1>
    %156 = linalg.generic {indexing_maps = [#map10, #map12, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%155, %cst_3, %154 : tensor<1x12x64x64xi1>, tensor<f32>, tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: i1, %in_153: f32, %in_154: f32, %out: f32):
      %452 = arith.select %in, %in_153, %in_154 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %collapsed_56 = tensor.collapse_shape %156 [[0, 1], [2], [3]] : tensor<1x12x64x64xf32> into tensor<12x64x64xf32>
    %collapsed_57 = tensor.collapse_shape %transposed_48 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %157 = linalg.batch_matmul ins(%collapsed_56, %collapsed_57 : tensor<12x64x64xf32>, tensor<12x64x32xf32>) outs(%88 : tensor<12x64x32xf32>) -> tensor<12x64x32xf32>
    %expanded_58 = tensor.expand_shape %157 [[0, 1], [2], [3]] output_shape [1, 12, 64, 32] : tensor<12x64x32xf32> into tensor<1x12x64x32xf32>
    %transposed_59 = linalg.transpose ins(%expanded_58 : tensor<1x12x64x32xf32>) outs(%90 : tensor<1x64x12x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_60 = tensor.collapse_shape %transposed_59 [[0], [1], [2, 3]] : tensor<1x64x12x32xf32> into tensor<1x64x384xf32>
    %158 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg76 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %159 = linalg.batch_matmul ins(%collapsed_60, %158 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %160 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%159, %arg20 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %161 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%160, %136 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %162 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%161 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %163 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%162 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_61 = tensor.collapse_shape %163 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %164 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_61 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %165 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%161, %164 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %166 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%165, %165 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %167 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%166 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %168 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%167 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %169 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%168 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %170 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%169 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_62 = tensor.collapse_shape %170 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %171 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_62 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %172 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%165, %171 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %173 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%172, %arg21 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %174 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%173, %arg22 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %175 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg77 : tensor<384x1536xf32>) outs(%108 : tensor<1x384x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x1536xf32>
    %176 = linalg.batch_matmul ins(%174, %175 : tensor<1x64x384xf32>, tensor<1x384x1536xf32>) outs(%111 : tensor<1x64x1536xf32>) -> tensor<1x64x1536xf32>
    %177 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%176, %arg23 : tensor<1x64x1536xf32>, tensor<1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %178 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%177, %cst_5 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %179 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%178 : tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.erf %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %180 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%179, %cst_6 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %181 = linalg.generic {indexing_maps = [#map15, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_7, %180 : tensor<f32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %182 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%177, %181 : tensor<1x64x1536xf32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %183 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg78 : tensor<1536x384xf32>) outs(%119 : tensor<1x1536x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x1536x384xf32>
    %184 = linalg.batch_matmul ins(%182, %183 : tensor<1x64x1536xf32>, tensor<1x1536x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %185 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184, %arg24 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %186 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%185, %174 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %187 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%186 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %188 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%187 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_63 = tensor.collapse_shape %188 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %189 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_63 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %190 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%186, %189 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %191 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%190, %190 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %192 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%191 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %193 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%192 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %194 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%193 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %195 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%194 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_64 = tensor.collapse_shape %195 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %196 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_64 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %197 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%190, %196 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %198 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%197, %arg25 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %199 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%198, %arg26 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %200 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg79 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %201 = linalg.batch_matmul ins(%199, %200 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %202 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%201, %arg27 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_65 = tensor.expand_shape %202 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_66 = linalg.transpose ins(%expanded_65 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %203 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg80 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %204 = linalg.batch_matmul ins(%199, %203 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %205 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%204, %arg28 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_67 = tensor.expand_shape %205 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_68 = linalg.transpose ins(%expanded_67 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %206 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg81 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %207 = linalg.batch_matmul ins(%199, %206 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %208 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%207, %arg29 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_69 = tensor.expand_shape %208 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_70 = linalg.transpose ins(%expanded_69 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_71 = tensor.collapse_shape %transposed_68 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %transposed_72 = linalg.transpose ins(%collapsed_71 : tensor<12x64x32xf32>) outs(%62 : tensor<12x32x64xf32>) permutation = [0, 2, 1] 
    %expanded_73 = tensor.expand_shape %transposed_72 [[0, 1], [2], [3]] output_shape [1, 12, 32, 64] : tensor<12x32x64xf32> into tensor<1x12x32x64xf32>
    %209 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_66, %cst_2 : tensor<1x12x64x32xf32>, tensor<f32>) outs(%55 : tensor<1x12x64x32xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x32xf32>
    %210 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_73, %cst_2 : tensor<1x12x32x64xf32>, tensor<f32>) outs(%64 : tensor<1x12x32x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x32x64xf32>
    %collapsed_74 = tensor.collapse_shape %209 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %collapsed_75 = tensor.collapse_shape %210 [[0, 1], [2], [3]] : tensor<1x12x32x64xf32> into tensor<12x32x64xf32>
    %211 = linalg.batch_matmul ins(%collapsed_74, %collapsed_75 : tensor<12x64x32xf32>, tensor<12x32x64xf32>) outs(%69 : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
    %expanded_76 = tensor.expand_shape %211 [[0, 1], [2], [3]] output_shape [1, 12, 64, 64] : tensor<12x64x64xf32> into tensor<1x12x64x64xf32>
    %212 = linalg.generic {indexing_maps = [#map10, #map13, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_76, %67 : tensor<1x12x64x64xf32>, tensor<1x1x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %213:2 = linalg.generic {indexing_maps = [#map10, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%212 : tensor<1x12x64x64xf32>) outs(%76, %74 : tensor<1x12x64xf32>, tensor<1x12x64xi64>) {
    ^bb0(%in: f32, %out: f32, %out_153: i64):
      %452 = linalg.index 3 : index
      %453 = arith.index_cast %452 : index to i64
      %454 = arith.maximumf %in, %out : f32
      %455 = arith.cmpf ogt, %in, %out : f32
      %456 = arith.select %455, %453, %out_153 : i64
      linalg.yield %454, %456 : f32, i64
    } -> (tensor<1x12x64xf32>, tensor<1x12x64xi64>)
    %expanded_77 = tensor.expand_shape %213#0 [[0], [1], [2, 3]] output_shape [1, 12, 64, 1] : tensor<1x12x64xf32> into tensor<1x12x64x1xf32>
    %214 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%212, %expanded_77 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %215 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%214 : tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.exp %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %216 = linalg.generic {indexing_maps = [#map10, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%215 : tensor<1x12x64x64xf32>) outs(%81 : tensor<1x12x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x1xf32>
    %217 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%215, %216 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %218 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%217, %217 : tensor<1x12x64x64xf32>, tensor<1x12x64x64xf32>) outs(%84 : tensor<1x12x64x64xi1>) {
    ^bb0(%in: f32, %in_153: f32, %out: i1):
      %452 = arith.cmpf une, %in, %in_153 : f32
      linalg.yield %452 : i1
    } -> tensor<1x12x64x64xi1>
    %219 = linalg.generic {indexing_maps = [#map10, #map12, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%218, %cst_3, %217 : tensor<1x12x64x64xi1>, tensor<f32>, tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: i1, %in_153: f32, %in_154: f32, %out: f32):
      %452 = arith.select %in, %in_153, %in_154 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %collapsed_78 = tensor.collapse_shape %219 [[0, 1], [2], [3]] : tensor<1x12x64x64xf32> into tensor<12x64x64xf32>
    %collapsed_79 = tensor.collapse_shape %transposed_70 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %220 = linalg.batch_matmul ins(%collapsed_78, %collapsed_79 : tensor<12x64x64xf32>, tensor<12x64x32xf32>) outs(%88 : tensor<12x64x32xf32>) -> tensor<12x64x32xf32>
    %expanded_80 = tensor.expand_shape %220 [[0, 1], [2], [3]] output_shape [1, 12, 64, 32] : tensor<12x64x32xf32> into tensor<1x12x64x32xf32>
    %transposed_81 = linalg.transpose ins(%expanded_80 : tensor<1x12x64x32xf32>) outs(%90 : tensor<1x64x12x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_82 = tensor.collapse_shape %transposed_81 [[0], [1], [2, 3]] : tensor<1x64x12x32xf32> into tensor<1x64x384xf32>
    %221 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg82 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %222 = linalg.batch_matmul ins(%collapsed_82, %221 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %223 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%222, %arg30 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %224 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%223, %199 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %225 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%224 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %226 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%225 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_83 = tensor.collapse_shape %226 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %227 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_83 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %228 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%224, %227 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %229 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%228, %228 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %230 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%229 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %231 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%230 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %232 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%231 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %233 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%232 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_84 = tensor.collapse_shape %233 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %234 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_84 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %235 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%228, %234 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %236 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%235, %arg31 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %237 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%236, %arg32 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %238 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg83 : tensor<384x1536xf32>) outs(%108 : tensor<1x384x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x1536xf32>
    %239 = linalg.batch_matmul ins(%237, %238 : tensor<1x64x384xf32>, tensor<1x384x1536xf32>) outs(%111 : tensor<1x64x1536xf32>) -> tensor<1x64x1536xf32>
    %240 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%239, %arg33 : tensor<1x64x1536xf32>, tensor<1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %241 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%240, %cst_5 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %242 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%241 : tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.erf %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %243 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%242, %cst_6 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %244 = linalg.generic {indexing_maps = [#map15, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_7, %243 : tensor<f32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %245 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%240, %244 : tensor<1x64x1536xf32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %246 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg84 : tensor<1536x384xf32>) outs(%119 : tensor<1x1536x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x1536x384xf32>
    %247 = linalg.batch_matmul ins(%245, %246 : tensor<1x64x1536xf32>, tensor<1x1536x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %248 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%247, %arg34 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %249 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%248, %237 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %250 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%249 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %251 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%250 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_85 = tensor.collapse_shape %251 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %252 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_85 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %253 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%249, %252 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %254 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%253, %253 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %255 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%254 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %256 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%255 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %257 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%256 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %258 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%257 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_86 = tensor.collapse_shape %258 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %259 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_86 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %260 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%253, %259 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %261 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%260, %arg35 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %262 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%261, %arg36 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %263 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg85 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %264 = linalg.batch_matmul ins(%262, %263 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %265 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%264, %arg37 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_87 = tensor.expand_shape %265 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_88 = linalg.transpose ins(%expanded_87 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %266 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg86 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %267 = linalg.batch_matmul ins(%262, %266 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %268 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%267, %arg38 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_89 = tensor.expand_shape %268 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_90 = linalg.transpose ins(%expanded_89 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %269 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg87 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %270 = linalg.batch_matmul ins(%262, %269 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %271 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%270, %arg39 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_91 = tensor.expand_shape %271 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_92 = linalg.transpose ins(%expanded_91 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_93 = tensor.collapse_shape %transposed_90 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %transposed_94 = linalg.transpose ins(%collapsed_93 : tensor<12x64x32xf32>) outs(%62 : tensor<12x32x64xf32>) permutation = [0, 2, 1] 
    %expanded_95 = tensor.expand_shape %transposed_94 [[0, 1], [2], [3]] output_shape [1, 12, 32, 64] : tensor<12x32x64xf32> into tensor<1x12x32x64xf32>
    %272 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_88, %cst_2 : tensor<1x12x64x32xf32>, tensor<f32>) outs(%55 : tensor<1x12x64x32xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x32xf32>
    %273 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_95, %cst_2 : tensor<1x12x32x64xf32>, tensor<f32>) outs(%64 : tensor<1x12x32x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x32x64xf32>
    %collapsed_96 = tensor.collapse_shape %272 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %collapsed_97 = tensor.collapse_shape %273 [[0, 1], [2], [3]] : tensor<1x12x32x64xf32> into tensor<12x32x64xf32>
    %274 = linalg.batch_matmul ins(%collapsed_96, %collapsed_97 : tensor<12x64x32xf32>, tensor<12x32x64xf32>) outs(%69 : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
    %expanded_98 = tensor.expand_shape %274 [[0, 1], [2], [3]] output_shape [1, 12, 64, 64] : tensor<12x64x64xf32> into tensor<1x12x64x64xf32>
    %275 = linalg.generic {indexing_maps = [#map10, #map13, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_98, %67 : tensor<1x12x64x64xf32>, tensor<1x1x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %276:2 = linalg.generic {indexing_maps = [#map10, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%275 : tensor<1x12x64x64xf32>) outs(%76, %74 : tensor<1x12x64xf32>, tensor<1x12x64xi64>) {
    ^bb0(%in: f32, %out: f32, %out_153: i64):
      %452 = linalg.index 3 : index
      %453 = arith.index_cast %452 : index to i64
      %454 = arith.maximumf %in, %out : f32
      %455 = arith.cmpf ogt, %in, %out : f32
      %456 = arith.select %455, %453, %out_153 : i64
      linalg.yield %454, %456 : f32, i64
    } -> (tensor<1x12x64xf32>, tensor<1x12x64xi64>)
    %expanded_99 = tensor.expand_shape %276#0 [[0], [1], [2, 3]] output_shape [1, 12, 64, 1] : tensor<1x12x64xf32> into tensor<1x12x64x1xf32>
    %277 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%275, %expanded_99 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %278 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%277 : tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.exp %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %279 = linalg.generic {indexing_maps = [#map10, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%278 : tensor<1x12x64x64xf32>) outs(%81 : tensor<1x12x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x1xf32>
    %280 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%278, %279 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %281 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%280, %280 : tensor<1x12x64x64xf32>, tensor<1x12x64x64xf32>) outs(%84 : tensor<1x12x64x64xi1>) {
    ^bb0(%in: f32, %in_153: f32, %out: i1):
      %452 = arith.cmpf une, %in, %in_153 : f32
      linalg.yield %452 : i1
    } -> tensor<1x12x64x64xi1>
    %282 = linalg.generic {indexing_maps = [#map10, #map12, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%281, %cst_3, %280 : tensor<1x12x64x64xi1>, tensor<f32>, tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: i1, %in_153: f32, %in_154: f32, %out: f32):
      %452 = arith.select %in, %in_153, %in_154 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %collapsed_100 = tensor.collapse_shape %282 [[0, 1], [2], [3]] : tensor<1x12x64x64xf32> into tensor<12x64x64xf32>
    %collapsed_101 = tensor.collapse_shape %transposed_92 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %283 = linalg.batch_matmul ins(%collapsed_100, %collapsed_101 : tensor<12x64x64xf32>, tensor<12x64x32xf32>) outs(%88 : tensor<12x64x32xf32>) -> tensor<12x64x32xf32>
    %expanded_102 = tensor.expand_shape %283 [[0, 1], [2], [3]] output_shape [1, 12, 64, 32] : tensor<12x64x32xf32> into tensor<1x12x64x32xf32>
    %transposed_103 = linalg.transpose ins(%expanded_102 : tensor<1x12x64x32xf32>) outs(%90 : tensor<1x64x12x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_104 = tensor.collapse_shape %transposed_103 [[0], [1], [2, 3]] : tensor<1x64x12x32xf32> into tensor<1x64x384xf32>
    %284 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg88 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %285 = linalg.batch_matmul ins(%collapsed_104, %284 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %286 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%285, %arg40 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %287 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%286, %262 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %288 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%287 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %289 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%288 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_105 = tensor.collapse_shape %289 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %290 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_105 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %291 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%287, %290 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %292 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%291, %291 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %293 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%292 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %294 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%293 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %295 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%294 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %296 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%295 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_106 = tensor.collapse_shape %296 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %297 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_106 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %298 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%291, %297 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %299 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%298, %arg41 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %300 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%299, %arg42 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %301 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg89 : tensor<384x1536xf32>) outs(%108 : tensor<1x384x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x1536xf32>
    %302 = linalg.batch_matmul ins(%300, %301 : tensor<1x64x384xf32>, tensor<1x384x1536xf32>) outs(%111 : tensor<1x64x1536xf32>) -> tensor<1x64x1536xf32>
    %303 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%302, %arg43 : tensor<1x64x1536xf32>, tensor<1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %304 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%303, %cst_5 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %305 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%304 : tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.erf %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %306 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%305, %cst_6 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %307 = linalg.generic {indexing_maps = [#map15, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_7, %306 : tensor<f32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %308 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%303, %307 : tensor<1x64x1536xf32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %309 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg90 : tensor<1536x384xf32>) outs(%119 : tensor<1x1536x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x1536x384xf32>
    %310 = linalg.batch_matmul ins(%308, %309 : tensor<1x64x1536xf32>, tensor<1x1536x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %311 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%310, %arg44 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %312 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%311, %300 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %313 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%312 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %314 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%313 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_107 = tensor.collapse_shape %314 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %315 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_107 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %316 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%312, %315 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %317 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%316, %316 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %318 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%317 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %319 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%318 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %320 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%319 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %321 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%320 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_108 = tensor.collapse_shape %321 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %322 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_108 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %323 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%316, %322 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %324 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%323, %arg45 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %325 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%324, %arg46 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %326 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg91 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %327 = linalg.batch_matmul ins(%325, %326 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %328 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%327, %arg47 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_109 = tensor.expand_shape %328 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_110 = linalg.transpose ins(%expanded_109 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %329 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg92 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %330 = linalg.batch_matmul ins(%325, %329 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %331 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%330, %arg48 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_111 = tensor.expand_shape %331 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_112 = linalg.transpose ins(%expanded_111 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %332 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg93 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %333 = linalg.batch_matmul ins(%325, %332 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %334 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%333, %arg49 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_113 = tensor.expand_shape %334 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_114 = linalg.transpose ins(%expanded_113 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_115 = tensor.collapse_shape %transposed_112 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %transposed_116 = linalg.transpose ins(%collapsed_115 : tensor<12x64x32xf32>) outs(%62 : tensor<12x32x64xf32>) permutation = [0, 2, 1] 
    %expanded_117 = tensor.expand_shape %transposed_116 [[0, 1], [2], [3]] output_shape [1, 12, 32, 64] : tensor<12x32x64xf32> into tensor<1x12x32x64xf32>
    %335 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_110, %cst_2 : tensor<1x12x64x32xf32>, tensor<f32>) outs(%55 : tensor<1x12x64x32xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x32xf32>
    %336 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_117, %cst_2 : tensor<1x12x32x64xf32>, tensor<f32>) outs(%64 : tensor<1x12x32x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x32x64xf32>
    %collapsed_118 = tensor.collapse_shape %335 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %collapsed_119 = tensor.collapse_shape %336 [[0, 1], [2], [3]] : tensor<1x12x32x64xf32> into tensor<12x32x64xf32>
    %337 = linalg.batch_matmul ins(%collapsed_118, %collapsed_119 : tensor<12x64x32xf32>, tensor<12x32x64xf32>) outs(%69 : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
    %expanded_120 = tensor.expand_shape %337 [[0, 1], [2], [3]] output_shape [1, 12, 64, 64] : tensor<12x64x64xf32> into tensor<1x12x64x64xf32>
    %338 = linalg.generic {indexing_maps = [#map10, #map13, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_120, %67 : tensor<1x12x64x64xf32>, tensor<1x1x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %339:2 = linalg.generic {indexing_maps = [#map10, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%338 : tensor<1x12x64x64xf32>) outs(%76, %74 : tensor<1x12x64xf32>, tensor<1x12x64xi64>) {
    ^bb0(%in: f32, %out: f32, %out_153: i64):
      %452 = linalg.index 3 : index
      %453 = arith.index_cast %452 : index to i64
      %454 = arith.maximumf %in, %out : f32
      %455 = arith.cmpf ogt, %in, %out : f32
      %456 = arith.select %455, %453, %out_153 : i64
      linalg.yield %454, %456 : f32, i64
    } -> (tensor<1x12x64xf32>, tensor<1x12x64xi64>)
    %expanded_121 = tensor.expand_shape %339#0 [[0], [1], [2, 3]] output_shape [1, 12, 64, 1] : tensor<1x12x64xf32> into tensor<1x12x64x1xf32>
    %340 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%338, %expanded_121 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %341 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%340 : tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.exp %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %342 = linalg.generic {indexing_maps = [#map10, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%341 : tensor<1x12x64x64xf32>) outs(%81 : tensor<1x12x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x1xf32>
    %343 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%341, %342 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %344 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%343, %343 : tensor<1x12x64x64xf32>, tensor<1x12x64x64xf32>) outs(%84 : tensor<1x12x64x64xi1>) {
    ^bb0(%in: f32, %in_153: f32, %out: i1):
      %452 = arith.cmpf une, %in, %in_153 : f32
      linalg.yield %452 : i1
    } -> tensor<1x12x64x64xi1>
    %345 = linalg.generic {indexing_maps = [#map10, #map12, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%344, %cst_3, %343 : tensor<1x12x64x64xi1>, tensor<f32>, tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: i1, %in_153: f32, %in_154: f32, %out: f32):
      %452 = arith.select %in, %in_153, %in_154 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %collapsed_122 = tensor.collapse_shape %345 [[0, 1], [2], [3]] : tensor<1x12x64x64xf32> into tensor<12x64x64xf32>
    %collapsed_123 = tensor.collapse_shape %transposed_114 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %346 = linalg.batch_matmul ins(%collapsed_122, %collapsed_123 : tensor<12x64x64xf32>, tensor<12x64x32xf32>) outs(%88 : tensor<12x64x32xf32>) -> tensor<12x64x32xf32>
    %expanded_124 = tensor.expand_shape %346 [[0, 1], [2], [3]] output_shape [1, 12, 64, 32] : tensor<12x64x32xf32> into tensor<1x12x64x32xf32>
    %transposed_125 = linalg.transpose ins(%expanded_124 : tensor<1x12x64x32xf32>) outs(%90 : tensor<1x64x12x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_126 = tensor.collapse_shape %transposed_125 [[0], [1], [2, 3]] : tensor<1x64x12x32xf32> into tensor<1x64x384xf32>
    %347 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg94 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %348 = linalg.batch_matmul ins(%collapsed_126, %347 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %349 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%348, %arg50 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %350 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%349, %325 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %351 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%350 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %352 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%351 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_127 = tensor.collapse_shape %352 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %353 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_127 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %354 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%350, %353 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %355 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%354, %354 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %356 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%355 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %357 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%356 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %358 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%357 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %359 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%358 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_128 = tensor.collapse_shape %359 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %360 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_128 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %361 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%354, %360 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %362 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%361, %arg51 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %363 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%362, %arg52 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %364 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg95 : tensor<384x1536xf32>) outs(%108 : tensor<1x384x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x1536xf32>
    %365 = linalg.batch_matmul ins(%363, %364 : tensor<1x64x384xf32>, tensor<1x384x1536xf32>) outs(%111 : tensor<1x64x1536xf32>) -> tensor<1x64x1536xf32>
    %366 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%365, %arg53 : tensor<1x64x1536xf32>, tensor<1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %367 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%366, %cst_5 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %368 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%367 : tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.erf %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %369 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%368, %cst_6 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %370 = linalg.generic {indexing_maps = [#map15, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_7, %369 : tensor<f32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %371 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%366, %370 : tensor<1x64x1536xf32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %372 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg96 : tensor<1536x384xf32>) outs(%119 : tensor<1x1536x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x1536x384xf32>
    %373 = linalg.batch_matmul ins(%371, %372 : tensor<1x64x1536xf32>, tensor<1x1536x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %374 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%373, %arg54 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %375 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%374, %363 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %376 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%375 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %377 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%376 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_129 = tensor.collapse_shape %377 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %378 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_129 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %379 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%375, %378 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %380 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%379, %379 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %381 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%380 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %382 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%381 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %383 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%382 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %384 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%383 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_130 = tensor.collapse_shape %384 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %385 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_130 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %386 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%379, %385 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %387 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%386, %arg55 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %388 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%387, %arg56 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %389 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg97 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %390 = linalg.batch_matmul ins(%388, %389 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %391 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%390, %arg57 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_131 = tensor.expand_shape %391 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_132 = linalg.transpose ins(%expanded_131 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %392 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg98 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %393 = linalg.batch_matmul ins(%388, %392 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %394 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%393, %arg58 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_133 = tensor.expand_shape %394 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_134 = linalg.transpose ins(%expanded_133 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %395 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg99 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %396 = linalg.batch_matmul ins(%388, %395 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %397 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%396, %arg59 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %expanded_135 = tensor.expand_shape %397 [[0], [1], [2, 3]] output_shape [1, 64, 12, 32] : tensor<1x64x384xf32> into tensor<1x64x12x32xf32>
    %transposed_136 = linalg.transpose ins(%expanded_135 : tensor<1x64x12x32xf32>) outs(%55 : tensor<1x12x64x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_137 = tensor.collapse_shape %transposed_134 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %transposed_138 = linalg.transpose ins(%collapsed_137 : tensor<12x64x32xf32>) outs(%62 : tensor<12x32x64xf32>) permutation = [0, 2, 1] 
    %expanded_139 = tensor.expand_shape %transposed_138 [[0, 1], [2], [3]] output_shape [1, 12, 32, 64] : tensor<12x32x64xf32> into tensor<1x12x32x64xf32>
    %398 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_132, %cst_2 : tensor<1x12x64x32xf32>, tensor<f32>) outs(%55 : tensor<1x12x64x32xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x32xf32>
    %399 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_139, %cst_2 : tensor<1x12x32x64xf32>, tensor<f32>) outs(%64 : tensor<1x12x32x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x32x64xf32>
    %collapsed_140 = tensor.collapse_shape %398 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %collapsed_141 = tensor.collapse_shape %399 [[0, 1], [2], [3]] : tensor<1x12x32x64xf32> into tensor<12x32x64xf32>
    %400 = linalg.batch_matmul ins(%collapsed_140, %collapsed_141 : tensor<12x64x32xf32>, tensor<12x32x64xf32>) outs(%69 : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
    %expanded_142 = tensor.expand_shape %400 [[0, 1], [2], [3]] output_shape [1, 12, 64, 64] : tensor<12x64x64xf32> into tensor<1x12x64x64xf32>
    %401 = linalg.generic {indexing_maps = [#map10, #map13, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_142, %67 : tensor<1x12x64x64xf32>, tensor<1x1x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %402:2 = linalg.generic {indexing_maps = [#map10, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%401 : tensor<1x12x64x64xf32>) outs(%76, %74 : tensor<1x12x64xf32>, tensor<1x12x64xi64>) {
    ^bb0(%in: f32, %out: f32, %out_153: i64):
      %452 = linalg.index 3 : index
      %453 = arith.index_cast %452 : index to i64
      %454 = arith.maximumf %in, %out : f32
      %455 = arith.cmpf ogt, %in, %out : f32
      %456 = arith.select %455, %453, %out_153 : i64
      linalg.yield %454, %456 : f32, i64
    } -> (tensor<1x12x64xf32>, tensor<1x12x64xi64>)
    %expanded_143 = tensor.expand_shape %402#0 [[0], [1], [2, 3]] output_shape [1, 12, 64, 1] : tensor<1x12x64xf32> into tensor<1x12x64x1xf32>
    %403 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%401, %expanded_143 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %404 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%403 : tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.exp %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %405 = linalg.generic {indexing_maps = [#map10, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%404 : tensor<1x12x64x64xf32>) outs(%81 : tensor<1x12x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x1xf32>
    %406 = linalg.generic {indexing_maps = [#map10, #map8, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%404, %405 : tensor<1x12x64x64xf32>, tensor<1x12x64x1xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %407 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%406, %406 : tensor<1x12x64x64xf32>, tensor<1x12x64x64xf32>) outs(%84 : tensor<1x12x64x64xi1>) {
    ^bb0(%in: f32, %in_153: f32, %out: i1):
      %452 = arith.cmpf une, %in, %in_153 : f32
      linalg.yield %452 : i1
    } -> tensor<1x12x64x64xi1>
    %408 = linalg.generic {indexing_maps = [#map10, #map12, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%407, %cst_3, %406 : tensor<1x12x64x64xi1>, tensor<f32>, tensor<1x12x64x64xf32>) outs(%71 : tensor<1x12x64x64xf32>) {
    ^bb0(%in: i1, %in_153: f32, %in_154: f32, %out: f32):
      %452 = arith.select %in, %in_153, %in_154 : f32
      linalg.yield %452 : f32
    } -> tensor<1x12x64x64xf32>
    %collapsed_144 = tensor.collapse_shape %408 [[0, 1], [2], [3]] : tensor<1x12x64x64xf32> into tensor<12x64x64xf32>
    %collapsed_145 = tensor.collapse_shape %transposed_136 [[0, 1], [2], [3]] : tensor<1x12x64x32xf32> into tensor<12x64x32xf32>
    %409 = linalg.batch_matmul ins(%collapsed_144, %collapsed_145 : tensor<12x64x64xf32>, tensor<12x64x32xf32>) outs(%88 : tensor<12x64x32xf32>) -> tensor<12x64x32xf32>
    %expanded_146 = tensor.expand_shape %409 [[0, 1], [2], [3]] output_shape [1, 12, 64, 32] : tensor<12x64x32xf32> into tensor<1x12x64x32xf32>
    %transposed_147 = linalg.transpose ins(%expanded_146 : tensor<1x12x64x32xf32>) outs(%90 : tensor<1x64x12x32xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_148 = tensor.collapse_shape %transposed_147 [[0], [1], [2, 3]] : tensor<1x64x12x32xf32> into tensor<1x64x384xf32>
    %410 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg100 : tensor<384x384xf32>) outs(%50 : tensor<1x384x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x384xf32>
    %411 = linalg.batch_matmul ins(%collapsed_148, %410 : tensor<1x64x384xf32>, tensor<1x384x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %412 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%411, %arg60 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %413 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%412, %388 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %414 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%413 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %415 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%414 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_149 = tensor.collapse_shape %415 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %416 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_149 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %417 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%413, %416 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %418 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%417, %417 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %419 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%418 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %420 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%419 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %421 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%420 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %422 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%421 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_150 = tensor.collapse_shape %422 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %423 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_150 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %424 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%417, %423 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %425 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%424, %arg61 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %426 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%425, %arg62 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %427 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg101 : tensor<384x1536xf32>) outs(%108 : tensor<1x384x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x384x1536xf32>
    %428 = linalg.batch_matmul ins(%426, %427 : tensor<1x64x384xf32>, tensor<1x384x1536xf32>) outs(%111 : tensor<1x64x1536xf32>) -> tensor<1x64x1536xf32>
    %429 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%428, %arg63 : tensor<1x64x1536xf32>, tensor<1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %430 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%429, %cst_5 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.divf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %431 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%430 : tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.erf %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %432 = linalg.generic {indexing_maps = [#map2, #map15, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%431, %cst_6 : tensor<1x64x1536xf32>, tensor<f32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %433 = linalg.generic {indexing_maps = [#map15, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_7, %432 : tensor<f32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %434 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%429, %433 : tensor<1x64x1536xf32>, tensor<1x64x1536xf32>) outs(%110 : tensor<1x64x1536xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1536xf32>
    %435 = linalg.generic {indexing_maps = [#map11, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg102 : tensor<1536x384xf32>) outs(%119 : tensor<1x1536x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x1536x384xf32>
    %436 = linalg.batch_matmul ins(%434, %435 : tensor<1x64x1536xf32>, tensor<1x1536x384xf32>) outs(%52 : tensor<1x64x384xf32>) -> tensor<1x64x384xf32>
    %437 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%436, %arg64 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %438 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%437, %426 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %439 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%438 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %440 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%439 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_151 = tensor.collapse_shape %440 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %441 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_151 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %442 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%438, %441 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.subf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %443 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%442, %442 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %444 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%443 : tensor<1x64x384xf32>) outs(%21 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %out : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %445 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%444 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.divf %in, %cst_8 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %446 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%445 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = arith.addf %in, %cst_9 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %447 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%446 : tensor<1x64x1xf32>) outs(%20 : tensor<1x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %452 = math.rsqrt %in : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x1xf32>
    %collapsed_152 = tensor.collapse_shape %447 [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
    %448 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_152 : tensor<1x64xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x384xf32>
    %449 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%442, %448 : tensor<1x64x384xf32>, tensor<1x64x384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %450 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%449, %arg65 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.mulf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    %451 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%450, %arg66 : tensor<1x64x384xf32>, tensor<384xf32>) outs(%16 : tensor<1x64x384xf32>) {
    ^bb0(%in: f32, %in_153: f32, %out: f32):
      %452 = arith.addf %in, %in_153 : f32
      linalg.yield %452 : f32
    } -> tensor<1x64x384xf32>
    return %451 : tensor<1x64x384xf32>
  }
}

