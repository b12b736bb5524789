// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s "-convert-relay-to-linalg=int8-matmul-kernel=true" | FileCheck %s --check-prefix=KERNEL

// An i8 x i8 -> i32 3x3 convolution at stride 1 with 64 channels in and
// out on a 56x56 map: integer Winograd F(2x2, 3x3) (i16 products) by default; when the
// target runs int8 contractions on relay-vnni-matmul's kernel, the direct
// convolution, whose windows that kernel reads in place.
// CHECK-LABEL: func.func @int8_3x3
// CHECK: arith.extsi %{{.+}} : i8 to i16
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// KERNEL-LABEL: func.func @int8_3x3
// KERNEL-NOT: linalg.batch_matmul
// KERNEL: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x58x58x64xi8>, tensor<3x3x64x64xi8>) outs(%{{.+}} : tensor<1x56x56x64xi32>)
func.func @int8_3x3(%x: tensor<1x56x56x64xi8>) -> tensor<1x56x56x64xi32> {
  %w = relay.constant dense<-3> : tensor<3x3x64x64xi8>
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x56x56x64xi8>, tensor<3x3x64x64xi8>) -> tensor<1x56x56x64xi32>
  return %y : tensor<1x56x56x64xi32>
}

// Channels that do not come in groups of 4 (an RGB stem): the patch matmul
// by default (im2col: one strided slice per tap, then an i8 linalg.matmul);
// for the kernel the direct convolution too (relay-vnni-matmul pads its
// channels to 4), not 49 slices (one copy dispatch each in IREE).
// CHECK-LABEL: func.func @int8_rgb_7x7
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x147xi8>, tensor<147x8xi8>)
// KERNEL-LABEL: func.func @int8_rgb_7x7
// KERNEL-NOT: tensor.extract_slice
// KERNEL: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x21x21x3xi8>, tensor<7x7x3x8xi8>) outs(%{{.+}} : tensor<1x8x8x8xi32>)
func.func @int8_rgb_7x7(%x: tensor<1x16x16x3xi8>) -> tensor<1x8x8x8xi32> {
  %w = relay.constant dense<2> : tensor<7x7x3x8xi8>
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3, 3>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x16x16x3xi8>, tensor<7x7x3x8xi8>) -> tensor<1x8x8x8xi32>
  return %y : tensor<1x8x8x8xi32>
}

// Float convolutions keep Winograd either way.
// CHECK-LABEL: func.func @f32_3x3
// CHECK: linalg.batch_matmul
// KERNEL-LABEL: func.func @f32_3x3
// KERNEL: linalg.batch_matmul
func.func @f32_3x3(%x: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32> {
  %w = relay.constant dense<0.5> : tensor<3x3x64x64xf32>
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32>
  return %y : tensor<1x56x56x64xf32>
}
