// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// A loop as a recursive function: the result type flows through the
// recursive call (a shared signature variable) and relay.if.
// CHECK-LABEL: func.func @loop(%{{.*}}: tensor<i1>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>>
func.func @loop(%go: tensor<i1>, %acc: tensor<4xf32>, %i: tensor<f32>) -> !relay.incomplete {
  // CHECK: relay.if %{{.*}} : tensor<i1> -> tuple<tensor<4xf32>, tensor<f32>>
  %r = relay.if %go : tensor<i1> -> !relay.incomplete {
    %acc2 = relay.add %acc, %i : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    // CHECK: call @loop({{.*}}) : (tensor<i1>, tensor<4xf32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>>
    %rec = func.call @loop(%go, %acc2, %i) : (tensor<i1>, tensor<4xf32>, tensor<f32>) -> !relay.incomplete
    relay.yield %rec : !relay.incomplete
  } else {
    %t = relay.tuple %acc, %i : (tensor<4xf32>, tensor<f32>) -> !relay.incomplete
    relay.yield %t : !relay.incomplete
  }
  return %r : !relay.incomplete
}

// The recursive call's result is consumed by a relation before the base
// case is seen.
// CHECK-LABEL: func.func @countdown(%{{.*}}: tensor<i1>, %{{.*}}: tensor<2x2xi32>) -> tensor<2x2xi32>
func.func @countdown(%c: tensor<i1>, %x: tensor<2x2xi32>) -> !relay.incomplete {
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    %rec = func.call @countdown(%c, %x) : (tensor<i1>, tensor<2x2xi32>) -> !relay.incomplete
    // CHECK: relay.negative {{.*}} : (tensor<2x2xi32>) -> tensor<2x2xi32>
    %n = relay.negative %rec : (!relay.incomplete) -> !relay.incomplete
    relay.yield %n : !relay.incomplete
  } else {
    relay.yield %x : tensor<2x2xi32>
  }
  return %r : !relay.incomplete
}

// Mutual recursion: even/odd share their result types through the calls.
// CHECK-LABEL: func.func @even(%{{.*}}: tensor<i1>, %{{.*}}: tensor<3xf32>) -> tensor<3xf32>
func.func @even(%c: tensor<i1>, %x: tensor<3xf32>) -> !relay.incomplete {
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    // CHECK: call @odd({{.*}}) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
    %o = func.call @odd(%c, %x) : (tensor<i1>, tensor<3xf32>) -> !relay.incomplete
    relay.yield %o : !relay.incomplete
  } else {
    relay.yield %x : tensor<3xf32>
  }
  return %r : !relay.incomplete
}

// CHECK-LABEL: func.func @odd(%{{.*}}: tensor<i1>, %{{.*}}: tensor<3xf32>) -> tensor<3xf32>
func.func @odd(%c: tensor<i1>, %x: tensor<3xf32>) -> !relay.incomplete {
  %e = func.call @even(%c, %x) : (tensor<i1>, tensor<3xf32>) -> !relay.incomplete
  // CHECK: relay.exp {{.*}} : (tensor<3xf32>) -> tensor<3xf32>
  %y = relay.exp %e : (!relay.incomplete) -> !relay.incomplete
  return %y : !relay.incomplete
}

// A recursive closure-free function whose parameter is a function value,
// known only from its caller.
// CHECK-LABEL: func.func @iterate(%{{.*}}: tensor<i1>, %{{.*}}: !relay.fn<(tensor<f32>) -> tensor<f32>>, %{{.*}}: tensor<f32>) -> tensor<f32>
func.func @iterate(%c: tensor<i1>, %f: !relay.incomplete, %x: tensor<f32>) -> !relay.incomplete {
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    %y = relay.call %f(%x) : (!relay.incomplete, tensor<f32>) -> tensor<f32>
    %z = func.call @iterate(%c, %f, %y) : (tensor<i1>, !relay.incomplete, tensor<f32>) -> !relay.incomplete
    relay.yield %z : !relay.incomplete
  } else {
    relay.yield %x : tensor<f32>
  }
  return %r : !relay.incomplete
}
