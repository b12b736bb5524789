// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// The example of the pass description, with the NN relations.
// CHECK-LABEL: func.func @mlp(%{{.*}}: tensor<1x784xf32>, %{{.*}}: tensor<128x784xf32>, %{{.*}}: tensor<128xf32>) -> tensor<1x128xf32>
func.func @mlp(%x: tensor<1x784xf32>, %w: tensor<128x784xf32>, %b: tensor<128xf32>) -> !relay.incomplete {
  // CHECK: relay.nn.dense {{.*}} -> tensor<1x128xf32>
  %0 = relay.nn.dense %x, %w : (tensor<1x784xf32>, tensor<128x784xf32>) -> !relay.incomplete
  // CHECK: relay.nn.bias_add {{.*}} : (tensor<1x128xf32>, tensor<128xf32>) -> tensor<1x128xf32>
  %1 = relay.nn.bias_add %0, %b : (!relay.incomplete, tensor<128xf32>) -> !relay.incomplete
  // CHECK: relay.nn.relu {{.*}} : (tensor<1x128xf32>) -> tensor<1x128xf32>
  %2 = relay.nn.relu %1 : (!relay.incomplete) -> !relay.incomplete
  // CHECK: relay.nn.softmax {{.*}} : (tensor<1x128xf32>) -> tensor<1x128xf32>
  %3 = relay.nn.softmax %2 : (!relay.incomplete) -> !relay.incomplete
  return %3 : !relay.incomplete
}
