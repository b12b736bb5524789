// RUN: relay-mlir-opt %s -relay-simplify-inference | FileCheck %s

// Field 0 of batch_norm: x * scale + shift, scale = 1 / sqrt(var + eps) * g,
// shift = -mean * scale + b, both expanded to (C, 1, 1) (as TVM 0.19 prints
// it for this program). The batch_norm is gone.
// CHECK-LABEL: func.func @batch_norm(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x4x3x3xf32>, %[[G:[^:]*]]: tensor<4xf32>, %[[B:[^:]*]]: tensor<4xf32>, %[[M:[^:]*]]: tensor<4xf32>, %[[V:[^:]*]]: tensor<4xf32>
// CHECK-DAG:     %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[EPS:.*]] = relay.constant dense<1.000000e-03> : tensor<f32>
// CHECK:         %[[VE:.*]] = relay.add %[[V]], %[[EPS]]
// CHECK:         %[[SQ:.*]] = relay.sqrt %[[VE]]
// CHECK:         %[[INV:.*]] = relay.divide %[[ONE]], %[[SQ]]
// CHECK:         %[[SC:.*]] = relay.multiply %[[INV]], %[[G]]
// CHECK:         %[[NM:.*]] = relay.negative %[[M]]
// CHECK:         %[[SH0:.*]] = relay.multiply %[[NM]], %[[SC]]
// CHECK:         %[[SH:.*]] = relay.add %[[SH0]], %[[B]]
// CHECK:         %[[SCE:.*]] = relay.expand_dims %[[SC]] {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK:         %[[XS:.*]] = relay.multiply %[[X]], %[[SCE]]
// CHECK:         %[[SHE:.*]] = relay.expand_dims %[[SH]] {axis = 1 : i64, num_newaxis = 2 : i64}
// CHECK:         %[[Y:.*]] = relay.add %[[XS]], %[[SHE]] : (tensor<2x4x3x3xf32>, tensor<4x1x1xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NOT:     relay.nn.batch_norm
// CHECK:         return %[[Y]]
func.func @batch_norm(%x: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<2x4x3x3xf32> {
  %t = relay.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-03 : f64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>>
  %y = relay.tuple_get_item %t[0] : (tuple<tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}

// center/scale false: no gamma, no beta. Field 1 is used, so the batch_norm
// stays for it. Channels last (axis 1 of 2): nothing to expand.
// CHECK-LABEL: func.func @batch_norm_stats_used(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<5x4xf32>, %[[G:[^:]*]]: tensor<4xf32>, %[[B:[^:]*]]: tensor<4xf32>, %[[M:[^:]*]]: tensor<4xf32>, %[[V:[^:]*]]: tensor<4xf32>
// CHECK:         %[[T:.*]] = relay.nn.batch_norm %[[X]]
// CHECK:         %[[INV:.*]] = relay.divide
// CHECK-NOT:     %[[G]]
// CHECK:         %[[NM:.*]] = relay.negative %[[M]]
// CHECK:         %[[SH:.*]] = relay.multiply %[[NM]], %[[INV]]
// CHECK:         %[[XS:.*]] = relay.multiply %[[X]], %[[INV]] : (tensor<5x4xf32>, tensor<4xf32>)
// CHECK:         %[[Y:.*]] = relay.add %[[XS]], %[[SH]] : (tensor<5x4xf32>, tensor<4xf32>)
// CHECK:         %[[S:.*]] = relay.tuple_get_item %[[T]][1]
// CHECK:         relay.tuple %[[Y]], %[[S]]
func.func @batch_norm_stats_used(%x: tensor<5x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tuple<tensor<5x4xf32>, tensor<4xf32>> {
  %t = relay.nn.batch_norm %x, %g, %b, %m, %v {center = false, scale = false} : (tensor<5x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<5x4xf32>, tensor<4xf32>, tensor<4xf32>>
  %y = relay.tuple_get_item %t[0] : (tuple<tensor<5x4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<5x4xf32>
  %s = relay.tuple_get_item %t[1] : (tuple<tensor<5x4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %r = relay.tuple %y, %s : (tensor<5x4xf32>, tensor<4xf32>) -> tuple<tensor<5x4xf32>, tensor<4xf32>>
  return %r : tuple<tensor<5x4xf32>, tensor<4xf32>>
}

// NHWC (axis -1), dynamic batch: the per-channel vectors broadcast as they
// are.
// CHECK-LABEL: func.func @batch_norm_nhwc(
// CHECK-NOT:     relay.expand_dims
// CHECK:         relay.multiply %{{.*}}, %{{.*}} : (tensor<?x3x3x4xf32>, tensor<4xf32>) -> tensor<?x3x3x4xf32>
// CHECK-NOT:     relay.nn.batch_norm
func.func @batch_norm_nhwc(%x: tensor<?x3x3x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<?x3x3x4xf32> {
  %t = relay.nn.batch_norm %x, %g, %b, %m, %v {axis = -1 : i64} : (tensor<?x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<?x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>>
  %y = relay.tuple_get_item %t[0] : (tuple<tensor<?x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<?x3x3x4xf32>
  return %y : tensor<?x3x3x4xf32>
}

// Field 0 of dropout is its data; field 1 (the mask) keeps the dropout.
// CHECK-LABEL: func.func @dropout(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xf32>
// CHECK:         %[[D:.*]] = relay.nn.dropout %[[X]]
// CHECK:         %[[MASK:.*]] = relay.tuple_get_item %[[D]][1]
// CHECK:         relay.add %[[X]], %[[MASK]]
func.func @dropout(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %d = relay.nn.dropout %x {rate = 3.0e-01 : f64} : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
  %y = relay.tuple_get_item %d[0] : (tuple<tensor<2x3xf32>, tensor<2x3xf32>>) -> tensor<2x3xf32>
  %m = relay.tuple_get_item %d[1] : (tuple<tensor<2x3xf32>, tensor<2x3xf32>>) -> tensor<2x3xf32>
  %r = relay.add %y, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dropout_only(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xf32>
// CHECK-NEXT:    return %[[X]]
func.func @dropout_only(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %d = relay.nn.dropout %x : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
  %y = relay.tuple_get_item %d[0] : (tuple<tensor<2x3xf32>, tensor<2x3xf32>>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// layer_norm over the last axis: gamma and beta broadcast as they are.
// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x?x8xf32>, %[[G:[^:]*]]: tensor<8xf32>, %[[B:[^:]*]]: tensor<8xf32>
// CHECK:         %[[EPS:.*]] = relay.constant dense<9.99999974E-6> : tensor<f32>
// CHECK:         %[[MEAN:.*]] = relay.mean %[[X]] {axis = array<i64: 2>, keepdims = true} : (tensor<2x?x8xf32>) -> tensor<2x?x1xf32>
// CHECK:         %[[VAR:.*]] = relay.variance %[[X]], %[[MEAN]] {axis = array<i64: 2>, keepdims = true}
// CHECK:         %[[VE:.*]] = relay.add %[[VAR]], %[[EPS]]
// CHECK:         %[[D:.*]] = relay.sqrt %[[VE]]
// CHECK:         %[[C:.*]] = relay.subtract %[[X]], %[[MEAN]]
// CHECK:         %[[N:.*]] = relay.divide %[[C]], %[[D]]
// CHECK:         %[[S:.*]] = relay.multiply %[[N]], %[[G]] : (tensor<2x?x8xf32>, tensor<8xf32>)
// CHECK:         %[[Y:.*]] = relay.add %[[S]], %[[B]]
// CHECK:         return %[[Y]]
func.func @layer_norm(%x: tensor<2x?x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x?x8xf32> {
  %y = relay.nn.layer_norm %x, %g, %b : (tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x?x8xf32>
  return %y : tensor<2x?x8xf32>
}

// instance_norm: over the dims after the batch except the channel; center
// false: no beta.
// CHECK-LABEL: func.func @instance_norm(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x4x3x3xf32>, %[[G:[^:]*]]: tensor<4xf32>, %[[B:[^:]*]]: tensor<4xf32>
// CHECK:         relay.mean %[[X]] {axis = array<i64: 2, 3>, keepdims = true}
// CHECK:         %[[GE:.*]] = relay.expand_dims %[[G]] {axis = 1 : i64, num_newaxis = 2 : i64}
// CHECK:         %[[Y:.*]] = relay.multiply %{{.*}}, %[[GE]]
// CHECK-NOT:     %[[B]]
// CHECK:         return %[[Y]]
func.func @instance_norm(%x: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x3xf32> {
  %y = relay.nn.instance_norm %x, %g, %b {center = false} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}

// group_norm: channels 4 -> (2 groups, 2), normalised over axes 2, 3, 4 of
// the 5-d view, reshaped back (TVM 0.19's ops for this program).
// CHECK-LABEL: func.func @group_norm(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x4x3x3xf32>, %[[G:[^:]*]]: tensor<4xf32>, %[[B:[^:]*]]: tensor<4xf32>
// CHECK:         %[[R:.*]] = relay.reshape %[[X]] {newshape = array<i64: 2, 2, 2, 3, 3>}
// CHECK:         %[[MEAN:.*]] = relay.mean %[[R]] {axis = array<i64: 2, 3, 4>, keepdims = true} : (tensor<2x2x2x3x3xf32>) -> tensor<2x2x1x1x1xf32>
// CHECK:         relay.variance %[[R]], %[[MEAN]] {axis = array<i64: 2, 3, 4>, keepdims = true}
// CHECK:         %[[N:.*]] = relay.divide
// CHECK:         %[[BACK:.*]] = relay.reshape %[[N]] {newshape = array<i64: 2, 4, 3, 3>}
// CHECK:         %[[GE:.*]] = relay.expand_dims %[[G]] {axis = 1 : i64, num_newaxis = 2 : i64}
// CHECK:         %[[S:.*]] = relay.multiply %[[BACK]], %[[GE]]
// CHECK:         %[[BE:.*]] = relay.expand_dims %[[B]] {axis = 1 : i64, num_newaxis = 2 : i64}
// CHECK:         relay.add %[[S]], %[[BE]]
// CHECK-NOT:     relay.nn.group_norm
func.func @group_norm(%x: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x3xf32> {
  %y = relay.nn.group_norm %x, %g, %b {num_groups = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}

// A dynamic shape cannot be spelled by the group reshape: left alone.
// CHECK-LABEL: func.func @group_norm_dynamic(
// CHECK:         relay.nn.group_norm
func.func @group_norm_dynamic(%x: tensor<?x4x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?x4x3xf32> {
  %y = relay.nn.group_norm %x, %g, %b {num_groups = 2 : i64} : (tensor<?x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x3xf32>
  return %y : tensor<?x4x3xf32>
}

// l2_normalize over axis 1; with no axis over every dim (sum without axis).
// The eps constant has the data's dtype (TVM 0.19 makes it float32, which
// does not type-check against float16 data).
// CHECK-LABEL: func.func @l2_normalize(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x4xf16>
// CHECK-DAG:     %[[EPS:.*]] = relay.constant dense<{{.*}}> : tensor<f16>
// CHECK:         %[[SQ:.*]] = relay.multiply %[[X]], %[[X]]
// CHECK:         %[[S:.*]] = relay.sum %[[SQ]] {axis = array<i64: 1>, keepdims = true} : (tensor<2x4xf16>) -> tensor<2x1xf16>
// CHECK:         %[[MX:.*]] = relay.maximum %[[S]], %[[EPS]]
// CHECK:         %[[R:.*]] = relay.sqrt %[[MX]]
// CHECK:         %[[Y:.*]] = relay.divide %[[X]], %[[R]]
// CHECK:         %[[SQ2:.*]] = relay.multiply %[[X]], %[[X]]
// CHECK:         relay.sum %[[SQ2]] {keepdims = true} : (tensor<2x4xf16>) -> tensor<1x1xf16>
// CHECK-NOT:     relay.nn.l2_normalize
func.func @l2_normalize(%x: tensor<2x4xf16>) -> tuple<tensor<2x4xf16>, tensor<2x4xf16>> {
  %y = relay.nn.l2_normalize %x {eps = 1.0e-3 : f64, axis = array<i64: 1>} : (tensor<2x4xf16>) -> tensor<2x4xf16>
  %z = relay.nn.l2_normalize %x {eps = 1.0e-3 : f64} : (tensor<2x4xf16>) -> tensor<2x4xf16>
  %r = relay.tuple %y, %z : (tensor<2x4xf16>, tensor<2x4xf16>) -> tuple<tensor<2x4xf16>, tensor<2x4xf16>>
  return %r : tuple<tensor<2x4xf16>, tensor<2x4xf16>>
}

// Inside closures and branches too; other ops are left alone.
// CHECK-LABEL: func.func @nested(
// CHECK:         relay.fn
// CHECK:           relay.sqrt
// CHECK-NOT:       relay.nn.l2_normalize
// CHECK:           relay.nn.softmax
func.func @nested(%x: tensor<3xf32>) -> !relay.fn<(tensor<3xf32>) -> tensor<3xf32>> {
  %f = relay.fn : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>> {
  ^bb0(%p: tensor<3xf32>):
    %y = relay.nn.l2_normalize %p {eps = 1.0e-6 : f64} : (tensor<3xf32>) -> tensor<3xf32>
    %z = relay.nn.softmax %y : (tensor<3xf32>) -> tensor<3xf32>
    relay.yield %z : tensor<3xf32>
  }
  return %f : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>
}
