// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(func.func(relay-hoist-runtime-checks))' -split-input-file -allow-unregistered-dialect | FileCheck %s

// A check on the input's dims moves, with its arithmetic, before the
// dispatch; the one reading a tensor's value stays after it.
// CHECK-LABEL: func.func @dims_only
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = tensor.dim %arg0, %[[C0]]
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[N:.*]] = arith.muli %[[D]], %[[C8]]
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi sle, %[[N]], %[[C8]]
// CHECK-NEXT:    cf.assert %[[OK]], "first"
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// CHECK:         tensor.extract
// CHECK:         arith.cmpf
// CHECK-NEXT:    cf.assert %{{.*}}, "second"
// CHECK-NEXT:    return
func.func @dims_only(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %arg0, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%arg0 : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %c8 = arith.constant 8 : index
  %n = arith.muli %d, %c8 : index
  %ok = arith.cmpi sle, %n, %c8 : index
  cf.assert %ok, "first"
  %v = tensor.extract %y[%c0] : tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %pos = arith.cmpf oge, %v, %zero : f32
  cf.assert %pos, "second"
  return %y : tensor<?xf32>
}

// -----

// Asserts keep their order; a check inside a loop body stays there.
// CHECK-LABEL: func.func @order_and_regions
// CHECK:         cf.assert %{{.*}}, "a"
// CHECK:         cf.assert %{{.*}}, "b"
// CHECK-NEXT:    arith.addf
// CHECK:         scf.for
// CHECK:           cf.assert %{{.*}}, "in loop"
func.func @order_and_regions(%arg0: tensor<?x?xf32>, %n: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.addf %arg0, %arg0 : tensor<?x?xf32>
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %a = arith.cmpi sge, %d0, %c1 : index
  cf.assert %a, "a"
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %b = arith.cmpi sge, %d1, %c1 : index
  cf.assert %b, "b"
  scf.for %i = %c0 to %n step %c1 {
    %l = arith.cmpi slt, %i, %d0 : index
    cf.assert %l, "in loop"
  }
  return %t : tensor<?x?xf32>
}

// -----

// A division moves with its check while no earlier assert stayed; after one
// stayed (it may guard the divisor), a check needing a division stays too.
// CHECK-LABEL: func.func @divisions
// CHECK:         arith.divsi
// CHECK:         cf.assert %{{.*}}, "divides"
// CHECK:         linalg.generic
// CHECK:         cf.assert %{{.*}}, "reads data"
// CHECK:         arith.divui
// CHECK-NEXT:    arith.cmpi
// CHECK-NEXT:    cf.assert %{{.*}}, "divides after"
func.func @divisions(%arg0: tensor<?xi32>, %d: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %arg0, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%arg0 : tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.muli %a, %a : i32
    linalg.yield %s : i32
  } -> tensor<?xi32>
  %q = arith.divsi %n, %c4 : index
  %ok = arith.cmpi sgt, %q, %c0 : index
  cf.assert %ok, "divides"
  %v = tensor.extract %y[%c0] : tensor<?xi32>
  %z = arith.constant 0 : i32
  %nz = arith.cmpi ne, %v, %z : i32
  cf.assert %nz, "reads data"
  %r = arith.divui %n, %d : index
  %ok2 = arith.cmpi sgt, %r, %c0 : index
  cf.assert %ok2, "divides after"
  return %y : tensor<?xi32>
}

// -----

// affine.apply of the arguments' dims (how resolve-ranked-shaped-type-
// result-dims writes the size of a collapsed dim) moves too, and a second
// assert of a condition already checked is dropped (it cannot fail).
// CHECK-LABEL: func.func @affine_and_repeated
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = tensor.dim %arg0, %[[C0]]
// CHECK-NEXT:    %[[P:.*]] = affine.apply {{.*}}%[[D]]]
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi sle, %[[P]], %[[C8]]
// CHECK-NEXT:    cf.assert %[[OK]], "first"
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// CHECK-NOT:     cf.assert
// CHECK:         return
func.func @affine_and_repeated(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %arg0, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%arg0 : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %p = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%d]
  %c8 = arith.constant 8 : index
  %ok = arith.cmpi sle, %p, %c8 : index
  cf.assert %ok, "first"
  cf.assert %ok, "second"
  return %y : tensor<?xf32>
}

// -----

// In a loop's body (a block other than the entry), a check on values
// available at the block's start (its arguments, values from other
// blocks, IREE's dim of a boxed loop value) moves before the block's first
// dispatch; one on a dim the block computes stays.
// CHECK-LABEL: func.func @loop_body
// CHECK:       ^bb1(%[[V:.*]]: !hal.buffer_view, %[[T:.*]]: tensor<?xf32>):
// CHECK-NEXT:    %[[D:.*]] = "hal.buffer_view.dim"(%[[V]])
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi sge, %[[D]], %[[C1]]
// CHECK-NEXT:    cf.assert %[[OK]], "boxed"
// CHECK:         linalg.generic
// CHECK:         tensor.dim %{{.*}}, %{{.*}} : tensor<?xf32>
// CHECK:         cf.assert %{{.*}}, "computed"
func.func @loop_body(%arg0: !hal.buffer_view, %t0: tensor<?xf32>) -> tensor<?xf32> {
  cf.br ^bb1(%arg0, %t0 : !hal.buffer_view, tensor<?xf32>)
^bb1(%v: !hal.buffer_view, %t: tensor<?xf32>):
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %t, %c0 : tensor<?xf32>
  %e = tensor.empty(%d0) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%t : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %d = "hal.buffer_view.dim"(%v) {index = 0 : index} : (!hal.buffer_view) -> index
  %c1 = arith.constant 1 : index
  %ok = arith.cmpi sge, %d, %c1 : index
  cf.assert %ok, "boxed"
  %z = tensor.concat dim(0) %y, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %dz = tensor.dim %z, %c0 : tensor<?xf32>
  %ok2 = arith.cmpi sge, %dz, %c1 : index
  cf.assert %ok2, "computed"
  %c = arith.cmpi sgt, %d, %c1 : index
  cf.cond_br %c, ^bb1(%v, %z : !hal.buffer_view, tensor<?xf32>), ^bb2
^bb2:
  return %y : tensor<?xf32>
}
