// RUN: relay-mlir-opt %s --relay-unswitch-loops -split-input-file | FileCheck %s
// RUN: relay-mlir-opt %s --relay-unswitch-loops=max-versions=1 -split-input-file | FileCheck %s --check-prefix=OFF

// A loop whose body branches three ways on the row count of an argument it
// passes on unchanged (%w): one version per outcome, each without the
// branch, and the original deciding once. No guard: %w never changes.
// CHECK-LABEL: func.func private @loop__v1
// CHECK-NOT:     scf.if %{{.*}} -> (tensor<?x4xf32>) {{.*}}math.exp
// CHECK:         arith.cmpi slt
// CHECK:         math.exp
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.sin
// CHECK:         call @loop__v1(
// CHECK-LABEL: func.func private @loop__v2
// CHECK-NOT:     math.exp
// CHECK:         math.tanh
// CHECK-NOT:     math.sin
// CHECK:         call @loop__v2(
// CHECK-LABEL: func.func private @loop__v3
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.tanh
// CHECK:         math.sin
// CHECK:         call @loop__v3(
// CHECK-NOT:   func.func private @loop__any
// CHECK-LABEL: func.func private @loop(
// CHECK-SAME:    %[[I:[^:]*]]: i64, %[[N:[^:]*]]: i64, %[[H:[^:]*]]: tensor<?x4xf32>, %[[W:[^:]*]]: tensor<?x4xf32>
// CHECK:         %[[R:.*]] = tensor.dim %[[W]], %c0
// CHECK:         %[[ONE:.*]] = arith.cmpi eq, %[[R]], %c1
// The dispatch is a tree of blocks (iree-compile cannot inline a loop into
// an scf.if region), each leaf calling its version and returning:
// CHECK:         cf.cond_br %[[ONE]], ^[[V1:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// CHECK:       ^[[V1]]:
// CHECK-NEXT:    %[[R1:.+]] = call @loop__v1(%[[I]], %[[N]], %[[H]], %[[W]])
// CHECK-NEXT:    return %[[R1]]
// CHECK:       ^[[REST]]:
// CHECK:         %[[FEW:.*]] = arith.cmpi ule, %{{.*}}, %c8
// CHECK:         cf.cond_br %[[FEW]]
// CHECK:         call @loop__v2(%[[I]], %[[N]], %[[H]], %[[W]])
// CHECK:         call @loop__v3(%[[I]], %[[N]], %[[H]], %[[W]])
// OFF-NOT:     @loop__v
func.func private @loop(%i: i64, %n: i64, %h: tensor<?x4xf32>, %w: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1_i64 = arith.constant 1 : i64
  %more = arith.cmpi slt, %i, %n : i64
  %r = scf.if %more -> tensor<?x4xf32> {
    %rows = tensor.dim %w, %c0 : tensor<?x4xf32>
    %one = arith.cmpi eq, %rows, %c1 : index
    %y = scf.if %one -> tensor<?x4xf32> {
      %e = math.exp %h : tensor<?x4xf32>
      scf.yield %e : tensor<?x4xf32>
    } else {
      %few = arith.cmpi ule, %rows, %c8 : index
      %f = scf.if %few -> tensor<?x4xf32> {
        %e = math.tanh %h : tensor<?x4xf32>
        scf.yield %e : tensor<?x4xf32>
      } else {
        %e = math.sin %h : tensor<?x4xf32>
        scf.yield %e : tensor<?x4xf32>
      }
      scf.yield %f : tensor<?x4xf32>
    }
    %j = arith.addi %i, %c1_i64 : i64
    %z = func.call @loop(%j, %n, %y, %w) : (i64, i64, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    scf.yield %z : tensor<?x4xf32>
  } else {
    scf.yield %h : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}

// -----

// The branch reads the size of an argument the loop changes (%h grows by a
// row each step): each version's self call re-checks the condition on the
// new argument and otherwise goes on in the unversioned copy (@grow__any).
// CHECK-LABEL: func.func private @grow__v1
// CHECK:         %[[NEXT:.*]] = tensor.concat
// CHECK:         %[[D:.*]] = tensor.dim %[[NEXT]], %c0
// CHECK:         %[[STILL:.*]] = arith.cmpi eq, %[[D]], %c1
// CHECK:         scf.if %[[STILL]]
// CHECK:           call @grow__v1(
// CHECK:         } else {
// CHECK:           call @grow__any(
// CHECK-LABEL: func.func private @grow__v2
// CHECK:         arith.xori
// CHECK:         call @grow__v2(
// CHECK:         call @grow__any(
// CHECK-LABEL: func.func private @grow__any
// CHECK:         scf.if
// CHECK:         call @grow__any(
// CHECK-LABEL: func.func private @grow(
// CHECK:         cf.cond_br
// CHECK:           call @grow__v1(
// CHECK:           call @grow__v2(
func.func private @grow(%i: i64, %n: i64, %h: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i64 = arith.constant 1 : i64
  %more = arith.cmpi slt, %i, %n : i64
  %r = scf.if %more -> tensor<?x4xf32> {
    %rows = tensor.dim %h, %c0 : tensor<?x4xf32>
    %one = arith.cmpi eq, %rows, %c1 : index
    %y = scf.if %one -> tensor<?x4xf32> {
      %e = math.exp %h : tensor<?x4xf32>
      scf.yield %e : tensor<?x4xf32>
    } else {
      %e = math.tanh %h : tensor<?x4xf32>
      scf.yield %e : tensor<?x4xf32>
    }
    %next = tensor.concat dim(0) %y, %h : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %j = arith.addi %i, %c1_i64 : i64
    %z = func.call @grow(%j, %n, %next) : (i64, i64, tensor<?x4xf32>) -> tensor<?x4xf32>
    scf.yield %z : tensor<?x4xf32>
  } else {
    scf.yield %h : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}

// -----

// The branch reads the rows of a state the loop changes but whose next
// value provably has the same rows (its init is sized by them): no guard.
// CHECK-LABEL: func.func private @state__v1
// CHECK:         call @state__v1(
// CHECK-LABEL: func.func private @state__v2
// CHECK:         call @state__v2(
// CHECK-NOT:   @state__any
func.func private @state(%i: i64, %n: i64, %h: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i64 = arith.constant 1 : i64
  %more = arith.cmpi slt, %i, %n : i64
  %r = scf.if %more -> tensor<?x4xf32> {
    %rows = tensor.dim %h, %c0 : tensor<?x4xf32>
    %one = arith.cmpi eq, %rows, %c1 : index
    %y = scf.if %one -> tensor<?x4xf32> {
      %e = math.exp %h : tensor<?x4xf32>
      scf.yield %e : tensor<?x4xf32>
    } else {
      %e = math.tanh %h : tensor<?x4xf32>
      scf.yield %e : tensor<?x4xf32>
    }
    %init = tensor.empty(%rows) : tensor<?x4xf32>
    %next = linalg.copy ins(%y : tensor<?x4xf32>) outs(%init : tensor<?x4xf32>) -> tensor<?x4xf32>
    %j = arith.addi %i, %c1_i64 : i64
    %z = func.call @state(%j, %n, %next) : (i64, i64, tensor<?x4xf32>) -> tensor<?x4xf32>
    scf.yield %z : tensor<?x4xf32>
  } else {
    scf.yield %h : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}

// -----

// Not versioned: in the version for one row, a state of static size 3 would
// be cast to 1 row (code no argument reaches, which iree-compile rejects).
// CHECK-LABEL: func.func private @static_state(
// CHECK-NOT:   @static_state__v
func.func private @static_state(%i: i64, %n: i64, %h: tensor<3x4xf32>, %w: tensor<?x4xf32>) -> tensor<3x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i64 = arith.constant 1 : i64
  %more = arith.cmpi slt, %i, %n : i64
  %r = scf.if %more -> tensor<3x4xf32> {
    %rows = tensor.dim %w, %c0 : tensor<?x4xf32>
    %one = arith.cmpi eq, %rows, %c1 : index
    %hd = tensor.cast %h : tensor<3x4xf32> to tensor<?x4xf32>
    %y = scf.if %one -> tensor<?x4xf32> {
      %h1 = tensor.cast %hd : tensor<?x4xf32> to tensor<1x4xf32>
      %e = math.exp %h1 : tensor<1x4xf32>
      %ed = tensor.cast %e : tensor<1x4xf32> to tensor<?x4xf32>
      scf.yield %ed : tensor<?x4xf32>
    } else {
      %e = math.tanh %hd : tensor<?x4xf32>
      scf.yield %e : tensor<?x4xf32>
    }
    %ys = tensor.cast %y : tensor<?x4xf32> to tensor<3x4xf32>
    %j = arith.addi %i, %c1_i64 : i64
    %z = func.call @static_state(%j, %n, %ys, %w) : (i64, i64, tensor<3x4xf32>, tensor<?x4xf32>) -> tensor<3x4xf32>
    scf.yield %z : tensor<3x4xf32>
  } else {
    scf.yield %h : tensor<3x4xf32>
  }
  return %r : tensor<3x4xf32>
}

// -----

// Not versioned: a branch on the loop counter (it changes every step), and
// a loop calling another function.
// CHECK-LABEL: func.func private @count(
// CHECK-NOT:   @count__v
// CHECK-LABEL: func.func private @calls(
// CHECK-NOT:   @calls__v
func.func private @count(%i: i64, %n: i64, %h: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c1_i64 = arith.constant 1 : i64
  %c2_i64 = arith.constant 2 : i64
  %more = arith.cmpi slt, %i, %n : i64
  %r = scf.if %more -> tensor<?x4xf32> {
    %odd = arith.remui %i, %c2_i64 : i64
    %isodd = arith.cmpi eq, %odd, %c1_i64 : i64
    %y = scf.if %isodd -> tensor<?x4xf32> {
      %e = math.exp %h : tensor<?x4xf32>
      scf.yield %e : tensor<?x4xf32>
    } else {
      scf.yield %h : tensor<?x4xf32>
    }
    %j = arith.addi %i, %c1_i64 : i64
    %z = func.call @count(%j, %n, %y) : (i64, i64, tensor<?x4xf32>) -> tensor<?x4xf32>
    scf.yield %z : tensor<?x4xf32>
  } else {
    scf.yield %h : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}
func.func private @step(%h: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %e = math.exp %h : tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}
func.func private @calls(%i: i64, %n: i64, %h: tensor<?x4xf32>, %w: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i64 = arith.constant 1 : i64
  %more = arith.cmpi slt, %i, %n : i64
  %r = scf.if %more -> tensor<?x4xf32> {
    %rows = tensor.dim %w, %c0 : tensor<?x4xf32>
    %one = arith.cmpi eq, %rows, %c1 : index
    %y = scf.if %one -> tensor<?x4xf32> {
      %e = func.call @step(%h) : (tensor<?x4xf32>) -> tensor<?x4xf32>
      scf.yield %e : tensor<?x4xf32>
    } else {
      scf.yield %h : tensor<?x4xf32>
    }
    %j = arith.addi %i, %c1_i64 : i64
    %z = func.call @calls(%j, %n, %y, %w) : (i64, i64, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    scf.yield %z : tensor<?x4xf32>
  } else {
    scf.yield %h : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}
