// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(relay-opt-pipeline{opt-level=3})' | FileCheck %s
// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(relay-opt-pipeline{opt-level=1})' | FileCheck %s --check-prefix=O1
// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(relay-opt-pipeline{opt-level=1 qnn-legalize=int16})' | FileCheck %s --check-prefix=INT16
// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(relay-opt-pipeline{opt-level=0 qnn-legalize=int16})' | FileCheck %s --check-prefix=O0
// RUN: not relay-mlir-opt %s --pass-pipeline='builtin.module(relay-opt-pipeline{qnn-legalize=int8})' 2>&1 | FileCheck %s --check-prefix=BAD

// relay.build's optimizer at opt level 3: batch_norm after a convolution is
// decomposed (SimplifyInference), its scale folded into the weights
// (FoldScaleAxis) and the arithmetic on constants computed (FoldConstant);
// at opt level 1 only the decomposition runs.
// CHECK-LABEL: func.func @conv_bn
// CHECK-NOT:     relay.nn.batch_norm
// CHECK-NOT:     relay.multiply
// CHECK:         relay.nn.conv2d
// O1-LABEL: func.func @conv_bn
// O1-NOT:     relay.nn.batch_norm
// O1:         relay.multiply
func.func @conv_bn(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = relay.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %g = relay.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %b = relay.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %m = relay.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %v = relay.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %bn = relay.nn.batch_norm %c, %g, %b, %m, %v : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  %r = relay.tuple_get_item %bn[0] : (tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}

// qnn.Legalize (opt level 1) rewrites as under a tvm Target: with
// qnn-legalize=int16 (an x86 target without sse4.2) the qnn.dense becomes an
// nn.dense of int16 operands minus their zero points; by default (no CPU
// target) and at opt level 0 it stays. An unknown form is refused by the
// option parser.
// CHECK-LABEL: func.func @qnn_dense
// CHECK:         relay.qnn.dense
// INT16-LABEL: func.func @qnn_dense
// INT16-NOT:     relay.qnn.dense
// INT16:         relay.nn.dense {{.*}} : (tensor<2x8xi16>, tensor<4x8xi16>) -> tensor<2x4xi32>
// O0-LABEL: func.func @qnn_dense
// O0:         relay.qnn.dense
// BAD: qnn-legalize
func.func @qnn_dense(%x: tensor<2x8xi8>, %w: tensor<4x8xi8>) -> tensor<2x4xi32> {
  %zx = relay.constant dense<1> : tensor<i32>
  %zw = relay.constant dense<2> : tensor<i32>
  %s = relay.constant dense<0.5> : tensor<f32>
  %y = relay.qnn.dense %x, %w, %zx, %zw, %s, %s {units = 4 : i64} : (tensor<2x8xi8>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
  return %y : tensor<2x4xi32>
}
