// RUN: relay-mlir-opt %s -relay-infer-type -relay-gradient -canonicalize -cse -split-input-file | FileCheck %s

// The Relay paper's Fig. 5: the gradient of the identity is
// (%d, (ones_like(%d),)) -- no closure, reference or call left.
// CHECK-LABEL: func.func @id$grad(%{{.*}}: tensor<4xf32>) -> tuple<tensor<4xf32>, tuple<tensor<4xf32>>>
// CHECK-NEXT:    %[[ONES:.*]] = relay.ones_like %[[D:[^ ]*]]
// CHECK-NEXT:    %[[G:.*]] = relay.tuple %[[ONES]]
// CHECK-NEXT:    %[[R:.*]] = relay.tuple %[[D]], %[[G]]
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func @main
// CHECK:         relay.global_fn @id$grad
func.func @id(%d: tensor<4xf32>) -> tensor<4xf32> {
  return %d : tensor<4xf32>
}
func.func @main() -> !relay.incomplete {
  %f = relay.global_fn @id : !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>
  %g = relay.grad %f : (!relay.fn<(tensor<4xf32>) -> tensor<4xf32>>) -> !relay.incomplete
  return %g : !relay.incomplete
}

// -----

// A dense layer with a broadcast bias, differentiated with respect to the
// weight and the bias only (wrt): the bias adjoint is summed back over the
// batch (collapse_sum_like), the weight adjoint is gᵀ x, the relu masks.
// CHECK-LABEL: func.func @loss$grad$wrt_1_2(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<4x3xf32>, %{{.*}}: tensor<4xf32>) -> tuple<tensor<f32>, tuple<tensor<4x3xf32>, tensor<4xf32>>>
// CHECK:         relay.greater
// CHECK:         %[[MASKED:.*]] = relay.where
// CHECK:         %[[DB:.*]] = relay.collapse_sum_like %[[MASKED]]
// CHECK:         %[[DW:.*]] = relay.nn.matmul %[[MASKED]], %{{.*}} {transpose_a = true}
// CHECK:         relay.tuple %[[DW]], %[[DB]]
// CHECK-NOT:     relay.call
// CHECK:         return
func.func @loss(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %h = relay.nn.dense %x, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %hb = relay.add %h, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %r = relay.nn.relu %hb : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = relay.sum %r : (tensor<2x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
func.func @main() -> !relay.incomplete {
  %f = relay.global_fn @loss : !relay.fn<(tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<f32>>
  %g = relay.grad %f {wrt = array<i64: 1, 2>} : (!relay.fn<(tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<f32>>) -> !relay.incomplete
  return %g : !relay.incomplete
}

// -----

// `if` and a let-bound closure: the closure call is inlined; the backward
// is an `if` on the same condition whose branches recompute the forward
// branch and yield the adjoints of the values they use from outside.
// CHECK-LABEL: func.func @f$grad$wrt_0(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<3xf32>, %[[C:[^:]*]]: tensor<i1>)
// CHECK-NOT:     relay.fn
// CHECK-NOT:     relay.call
// CHECK:         relay.if %[[C]] : tensor<i1> -> tensor<3xf32>
// CHECK:         relay.if %[[C]] : tensor<i1> -> tuple<tensor<3xf32>>
// CHECK:           relay.exp %[[X]]
// CHECK:           relay.yield %{{.*}} : tuple<tensor<3xf32>>
// CHECK:         } else {
// CHECK:           relay.yield %{{.*}} : tuple<tensor<3xf32>>
func.func @f(%x: tensor<3xf32>, %c: tensor<i1>) -> tensor<f32> {
  %sq = relay.fn : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>> {
  ^bb0(%a: tensor<3xf32>):
    %m = relay.multiply %a, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    relay.yield %m : tensor<3xf32>
  }
  %y = relay.if %c : tensor<i1> -> tensor<3xf32> {
    %e = relay.exp %x : (tensor<3xf32>) -> tensor<3xf32>
    %k = relay.call %sq(%e) : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, tensor<3xf32>) -> tensor<3xf32>
    relay.yield %k : tensor<3xf32>
  } else {
    relay.yield %x : tensor<3xf32>
  }
  %s = relay.sum %y : (tensor<3xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
func.func @main() -> !relay.incomplete {
  %f = relay.global_fn @f : !relay.fn<(tensor<3xf32>, tensor<i1>) -> tensor<f32>>
  %g = relay.grad %f {wrt = array<i64: 0>} : (!relay.fn<(tensor<3xf32>, tensor<i1>) -> tensor<f32>>) -> !relay.incomplete
  return %g : !relay.incomplete
}

// -----

// `relay.grad` of a closure becomes a closure in place. wrt/keeping/seedable:
// only parameter #1, no result, and the result's adjoint as a last parameter
// (d(a*b*k)/db = seed * k * a).
// CHECK-LABEL: func.func @closure(
// CHECK-SAME:    %[[K:[^:]*]]: tensor<2xf32>) -> !relay.fn<(tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>>>
// CHECK:         relay.fn : !relay.fn<(tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>>> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<2xf32>, %{{.*}}: tensor<2xf32>, %[[SEED:.*]]: tensor<2xf32>):
// CHECK-NEXT:      %[[T:.*]] = relay.multiply %[[SEED]], %[[K]]
// CHECK-NEXT:      %[[DB:.*]] = relay.multiply %[[T]], %[[A]]
// CHECK-NEXT:      %[[R:.*]] = relay.tuple %[[DB]]
// CHECK-NEXT:      relay.yield %[[R]]
// CHECK-NOT:     relay.grad
func.func @closure(%k: tensor<2xf32>) -> !relay.incomplete {
  %f = relay.fn : !relay.fn<(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    %m = relay.multiply %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %n = relay.multiply %m, %k : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    relay.yield %n : tensor<2xf32>
  }
  %g = relay.grad %f {wrt = array<i64: 1>, keeping = false, seedable} : (!relay.fn<(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>>) -> !relay.incomplete
  return %g : !relay.incomplete
}

// -----

// Second derivatives: the gradient function holds a `relay.grad` itself;
// the pass repeats until none is left. A tuple result is seeded on every
// float field.
// CHECK-LABEL: func.func @cube$grad$nokeep
// CHECK-LABEL: func.func @dcube$grad(%{{.*}}: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
// CHECK-NOT:     relay.grad
// CHECK-NOT:     relay.call
// CHECK:         return
func.func @cube(%x: tensor<f32>) -> tensor<f32> {
  %a = relay.multiply %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %b = relay.multiply %a, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @dcube(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.global_fn @cube : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %g = relay.grad %f {keeping = false} : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.incomplete
  %r = relay.call %g(%x) : (!relay.incomplete, tensor<f32>) -> !relay.incomplete
  %d = relay.tuple_get_item %r[0] : (!relay.incomplete) -> tensor<f32>
  return %d : tensor<f32>
}
func.func @second(%x: tensor<f32>) -> !relay.incomplete {
  %f = relay.global_fn @dcube : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %g = relay.grad %f : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.incomplete
  %r = relay.call %g(%x) : (!relay.incomplete, tensor<f32>) -> !relay.incomplete
  return %r : !relay.incomplete
}

// -----

// Recursion: @pow$vjp returns (result, pullback); its recursive call is a
// $vjp call whose pullback the branch's own pullback applies, and the `if`
// around it yields (result, branch pullback) instead of being recomputed.
// CHECK-LABEL: func.func @pow$vjp(
// CHECK-SAME:    -> tuple<tensor<3xf32>, !relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<i32>>>>
// CHECK:         relay.if %{{.*}} : tensor<i1> -> tuple<tensor<3xf32>, !relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>>>>
// CHECK:           %[[PAIR:.*]] = func.call @pow$vjp({{.*}}) {relay.ad.vjp}
// CHECK:           relay.fn : !relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>>> {
// CHECK:             %[[PB:.*]] = relay.tuple_get_item %[[PAIR]][1]
// CHECK:             relay.call %[[PB]](
// CHECK-LABEL: func.func @pow$grad$wrt_0(
// CHECK:         func.call @pow$vjp({{.*}}) {relay.ad.vjp}
// CHECK:         relay.call
// CHECK:         return
func.func @pow(%x: tensor<3xf32>, %n: tensor<i32>) -> tensor<3xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<3xf32> {
    %o = relay.ones_like %x : (tensor<3xf32>) -> tensor<3xf32>
    relay.yield %o : tensor<3xf32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %k = func.call @pow(%x, %m) : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
    %y = relay.multiply %x, %k : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    relay.yield %y : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
func.func @main() -> !relay.incomplete {
  %f = relay.global_fn @pow : !relay.fn<(tensor<3xf32>, tensor<i32>) -> tensor<3xf32>>
  %g = relay.grad %f {wrt = array<i64: 0>} : (!relay.fn<(tensor<3xf32>, tensor<i32>) -> tensor<3xf32>>) -> !relay.incomplete
  return %g : !relay.incomplete
}

// -----

// An NHWC/HWIO conv2d is differentiated in NCHW/OIHW: operands and adjoint
// transposed in, the data adjoint (conv2d_transpose) and the weight adjoint
// (a convolution over the batch) transposed back.
// CHECK-LABEL: func.func @nhwc$grad
// CHECK:         relay.transpose %{{.*}} {axes = array<i64: 0, 3, 1, 2>}
// CHECK:         relay.nn.conv2d_transpose
// CHECK:         relay.transpose %{{.*}} {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x5x5x2xf32>
// CHECK:         relay.transpose %{{.*}} {axes = array<i64: 2, 3, 1, 0>} : (tensor<4x2x3x3xf32>) -> tensor<3x3x2x4xf32>
func.func @nhwc(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<f32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x5x5x4xf32>
  %s = relay.sum %y : (tensor<1x5x5x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
func.func @main() -> !relay.incomplete {
  %f = relay.global_fn @nhwc : !relay.fn<(tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<f32>>
  %g = relay.grad %f : (!relay.fn<(tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<f32>>) -> !relay.incomplete
  return %g : !relay.incomplete
}

// -----

// ADTs: the backward pass of a `match` is the same match (wildcards bound to
// variables), each clause yielding its captures' adjoints and the matched
// value's, rebuilt with the clause's constructor; a `construct`'s adjoint is
// split back into fields by a partial match. Zeros and sums of ADT adjoints
// are generated functions, one per ADT type.
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}

func.func @head_sin(%x: tensor<3xf32>) -> tensor<3xf32> {
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<3xf32>>
  %sq = relay.multiply %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = relay.construct @List::@Cons(%sq, %nil) : (tensor<3xf32>, !relay.adt<@List, tensor<3xf32>>) -> !relay.adt<@List, tensor<3xf32>>
  %r = relay.match %l : !relay.adt<@List, tensor<3xf32>> -> tensor<3xf32> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%h: tensor<3xf32>) {
      %y = relay.sin %h : (tensor<3xf32>) -> tensor<3xf32>
      relay.yield %y : tensor<3xf32>
    }
    case #relay.pat_wildcard {
      relay.yield %x : tensor<3xf32>
    }
  }
  return %r : tensor<3xf32>
}

// CHECK-LABEL: func.func @head_sin$grad
// CHECK: %[[L:.*]] = relay.construct @List::@Cons
// CHECK: relay.match %[[L]] : {{.*}} -> tuple<tensor<3xf32>, !relay.adt<@List, tensor<3xf32>>> {
// CHECK-NEXT: case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%[[H:.*]]: tensor<3xf32>, %[[T:.*]]: !relay.adt<@List, tensor<3xf32>>) {
// CHECK: %[[COS:.*]] = relay.cos %[[H]]
// CHECK: %[[DH:.*]] = relay.multiply %{{.*}}, %[[COS]]
// CHECK: %[[DT:.*]] = func.call @ad$zeros$List(%[[T]])
// CHECK: relay.construct @List::@Cons(%[[DH]], %[[DT]])
// CHECK: case #relay.pat_var (%[[ALL:.*]]: !relay.adt<@List, tensor<3xf32>>) {
// CHECK: func.call @ad$zeros$List(%[[ALL]])
// CHECK: relay.match %{{.*}} : {{.*}} attributes {complete = false} {
// CHECK-NEXT: case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]>
// CHECK: func.func private @ad$zeros$List(%{{.*}}: !relay.adt<@List, tensor<3xf32>>) -> !relay.adt<@List, tensor<3xf32>>
// CHECK: relay.zeros_like
// CHECK: call @ad$zeros$List
func.func @main(%x: tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>> {
  %f = relay.global_fn @head_sin : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>
  %g = relay.grad %f : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>) -> !relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>>
  %r = relay.call %g(%x) : (!relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>>, tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
  return %r : tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
}

// -----

// A recursive function given a known function argument is specialised on it
// (its recursive calls pass it on, so they call the specialisation), then
// differentiated by pullbacks; the call of the function inside is inlined.
func.func @apply_n(%f: !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, %x: tensor<3xf32>, %n: tensor<i32>) -> tensor<3xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %stop = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<3xf32> {
    relay.yield %x : tensor<3xf32>
  } else {
    %y = relay.call %f(%x) : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, tensor<3xf32>) -> tensor<3xf32>
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %z = func.call @apply_n(%f, %y, %m) : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
    relay.yield %z : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

func.func @sin_fn(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = relay.sin %x : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func private @apply_n$spec0(%{{.*}}: tensor<3xf32>, %{{.*}}: tensor<i32>) -> tensor<3xf32>
// CHECK: func.call @sin_fn(
// CHECK: func.call @apply_n$spec0(
// CHECK-LABEL: func.func private @apply_n$spec0$vjp(
// CHECK: func.call @apply_n$spec0$vjp(
// CHECK-LABEL: func.func @sin3$grad(
// CHECK: call @apply_n$spec0$vjp(
func.func @sin3(%x: tensor<3xf32>) -> tensor<3xf32> {
  %f = relay.global_fn @sin_fn : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>
  %n = relay.constant dense<3> : tensor<i32>
  %r = func.call @apply_n(%f, %x, %n) : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @main(%x: tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>> {
  %f = relay.global_fn @sin3 : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>
  %g = relay.grad %f : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>) -> !relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>>
  %r = relay.call %g(%x) : (!relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>>, tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
  return %r : tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
}

// -----

// A recursive closure (capturing %x) becomes a module function of its
// captures and parameters, whose calls of itself are direct calls; it is
// then differentiated by pullbacks.
// CHECK-LABEL: func.func @rec_local$grad(
// CHECK: call @closure$rec$vjp(
// CHECK-LABEL: func.func private @closure$rec(%{{.*}}: tensor<3xf32>, %{{.*}}: tensor<3xf32>, %{{.*}}: tensor<i32>) -> tensor<3xf32>
// CHECK: call @closure$rec(
func.func @rec_local(%x: tensor<3xf32>) -> tensor<3xf32> {
  %loop = relay.fn recursive : !relay.fn<(tensor<3xf32>, tensor<i32>) -> tensor<3xf32>> {
  ^bb0(%self: !relay.fn<(tensor<3xf32>, tensor<i32>) -> tensor<3xf32>>, %h: tensor<3xf32>, %n: tensor<i32>):
    %zero = relay.constant dense<0> : tensor<i32>
    %done = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %r = relay.if %done : tensor<i1> -> tensor<3xf32> {
      relay.yield %h : tensor<3xf32>
    } else {
      %s = relay.sin %h : (tensor<3xf32>) -> tensor<3xf32>
      %y = relay.multiply %s, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %one = relay.constant dense<1> : tensor<i32>
      %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %k = relay.call %self(%y, %m) : (!relay.fn<(tensor<3xf32>, tensor<i32>) -> tensor<3xf32>>, tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
      relay.yield %k : tensor<3xf32>
    }
    relay.yield %r : tensor<3xf32>
  }
  %three = relay.constant dense<3> : tensor<i32>
  %r = relay.call %loop(%x, %three) : (!relay.fn<(tensor<3xf32>, tensor<i32>) -> tensor<3xf32>>, tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @main(%x: tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>> {
  %f = relay.global_fn @rec_local : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>
  %g = relay.grad %f : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>) -> !relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>>
  %r = relay.call %g(%x) : (!relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>>, tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
  return %r : tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
}

// -----

// A reference read and written only in its own block is promoted to the
// values written to it before the sweep: no reference op is left.
// CHECK-LABEL: func.func @accumulate$grad(
// CHECK-NOT: relay.ref_
// CHECK: return
func.func @accumulate(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = relay.ref_new %x : (tensor<3xf32>) -> !relay.ref<tensor<3xf32>>
  %a = relay.ref_read %r : (!relay.ref<tensor<3xf32>>) -> tensor<3xf32>
  %s = relay.sin %a : (tensor<3xf32>) -> tensor<3xf32>
  %u = relay.ref_write %r, %s : (!relay.ref<tensor<3xf32>>, tensor<3xf32>) -> tuple<>
  %b = relay.ref_read %r : (!relay.ref<tensor<3xf32>>) -> tensor<3xf32>
  %y = relay.multiply %b, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

func.func @main(%x: tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>> {
  %f = relay.global_fn @accumulate : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>
  %g = relay.grad %f : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>) -> !relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>>
  %r = relay.call %g(%x) : (!relay.fn<(tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>>, tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
  return %r : tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
}
