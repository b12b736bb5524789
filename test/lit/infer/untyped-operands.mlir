// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// Untyped weights get the types their operators imply, as TVM 0.19's type
// relations assign them (shapes as TVM's InferType gives them).

// conv2d: [channels, C, kernel_size] in OIHW; bias_add: [C] on axis 1;
// dense: [units, k].
// CHECK-LABEL: func.func @net(%{{.*}}: tensor<1x3x8x8xf32>, %{{.*}}: tensor<4x3x3x3xf32>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<10x256xf32>) -> tensor<1x10xf32>
func.func @net(%x: tensor<1x3x8x8xf32>, %w: !relay.incomplete, %b: !relay.incomplete, %d: !relay.incomplete) -> !relay.incomplete {
  // CHECK: relay.nn.conv2d {{.*}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %0 = relay.nn.conv2d %x, %w {channels = 4 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, !relay.incomplete) -> !relay.incomplete
  %1 = relay.nn.bias_add %0, %b : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %2 = relay.nn.batch_flatten %1 : (!relay.incomplete) -> !relay.incomplete
  // CHECK: relay.nn.dense {{.*}} : (tensor<1x256xf32>, tensor<10x256xf32>) -> tensor<1x10xf32>
  %3 = relay.nn.dense %2, %d {units = 10 : i64} : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %3 : !relay.incomplete
}

// The kernel layout orders the weight; the data layout says which dim is C.
// CHECK-LABEL: func.func @nhwc(%{{.*}}: tensor<1x8x8x4xf16>, %{{.*}}: tensor<3x2x4x6xf16>)
func.func @nhwc(%x: tensor<1x8x8x4xf16>, %w: !relay.incomplete) -> !relay.incomplete {
  %0 = relay.nn.conv2d %x, %w {channels = 6 : i64, kernel_size = array<i64: 3, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf16>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// conv1d takes groups: [channels, C / groups, k].
// CHECK-LABEL: func.func @conv1d_groups(%{{.*}}: tensor<1x4x10xf32>, %{{.*}}: tensor<6x2x3xf32>)
func.func @conv1d_groups(%x: tensor<1x4x10xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  %0 = relay.nn.conv1d %x, %w {channels = 6 : i64, kernel_size = array<i64: 3>, groups = 2 : i64} : (tensor<1x4x10xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// conv2d_transpose: [C, channels / groups, kernel_size] in IOHW.
// CHECK-LABEL: func.func @transposed(%{{.*}}: tensor<1x4x8x8xf32>, %{{.*}}: tensor<4x3x3x3xf32>) -> tensor<1x6x10x10xf32>
func.func @transposed(%x: tensor<1x4x8x8xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  %0 = relay.nn.conv2d_transpose %x, %w {channels = 6 : i64, kernel_size = array<i64: 3, 3>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// matmul: tensor_b [k, units] ([units, k] with transpose_b); k is data's
// second-to-last dim with transpose_a.
// CHECK-LABEL: func.func @matmul(%{{.*}}: tensor<7x2xf32>, %{{.*}}: tensor<7x5xf32>) -> tensor<2x5xf32>
func.func @matmul(%x: tensor<7x2xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  %0 = relay.nn.matmul %x, %w {units = 5 : i64, transpose_a = true} : (tensor<7x2xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// batch_norm's four vectors on axis 3; layer_norm's on the last axis.
// CHECK-LABEL: func.func @norms(%{{.*}}: tensor<1x8x8x4xf32>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>)
func.func @norms(%x: tensor<1x8x8x4xf32>, %g: !relay.incomplete, %b: !relay.incomplete, %m: !relay.incomplete, %v: !relay.incomplete, %lg: !relay.incomplete, %lb: !relay.incomplete) -> !relay.incomplete {
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v {axis = 3 : i64} : (tensor<1x8x8x4xf32>, !relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %1 = relay.tuple_get_item %0[0] : (!relay.incomplete) -> !relay.incomplete
  %2 = relay.nn.layer_norm %1, %lg, %lb : (!relay.incomplete, !relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %2 : !relay.incomplete
}

// A weight typed by one use needs no attributes at another (TVM's relations
// run together; the dense without `units` checks the solved weight).
// CHECK-LABEL: func.func @typed_elsewhere(%{{.*}}: tensor<2x7xf32>, %{{.*}}: tensor<3x7xf32>) -> tensor<2x3xf32>
func.func @typed_elsewhere(%x: tensor<2x7xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  %0 = relay.nn.dense %x, %w : (tensor<2x7xf32>, !relay.incomplete) -> !relay.incomplete
  %1 = relay.nn.dense %x, %w {units = 3 : i64} : (tensor<2x7xf32>, !relay.incomplete) -> !relay.incomplete
  %2 = relay.add %0, %1 : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %2 : !relay.incomplete
}
