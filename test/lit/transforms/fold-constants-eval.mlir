// RUN: relay-mlir-opt %s -relay-fold-constants | FileCheck %s

// Operators whose operands are all constants are evaluated (the table of
// evaluators in lib/Transforms/FoldConstants.cpp): exact resulting constants.

// CHECK-LABEL: func.func @unary_float(
// CHECK-NOT:     relay.exp
// CHECK:         %[[C:.*]] = relay.constant dense<[1.000000e+00, 2.71828175, 7.3890562]> : tensor<3xf32>
// CHECK:         return %[[C]]
func.func @unary_float() -> tensor<3xf32> {
  %c = relay.constant dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
  %e = relay.exp %c : (tensor<3xf32>) -> tensor<3xf32>
  return %e : tensor<3xf32>
}

// Relay's integer division truncates, x / 0 and x % 0 are 0; floor_mod takes
// the divisor's sign; int8 arithmetic wraps.
// CHECK-LABEL: func.func @integer_binary(
// CHECK-DAG:     relay.constant dense<[-3, -3, 0, 8]> : tensor<4xi32>
// CHECK-DAG:     relay.constant dense<[-1, 1, 0, 0]> : tensor<4xi32>
// CHECK-DAG:     relay.constant dense<[1, -1, 0, 0]> : tensor<4xi32>
// CHECK-DAG:     relay.constant dense<[-16, 0, 2]> : tensor<3xi8>
// CHECK-NOT:     relay.divide
// CHECK-NOT:     relay.mod
// CHECK-NOT:     relay.floor_mod
// CHECK-NOT:     relay.multiply
func.func @integer_binary() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<3xi8>) {
  %a = relay.constant dense<[-7, 7, 5, -8]> : tensor<4xi32>
  %b = relay.constant dense<[2, -2, 0, -1]> : tensor<4xi32>
  %d = relay.divide %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %m = relay.mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %f = relay.floor_mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %x = relay.constant dense<[120, -128, 1]> : tensor<3xi8>
  %y = relay.constant dense<[2, 0, 2]> : tensor<3xi8>
  %p = relay.multiply %x, %y : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return %d, %m, %f, %p : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<3xi8>
}

// Broadcasting, comparisons, where, cast (float -> int truncates), clip.
// CHECK-LABEL: func.func @broadcast_compare_where_cast(
// CHECK-DAG:     relay.constant dense<{{\[}}[11, 22, 33], [14, 25, 36]]> : tensor<2x3xi32>
// CHECK-DAG:     relay.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG:     relay.constant dense<[1.000000e+00, 2.000000e+01, 3.000000e+01]> : tensor<3xf32>
// CHECK-DAG:     relay.constant dense<[1, -2, 3]> : tensor<3xi32>
// CHECK-DAG:     relay.constant dense<[1.500000e+00, -1.500000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK-NOT:     relay.add
// CHECK-NOT:     relay.less
// CHECK-NOT:     relay.where
// CHECK-NOT:     relay.cast
// CHECK-NOT:     relay.clip
func.func @broadcast_compare_where_cast() -> (tensor<2x3xi32>, tensor<3xi1>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>) {
  %a = relay.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %b = relay.constant dense<[10, 20, 30]> : tensor<3xi32>
  %s = relay.add %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %x = relay.constant dense<[1.5, -2.5, 3.75]> : tensor<3xf32>
  %y = relay.constant dense<[2.0, -3.0, 1.0]> : tensor<3xf32>
  %l = relay.less %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %one = relay.constant dense<1.0> : tensor<f32>
  %t = relay.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %w = relay.where %l, %one, %t : (tensor<3xi1>, tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %c = relay.cast %x {dtype = i32} : (tensor<3xf32>) -> tensor<3xi32>
  %k = relay.clip %x {a_min = -1.5 : f64, a_max = 2.0 : f64} : (tensor<3xf32>) -> tensor<3xf32>
  return %s, %l, %w, %c, %k : tensor<2x3xi32>, tensor<3xi1>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>
}

// Data movement: transpose, concatenate, take, strided_slice, split (a tuple
// of constants; its items fold), tile.
// CHECK-LABEL: func.func @data_movement(
// CHECK-DAG:     relay.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-DAG:     relay.constant dense<{{\[}}[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]> : tensor<2x6xi32>
// CHECK-DAG:     relay.constant dense<{{\[}}[3, 1], [6, 4]]> : tensor<2x2xi32>
// CHECK-DAG:     relay.constant dense<{{\[}}[6, 4]]> : tensor<1x2xi32>
// CHECK-DAG:     relay.constant dense<{{\[}}[2], [5]]> : tensor<2x1xi32>
// CHECK-DAG:     relay.constant dense<{{\[}}[1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 5, 6]]> : tensor<4x3xi32>
// CHECK-NOT:     relay.transpose
// CHECK-NOT:     relay.concatenate
// CHECK-NOT:     relay.take
// CHECK-NOT:     relay.strided_slice
// CHECK-NOT:     relay.split
// CHECK-NOT:     relay.tuple_get_item
// CHECK-NOT:     relay.tile
func.func @data_movement() -> (tensor<3x2xi32>, tensor<2x6xi32>, tensor<2x2xi32>, tensor<1x2xi32>, tensor<2x1xi32>, tensor<4x3xi32>) {
  %a = relay.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %t = relay.transpose %a : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %c = relay.concatenate %a, %a {axis = 1 : i64} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
  %i = relay.constant dense<[2, 0]> : tensor<2xi32>
  %k = relay.take %a, %i {axis = 1 : i64} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  %s = relay.strided_slice %a {begin = array<i64: 1, 2>, end = array<i64: 2, -4>, strides = array<i64: 1, -2>} : (tensor<2x3xi32>) -> tensor<1x2xi32>
  %p = relay.split %a {indices_or_sections = array<i64: 1, 2>, axis = 1 : i64} : (tensor<2x3xi32>) -> tuple<tensor<2x1xi32>, tensor<2x1xi32>, tensor<2x1xi32>>
  %g = relay.tuple_get_item %p[1] : (tuple<tensor<2x1xi32>, tensor<2x1xi32>, tensor<2x1xi32>>) -> tensor<2x1xi32>
  %r = relay.tile %a {reps = array<i64: 2, 1>} : (tensor<2x3xi32>) -> tensor<4x3xi32>
  return %t, %c, %k, %s, %g, %r : tensor<3x2xi32>, tensor<2x6xi32>, tensor<2x2xi32>, tensor<1x2xi32>, tensor<2x1xi32>, tensor<4x3xi32>
}

// Reductions, dense, and the batch-norm arithmetic SimplifyInference leaves
// on constant statistics: scale = gamma / sqrt(var + eps).
// CHECK-LABEL: func.func @reduce_dense_bn(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x2xf32>
// CHECK-DAG:     relay.constant dense<[6.000000e+00, 1.500000e+01]> : tensor<2xf32>
// CHECK-DAG:     relay.constant dense<3.500000e+00> : tensor<f32>
// CHECK-DAG:     relay.constant dense<{{\[}}[5.000000e+00, 1.100000e+01]]> : tensor<1x2xf32>
// CHECK-DAG:     %[[S:.*]] = relay.constant dense<[1.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK:         relay.multiply %[[X]], %[[S]]
// CHECK-NOT:     relay.sum
// CHECK-NOT:     relay.mean
// CHECK-NOT:     relay.nn.dense
// CHECK-NOT:     relay.sqrt
// CHECK-NOT:     relay.divide
func.func @reduce_dense_bn(%x: tensor<2x2xf32>) -> (tensor<2xf32>, tensor<f32>, tensor<1x2xf32>, tensor<2x2xf32>) {
  %a = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = relay.sum %a {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %m = relay.mean %a : (tensor<2x3xf32>) -> tensor<f32>
  %u = relay.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %w = relay.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %d = relay.nn.dense %u, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  %gamma = relay.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %var = relay.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %eps = relay.constant dense<0.0> : tensor<f32>
  %ve = relay.add %var, %eps : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %sq = relay.sqrt %ve : (tensor<2xf32>) -> tensor<2xf32>
  %sc = relay.divide %gamma, %sq : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %y = relay.multiply %x, %sc : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %s, %m, %d, %y : tensor<2xf32>, tensor<f32>, tensor<1x2xf32>, tensor<2x2xf32>
}

// full of a constant fill value, cast to the dtype; full_like of any data of
// a static shape.
// CHECK-LABEL: func.func @fills(
// CHECK-DAG:     relay.constant dense<2> : tensor<2x2xi32>
// CHECK-DAG:     relay.constant dense<-1.000000e+00> : tensor<3xf32>
// CHECK-NOT:     relay.full
func.func @fills(%x: tensor<3xf32>) -> (tensor<2x2xi32>, tensor<3xf32>) {
  %v = relay.constant dense<2.75> : tensor<f32>
  %f = relay.full %v {shape = array<i64: 2, 2>, dtype = i32} : (tensor<f32>) -> tensor<2x2xi32>
  %m = relay.constant dense<-1.0> : tensor<f32>
  %l = relay.full_like %x, %m : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %f, %l : tensor<2x2xi32>, tensor<3xf32>
}

// Heavy ops fold too, as in TVM 0.19: conv2d (double accumulation, rounded
// once), nn.pad.
// CHECK-LABEL: func.func @conv_pad(
// CHECK-DAG:     relay.constant dense<{{\[\[\[}}[6.000000e+00, 8.000000e+00], [1.200000e+01, 1.400000e+01]]]]> : tensor<1x1x2x2xf32>
// CHECK-DAG:     relay.constant dense<{{\[}}[0, 0, 0], [0, 1, 2]]> : tensor<2x3xi32>
// CHECK-NOT:     relay.nn.conv2d
// CHECK-NOT:     relay.nn.pad
func.func @conv_pad() -> (tensor<1x1x2x2xf32>, tensor<2x3xi32>) {
  %x = relay.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = relay.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %a = relay.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %z = relay.constant dense<0> : tensor<i32>
  %p = relay.nn.pad %a, %z {pad_width = array<i64: 1, 0, 1, 0>} : (tensor<1x2xi32>, tensor<i32>) -> tensor<2x3xi32>
  return %y, %p : tensor<1x1x2x2xf32>, tensor<2x3xi32>
}

// layout_transform of a constant (TVM folds AlterOpLayout's weight
// transforms): OIHW -> OIHW2i2o, out[ob, ib, h, w, ii, oi] =
// w[ob*2 + oi, ib*2 + ii, h, w]; NCHW2c -> NCHW, x[n, c/2, h, w, c%2].
// CHECK-LABEL: func.func @layout_transform(
// CHECK-DAG:     relay.constant dense<{{\[\[\[\[\[\[}}0, 2], [1, 3]]]]], {{\[\[\[\[\[}}4, 6], [5, 7]]]]]]> : tensor<2x1x1x1x2x2xi32>
// CHECK-DAG:     relay.constant dense<{{\[\[\[\[}}0.000000e+00, 2.000000e+00]], {{\[\[}}1.000000e+00, 3.000000e+00]], {{\[\[}}4.000000e+00, 6.000000e+00]], {{\[\[}}5.000000e+00, 7.000000e+00]]]]> : tensor<1x4x1x2xf32>
// CHECK-NOT:     relay.layout_transform
func.func @layout_transform() -> (tensor<2x1x1x1x2x2xi32>, tensor<1x4x1x2xf32>) {
  %w = relay.constant dense<[[[[0]], [[1]]], [[[2]], [[3]]], [[[4]], [[5]]], [[[6]], [[7]]]]> : tensor<4x2x1x1xi32>
  %b = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "OIHW2i2o"} : (tensor<4x2x1x1xi32>) -> tensor<2x1x1x1x2x2xi32>
  %x = relay.constant dense<[[[[[0.0, 1.0], [2.0, 3.0]]], [[[4.0, 5.0], [6.0, 7.0]]]]]> : tensor<1x2x1x2x2xf32>
  %p = relay.layout_transform %x {src_layout = "NCHW2c", dst_layout = "NCHW"} : (tensor<1x2x1x2x2xf32>) -> tensor<1x4x1x2xf32>
  return %b, %p : tensor<2x1x1x1x2x2xi32>, tensor<1x4x1x2xf32>
}

// fixed_point_multiply: TVM 0.19's q_multiply_shift (its values: x * 6 wraps
// in int32 for 2^30 and 2^31 - 1), and the int64 form relay.quantize emits.
// CHECK-LABEL: func.func @fixed_point_multiply(
// CHECK-DAG:     relay.constant dense<[30, -30, -2147483648, -6]> : tensor<4xi32>
// CHECK-DAG:     relay.constant dense<[0, 1, 8369264]> : tensor<3xi64>
// CHECK-NOT:     relay.fixed_point_multiply
func.func @fixed_point_multiply() -> (tensor<4xi32>, tensor<3xi64>) {
  %x = relay.constant dense<[5, -5, 1073741824, 2147483647]> : tensor<4xi32>
  %y = relay.fixed_point_multiply %x {multiplier = 1610612736 : i64, shift = 3 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  %w = relay.constant dense<[5, 100, 1073741824]> : tensor<3xi64>
  %z = relay.fixed_point_multiply %w {multiplier = 2142531584 : i64, shift = -7 : i64} : (tensor<3xi64>) -> tensor<3xi64>
  return %y, %z : tensor<4xi32>, tensor<3xi64>
}
