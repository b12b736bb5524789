// RUN: relay-mlir-opt %s --relay-widen-host-integers --split-input-file | FileCheck %s

// A loop carrying i32 and i64 scalars together carries the i32 ones as i64
// (IREE 3.13's VM moved such a mix wrongly: the high word of the third value
// came from the fourth).
// CHECK-LABEL: func.func @mixed_loop
// CHECK:         %[[W:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK:         cf.br ^[[HEAD:bb[0-9]+]](%[[W]], %{{.*}} : i64, i64)
// CHECK:       ^[[HEAD]](%[[A:.*]]: i64, %[[B:.*]]: i64):
// CHECK-NEXT:    %[[I:.*]] = arith.trunci %[[A]] : i64 to i32
// CHECK:         arith.cmpi slt, %[[I]]
// CHECK:         %[[N:.*]] = arith.addi %[[I]]
// CHECK:         %[[WN:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK:         cf.br ^[[HEAD]](%[[WN]], %{{.*}} : i64, i64)
func.func @mixed_loop(%i0: i32, %u0: i64) -> (i32, i64) {
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %c2 = arith.constant 2 : i64
  cf.br ^bb1(%i0, %u0 : i32, i64)
^bb1(%i: i32, %u: i64):
  %go = arith.cmpi slt, %i, %c7 : i32
  cf.cond_br %go, ^bb2, ^bb3
^bb2:
  %n = arith.addi %i, %c1 : i32
  %v = arith.addi %u, %c2 : i64
  cf.br ^bb1(%n, %v : i32, i64)
^bb3:
  return %i, %u : i32, i64
}

// -----

// All-i32 or all-i64 lists stay as they are; so do public functions.
// CHECK-LABEL: func.func @uniform
// CHECK:       ^bb1(%{{.*}}: i32, %{{.*}}: i32):
// CHECK-NOT:     arith.extsi
func.func @uniform(%a: i32, %b: i64) -> i32 {
  cf.br ^bb1(%a, %a : i32, i32)
^bb1(%x: i32, %y: i32):
  %s = arith.addi %x, %y : i32
  return %s : i32
}

// -----

// A private function called directly with an i1 and an index: the i1 is
// zero-extended by the caller and truncated by the callee.
// CHECK-LABEL: func.func @caller
// CHECK:         %[[W:.*]] = arith.extui %{{.*}} : i1 to i64
// CHECK:         call @callee(%[[W]], %{{.*}}) : (i64, index) -> i1
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%[[F:.*]]: i64, %{{.*}}: index) -> i1
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %[[F]] : i64 to i1
// CHECK-NEXT:    return %[[T]]
func.func @caller(%f: i1, %n: index) -> i1 {
  %r = call @callee(%f, %n) : (i1, index) -> i1
  return %r : i1
}
func.func private @callee(%f: i1, %n: index) -> i1 {
  return %f : i1
}
