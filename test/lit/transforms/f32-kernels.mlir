// RUN: relay-mlir-opt %s --allow-unregistered-dialect --relay-vnni-matmul="int8=false float32=true" --split-input-file | FileCheck %s
// RUN: relay-mlir-opt %s --allow-unregistered-dialect --relay-vnni-matmul --split-input-file | FileCheck %s --check-prefix=OFF

// An f32 matmul with a constant right operand ([N, K], nn.dense's weight):
// A flattened and read where it is, B packed as [panels][k][16] f32 (a
// constant computed by the pass), the accumulators start from 0 and the
// bias + relu after it is the kernel's epilogue: one dispatch, no packing
// of A.
// CHECK-LABEL: "stream.executable"
// 7 rows, 20 columns (2 panels): a grid of [2 blocks of 6 rows, 1]
// CHECK: %[[X:.*]] = arith.constant 2 : index
// CHECK: "stream.return"(%[[X]], %{{.*}}, %{{.*}})
// CHECK: func.func @[[EXE:relay_f32_gemm_7x20x10_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<70xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<320xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<20xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<140xf32>
// one k per step: 16 packed floats of B per panel, one float of A per row
// broadcast, an fma per row and panel; no masked k tail
// CHECK: scf.for
// CHECK: vector.load %{{.*}} : memref<320xf32>, vector<16xf32>
// CHECK: memref.load %{{.*}} : memref<70xf32>
// CHECK: vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK: vector.fma %{{.*}} : vector<16xf32>
// CHECK-NOT: vpdpbusd
// CHECK: arith.addf %{{.*}} : vector<16xf32>
// CHECK: arith.maximumf %{{.*}} : vector<16xf32>
// CHECK: vector.store %{{.*}} : memref<140xf32>, vector<16xf32>
// CHECK: vector.maskedstore %{{.*}} : memref<140xf32>, vector<16xi1>, vector<16xf32>
// CHECK: "stream.executable.end"
// CHECK-LABEL: func.func @dense_bias_relu
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<7x10xf32> into tensor<70xf32>
// CHECK: %[[P:.*]] = arith.constant dense<{{.*}}> : tensor<320xf32>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<20xf32>
// CHECK: "flow.dispatch"(%[[A]], %[[P]], %[[Z]], %{{.*}}) {entry_points = [@[[EXE]]::@[[EXE]]]
// CHECK-NOT: linalg.matmul
// OFF-LABEL: func.func @dense_bias_relu
// OFF: linalg.matmul
// OFF-NOT: flow.dispatch
func.func @dense_bias_relu(%a: tensor<7x10xf32>, %bias: tensor<20xf32>) -> tensor<7x20xf32> {
  %w = arith.constant dense<0.5> : tensor<20x10xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<7x20xf32>) -> tensor<7x20xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %w : tensor<7x10xf32>, tensor<20x10xf32>) outs(%f : tensor<7x20xf32>) -> tensor<7x20xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
         ins(%r, %bias : tensor<7x20xf32>, tensor<20xf32>) outs(%e : tensor<7x20xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<7x20xf32>
  return %y : tensor<7x20xf32>
}

// -----

// An f32 convolution: its windows read in place, a zero spatial padding (of
// an input of at least 8 channels) put in by the kernel (a row of 0.0 on the
// stack); a padding of another
// value stays a tensor.pad (materialized by IREE) that the kernel reads
// unpadded.
// CHECK-LABEL: "stream.executable"
// CHECK: func.func @{{relay_f32_conv_1x6x6x4_1x1_s2x2_d1x1_8_e[0-9a-f]+}}(
// CHECK-LABEL: "stream.executable"
// CHECK: func.func @{{relay_f32_conv_1x5x5x8_3x3_s1x1_d1x1_8_p1x1v0_e[0-9a-f]+}}(
// CHECK: memref.alloca() : memref<16xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK-LABEL: func.func @conv_zero_padded
// CHECK-NOT: tensor.pad
// CHECK: "flow.dispatch"
// CHECK-LABEL: func.func @conv_one_padded
// CHECK: tensor.pad
// CHECK: "flow.dispatch"
func.func @conv_zero_padded(%x: tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32> {
  %w = arith.constant dense<0.25> : tensor<3x3x8x8xf32>
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x5x5x8xf32> to tensor<1x7x7x8xf32>
  %e = tensor.empty() : tensor<1x5x5x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x7x7x8xf32>, tensor<3x3x8x8xf32>) outs(%f : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  return %r : tensor<1x5x5x8xf32>
}

func.func @conv_one_padded(%x: tensor<1x4x4x4xf32>) -> tensor<1x3x3x8xf32> {
  %w = arith.constant dense<0.25> : tensor<1x1x4x8xf32>
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
  %e = tensor.empty() : tensor<1x3x3x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<1x6x6x4xf32>, tensor<1x1x4x8xf32>) outs(%f : tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
  return %r : tensor<1x3x3x8xf32>
}

// -----

// An f32 depthwise convolution: per tap 16 channels of input and the tap's
// 16 packed weights (`[tap][channel groups][16]`, a constant) into one
// vector.fma; the zero padding put in by the kernel (taps on it left out at
// the edges, padding rows selected to 0); channels not in 16s masked.
// CHECK-LABEL: "stream.executable"
// CHECK: func.func @[[DW:relay_f32_dwconv_1x6x6x20_3x3_s1x1_d1x1_o6x6_p1x1v0_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<720xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<288xf32>
// CHECK: vector.fma %{{.*}} : vector<16xf32>
// CHECK: vector.maskedload %{{.*}} : memref<720xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK-NOT: vpdpbusd
// CHECK: "stream.executable.end"
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: tensor.pad
// CHECK: %[[P:.*]] = arith.constant dense<{{.*}}> : tensor<288xf32>
// CHECK: "flow.dispatch"(%{{.*}}, %[[P]], %{{.*}}) {entry_points = [@[[DW]]::@[[DW]]]
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
// OFF-LABEL: func.func @depthwise
// OFF: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise(%x: tensor<1x6x6x20xf32>) -> tensor<1x6x6x20xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3x20xf32>
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x6x6x20xf32> to tensor<1x8x8x20xf32>
  %e = tensor.empty() : tensor<1x6x6x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x6x20xf32>) -> tensor<1x6x6x20xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x8x8x20xf32>, tensor<3x3x20xf32>) outs(%f : tensor<1x6x6x20xf32>) -> tensor<1x6x6x20xf32>
  return %r : tensor<1x6x6x20xf32>
}

// -----

// A batch_matmul with a constant B (Winograd's products): one dispatch over
// the batch (the grid's z), B's matrices packed one after the other (3 x 2
// panels x 5 k x 16 floats), one initial row per matrix; each workgroup
// offsets A, B and C by its matrix.
// CHECK-LABEL: "stream.executable"
// CHECK: %[[Z:.*]] = arith.constant 3 : index
// CHECK: "stream.return"(%{{.*}}, %{{.*}}, %[[Z]])
// CHECK: func.func @[[BMM:relay_f32_batch_gemm_3x7x20x5_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<105xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<480xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<60xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<420xf32>
// CHECK: %[[WZ:.*]] = "stream.dispatch.workgroup.id"() {dimension = 2 : index}
// CHECK: arith.muli %[[WZ]], %{{.*}} : index
// CHECK: vector.fma
// CHECK-LABEL: func.func @batch_products
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<3x7x5xf32> into tensor<105xf32>
// CHECK: %[[P:.*]] = arith.constant dense<{{.*}}> : tensor<480xf32>
// CHECK: %[[R:.*]] = arith.constant dense<0.000000e+00> : tensor<60xf32>
// CHECK: "flow.dispatch"(%[[A]], %[[P]], %[[R]]) {entry_points = [@[[BMM]]::@[[BMM]]]
// CHECK-NOT: linalg.batch_matmul
// OFF-LABEL: func.func @batch_products
// OFF: linalg.batch_matmul
func.func @batch_products(%a: tensor<3x7x5xf32>) -> tensor<3x7x20xf32> {
  %w = arith.constant dense<0.25> : tensor<3x5x20xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x7x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x7x20xf32>) -> tensor<3x7x20xf32>
  %r = linalg.batch_matmul ins(%a, %w : tensor<3x7x5xf32>, tensor<3x5x20xf32>)
         outs(%f : tensor<3x7x20xf32>) -> tensor<3x7x20xf32>
  return %r : tensor<3x7x20xf32>
}

// -----

// A batch_matmul whose B is an argument stays linalg's.
// CHECK-LABEL: func.func @batch_products_of_arguments
// CHECK: linalg.batch_matmul
// CHECK-NOT: flow.dispatch
func.func @batch_products_of_arguments(%a: tensor<3x7x5xf32>, %w: tensor<3x5x20xf32>) -> tensor<3x7x20xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x7x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x7x20xf32>) -> tensor<3x7x20xf32>
  %r = linalg.batch_matmul ins(%a, %w : tensor<3x7x5xf32>, tensor<3x5x20xf32>)
         outs(%f : tensor<3x7x20xf32>) -> tensor<3x7x20xf32>
  return %r : tensor<3x7x20xf32>
}

// -----

// A batch_matmul of two activations (attention's P.V), N in 16s: B is read
// where it is ([batch, K, N] row-major: a panel's 16 floats of a k at
// k * N + 16 * panel), not packed; the accumulators start from zero rows.
// CHECK-LABEL: "stream.executable"
// CHECK: func.func @[[PV:relay_f32_batch_gemm_2x5x32x7_b_e[0-9a-f]+]](
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<70xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<448xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<64xf32>
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<320xf32>
// CHECK: vector.fma
// CHECK-LABEL: func.func @attention_values
// CHECK: %[[P:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<2x5x7xf32> into tensor<70xf32>
// CHECK: %[[V:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2]] : tensor<2x7x32xf32> into tensor<448xf32>
// CHECK: "flow.dispatch"(%[[P]], %[[V]], %{{.*}}) {entry_points = [@[[PV]]::@[[PV]]]
// CHECK-NOT: linalg.batch_matmul
func.func @attention_values(%p: tensor<2x5x7xf32>, %v: tensor<2x7x32xf32>) -> tensor<2x5x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x5x32xf32>) -> tensor<2x5x32xf32>
  %r = linalg.batch_matmul ins(%p, %v : tensor<2x5x7xf32>, tensor<2x7x32xf32>)
         outs(%f : tensor<2x5x32xf32>) -> tensor<2x5x32xf32>
  return %r : tensor<2x5x32xf32>
}

// -----

// The lowering's softmax along the last axis (max, exp(x - max), sum,
// division) is one dispatch of the softmax kernel: per row a max over
// zmm's (the 3 tail lanes read as -inf), exp and sum, the division by the
// sum as a multiplication by its reciprocal.
// CHECK-LABEL: "stream.executable"
// CHECK: func.func @relay_f32_softmax_6x19(
// CHECK-DAG: "stream.binding.subspan"(%{{.*}}, %{{.*}}) : (!stream.binding, index) -> memref<114xf32>
// CHECK: arith.maximumf %{{.*}} : vector<16xf32>
// CHECK: vector.maskedload
// CHECK: vector.reduction <maximumf>
// CHECK: math.exp %{{.*}} : vector<16xf32>
// CHECK: vector.reduction <add>
// CHECK: arith.mulf %{{.*}} : vector<16xf32>
// CHECK-LABEL: func.func @softmax
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<2x3x19xf32> into tensor<114xf32>
// CHECK: "flow.dispatch"(%[[X]]) {entry_points = [@relay_f32_softmax_6x19::@relay_f32_softmax_6x19]
// CHECK-NOT: linalg.reduce
// OFF-LABEL: func.func @softmax
// OFF: linalg.reduce
func.func @softmax(%x: tensor<2x3x19xf32>) -> tensor<2x3x19xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x19xf32>
  %er = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = linalg.reduce ins(%x : tensor<2x3x19xf32>) outs(%mi : tensor<2x3xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %0 = arith.maximumf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ex = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m : tensor<2x3x19xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3x19xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %0 = arith.subf %a, %b : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
  } -> tensor<2x3x19xf32>
  %si = linalg.fill ins(%z : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = linalg.reduce ins(%ex : tensor<2x3x19xf32>) outs(%si : tensor<2x3xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %y = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %s : tensor<2x3x19xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3x19xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %0 = arith.divf %a, %b : f32
      linalg.yield %0 : f32
  } -> tensor<2x3x19xf32>
  return %y : tensor<2x3x19xf32>
}

// -----

// A generic over no loops (scalars held as 0-d tensors) is no softmax's
// step (the matcher asked for its last dim: a crash, found by the dynamic
// shape tests).
// CHECK-LABEL: func.func @scalar_divide
// CHECK: linalg.generic
// CHECK-NOT: flow.dispatch
func.func @scalar_divide(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%x, %y : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %0 = arith.divf %a, %b : f32
      linalg.yield %0 : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
