// RUN: relay-mlir-opt %s --allow-unregistered-dialect -relay-eliminate-recursion -relay-box-join-tensors -split-input-file | FileCheck %s

// (The loops' tensors are boxed by relay-box-join-tensors, which runs after
// this pass in relay-to-iree-input: the checks below show both.)

// Self tail recursion inside scf.if (Relay's while loop) becomes a loop: the
// old entry block is the loop header, the tail call a branch back to it. No
// frame stack, no call left. The bound, passed back unchanged, is not
// carried: the loop reads the function's argument. The two tensors it
// carries travel as distinct buffer views (iree-compile 3.13 packs tensors
// one region produces into one buffer and loses one of two loop arguments
// passed from it).
// CHECK-LABEL: func.func @loop
// CHECK-SAME:      (%[[I:.+]]: tensor<i32>, %[[N:.+]]: tensor<i32>, %[[ACC:.+]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[OI:.+]] = "util.optimization_barrier"(%[[I]])
// CHECK-NEXT:    %[[BI:.+]] = "hal.tensor.export"(%[[OI]]) {name = "edge{{[0-9]+}}_arg0"
// CHECK-NEXT:    %[[OACC:.+]] = "util.optimization_barrier"(%[[ACC]])
// CHECK-NEXT:    %[[BACC:.+]] = "hal.tensor.export"(%[[OACC]]) {name = "edge{{[0-9]+}}_arg1"
// CHECK-NEXT:    cf.br ^[[HEAD:bb[0-9]+]](%[[BI]], %[[BACC]] : !hal.buffer_view, !hal.buffer_view)
// CHECK:       ^[[HEAD]](%[[VI:.+]]: !hal.buffer_view, %[[VACC:.+]]: !hal.buffer_view):
// CHECK-NEXT:    "hal.tensor.import"(%[[VI]])
// CHECK-NEXT:    %[[ACC2:.+]] = "hal.tensor.import"(%[[VACC]])
// CHECK:         tensor.extract %[[N]][]
// CHECK:         cf.cond_br %{{.+}}, ^[[BODY:bb[0-9]+]], ^[[DONE:bb[0-9]+]]
// CHECK:       ^[[BODY]]:
// CHECK:         %[[NEXT:.+]] = arith.addf %[[ACC2]], %[[ACC2]]
// CHECK:         %[[ONEXT:.+]] = "util.optimization_barrier"(%[[NEXT]])
// CHECK-NEXT:    %[[BNEXT:.+]] = "hal.tensor.export"(%[[ONEXT]]) {name = "edge{{[0-9]+}}_arg1"
// CHECK-NEXT:    cf.br ^[[HEAD]](%{{.+}}, %[[BNEXT]] : !hal.buffer_view, !hal.buffer_view)
// CHECK:       ^[[DONE]]:
// CHECK-NOT:     call
// CHECK-NOT:     util.list
// CHECK:         return
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @main
// CHECK:         call @loop(
// CHECK-NOT:   util.list
// CHECK:       // -----

// Self tail recursion inside scf.if: Relay's while-loop idiom.
func.func @loop(%i: tensor<i32>, %n: tensor<i32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %ii = tensor.extract %i[] : tensor<i32>
  %nn = tensor.extract %n[] : tensor<i32>
  %go = arith.cmpi slt, %ii, %nn : i32
  %r = scf.if %go -> tensor<4xf32> {
    %c1 = arith.constant 1 : i32
    %i2 = arith.addi %ii, %c1 : i32
    %t = tensor.from_elements %i2 : tensor<i32>
    %acc2 = arith.addf %acc, %acc : tensor<4xf32>
    %x = func.call @loop(%t, %n, %acc2) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %acc : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @main(%n: tensor<i32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant dense<0> : tensor<i32>
  %r = func.call @loop(%c0, %n, %acc) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A loop carrying a tensor with a dynamic dim: the loop-invariant argument
// (%n, passed back unchanged) is the function's own argument inside the loop,
// and the other tensors are carried as !hal.buffer_view (each boxed with an
// export of its own name behind an optimization barrier, unboxed at the
// header): iree-compile 3.13's VM loses one of two loop arguments that
// receive the same buffer, or the same buffer view (an export of an
// imported tensor folds to the view it came from).
// CHECK-LABEL: func.func @dynloop
// CHECK-SAME:      (%[[I:.+]]: tensor<i32>, %[[N:.+]]: tensor<i32>, %[[ACC:.+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK:         %[[OI:.+]] = "util.optimization_barrier"(%[[I]])
// CHECK:         %[[BI:.+]] = "hal.tensor.export"(%[[OI]]) {name = "edge{{[0-9]+}}_arg0", source_encoding = tensor<i32>}
// CHECK:         %[[OA:.+]] = "util.optimization_barrier"(%[[ACC]])
// CHECK:         %[[BA:.+]] = "hal.tensor.export"(%[[OA]], %{{.+}}) {name = "edge{{[0-9]+}}_arg1", source_encoding = tensor<?xf32>}
// CHECK:         cf.br ^[[HEAD:bb[0-9]+]](%[[BI]], %[[BA]] : !hal.buffer_view, !hal.buffer_view)
// CHECK:       ^[[HEAD]](%[[VI:.+]]: !hal.buffer_view, %[[VA:.+]]: !hal.buffer_view):
// CHECK:         "hal.tensor.import"(%[[VI]])
// CHECK:         %[[D:.+]] = "hal.buffer_view.dim"(%[[VA]]) {index = 0 : index}
// CHECK:         %[[A2:.+]] = "hal.tensor.import"(%[[VA]], %[[D]])
// CHECK:         tensor.extract %[[N]][]
// CHECK:         cf.cond_br
// CHECK:         arith.addf %[[A2]], %[[A2]]
// CHECK:         "hal.tensor.export"({{.+}}) {name = "edge{{[0-9]+}}_arg0"
// CHECK:         "hal.tensor.export"({{.+}}) {name = "edge{{[0-9]+}}_arg1"
// CHECK:         cf.br ^[[HEAD]](%{{.+}}, %{{.+}} : !hal.buffer_view, !hal.buffer_view)
func.func @dynloop(%i: tensor<i32>, %n: tensor<i32>, %acc: tensor<?xf32>) -> tensor<?xf32> {
  %ii = tensor.extract %i[] : tensor<i32>
  %nn = tensor.extract %n[] : tensor<i32>
  %go = arith.cmpi slt, %ii, %nn : i32
  %r = scf.if %go -> tensor<?xf32> {
    %c1 = arith.constant 1 : i32
    %i2 = arith.addi %ii, %c1 : i32
    %t = tensor.from_elements %i2 : tensor<i32>
    %acc2 = arith.addf %acc, %acc : tensor<?xf32>
    %x = func.call @dynloop(%t, %n, %acc2) : (tensor<i32>, tensor<i32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %x : tensor<?xf32>
  } else {
    scf.yield %acc : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Non-tail recursion: one dispatcher; the wrapper keeps the signature. Each
// call pushes [live values (boxed), tag] on the heap stack and branches to
// the entry; each return pops the top frame or leaves when the stack is
// empty. A tensor<?xf32> is boxed with its dynamic dim and read back with
// hal.buffer_view.dim.
// CHECK-LABEL: func.func @sum(%{{.+}}: tensor<i64>, %{{.+}}: tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>)
// CHECK:         %[[W:.+]] = arith.constant 0 : i32
// CHECK:         %[[R:.+]]:2 = call @sum__recursion(%[[W]], %arg0, %arg1) : (i32, tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>)
// CHECK:         return %[[R]]#0, %[[R]]#1
// CHECK-LABEL: func.func private @sum__recursion
// CHECK-SAME:      (%{{.+}}: i32, %[[A0:.+]]: tensor<i64>, %[[A1:.+]]: tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>)
// CHECK:         %[[STACK:.+]] = "util.list.create"(%{{.+}}) : (index) -> !util.list<?>
// The entry, entered from the wrapper and from each push, takes its tensors
// boxed (see boxBlockTensors):
// CHECK:         %[[B0:.+]] = "hal.tensor.export"(%{{.+}}) {name = "edge{{[0-9]+}}_arg0", source_encoding = tensor<i64>}
// CHECK:         %[[B1:.+]] = "hal.tensor.export"(%{{.+}}, %{{.+}}) {name = "edge{{[0-9]+}}_arg1", source_encoding = tensor<?xf32>}
// CHECK:         cf.br ^[[ENTRY:bb[0-9]+]](%[[B0]], %[[B1]] : !hal.buffer_view, !hal.buffer_view)
// CHECK:       ^[[RET:bb[0-9]+]](%{{.+}}: tensor<i64>, %{{.+}}: tensor<?xf32>):
// CHECK:         %[[SIZE:.+]] = "util.list.size"(%[[STACK]])
// CHECK:         %[[EMPTY:.+]] = arith.cmpi eq, %[[SIZE]], %{{.+}} : index
// CHECK:         cf.cond_br %[[EMPTY]], ^[[EXIT:bb[0-9]+]](%{{.+}}), ^[[POP:bb[0-9]+]](%{{.+}})
// CHECK:       ^[[ENTRY]](%{{.+}}: !hal.buffer_view, %{{.+}}: !hal.buffer_view):
// push: n (i64) and the tensor<?xf32>, then the tag
// CHECK:         %[[TOP:.+]] = "util.list.size"(%[[STACK]])
// CHECK:         "util.list.resize"(%[[STACK]], %{{.+}})
// CHECK:         "util.list.set"(%[[STACK]], %{{.+}}, %{{.+}}) : (!util.list<?>, index, i64) -> ()
// CHECK:         %[[DIM:.+]] = tensor.dim %[[DYN:.+]], %{{.+}} : tensor<?xf32>
// CHECK:         %[[BOX:.+]] = "hal.tensor.export"(%[[DYN]], %[[DIM]]) {source_encoding = tensor<?xf32>} : (tensor<?xf32>, index) -> !hal.buffer_view
// CHECK:         "util.list.set"(%[[STACK]], %{{.+}}, %[[BOX]]) : (!util.list<?>, index, !hal.buffer_view) -> ()
// CHECK:         %[[TAG:.+]] = arith.constant 0 : i32
// CHECK:         "util.list.set"(%[[STACK]], %{{.+}}, %[[TAG]]) : (!util.list<?>, index, i32) -> ()
// CHECK:         cf.br ^[[ENTRY]](%{{.+}}, %{{.+}} : !hal.buffer_view, !hal.buffer_view)
// CHECK:       ^[[CONT:bb[0-9]+]](%{{.+}}: tensor<i64>, %{{.+}}: tensor<?xf32>, %{{.+}}: i64, %{{.+}}: tensor<?xf32>):
// CHECK:         cf.br ^[[RET]]
// CHECK:       ^[[EXIT]](%[[E0:.+]]: tensor<i64>, %[[E1:.+]]: tensor<?xf32>):
// CHECK-NEXT:    return %[[E0]], %[[E1]]
// CHECK:       ^[[POP]](
// CHECK:         %[[T:.+]] = "util.list.get"(%[[STACK]], %{{.+}}) : (!util.list<?>, index) -> i32
// CHECK:         cf.switch %[[T]] : i32, [
// CHECK-NEXT:      default: ^[[RESTORE:bb[0-9]+]](
// CHECK:       ^[[RESTORE]](%[[RES0:.+]]: tensor<i64>, %[[RES1:.+]]: tensor<?xf32>):
// CHECK:         %[[SAVEDN:.+]] = "util.list.get"(%[[STACK]], %{{.+}}) : (!util.list<?>, index) -> i64
// CHECK:         %[[VIEW:.+]] = "util.list.get"(%[[STACK]], %{{.+}}) : (!util.list<?>, index) -> !hal.buffer_view
// CHECK:         %[[VDIM:.+]] = "hal.buffer_view.dim"(%[[VIEW]]) {index = 0 : index} : (!hal.buffer_view) -> index
// CHECK:         %[[UNBOX:.+]] = "hal.tensor.import"(%[[VIEW]], %[[VDIM]]) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, target_encoding = tensor<?xf32>} : (!hal.buffer_view, index) -> tensor<?xf32>
// CHECK:         "util.list.resize"(%[[STACK]], %{{.+}})
// CHECK:         cf.br ^[[CONT]](%[[RES0]], %[[RES1]], %[[SAVEDN]], %[[UNBOX]] : tensor<i64>, tensor<?xf32>, i64, tensor<?xf32>)
// CHECK-NOT:   call @sum
// CHECK:       // -----

// Non-tail recursion: sum(n) = n + sum(n - 1).
func.func @sum(%n: tensor<i64>, %dyn: tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) {
  %nn = tensor.extract %n[] : tensor<i64>
  %c0 = arith.constant 0 : i64
  %stop = arith.cmpi eq, %nn, %c0 : i64
  %r:2 = scf.if %stop -> (tensor<i64>, tensor<?xf32>) {
    scf.yield %n, %dyn : tensor<i64>, tensor<?xf32>
  } else {
    %c1 = arith.constant 1 : i64
    %m = arith.subi %nn, %c1 : i64
    %mt = tensor.from_elements %m : tensor<i64>
    %s:2 = func.call @sum(%mt, %dyn) : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>)
    %sv = tensor.extract %s#0[] : tensor<i64>
    %t = arith.addi %sv, %nn : i64
    %tt = tensor.from_elements %t : tensor<i64>
    %d = arith.addf %s#1, %dyn : tensor<?xf32>
    scf.yield %tt, %d : tensor<i64>, tensor<?xf32>
  }
  return %r#0, %r#1 : tensor<i64>, tensor<?xf32>
}

// -----

// Mutual recursion: both functions in one dispatcher, entered by index. The
// tail call even -> odd is a plain branch (no frame); odd -> even is not a
// tail call (negf after it) and pushes a frame holding only its tag.
// CHECK-LABEL: func.func @even(
// CHECK:         %[[W0:.+]] = arith.constant 0 : i32
// CHECK:         call @even__recursion(%[[W0]], %arg0, %arg1)
// CHECK-LABEL: func.func @odd(
// CHECK:         %[[W1:.+]] = arith.constant 1 : i32
// CHECK:         call @even__recursion(%[[W1]], %arg0, %arg1)
// CHECK-LABEL: func.func private @even__recursion
// CHECK-SAME:      (%[[WHICH:.+]]: i32, %[[N:.+]]: i64, %[[X:.+]]: tensor<3xf32>) -> tensor<3xf32>
// CHECK:         cf.switch %[[WHICH]] : i32, [
// CHECK-NEXT:      default: ^[[EVEN:bb[0-9]+]](%[[N]], %{{.+}} : i64, !hal.buffer_view),
// CHECK-NEXT:      1: ^[[ODD:bb[0-9]+]](%[[N]], %{{.+}} : i64, !hal.buffer_view)
// CHECK:       ^[[EVEN]](
// CHECK:         cf.cond_br
// CHECK:         %[[M:.+]] = arith.subi
// CHECK:         cf.br ^[[ODD]](%[[M]], %{{.+}} : i64, !hal.buffer_view)
// CHECK:       ^[[ODD]](
// CHECK:         "util.list.resize"
// CHECK:         "util.list.set"(%{{.+}}, %{{.+}}, %{{.+}}) : (!util.list<?>, index, i32) -> ()
// CHECK:         cf.br ^[[EVEN]](
// CHECK:         arith.negf
// CHECK-NOT:   call @
// CHECK:       // -----

func.func @even(%n: i64, %x: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : i64
  %stop = arith.cmpi eq, %n, %c0 : i64
  %r = scf.if %stop -> tensor<3xf32> {
    scf.yield %x : tensor<3xf32>
  } else {
    %c1 = arith.constant 1 : i64
    %m = arith.subi %n, %c1 : i64
    %o = func.call @odd(%m, %x) : (i64, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %o : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

func.func @odd(%n: i64, %x: tensor<3xf32>) -> tensor<3xf32> {
  %c1 = arith.constant 1 : i64
  %m = arith.subi %n, %c1 : i64
  %e = func.call @even(%m, %x) : (i64, tensor<3xf32>) -> tensor<3xf32>
  %y = arith.negf %e : tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// Different signatures: one argument slot group and one result slot group
// per distinct type list; unused slots get placeholders.
// CHECK-LABEL: func.func @f(%{{.+}}: i64, %{{.+}}: tensor<2xf32>) -> tensor<2xf32>
// CHECK-DAG:     %[[F:.+]] = arith.constant 0 : i32
// CHECK-DAG:     %[[P:.+]] = arith.constant 0 : i64
// CHECK:         %[[R:.+]]:2 = call @f__recursion(%[[F]], %arg0, %arg1, %[[P]]) : (i32, i64, tensor<2xf32>, i64) -> (tensor<2xf32>, i64)
// CHECK-NEXT:    return %[[R]]#0 : tensor<2xf32>
// CHECK-LABEL: func.func @g(%{{.+}}: i64) -> i64
// CHECK-DAG:     %[[G:.+]] = arith.constant 1 : i32
// CHECK-DAG:     %[[PN:.+]] = arith.constant 0 : i64
// CHECK-DAG:     %[[PX:.+]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK:         %[[S:.+]]:2 = call @f__recursion(%[[G]], %[[PN]], %[[PX]], %arg0)
// CHECK-NEXT:    return %[[S]]#1 : i64
// CHECK-LABEL: func.func private @f__recursion(%{{.+}}: i32, %{{.+}}: i64, %{{.+}}: tensor<2xf32>, %{{.+}}: i64) -> (tensor<2xf32>, i64)
// CHECK:         cf.switch
// CHECK-COUNT-2: "util.list.get"(%{{.+}}, %{{.+}}) : (!util.list<?>, index) -> i32
// CHECK-NOT:   call @
// CHECK:       // -----

func.func @f(%n: i64, %x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : i64
  %stop = arith.cmpi eq, %n, %c0 : i64
  %r = scf.if %stop -> tensor<2xf32> {
    scf.yield %x : tensor<2xf32>
  } else {
    %c1 = arith.constant 1 : i64
    %m = arith.subi %n, %c1 : i64
    %g = func.call @g(%m) : (i64) -> i64
    %gf = arith.sitofp %g : i64 to f32
    %t = tensor.from_elements %gf, %gf : tensor<2xf32>
    %y = arith.addf %x, %t : tensor<2xf32>
    scf.yield %y : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

func.func @g(%n: i64) -> i64 {
  %x = arith.constant dense<1.0> : tensor<2xf32>
  %y = func.call @f(%n, %x) : (i64, tensor<2xf32>) -> tensor<2xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.extract %y[%c0] : tensor<2xf32>
  %i = arith.fptosi %e : f32 to i64
  %s = arith.addi %i, %n : i64
  return %s : i64
}

// -----

// Every scalar kind survives a frame: i1 and f16 as i32, f64 as i64 bits,
// index as i64, !util.list<?> as itself, tensor<2xi1> boxed.
// CHECK-LABEL: func.func private @kinds__recursion
// CHECK:         arith.extui %{{.+}} : i1 to i32
// CHECK:         arith.bitcast %{{.+}} : f64 to i64
// CHECK:         arith.bitcast %{{.+}} : f16 to i16
// CHECK-NEXT:    arith.extui %{{.+}} : i16 to i32
// CHECK:         "util.list.set"(%{{.+}}, %{{.+}}, %{{.+}}) : (!util.list<?>, index, !util.list<?>) -> ()
// CHECK:         "hal.tensor.export"(%{{.+}}) {source_encoding = tensor<2xi1>}
// CHECK:         arith.index_cast %{{.+}} : index to i64
// CHECK:         arith.trunci %{{.+}} : i32 to i1
// CHECK:         arith.bitcast %{{.+}} : i64 to f64
// CHECK:         arith.trunci %{{.+}} : i32 to i16
// CHECK-NEXT:    arith.bitcast %{{.+}} : i16 to f16
// CHECK:         "util.list.get"(%{{.+}}, %{{.+}}) : (!util.list<?>, index) -> !util.list<?>
// CHECK:         "hal.tensor.import"(%{{.+}}) {operandSegmentSizes = array<i32: 1, 0, 0, 0>, target_encoding = tensor<2xi1>}
// CHECK:         arith.index_cast %{{.+}} : i64 to index

// Values of every scalar kind and a !util.list<?> live across a call.
func.func @kinds(%n: index, %b: i1, %d: f64, %h: f16, %l: !util.list<?>, %m: tensor<2xi1>) -> index {
  %c0 = arith.constant 0 : index
  %stop = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %stop -> index {
    scf.yield %n : index
  } else {
    %c1 = arith.constant 1 : index
    %k = arith.subi %n, %c1 : index
    %s = func.call @kinds(%k, %b, %d, %h, %l, %m) : (index, i1, f64, f16, !util.list<?>, tensor<2xi1>) -> index
    %bi = arith.index_cast %b : i1 to index
    %di = arith.fptosi %d : f64 to i64
    %dx = arith.index_cast %di : i64 to index
    %hf = arith.extf %h : f16 to f64
    %hi = arith.fptosi %hf : f64 to i64
    %hx = arith.index_cast %hi : i64 to index
    %sz = "util.list.size"(%l) : (!util.list<?>) -> index
    %e = tensor.extract %m[%c0] : tensor<2xi1>
    %ex = arith.index_cast %e : i1 to index
    %t0 = arith.addi %s, %bi : index
    %t1 = arith.addi %t0, %dx : index
    %t2 = arith.addi %t1, %hx : index
    %t3 = arith.addi %t2, %sz : index
    %t4 = arith.addi %t3, %ex : index
    %t5 = arith.addi %t4, %n : index
    scf.yield %t5 : index
  }
  return %r : index
}

// -----

// A recursive call inside an scf.for: the loop becomes blocks, and the loop
// counter, the bound-free live values and the iter_arg are saved in the
// frame; the continuation re-enters the loop.
// CHECK-LABEL: func.func private @tree__recursion
// CHECK:       ^[[HEADER:bb[0-9]+]](%{{.+}}: index, %{{.+}}: !hal.buffer_view, %{{.+}}: i64):
// CHECK:         arith.cmpi slt
// CHECK:         "hal.tensor.export"
// CHECK:         arith.index_cast %{{.+}} : index to i64
// CHECK:       ^{{bb[0-9]+}}(%{{.+}}: tensor<2xf32>, %{{.+}}: tensor<2xf32>, %{{.+}}: index, %{{.+}}: i64):
// CHECK:         arith.addf
// CHECK:         cf.br ^[[HEADER]](
// CHECK-LABEL: func.func @main
// CHECK:         call @tree(

// A recursive call inside an scf.for: the loop's values live across it.
func.func @tree(%depth: i64, %x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : i64
  %leaf = arith.cmpi eq, %depth, %c0 : i64
  %r = scf.if %leaf -> tensor<2xf32> {
    scf.yield %x : tensor<2xf32>
  } else {
    %c1 = arith.constant 1 : i64
    %d = arith.subi %depth, %c1 : i64
    %lb = arith.constant 0 : index
    %ub = arith.constant 3 : index
    %st = arith.constant 1 : index
    %acc = scf.for %i = %lb to %ub step %st iter_args(%a = %x) -> tensor<2xf32> {
      %sub = func.call @tree(%d, %a) : (i64, tensor<2xf32>) -> tensor<2xf32>
      %s = arith.addf %a, %sub : tensor<2xf32>
      scf.yield %s : tensor<2xf32>
    }
    scf.yield %acc : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

func.func @main(%depth: tensor<i64>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %d = tensor.extract %depth[] : tensor<i64>
  %r = func.call @tree(%d, %x) : (i64, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Already in CFG form: the call result reaches the return by dominance.
// The return chain left without predecessors is erased.
// CHECK-LABEL: func.func @count
// CHECK:         "hal.tensor.export"(%{{.+}}) {name = "edge{{[0-9]+}}_arg1"
// CHECK-NEXT:    cf.br ^[[HEAD:bb[0-9]+]](%arg0, %{{.+}} : i64, !hal.buffer_view)
// CHECK:         cf.br ^[[HEAD]](
// CHECK-NOT:     no predecessors
// CHECK-NOT:   call
// CHECK:       // -----
func.func @count(%n: i64, %acc: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : i64
  %stop = arith.cmpi eq, %n, %c0 : i64
  cf.cond_br %stop, ^done, ^more
^more:
  %c1 = arith.constant 1 : i64
  %m = arith.subi %n, %c1 : i64
  %acc2 = arith.addf %acc, %acc : tensor<2xf32>
  %r = func.call @count(%m, %acc2) : (i64, tensor<2xf32>) -> tensor<2xf32>
  cf.br ^out
^out:
  return %r : tensor<2xf32>
^done:
  return %acc : tensor<2xf32>
}

// -----

// Without a cycle nothing changes, not even scf.
// CHECK-LABEL: func.func @leaf
// CHECK:         scf.if
// CHECK-LABEL: func.func @caller
// CHECK:         call @leaf
// CHECK-NOT:   util.list
func.func @leaf(%c: i1, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r = scf.if %c -> tensor<2xf32> {
    %y = arith.addf %x, %x : tensor<2xf32>
    scf.yield %y : tensor<2xf32>
  } else {
    scf.yield %x : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

func.func @caller(%c: i1, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r = func.call @leaf(%c, %x) : (i1, tensor<2xf32>) -> tensor<2xf32>
  %s = func.call @leaf(%c, %r) : (i1, tensor<2xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}
