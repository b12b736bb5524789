// RUN: relay-mlir-opt %s --relay-byte-tables --split-input-file | FileCheck %s

// A uint8 tensor (held as i8) dequantized, through a GELU whose branches
// join again (x/2 and 1 + erf(x/sqrt(2)), both of the same byte) and
// quantized back: one lookup in a table of the 256 results. The table's
// entries are the folded values: byte 0 is -128 * 0.05 = -6.4, GELU(-6.4)
// ~ 0, quantized with zero point 3 -> 3; byte 255 is 6.35, GELU 6.35,
// 6.35 / 0.05 + 3 = 130 -> 127 (clamped).
// CHECK-LABEL: func.func @gelu
// CHECK: %[[T:.*]] = arith.constant dense<"0x0303{{[0-9A-F]*}}7F"> : tensor<256xi8>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x8xi8>)
// CHECK: %[[I:.*]] = arith.index_castui %{{.*}} : i8 to index
// CHECK: tensor.extract %[[T]][%[[I]]] : tensor<256xi8>
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu(%x: tensor<4x8xi8>) -> tensor<4x8xi8> {
  %ef = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xi8>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%b: i8, %o: f32):
    %u = arith.uitofp %b : i8 to f32
    %z = arith.constant 128.0 : f32
    %s = arith.constant 0.05 : f32
    %c = arith.subf %u, %z : f32
    %v = arith.mulf %c, %s : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %half = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x8xf32>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.5 : f32
    %m = arith.mulf %v, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %erf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x8xf32>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.70710677 : f32
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %v, %c : f32
    %t = math.erf %m : f32
    %s = arith.addf %t, %one : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%half, %erf : tensor<4x8xf32>, tensor<4x8xf32>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %m = arith.mulf %u, %v : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %e8 = tensor.empty() : tensor<4x8xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<4x8xf32>) outs(%e8 : tensor<4x8xi8>) {
  ^bb0(%v: f32, %o: i8):
    %s = arith.constant 0.05 : f32
    %zp = arith.constant 3.0 : f32
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %a = arith.divf %v, %s : f32
    %r = math.roundeven %a : f32
    %b = arith.addf %r, %zp : f32
    %c1 = arith.maximumf %b, %lo : f32
    %c2 = arith.minimumf %c1, %hi : f32
    %i = arith.fptosi %c2 : f32 to i8
    linalg.yield %i : i8
  } -> tensor<4x8xi8>
  return %q : tensor<4x8xi8>
}

// -----

// A float region that ends read by two ops (here returned twice as two
// values) has no single exit after its first op's dequantization: only the
// dequantization (4 ops, fewer than 8) would be one, so nothing changes;
// a value read by a reduction keeps the region open for good.
// CHECK-LABEL: func.func @two_exits
// CHECK-NOT: tensor.extract
// CHECK-COUNT-3: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_exits(%x: tensor<4x8xi8>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ef = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xi8>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%b: i8, %o: f32):
    %u = arith.sitofp %b : i8 to f32
    %s = arith.constant 0.05 : f32
    %v = arith.mulf %u, %s : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x8xf32>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.exp %v : f32
    %c = arith.constant 2.0 : f32
    %m = arith.mulf %t, %c : f32
    %n = arith.addf %m, %c : f32
    %p = arith.mulf %n, %n : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  %t2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x8xf32>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %e, %t2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A sigmoid of a dequantized int8 tensor, read by a matmul too (the root
// may have other readers): the region becomes a float table; the matmul
// still reads the bytes.
// CHECK-LABEL: func.func @sigmoid_beside_matmul
// CHECK: linalg.matmul ins(%arg0, %arg1
// CHECK: %[[T:.*]] = arith.constant dense<"0x0000003F{{[0-9A-F]*}}"> : tensor<256xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<4x8xi8>)
// CHECK: tensor.extract %[[T]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @sigmoid_beside_matmul(%x: tensor<4x8xi8>, %w: tensor<8x4xi8>) -> (tensor<4x4xi32>, tensor<4x8xf32>) {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x4xi32>) -> tensor<4x4xi32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xi8>, tensor<8x4xi8>) outs(%f : tensor<4x4xi32>) -> tensor<4x4xi32>
  %ef = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xi8>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%b: i8, %o: f32):
    %u = arith.sitofp %b : i8 to f32
    %sc = arith.constant 0.1 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %v = arith.mulf %u, %sc : f32
    %n = arith.subf %zero, %v : f32
    %ex = math.exp %n : f32
    %den = arith.addf %one, %ex : f32
    %r = arith.divf %one, %den : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %mm, %s : tensor<4x4xi32>, tensor<4x8xf32>
}
