// RUN: relay-mlir-opt %s -relay-eliminate-common-subexpr | FileCheck %s

// Equal calls merge; so do the calls that become equal after (a chain).
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2xf32>, %[[Y:[^:]*]]: tensor<2xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[X]], %[[Y]]
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[A]]
// CHECK-NEXT:    %[[T:.*]] = relay.tuple %[[E]], %[[E]]
// CHECK-NEXT:    return %[[T]]
func.func @chain(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>> {
  %a = relay.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %b = relay.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %ea = relay.exp %a : (tensor<2xf32>) -> tensor<2xf32>
  %eb = relay.exp %b : (tensor<2xf32>) -> tensor<2xf32>
  %t = relay.tuple %ea, %eb : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  return %t : tuple<tensor<2xf32>, tensor<2xf32>>
}

// Attributes must be equal; operands in the same order (x+y and y+x stay,
// as in TVM); a cast to another dtype stays.
// CHECK-LABEL: func.func @attributes(
// CHECK-COUNT-2: relay.sum
// CHECK-NOT:     relay.sum
// CHECK-COUNT-2: relay.add
// CHECK-COUNT-2: relay.cast
// CHECK-NOT:     relay.cast
func.func @attributes(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xi32>> {
  %s1 = relay.sum %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %s0 = relay.sum %x {axis = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  %s2 = relay.sum %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %a = relay.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = relay.add %y, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %c1 = relay.cast %x {dtype = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %c2 = relay.cast %x {dtype = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %c3 = relay.cast %x {dtype = i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %t = relay.tuple %s1, %s0, %s2, %a, %b, %c1, %c2, %c3 : (tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xi32>) -> tuple<tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xi32>>
  return %t : tuple<tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xi32>>
}

// Two equal scalar constants count as the same operand (TVM's
// IsEqualScalar); equal non-scalar constants do not. Constants and tuples
// themselves are not merged.
// CHECK-LABEL: func.func @constants(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<3xf32>
// CHECK-NEXT:    %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[X]], %[[ONE]]
// CHECK-NEXT:    %[[TWO:.*]] = relay.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[C:.*]] = relay.add %[[X]], %[[TWO]]
// CHECK-NEXT:    %[[V1:.*]] = relay.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[D:.*]] = relay.add %[[X]], %[[V1]]
// CHECK-NEXT:    %[[V2:.*]] = relay.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[E:.*]] = relay.add %[[X]], %[[V2]]
// CHECK-NEXT:    %[[T1:.*]] = relay.tuple %[[A]], %[[A]]
// CHECK-NEXT:    %[[T2:.*]] = relay.tuple %[[A]], %[[A]]
// CHECK-NEXT:    relay.tuple %[[T1]], %[[T2]], %[[C]], %[[D]], %[[E]]
func.func @constants(%x: tensor<3xf32>) -> tuple<tuple<tensor<3xf32>, tensor<3xf32>>, tuple<tensor<3xf32>, tensor<3xf32>>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>> {
  %one = relay.constant dense<1.0> : tensor<f32>
  %a = relay.add %x, %one : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %one2 = relay.constant dense<1.0> : tensor<f32>
  %b = relay.add %x, %one2 : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %c = relay.add %x, %two : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %v1 = relay.constant dense<1.0> : tensor<3xf32>
  %d = relay.add %x, %v1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %v2 = relay.constant dense<1.0> : tensor<3xf32>
  %e = relay.add %x, %v2 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %t1 = relay.tuple %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  %t2 = relay.tuple %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  %t = relay.tuple %t1, %t2, %c, %d, %e : (tuple<tensor<3xf32>, tensor<3xf32>>, tuple<tensor<3xf32>, tensor<3xf32>>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tuple<tensor<3xf32>, tensor<3xf32>>, tuple<tensor<3xf32>, tensor<3xf32>>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
  return %t : tuple<tuple<tensor<3xf32>, tensor<3xf32>>, tuple<tensor<3xf32>, tensor<3xf32>>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
}

// Field reads of one tuple value merge (then what reads them); ops without
// operands (zeros), nn.dropout (stateful in TVM), function calls and
// reference reads do not; neither do ops marked relay.cse_skip (the mark
// goes).
// CHECK-LABEL: func.func @leave_alone(
// CHECK:         %[[S:.*]] = relay.split
// CHECK-NEXT:    %[[G:.*]] = relay.tuple_get_item %[[S]][0]
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[G]]
// CHECK-NEXT:    relay.zeros
// CHECK-NEXT:    relay.zeros
// CHECK-NEXT:    relay.nn.dropout
// CHECK-NEXT:    relay.nn.dropout
// CHECK-NEXT:    relay.call
// CHECK-NEXT:    relay.call
// CHECK-NEXT:    relay.ref_read
// CHECK-NEXT:    relay.ref_read
// CHECK-NEXT:    relay.negative %[[E]] : (
// CHECK-NEXT:    relay.negative %[[E]] : (
// CHECK-NOT:     relay.cse_skip
func.func @leave_alone(%x: tensor<4xf32>, %f: !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, %r: !relay.ref<tensor<4xf32>>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>> {
  %s = relay.split %x {indices_or_sections = array<i64: 2>} : (tensor<4xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  %g1 = relay.tuple_get_item %s[0] : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
  %e1 = relay.exp %g1 : (tensor<2xf32>) -> tensor<2xf32>
  %g2 = relay.tuple_get_item %s[0] : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
  %e2 = relay.exp %g2 : (tensor<2xf32>) -> tensor<2xf32>
  %z1 = relay.zeros {shape = array<i64: 4>, dtype = f32} : () -> tensor<4xf32>
  %z2 = relay.zeros {shape = array<i64: 4>, dtype = f32} : () -> tensor<4xf32>
  %d1 = relay.nn.dropout %x : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %d2 = relay.nn.dropout %x : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %c1 = relay.call %f(%x) : (!relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %c2 = relay.call %f(%x) : (!relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %r1 = relay.ref_read %r : (!relay.ref<tensor<4xf32>>) -> tensor<4xf32>
  %r2 = relay.ref_read %r : (!relay.ref<tensor<4xf32>>) -> tensor<4xf32>
  %n1 = relay.negative %e1 {relay.cse_skip} : (tensor<2xf32>) -> tensor<2xf32>
  %n2 = relay.negative %e2 : (tensor<2xf32>) -> tensor<2xf32>
  %t = relay.tuple %e1, %e2, %z1, %z2, %d1, %d2, %c1, %c2, %r1, %r2, %n1, %n2 : (tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>>
  return %t : tuple<tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>>
}

// As TVM: a call in one branch merges with an equal call in the other
// branch and after the if; the kept call moves up before the if (with the
// scalar constant it reads).
// CHECK-LABEL: func.func @branches(
// CHECK-SAME:    %[[C:[^:]*]]: tensor<i1>, %[[X:[^:]*]]: tensor<2xf32>
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[X]]
// CHECK-NEXT:    %[[K:.*]] = relay.constant dense<2.000000e+00>
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %[[X]], %[[K]]
// CHECK-NEXT:    %[[R:.*]] = relay.if %[[C]]
// CHECK-NEXT:      relay.yield %[[E]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[L:.*]] = relay.log %[[E]]
// CHECK-NEXT:      %[[S:.*]] = relay.add %[[L]], %[[M]]
// CHECK-NEXT:      relay.yield %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[O:.*]] = relay.add %[[R]], %[[E]]
// CHECK-NEXT:    relay.add %[[O]], %[[M]]
func.func @branches(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %k = relay.constant dense<2.0> : tensor<f32>
    %m = relay.multiply %x, %k : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %e = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
    relay.yield %e : tensor<2xf32>
  } else {
    %e = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
    %l = relay.log %e : (tensor<2xf32>) -> tensor<2xf32>
    %k = relay.constant dense<2.0> : tensor<f32>
    %m = relay.multiply %x, %k : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %s = relay.add %l, %m : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    relay.yield %s : tensor<2xf32>
  }
  %e = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  %k = relay.constant dense<2.0> : tensor<f32>
  %m = relay.multiply %x, %k : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %o = relay.add %r, %e : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %p = relay.add %o, %m : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %p : tensor<2xf32>
}

// A closure's body: a call of captured values merges with one outside (it
// moves out of the closure); a call of the closure's parameter cannot.
// CHECK-LABEL: func.func @closure(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2xf32>
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[X]]
// CHECK-NEXT:    %[[F:.*]] = relay.fn
// CHECK-NEXT:    ^bb0(%[[P:.*]]: tensor<2xf32>):
// CHECK-NEXT:      %[[EP:.*]] = relay.exp %[[P]]
// CHECK-NEXT:      relay.add %[[E]], %[[EP]]
// CHECK-NOT:     relay.exp
// CHECK:         relay.tuple %[[F]], %[[E]]
func.func @closure(%x: tensor<2xf32>) -> tuple<!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>> {
  %f = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%p: tensor<2xf32>):
    %e = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
    %ep = relay.exp %p : (tensor<2xf32>) -> tensor<2xf32>
    %s = relay.add %e, %ep : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    relay.yield %s : tensor<2xf32>
  }
  %e = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  %t = relay.tuple %f, %e : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tuple<!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>>
  return %t : tuple<!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>>
}
