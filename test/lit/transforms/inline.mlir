// RUN: relay-mlir-opt %s -relay-inline | FileCheck %s
// RUN: relay-mlir-opt %s -relay-inline | FileCheck %s --check-prefix=GONE

// A chain of Inline functions: both bodies end up in main, @g1 and @g2 go;
// @unused (an entry: nothing calls it) stays, as in TVM 0.19.
// GONE-NOT: func.func @g1
// GONE-NOT: func.func @g2
// CHECK-LABEL: func.func @unused
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.+]]: tensor<2xf32>)
// CHECK-NEXT: %[[E:.+]] = relay.exp %[[A]]
// CHECK-NEXT: %[[N:.+]] = relay.negative %[[E]]
// CHECK-NEXT: %[[S:.+]] = relay.add %[[N]], %[[A]]
// CHECK-NEXT: return %[[S]]
func.func @g1(%x: tensor<2xf32>) -> tensor<2xf32> attributes {relay.attrs = {Inline = 1 : i32}} {
  %y = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @g2(%x: tensor<2xf32>) -> tensor<2xf32> attributes {relay.attrs = {Inline = 1 : i32}} {
  %y = func.call @g1(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %z = relay.negative %y : (tensor<2xf32>) -> tensor<2xf32>
  return %z : tensor<2xf32>
}
func.func @unused(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %r = func.call @g2(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %s = relay.add %r, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// Called twice by one caller: inlined at both calls (TVM 0.19 crashes).
// CHECK-LABEL: func.func @twice
// CHECK-NEXT: relay.exp
// CHECK-NEXT: relay.exp
// CHECK-NEXT: relay.add
func.func @twice(%a: tensor<2xf32>) -> tensor<2xf32> {
  %p = func.call @g1(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %q = func.call @g1(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %s = relay.add %p, %q : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// Left alone: Inline=0, a recursive Inline function, a Compiler function,
// and one used as a value (it stays for the value; its call is inlined).
// CHECK-LABEL: func.func @zero
// CHECK-LABEL: func.func @rec
// CHECK-LABEL: func.func @external
// CHECK-LABEL: func.func @as_value
// CHECK-LABEL: func.func @keep
// CHECK: call @zero
// CHECK: call @rec
// CHECK: call @external
// CHECK: relay.global_fn @as_value
// CHECK-NOT: call @as_value
// CHECK: relay.negative
func.func @zero(%x: tensor<2xf32>) -> tensor<2xf32> attributes {relay.attrs = {Inline = 0 : i32}} {
  return %x : tensor<2xf32>
}
func.func @rec(%x: tensor<i32>) -> tensor<i32> attributes {relay.attrs = {Inline = 1 : i32}} {
  %c = relay.constant dense<1> : tensor<i32>
  %lt = relay.less %x, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %lt : tensor<i1> -> tensor<i32> {
    relay.yield %x : tensor<i32>
  } else {
    %d = relay.subtract %x, %c : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %e = func.call @rec(%d) : (tensor<i32>) -> tensor<i32>
    relay.yield %e : tensor<i32>
  }
  return %r : tensor<i32>
}
func.func @external(%x: tensor<2xf32>) -> tensor<2xf32> attributes {relay.attrs = {Inline = 1 : i32, Compiler = "ccompiler"}} {
  return %x : tensor<2xf32>
}
func.func @as_value(%x: tensor<2xf32>) -> tensor<2xf32> attributes {relay.attrs = {Inline = 1 : i32}} {
  %y = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @keep(%a: tensor<2xf32>, %i: tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>, tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>> {
  %z = func.call @zero(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %r = func.call @rec(%i) : (tensor<i32>) -> tensor<i32>
  %e = func.call @external(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %f = relay.global_fn @as_value : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %v = func.call @as_value(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %t = relay.tuple %z, %r, %e, %f, %v : (tensor<2xf32>, tensor<i32>, tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<i32>, tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>>
  return %t : tuple<tensor<2xf32>, tensor<i32>, tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>>
}
