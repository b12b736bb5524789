// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of TVM 0.19's nn.dilate, nn.cross_entropy(_with_logits) and nn.nll_loss (NNLoss.cpp).

// CHECK-LABEL: func.func @dilate
func.func @dilate(%x: tensor<?x3xf32>) -> tensor<?x5xf32> {
  // CHECK: %[[F:.+]] = linalg.fill ins(%cst : f32)
  // CHECK: tensor.insert_slice %arg0 into %[[F]][0, 0] [%{{.+}}, 3] [2, 2] : tensor<?x3xf32> into tensor<?x5xf32>
  %0 = relay.nn.dilate %x {strides = array<i64: 2, 2>, dilation_value = 0.5 : f64} : (tensor<?x3xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// CHECK-LABEL: func.func @cross_entropy
func.func @cross_entropy(%p: tensor<4x3xf32>, %t: tensor<4x3xf32>) -> tensor<f32> {
  // -mean over the batch of the row sums of log(x) * y.
  // CHECK: math.log
  // CHECK: arith.mulf
  // CHECK: linalg.reduce
  // CHECK: linalg.reduce
  // CHECK: arith.divf
  // CHECK: arith.negf
  %0 = relay.nn.cross_entropy %p, %t : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @cross_entropy_with_logits
func.func @cross_entropy_with_logits(%p: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
  // CHECK-NOT: math.log
  // CHECK: arith.mulf
  // CHECK: linalg.reduce
  // CHECK: linalg.reduce
  // CHECK: arith.divf
  // CHECK: arith.negf
  %0 = relay.nn.cross_entropy_with_logits %p, %t : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @nll_loss
func.func @nll_loss(%p: tensor<2x5x3xf32>, %t: tensor<2x3xi32>, %w: tensor<5xf32>) -> tensor<f32> {
  // The weighted losses, their sum, the counted weights, their sum, the quotient.
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%arg1 : tensor<2x3xi32>)
  // CHECK:   arith.cmpi ne, %in, %c-100_i32
  // CHECK:   tensor.extract %arg2
  // CHECK:   tensor.extract %arg0
  // CHECK:   arith.negf
  // CHECK: linalg.reduce
  // CHECK: linalg.generic
  // CHECK: linalg.reduce
  // CHECK: arith.divf
  %0 = relay.nn.nll_loss %p, %t, %w : (tensor<2x5x3xf32>, tensor<2x3xi32>, tensor<5xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
