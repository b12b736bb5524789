// RUN: relay-mlir-opt %s '-relay-remove-unused-functions=entry-functions=main,nope' -verify-diagnostics

// An entry that is no function of the module is refused, naming the
// functions there are.
// expected-error @+1 {{relay-remove-unused-functions: entry function 'nope' is not in the module (functions: helper, main)}}
module {
  func.func @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}
