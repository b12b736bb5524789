// RUN: relay-mlir-opt %s --mlir-very-unsafe-disable-verifier-on-parsing -relay-infer-type | FileCheck %s

// Relay's Any takes any size: a static value passed to a `?` parameter is
// cast to the signature's type (func.call needs it exactly). The call is
// written with incomplete types, as the Python builder emits it before
// inference (hence no verification on parsing).

// CHECK-LABEL: func.func @grow(%{{.*}}: tensor<?x2xf32>) -> tensor<?x2xf32>
func.func @grow(%acc: tensor<?x2xf32>) -> tensor<?x2xf32> {
  return %acc : tensor<?x2xf32>
}

// CHECK-LABEL: func.func @start
// CHECK: %[[Z:.*]] = relay.zeros {{.*}} -> tensor<0x2xf32>
// CHECK: %[[C:.*]] = tensor.cast %[[Z]] : tensor<0x2xf32> to tensor<?x2xf32>
// CHECK: call @grow(%[[C]]) : (tensor<?x2xf32>) -> tensor<?x2xf32>
func.func @start() -> !relay.incomplete {
  %z = relay.zeros {dtype = f32, shape = array<i64: 0, 2>} : () -> !relay.incomplete
  %r = call @grow(%z) : (!relay.incomplete) -> !relay.incomplete
  return %r : !relay.incomplete
}
