// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s "-convert-relay-to-linalg=f32-matmul-kernel=true" | FileCheck %s --check-prefix=KERNEL

// An f32 3x3 convolution at stride 2 on a small map with a large kernel:
// the patch matmul by default (im2col: the patches copied, then a
// linalg.matmul); when the target runs f32 contractions on
// relay-vnni-matmul's kernel, the direct convolution, whose windows that
// kernel reads in place.
// CHECK-LABEL: func.func @f32_3x3_s2
// CHECK: linalg.matmul
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// KERNEL-LABEL: func.func @f32_3x3_s2
// KERNEL-NOT: linalg.matmul
// KERNEL: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x15x15x128xf32>, tensor<3x3x128x128xf32>) outs(%{{.+}} : tensor<1x7x7x128xf32>)
func.func @f32_3x3_s2(%x: tensor<1x14x14x128xf32>) -> tensor<1x7x7x128xf32> {
  %w = relay.constant dense<0.5> : tensor<3x3x128x128xf32>
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x128xf32>, tensor<3x3x128x128xf32>) -> tensor<1x7x7x128xf32>
  return %y : tensor<1x7x7x128xf32>
}

// A 1x1 convolution at stride 1 stays a matmul over the pixels either way.
// CHECK-LABEL: func.func @f32_1x1
// CHECK: linalg.matmul
// KERNEL-LABEL: func.func @f32_1x1
// KERNEL: linalg.matmul
func.func @f32_1x1(%x: tensor<1x7x7x64xf32>) -> tensor<1x7x7x32xf32> {
  %w = relay.constant dense<0.5> : tensor<1x1x64x32xf32>
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x7x7x64xf32>, tensor<1x1x64x32xf32>) -> tensor<1x7x7x32xf32>
  return %y : tensor<1x7x7x32xf32>
}
