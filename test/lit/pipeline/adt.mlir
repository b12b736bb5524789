// RUN: relay-mlir-opt %s --allow-unregistered-dialect -relay-to-iree-input | FileCheck %s

// An ADT program typed by inference and lowered to IREE input: the list
// ops stay (they have effects), the `scf.if true` of the wildcard clause
// folds away, and no relay op or definition is left.
// CHECK-NOT: relay.

relay.adt @Option ["T"] {
  relay.constructor @None []
  relay.constructor @Some [!relay.tvar<"T">]
}

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>, %[[C:.+]]: tensor<i1>) -> tensor<3xf32>
// CHECK: %[[P:.+]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK: %[[O:.+]] = scf.if %[[P]] -> (!util.list<?>) {
// CHECK:   "util.list.create"
// CHECK:   "hal.tensor.export"(%[[X]])
// CHECK: } else {
// CHECK:   "util.list.create"
// CHECK: %[[TAG:.+]] = "util.list.get"(%[[O]], %{{.+}}) : (!util.list<?>, index) -> i32
// CHECK: %[[SOME:.+]] = arith.cmpi eq, %[[TAG]], %{{.+}} : i32
// CHECK: %[[R:.+]] = scf.if %[[SOME]] -> (tensor<3xf32>) {
// CHECK:   "util.list.get"(%[[O]], %{{.+}}) : (!util.list<?>, index) -> !hal.buffer_view
// CHECK:   %[[V:.+]] = "hal.tensor.import"
// CHECK:   linalg.generic
// CHECK:     math.exp
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[X]] : tensor<3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @main(%x: tensor<3xf32>, %c: tensor<i1>) -> !relay.incomplete {
  %o = relay.if %c : tensor<i1> -> !relay.incomplete {
    %s = relay.construct @Option::@Some(%x) : (tensor<3xf32>) -> !relay.incomplete
    relay.yield %s : !relay.incomplete
  } else {
    %n = relay.construct @Option::@None() : () -> !relay.incomplete
    relay.yield %n : !relay.incomplete
  }
  %r = relay.match %o : !relay.incomplete -> !relay.incomplete {
    case #relay.pat_ctor<@Option::@Some, [#relay.pat_var]> (%v: !relay.incomplete) {
      %e = relay.exp %v : (!relay.incomplete) -> !relay.incomplete
      relay.yield %e : !relay.incomplete
    }
    case #relay.pat_wildcard {
      relay.yield %x : tensor<3xf32>
    }
  }
  return %r : !relay.incomplete
}
