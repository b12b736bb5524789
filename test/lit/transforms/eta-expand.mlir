// RUN: relay-mlir-opt %s '-relay-eta-expand=expand-global-var=true' | FileCheck %s
// RUN: relay-mlir-opt %s '-relay-eta-expand=expand-constructor=true' | FileCheck %s --check-prefix=CTOR

// @g used as a value becomes a closure calling it; its call stays a call of
// the global value. Constructors used as values are closures already:
// expand-constructor alone changes nothing.
// CHECK-LABEL: func.func @main
// CHECK: %[[F:.+]] = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
// CHECK-NEXT: ^bb0(%[[P:.+]]: tensor<2xf32>):
// CHECK-NEXT: %[[Y:.+]] = {{(func.)?}}call @g(%[[P]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: relay.yield %[[Y]]
// CHECK: %[[G:.+]] = relay.global_fn @g
// CHECK: relay.call %[[G]]
// CHECK: relay.tuple %[[F]],
// CTOR-LABEL: func.func @main
// CTOR-NOT: = relay.fn :
// CTOR: relay.global_fn @g
func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tuple<!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>> {
  %f = relay.global_fn @g : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %y = relay.call %f(%a) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %t = relay.tuple %f, %y : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tuple<!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>>
  return %t : tuple<!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>>
}

// A generic function used at an instance: the closure applies the global
// value at that instance.
// CHECK-LABEL: func.func @generic_use
// CHECK: relay.fn : !relay.fn<(tensor<3xi32>) -> tensor<3xi32>> {
// CHECK: %[[I:.+]] = relay.global_fn @id : !relay.fn<(tensor<3xi32>) -> tensor<3xi32>>
// CHECK-NEXT: relay.call %[[I]](
func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"A">
}
func.func @generic_use() -> !relay.fn<(tensor<3xi32>) -> tensor<3xi32>> {
  %f = relay.global_fn @id : !relay.fn<(tensor<3xi32>) -> tensor<3xi32>>
  return %f : !relay.fn<(tensor<3xi32>) -> tensor<3xi32>>
}
