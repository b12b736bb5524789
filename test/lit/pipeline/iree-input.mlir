// RUN: relay-mlir-opt %s "-relay-to-iree-input=convert-layout=false" | FileCheck %s

// (convert-layout=false keeps the NCHW lowering this test checks; the NHWC
// default is tested in test/lit/transforms/convert-layout-resnet.mlir.)

// A small CNN: conv → batch_norm → relu → max_pool → global_avg_pool →
// flatten → dense → bias_add → softmax. Only linalg/tensor/arith/math
// remain; named ops stay named; batch_norm's constant parameters fold into
// one scale and one shift.

// CHECK-LABEL: func.func @cnn
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x16x16xf32>, %[[W:.+]]: tensor<8x3x3x3xf32>) -> tensor<1x10xf32>
// CHECK-NOT: relay.
// CHECK-DAG: %[[SCALE:.+]] = arith.constant dense<[0.99{{.+}}> : tensor<8xf32>
// CHECK-DAG: %[[SHIFT:.+]] = arith.constant dense<[-9.9{{.+}}> : tensor<8xf32>
// CHECK-DAG: %[[DW:.+]] = arith.constant dense<{{.+}}> : tensor<10x8xf32>
// CHECK-DAG: %[[DB:.+]] = arith.constant dense<{{.+}}> : tensor<10xf32>
// CHECK: %[[P:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[C:.+]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %[[W]] : tensor<1x3x18x18xf32>, tensor<8x3x3x3xf32>)
// CHECK: %[[BN:.+]] = linalg.generic {{.*}} ins(%[[C]], %[[SCALE]], %[[SHIFT]] :
// CHECK: %[[RELU:.+]] = linalg.generic {{.*}} ins(%[[BN]] :
// CHECK:   arith.maximumf
// CHECK: %[[MP:.+]] = linalg.pooling_nchw_max {{.*}} ins(%[[RELU]], %{{.+}} : tensor<1x8x16x16xf32>, tensor<2x2xf32>) outs(%{{.+}} : tensor<1x8x8x8xf32>)
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[MP]] : tensor<1x8x8x8xf32>) outs(%{{.+}} : tensor<1x8xf32>) dimensions = [2, 3]
// CHECK: %[[GAP:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x8xf32>)
// CHECK:   arith.divf
// CHECK: %[[MM:.+]] = linalg.matmul indexing_maps = [{{.+}}] ins(%[[GAP]], %[[DW]] : tensor<1x8xf32>, tensor<10x8xf32>)
// CHECK: %[[BIAS:.+]] = linalg.generic {{.*}} ins(%[[MM]], %[[DB]] : tensor<1x10xf32>, tensor<10xf32>)
// CHECK: %[[MAX:.+]] = linalg.reduce ins(%[[BIAS]] : tensor<1x10xf32>)
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}} ins(%[[BIAS]], %[[MAX]] : tensor<1x10xf32>, tensor<1xf32>)
// CHECK:   math.exp
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[EXP]] : tensor<1x10xf32>)
// CHECK: %[[SM:.+]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<1x10xf32>, tensor<1xf32>)
// CHECK:   arith.divf
// CHECK: return %[[SM]] : tensor<1x10xf32>
func.func @cnn(%x: tensor<1x3x16x16xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x10xf32> {
  %gamma = relay.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.25, 1.0, 3.0]> : tensor<8xf32>
  %beta = relay.constant dense<[0.0, 0.1, -0.1, 0.2, 0.0, 0.3, -0.2, 0.0]> : tensor<8xf32>
  %mean = relay.constant dense<[0.1, 0.0, 0.2, -0.1, 0.0, 0.5, 0.0, 0.1]> : tensor<8xf32>
  %var = relay.constant dense<[1.0, 2.0, 0.5, 1.0, 4.0, 1.0, 0.25, 1.0]> : tensor<8xf32>
  %dw = relay.constant dense<0.125> : tensor<10x8xf32>
  %db = relay.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<10xf32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, channels = 8 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x16x16xf32>
  %bn = relay.nn.batch_norm %0, %gamma, %beta, %mean, %var : (tensor<1x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>>
  %1 = relay.tuple_get_item %bn[0] : (tuple<tensor<1x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<1x8x16x16xf32>
  %2 = relay.nn.relu %1 : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %3 = relay.nn.max_pool2d %2 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
  %4 = relay.nn.global_avg_pool2d %3 : (tensor<1x8x8x8xf32>) -> tensor<1x8x1x1xf32>
  %5 = relay.nn.batch_flatten %4 : (tensor<1x8x1x1xf32>) -> tensor<1x8xf32>
  %6 = relay.nn.dense %5, %dw {units = 10 : i64} : (tensor<1x8xf32>, tensor<10x8xf32>) -> tensor<1x10xf32>
  %7 = relay.nn.bias_add %6, %db : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %8 = relay.nn.softmax %7 : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %8 : tensor<1x10xf32>
}
