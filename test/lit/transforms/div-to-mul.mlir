// RUN: relay-mlir-opt %s -relay-div-to-mul | FileCheck %s

// A scalar float32 divisor.
// CHECK-LABEL: func.func @scalar(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT:    %[[Y:.*]] = relay.multiply %[[X]], %[[R]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @scalar(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<4.0> : tensor<f32>
  %y = relay.divide %x, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// A vector divisor: every element inverted (TVM 0.19 inverts element 0 only:
// [0.5, 0, 0] here).
// CHECK-LABEL: func.func @vector(
// CHECK:         %[[R:.*]] = relay.constant dense<[5.000000e-01, 2.500000e-01, 1.250000e-01]> : tensor<3xf32>
// CHECK-NEXT:    relay.multiply %{{.*}}, %[[R]]
// CHECK-NOT:     relay.divide
func.func @vector(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<[2.0, 4.0, 8.0]> : tensor<3xf32>
  %y = relay.divide %x, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// float16 and float64, rounded in their own type; a divisor broadcast to a
// larger result.
// CHECK-LABEL: func.func @widths(
// CHECK-DAG:     relay.constant dense<3.332520e-01> : tensor<f16>
// CHECK-DAG:     relay.constant dense<0.33333333333333331> : tensor<f64>
// CHECK-DAG:     relay.constant dense<5.000000e-01> : tensor<2x2xf32>
// CHECK-NOT:     relay.divide
func.func @widths(%h: tensor<2xf16>, %d: tensor<2xf64>, %s: tensor<f32>) -> tuple<tensor<2xf16>, tensor<2xf64>, tensor<2x2xf32>> {
  %ch = relay.constant dense<3.0> : tensor<f16>
  %yh = relay.divide %h, %ch : (tensor<2xf16>, tensor<f16>) -> tensor<2xf16>
  %cd = relay.constant dense<3.0> : tensor<f64>
  %yd = relay.divide %d, %cd : (tensor<2xf64>, tensor<f64>) -> tensor<2xf64>
  %cs = relay.constant dense<2.0> : tensor<2x2xf32>
  %ys = relay.divide %s, %cs : (tensor<f32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = relay.tuple %yh, %yd, %ys : (tensor<2xf16>, tensor<2xf64>, tensor<2x2xf32>) -> tuple<tensor<2xf16>, tensor<2xf64>, tensor<2x2xf32>>
  return %t : tuple<tensor<2xf16>, tensor<2xf64>, tensor<2x2xf32>>
}

// Inside a closure too.
// CHECK-LABEL: func.func @nested(
// CHECK:         relay.fn
// CHECK:           relay.multiply
// CHECK-NOT:       relay.divide
func.func @nested(%x: tensor<3xf32>) -> !relay.fn<(tensor<3xf32>) -> tensor<3xf32>> {
  %f = relay.fn : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>> {
  ^bb0(%p: tensor<3xf32>):
    %c = relay.constant dense<8.0> : tensor<f32>
    %y = relay.divide %p, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    relay.yield %y : tensor<3xf32>
  }
  return %f : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>
}
