// RUN: relay-mlir-opt %s --relay-host-scalars -split-input-file | FileCheck %s

#s = affine_map<() -> ()>

// A loop counter (a recursive private function's argument, started at a
// constant, incremented by a 0-d generic) and its bound (from the input's
// dim) are computed on the host: no one-element generic, no read back; the
// step index reaches the gather as a scalar captured in its body.
// CHECK-LABEL: func.func @main
// CHECK:         %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK:         call @steps(%{{.*}}, %[[N]], %arg0) : (i64, i64, tensor<?xf32>) -> tensor<?xf32>
// CHECK-LABEL: func.func private @steps
// CHECK-SAME:    (%[[I:.*]]: i64, %[[M:.*]]: i64, %[[X:.*]]: tensor<?xf32>)
// CHECK-NOT:     iterator_types = []
// CHECK:         %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[M]] : i64
// CHECK-NEXT:    scf.if %[[LT]]
// CHECK:           %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}} : i64
// CHECK:           linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<?xf32>)
// CHECK:             arith.index_cast %[[I]] : i64 to index
// CHECK:           call @steps(%[[NEXT]], %[[M]], %{{.*}}) : (i64, i64, tensor<?xf32>)
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0> : tensor<i64>
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %di = arith.index_cast %d : index to i64
  %n = tensor.from_elements %di : tensor<i64>
  %r = call @steps(%zero, %n, %x) : (tensor<i64>, tensor<i64>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func private @steps(%i: tensor<i64>, %n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1> : tensor<i64>
  %eb = tensor.empty() : tensor<i1>
  %lt = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%i, %n : tensor<i64>, tensor<i64>) outs(%eb : tensor<i1>) {
  ^bb0(%a: i64, %b: i64, %o: i1):
    %c = arith.cmpi slt, %a, %b : i64
    linalg.yield %c : i1
  } -> tensor<i1>
  %cond = tensor.extract %lt[] : tensor<i1>
  %r = scf.if %cond -> tensor<?xf32> {
    %ei = tensor.empty() : tensor<i64>
    %next = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
        ins(%i, %one : tensor<i64>, tensor<i64>) outs(%ei : tensor<i64>) {
    ^bb0(%a: i64, %b: i64, %o: i64):
      %s = arith.addi %a, %b : i64
      linalg.yield %s : i64
    } -> tensor<i64>
    %d = tensor.dim %x, %c0 : tensor<?xf32>
    %e = tensor.empty(%d) : tensor<?xf32>
    // x[j] + x[i]: the step index read inside a dispatch
    %y = linalg.generic {indexing_maps = [affine_map<(j) -> ()>, affine_map<(j) -> (j)>],
                         iterator_types = ["parallel"]}
        ins(%i : tensor<i64>) outs(%e : tensor<?xf32>) {
    ^bb0(%a: i64, %o: f32):
      %k = arith.index_cast %a : i64 to index
      %j = linalg.index 0 : index
      %xj = tensor.extract %x[%j] : tensor<?xf32>
      %xk = tensor.extract %x[%k] : tensor<?xf32>
      %s = arith.addf %xj, %xk : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    %rec = func.call @steps(%next, %n, %y) : (tensor<i64>, tensor<i64>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %rec : tensor<?xf32>
  } else {
    scf.yield %x : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

#s = affine_map<() -> ()>

// A 0-d value read from a device tensor stays a tensor, and so does
// everything computed from it (a constant operand moves into the body); a
// division that may trap stays on the device.
// CHECK-LABEL: func.func @from_device
// CHECK:         %[[V:.*]] = linalg.generic
// CHECK:           tensor.extract %arg0[%{{.*}}] : tensor<4xi64>
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[V]] : tensor<i64>)
// CHECK:           arith.addi %{{.*}}, %c1_i64
// CHECK:         %[[Q:.*]] = linalg.generic
// CHECK:           arith.divsi %{{.*}}, %arg1
// CHECK:         return %[[S]], %[[Q]] : tensor<i64>, tensor<i64>
func.func @from_device(%t: tensor<4xi64>, %k: i64) -> (tensor<i64>, tensor<i64>) {
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<i64>
  %v = linalg.generic {indexing_maps = [#s], iterator_types = []} outs(%e : tensor<i64>) {
  ^bb0(%o: i64):
    %x = tensor.extract %t[%c2] : tensor<4xi64>
    linalg.yield %x : i64
  } -> tensor<i64>
  %one = arith.constant dense<1> : tensor<i64>
  %s = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%v, %one : tensor<i64>, tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %r = arith.addi %a, %b : i64
    linalg.yield %r : i64
  } -> tensor<i64>
  %kt = tensor.from_elements %k : tensor<i64>
  %q = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%one, %kt : tensor<i64>, tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %r = arith.divsi %a, %b : i64
    linalg.yield %r : i64
  } -> tensor<i64>
  return %s, %q : tensor<i64>, tensor<i64>
}

// -----

#s = affine_map<() -> ()>

// CFG loops: a block argument whose every incoming value is host-known
// becomes a scalar; one with a device value on some edge stays a tensor.
// CHECK-LABEL: func.func @cfg
// CHECK:         cf.br ^bb1(%{{.*}}, %arg0 : i64, tensor<i64>)
// CHECK:       ^bb1(%[[I:.*]]: i64, %[[ACC:.*]]: tensor<i64>):
// CHECK:         %[[LT:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : i64
// CHECK:         cf.cond_br %[[LT]]
func.func @cfg(%acc0: tensor<i64>) -> tensor<i64> {
  %zero = arith.constant dense<0> : tensor<i64>
  %ten = arith.constant dense<10> : tensor<i64>
  %one = arith.constant dense<1> : tensor<i64>
  %e = tensor.empty() : tensor<i64>
  %eb = tensor.empty() : tensor<i1>
  cf.br ^head(%zero, %acc0 : tensor<i64>, tensor<i64>)
^head(%i: tensor<i64>, %acc: tensor<i64>):
  %lt = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%i, %ten : tensor<i64>, tensor<i64>) outs(%eb : tensor<i1>) {
  ^bb0(%a: i64, %b: i64, %o: i1):
    %c = arith.cmpi slt, %a, %b : i64
    linalg.yield %c : i1
  } -> tensor<i1>
  %c = tensor.extract %lt[] : tensor<i1>
  cf.cond_br %c, ^body, ^exit
^body:
  %next = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%i, %one : tensor<i64>, tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %s = arith.addi %a, %b : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %acc2 = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%acc, %i : tensor<i64>, tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %s = arith.addi %a, %b : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  cf.br ^head(%next, %acc2 : tensor<i64>, tensor<i64>)
^exit:
  return %acc : tensor<i64>
}

// -----

#s = affine_map<() -> ()>

// A division by a constant 0-d tensor (the LSTM's `T / 16 * 16` steps):
// the constant moves into the body, where the division cannot trap, so it
// runs on the host; a division by a run-time value stays on the device.
// CHECK-LABEL: func.func @divide
// CHECK:         %[[Q:.*]] = arith.divsi %{{.*}}, %{{.*}} : i64
// CHECK:         %[[W:.*]] = arith.muli %[[Q]], %{{.*}} : i64
// CHECK:         %[[LT:.*]] = arith.cmpi slt, %[[W]], %{{.*}} : i64
// CHECK:         scf.if %[[LT]]
// CHECK:         linalg.generic {{.*}}iterator_types = []
// CHECK:           arith.divsi
func.func @divide(%x: tensor<?xf32>, %dev: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  %c0 = arith.constant 0 : index
  %sixteen = arith.constant dense<16> : tensor<i64>
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %di = arith.index_cast %d : index to i64
  %n = tensor.from_elements %di : tensor<i64>
  %e = tensor.empty() : tensor<i64>
  %eb = tensor.empty() : tensor<i1>
  %q = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%n, %sixteen : tensor<i64>, tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %r = arith.divsi %a, %b : i64
    linalg.yield %r : i64
  } -> tensor<i64>
  %w = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%q, %sixteen : tensor<i64>, tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %r = arith.muli %a, %b : i64
    linalg.yield %r : i64
  } -> tensor<i64>
  %lt = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%w, %n : tensor<i64>, tensor<i64>) outs(%eb : tensor<i1>) {
  ^bb0(%a: i64, %b: i64, %o: i1):
    %c = arith.cmpi slt, %a, %b : i64
    linalg.yield %c : i1
  } -> tensor<i1>
  %c = tensor.extract %lt[] : tensor<i1>
  %sel = scf.if %c -> (tensor<i64>) {
    scf.yield %w : tensor<i64>
  } else {
    scf.yield %n : tensor<i64>
  }
  %byDev = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%n, %dev : tensor<i64>, tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %r = arith.divsi %a, %b : i64
    linalg.yield %r : i64
  } -> tensor<i64>
  return %sel, %byDev : tensor<i64>, tensor<i64>
}

// -----

#s = affine_map<() -> ()>

// A loop entered with a bound the host does not know (an input) reads it
// once, before the loop: the loop counts and branches on host scalars.
// CHECK-LABEL: func.func @bound_from_input
// CHECK-SAME:    (%[[N:.*]]: tensor<i32>, %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[NS:.*]] = tensor.extract %[[N]][] : tensor<i32>
// CHECK:         call @count(%{{.*}}, %[[NS]], %[[X]]) : (i32, i32, tensor<4xf32>)
// CHECK-LABEL: func.func private @count
// CHECK-SAME:    (%[[I:.*]]: i32, %[[M:.*]]: i32, %{{.*}}: tensor<4xf32>)
// CHECK-NOT:     iterator_types = []
// CHECK:         arith.cmpi slt, %[[I]], %[[M]] : i32
func.func @bound_from_input(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant dense<0> : tensor<i32>
  %r = call @count(%zero, %n, %x) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @count(%i: tensor<i32>, %m: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<i32>
  %eb = tensor.empty() : tensor<i1>
  %one = arith.constant dense<1> : tensor<i32>
  %lt = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%i, %m : tensor<i32>, tensor<i32>) outs(%eb : tensor<i1>) {
  ^bb0(%a: i32, %b: i32, %o: i1):
    %c = arith.cmpi slt, %a, %b : i32
    linalg.yield %c : i1
  } -> tensor<i1>
  %c = tensor.extract %lt[] : tensor<i1>
  %r = scf.if %c -> (tensor<4xf32>) {
    %next = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
        ins(%i, %one : tensor<i32>, tensor<i32>) outs(%e : tensor<i32>) {
    ^bb0(%a: i32, %b: i32, %o: i32):
      %s = arith.addi %a, %b : i32
      linalg.yield %s : i32
    } -> tensor<i32>
    %y = arith.addf %x, %x : tensor<4xf32>
    %z = func.call @count(%next, %m, %y) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %z : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

#s = affine_map<() -> ()>

// A loop whose integer state starts from an input and changes every
// iteration (the Relay paper's loop) reads the input once, before the loop:
// the state, its arithmetic and the branch live on the host. A float state
// stays on the device.
// CHECK-LABEL: func.func @state_from_input
// CHECK-SAME:    (%[[I0:.*]]: tensor<i32>, %[[X:.*]]: tensor<f32>)
// CHECK:         %[[IS:.*]] = tensor.extract %[[I0]][] : tensor<i32>
// CHECK:         call @step(%[[IS]], %[[X]]) : (i32, tensor<f32>)
// CHECK-LABEL: func.func private @step
// CHECK-SAME:    (%[[I:.*]]: i32, %{{.*}}: tensor<f32>)
// CHECK:         %[[D:.*]] = arith.muli %[[I]], %[[I]] : i32
// CHECK:         arith.cmpi slt, %[[D]], %{{.*}} : i32
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<f32>)
// CHECK-NOT:     linalg.generic
func.func @state_from_input(%i0: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = call @step(%i0, %x) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @step(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<i32>
  %ef = tensor.empty() : tensor<f32>
  %eb = tensor.empty() : tensor<i1>
  %hundred = arith.constant dense<100> : tensor<i32>
  %sq = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%i, %i : tensor<i32>, tensor<i32>) outs(%e : tensor<i32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %m = arith.muli %a, %b : i32
    linalg.yield %m : i32
  } -> tensor<i32>
  %lt = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%sq, %hundred : tensor<i32>, tensor<i32>) outs(%eb : tensor<i1>) {
  ^bb0(%a: i32, %b: i32, %o: i1):
    %c = arith.cmpi slt, %a, %b : i32
    linalg.yield %c : i1
  } -> tensor<i1>
  %c = tensor.extract %lt[] : tensor<i1>
  %r = scf.if %c -> (tensor<f32>) {
    %y = linalg.generic {indexing_maps = [#s, #s], iterator_types = []}
        ins(%x : tensor<f32>) outs(%ef : tensor<f32>) {
    ^bb0(%a: f32, %o: f32):
      %d = arith.addf %a, %a : f32
      linalg.yield %d : f32
    } -> tensor<f32>
    %z = func.call @step(%sq, %y) : (tensor<i32>, tensor<f32>) -> tensor<f32>
    scf.yield %z : tensor<f32>
  } else {
    scf.yield %x : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// A slice's end as a 1-element tensor (`begin + 2`, the ONNX importer's
// strided_set): added on the host, no read back of a device value.
// CHECK-LABEL: func.func @slice_end
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.*]] = arith.addi %arg0, %c2_i64 : i64
// CHECK: %[[I:.*]] = arith.index_cast %[[E]] : i64 to index
// CHECK: tensor.insert_slice %arg2 into %arg1[%[[I]], 0]
#m = affine_map<(d0) -> (d0)>
func.func @slice_end(%b: i64, %y: tensor<?x4xf32>, %v: tensor<2x4xf32>) -> tensor<?x4xf32> {
  %c = arith.constant dense<2> : tensor<1xi64>
  %f = tensor.from_elements %b : tensor<1xi64>
  %e = tensor.empty() : tensor<1xi64>
  %s = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel"]} ins(%f, %c : tensor<1xi64>, tensor<1xi64>) outs(%e : tensor<1xi64>) {
  ^bb0(%x: i64, %y2: i64, %o: i64):
    %a = arith.addi %x, %y2 : i64
    linalg.yield %a : i64
  } -> tensor<1xi64>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %s[%c0] : tensor<1xi64>
  %i = arith.index_cast %x : i64 to index
  %r = tensor.insert_slice %v into %y[%i, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// A reduction over a shape vector (an element count) is unrolled on the
// host in iteration order, from the init.
// CHECK-LABEL: func.func @element_count
// CHECK-NOT: linalg.generic
// CHECK: %[[A:.*]] = tensor.extract %arg0[%c0]
// CHECK: %[[B:.*]] = tensor.extract %arg0[%c1]
// CHECK: %[[P:.*]] = arith.muli %[[B]], %[[A]] : i64
// CHECK: %[[Q:.*]] = arith.muli %[[A]], %[[P]] : i64
// CHECK: return %[[Q]]
#v = affine_map<(d0) -> (d0)>
#s = affine_map<(d0) -> ()>
func.func @element_count(%t: tensor<3xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %t[%c0] : tensor<3xi64>
  %b = tensor.extract %t[%c1] : tensor<3xi64>
  %f = tensor.from_elements %a, %b, %a : tensor<3xi64>
  %one = arith.constant dense<1> : tensor<i64>
  %p = linalg.generic {indexing_maps = [#v, #s], iterator_types = ["reduction"]} ins(%f : tensor<3xi64>) outs(%one : tensor<i64>) {
  ^bb0(%x: i64, %acc: i64):
    %m = arith.muli %x, %acc : i64
    linalg.yield %m : i64
  } -> tensor<i64>
  %r = tensor.extract %p[] : tensor<i64>
  return %r : i64
}

// -----

// Positions from linalg.index become constants; a generic over more than 8
// points, or over a tensor the host does not know, stays on the device.
// CHECK-LABEL: func.func @iota
// CHECK-NOT: linalg.generic
// CHECK: %[[T:.*]] = tensor.from_elements %{{.*}}, %{{.*}}, %{{.*}} : tensor<3xindex>
// CHECK: return %[[T]]
#i = affine_map<(d0) -> (d0)>
func.func @iota(%k: index) -> tensor<3xindex> {
  %e = tensor.empty() : tensor<3xindex>
  %r = linalg.generic {indexing_maps = [#i], iterator_types = ["parallel"]} outs(%e : tensor<3xindex>) {
  ^bb0(%o: index):
    %d = linalg.index 0 : index
    %s = arith.addi %d, %k : index
    linalg.yield %s : index
  } -> tensor<3xindex>
  return %r : tensor<3xindex>
}

// CHECK-LABEL: func.func @stays
// CHECK-COUNT-2: linalg.generic
#j = affine_map<(d0) -> (d0)>
func.func @stays(%t: tensor<4xi64>) -> (tensor<4xi64>, tensor<9xi64>) {
  %c = arith.constant dense<1> : tensor<4xi64>
  %e = tensor.empty() : tensor<4xi64>
  %r = linalg.generic {indexing_maps = [#j, #j, #j], iterator_types = ["parallel"]} ins(%t, %c : tensor<4xi64>, tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%x: i64, %y: i64, %o: i64):
    %a = arith.addi %x, %y : i64
    linalg.yield %a : i64
  } -> tensor<4xi64>
  %e9 = tensor.empty() : tensor<9xi64>
  %r9 = linalg.generic {indexing_maps = [#j], iterator_types = ["parallel"]} outs(%e9 : tensor<9xi64>) {
  ^bb0(%o: i64):
    %d = linalg.index 0 : index
    %i = arith.index_cast %d : index to i64
    linalg.yield %i : i64
  } -> tensor<9xi64>
  return %r, %r9 : tensor<4xi64>, tensor<9xi64>
}

// -----

// A host boolean that leaves as a tensor (returned, passed along a loop's
// back edge) is a linalg.fill of it, never a tensor.from_elements of i1
// (iree-compile 3.13 fails on one that reaches a dispatch: "operand types
// match result element type"); an integer stays a from_elements.
// CHECK-LABEL: func.func @bool_leaves
// CHECK-SAME:    (%[[A:.*]]: i32)
// CHECK:         %[[C:.*]] = arith.cmpi slt, %[[A]]
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<i1>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[C]] : i1) outs(%[[E]] : tensor<i1>)
// CHECK:         %[[I:.*]] = tensor.from_elements %[[A]] : tensor<i32>
// CHECK:         return %[[F]], %[[I]]
func.func @bool_leaves(%a: i32) -> (tensor<i1>, tensor<i32>) {
  %zero = arith.constant 0 : i32
  %c = arith.cmpi slt, %a, %zero : i32
  %t = tensor.from_elements %c : tensor<i1>
  %i = tensor.from_elements %a : tensor<i32>
  return %t, %i : tensor<i1>, tensor<i32>
}
