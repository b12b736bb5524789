// RUN: relay-mlir-opt %s --allow-unregistered-dialect "-relay-to-iree-input=convert-layout=false" | FileCheck %s

// relay.grad goes through the whole pipeline: the gradient function of a
// dense layer with a relu and a sum is linalg (a matmul for the weight
// adjoint, a reduction for the bias), and main calls it directly (no
// function value, so nothing to defunctionalize: no util.list, no @apply).
// CHECK-LABEL: func.func @loss$grad$wrt_1_2(
// CHECK-SAME:    -> (tensor<f32>, tensor<4x3xf32>, tensor<4xf32>)
// CHECK-NOT:     relay.
// CHECK:         linalg.matmul
// CHECK:         return
// CHECK-LABEL: func.func @main(
// CHECK-NEXT:    call @loss$grad$wrt_1_2$body(
// CHECK-NOT:     util.list
// CHECK-NOT:     @apply
func.func @loss(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %h = relay.nn.dense %x, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %hb = relay.add %h, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %r = relay.nn.relu %hb : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = relay.sum %r : (tensor<2x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) -> !relay.incomplete {
  %f = relay.global_fn @loss : !relay.fn<(tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<f32>>
  %g = relay.grad %f {wrt = array<i64: 1, 2>} : (!relay.fn<(tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<f32>>) -> !relay.incomplete
  %r = relay.call %g(%x, %w, %b) : (!relay.incomplete, tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> !relay.incomplete
  return %r : !relay.incomplete
}
