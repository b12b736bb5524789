// RUN: relay-mlir-opt %s -relay-lambda-lift -relay-defunctionalize -split-input-file | FileCheck %s
// The result verifies and is well typed (relay-infer-type changes nothing):
// RUN: relay-mlir-opt %s -relay-lambda-lift -relay-defunctionalize -relay-infer-type -split-input-file | FileCheck %s
// No function value is left:
// RUN: relay-mlir-opt %s -relay-lambda-lift -relay-defunctionalize -split-input-file | FileCheck %s --check-prefix=NOFN
// NOFN-NOT: !relay.fn
// NOFN-NOT: relay.fn
// NOFN-NOT: relay.closure
// NOFN-NOT: relay.global_fn
// NOFN-NOT: relay.call

// A closure and a global passed to a higher-order global `twice`: one ADT
// for the type with a constructor per function (the closure's carries its
// capture), one apply function dispatching on it.
// CHECK-LABEL: relay.adt @Fn$0 [] {
// CHECK-NEXT: relay.constructor @main$fn0 [tensor<5xf32>]
// CHECK-NEXT: relay.constructor @square []
// CHECK-NEXT: }
// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[F:.+]]: !relay.adt<@Fn$0>, %[[X:.+]]: tensor<5xf32>) -> tensor<5xf32>
// CHECK: %[[Y:.+]] = {{(func\.)?}}call @apply$0(%[[F]], %[[X]]) : (!relay.adt<@Fn$0>, tensor<5xf32>) -> tensor<5xf32>
// CHECK: {{(func\.)?}}call @apply$0(%[[F]], %[[Y]])
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[MX:.+]]: tensor<5xf32>, %[[MB:.+]]: tensor<5xf32>)
// CHECK: %[[C:.+]] = relay.construct @Fn$0::@main$fn0(%[[MB]]) : (tensor<5xf32>) -> !relay.adt<@Fn$0>
// CHECK: {{(func\.)?}}call @twice(%[[C]], %[[MX]])
// CHECK: %[[SQ:.+]] = relay.construct @Fn$0::@square() : () -> !relay.adt<@Fn$0>
// CHECK: {{(func\.)?}}call @twice(%[[SQ]], %[[MX]])
// CHECK-LABEL: func.func private @main$fn0
// CHECK-SAME: (%{{.*}}: tensor<5xf32>, %{{.*}}: tensor<5xf32>) -> tensor<5xf32>
// CHECK-LABEL: func.func private @apply$0
// CHECK-SAME: (%[[CLO:.+]]: !relay.adt<@Fn$0>, %[[A:.+]]: tensor<5xf32>) -> tensor<5xf32>
// CHECK: %[[R:.+]] = relay.match %[[CLO]] : !relay.adt<@Fn$0> -> tensor<5xf32> {
// CHECK-NEXT: case #relay.pat_ctor<@Fn$0::@main$fn0, [#relay.pat_var]> (%[[CAP:.+]]: tensor<5xf32>) {
// CHECK-NEXT: %[[V:.+]] = {{(func\.)?}}call @main$fn0(%[[CAP]], %[[A]]) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: relay.yield %[[V]] : tensor<5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: case #relay.pat_ctor<@Fn$0::@square, []> {
// CHECK-NEXT: %[[W:.+]] = {{(func\.)?}}call @square(%[[A]]) : (tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: relay.yield %[[W]] : tensor<5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : tensor<5xf32>
func.func @twice(%f: !relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, %x: tensor<5xf32>) -> tensor<5xf32> {
  %y = relay.call %f(%x) : (!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>
  %z = relay.call %f(%y) : (!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>
  return %z : tensor<5xf32>
}
func.func @square(%x: tensor<5xf32>) -> tensor<5xf32> {
  %y = relay.multiply %x, %x : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}
func.func @main(%x: tensor<5xf32>, %b: tensor<5xf32>) -> tuple<tensor<5xf32>, tensor<5xf32>> {
  %addb = relay.fn : !relay.fn<(tensor<5xf32>) -> tensor<5xf32>> {
  ^bb0(%p: tensor<5xf32>):
    %q = relay.add %p, %b : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    relay.yield %q : tensor<5xf32>
  }
  %a = func.call @twice(%addb, %x) : (!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>
  %sq = relay.global_fn @square : !relay.fn<(tensor<5xf32>) -> tensor<5xf32>>
  %c = func.call @twice(%sq, %x) : (!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>
  %t = relay.tuple %a, %c : (tensor<5xf32>, tensor<5xf32>) -> tuple<tensor<5xf32>, tensor<5xf32>>
  return %t : tuple<tensor<5xf32>, tensor<5xf32>>
}

// -----

// Currying: the outer closure is called where it is built, a direct call
// of its function (no ADT for the outer function type); the closure it
// returns flows as a value of the inner type's ADT.
// CHECK-LABEL: relay.adt @Fn$0 [] {
// CHECK-NEXT: relay.constructor @curry$fn0 [tensor<2xf32>]
// CHECK-NEXT: }
// CHECK-NOT: relay.adt
// CHECK-LABEL: func.func @curry
// CHECK-SAME: (%[[A:.+]]: tensor<2xf32>)
// CHECK: %[[ADD1:.+]] = {{(func\.)?}}call @curry$fn1(%[[A]]) : (tensor<2xf32>) -> !relay.adt<@Fn$0>
// CHECK: {{(func\.)?}}call @apply$0(%[[ADD1]], %[[A]]) : (!relay.adt<@Fn$0>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-LABEL: func.func private @curry$fn1
// CHECK-SAME: (%[[OX:.+]]: tensor<2xf32>) -> !relay.adt<@Fn$0>
// CHECK: relay.construct @Fn$0::@curry$fn0(%[[OX]]) : (tensor<2xf32>) -> !relay.adt<@Fn$0>
// CHECK-LABEL: func.func private @apply$0
// CHECK-SAME: (%{{.*}}: !relay.adt<@Fn$0>, %{{.*}}: tensor<2xf32>) -> tensor<2xf32>
// CHECK: case #relay.pat_ctor<@Fn$0::@curry$fn0, [#relay.pat_var]>
// CHECK: {{(func\.)?}}call @curry$fn0
func.func @curry(%a: tensor<2xf32>) -> tensor<2xf32> {
  %adder = relay.fn : !relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>> {
  ^bb0(%x: tensor<2xf32>):
    %inner = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
    ^bb0(%y: tensor<2xf32>):
      %s = relay.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      relay.yield %s : tensor<2xf32>
    }
    relay.yield %inner : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  }
  %add_a = relay.call %adder(%a) : (!relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>, tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %r = relay.call %add_a(%a) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Two closures of one type (different captures) reach one call site; a
// global with two results is a function returning a tuple.
// CHECK-LABEL: relay.adt @Fn$0 [] {
// CHECK-NEXT: relay.constructor @choose$fn0 [tensor<f32>]
// CHECK-NEXT: relay.constructor @choose$fn1 [tensor<f32>, tensor<f32>]
// CHECK-NEXT: }
// CHECK-NEXT: relay.adt @Fn$1 [] {
// CHECK-NEXT: relay.constructor @pair []
// CHECK-NEXT: }
// CHECK-LABEL: func.func @choose
// CHECK-SAME: (%[[CC:.+]]: tensor<i1>, %[[CA:.+]]: tensor<f32>, %[[CB:.+]]: tensor<f32>, %[[CX:.+]]: tensor<f32>)
// CHECK: %[[SEL:.+]] = relay.if %[[CC]] : tensor<i1> -> !relay.adt<@Fn$0> {
// CHECK: relay.construct @Fn$0::@choose$fn0(%[[CA]]) : (tensor<f32>) -> !relay.adt<@Fn$0>
// CHECK: } else {
// CHECK: relay.construct @Fn$0::@choose$fn1(%[[CB]], %[[CA]]) : (tensor<f32>, tensor<f32>) -> !relay.adt<@Fn$0>
// CHECK: {{(func\.)?}}call @apply$0(%[[SEL]], %[[CX]])
// CHECK: %[[P:.+]] = relay.construct @Fn$1::@pair()
// CHECK: {{(func\.)?}}call @apply$1(%[[P]], %[[CX]]) : (!relay.adt<@Fn$1>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
// CHECK-LABEL: func.func private @apply$0
// CHECK: case #relay.pat_ctor<@Fn$0::@choose$fn0, [#relay.pat_var]> (%[[K0:.+]]: tensor<f32>)
// CHECK: {{(func\.)?}}call @choose$fn0(%[[K0]], %{{.*}})
// CHECK: case #relay.pat_ctor<@Fn$0::@choose$fn1, [#relay.pat_var, #relay.pat_var]> (%[[K1:.+]]: tensor<f32>, %[[K2:.+]]: tensor<f32>)
// CHECK: {{(func\.)?}}call @choose$fn1(%[[K1]], %[[K2]], %{{.*}})
// CHECK-LABEL: func.func private @apply$1
// CHECK: case #relay.pat_ctor<@Fn$1::@pair, []> {
// CHECK-NEXT: %[[PR:.+]]:2 = {{(func\.)?}}call @pair(%{{.*}}) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[T:.+]] = relay.tuple %[[PR]]#0, %[[PR]]#1 : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
// CHECK-NEXT: relay.yield %[[T]]
func.func @pair(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %x, %x : tensor<f32>, tensor<f32>
}
func.func @choose(%c: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>, %x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>, tensor<f32>>> {
  %f = relay.if %c : tensor<i1> -> !relay.fn<(tensor<f32>) -> tensor<f32>> {
    %g = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
    ^bb0(%p: tensor<f32>):
      %q = relay.add %p, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
      relay.yield %q : tensor<f32>
    }
    relay.yield %g : !relay.fn<(tensor<f32>) -> tensor<f32>>
  } else {
    %h = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
    ^bb0(%p: tensor<f32>):
      %s = relay.multiply %p, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %t = relay.subtract %s, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
      relay.yield %t : tensor<f32>
    }
    relay.yield %h : !relay.fn<(tensor<f32>) -> tensor<f32>>
  }
  %r = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %pf = relay.global_fn @pair : !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>>
  %pr = relay.call %pf(%x) : (!relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  %res = relay.tuple %r, %pr : (tensor<f32>, tuple<tensor<f32>, tensor<f32>>) -> tuple<tensor<f32>, tuple<tensor<f32>, tensor<f32>>>
  return %res : tuple<tensor<f32>, tuple<tensor<f32>, tensor<f32>>>
}

// -----

// A higher-order global as a value (through a tuple: called where it is
// built, it would be a direct call): its type takes a function, so its
// apply function takes the inner type's ADT.
// CHECK-LABEL: relay.adt @Fn$0 [] {
// CHECK-NEXT: relay.constructor @neg []
// CHECK-NEXT: }
// CHECK-NEXT: relay.adt @Fn$1 [] {
// CHECK-NEXT: relay.constructor @twice []
// CHECK-NEXT: }
// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%{{.*}}: !relay.adt<@Fn$0>, %{{.*}}: tensor<5xf32>) -> tensor<5xf32>
// CHECK-LABEL: func.func @main
// CHECK: %[[T:.+]] = relay.construct @Fn$1::@twice() : () -> !relay.adt<@Fn$1>
// CHECK: %[[N:.+]] = relay.construct @Fn$0::@neg() : () -> !relay.adt<@Fn$0>
// CHECK: %[[TT:.+]] = relay.tuple %[[T]]
// CHECK: %[[T2:.+]] = relay.tuple_get_item %[[TT]][0]
// CHECK: {{(func\.)?}}call @apply$1(%[[T2]], %[[N]], %{{.*}}) : (!relay.adt<@Fn$1>, !relay.adt<@Fn$0>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-LABEL: func.func private @apply$1
// CHECK-SAME: (%{{.*}}: !relay.adt<@Fn$1>, %[[G:.+]]: !relay.adt<@Fn$0>, %[[GX:.+]]: tensor<5xf32>) -> tensor<5xf32>
// CHECK: {{(func\.)?}}call @twice(%[[G]], %[[GX]]) : (!relay.adt<@Fn$0>, tensor<5xf32>) -> tensor<5xf32>
func.func @twice(%f: !relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, %x: tensor<5xf32>) -> tensor<5xf32> {
  %y = relay.call %f(%x) : (!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>
  %z = relay.call %f(%y) : (!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>
  return %z : tensor<5xf32>
}
func.func @neg(%x: tensor<5xf32>) -> tensor<5xf32> {
  %y = relay.negative %x : (tensor<5xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}
func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %t = relay.global_fn @twice : !relay.fn<(!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>>
  %n = relay.global_fn @neg : !relay.fn<(tensor<5xf32>) -> tensor<5xf32>>
  %tt = relay.tuple %t : (!relay.fn<(!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>>) -> tuple<!relay.fn<(!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>>>
  %t2 = relay.tuple_get_item %tt[0] : (tuple<!relay.fn<(!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>>>) -> !relay.fn<(!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>>
  %r = relay.call %t2(%n, %x) : (!relay.fn<(!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>>, !relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

// Function values inside a List (an ADT argument), a tuple, a reference and
// a monomorphic constructor field all become the ADT.
// CHECK-LABEL: relay.adt @Fn$0 [] {
// CHECK-NEXT: relay.constructor @main$fn0 [tensor<f32>]
// CHECK-NEXT: relay.constructor @neg []
// CHECK-NEXT: }
// CHECK: relay.adt @List ["T"] {
// CHECK: relay.adt @Handler [] {
// CHECK-NEXT: relay.constructor @Handler [!relay.adt<@Fn$0>]
// CHECK-LABEL: func.func @apply_all
// CHECK-SAME: (%[[L:.+]]: !relay.adt<@List, !relay.adt<@Fn$0>>, %{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK: case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%[[H:.+]]: !relay.adt<@Fn$0>, %{{.*}}: !relay.adt<@List, !relay.adt<@Fn$0>>)
// CHECK: {{(func\.)?}}call @apply$0(%[[H]], %{{.*}})
// CHECK-LABEL: func.func @main
// CHECK: %[[F:.+]] = relay.construct @Fn$0::@main$fn0(%{{.*}}) : (tensor<f32>) -> !relay.adt<@Fn$0>
// CHECK: %[[G:.+]] = relay.construct @Fn$0::@neg() : () -> !relay.adt<@Fn$0>
// CHECK: relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.adt<@Fn$0>>
// CHECK: relay.construct @List::@Cons(%[[G]], %{{.*}}) : (!relay.adt<@Fn$0>, !relay.adt<@List, !relay.adt<@Fn$0>>) -> !relay.adt<@List, !relay.adt<@Fn$0>>
// CHECK: relay.tuple %[[F]], %{{.*}} : (!relay.adt<@Fn$0>, tensor<f32>) -> tuple<!relay.adt<@Fn$0>, tensor<f32>>
// CHECK: relay.tuple_get_item %{{.*}}[0] : (tuple<!relay.adt<@Fn$0>, tensor<f32>>) -> !relay.adt<@Fn$0>
// CHECK: relay.ref_new %[[G]] : (!relay.adt<@Fn$0>) -> !relay.ref<!relay.adt<@Fn$0>>
// CHECK: relay.ref_read %{{.*}} : (!relay.ref<!relay.adt<@Fn$0>>) -> !relay.adt<@Fn$0>
// CHECK: relay.construct @Handler::@Handler(%[[F]]) : (!relay.adt<@Fn$0>) -> !relay.adt<@Handler>
// CHECK: case #relay.pat_ctor<@Handler::@Handler, [#relay.pat_var]> (%{{.*}}: !relay.adt<@Fn$0>)
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
relay.adt @Handler [] {
  relay.constructor @Handler [!relay.fn<(tensor<f32>) -> tensor<f32>>]
}
func.func @apply_all(%l: !relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>, %x: tensor<f32>) -> tensor<f32> {
  %r = relay.match %l : !relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>> -> tensor<f32> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%h: !relay.fn<(tensor<f32>) -> tensor<f32>>, %t: !relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>) {
      %y = relay.call %h(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
      %z = func.call @apply_all(%t, %y) : (!relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>, tensor<f32>) -> tensor<f32>
      relay.yield %z : tensor<f32>
    }
    case #relay.pat_wildcard {
      relay.yield %x : tensor<f32>
    }
  }
  return %r : tensor<f32>
}
func.func @neg(%x: tensor<f32>) -> tensor<f32> {
  %y = relay.negative %x : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @main(%x: tensor<f32>, %k: tensor<f32>) -> tensor<f32> {
  %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
  ^bb0(%p: tensor<f32>):
    %q = relay.multiply %p, %k : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.yield %q : tensor<f32>
  }
  %g = relay.global_fn @neg : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>
  %l1 = relay.construct @List::@Cons(%g, %nil) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, !relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>) -> !relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>
  %l2 = relay.construct @List::@Cons(%f, %l1) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, !relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>) -> !relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>
  %a = func.call @apply_all(%l2, %x) : (!relay.adt<@List, !relay.fn<(tensor<f32>) -> tensor<f32>>>, tensor<f32>) -> tensor<f32>
  %t = relay.tuple %f, %a : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tuple<!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>>
  %h = relay.tuple_get_item %t[0] : (tuple<!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tensor<f32>>
  %b = relay.call %h(%a) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %r = relay.ref_new %g : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.ref<!relay.fn<(tensor<f32>) -> tensor<f32>>>
  %u = relay.ref_write %r, %f : (!relay.ref<!relay.fn<(tensor<f32>) -> tensor<f32>>>, !relay.fn<(tensor<f32>) -> tensor<f32>>) -> tuple<>
  %v = relay.ref_read %r : (!relay.ref<!relay.fn<(tensor<f32>) -> tensor<f32>>>) -> !relay.fn<(tensor<f32>) -> tensor<f32>>
  %c = relay.call %v(%b) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %hd = relay.construct @Handler::@Handler(%f) : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.adt<@Handler>
  %m = relay.match %hd : !relay.adt<@Handler> -> tensor<f32> {
    case #relay.pat_ctor<@Handler::@Handler, [#relay.pat_var]> (%hf: !relay.fn<(tensor<f32>) -> tensor<f32>>) {
      %w = relay.call %hf(%c) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
      relay.yield %w : tensor<f32>
    }
  }
  return %m : tensor<f32>
}

// -----

// A recursive closure called where it is built (TVM's while_loop): the
// closure rebuilt for its self call is called directly too, so no ADT is
// made and the lifted function calls itself (a loop for
// relay-eliminate-recursion, its captures plain arguments).
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[ARG:.+]]: tensor<i32>)
// CHECK: %[[ONE0:.+]] = relay.ones_like %[[ARG]]
// CHECK: {{(func\.)?}}call @loop$fn0(%[[ARG]], %[[ONE0]], %{{.*}}) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-LABEL: func.func private @loop$fn0
// CHECK-SAME: (%[[N:.+]]: tensor<i32>, %[[ONE:.+]]: tensor<i32>, %[[I:.+]]: tensor<i32>) -> tensor<i32>
// CHECK-NOT: relay.construct
// CHECK: %[[J:.+]] = relay.add %[[I]], %[[ONE]]
// CHECK: {{(func\.)?}}call @loop$fn0(%[[N]], %[[ONE]], %[[J]])
// CHECK-NOT: @apply
func.func @loop(%n: tensor<i32>) -> tensor<i32> {
  %one = relay.ones_like %n : (tensor<i32>) -> tensor<i32> // (a constant would be copied in, not captured)
  %loop = relay.fn recursive : !relay.fn<(tensor<i32>) -> tensor<i32>> {
  ^bb0(%self: !relay.fn<(tensor<i32>) -> tensor<i32>>, %i: tensor<i32>):
    %c = relay.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %r = relay.if %c : tensor<i1> -> tensor<i32> {
      %j = relay.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %k = relay.call %self(%j) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
      relay.yield %k : tensor<i32>
    } else {
      relay.yield %i : tensor<i32>
    }
    relay.yield %r : tensor<i32>
  }
  %zero = relay.constant dense<0> : tensor<i32>
  %r = relay.call %loop(%zero) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// A function type no value is ever made of: an ADT without constructors
// and an apply function matching with no clause (it can never be called
// with a value; compiled, a call fails at run time).
// CHECK-LABEL: relay.adt @Fn$0 [] {
// CHECK-NEXT: }
// CHECK-LABEL: func.func @takes
// CHECK-SAME: (%[[TF:.+]]: !relay.adt<@Fn$0>, %[[TX:.+]]: tensor<3xf32>)
// CHECK: {{(func\.)?}}call @apply$0(%[[TF]], %[[TX]])
// CHECK: func.func private @apply$0(%[[AF:.+]]: !relay.adt<@Fn$0>, %{{.*}}: tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[M:.+]] = relay.match %[[AF]] : !relay.adt<@Fn$0> -> tensor<3xf32> {
// CHECK-NEXT: }
// CHECK-NEXT: return %[[M]]
func.func @takes(%f: !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %y = relay.call %f(%x) : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// Existing symbols named like the new ones are skipped.
// CHECK-LABEL: relay.adt @Fn$1 [] {
// CHECK-NEXT: relay.constructor @id []
// CHECK: func.func private @apply$1
func.func private @apply$0() {
  return
}
func.func @id(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @user() -> !relay.fn<(tensor<f32>) -> tensor<f32>> {
  %f = relay.global_fn @id : !relay.fn<(tensor<f32>) -> tensor<f32>>
  return %f : !relay.fn<(tensor<f32>) -> tensor<f32>>
}

// -----

// A closure parameter written with Relay's `Any` (`?`) applied to a static
// tensor: tensor.cast converts the argument and the result.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[DX:.+]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[DF:.+]] = relay.construct @Fn$0::@dynamic$fn0()
// CHECK: %[[DC:.+]] = tensor.cast %[[DX]] : tensor<2xf32> to tensor<?xf32>
// CHECK: %[[DR:.+]] = {{(func\.)?}}call @apply$0(%[[DF]], %[[DC]]) : (!relay.adt<@Fn$0>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: %[[DY:.+]] = tensor.cast %[[DR]] : tensor<?xf32> to tensor<2xf32>
// CHECK: return %[[DY]] : tensor<2xf32>
func.func @dynamic(%x: tensor<2xf32>) -> tensor<2xf32> {
  %f = relay.fn : !relay.fn<(tensor<?xf32>) -> tensor<?xf32>> {
  ^bb0(%p: tensor<?xf32>):
    %q = relay.negative %p : (tensor<?xf32>) -> tensor<?xf32>
    relay.yield %q : tensor<?xf32>
  }
  %y = relay.call %f(%x) : (!relay.fn<(tensor<?xf32>) -> tensor<?xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// A closure inside a recursive closure captures its self reference, which
// flows as a value (a constructor of the ADT); the inner closure, called
// where it is built, is a direct call taking it.
// CHECK-LABEL: relay.adt @Fn$0 [] {
// CHECK-NEXT: relay.constructor @outer$fn1 [tensor<i32>]
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @outer$fn0
// CHECK-SAME: (%[[S:.+]]: !relay.adt<@Fn$0>, %[[J:.+]]: tensor<i32>) -> tensor<i32>
// CHECK-NEXT: {{(func\.)?}}call @apply$0(%[[S]], %[[J]])
// CHECK-LABEL: func.func private @outer$fn1
// CHECK-SAME: (%[[ON:.+]]: tensor<i32>, %[[OI:.+]]: tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[SELF:.+]] = relay.construct @Fn$0::@outer$fn1(%[[ON]]) : (tensor<i32>) -> !relay.adt<@Fn$0>
// CHECK: {{(func\.)?}}call @outer$fn0(%[[SELF]], %[[OI]])
// CHECK-LABEL: func.func private @apply$0
// CHECK: case #relay.pat_ctor<@Fn$0::@outer$fn1, [#relay.pat_var]> (%{{.*}}: tensor<i32>)
func.func @outer(%n: tensor<i32>) -> tensor<i32> {
  %loop = relay.fn recursive : !relay.fn<(tensor<i32>) -> tensor<i32>> {
  ^bb0(%self: !relay.fn<(tensor<i32>) -> tensor<i32>>, %i: tensor<i32>):
    %g = relay.fn : !relay.fn<(tensor<i32>) -> tensor<i32>> {
    ^bb0(%j: tensor<i32>):
      %k = relay.call %self(%j) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
      relay.yield %k : tensor<i32>
    }
    %c = relay.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %r = relay.if %c : tensor<i1> -> tensor<i32> {
      %k = relay.call %g(%i) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
      relay.yield %k : tensor<i32>
    } else {
      relay.yield %i : tensor<i32>
    }
    relay.yield %r : tensor<i32>
  }
  %r = relay.call %loop(%n) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}
