// RUN: relay-mlir-opt %s -relay-fast-math | FileCheck %s

// exp, tanh and erf become their fast operators on the same operand.
// CHECK-LABEL: func.func @rewrites(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xf32>
// CHECK-NEXT:    %[[E:.*]] = relay.fast_exp %[[X]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[T:.*]] = relay.fast_tanh %[[E]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.fast_erf %[[T]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[R]]
func.func @rewrites(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = relay.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = relay.tanh %e : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = relay.erf %t : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// Every float type, ? dims, and inside an if branch and a closure.
// CHECK-LABEL: func.func @nested(
// CHECK:         relay.fast_exp %{{.*}} : (tensor<?xf16>) -> tensor<?xf16>
// CHECK:         relay.fn
// CHECK:           relay.fast_erf %{{.*}} : (tensor<4xf64>) -> tensor<4xf64>
// CHECK:         relay.if
// CHECK:           relay.fast_tanh %{{.*}} : (tensor<?xf16>) -> tensor<?xf16>
// CHECK-NOT:     relay.exp
// CHECK-NOT:     relay.tanh
// CHECK-NOT:     relay.erf
func.func @nested(%h: tensor<?xf16>, %c: tensor<i1>) -> tuple<tensor<?xf16>, !relay.fn<(tensor<4xf64>) -> tensor<4xf64>>> {
  %e = relay.exp %h : (tensor<?xf16>) -> tensor<?xf16>
  %f = relay.fn : !relay.fn<(tensor<4xf64>) -> tensor<4xf64>> {
  ^bb0(%a: tensor<4xf64>):
    %r = relay.erf %a : (tensor<4xf64>) -> tensor<4xf64>
    relay.yield %r : tensor<4xf64>
  }
  %b = relay.if %c : tensor<i1> -> tensor<?xf16> {
    %t = relay.tanh %e : (tensor<?xf16>) -> tensor<?xf16>
    relay.yield %t : tensor<?xf16>
  } else {
    relay.yield %e : tensor<?xf16>
  }
  %t = relay.tuple %b, %f : (tensor<?xf16>, !relay.fn<(tensor<4xf64>) -> tensor<4xf64>>) -> tuple<tensor<?xf16>, !relay.fn<(tensor<4xf64>) -> tensor<4xf64>>>
  return %t : tuple<tensor<?xf16>, !relay.fn<(tensor<4xf64>) -> tensor<4xf64>>>
}

// What stays: softmax (TVM's nn.fast_softmax is not a relay-mlir operator),
// sigmoid, log, the fast operators themselves.
// CHECK-LABEL: func.func @unchanged(
// CHECK-NEXT:    relay.nn.softmax
// CHECK-NEXT:    relay.sigmoid
// CHECK-NEXT:    relay.log
// CHECK-NEXT:    relay.fast_exp
// CHECK-NEXT:    return
func.func @unchanged(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = relay.nn.softmax %x {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %g = relay.sigmoid %s : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = relay.log %g : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = relay.fast_exp %l : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %e : tensor<2x3xf32>
}
