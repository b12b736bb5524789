// RUN: relay-mlir-opt %s --allow-unregistered-dialect -relay-box-join-tensors -split-input-file | FileCheck %s

// A join taking two tensors from two branches: each branch exports them
// (behind a barrier, one name per edge and argument), the join imports them.
// CHECK-LABEL: func.func @join_two
// CHECK:         %[[O0:.+]] = "util.optimization_barrier"(%arg1)
// CHECK-NEXT:    %[[B0:.+]] = "hal.tensor.export"(%[[O0]]) {name = "edge[[E:[0-9]+]]_arg0", source_encoding = tensor<2xf32>}
// CHECK-NEXT:    %[[O1:.+]] = "util.optimization_barrier"(%arg1)
// CHECK-NEXT:    %[[B1:.+]] = "hal.tensor.export"(%[[O1]]) {name = "edge[[E]]_arg1", source_encoding = tensor<2xf32>}
// CHECK-NEXT:    cf.br ^[[JOIN:bb[0-9]+]](%[[B0]], %[[B1]] : !hal.buffer_view, !hal.buffer_view)
// CHECK-NOT:     name = "edge[[E]]_
// CHECK:         "hal.tensor.export"(%{{.+}}) {name = "edge[[F:[0-9]+]]_arg0"
// CHECK:         "hal.tensor.export"(%{{.+}}) {name = "edge[[F]]_arg1"
// CHECK:         cf.br ^[[JOIN]](%{{.+}}, %{{.+}} : !hal.buffer_view, !hal.buffer_view)
// CHECK:       ^[[JOIN]](%[[V0:.+]]: !hal.buffer_view, %[[V1:.+]]: !hal.buffer_view):
// CHECK-NEXT:    %[[T0:.+]] = "hal.tensor.import"(%[[V0]])
// CHECK-NEXT:    %[[T1:.+]] = "hal.tensor.import"(%[[V1]])
// CHECK:         arith.addf %[[T0]], %[[T1]]
func.func @join_two(%c: i1, %x: tensor<2xf32>) -> tensor<2xf32> {
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^join(%x, %x : tensor<2xf32>, tensor<2xf32>)
^b:
  %y = arith.addf %x, %x : tensor<2xf32>
  cf.br ^join(%y, %x : tensor<2xf32>, tensor<2xf32>)
^join(%p: tensor<2xf32>, %q: tensor<2xf32>):
  %r = arith.addf %p, %q : tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// 0-d tensors every branch builds from a scalar: the join takes the scalars
// (no boxing, nothing left on the device).
// CHECK-LABEL: func.func @join_scalars
// CHECK:         cf.br ^[[JOIN:bb[0-9]+]](%{{.+}}, %{{.+}} : i32, i32)
// CHECK:         cf.br ^[[JOIN]](%{{.+}}, %{{.+}} : i32, i32)
// CHECK:       ^[[JOIN]](%[[A:.+]]: i32, %[[B:.+]]: i32):
// CHECK-NOT:     hal.tensor
// CHECK:         tensor.from_elements %[[A]] : tensor<i32>
// CHECK:         tensor.from_elements %[[B]] : tensor<i32>
func.func @join_scalars(%c: i1, %i: i32, %j: i32) -> (tensor<i32>, tensor<i32>) {
  cf.cond_br %c, ^a, ^b
^a:
  %t0 = tensor.from_elements %i : tensor<i32>
  %t1 = tensor.from_elements %j : tensor<i32>
  cf.br ^join(%t0, %t1 : tensor<i32>, tensor<i32>)
^b:
  %u0 = tensor.from_elements %j : tensor<i32>
  %u1 = tensor.from_elements %i : tensor<i32>
  cf.br ^join(%u0, %u1 : tensor<i32>, tensor<i32>)
^join(%p: tensor<i32>, %q: tensor<i32>):
  return %p, %q : tensor<i32>, tensor<i32>
}

// -----

// Loop state no result uses is dropped first (it would look used boxed); the
// one tensor left is boxed.
// CHECK-LABEL: func.func @dead_state
// CHECK:         "hal.tensor.export"(%{{.+}}) {name = "edge{{[0-9]+}}_arg1"
// CHECK-NEXT:    cf.br ^[[HEAD:bb[0-9]+]](%{{.+}}, %{{.+}} : i32, !hal.buffer_view)
// CHECK:       ^[[HEAD]](%{{.+}}: i32, %{{.+}}: !hal.buffer_view):
// CHECK-COUNT-1: "hal.tensor.export"
// CHECK-NOT:     "hal.tensor.export"
// CHECK:         return
func.func @dead_state(%n: i32, %x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  cf.br ^head(%n, %x, %y : i32, tensor<2xf32>, tensor<2xf32>)
^head(%i: i32, %a: tensor<2xf32>, %dead: tensor<2xf32>):
  %c0 = arith.constant 0 : i32
  %stop = arith.cmpi sle, %i, %c0 : i32
  cf.cond_br %stop, ^done, ^step
^step:
  %c1 = arith.constant 1 : i32
  %i2 = arith.subi %i, %c1 : i32
  %a2 = arith.addf %a, %a : tensor<2xf32>
  %d2 = arith.mulf %dead, %dead : tensor<2xf32>
  cf.br ^head(%i2, %a2, %d2 : i32, tensor<2xf32>, tensor<2xf32>)
^done:
  return %a : tensor<2xf32>
}

// -----

// Several returns of tensors: they branch to one return block, whose tensors
// are then boxed like any join's (IREE would otherwise join them itself when
// it inlines the function). A 0-d tensor every branch passes as a constant
// or builds from a scalar is passed as the scalar.
// CHECK-LABEL: func.func @two_returns
// CHECK:         cf.cond_br %arg0, ^[[A:bb[0-9]+]], ^[[B:bb[0-9]+]]
// CHECK:       ^[[A]]:
// CHECK:         %[[K:.+]] = arith.constant 7 : i32
// CHECK:         "hal.tensor.export"(%{{.+}}) {name = "edge{{[0-9]+}}_arg0"
// CHECK-NEXT:    cf.br ^[[EXIT:bb[0-9]+]](%{{.+}}, %[[K]] : !hal.buffer_view, i32)
// CHECK:       ^[[B]]:
// CHECK:         "hal.tensor.export"(%{{.+}}) {name = "edge{{[0-9]+}}_arg0"
// CHECK-NEXT:    cf.br ^[[EXIT]](%{{.+}}, %arg2 : !hal.buffer_view, i32)
// CHECK:       ^[[EXIT]](%[[V:.+]]: !hal.buffer_view, %[[S:.+]]: i32):
// CHECK:         %[[T:.+]] = "hal.tensor.import"(%[[V]])
// CHECK:         %[[S0:.+]] = tensor.from_elements %[[S]] : tensor<i32>
// CHECK:         return %[[T]], %[[S0]] : tensor<2xf32>, tensor<i32>
func.func @two_returns(%c: i1, %x: tensor<2xf32>, %s: i32) -> (tensor<2xf32>, tensor<i32>) {
  cf.cond_br %c, ^a, ^b
^a:
  %k = arith.constant dense<7> : tensor<i32>
  return %x, %k : tensor<2xf32>, tensor<i32>
^b:
  %y = arith.addf %x, %x : tensor<2xf32>
  %t = tensor.from_elements %s : tensor<i32>
  return %y, %t : tensor<2xf32>, tensor<i32>
}

// -----

// One tensor passed to two parameters of a function with a join: the second
// occurrence is reboxed (inlined, the two loop arguments would be boxed from
// one value; a bare barrier's result would have sizes IREE cannot resolve).
// Barriers on both sides of the export: IREE folds an export of an imported
// tensor (%arg0 of a public function is one) to the view it came from, and
// an import of an export to the tensor (the loop fuzzer's 333:89, "ref is
// null"). A callee without joins is left alone.
// CHECK-LABEL: func.func @caller
// CHECK:         %[[T:.+]] = "util.optimization_barrier"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[V:.+]] = "hal.tensor.export"(%[[T]])
// CHECK-NEXT:    %[[B:.+]] = "util.optimization_barrier"(%[[V]]) : (!hal.buffer_view) -> !hal.buffer_view
// CHECK-NEXT:    %[[R:.+]] = "hal.tensor.import"(%[[B]])
// CHECK-NEXT:    call @looping(%arg0, %[[R]], %arg1)
// CHECK-NEXT:    call @straight(%arg0, %arg0)
func.func @caller(%x: tensor<2xf32>, %n: i32) -> (tensor<2xf32>, tensor<2xf32>) {
  %r = call @looping(%x, %x, %n) : (tensor<2xf32>, tensor<2xf32>, i32) -> tensor<2xf32>
  %s = call @straight(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %r, %s : tensor<2xf32>, tensor<2xf32>
}
func.func private @looping(%a: tensor<2xf32>, %b: tensor<2xf32>, %n: i32) -> tensor<2xf32> {
  cf.br ^head(%a, %b, %n : tensor<2xf32>, tensor<2xf32>, i32)
^head(%p: tensor<2xf32>, %q: tensor<2xf32>, %i: i32):
  %c0 = arith.constant 0 : i32
  %stop = arith.cmpi sle, %i, %c0 : i32
  cf.cond_br %stop, ^done, ^step
^step:
  %c1 = arith.constant 1 : i32
  %i2 = arith.subi %i, %c1 : i32
  %s = arith.addf %p, %q : tensor<2xf32>
  cf.br ^head(%s, %q, %i2 : tensor<2xf32>, tensor<2xf32>, i32)
^done:
  return %p : tensor<2xf32>
}
func.func private @straight(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %s = arith.addf %a, %b : tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// Two loop exits that differ only in the tensors they pass: their boxing
// tails carry different names, so MLIR's block merging (canonicalization
// with aggressive region simplification, as IREE runs it) cannot fold them
// into one block taking the tensors unboxed again (a dynamic-axes LSTM's
// unswitched loops failed so in IREE: "'tensor.dim' op unexpected during
// shape cleanup"; with one name for both, the exits merge here too).
// RUN: relay-mlir-opt %s --allow-unregistered-dialect -relay-box-join-tensors -canonicalize=region-simplify=aggressive -split-input-file | FileCheck %s --check-prefix=MERGE
// MERGE-LABEL: func.func @two_exits
// MERGE-NOT:     ^bb{{[0-9]+}}(%{{[0-9]+}}: tensor
// MERGE:         cf.br ^[[EXIT:bb[0-9]+]](%{{[0-9]+}} : !hal.buffer_view)
// MERGE-NOT:     ^bb{{[0-9]+}}(%{{[0-9]+}}: tensor
// MERGE:         cf.br ^[[EXIT]](%{{[0-9]+}} : !hal.buffer_view)
// MERGE:       ^[[EXIT]](%{{.+}}: !hal.buffer_view):
func.func @two_exits(%c: i1, %x: tensor<?xf32>, %y: tensor<?xf32>, %n: i32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.cond_br %c, ^h1(%x, %n : tensor<?xf32>, i32), ^h2(%y, %n : tensor<?xf32>, i32)
^h1(%a: tensor<?xf32>, %i: i32):
  %s = arith.cmpi sle, %i, %c0 : i32
  %a2 = arith.addf %a, %a : tensor<?xf32>
  %i2 = arith.subi %i, %c1 : i32
  cf.cond_br %s, ^e1, ^h1(%a2, %i2 : tensor<?xf32>, i32)
^e1:
  return %a : tensor<?xf32>
^h2(%b: tensor<?xf32>, %j: i32):
  %t = arith.cmpi sle, %j, %c0 : i32
  %b2 = arith.mulf %b, %b : tensor<?xf32>
  %j2 = arith.subi %j, %c1 : i32
  cf.cond_br %t, ^e2, ^h2(%b2, %j2 : tensor<?xf32>, i32)
^e2:
  return %b : tensor<?xf32>
}

// -----

// The scalars a back edge passes go behind barriers (the entry edge's do
// not): if IREE proves the loop unreachable, MLIR's canonicalizer would
// otherwise rewrite the counter `i = i + 1` it is left with forever.
// CHECK-LABEL: func.func @count
// CHECK:         cf.br ^[[HEAD:bb[0-9]+]](%arg0, %arg1 : i64, f32)
// CHECK:       ^[[HEAD]](%[[I:.+]]: i64, %[[S:.+]]: f32):
// CHECK:         %[[NEXT:.+]] = arith.addi %[[I]]
// CHECK:         %[[SUM:.+]] = arith.addf %[[S]]
// CHECK-NEXT:    %[[GI:.+]] = "util.optimization_barrier"(%[[NEXT]]) : (i64) -> i64
// CHECK-NEXT:    %[[GS:.+]] = "util.optimization_barrier"(%[[SUM]]) : (f32) -> f32
// CHECK-NEXT:    cf.br ^[[HEAD]](%[[GI]], %[[GS]] : i64, f32)
// CHECK:         return %[[S]]
func.func @count(%n: i64, %s0: f32, %limit: i64) -> f32 {
  cf.br ^head(%n, %s0 : i64, f32)
^head(%i: i64, %s: f32):
  %stop = arith.cmpi sge, %i, %limit : i64
  cf.cond_br %stop, ^done, ^latch
^latch:
  %c1 = arith.constant 1 : i64
  %next = arith.addi %i, %c1 : i64
  %sum = arith.addf %s, %s : f32
  cf.br ^head(%next, %sum : i64, f32)
^done:
  return %s : f32
}
