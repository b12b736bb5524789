// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @take
func.func @take(%w: tensor<10x4xf32>, %i: tensor<2x3xi32>, %d: tensor<?x4xf32>, %b: tensor<2x5x4xf32>) {
  // CHECK: relay.take %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  %0 = relay.take %w, %i {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  // No axis: data is flattened, the result has the shape of indices.
  // CHECK: relay.take %{{.*}}, %{{.*}} {mode = "wrap"} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  %1 = relay.take %w, %i {mode = "wrap"} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  // CHECK: relay.take %{{.*}}, %{{.*}} {axis = -1 : i64, mode = "fast"} : (tensor<?x4xf32>, tensor<2x3xi32>) -> tensor<?x2x3xf32>
  %2 = relay.take %d, %i {axis = -1 : i64, mode = "fast"} : (tensor<?x4xf32>, tensor<2x3xi32>) -> tensor<?x2x3xf32>
  // batch_dims = 1: data[:1] + indices[1:] + data[2:]
  // CHECK: relay.take %{{.*}}, %{{.*}} {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  %3 = relay.take %b, %i {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  return
}

// CHECK-LABEL: func.func @gathers
func.func @gathers(%x: tensor<3x4x5xf32>, %i: tensor<3x2x5xi64>, %n: tensor<2x6xi32>, %nb: tensor<1x3x2xi32>) {
  // CHECK: relay.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<3x4x5xf32>, tensor<3x2x5xi64>) -> tensor<3x2x5xf32>
  %0 = relay.gather %x, %i {axis = 1 : i64} : (tensor<3x4x5xf32>, tensor<3x2x5xi64>) -> tensor<3x2x5xf32>
  // CHECK: relay.gather_nd %{{.*}}, %{{.*}} : (tensor<3x4x5xf32>, tensor<2x6xi32>) -> tensor<6x5xf32>
  %1 = relay.gather_nd %x, %n : (tensor<3x4x5xf32>, tensor<2x6xi32>) -> tensor<6x5xf32>
  // CHECK: relay.gather_nd %{{.*}}, %{{.*}} {batch_dims = 1 : i64, index_rank = 1 : i64} : (tensor<3x4x5xf32>, tensor<1x3x2xi32>) -> tensor<3x2x5xf32>
  %2 = relay.gather_nd %x, %nb {batch_dims = 1 : i64, index_rank = 1 : i64} : (tensor<3x4x5xf32>, tensor<1x3x2xi32>) -> tensor<3x2x5xf32>
  return
}

// CHECK-LABEL: func.func @scatters
func.func @scatters(%x: tensor<4x3xf32>, %i: tensor<2x3xi32>, %u: tensor<2x3xf32>, %ni: tensor<1x2xi32>) {
  // CHECK: relay.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %0 = relay.scatter_elements %x, %i, %u : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK: relay.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, reduction = "max"} : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %1 = relay.scatter_elements %x, %i, %u {axis = 1 : i64, reduction = "max"} : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK: relay.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} {mode = "add"} : (tensor<4x3xf32>, tensor<1x2xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %2 = relay.scatter_nd %x, %ni, %u {mode = "add"} : (tensor<4x3xf32>, tensor<1x2xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// CHECK-LABEL: func.func @one_hot
func.func @one_hot(%i: tensor<?x3xi32>, %on: tensor<f32>, %off: tensor<f32>) {
  // CHECK: relay.one_hot %{{.*}}, %{{.*}}, %{{.*}} {depth = 4 : i64, dtype = f32} : (tensor<?x3xi32>, tensor<f32>, tensor<f32>) -> tensor<?x3x4xf32>
  %0 = relay.one_hot %i, %on, %off {depth = 4 : i64, dtype = f32} : (tensor<?x3xi32>, tensor<f32>, tensor<f32>) -> tensor<?x3x4xf32>
  // CHECK: relay.one_hot %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64, depth = 4 : i64, dtype = f32} : (tensor<?x3xi32>, tensor<f32>, tensor<f32>) -> tensor<4x?x3xf32>
  %1 = relay.one_hot %i, %on, %off {axis = 0 : i64, depth = 4 : i64, dtype = f32} : (tensor<?x3xi32>, tensor<f32>, tensor<f32>) -> tensor<4x?x3xf32>
  return
}

// CHECK-LABEL: func.func @scans
func.func @scans(%x: tensor<2x?xi32>) {
  // CHECK: relay.cumsum %{{.*}} {axis = 1 : i64, exclusive = true} : (tensor<2x?xi32>) -> tensor<2x?xi32>
  %0 = relay.cumsum %x {axis = 1 : i64, exclusive = true} : (tensor<2x?xi32>) -> tensor<2x?xi32>
  // No axis: flattened.
  // CHECK: relay.cumprod %{{.*}} {dtype = f32} : (tensor<2x?xi32>) -> tensor<?xf32>
  %1 = relay.cumprod %x {dtype = f32} : (tensor<2x?xi32>) -> tensor<?xf32>
  return
}

// CHECK-LABEL: func.func @sorting
func.func @sorting(%x: tensor<2x?xf32>) {
  // CHECK: relay.sort %{{.*}} {is_ascend = false} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = relay.sort %x {is_ascend = false} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // argsort's dtype defaults to int32.
  // CHECK: relay.argsort %{{.*}} {axis = 0 : i64} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  %1 = relay.argsort %x {axis = 0 : i64} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  // CHECK: relay.argsort %{{.*}} {dtype = i64} : (tensor<2x?xf32>) -> tensor<2x?xi64>
  %2 = relay.argsort %x {dtype = i64} : (tensor<2x?xf32>) -> tensor<2x?xi64>
  // The dtype comes from the attribute argsort declares, not the op's name:
  // sort declares none, so a stray `dtype` does not change its result.
  // CHECK: relay.sort %{{.*}} {dtype = i64} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %5 = relay.sort %x {dtype = i64} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.argsort %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  %6 = "relay.argsort"(%x) : (tensor<2x?xf32>) -> tensor<2x?xi32>
  // CHECK: relay.topk %{{.*}} {k = 3 : i64} : (tensor<2x?xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xi32>>
  %3 = relay.topk %x {k = 3 : i64} : (tensor<2x?xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xi32>>
  // CHECK: relay.topk %{{.*}} {axis = 0 : i64, is_ascend = true, k = 0 : i64, ret_type = "indices"} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  %4 = relay.topk %x {axis = 0 : i64, is_ascend = true, k = 0 : i64, ret_type = "indices"} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  return
}
