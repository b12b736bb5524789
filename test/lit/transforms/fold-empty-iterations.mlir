// RUN: relay-mlir-opt %s --relay-fold-empty-iterations --split-input-file | FileCheck %s

// A contraction over a size-0 dim (dense with no input features) is its
// filled accumulator: zeros.
// CHECK-LABEL: func.func @matmul_k0
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK-NOT:     linalg.matmul
// CHECK:         return %[[F]]
func.func @matmul_k0(%a: tensor<4x0xf32>, %b: tensor<0x5xf32>) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x0xf32>, tensor<0x5xf32>) outs(%f : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %m : tensor<4x5xf32>
}

// -----

// A reduction over an empty axis keeps its init (the identity; found by the
// random-program fuzzer, seed 3 program 70), a run-time size stays as it is
// (only a static 0 is known to be empty).
// CHECK-LABEL: func.func @reduce_empty
// CHECK-SAME:    (%{{.*}}: tensor<2x0xf32>, %[[Y:.*]]: tensor<2x?xf32>)
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK:         %[[R:.*]] = linalg.reduce ins(%[[Y]]
// CHECK:         return %[[F]], %[[R]]
func.func @reduce_empty(%x: tensor<2x0xf32>, %y: tensor<2x?xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.reduce ins(%x : tensor<2x0xf32>) outs(%f : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %s = linalg.reduce ins(%y : tensor<2x?xf32>) outs(%f : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r, %s : tensor<2xf32>, tensor<2xf32>
}

// -----

// An elementwise generic over an empty tensor is its init; one over a
// non-empty tensor stays.
// CHECK-LABEL: func.func @generic_empty
// CHECK-SAME:    (%{{.*}}: tensor<0x3xf32>, %{{.*}}: tensor<2x3xf32>)
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_empty(%x: tensor<0x3xf32>, %y: tensor<2x3xf32>) -> (tensor<0x3xf32>, tensor<2x3xf32>) {
  %e0 = tensor.empty() : tensor<0x3xf32>
  %g0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<0x3xf32>) outs(%e0 : tensor<0x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
  } -> tensor<0x3xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %g1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<2x3xf32>) outs(%e1 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %g0, %g1 : tensor<0x3xf32>, tensor<2x3xf32>
}

// -----

// A softmax (destination-style, not structured) of an empty tensor is its
// init.
// CHECK-LABEL: func.func @softmax_empty
// CHECK-NOT:     linalg.softmax
// CHECK:         %[[E:.*]] = tensor.empty
// CHECK:         return %[[E]]
func.func @softmax_empty(%x: tensor<2x0xf32>) -> tensor<2x0xf32> {
  %e = tensor.empty() : tensor<2x0xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x0xf32>) outs(%e : tensor<2x0xf32>) -> tensor<2x0xf32>
  return %s : tensor<2x0xf32>
}
