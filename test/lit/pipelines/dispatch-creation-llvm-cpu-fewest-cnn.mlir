// The fewest-dispatch llvm-cpu pipeline on squeezenet1_1 as torch-mlir writes it (test/data):
// convs stay NCHW (no filter transposes), the strided stem is a patch gather + a matmul that
// writes the max pool's padded input, each fire module's squeeze 1x1 conv writes its flat
// result and the padded image its expand 3x3 conv reads (no copies), the two expand convs of
// the fire modules in front of a max pool store into the pool's padded buffer (no copies),
// and the stride-1 convs stay convs (no pixel count is a power of two: IREE cannot build the
// im2col op there); 31 regions (IREE: 31 dispatches from it, 40 from the input).
// RUN: fusion-opt %data/models/cnn/squeezenet1_1/squeezenet1_1.args.linalg.mlir -p dispatch-creation-llvm-cpu-fewest -o %t.mlir
// RUN: filecheck %s --input-file %t.mlir
// RUN: filecheck %s --input-file %t.mlir --check-prefix=CONCAT
// RUN: grep -c "flow.dispatch.region" %t.mlir | filecheck %s --check-prefix=COUNT
// RUN: grep -c "tensor.insert_slice" %t.mlir | filecheck %s --check-prefix=PADS
// RUN: not grep -q "linalg.transpose\|conv_2d_nhwc\|iree_linalg_ext.im2col" %t.mlir
// COUNT: 31
// PADS: 13

// CHECK-LABEL: func.func @main_graph
// CHECK:         flow.dispatch.region -> (tensor<3x3x3x31x31xf32>)
// CHECK:         %[[S:.*]] = flow.tensor.splat %{{.*}} : tensor<1x64x33x33xf32>
// CHECK:         flow.dispatch.region -> (tensor<1x64x33x33xf32>)
// CHECK:           tensor.insert_slice %{{.*}} into %[[S]][0, 0, 0, 0] [1, 64, 31, 31]
// CHECK:         linalg.pooling_nchw_max
// CHECK-COUNT-8: flow.dispatch.region -> (tensor<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<1x{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xf32>)
// CHECK-NOT:     flow.dispatch.region -> (tensor<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<1x

// CONCAT-LABEL: func.func @main_graph
// CONCAT:         %[[B:.*]] = flow.tensor.splat %{{.*}} : tensor<1x128x17x17xf32>
// CONCAT:         %[[E1:.*]] = flow.dispatch.region -> (tensor<1x128x17x17xf32>)
// CONCAT:           tensor.insert_slice %{{.*}} into %[[B]][0, 0, 0, 0] [1, 64, 15, 15]
// CONCAT:         %[[E3:.*]] = flow.dispatch.region -> (tensor<1x128x17x17xf32>)
// CONCAT:           tensor.insert_slice %{{.*}} into %[[E1]][0, 64, 0, 0] [1, 64, 15, 15]
// CONCAT:         linalg.pooling_nchw_max {{.*}} ins(%[[E3]],
// CONCAT:         flow.dispatch.region -> (tensor<1x256x9x9xf32>)
// CONCAT:         flow.dispatch.region -> (tensor<1x256x9x9xf32>)
// CONCAT-NOT:     tensor.pad
