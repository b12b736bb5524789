// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// CHECK-LABEL: func.func @chain(%{{.*}}: tensor<4x1xf32>, %{{.*}}: tensor<3xf32>) -> tensor<4x3xf32>
func.func @chain(%a: tensor<4x1xf32>, %b: tensor<3xf32>) -> !relay.incomplete {
  // CHECK: relay.add {{.*}} -> tensor<4x3xf32>
  %0 = relay.add %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> !relay.incomplete
  // CHECK: relay.exp {{.*}} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = relay.exp %0 : (!relay.incomplete) -> !relay.incomplete
  // CHECK: relay.multiply {{.*}} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %2 = relay.multiply %1, %0 : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  // CHECK: return {{.*}} : tensor<4x3xf32>
  return %2 : !relay.incomplete
}

// `?` dims: broadcasting against a static dim fixes it.
// CHECK-LABEL: func.func @dyn(%{{.*}}: tensor<?x3xf32>, %{{.*}}: tensor<4x?xf32>) -> tensor<4x3xf32>
func.func @dyn(%a: tensor<?x3xf32>, %b: tensor<4x?xf32>) -> !relay.incomplete {
  %0 = relay.add %a, %b : (tensor<?x3xf32>, tensor<4x?xf32>) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// A dim that stays unknown is `?`.
// CHECK-LABEL: func.func @dyn_kept(%{{.*}}: tensor<?xf32>) -> tensor<?xf32>
func.func @dyn_kept(%a: tensor<?xf32>) -> !relay.incomplete {
  %0 = relay.sigmoid %a : (tensor<?xf32>) -> !relay.incomplete
  %1 = relay.maximum %0, %a : (!relay.incomplete, tensor<?xf32>) -> !relay.incomplete
  return %1 : !relay.incomplete
}

// A declared `?` result stays as written; the relation only checks it.
// CHECK-LABEL: func.func @declared_any
// CHECK: relay.negative {{.*}} : (tensor<2xf32>) -> tensor<?xf32>
// CHECK: relay.add {{.*}} : (tensor<?xf32>, tensor<2xf32>) -> tensor<2xf32>
func.func @declared_any(%a: tensor<2xf32>) -> !relay.incomplete {
  %0 = relay.negative %a : (tensor<2xf32>) -> tensor<?xf32>
  %1 = relay.add %0, %a : (tensor<?xf32>, tensor<2xf32>) -> !relay.incomplete
  return %1 : !relay.incomplete
}

// Partially known types: the hole inside a tuple is filled.
// CHECK-LABEL: func.func @partial
// CHECK: relay.tuple {{.*}} -> tuple<tensor<3xi32>, tensor<3xi32>>
func.func @partial(%a: tensor<3xi32>) -> tuple<tensor<3xi32>, !relay.incomplete> {
  %0 = relay.negative %a : (tensor<3xi32>) -> !relay.incomplete
  %t = relay.tuple %a, %0 : (tensor<3xi32>, !relay.incomplete) -> tuple<tensor<3xi32>, !relay.incomplete>
  return %t : tuple<tensor<3xi32>, !relay.incomplete>
}

// Numbered holes are shared: <1> names one unknown in the whole module.
// CHECK-LABEL: func.func @numbered(%{{.*}}: tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
func.func @numbered(%x: tensor<2xf32>) -> !relay.incomplete<1> {
  // CHECK: relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %f = relay.fn : !relay.incomplete<1> {
  ^bb0(%p: !relay.incomplete<2>):
    relay.yield %p : !relay.incomplete<2>
  }
  %c = relay.call %f(%x) : (!relay.incomplete<1>, tensor<2xf32>) -> tensor<2xf32>
  return %f : !relay.incomplete<1>
}

// argsort's indices are int32 unless `dtype` says otherwise (Relay 0.19).
// CHECK-LABEL: func.func @argsort_dtype
// CHECK: relay.argsort %{{.*}} : (tensor<3x4xf16>) -> tensor<3x4xi32>
// CHECK: relay.argsort %{{.*}} {dtype = i64} : (tensor<3x4xf16>) -> tensor<3x4xi64>
// CHECK: relay.sort %{{.*}} : (tensor<3x4xf16>) -> tensor<3x4xf16>
func.func @argsort_dtype(%x: tensor<3x4xf16>) -> (!relay.incomplete, !relay.incomplete, !relay.incomplete) {
  %0 = relay.argsort %x : (tensor<3x4xf16>) -> !relay.incomplete
  %1 = relay.argsort %x {dtype = i64} : (tensor<3x4xf16>) -> !relay.incomplete
  %2 = relay.sort %x : (tensor<3x4xf16>) -> !relay.incomplete
  return %0, %1, %2 : !relay.incomplete, !relay.incomplete, !relay.incomplete
}

// arange of non-constant start/stop/step: the relation reads operand values
// only from relay.constant, so the length is `?`.
// CHECK-LABEL: func.func @arange_args
// CHECK: relay.arange %{{.*}}, %{{.*}}, %{{.*}} {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
// CHECK: relay.arange %{{.*}}, %{{.*}}, %{{.*}} {dtype = i32} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
func.func @arange_args(%a: tensor<f32>, %b: tensor<f32>, %n: tensor<i32>) -> (!relay.incomplete, !relay.incomplete) {
  %0 = relay.arange %a, %b, %a {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %one = relay.constant dense<1> : tensor<i32>
  %s = relay.add %one, %one : (tensor<i32>, tensor<i32>) -> !relay.incomplete
  %1 = relay.arange %one, %n, %s {dtype = i32} : (tensor<i32>, tensor<i32>, !relay.incomplete) -> !relay.incomplete
  return %0, %1 : !relay.incomplete, !relay.incomplete
}
