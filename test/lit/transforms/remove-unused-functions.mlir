// RUN: relay-mlir-opt %s -relay-remove-unused-functions | FileCheck %s
// RUN: relay-mlir-opt %s -relay-remove-unused-functions | FileCheck %s --check-prefix=GONE
// RUN: relay-mlir-opt %s '-relay-remove-unused-functions=entry-functions=main,unused' | FileCheck %s --check-prefix=BOTH
// RUN: relay-mlir-opt %s '-relay-remove-unused-functions=entry-functions=unused' | FileCheck %s --check-prefix=UNUSED
// As compile() runs it (relay.build's sequence): every public function is an
// entry too; only the private @dead goes.
// RUN: relay-mlir-opt %s '-relay-remove-unused-functions=public-entries=true' | FileCheck %s --check-prefix=PUBLIC
// RUN: relay-mlir-opt %s '-relay-remove-unused-functions=public-entries=true' | FileCheck %s --check-prefix=PGONE

// main reaches @callee by a call, @value as a value, @closure$fn0 through a
// closure and @deep through @callee; @unused, @only_unused (called by @unused
// alone) and @dead go. The type definition stays.
// CHECK-DAG: relay.adt @Box
// CHECK-DAG: func.func @deep
// CHECK-DAG: func.func @callee
// CHECK-DAG: func.func @value
// CHECK-DAG: func.func private @closure$fn0
// CHECK-DAG: func.func @main
// GONE-NOT: func.func @unused
// GONE-NOT: @only_unused
// GONE-NOT: @dead
// BOTH-DAG: func.func @unused
// BOTH-DAG: func.func @only_unused
// BOTH-DAG: func.func @main
// UNUSED-NOT: func.func @main
// UNUSED-NOT: func.func @deep
// UNUSED: func.func @only_unused
// UNUSED: func.func @unused
// UNUSED-NOT: func.func @main
// PUBLIC-DAG: func.func @unused
// PUBLIC-DAG: func.func @only_unused
// PUBLIC-DAG: func.func private @closure$fn0
// PUBLIC-DAG: func.func @main
// PGONE-NOT: @dead
relay.adt @Box [] {
  relay.constructor @MkBox [tensor<2xf32>]
}
func.func @deep(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @callee(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = func.call @deep(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @value(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func private @closure$fn0(%b: tensor<2xf32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %y = relay.add %x, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func private @dead(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @only_unused(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @unused(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = func.call @only_unused(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = func.call @callee(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %f = relay.global_fn @value : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %b = relay.call %f(%a) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %c = relay.closure @closure$fn0(%x : tensor<2xf32>) : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %d = relay.call %c(%b) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %d : tensor<2xf32>
}
