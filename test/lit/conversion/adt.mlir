// RUN: relay-mlir-opt %s --allow-unregistered-dialect -convert-relay-to-linalg | FileCheck %s

// ADT values are IREE lists [tag: i32, boxed fields...] (docs/design.md,
// "ADT values and references"); the IREE ops are unregistered, in generic
// form. The definitions are gone after the conversion.
// CHECK-NOT: relay.adt
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
relay.adt @Pair ["A"] {
  relay.constructor @MkPair [!relay.tvar<"A">, tuple<tensor<2xf32>, !relay.adt<@List, !relay.tvar<"A">>>]
}

// Construct: a list of 1 + #fields slots, the tag (the constructor's index)
// in slot 0; a tensor field is boxed as a buffer view (`?` dims passed to
// the export), an ADT field is its list.
// CHECK-LABEL: func.func @build
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>) -> !util.list<?>
// CHECK: %[[NIL:.+]] = "util.list.create"(%[[C1:.+]]) : (index) -> !util.list<?>
// CHECK: "util.list.resize"(%[[NIL]], %[[C1]])
// CHECK: %[[T0:.+]] = arith.constant 0 : i32
// CHECK: "util.list.set"(%[[NIL]], %{{.+}}, %[[T0]]) : (!util.list<?>, index, i32) -> ()
// CHECK: %[[CONS:.+]] = "util.list.create"(%[[C3:.+]]) : (index) -> !util.list<?>
// CHECK: "util.list.resize"(%[[CONS]], %[[C3]])
// CHECK: %[[T1:.+]] = arith.constant 1 : i32
// CHECK: "util.list.set"(%[[CONS]], %{{.+}}, %[[T1]])
// CHECK: %[[D:.+]] = tensor.dim %[[X]]
// CHECK: %[[BV:.+]] = "hal.tensor.export"(%[[X]], %[[D]]) {source_encoding = tensor<?xf32>} : (tensor<?xf32>, index) -> !hal.buffer_view
// CHECK: "util.list.set"(%[[CONS]], %{{.+}}, %[[BV]]) : (!util.list<?>, index, !hal.buffer_view) -> ()
// CHECK: "util.list.set"(%[[CONS]], %{{.+}}, %[[NIL]]) : (!util.list<?>, index, !util.list<?>) -> ()
// CHECK: return %[[CONS]] : !util.list<?>
func.func @build(%x: tensor<?xf32>) -> !relay.adt<@List, tensor<?xf32>> {
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<?xf32>>
  %l = relay.construct @List::@Cons(%x, %nil) : (tensor<?xf32>, !relay.adt<@List, tensor<?xf32>>) -> !relay.adt<@List, tensor<?xf32>>
  return %l : !relay.adt<@List, tensor<?xf32>>
}

// Match: one scf.if per clause; the pattern variable is the unboxed field,
// its `?` dim read from the buffer view. The wildcard clause cannot fail, so
// nothing follows it.
// CHECK-LABEL: func.func @head
// CHECK-SAME: (%[[L:.+]]: !util.list<?>, %[[DEF:.+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK: %[[TAG:.+]] = "util.list.get"(%[[L]], %{{.+}}) : (!util.list<?>, index) -> i32
// CHECK: %[[CONS:.+]] = arith.constant 1 : i32
// CHECK: %[[IS:.+]] = arith.cmpi eq, %[[TAG]], %[[CONS]] : i32
// CHECK: %[[R:.+]] = scf.if %[[IS]] -> (tensor<?xf32>) {
// CHECK:   %[[BV:.+]] = "util.list.get"(%[[L]], %{{.+}}) : (!util.list<?>, index) -> !hal.buffer_view
// CHECK:   %[[D:.+]] = "hal.buffer_view.dim"(%[[BV]]) {index = 0 : index} : (!hal.buffer_view) -> index
// CHECK:   %[[H:.+]] = "hal.tensor.import"(%[[BV]], %[[D]]) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, target_encoding = tensor<?xf32>} : (!hal.buffer_view, index) -> tensor<?xf32>
// CHECK:   scf.yield %[[H]] : tensor<?xf32>
// CHECK: } else {
// CHECK:   %[[W:.+]] = scf.if %true -> (tensor<?xf32>) {
// CHECK:     scf.yield %[[DEF]] : tensor<?xf32>
// CHECK:   } else {
// CHECK-NOT: util.status.check_ok
// CHECK:     tensor.empty
// CHECK:   scf.yield %[[W]]
// CHECK: return %[[R]]
func.func @head(%l: !relay.adt<@List, tensor<?xf32>>, %d: tensor<?xf32>) -> tensor<?xf32> {
  %r = relay.match %l : !relay.adt<@List, tensor<?xf32>> -> tensor<?xf32> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%h: tensor<?xf32>) {
      relay.yield %h : tensor<?xf32>
    }
    case #relay.pat_wildcard {
      relay.yield %d : tensor<?xf32>
    }
  }
  return %r : tensor<?xf32>
}

// A nested constructor pattern reads the inner tag only under the outer
// one; `match?` with no clause left fails at run time with the location.
// CHECK-LABEL: func.func @second
// CHECK-SAME: (%[[L:.+]]: !util.list<?>) -> tensor<f32>
// CHECK: %[[TAG:.+]] = "util.list.get"(%[[L]], %{{.+}}) : (!util.list<?>, index) -> i32
// CHECK: %[[OUTER:.+]] = arith.cmpi eq, %[[TAG]]
// CHECK: %[[BOTH:.+]] = scf.if %[[OUTER]] -> (i1) {
// CHECK:   %[[TAIL:.+]] = "util.list.get"(%[[L]], %[[C2:.+]]) : (!util.list<?>, index) -> !util.list<?>
// CHECK:   %[[TAG2:.+]] = "util.list.get"(%[[TAIL]], %{{.+}}) : (!util.list<?>, index) -> i32
// CHECK:   %[[INNER:.+]] = arith.cmpi eq, %[[TAG2]]
// CHECK:   scf.yield %[[INNER]] : i1
// CHECK: } else {
// CHECK:   %[[F:.+]] = arith.constant false
// CHECK:   scf.yield %[[F]] : i1
// CHECK: %[[R:.+]] = scf.if %[[BOTH]] -> (tensor<f32>) {
// CHECK:   %[[TAIL:.+]] = "util.list.get"(%[[L]], %{{.+}}) : (!util.list<?>, index) -> !util.list<?>
// CHECK:   %[[BV:.+]] = "util.list.get"(%[[TAIL]], %{{.+}}) : (!util.list<?>, index) -> !hal.buffer_view
// CHECK:   %[[B:.+]] = "hal.tensor.import"(%[[BV]]) {operandSegmentSizes = array<i32: 1, 0, 0, 0>, target_encoding = tensor<f32>}
// CHECK:   scf.yield %[[B]]
// CHECK: } else {
// CHECK:   %[[ST:.+]] = arith.constant 9 : i32
// CHECK:   "util.status.check_ok"(%[[ST]]) {message = "no clause of the relay.match at {{.*}}adt.mlir:[[@LINE+4]]:8 matches the value (the match is incomplete)"} : (i32) -> ()
// CHECK:   %[[E:.+]] = tensor.empty() : tensor<f32>
// CHECK:   scf.yield %[[E]]
func.func @second(%l: !relay.adt<@List, tensor<f32>>) -> tensor<f32> {
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> attributes {complete = false} {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]>]> (%b: tensor<f32>) {
      relay.yield %b : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// A tuple field is one slot holding a nested list; binding a tuple variable
// unboxes it into its (flattened) leaves. MkPair is @Pair's only
// constructor: its pattern cannot fail, so no tag is tested.
// CHECK-LABEL: func.func @pair
// CHECK-SAME: (%[[X:.+]]: tensor<f32>, %[[Y:.+]]: tensor<2xf32>) -> (tensor<2xf32>, !util.list<?>)
// CHECK: %[[NIL:.+]] = "util.list.create"
// CHECK: %[[P:.+]] = "util.list.create"(%[[C3:.+]])
// CHECK: %[[T:.+]] = "util.list.create"(%[[C2:.+]])
// CHECK: %[[YB:.+]] = "hal.tensor.export"(%[[Y]])
// CHECK: "util.list.set"(%[[T]], %{{.+}}, %[[YB]])
// CHECK: "util.list.set"(%[[T]], %{{.+}}, %[[NIL]])
// CHECK: "util.list.set"(%[[P]], %{{.+}}, %[[T]]) : (!util.list<?>, index, !util.list<?>) -> ()
// CHECK-NOT: -> i32
// CHECK: %[[R:.+]]:2 = scf.if %true -> (tensor<2xf32>, !util.list<?>) {
// CHECK:   %[[T2:.+]] = "util.list.get"(%[[P]], %{{.+}}) : (!util.list<?>, index) -> !util.list<?>
// CHECK:   %[[YB2:.+]] = "util.list.get"(%[[T2]], %{{.+}}) : (!util.list<?>, index) -> !hal.buffer_view
// CHECK:   %[[Y2:.+]] = "hal.tensor.import"(%[[YB2]])
// CHECK:   %[[NIL2:.+]] = "util.list.get"(%[[T2]], %{{.+}}) : (!util.list<?>, index) -> !util.list<?>
// CHECK:   scf.yield %[[Y2]], %[[NIL2]] : tensor<2xf32>, !util.list<?>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @pair(%x: tensor<f32>, %y: tensor<2xf32>) -> tuple<tensor<2xf32>, !relay.adt<@List, tensor<f32>>> {
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<f32>>
  %t = relay.tuple %y, %nil : (tensor<2xf32>, !relay.adt<@List, tensor<f32>>) -> tuple<tensor<2xf32>, !relay.adt<@List, tensor<f32>>>
  %p = relay.construct @Pair::@MkPair(%x, %t) : (tensor<f32>, tuple<tensor<2xf32>, !relay.adt<@List, tensor<f32>>>) -> !relay.adt<@Pair, tensor<f32>>
  %r = relay.match %p : !relay.adt<@Pair, tensor<f32>> -> tuple<tensor<2xf32>, !relay.adt<@List, tensor<f32>>> {
    case #relay.pat_ctor<@Pair::@MkPair, [#relay.pat_wildcard, #relay.pat_var]> (%v: tuple<tensor<2xf32>, !relay.adt<@List, tensor<f32>>>) {
      relay.yield %v : tuple<tensor<2xf32>, !relay.adt<@List, tensor<f32>>>
    }
  }
  return %r : tuple<tensor<2xf32>, !relay.adt<@List, tensor<f32>>>
}

// A tuple pattern on a (flattened) tuple scrutinee: the leaves themselves,
// with a constructor test on the ADT leaf.
// CHECK-LABEL: func.func @tuple_scrutinee
// CHECK-SAME: (%[[A:.+]]: tensor<2xi8>, %[[L:.+]]: !util.list<?>, %[[D:.+]]: tensor<2xi8>)
// CHECK: %[[TAG:.+]] = "util.list.get"(%[[L]], %{{.+}}) : (!util.list<?>, index) -> i32
// CHECK: %[[NIL:.+]] = arith.constant 0 : i32
// CHECK: %[[IS:.+]] = arith.cmpi eq, %[[TAG]], %[[NIL]]
// CHECK: scf.if %[[IS]] -> (tensor<2xi8>) {
// CHECK:   scf.yield %[[A]] : tensor<2xi8>
// CHECK: } else {
// CHECK:   scf.yield %[[D]] : tensor<2xi8>
func.func @tuple_scrutinee(%a: tensor<2xi8>, %l: !relay.adt<@List, tensor<f32>>, %d: tensor<2xi8>) -> tensor<2xi8> {
  %p = relay.tuple %a, %l : (tensor<2xi8>, !relay.adt<@List, tensor<f32>>) -> tuple<tensor<2xi8>, !relay.adt<@List, tensor<f32>>>
  %r = relay.match %p : tuple<tensor<2xi8>, !relay.adt<@List, tensor<f32>>> -> tensor<2xi8> {
    case #relay.pat_tuple<[#relay.pat_var, #relay.pat_ctor<@List::@Nil, []>]> (%v: tensor<2xi8>) {
      relay.yield %v : tensor<2xi8>
    }
    case #relay.pat_wildcard {
      relay.yield %d : tensor<2xi8>
    }
  }
  return %r : tensor<2xi8>
}

// References: a one-slot list; ref_write sets the slot (its () result has
// no value) and a later ref_read sees it.
// CHECK-LABEL: func.func @refs
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[XB:.+]] = "hal.tensor.export"(%[[X]]) {source_encoding = tensor<3xf32>}
// CHECK: %[[R:.+]] = "util.list.create"(%[[C1:.+]]) : (index) -> !util.list<?>
// CHECK: "util.list.resize"(%[[R]], %[[C1]])
// CHECK: "util.list.set"(%[[R]], %{{.+}}, %[[XB]]) : (!util.list<?>, index, !hal.buffer_view) -> ()
// CHECK: %[[VB:.+]] = "util.list.get"(%[[R]], %{{.+}}) : (!util.list<?>, index) -> !hal.buffer_view
// CHECK: %[[V:.+]] = "hal.tensor.import"(%[[VB]])
// CHECK: %[[W:.+]] = linalg.generic {{.*}} ins(%[[V]] : tensor<3xf32>)
// CHECK: math.exp
// CHECK: %[[WB:.+]] = "hal.tensor.export"(%[[W]])
// CHECK: "util.list.set"(%[[R]], %{{.+}}, %[[WB]])
// CHECK: %[[ZB:.+]] = "util.list.get"(%[[R]], %{{.+}}) : (!util.list<?>, index) -> !hal.buffer_view
// CHECK: %[[Z:.+]] = "hal.tensor.import"(%[[ZB]])
// CHECK: return %[[Z]]
func.func @refs(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = relay.ref_new %x : (tensor<3xf32>) -> !relay.ref<tensor<3xf32>>
  %v = relay.ref_read %r : (!relay.ref<tensor<3xf32>>) -> tensor<3xf32>
  %w = relay.exp %v : (tensor<3xf32>) -> tensor<3xf32>
  %u = relay.ref_write %r, %w : (!relay.ref<tensor<3xf32>>, tensor<3xf32>) -> tuple<>
  %z = relay.ref_read %r : (!relay.ref<tensor<3xf32>>) -> tensor<3xf32>
  return %z : tensor<3xf32>
}

// A reference to a tuple boxes the tuple as a nested list; reading it back
// gives the leaves.
// CHECK-LABEL: func.func @ref_of_tuple
// CHECK-SAME: (%[[A:.+]]: tensor<i32>, %[[L:.+]]: !util.list<?>) -> (tensor<i32>, !util.list<?>)
// CHECK: %[[T:.+]] = "util.list.create"
// CHECK: %[[AB:.+]] = "hal.tensor.export"(%[[A]])
// CHECK: "util.list.set"(%[[T]], %{{.+}}, %[[AB]])
// CHECK: "util.list.set"(%[[T]], %{{.+}}, %[[L]])
// CHECK: %[[R:.+]] = "util.list.create"
// CHECK: "util.list.set"(%[[R]], %{{.+}}, %[[T]]) : (!util.list<?>, index, !util.list<?>) -> ()
// CHECK: %[[T2:.+]] = "util.list.get"(%[[R]], %{{.+}}) : (!util.list<?>, index) -> !util.list<?>
// CHECK: %[[AB2:.+]] = "util.list.get"(%[[T2]], %{{.+}}) : (!util.list<?>, index) -> !hal.buffer_view
// CHECK: %[[A2:.+]] = "hal.tensor.import"(%[[AB2]])
// CHECK: %[[L2:.+]] = "util.list.get"(%[[T2]], %{{.+}}) : (!util.list<?>, index) -> !util.list<?>
// CHECK: return %[[A2]], %[[L2]]
func.func @ref_of_tuple(%a: tensor<i32>, %l: !relay.adt<@List, tensor<f32>>) -> tuple<tensor<i32>, !relay.adt<@List, tensor<f32>>> {
  %t = relay.tuple %a, %l : (tensor<i32>, !relay.adt<@List, tensor<f32>>) -> tuple<tensor<i32>, !relay.adt<@List, tensor<f32>>>
  %r = relay.ref_new %t : (tuple<tensor<i32>, !relay.adt<@List, tensor<f32>>>) -> !relay.ref<tuple<tensor<i32>, !relay.adt<@List, tensor<f32>>>>
  %v = relay.ref_read %r : (!relay.ref<tuple<tensor<i32>, !relay.adt<@List, tensor<f32>>>>) -> tuple<tensor<i32>, !relay.adt<@List, tensor<f32>>>
  return %v : tuple<tensor<i32>, !relay.adt<@List, tensor<f32>>>
}
