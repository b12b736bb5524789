// RUN: relay-mlir-opt %s --allow-unregistered-dialect --relay-vnni-matmul --split-input-file | FileCheck %s

// An i8 x i8 -> i32 matmul with a constant right operand: A flattened (the
// kernel makes it u8 with xor 0x80808080 as it reads it), B packed
// ([panels][k/4][16][4], a constant computed by the pass), -128 * sum_k B
// per column (3 * 10 * -128 here) the row the accumulators start from. No
// epilogue: the products are stored; nothing of the matmul is left.
// CHECK-LABEL: "stream.executable"
// CHECK: "stream.executable.export"
// 7 rows, 20 columns (2 panels, 1 group of 4): a grid of [2 blocks of 6 rows, 1]
// CHECK: %[[X:.*]] = arith.constant 2 : index
// CHECK: "stream.return"(%[[X]], %{{.*}}, %{{.*}})
// CHECK: func.func @[[EXE:relay_vnni_gemm_7x20x10_e[0-9a-f]+]](%{{.*}}: !stream.binding, %{{.*}}: !stream.binding, %{{.*}}: !stream.binding, %{{.*}}: !stream.binding)
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<70xi8>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<384xi8>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<20xi32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<140xi32>
// CHECK: "stream.dispatch.workgroup.id"() {dimension = 0 : index}
// the accumulators start from the row: 20 columns, the second panel's 4 of
// 16 lanes loaded (and stored) masked
// CHECK: vector.load %{{.*}} : memref<20xi32>, vector<16xi32>
// CHECK: vector.maskedload %{{.*}} : memref<20xi32>, vector<16xi1>, vector<16xi32> into vector<16xi32>
// k = 10: two full groups in the loop, then 2 of 4 bytes of A masked
// CHECK: scf.for
// CHECK: vector.load %{{.*}} : memref<384xi8>, vector<64xi8>
// CHECK: vector.load %{{.*}} : memref<70xi8>, vector<4xi8>
// CHECK: arith.xori %{{.*}}, %{{.*}} : i32
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.maskedload %{{.*}} : memref<70xi8>, vector<4xi1>, vector<4xi8> into vector<4xi8>
// CHECK-NOT: arith.addi %{{.*}} : vector<16xi32>
// CHECK: vector.store %{{.*}} : memref<140xi32>, vector<16xi32>
// CHECK: vector.maskedstore %{{.*}} : memref<140xi32>, vector<16xi1>, vector<16xi32>
// CHECK: "stream.executable.end"
// CHECK: sym_name = "[[EXE]]", sym_visibility = "private"
// CHECK-LABEL: func.func @dense
// CHECK-NOT: arith.xori
// CHECK-NEXT: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<7x10xi8> into tensor<70xi8>
// CHECK-NEXT: %[[P:.*]] = arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<384xi8>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<-3840> : tensor<20xi32>
// CHECK: %[[R:.*]] = "flow.dispatch"(%[[A]], %[[P]], %[[C]]) {entry_points = [@[[EXE]]::@[[EXE]]], operandSegmentSizes = array<i32: 0, 3, 0, 0>, tied_operands = [-1 : index]} : (tensor<70xi8>, tensor<384xi8>, tensor<20xi32>) -> tensor<140xi32>
// CHECK: %[[OUT:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [7, 20] : tensor<140xi32> into tensor<7x20xi32>
// CHECK-NEXT: return %[[OUT]]
func.func @dense(%a: tensor<7x10xi8>) -> tensor<7x20xi32> {
  %w = arith.constant dense<3> : tensor<10x20xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<7x20xi32>) -> tensor<7x20xi32>
  %r = linalg.matmul ins(%a, %w : tensor<7x10xi8>, tensor<10x20xi8>) outs(%f : tensor<7x20xi32>) -> tensor<7x20xi32>
  return %r : tensor<7x20xi32>
}

// -----

// B read transposed ([N, K], nn.dense's weight) is packed as [K, N]; a matmul of the same shape and epilogue elsewhere shares the
// executable (its correction row is another operand); a non-zero init is a
// whole-tensor operand of the epilogue: another executable.
// CHECK-COUNT-2: "stream.executable"
// CHECK-NOT: "stream.executable"
// CHECK-LABEL: func.func @transposed_b
// CHECK: arith.constant dense<-2> : tensor<512xi8>
// CHECK-NEXT: arith.constant dense<8192> : tensor<16xi32>
// CHECK: "flow.dispatch"{{.*}}entry_points = [@[[ZERO:relay_vnni_gemm_12x16x32_e[0-9a-f]+]]::
// CHECK-LABEL: func.func @same_shape
// CHECK: "flow.dispatch"{{.*}}entry_points = [@[[ZERO]]::
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[INIT:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<12x16xi32> into tensor<192xi32>
// CHECK: "flow.dispatch"(%{{.*}}, %{{.*}}, %{{.*}}, %[[INIT]])
// CHECK-NOT: [@[[ZERO]]::
// CHECK-SAME: -> tensor<192xi32>
func.func @transposed_b(%a: tensor<12x32xi8>) -> tensor<12x16xi32> {
  %w = arith.constant dense<-2> : tensor<16x32xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<12x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<12x16xi32>) -> tensor<12x16xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %w : tensor<12x32xi8>, tensor<16x32xi8>) outs(%f : tensor<12x16xi32>) -> tensor<12x16xi32>
  return %r : tensor<12x16xi32>
}
func.func @same_shape(%a: tensor<12x32xi8>) -> tensor<12x16xi32> {
  %w = arith.constant dense<3> : tensor<32x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<12x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<12x16xi32>) -> tensor<12x16xi32>
  %r = linalg.matmul ins(%a, %w : tensor<12x32xi8>, tensor<32x16xi8>) outs(%f : tensor<12x16xi32>) -> tensor<12x16xi32>
  return %r : tensor<12x16xi32>
}
func.func @accumulate(%a: tensor<12x32xi8>, %c: tensor<12x16xi32>) -> tensor<12x16xi32> {
  %w = arith.constant dense<5> : tensor<32x16xi8>
  %r = linalg.matmul ins(%a, %w : tensor<12x32xi8>, tensor<32x16xi8>) outs(%c : tensor<12x16xi32>) -> tensor<12x16xi32>
  return %r : tensor<12x16xi32>
}

// -----

// Left alone: a run-time right operand, unsigned operands (cast_unsigned),
// float operands, a run-time size.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: flow.dispatch
// CHECK-COUNT-4: linalg.matmul
// CHECK-NOT: stream.executable
func.func @unchanged(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %af: tensor<4x8xf32>, %ad: tensor<?x8xi8>) -> (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xf32>, tensor<?x4xi32>) {
  %w = arith.constant dense<1> : tensor<8x4xi8>
  %wf = arith.constant dense<1.0> : tensor<8x4xf32>
  %z = arith.constant 0 : i32
  %zf = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x4xi32>) -> tensor<4x4xi32>
  %r0 = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x4xi8>) outs(%f : tensor<4x4xi32>) -> tensor<4x4xi32>
  %r1 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %w : tensor<4x8xi8>, tensor<8x4xi8>) outs(%f : tensor<4x4xi32>) -> tensor<4x4xi32>
  %ef = tensor.empty() : tensor<4x4xf32>
  %ff = linalg.fill ins(%zf : f32) outs(%ef : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r2 = linalg.matmul ins(%af, %wf : tensor<4x8xf32>, tensor<8x4xf32>) outs(%ff : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %ad, %c0 : tensor<?x8xi8>
  %ed = tensor.empty(%d) : tensor<?x4xi32>
  %fd = linalg.fill ins(%z : i32) outs(%ed : tensor<?x4xi32>) -> tensor<?x4xi32>
  %r3 = linalg.matmul ins(%ad, %w : tensor<?x8xi8>, tensor<8x4xi8>) outs(%fd : tensor<?x4xi32>) -> tensor<?x4xi32>
  return %r0, %r1, %r2, %r3 : tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xf32>, tensor<?x4xi32>
}

// -----

// A direct convolution with channels in groups of 4: its windows are read in
// place (the kernel's k loops run over the 3x3 taps, then 2 channel groups);
// the HWIO filter collapses to B [72, 16]; the result expands back to NHWC.
// CHECK: "stream.executable"
// CHECK: func.func @[[CONV:relay_vnni_conv_1x9x9x8_3x3_s2x2_d1x1_16_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<648xi8>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<16xi32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<1152xi8>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<256xi32>
// CHECK: arith.divui %{{.*}}, %{{.*}} : index
// CHECK: arith.remui %{{.*}}, %{{.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-LABEL: func.func @conv
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : tensor<1x9x9x8xi8> into tensor<648xi8>
// CHECK-NEXT: arith.constant dense<7> : tensor<1152xi8>
// CHECK-NEXT: arith.constant dense<-64512> : tensor<16xi32>
// CHECK: %[[R:.*]] = "flow.dispatch"{{.*}}entry_points = [@[[CONV]]::@[[CONV]]]{{.*}} -> tensor<256xi32>
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 4, 4, 16] : tensor<256xi32> into tensor<1x4x4x16xi32>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
func.func @conv(%x: tensor<1x9x9x8xi8>) -> tensor<1x4x4x16xi32> {
  %w = arith.constant dense<7> : tensor<3x3x8x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x4x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x8xi8>, tensor<3x3x8x16xi8>) outs(%f : tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
  return %r : tensor<1x4x4x16xi32>
}

// -----

// A spatial pad of the input with a constant (the quantized importers pad
// with the zero point, here -3; one more row and column at the end than the
// windows reach): the kernel reads the unpadded input and pads it itself
// (`_p<top>x<left>v<byte>`), no tensor.pad is left. Per tap and row it
// selects the input or a row of the padding's bytes (an alloca filled once
// with -3) and the pixel's offset or 0; the channel loop has no select.
// CHECK: "stream.executable"
// CHECK: func.func @[[PADDED:relay_vnni_conv_1x7x6x8_3x3_s2x2_d1x1_16_p1x1v253_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<336xi8>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<256xi32>
// CHECK: %[[ROW:.*]] = memref.alloca() : memref<64xi8>
// CHECK: %[[BYTE:.*]] = arith.constant -3 : i8
// CHECK: %[[BYTES:.*]] = vector.broadcast %[[BYTE]] : i8 to vector<64xi8>
// CHECK: vector.store %[[BYTES]], %[[ROW]]
// CHECK: %[[ANYROW:.*]] = memref.cast %[[ROW]] : memref<64xi8> to memref<?xi8>
// CHECK: %[[ANYA:.*]] = memref.cast %{{.*}} : memref<336xi8> to memref<?xi8>
// CHECK: scf.for
// CHECK: arith.cmpi ult
// CHECK: arith.select %{{.*}}, %[[ANYA]], %[[ANYROW]] : memref<?xi8>
// CHECK: scf.for
// CHECK-NOT: arith.select
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-LABEL: func.func @conv_padded
// CHECK-NOT: tensor.pad
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : tensor<1x7x6x8xi8> into tensor<336xi8>
// CHECK: "flow.dispatch"{{.*}}entry_points = [@[[PADDED]]::@[[PADDED]]]{{.*}} -> tensor<256xi32>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
func.func @conv_padded(%x0: tensor<1x7x6x8xi8>) -> tensor<1x4x4x16xi32> {
  %m = arith.constant -3 : i8
  %x = tensor.pad %x0 low[0, 1, 1, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %m : i8
  } : tensor<1x7x6x8xi8> to tensor<1x10x9x8xi8>
  %w = arith.constant dense<7> : tensor<3x3x8x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x4x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x10x9x8xi8>, tensor<3x3x8x16xi8>) outs(%f : tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
  return %r : tensor<1x4x4x16xi32>
}

// -----

// Channels not in groups of 4: the input and the filter get one more (the
// input's padded with its spatial padding's value, the filter's with 0).
// CHECK: func.func @[[RGB:relay_vnni_conv_1x9x9x4_3x3_s1x1_d1x1_16_e[0-9a-f]+]](
// CHECK-LABEL: func.func @conv_rgb
// CHECK: %[[M:.*]] = arith.constant -128 : i8
// CHECK: %[[S:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.pad %[[S]] low[0, 0, 0, 0] high[0, 0, 0, 1]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[M]] : i8
// CHECK: } : tensor<1x9x9x3xi8> to tensor<1x9x9x4xi8>
// the filter's 27 taps of 7 and a zero per group of 4, 16 times per tap
// CHECK: arith.constant dense<"0x{{(07070700)+}}"> : tensor<576xi8>
// CHECK-NEXT: arith.constant dense<-24192> : tensor<16xi32>
// CHECK: "flow.dispatch"{{.*}}entry_points = [@[[RGB]]::@[[RGB]]]
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
func.func @conv_rgb(%x0: tensor<1x7x7x3xi8>) -> tensor<1x7x7x16xi32> {
  %m = arith.constant -128 : i8
  %x = tensor.pad %x0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %m : i8
  } : tensor<1x7x7x3xi8> to tensor<1x9x9x3xi8>
  %w = arith.constant dense<7> : tensor<3x3x3x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x7x7x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x7x7x16xi32>) -> tensor<1x7x7x16xi32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x3xi8>, tensor<3x3x3x16xi8>) outs(%f : tensor<1x7x7x16xi32>) -> tensor<1x7x7x16xi32>
  return %r : tensor<1x7x7x16xi32>
}

// -----

// The elementwise ops after the product run in the kernel's epilogue: a bias
// per column, then a requantization with a scalar scale to i8 (a constant
// from outside the body becomes a splat, a constant rank-0 input too). The
// dispatch's operands are A, B, the correction row, the bias and the scale
// (rank 0 made [1], loaded once); it stores i8.
// CHECK: func.func @[[EXE:relay_vnni_gemm_7x20x10_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<1xf32>
// CHECK-DAG: %[[OUT:.*]] = "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<140xi8>
// CHECK: %[[SCALE:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<1xf32>
// CHECK: %[[LANES:.*]] = vector.broadcast %[[SCALE]] : f32 to vector<16xf32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: arith.addi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %{{.*}}, %[[LANES]] : vector<16xf32>
// CHECK: arith.constant dense<1.270000e+02> : vector<16xf32>
// CHECK: arith.minimumf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.constant dense<-1.280000e+02> : vector<16xf32>
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.fptosi %{{.*}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<140xi8>, vector<16xi8>
// CHECK: vector.maskedstore %[[OUT]][%{{.*}}], %{{.*}}, %{{.*}} : memref<140xi8>, vector<16xi1>, vector<16xi8>
// CHECK-LABEL: func.func @requantized
// CHECK: %[[S:.*]] = tensor.expand_shape %arg2 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: %[[R:.*]] = "flow.dispatch"(%{{.*}}, %{{.*}}, %{{.*}}, %arg1, %[[S]]) {entry_points = [@[[EXE]]::@[[EXE]]], operandSegmentSizes = array<i32: 0, 5, 0, 0>{{.*}} : (tensor<70xi8>, tensor<384xi8>, tensor<20xi32>, tensor<20xi32>, tensor<1xf32>) -> tensor<140xi8>
// CHECK: %[[Q:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [7, 20] : tensor<140xi8> into tensor<7x20xi8>
// CHECK-NOT: linalg.generic
// CHECK: return %[[Q]]
func.func @requantized(%a: tensor<7x10xi8>, %bias: tensor<20xi32>, %s: tensor<f32>) -> tensor<7x20xi8> {
  %w = arith.constant dense<3> : tensor<10x20xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<7x20xi32>) -> tensor<7x20xi32>
  %r = linalg.matmul ins(%a, %w : tensor<7x10xi8>, tensor<10x20xi8>) outs(%f : tensor<7x20xi32>) -> tensor<7x20xi32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %bias : tensor<7x20xi32>, tensor<20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %t = arith.addi %x, %y : i32
    linalg.yield %t : i32
  } -> tensor<7x20xi32>
  %c127 = arith.constant 127.0 : f32
  %e8 = tensor.empty() : tensor<7x20xi8>
  %ef = tensor.empty() : tensor<7x20xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %s : tensor<7x20xi32>, tensor<f32>) outs(%ef : tensor<7x20xf32>) {
  ^bb0(%x: i32, %sc: f32, %o: f32):
    %fx = arith.sitofp %x : i32 to f32
    %m = arith.mulf %fx, %sc : f32
    %c = arith.minimumf %m, %c127 : f32
    linalg.yield %c : f32
  } -> tensor<7x20xf32>
  %lo = arith.constant dense<-128.0> : tensor<f32>
  %q8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %lo : tensor<7x20xf32>, tensor<f32>) outs(%e8 : tensor<7x20xi8>) {
  ^bb0(%x: f32, %l: f32, %o: i8):
    %c = arith.maximumf %x, %l : f32
    %i = arith.fptosi %c : f32 to i8
    linalg.yield %i : i8
  } -> tensor<7x20xi8>
  return %q8 : tensor<7x20xi8>
}

// -----

// Through a reshape that keeps the columns last (a 1x1 convolution's
// matmul back to NHWC): the chain goes on in rank 4 with a per-channel
// operand. A step may read the product twice; the chain stops at a
// consumer reading per row and at a body that reads its index.
// CHECK-LABEL: func.func @through_reshape
// CHECK: %[[R:.*]] = "flow.dispatch"(%{{.*}}, %{{.*}}, %{{.*}}, %arg1) {{.*}} : (tensor<16xi8>, tensor<64xi8>, tensor<16xi32>, tensor<16xi32>) -> tensor<64xi32>
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 2, 2, 16]
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
func.func @through_reshape(%a: tensor<4x4xi8>, %bias: tensor<16xi32>) -> tensor<1x2x2x16xi32> {
  %w = arith.constant dense<1> : tensor<4x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %r = linalg.matmul ins(%a, %w : tensor<4x4xi8>, tensor<4x16xi8>) outs(%f : tensor<4x16xi32>) -> tensor<4x16xi32>
  %x = tensor.expand_shape %r [[0, 1, 2], [3]] output_shape [1, 2, 2, 16] : tensor<4x16xi32> into tensor<1x2x2x16xi32>
  %e4 = tensor.empty() : tensor<1x2x2x16xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %bias : tensor<1x2x2x16xi32>, tensor<16xi32>) outs(%e4 : tensor<1x2x2x16xi32>) {
  ^bb0(%v: i32, %b: i32, %o: i32):
    %t = arith.addi %v, %b : i32
    linalg.yield %t : i32
  } -> tensor<1x2x2x16xi32>
  return %y : tensor<1x2x2x16xi32>
}
// CHECK-LABEL: func.func @two_uses
// CHECK: %[[R:.*]] = "flow.dispatch"{{.*}} -> tensor<64xi32>
// CHECK-NEXT: %[[P:.*]] = tensor.expand_shape %[[R]]
// CHECK-NEXT: return %[[P]]
func.func @two_uses(%a: tensor<4x4xi8>) -> tensor<4x16xi32> {
  %w = arith.constant dense<1> : tensor<4x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %r = linalg.matmul ins(%a, %w : tensor<4x4xi8>, tensor<4x16xi8>) outs(%f : tensor<4x16xi32>) -> tensor<4x16xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %r : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%u: i32, %v: i32, %o: i32):
    %t = arith.muli %u, %v : i32
    linalg.yield %t : i32
  } -> tensor<4x16xi32>
  return %y : tensor<4x16xi32>
}
// CHECK-LABEL: func.func @per_row
// CHECK: %[[R:.*]] = "flow.dispatch"{{.*}} -> tensor<64xi32>
// CHECK: %[[P:.*]] = tensor.expand_shape %[[R]]
// CHECK: linalg.generic {{.*}} ins(%[[P]], %arg1 :
func.func @per_row(%a: tensor<4x4xi8>, %rows: tensor<4xi32>) -> tensor<4x16xi32> {
  %w = arith.constant dense<1> : tensor<4x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %r = linalg.matmul ins(%a, %w : tensor<4x4xi8>, tensor<4x16xi8>) outs(%f : tensor<4x16xi32>) -> tensor<4x16xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %rows : tensor<4x16xi32>, tensor<4xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%u: i32, %v: i32, %o: i32):
    %t = arith.addi %u, %v : i32
    linalg.yield %t : i32
  } -> tensor<4x16xi32>
  return %y : tensor<4x16xi32>
}
// CHECK-LABEL: func.func @reads_index
// CHECK: %[[R:.*]] = "flow.dispatch"{{.*}} -> tensor<64xi32>
// CHECK: %[[P:.*]] = tensor.expand_shape %[[R]]
// CHECK: linalg.generic {{.*}} ins(%[[P]] :
// CHECK: linalg.index 1
func.func @reads_index(%a: tensor<4x4xi8>) -> tensor<4x16xi32> {
  %w = arith.constant dense<1> : tensor<4x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %r = linalg.matmul ins(%a, %w : tensor<4x4xi8>, tensor<4x16xi8>) outs(%f : tensor<4x16xi32>) -> tensor<4x16xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%u: i32, %o: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %t = arith.addi %u, %c : i32
    linalg.yield %t : i32
  } -> tensor<4x16xi32>
  return %y : tensor<4x16xi32>
}

// -----

// A chain that ends in rank 1 (a batch-1 dense squeezed to [N], then a
// bias): the dispatch's flat result is that value itself.
// CHECK-LABEL: func.func @squeezed
// CHECK: %[[R:.*]] = "flow.dispatch"{{.*}} -> tensor<20xi32>
// CHECK-NEXT: return %[[R]] : tensor<20xi32>
func.func @squeezed(%a: tensor<1x8xi8>, %bias: tensor<20xi32>) -> tensor<20xi32> {
  %w = arith.constant dense<1> : tensor<8x20xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x20xi32>) -> tensor<1x20xi32>
  %r = linalg.matmul ins(%a, %w : tensor<1x8xi8>, tensor<8x20xi8>) outs(%f : tensor<1x20xi32>) -> tensor<1x20xi32>
  %s = tensor.collapse_shape %r [[0, 1]] : tensor<1x20xi32> into tensor<20xi32>
  %e1 = tensor.empty() : tensor<20xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s, %bias : tensor<20xi32>, tensor<20xi32>) outs(%e1 : tensor<20xi32>) {
  ^bb0(%u: i32, %v: i32, %o: i32):
    %t = arith.addi %u, %v : i32
    linalg.yield %t : i32
  } -> tensor<20xi32>
  return %y : tensor<20xi32>
}

// -----

// A depthwise convolution (3x3, stride 1, 20 channels: a full group of 16
// and a masked group of 4) takes the depthwise kernel: the filter packed per
// kernel row and 16 channels twice, with the taps at 0..2 and at 1..3 of a
// group of 4 (two output pixels per interleave of 4 input pixels; an odd
// output width leaves one), -128 * the sum of each channel's 9 taps the
// accumulators' start.
// CHECK: "stream.executable"
// CHECK: func.func @[[DW:relay_vnni_dwconv_1x7x9x20_3x3_s1x1_d1x1_o5x7_p0x0v0_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<1260xi8>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<768xi8>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<20xi32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<700xi32>
// the full channel group: 4 taps of 16 channels interleaved, made u8
// CHECK: scf.for
// CHECK: vector.load %{{.*}} : memref<768xi8>, vector<64xi8>
// CHECK: vector.load %{{.*}} : memref<1260xi8>, vector<16xi8>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 16, 32, 48, 1, 17, 33, 49,
// CHECK-SAME: : vector<32xi8>, vector<32xi8>
// CHECK: arith.xori %{{.*}}, %{{.*}} : vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.store %{{.*}} : memref<700xi32>, vector<16xi32>
// the last 4 channels: masked
// CHECK: scf.if
// CHECK: vector.maskedload %{{.*}} : memref<1260xi8>, vector<16xi1>, vector<16xi8> into vector<16xi8>
// CHECK: vector.maskedstore %{{.*}} : memref<700xi32>, vector<16xi1>, vector<16xi32>
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : tensor<1x7x9x20xi8> into tensor<1260xi8>
// per kernel row 20 channels' taps and 12 channels of zeros, taps at 0..2
// in the 3 rows, then at 1..3
// CHECK-NEXT: %[[P:.*]] = arith.constant dense<"0x{{(05050500)+(00000000)+(05050500)+(00000000)+(05050500)+(00000000)+(00050505)+(00000000)+(00050505)+(00000000)+(00050505)+(00000000)+}}"> : tensor<768xi8>
// CHECK-NEXT: arith.constant dense<-5760> : tensor<20xi32>
// CHECK: %[[R:.*]] = "flow.dispatch"(%[[A]], %[[P]], %{{.*}}) {entry_points = [@[[DW]]::@[[DW]]]{{.*}} -> tensor<700xi32>
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 5, 7, 20] : tensor<700xi32> into tensor<1x5x7x20xi32>
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise(%x: tensor<1x7x9x20xi8>) -> tensor<1x5x7x20xi32> {
  %w = arith.constant dense<5> : tensor<3x3x20xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x5x7x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x5x7x20xi32>) -> tensor<1x5x7x20xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x9x20xi8>, tensor<3x3x20xi8>) outs(%f : tensor<1x5x7x20xi32>) -> tensor<1x5x7x20xi32>
  return %r : tensor<1x5x7x20xi32>
}

// -----

// A spatially padded input (a constant value): the kernel reads the
// unpadded input (no copy) and puts the padding's bytes in itself. Output
// rows whose windows leave the input select the padding's bytes for those
// kernel rows (behind an scf.if: the other rows run without the check);
// the first and last pixel pairs of a row, whose taps reach the padding
// columns, are unrolled with the padding's bytes built in (-128 made u8:
// 0), the others a loop.
// CHECK: func.func @[[DW:relay_vnni_dwconv_1x6x6x16_3x3_s1x1_d1x1_o6x6_p1x1v128_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<576xi8>
// CHECK: scf.if
// CHECK: scf.for
// CHECK: } else {
// CHECK: arith.cmpi slt
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi8>
// CHECK-LABEL: func.func @depthwise_padded
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : tensor<1x6x6x16xi8> into tensor<576xi8>
// CHECK: "flow.dispatch"(%[[A]],
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise_padded(%x0: tensor<1x6x6x16xi8>) -> tensor<1x6x6x16xi32> {
  %m = arith.constant -128 : i8
  %x = tensor.pad %x0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %m : i8
  } : tensor<1x6x6x16xi8> to tensor<1x8x8x16xi8>
  %w = arith.constant dense<5> : tensor<3x3x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x6x6x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x6x6x16xi32>) -> tensor<1x6x6x16xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x16xi8>, tensor<3x3x16xi8>) outs(%f : tensor<1x6x6x16xi32>) -> tensor<1x6x6x16xi32>
  return %r : tensor<1x6x6x16xi32>
}

// -----

// Kernel rows of more than 4 taps are left to IREE.
// CHECK-LABEL: func.func @depthwise_wide
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-NOT: flow.dispatch
func.func @depthwise_wide(%x: tensor<1x7x9x16xi8>) -> tensor<1x5x5x16xi32> {
  %w = arith.constant dense<5> : tensor<3x5x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x5x5x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x5x5x16xi32>) -> tensor<1x5x5x16xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x9x16xi8>, tensor<3x5x16xi8>) outs(%f : tensor<1x5x5x16xi32>) -> tensor<1x5x5x16xi32>
  return %r : tensor<1x5x5x16xi32>
}

// -----

// A's int8 bytes are a uint8 tensor moved down by 128 (extui, subi 128,
// trunci: x xor 0x80 for every byte): the kernel reads the uint8 tensor as
// it is (the `_u_` executable makes no A + 128 of its own).
// CHECK: func.func @[[EXE:relay_vnni_gemm_4x16x8_u_e[0-9a-f]+]](
// CHECK-NOT: arith.xori
// CHECK: "stream.executable.end"
// CHECK-LABEL: func.func @unsigned_source
// CHECK: %[[U:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<4x8xi8> into tensor<32xi8>
// CHECK: "flow.dispatch"(%[[U]],
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unsigned_source(%u: tensor<4x8xi8>) -> tensor<4x16xi32> {
  %c128 = arith.constant 128 : i16
  %e16 = tensor.empty() : tensor<4x8xi16>
  %wide = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<4x8xi8>) outs(%e16 : tensor<4x8xi16>) {
  ^bb0(%in: i8, %out: i16):
    %x = arith.extui %in : i8 to i16
    %d = arith.subi %x, %c128 : i16
    linalg.yield %d : i16
  } -> tensor<4x8xi16>
  %e8 = tensor.empty() : tensor<4x8xi8>
  %a = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%wide : tensor<4x8xi16>) outs(%e8 : tensor<4x8xi8>) {
  ^bb0(%in: i16, %out: i8):
    %t = arith.trunci %in : i16 to i8
    linalg.yield %t : i8
  } -> tensor<4x8xi8>
  %w = arith.constant dense<3> : tensor<8x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %r = linalg.matmul ins(%a, %w : tensor<4x8xi8>, tensor<8x16xi8>) outs(%f : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// -----

// A chain that is not the shift (minus 127) keeps A as it is.
// CHECK-LABEL: func.func @not_a_shift
// CHECK: %[[A:.*]] = linalg.generic
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[A]]
// CHECK: "flow.dispatch"(%[[F]],
#id2b = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_a_shift(%u: tensor<4x8xi8>) -> tensor<4x16xi32> {
  %c127 = arith.constant 127 : i16
  %e8 = tensor.empty() : tensor<4x8xi8>
  %a = linalg.generic {indexing_maps = [#id2b, #id2b], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<4x8xi8>) outs(%e8 : tensor<4x8xi8>) {
  ^bb0(%in: i8, %out: i8):
    %x = arith.extui %in : i8 to i16
    %d = arith.subi %x, %c127 : i16
    %t = arith.trunci %d : i16 to i8
    linalg.yield %t : i8
  } -> tensor<4x8xi8>
  %w = arith.constant dense<3> : tensor<8x16xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x16xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %r = linalg.matmul ins(%a, %w : tensor<4x8xi8>, tensor<8x16xi8>) outs(%f : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// -----

// The weights' bytes are read through what computes them from a constant
// (here a transpose and a byte map: B = transpose(W) + 1 = [[1, 2], [3, 4],
// [5, 6], [7, 8], [9, 10]]) and packed by the pass: column 0's rows 0..3,
// column 1's, 14 zero columns; then the second group of 4 rows (row 4 and
// 3 rows of zeros). The accumulators start at -128 * (25, 30).
// CHECK-LABEL: func.func @packed_order
// CHECK: tensor.collapse_shape %arg0
// CHECK-NEXT: arith.constant dense<"0x0103050702040608{{(00)+}}090000000A000000{{(00)+}}"> : tensor<128xi8>
// CHECK-NEXT: arith.constant dense<[-3200, -3840]> : tensor<2xi32>
// CHECK-NEXT: "flow.dispatch"
// CHECK-NOT: linalg
func.func @packed_order(%a: tensor<3x5xi8>) -> tensor<3x2xi32> {
  %w = arith.constant dense<[[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]> : tensor<2x5xi8>
  %et = tensor.empty() : tensor<5x2xi8>
  %t = linalg.transpose ins(%w : tensor<2x5xi8>) outs(%et : tensor<5x2xi8>) permutation = [1, 0]
  %one = arith.constant 1 : i8
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<5x2xi8>) outs(%et : tensor<5x2xi8>) {
  ^bb0(%x: i8, %o: i8):
    %y = arith.addi %x, %one : i8
    linalg.yield %y : i8
  } -> tensor<5x2xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x2xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<3x2xi32>) -> tensor<3x2xi32>
  %r = linalg.matmul ins(%a, %b : tensor<3x5xi8>, tensor<5x2xi8>) outs(%f : tensor<3x2xi32>) -> tensor<3x2xi32>
  return %r : tensor<3x2xi32>
}

// -----

// Weights whose bytes the pass cannot evaluate (converted from floats) are
// packed by ops IREE folds: pad to whole panels and groups, split, transpose,
// flatten; the correction row is a reduction of -128 * B.
// CHECK-LABEL: func.func @weights_as_ops
// CHECK: %[[B:.*]] = linalg.generic
// CHECK: arith.fptosi
// CHECK: tensor.pad %[[B]] low[0, 0] high[2, 12]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] output_shape [3, 4, 2, 16]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<3x4x2x16xi8>) outs(%{{.*}} : tensor<2x3x16x4xi8>) permutation = [2, 0, 3, 1]
// CHECK: %[[P:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : tensor<2x3x16x4xi8> into tensor<384xi8>
// CHECK: %[[C:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[B]] : tensor<10x20xi8>)
// CHECK: arith.constant -128 : i32
// CHECK: "flow.dispatch"(%{{.*}}, %[[P]], %[[C]])
func.func @weights_as_ops(%a: tensor<7x10xi8>) -> tensor<7x20xi32> {
  %wf = arith.constant dense<3.0> : tensor<10x20xf32>
  %e8 = tensor.empty() : tensor<10x20xi8>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%wf : tensor<10x20xf32>) outs(%e8 : tensor<10x20xi8>) {
  ^bb0(%x: f32, %o: i8):
    %i = arith.fptosi %x : f32 to i8
    linalg.yield %i : i8
  } -> tensor<10x20xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<7x20xi32>) -> tensor<7x20xi32>
  %r = linalg.matmul ins(%a, %w : tensor<7x10xi8>, tensor<10x20xi8>) outs(%f : tensor<7x20xi32>) -> tensor<7x20xi32>
  return %r : tensor<7x20xi32>
}

// -----

// The epilogue takes a value read by several steps once they join again:
// GELU's x in x/2 * (1 + erf(x/sqrt(2))) and a quantization whose rounding
// goes through a tensor of i1 (only the last value is stored: its type must
// be one the kernel stores). One dispatch stores the i8 result.
// CHECK: func.func @[[EXE:relay_vnni_gemm_7x20x10_e[0-9a-f]+]](
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: math.erf %{{.*}} : vector<16xf32>
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK: arith.fptosi %{{.*}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.store %{{.*}} : memref<140xi8>, vector<16xi8>
// CHECK-LABEL: func.func @gelu_diamond
// CHECK: %[[R:.*]] = "flow.dispatch"{{.*}}entry_points = [@[[EXE]]::@[[EXE]]]{{.*}} -> tensor<140xi8>
// CHECK-NEXT: %[[Q:.*]] = tensor.expand_shape %[[R]]
// CHECK-NEXT: return %[[Q]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu_diamond(%a: tensor<7x10xi8>) -> tensor<7x20xi8> {
  %w = arith.constant dense<3> : tensor<10x20xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<7x20xi32>) -> tensor<7x20xi32>
  %r = linalg.matmul ins(%a, %w : tensor<7x10xi8>, tensor<10x20xi8>) outs(%f : tensor<7x20xi32>) -> tensor<7x20xi32>
  %ef = tensor.empty() : tensor<7x20xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<7x20xi32>) outs(%ef : tensor<7x20xf32>) {
  ^bb0(%p: i32, %o: f32):
    %s = arith.constant 0.01 : f32
    %v = arith.sitofp %p : i32 to f32
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  } -> tensor<7x20xf32>
  %half = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<7x20xf32>) outs(%ef : tensor<7x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.5 : f32
    %m = arith.mulf %v, %c : f32
    linalg.yield %m : f32
  } -> tensor<7x20xf32>
  %erf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<7x20xf32>) outs(%ef : tensor<7x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.70710677 : f32
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %v, %c : f32
    %t = math.erf %m : f32
    %s = arith.addf %t, %one : f32
    linalg.yield %s : f32
  } -> tensor<7x20xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%half, %erf : tensor<7x20xf32>, tensor<7x20xf32>) outs(%ef : tensor<7x20xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %m = arith.mulf %u, %v : f32
    linalg.yield %m : f32
  } -> tensor<7x20xf32>
  %eb = tensor.empty() : tensor<7x20xi1>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<7x20xf32>) outs(%eb : tensor<7x20xi1>) {
  ^bb0(%v: f32, %o: i1):
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf olt, %v, %zero : f32
    linalg.yield %c : i1
  } -> tensor<7x20xi1>
  %e8 = tensor.empty() : tensor<7x20xi8>
  %q = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%g, %neg : tensor<7x20xf32>, tensor<7x20xi1>) outs(%e8 : tensor<7x20xi8>) {
  ^bb0(%v: f32, %n: i1, %o: i8):
    %up = math.ceil %v : f32
    %down = math.floor %v : f32
    %t = arith.select %n, %up, %down : f32
    %i = arith.fptosi %t : f32 to i8
    linalg.yield %i : i8
  } -> tensor<7x20xi8>
  return %q : tensor<7x20xi8>
}

// -----

// A value also read by an op the kernel cannot run (a reduction) ends the
// epilogue before its readers: the dispatch stores it.
// CHECK-LABEL: func.func @open_branch
// CHECK: %[[R:.*]] = "flow.dispatch"{{.*}} -> tensor<140xf32>
// CHECK-NEXT: %[[X:.*]] = tensor.expand_shape %[[R]]
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<7x20xf32>) outs(%{{.*}} : tensor<7x20xf32>)
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<7x20xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @open_branch(%a: tensor<7x10xi8>) -> (tensor<7x20xf32>, tensor<7xf32>) {
  %w = arith.constant dense<3> : tensor<10x20xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<7x20xi32>) -> tensor<7x20xi32>
  %r = linalg.matmul ins(%a, %w : tensor<7x10xi8>, tensor<10x20xi8>) outs(%f : tensor<7x20xi32>) -> tensor<7x20xi32>
  %ef = tensor.empty() : tensor<7x20xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<7x20xi32>) outs(%ef : tensor<7x20xf32>) {
  ^bb0(%p: i32, %o: f32):
    %v = arith.sitofp %p : i32 to f32
    linalg.yield %v : f32
  } -> tensor<7x20xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<7x20xf32>) outs(%ef : tensor<7x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.exp %v : f32
    linalg.yield %t : f32
  } -> tensor<7x20xf32>
  %zf = arith.constant 0.0 : f32
  %e7 = tensor.empty() : tensor<7xf32>
  %s0 = linalg.fill ins(%zf : f32) outs(%e7 : tensor<7xf32>) -> tensor<7xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<7x20xf32>) outs(%s0 : tensor<7xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %t = arith.addf %v, %acc : f32
    linalg.yield %t : f32
  } -> tensor<7xf32>
  return %y, %s : tensor<7x20xf32>, tensor<7xf32>
}

// -----

// An epilogue stops at 48 ops (longer float functions ran slower inside the
// kernel than as a dispatch of their own): of 50 one-op steps the kernel takes
// the first 48 and applies them in a loop over a tile's rows (more than 16:
// the products through a stack buffer); two generics are left.
// CHECK: func.func @[[EXE:relay_vnni_gemm_7x20x10_e[0-9a-f]+]](
// CHECK: memref.alloca() : memref<384xi32>
// CHECK: scf.for
// CHECK: vector.load %{{.*}} : memref<384xi32>, vector<16xi32>
// CHECK: "stream.executable.end"
// CHECK-LABEL: func.func @long_chain
// CHECK: "flow.dispatch"{{.*}}entry_points = [@[[EXE]]::@[[EXE]]]
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @long_chain(%a: tensor<7x10xi8>) -> tensor<7x20xi32> {
  %w = arith.constant dense<3> : tensor<10x20xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<7x20xi32>) -> tensor<7x20xi32>
  %s0 = linalg.matmul ins(%a, %w : tensor<7x10xi8>, tensor<10x20xi8>) outs(%f : tensor<7x20xi32>) -> tensor<7x20xi32>
  %one = arith.constant 1 : i32
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s0 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s1 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s2 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s3 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s4 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s6 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s5 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s6 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s8 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s7 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s9 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s8 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s10 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s9 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s11 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s10 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s12 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s11 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s13 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s12 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s14 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s13 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s15 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s14 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s15 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s17 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s16 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s18 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s17 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s19 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s18 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s20 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s19 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s21 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s20 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s22 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s21 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s23 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s22 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s24 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s23 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s25 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s24 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s26 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s25 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s27 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s26 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s28 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s27 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s29 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s28 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s30 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s29 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s31 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s30 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s31 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s33 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s32 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s34 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s33 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s35 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s34 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s36 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s35 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s37 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s36 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s38 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s37 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s39 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s38 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s40 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s39 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s41 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s40 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s42 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s41 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s43 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s42 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s44 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s43 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s45 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s44 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s46 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s45 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s47 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s46 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s48 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s47 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s49 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s48 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  %s50 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s49 : tensor<7x20xi32>) outs(%e : tensor<7x20xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %one : i32
    linalg.yield %y : i32
  } -> tensor<7x20xi32>
  return %s50 : tensor<7x20xi32>
}
