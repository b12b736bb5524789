// RUN: relay-mlir-opt %s -relay-contiguous-slices -split-input-file | FileCheck %s
// Many equal slices of one tensor along an inner dim become contiguous slices
// of the tensor transposed once with the slice index outermost (an unrolled
// RNN's per-step inputs at batch 8: one IREE executable for all steps).

// CHECK-LABEL: func.func @steps
// CHECK: %[[E:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [2, 8, 3] : tensor<2x24xf32> into tensor<2x8x3xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<2x8x3xf32>) outs(%{{.+}} : tensor<8x2x3xf32>) permutation = [1, 0, 2]
// CHECK: tensor.extract_slice %[[T]][0, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<8x2x3xf32> to tensor<1x2x3xf32>
// CHECK: tensor.extract_slice %[[T]][7, 0, 0] [1, 2, 3] [1, 1, 1]
// CHECK-NOT: tensor.extract_slice %arg0
func.func @steps(%x: tensor<2x24xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %s0 = tensor.extract_slice %x[0, 0] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s1 = tensor.extract_slice %x[0, 3] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s2 = tensor.extract_slice %x[0, 6] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s3 = tensor.extract_slice %x[0, 9] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s4 = tensor.extract_slice %x[0, 12] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s5 = tensor.extract_slice %x[0, 15] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s6 = tensor.extract_slice %x[0, 18] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s7 = tensor.extract_slice %x[0, 21] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  return %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Seven slices (a gate split is 3 or 4): left strided.
// CHECK-LABEL: func.func @few
// CHECK-NOT: linalg.transpose
func.func @few(%x: tensor<2x21xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %s0 = tensor.extract_slice %x[0, 0] [2, 3] [1, 1] : tensor<2x21xf32> to tensor<2x3xf32>
  %s1 = tensor.extract_slice %x[0, 3] [2, 3] [1, 1] : tensor<2x21xf32> to tensor<2x3xf32>
  %s2 = tensor.extract_slice %x[0, 6] [2, 3] [1, 1] : tensor<2x21xf32> to tensor<2x3xf32>
  %s3 = tensor.extract_slice %x[0, 9] [2, 3] [1, 1] : tensor<2x21xf32> to tensor<2x3xf32>
  %s4 = tensor.extract_slice %x[0, 12] [2, 3] [1, 1] : tensor<2x21xf32> to tensor<2x3xf32>
  %s5 = tensor.extract_slice %x[0, 15] [2, 3] [1, 1] : tensor<2x21xf32> to tensor<2x3xf32>
  %s6 = tensor.extract_slice %x[0, 18] [2, 3] [1, 1] : tensor<2x21xf32> to tensor<2x3xf32>
  return %s0, %s1, %s2, %s3, %s4, %s5, %s6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Batch 1: the slices are contiguous already.
// CHECK-LABEL: func.func @contiguous
// CHECK-NOT: linalg.transpose
func.func @contiguous(%x: tensor<1x24xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %s0 = tensor.extract_slice %x[0, 0] [1, 3] [1, 1] : tensor<1x24xf32> to tensor<1x3xf32>
  %s1 = tensor.extract_slice %x[0, 3] [1, 3] [1, 1] : tensor<1x24xf32> to tensor<1x3xf32>
  %s2 = tensor.extract_slice %x[0, 6] [1, 3] [1, 1] : tensor<1x24xf32> to tensor<1x3xf32>
  %s3 = tensor.extract_slice %x[0, 9] [1, 3] [1, 1] : tensor<1x24xf32> to tensor<1x3xf32>
  %s4 = tensor.extract_slice %x[0, 12] [1, 3] [1, 1] : tensor<1x24xf32> to tensor<1x3xf32>
  %s5 = tensor.extract_slice %x[0, 15] [1, 3] [1, 1] : tensor<1x24xf32> to tensor<1x3xf32>
  %s6 = tensor.extract_slice %x[0, 18] [1, 3] [1, 1] : tensor<1x24xf32> to tensor<1x3xf32>
  %s7 = tensor.extract_slice %x[0, 21] [1, 3] [1, 1] : tensor<1x24xf32> to tensor<1x3xf32>
  return %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}

// -----

// Another use of the tensor: left as it is (the transpose would be a second copy).
// CHECK-LABEL: func.func @other_use
// CHECK-NOT: linalg.transpose
func.func @other_use(%x: tensor<2x24xf32>) -> (tensor<2x24xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %s0 = tensor.extract_slice %x[0, 0] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s1 = tensor.extract_slice %x[0, 3] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s2 = tensor.extract_slice %x[0, 6] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s3 = tensor.extract_slice %x[0, 9] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s4 = tensor.extract_slice %x[0, 12] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s5 = tensor.extract_slice %x[0, 15] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s6 = tensor.extract_slice %x[0, 18] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  %s7 = tensor.extract_slice %x[0, 21] [2, 3] [1, 1] : tensor<2x24xf32> to tensor<2x3xf32>
  return %x, %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : tensor<2x24xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
