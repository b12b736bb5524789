// RUN: relay-mlir-opt %s "-relay-convert-layout=constant-weights-only=false layout-transforms=true" | FileCheck %s
// RUN: relay-mlir-opt %s "-relay-convert-layout=desired-layout=NCHW constant-weights-only=false layout-transforms=true" | FileCheck %s --check-prefix=NCHW

// layout-transforms=true (relay.transform.ConvertLayout sets it) writes the
// layout changes the pass leaves as TVM's ConvertLayout prints them:
// layout_transform, also of a run-time weight. The program's own transpose
// stays a transpose.
// CHECK-LABEL: func.func @nchw_to_nhwc
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x8x8xf32>, %[[W:.+]]: tensor<4x3x3x3xf32>, %[[U:.+]]: tensor<1x4x8x8xf32>)
// CHECK-DAG: %[[XT:.+]] = relay.layout_transform %[[X]] {dst_layout = "NHWC", src_layout = "NCHW"} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
// CHECK-DAG: %[[WT:.+]] = relay.layout_transform %[[W]] {dst_layout = "HWIO", src_layout = "OIHW"} : (tensor<4x3x3x3xf32>) -> tensor<3x3x3x4xf32>
// CHECK: %[[C:.+]] = relay.nn.conv2d %[[XT]], %[[WT]] {{.*}}data_layout = "NHWC"
// CHECK: %[[R:.+]] = relay.nn.relu %[[C]]
// CHECK: %[[Y:.+]] = relay.layout_transform %[[R]] {dst_layout = "NCHW", src_layout = "NHWC"} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
// CHECK: %[[T:.+]] = relay.transpose %[[U]] {axes = array<i64: 0, 2, 3, 1>}
// CHECK: return %[[Y]], %[[T]]
func.func @nchw_to_nhwc(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %u: tensor<1x4x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x8x8x4xf32>) {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %z = relay.nn.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %t = relay.transpose %u {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  return %z, %t : tensor<1x4x8x8xf32>, tensor<1x8x8x4xf32>
}

// NCHW-LABEL: func.func @nhwc_to_nchw
// NCHW-DAG: relay.layout_transform %{{.+}} {dst_layout = "NCHW", src_layout = "NHWC"} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
// NCHW-DAG: relay.layout_transform %{{.+}} {dst_layout = "OIHW", src_layout = "HWIO"} : (tensor<3x3x3x4xf32>) -> tensor<4x3x3x3xf32>
// NCHW: relay.nn.conv2d
// NCHW: relay.layout_transform %{{.+}} {dst_layout = "NHWC", src_layout = "NCHW"} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
// NCHW-NOT: relay.transpose
func.func @nhwc_to_nchw(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %a = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  return %a : tensor<1x8x8x4xf32>
}
