// RUN: relay-mlir-opt %s -relay-box-join-tensors -verify-diagnostics -split-input-file

// Boxing builds IREE's util/hal ops, which MLIR only makes with
// --allow-unregistered-dialect: without it, a located error (not an abort).
// expected-error @+1 {{needs --allow-unregistered-dialect}}
func.func @join(%c: i1, %x: tensor<2xf32>) -> tensor<2xf32> {
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^j(%x : tensor<2xf32>)
^b:
  %y = arith.addf %x, %x : tensor<2xf32>
  cf.br ^j(%y : tensor<2xf32>)
^j(%r: tensor<2xf32>):
  return %r : tensor<2xf32>
}
