// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// A closure capturing outer values; its parameter type comes from the call.
// CHECK-LABEL: func.func @capture(%{{.*}}: tensor<3x4xf32>, %{{.*}}: tensor<4xf32>) -> tensor<3x4xf32>
func.func @capture(%x: tensor<3x4xf32>, %bias: tensor<4xf32>) -> !relay.incomplete {
  // CHECK: relay.fn : !relay.fn<(tensor<3x4xf32>) -> tensor<3x4xf32>>
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<3x4xf32>):
  %f = relay.fn : !relay.incomplete {
  ^bb0(%p: !relay.incomplete):
    %q = relay.add %p, %bias : (!relay.incomplete, tensor<4xf32>) -> !relay.incomplete
    %r = relay.nn.relu %q : (!relay.incomplete) -> !relay.incomplete
    relay.yield %r : !relay.incomplete
  }
  // CHECK: relay.call %{{.*}}(%{{.*}}) : (!relay.fn<(tensor<3x4xf32>) -> tensor<3x4xf32>>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = relay.call %f(%x) : (!relay.incomplete, tensor<3x4xf32>) -> !relay.incomplete
  return %y : !relay.incomplete
}

// Nested closures: the inner one captures the outer's parameter.
// CHECK-LABEL: func.func @nested
// CHECK: relay.fn : !relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>
// CHECK: relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
func.func @nested(%a: tensor<2xf32>) -> !relay.incomplete {
  %adder = relay.fn : !relay.incomplete {
  ^bb0(%x: !relay.incomplete):
    %inner = relay.fn : !relay.incomplete {
    ^bb0(%y: !relay.incomplete):
      %s = relay.add %x, %y : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      relay.yield %s : !relay.incomplete
    }
    relay.yield %inner : !relay.incomplete
  }
  %add_a = relay.call %adder(%a) : (!relay.incomplete, tensor<2xf32>) -> !relay.incomplete
  %r = relay.call %add_a(%a) : (!relay.incomplete, tensor<2xf32>) -> !relay.incomplete
  return %r : !relay.incomplete
}

// Higher-order: a closure and a global passed to a func.func that calls them.
// CHECK-LABEL: func.func @apply_twice(%{{.*}}: !relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, %{{.*}}: tensor<5xf32>) -> tensor<5xf32>
func.func @apply_twice(%f: !relay.incomplete, %x: tensor<5xf32>) -> !relay.incomplete {
  %y = relay.call %f(%x) : (!relay.incomplete, tensor<5xf32>) -> !relay.incomplete
  %z = relay.call %f(%y) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %z : !relay.incomplete
}

// CHECK-LABEL: func.func @square(%{{.*}}: tensor<5xf32>) -> tensor<5xf32>
func.func @square(%x: tensor<5xf32>) -> !relay.incomplete {
  %y = relay.multiply %x, %x : (tensor<5xf32>, tensor<5xf32>) -> !relay.incomplete
  return %y : !relay.incomplete
}

// CHECK-LABEL: func.func @higher_order(%{{.*}}: tensor<5xf32>) -> tuple<tensor<5xf32>, tensor<5xf32>>
func.func @higher_order(%x: tensor<5xf32>) -> !relay.incomplete {
  // CHECK: relay.fn : !relay.fn<(tensor<5xf32>) -> tensor<5xf32>>
  %neg = relay.fn : !relay.incomplete {
  ^bb0(%p: !relay.incomplete):
    %q = relay.negative %p : (!relay.incomplete) -> !relay.incomplete
    relay.yield %q : !relay.incomplete
  }
  // CHECK: call @apply_twice(%{{.*}}, %{{.*}}) : (!relay.fn<(tensor<5xf32>) -> tensor<5xf32>>, tensor<5xf32>) -> tensor<5xf32>
  %a = func.call @apply_twice(%neg, %x) : (!relay.incomplete, tensor<5xf32>) -> !relay.incomplete
  // CHECK: relay.global_fn @square : !relay.fn<(tensor<5xf32>) -> tensor<5xf32>>
  %sq = relay.global_fn @square : !relay.incomplete
  %b = func.call @apply_twice(%sq, %x) : (!relay.incomplete, tensor<5xf32>) -> !relay.incomplete
  %t = relay.tuple %a, %b : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %t : !relay.incomplete
}

// A recursive closure (Relay's while loop): the self reference shares the
// closure's type, so the recursive call gets its result type from the
// loop's other branch and the parameters from the call after it.
// CHECK-LABEL: func.func @while_loop(%{{.*}}: tensor<i32>) -> tensor<2xf32>
func.func @while_loop(%n: tensor<i32>) -> !relay.incomplete {
  %one = relay.constant dense<1> : tensor<i32>
  // CHECK: relay.fn recursive : !relay.fn<(tensor<i32>, tensor<2xf32>) -> tensor<2xf32>> {
  // CHECK-NEXT: ^bb0(%[[SELF:.+]]: !relay.fn<(tensor<i32>, tensor<2xf32>) -> tensor<2xf32>>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<2xf32>):
  %loop = relay.fn recursive : !relay.incomplete {
  ^bb0(%self: !relay.incomplete, %i: !relay.incomplete, %acc: !relay.incomplete):
    %c = relay.less %i, %n : (!relay.incomplete, tensor<i32>) -> !relay.incomplete
    %r = relay.if %c : !relay.incomplete -> !relay.incomplete {
      %j = relay.add %i, %one : (!relay.incomplete, tensor<i32>) -> !relay.incomplete
      %a = relay.multiply %acc, %acc : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      // CHECK: relay.call %[[SELF]](%{{.*}}, %{{.*}}) : (!relay.fn<(tensor<i32>, tensor<2xf32>) -> tensor<2xf32>>, tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
      %k = relay.call %self(%j, %a) : (!relay.incomplete, !relay.incomplete, !relay.incomplete) -> !relay.incomplete
      relay.yield %k : !relay.incomplete
    } else {
      relay.yield %acc : !relay.incomplete
    }
    relay.yield %r : !relay.incomplete
  }
  %zero = relay.constant dense<0> : tensor<i32>
  %x = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %res = relay.call %loop(%zero, %x) : (!relay.incomplete, tensor<i32>, tensor<2xf32>) -> !relay.incomplete
  return %res : !relay.incomplete
}
