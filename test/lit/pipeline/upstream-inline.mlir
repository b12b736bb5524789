// RUN: relay-mlir-opt %s --inline | FileCheck %s

// relay-mlir-opt runs MLIR's upstream passes too; --inline needs func's
// inliner extension (it aborted: "interface promised by dialect 'func' but
// never implemented").
// CHECK-LABEL: func.func @main
// CHECK-NOT:     call
// CHECK:         arith.addi
func.func private @inc(%x: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %y = arith.addi %x, %c1 : i64
  return %y : i64
}
func.func @main(%x: i64) -> i64 {
  %r = func.call @inc(%x) : (i64) -> i64
  return %r : i64
}
