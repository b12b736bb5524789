// RUN: relay-mlir-opt %s -relay-forward-fold-scale-axis --mlir-print-elementsattrs-with-hex-if-larger=1 | FileCheck %s

// The folded constants, bit for bit, in each float type: f32 and f64 are
// computed in the host's IEEE arithmetic, f16 in APFloat; a NaN weight stays
// the quiet NaN. x * s -> add(., b) -> dense(., w): w scaled along its input
// features, b divided by s. Expected bits from numpy (w = [[0.1, 0.2],
// [0.3, nan]], s = [3, 0.1], b = [1, 0.7] in the type; w * s[None, :], b / s).

// CHECK-LABEL: func.func @forward_f32(
// CHECK-DAG:     relay.constant dense<"0x9A99993E0BD7A33C6766663F0000C07F"> : tensor<2x2xf32>
// CHECK-DAG:     relay.constant dense<"0xABAAAA3E0000E040"> : tensor<2xf32>
// CHECK-NOT:     relay.multiply
func.func @forward_f32(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = relay.constant dense<[[0.1, 0.2], [0.3, 0x7FC00000]]> : tensor<2x2xf32>
  %s = relay.constant dense<[3.0, 0.1]> : tensor<2xf32>
  %b = relay.constant dense<[1.0, 0.7]> : tensor<2xf32>
  %m = relay.multiply %x, %s : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %a = relay.add %m, %b : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %y = relay.nn.dense %a, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// CHECK-LABEL: func.func @forward_f64(
// CHECK-DAG:     relay.constant dense<"0x343333333333D33F7C14AE47E17A943FCCCCCCCCCCCCEC3F000000000000F87F"> : tensor<2x2xf64>
// CHECK-DAG:     relay.constant dense<"0x555555555555D53FFFFFFFFFFFFF1B40"> : tensor<2xf64>
// CHECK-NOT:     relay.multiply
func.func @forward_f64(%x: tensor<1x2xf64>) -> tensor<1x2xf64> {
  %w = relay.constant dense<[[0.1, 0.2], [0.3, 0x7FF8000000000000]]> : tensor<2x2xf64>
  %s = relay.constant dense<[3.0, 0.1]> : tensor<2xf64>
  %b = relay.constant dense<[1.0, 0.7]> : tensor<2xf64>
  %m = relay.multiply %x, %s : (tensor<1x2xf64>, tensor<2xf64>) -> tensor<1x2xf64>
  %a = relay.add %m, %b : (tensor<1x2xf64>, tensor<2xf64>) -> tensor<1x2xf64>
  %y = relay.nn.dense %a, %w : (tensor<1x2xf64>, tensor<2x2xf64>) -> tensor<1x2xf64>
  return %y : tensor<1x2xf64>
}

// CHECK-LABEL: func.func @forward_f16(
// CHECK-DAG:     relay.constant dense<"0xCC341E25343B007E"> : tensor<2x2xf16>
// CHECK-DAG:     relay.constant dense<"0x55350147"> : tensor<2xf16>
// CHECK-NOT:     relay.multiply
func.func @forward_f16(%x: tensor<1x2xf16>) -> tensor<1x2xf16> {
  %w = relay.constant dense<[[0.1, 0.2], [0.3, 0x7E00]]> : tensor<2x2xf16>
  %s = relay.constant dense<[3.0, 0.1]> : tensor<2xf16>
  %b = relay.constant dense<[1.0, 0.7]> : tensor<2xf16>
  %m = relay.multiply %x, %s : (tensor<1x2xf16>, tensor<2xf16>) -> tensor<1x2xf16>
  %a = relay.add %m, %b : (tensor<1x2xf16>, tensor<2xf16>) -> tensor<1x2xf16>
  %y = relay.nn.dense %a, %w : (tensor<1x2xf16>, tensor<2x2xf16>) -> tensor<1x2xf16>
  return %y : tensor<1x2xf16>
}
