// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @constant
func.func @constant() -> tensor<2xf32> {
  // CHECK: %[[C:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %c = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: return %[[C]]
  return %c : tensor<2xf32>
}

// CHECK-LABEL: func.func @unsigned_constant
func.func @unsigned_constant() -> tensor<2xui8> {
  // CHECK: arith.constant dense<[1, -1]> : tensor<2xi8>
  %c = relay.constant dense<[1, 255]> : tensor<2xui8>
  return %c : tensor<2xui8>
}

// Tuples vanish: relay.tuple/tuple_get_item regroup the leaves.
// CHECK-LABEL: func.func @tuple_get_item
// CHECK-SAME: (%[[A:.+]]: tensor<2xf32>, %[[B:.+]]: tensor<3xf32>) -> tensor<3xf32>
func.func @tuple_get_item(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %t = relay.tuple %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>>
  %u = relay.tuple %t, %a : (tuple<tensor<2xf32>, tensor<3xf32>>, tensor<2xf32>) -> tuple<tuple<tensor<2xf32>, tensor<3xf32>>, tensor<2xf32>>
  %v = relay.tuple_get_item %u[0] : (tuple<tuple<tensor<2xf32>, tensor<3xf32>>, tensor<2xf32>>) -> tuple<tensor<2xf32>, tensor<3xf32>>
  %w = relay.tuple_get_item %v[1] : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<3xf32>
  // CHECK-NOT: relay.
  // CHECK: return %[[B]] : tensor<3xf32>
  return %w : tensor<3xf32>
}

// Tuple-typed arguments and results are flattened; calls follow.
// CHECK-LABEL: func.func @swap
// CHECK-SAME: (%[[A:.+]]: tensor<2xf32>, %[[B:.+]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<2xf32>)
func.func @swap(%p: tuple<tensor<2xf32>, tensor<3xf32>>) -> tuple<tensor<3xf32>, tensor<2xf32>> {
  %a = relay.tuple_get_item %p[0] : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<2xf32>
  %b = relay.tuple_get_item %p[1] : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %r = relay.tuple %b, %a : (tensor<3xf32>, tensor<2xf32>) -> tuple<tensor<3xf32>, tensor<2xf32>>
  // CHECK: return %[[B]], %[[A]] : tensor<3xf32>, tensor<2xf32>
  return %r : tuple<tensor<3xf32>, tensor<2xf32>>
}

// CHECK-LABEL: func.func @call_swap
// CHECK-SAME: (%[[A:.+]]: tensor<2xf32>, %[[B:.+]]: tensor<3xf32>) -> tensor<2xf32>
func.func @call_swap(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %t = relay.tuple %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>>
  // CHECK: %[[R:.+]]:2 = call @swap(%[[A]], %[[B]]) : (tensor<2xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<2xf32>)
  %s = func.call @swap(%t) : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tuple<tensor<3xf32>, tensor<2xf32>>
  %x = relay.tuple_get_item %s[1] : (tuple<tensor<3xf32>, tensor<2xf32>>) -> tensor<2xf32>
  // CHECK: return %[[R]]#1 : tensor<2xf32>
  return %x : tensor<2xf32>
}

// CHECK-LABEL: func.func @empty_tuple
// CHECK-SAME: () {
func.func @empty_tuple() -> tuple<> {
  %t = relay.tuple : () -> tuple<>
  // CHECK: return{{$}}
  return %t : tuple<>
}

// relay.if → scf.if on the extracted rank-0 i1.
// CHECK-LABEL: func.func @if_else
// CHECK-SAME: (%[[C:.+]]: tensor<i1>, %[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
func.func @if_else(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[P:.+]] = tensor.extract %[[C]][] : tensor<i1>
  // CHECK: %[[R:.+]] = scf.if %[[P]] -> (tensor<4xf32>) {
  // CHECK:   %[[S:.+]] = linalg.generic
  // CHECK:     arith.addf
  // CHECK:   scf.yield %[[S]] : tensor<4xf32>
  // CHECK: } else {
  // CHECK:   scf.yield %[[B]] : tensor<4xf32>
  // CHECK: }
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %s = relay.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relay.yield %s : tensor<4xf32>
  } else {
    relay.yield %b : tensor<4xf32>
  }
  // CHECK: return %[[R]]
  return %r : tensor<4xf32>
}

// An if yielding a tuple yields its leaves.
// CHECK-LABEL: func.func @if_tuple
// CHECK-SAME: (%[[C:.+]]: tensor<i1>, %[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<?xf32>)
func.func @if_tuple(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK: %[[R:.+]]:2 = scf.if %{{.+}} -> (tensor<4xf32>, tensor<?xf32>) {
  // CHECK:   scf.yield %[[A]], %[[B]] : tensor<4xf32>, tensor<?xf32>
  // CHECK: } else {
  // CHECK:   scf.yield %[[A]], %[[B]] : tensor<4xf32>, tensor<?xf32>
  %r = relay.if %c : tensor<i1> -> tuple<tensor<4xf32>, tensor<?xf32>> {
    %t = relay.tuple %a, %b : (tensor<4xf32>, tensor<?xf32>) -> tuple<tensor<4xf32>, tensor<?xf32>>
    relay.yield %t : tuple<tensor<4xf32>, tensor<?xf32>>
  } else {
    %t = relay.tuple %a, %b : (tensor<4xf32>, tensor<?xf32>) -> tuple<tensor<4xf32>, tensor<?xf32>>
    relay.yield %t : tuple<tensor<4xf32>, tensor<?xf32>>
  }
  %x = relay.tuple_get_item %r[1] : (tuple<tensor<4xf32>, tensor<?xf32>>) -> tensor<?xf32>
  // CHECK: return %[[R]]#1 : tensor<?xf32>
  return %x : tensor<?xf32>
}

// A bool constant that is not a splat becomes an i8 constant truncated to
// i1 (large i1 constants print as hex data that iree-compile 3.13 reads
// with another size).
// CHECK-LABEL: func.func @bool_constant
// CHECK: arith.constant dense<[1, 0, 0, 1]> : tensor<4xi8>
// CHECK: arith.trunci %{{.*}} : i8 to i1
func.func @bool_constant() -> tensor<4xi1> {
  %c = relay.constant dense<[true, false, false, true]> : tensor<4xi1>
  return %c : tensor<4xi1>
}
