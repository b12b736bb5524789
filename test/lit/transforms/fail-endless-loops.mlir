// RUN: relay-mlir-opt %s --allow-unregistered-dialect -relay-fail-endless-loops -split-input-file | FileCheck %s

// A loop with no exit (an unswitched recursion whose base case can no
// longer hold): no path returns, so the entry becomes a run-time error (at
// its branch's location) followed by placeholder results; the loop goes.
// CHECK-LABEL: func.func private @spin
// CHECK-NEXT:    %[[S:.+]] = arith.constant 9 : i32
// CHECK:         "util.status.check_ok"(%[[S]]) {message = "relay-mlir: this program never terminates: it entered a loop that never exits [at spin.relay:3:5]"}
// CHECK-DAG:     %[[Z:.+]] = arith.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[D:.+]] = tensor.empty(%{{.+}}) : tensor<?xf32>
// CHECK:         return %[[Z]], %[[D]] : tensor<i32>, tensor<?xf32>
// CHECK-NOT:   ^bb
func.func private @spin(%n: i32) -> (tensor<i32>, tensor<?xf32>) {
  cf.br ^loop(%n : i32) loc("spin.relay":3:5)
^loop(%i: i32):
  %c1 = arith.constant 1 : i32
  %j = arith.addi %i, %c1 : i32
  cf.br ^loop(%j : i32)
}

// -----

// Only the path that cannot return fails; the loop that exits is kept.
// CHECK-LABEL: func.func @some_paths
// CHECK:         cf.cond_br %{{.+}}, ^[[BAD:bb[0-9]+]], ^[[GOOD:bb[0-9]+]](
// CHECK:       ^[[BAD]]:
// CHECK:         "util.status.check_ok"
// CHECK:         return
// CHECK:       ^[[GOOD]](%[[I:.+]]: i32):
// CHECK:         arith.cmpi slt, %[[I]]
// CHECK:         cf.cond_br
// CHECK:         return %{{.+}} : i32
func.func @some_paths(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %n, %c0 : i32
  cf.cond_br %neg, ^spin, ^count(%n : i32)
^spin:
  cf.br ^spin
^count(%i: i32):
  %c10 = arith.constant 10 : i32
  %more = arith.cmpi slt, %i, %c10 : i32
  cf.cond_br %more, ^step, ^done
^step:
  %c1 = arith.constant 1 : i32
  %j = arith.addi %i, %c1 : i32
  cf.br ^count(%j : i32)
^done:
  return %i : i32
}

// -----

// Functions whose every path returns are not changed.
// CHECK-LABEL: func.func @terminates
// CHECK-NOT:     check_ok
// CHECK:         return
func.func @terminates(%n: i32) -> i32 {
  cf.br ^loop(%n : i32)
^loop(%i: i32):
  %c0 = arith.constant 0 : i32
  %stop = arith.cmpi sle, %i, %c0 : i32
  cf.cond_br %stop, ^done, ^step
^step:
  %c1 = arith.constant 1 : i32
  %j = arith.subi %i, %c1 : i32
  cf.br ^loop(%j : i32)
^done:
  return %i : i32
}
