// RUN: relay-mlir-opt %s -relay-dead-code-elimination | FileCheck %s
// RUN: relay-mlir-opt %s -relay-dead-code-elimination=ignore-impurity=true | FileCheck %s --check-prefix=IGNORE
// RUN: relay-mlir-opt %s -relay-dead-code-elimination=inline-once=true | FileCheck %s --check-prefix=ONCE

// Dead pure lets go, a chain at once (%b only feeds the dead %c).
// CHECK-LABEL: func.func @pure_chain(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2xf32>
// CHECK-NEXT:    %[[Y:.*]] = relay.negative %[[X]]
// CHECK-NEXT:    return %[[Y]]
func.func @pure_chain(%x: tensor<2xf32>) -> tensor<2xf32> {
  %b = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  %c = relay.add %b, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = relay.tuple %c, %b : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  %f = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%p: tensor<2xf32>):
    relay.yield %p : tensor<2xf32>
  }
  %y = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// A dead reference write is an effect: kept (and the values it reads);
// with ignore-impurity it goes, and the ref_new and the multiply with it.
// A dead read is kept too (TVM 0.19 counts ref_read impure).
// CHECK-LABEL: func.func @ref_write(
// CHECK:         relay.ref_new
// CHECK:         relay.multiply
// CHECK:         relay.ref_write
// CHECK:         relay.ref_read
// CHECK:         relay.ref_read
// IGNORE-LABEL: func.func @ref_write(
// IGNORE-SAME:    %[[X:[^:]*]]: tensor<2xf32>
// IGNORE-NEXT:    return %[[X]]
func.func @ref_write(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = relay.ref_new %x : (tensor<2xf32>) -> !relay.ref<tensor<2xf32>>
  %c = relay.constant dense<2.0> : tensor<f32>
  %m = relay.multiply %x, %c : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %w = relay.ref_write %r, %m : (!relay.ref<tensor<2xf32>>, tensor<2xf32>) -> tuple<>
  %d = relay.ref_read %r : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  %v = relay.ref_read %r : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  return %x : tensor<2xf32>
}

func.func private @pure_fn(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func private @writes(%r: !relay.ref<tensor<2xf32>>) -> tensor<2xf32> {
  %x = relay.ref_read %r : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  %w = relay.ref_write %r, %x : (!relay.ref<tensor<2xf32>>, tensor<2xf32>) -> tuple<>
  return %x : tensor<2xf32>
}

// Self-recursive and pure: assumed pure while its body is examined.
func.func private @loop(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = func.call @loop(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// Calls: of pure functions (module functions, known closures, the
// recursive @loop) are dead; of a function with an effect, or of a
// function value from a parameter, are kept.
// CHECK-LABEL: func.func @calls(
// CHECK-NOT:     @pure_fn
// CHECK-NOT:     @loop
// CHECK:         call @writes
// CHECK-NEXT:    relay.call %arg2
// CHECK-NEXT:    return
func.func @calls(%x: tensor<2xf32>, %r: !relay.ref<tensor<2xf32>>, %h: !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>) -> tensor<2xf32> {
  %a = func.call @pure_fn(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %g = relay.global_fn @pure_fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %b = relay.call %g(%x) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %f = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%p: tensor<2xf32>):
    %q = relay.sqrt %p : (tensor<2xf32>) -> tensor<2xf32>
    relay.yield %q : tensor<2xf32>
  }
  %c = relay.call %f(%x) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %l = func.call @loop(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %d = func.call @writes(%r) : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  %e = relay.call %h(%x) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %x : tensor<2xf32>
}

// An if is pure if its branches are; dead lets inside regions go too.
// CHECK-LABEL: func.func @branches(
// CHECK:         relay.if
// CHECK-NOT:       relay.exp
// CHECK:           relay.ref_write
// CHECK:         return
func.func @branches(%c: tensor<i1>, %x: tensor<2xf32>, %r: !relay.ref<tensor<2xf32>>) -> tensor<2xf32> {
  %pure = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %e = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
    relay.yield %e : tensor<2xf32>
  } else {
    relay.yield %x : tensor<2xf32>
  }
  %impure = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %dead = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
    %w = relay.ref_write %r, %x : (!relay.ref<tensor<2xf32>>, tensor<2xf32>) -> tuple<>
    relay.yield %x : tensor<2xf32>
  } else {
    relay.yield %x : tensor<2xf32>
  }
  return %x : tensor<2xf32>
}

// inline-once: a pure value used once in a branch moves into it (with what
// only it uses); a value used in both branches, or inside a closure, stays.
// CHECK-LABEL: func.func @sink(
// CHECK:         relay.exp
// CHECK:         relay.log
// CHECK:         relay.sqrt
// CHECK:         relay.if
// ONCE-LABEL:  func.func @sink(
// ONCE-SAME:     %[[C:[^:]*]]: tensor<i1>, %[[X:[^:]*]]: tensor<2xf32>
// ONCE:          %[[TWICE:.*]] = relay.sqrt %[[X]]
// ONCE-NEXT:     %[[INNER:.*]] = relay.negative %[[X]]
// ONCE-NEXT:     relay.fn
// ONCE:            relay.add %[[INNER]], %[[TWICE]]
// ONCE:          relay.if %[[C]]
// ONCE-NEXT:       %[[E:.*]] = relay.exp %[[X]]
// ONCE-NEXT:       %[[L:.*]] = relay.log %[[E]]
// ONCE-NEXT:       %[[S:.*]] = relay.add %[[L]], %[[TWICE]]
// ONCE-NEXT:       relay.yield %[[S]]
// ONCE-NEXT:     } else {
// ONCE-NEXT:       relay.yield %[[TWICE]]
func.func @sink(%c: tensor<i1>, %x: tensor<2xf32>) -> tuple<tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>> {
  %e = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  %l = relay.log %e : (tensor<2xf32>) -> tensor<2xf32>
  %twice = relay.sqrt %x : (tensor<2xf32>) -> tensor<2xf32>
  %inner = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
  %f = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%p: tensor<2xf32>):
    %q = relay.add %inner, %twice : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    relay.yield %q : tensor<2xf32>
  }
  %y = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %s = relay.add %l, %twice : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    relay.yield %s : tensor<2xf32>
  } else {
    relay.yield %twice : tensor<2xf32>
  }
  %t = relay.tuple %y, %f : (tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>) -> tuple<tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>
  return %t : tuple<tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>
}
