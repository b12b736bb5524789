// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// The examples of Relay's reshape documentation, one per newshape code.
// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<2x3x4xf32>, %x4: tensor<2x3x4x5xf32>) {
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: 4, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %0 = relay.reshape %x {newshape = array<i64: 4, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<2x3x4xf32>
  %1 = relay.reshape %x {newshape = array<i64: 2, 0, 0>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<6x1x4xf32>
  %2 = relay.reshape %x {newshape = array<i64: 6, 1, -1>} : (tensor<2x3x4xf32>) -> tensor<6x1x4xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<3x1x8xf32>
  %3 = relay.reshape %x {newshape = array<i64: 3, -1, 8>} : (tensor<2x3x4xf32>) -> tensor<3x1x8xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<24xf32>
  %4 = relay.reshape %x {newshape = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<2x3x4xf32>
  %5 = relay.reshape %x {newshape = array<i64: -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<2x3x4xf32>
  %6 = relay.reshape %x {newshape = array<i64: 2, -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<2x3x4x1x1xf32>
  %7 = relay.reshape %x {newshape = array<i64: -2, 1, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1x1xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<6x4xf32>
  %8 = relay.reshape %x {newshape = array<i64: -3, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<6x20xf32>
  %9 = relay.reshape %x4 {newshape = array<i64: -3, -3>} : (tensor<2x3x4x5xf32>) -> tensor<6x20xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<2x12xf32>
  %10 = relay.reshape %x {newshape = array<i64: 0, -3>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<6x4xf32>
  %11 = relay.reshape %x {newshape = array<i64: -3, -2>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<1x2x3x4xf32>
  %12 = relay.reshape %x {newshape = array<i64: -4, 1, 2, -2>} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<2x1x3x4xf32>
  %13 = relay.reshape %x {newshape = array<i64: 2, -4, -1, 3, -2>} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
  // CHECK: relay.reshape {{.*}} -> tensor<2x2x3x2xf32>
  %14 = relay.reshape %x {newshape = array<i64: 0, 2, -1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x2x3x2xf32>
  return
}

// CHECK-LABEL: func.func @reshape_dynamic
func.func @reshape_dynamic(%x: tensor<?x3x4xf32>, %y: tensor<2x?x4xf32>, %e: tensor<0x4xf32>) {
  // A copied `?` stays `?`; -1 over static dims is static.
  // CHECK: relay.reshape {{.*}} -> tensor<?x12xf32>
  %0 = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  // -1 over a `?` dim is `?`.
  // CHECK: relay.reshape {{.*}} -> tensor<?x4xf32>
  %1 = relay.reshape %x {newshape = array<i64: -1, 4>} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
  // -3 with a `?` is `?`.
  // CHECK: relay.reshape {{.*}} -> tensor<?x4xf32>
  %2 = relay.reshape %y {newshape = array<i64: -3, -2>} : (tensor<2x?x4xf32>) -> tensor<?x4xf32>
  // -4 of a `?` dim with -1 is `?`.
  // CHECK: relay.reshape {{.*}} -> tensor<2x?x2x4xf32>
  %3 = relay.reshape %y {newshape = array<i64: 2, -4, -1, 2, 0>} : (tensor<2x?x4xf32>) -> tensor<2x?x2x4xf32>
  // Static codes are kept even where the input has `?` (the element count is then unchecked).
  // CHECK: relay.reshape {{.*}} -> tensor<6x4xf32>
  %4 = relay.reshape %x {newshape = array<i64: 6, 4>} : (tensor<?x3x4xf32>) -> tensor<6x4xf32>
  // allowzero: 0 is a literal 0-sized dim.
  // CHECK: relay.reshape %{{.*}} {allowzero = true, newshape = array<i64: 4, 0>} : (tensor<0x4xf32>) -> tensor<4x0xf32>
  %5 = relay.reshape %e {newshape = array<i64: 4, 0>, allowzero = true} : (tensor<0x4xf32>) -> tensor<4x0xf32>
  return
}

// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3x4xf32>, %xd: tensor<?x3x?xf32>) {
  // CHECK: relay.transpose %{{.*}} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %0 = relay.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  // CHECK: relay.transpose %{{.*}} {axes = array<i64>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %1 = relay.transpose %x {axes = array<i64>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  // CHECK: relay.transpose %{{.*}} {axes = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %2 = relay.transpose %x {axes = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  // CHECK: relay.transpose %{{.*}} {axes = array<i64: -1, 0, -2>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %3 = relay.transpose %x {axes = array<i64: -1, 0, -2>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: relay.transpose %{{.*}} {axes = array<i64: 2, 0, 1>} : (tensor<?x3x?xf32>) -> tensor<?x?x3xf32>
  %4 = relay.transpose %xd {axes = array<i64: 2, 0, 1>} : (tensor<?x3x?xf32>) -> tensor<?x?x3xf32>
  return
}

// CHECK-LABEL: func.func @concatenate
func.func @concatenate(%a: tensor<1x2xf32>, %b: tensor<1x3xf32>, %c: tensor<?x4xf32>, %d: tensor<1x?xf32>) {
  // CHECK: relay.concatenate %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
  %0 = relay.concatenate %a, %b {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
  // CHECK: relay.concatenate %{{.*}}, %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<1x2xf32>, tensor<1x3xf32>, tensor<1x2xf32>) -> tensor<1x7xf32>
  %1 = relay.concatenate %a, %b, %a {axis = -1 : i64} : (tensor<1x2xf32>, tensor<1x3xf32>, tensor<1x2xf32>) -> tensor<1x7xf32>
  // CHECK: relay.concatenate %{{.*}}, %{{.*}} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %2 = relay.concatenate %a, %a : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  // A `?` non-axis dim unifies with a static one.
  // CHECK: relay.concatenate {{.*}} -> tensor<1x6xf32>
  %3 = relay.concatenate %a, %c {axis = 1 : i64} : (tensor<1x2xf32>, tensor<?x4xf32>) -> tensor<1x6xf32>
  // A `?` axis dim makes the sum `?`.
  // CHECK: relay.concatenate {{.*}} -> tensor<1x?xf32>
  %4 = relay.concatenate %a, %d {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x?xf32>) -> tensor<1x?xf32>
  // One operand.
  // CHECK: relay.concatenate %{{.*}} {axis = 1 : i64} : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %5 = relay.concatenate %a {axis = 1 : i64} : (tensor<1x2xf32>) -> tensor<1x2xf32>
  return
}
