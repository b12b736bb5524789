// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(relay-opt-pipeline{opt-level=3})' | FileCheck %s
// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(relay-opt-pipeline{opt-level=1})' | FileCheck %s --check-prefix=O1

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
