// The fewest-dispatch llvm-cpu pipeline on minilm_l6 as torch-mlir writes it (test/data): per
// layer, Q, K and V one three-result region, the attention one region with its NaN guard and
// the guard's reduction of V inside and IREE's CPU config (dispatch-attention-cpu-tiles), no
// softmax left; 45 regions in all (dispatch-creation-llvm-cpu: 87, IREE default: 101).
// RUN: fusion-opt %data/models/minilm_l6/minilm_l6.args.linalg.mlir -p dispatch-creation-llvm-cpu-fewest -o %t.mlir
// RUN: filecheck %s --input-file %t.mlir
// RUN: grep -c "flow.dispatch.region" %t.mlir | filecheck %s --check-prefix=COUNT
// RUN: not grep -q "math.exp\|linalg.transpose\|flow.dispatch.region -> (tensor<12x32xf32>)" %t.mlir
// COUNT: 45

// CHECK-LABEL: func.func @main_graph
// CHECK-COUNT-6: flow.dispatch.region -> (tensor<1x64x384xf32>, tensor<1x64x384xf32>, tensor<1x64x384xf32>)
// The last layer's attention region: the reduction of V, the op with its CPU tile, the guard.
// CHECK:         flow.dispatch.region -> (tensor<64x12x32xf32>)
// CHECK:           iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           iree_linalg_ext.attention {{.*}}compilation_info = #iree_codegen.compilation_info
// CHECK:           arith.cmpf une
// CHECK:           flow.return
