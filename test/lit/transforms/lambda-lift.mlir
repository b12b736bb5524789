// RUN: relay-mlir-opt %s -relay-lambda-lift | FileCheck %s
// The lifted program verifies and is well typed:
// RUN: relay-mlir-opt %s -relay-lambda-lift -relay-infer-type | FileCheck %s
// No relay.fn is left:
// RUN: relay-mlir-opt %s -relay-lambda-lift | FileCheck %s --check-prefix=NOFN
// NOFN-NOT: = relay.fn

// A closure capturing a value of its function: the lifted function takes
// the capture first.
// CHECK-LABEL: func.func @capture
// CHECK-SAME: (%[[X:.+]]: tensor<3x4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[F:.+]] = relay.closure @capture$fn0(%[[B]] : tensor<4xf32>) : !relay.fn<(tensor<3x4xf32>) -> tensor<3x4xf32>>
// CHECK: relay.call %[[F]](%[[X]])
// CHECK-NOT: = relay.fn
// CHECK-LABEL: func.func private @capture$fn0
// CHECK-SAME: (%[[B2:.+]]: tensor<4xf32>, %[[P:.+]]: tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: %[[Q:.+]] = relay.add %[[P]], %[[B2]]
// CHECK: return %[[Q]] : tensor<3x4xf32>
func.func @capture(%x: tensor<3x4xf32>, %bias: tensor<4xf32>) -> tensor<3x4xf32> {
  %f = relay.fn : !relay.fn<(tensor<3x4xf32>) -> tensor<3x4xf32>> {
  ^bb0(%p: tensor<3x4xf32>):
    %q = relay.add %p, %bias : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
    relay.yield %q : tensor<3x4xf32>
  }
  %y = relay.call %f(%x) : (!relay.fn<(tensor<3x4xf32>) -> tensor<3x4xf32>>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// Currying without captures: the inner closure captures the outer one's
// parameter; the outer closure captures nothing, so its relay.closure has
// no operands. Innermost first: the inner closure is $fn0.
// CHECK-LABEL: func.func @curry
// CHECK: %[[ADD:.+]] = relay.closure @curry$fn1() : !relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>
// CHECK: %[[ADD1:.+]] = relay.call %[[ADD]](%{{.*}})
// CHECK: relay.call %[[ADD1]](%{{.*}})
// CHECK-LABEL: func.func private @curry$fn0
// CHECK-SAME: (%[[CX:.+]]: tensor<2xf32>, %[[CY:.+]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK: relay.add %[[CX]], %[[CY]]
// CHECK-LABEL: func.func private @curry$fn1
// CHECK-SAME: (%[[OX:.+]]: tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
// CHECK: %[[IN:.+]] = relay.closure @curry$fn0(%[[OX]] : tensor<2xf32>) : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
// CHECK: return %[[IN]]
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

// Nested closures: the inner one captures the outer one's parameter and a
// value of the function, so the outer one captures that value in turn.
// Captures are ordered by first use.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[A:.+]]: tensor<2xf32>, %[[K:.+]]: tensor<2xf32>)
// CHECK: relay.closure @nested$fn1(%[[K]] : tensor<2xf32>)
// CHECK-LABEL: func.func private @nested$fn0
// CHECK-SAME: (%[[NX:.+]]: tensor<2xf32>, %[[NK:.+]]: tensor<2xf32>, %[[NY:.+]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[S:.+]] = relay.add %[[NX]], %[[NY]]
// CHECK: relay.multiply %[[S]], %[[NK]]
// CHECK-LABEL: func.func private @nested$fn1
// CHECK-SAME: (%[[OK:.+]]: tensor<2xf32>, %[[OX2:.+]]: tensor<2xf32>)
// CHECK: relay.closure @nested$fn0(%[[OX2]], %[[OK]] : tensor<2xf32>, tensor<2xf32>)
func.func @nested(%a: tensor<2xf32>, %k: tensor<2xf32>) -> tensor<2xf32> {
  %adder = relay.fn : !relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>> {
  ^bb0(%x: tensor<2xf32>):
    %inner = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
    ^bb0(%y: tensor<2xf32>):
      %s = relay.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      %t = relay.multiply %s, %k : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      relay.yield %t : tensor<2xf32>
    }
    relay.yield %inner : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  }
  %add_a = relay.call %adder(%a) : (!relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>, tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %r = relay.call %add_a(%a) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// A recursive closure: its self reference becomes a relay.closure of the
// lifted function's own captures.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[N:.+]]: tensor<i32>)
// CHECK: %[[ONE:.+]] = relay.ones_like
// CHECK: %[[L:.+]] = relay.closure @loop$fn0(%[[N]], %[[ONE]] : tensor<i32>, tensor<i32>) : !relay.fn<(tensor<i32>) -> tensor<i32>>
// CHECK: relay.call %[[L]]
// CHECK-LABEL: func.func private @loop$fn0
// CHECK-SAME: (%[[LN:.+]]: tensor<i32>, %[[LONE:.+]]: tensor<i32>, %[[I:.+]]: tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[SELF:.+]] = relay.closure @loop$fn0(%[[LN]], %[[LONE]] : tensor<i32>, tensor<i32>) : !relay.fn<(tensor<i32>) -> tensor<i32>>
// CHECK: relay.less %[[I]], %[[LN]]
// CHECK: %[[J:.+]] = relay.add %[[I]], %[[LONE]]
// CHECK: relay.call %[[SELF]](%[[J]])
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

// A recursive closure that never calls itself has no self closure.
// CHECK-LABEL: func.func private @unused_self$fn0
// CHECK-SAME: (%[[UX:.+]]: tensor<i32>) -> tensor<i32>
// CHECK-NEXT: return %[[UX]]
func.func @unused_self() -> !relay.fn<(tensor<i32>) -> tensor<i32>> {
  %f = relay.fn recursive : !relay.fn<(tensor<i32>) -> tensor<i32>> {
  ^bb0(%self: !relay.fn<(tensor<i32>) -> tensor<i32>>, %i: tensor<i32>):
    relay.yield %i : tensor<i32>
  }
  return %f : !relay.fn<(tensor<i32>) -> tensor<i32>>
}

// Closures inside relay.if and relay.match regions: the closure op stays
// where the relay.fn was; a pattern variable can be captured.
relay.adt @Opt [] {
  relay.constructor @Some [tensor<f32>]
  relay.constructor @None []
}
// CHECK-LABEL: func.func @in_regions
// CHECK-SAME: (%[[C:.+]]: tensor<i1>, %[[O:.+]]: !relay.adt<@Opt>, %[[RX:.+]]: tensor<f32>)
// CHECK: relay.if %[[C]]
// CHECK: %[[G:.+]] = relay.closure @in_regions$fn0(%[[RX]] : tensor<f32>)
// CHECK: relay.call %[[G]](%[[RX]])
// CHECK: } else {
// CHECK: relay.match %[[O]]
// CHECK: case #relay.pat_ctor<@Opt::@Some, [#relay.pat_var]> (%[[V:.+]]: tensor<f32>)
// CHECK: %[[H:.+]] = relay.closure @in_regions$fn1(%[[V]] : tensor<f32>)
// CHECK: relay.call %[[H]](%[[RX]])
// CHECK-LABEL: func.func private @in_regions$fn0
// CHECK-SAME: (%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK: relay.add
// CHECK-LABEL: func.func private @in_regions$fn1
// CHECK-SAME: (%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK: relay.multiply
func.func @in_regions(%c: tensor<i1>, %o: !relay.adt<@Opt>, %x: tensor<f32>) -> tensor<f32> {
  %r = relay.if %c : tensor<i1> -> tensor<f32> {
    %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
    ^bb0(%p: tensor<f32>):
      %q = relay.add %p, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
      relay.yield %q : tensor<f32>
    }
    %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
    relay.yield %y : tensor<f32>
  } else {
    %m = relay.match %o : !relay.adt<@Opt> -> tensor<f32> {
      case #relay.pat_ctor<@Opt::@Some, [#relay.pat_var]> (%v: tensor<f32>) {
        %g = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
        ^bb0(%p: tensor<f32>):
          %q = relay.multiply %p, %v : (tensor<f32>, tensor<f32>) -> tensor<f32>
          relay.yield %q : tensor<f32>
        }
        %z = relay.call %g(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
        relay.yield %z : tensor<f32>
      }
      case #relay.pat_wildcard {
        relay.yield %x : tensor<f32>
      }
    }
    relay.yield %m : tensor<f32>
  }
  return %r : tensor<f32>
}

// A name already taken is skipped.
// CHECK-LABEL: func.func @taken
// CHECK: relay.closure @taken$fn1()
func.func @taken() -> !relay.fn<(tensor<f32>) -> tensor<f32>> {
  %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
  ^bb0(%p: tensor<f32>):
    relay.yield %p : tensor<f32>
  }
  return %f : !relay.fn<(tensor<f32>) -> tensor<f32>>
}
// CHECK-LABEL: func.func private @taken$fn1
func.func private @taken$fn0() {
  return
}

// A constant the closure uses from outside (canonicalization hoists
// constants out of closures) is copied into the lifted function, not
// captured: a captured constant was boxed into the closure's data at run
// time, which IREE 3.13 then read back out of range (random-program fuzzer,
// seed 3 programs 374 and 606).
// CHECK-LABEL: func.func @constant_use
// CHECK: relay.closure @constant_use$fn{{[0-9]*}}() :
// CHECK-LABEL: func.func private @constant_use$fn
// CHECK-SAME: (%{{.*}}: tensor<2xf32>) -> tensor<2xf32>
// CHECK: relay.constant dense<3.000000e-01> : tensor<f32>
func.func @constant_use(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = relay.constant dense<0.3> : tensor<f32>
  %f = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%p: tensor<2xf32>):
    %y = relay.multiply %p, %c : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    relay.yield %y : tensor<2xf32>
  }
  %r = relay.call %f(%x) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
