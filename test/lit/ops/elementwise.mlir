// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x?xf32>) {
  // CHECK: relay.negative %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = relay.negative %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.exp
  %1 = relay.exp %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.log
  %2 = relay.log %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.sqrt
  %3 = relay.sqrt %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.tanh
  %4 = relay.tanh %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.sigmoid
  %5 = relay.sigmoid %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.nn.relu %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %6 = relay.nn.relu %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %s: tensor<f32>, %d: tensor<?x3xf32>, %e: tensor<?x1xf32>) {
  // CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %0 = relay.add %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: relay.subtract %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %1 = relay.subtract %a, %s : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  // CHECK: relay.multiply %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %2 = relay.multiply %d, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  // `?` against 1 stays `?`; `?` against 4 becomes 4.
  // CHECK: relay.divide %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %3 = relay.divide %e, %a : (tensor<?x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  // CHECK: relay.maximum %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %4 = relay.maximum %e, %d : (tensor<?x1xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  // CHECK: relay.minimum %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %5 = relay.minimum %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @unary_float
func.func @unary_float(%x: tensor<2x?xf32>, %h: tensor<3xf16>) {
  // CHECK: relay.log2 %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = relay.log2 %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.log10
  %1 = relay.log10 %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.rsqrt
  %2 = relay.rsqrt %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.sin
  %3 = relay.sin %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.cos
  %4 = relay.cos %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.tan
  %5 = relay.tan %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.asin
  %6 = relay.asin %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.acos
  %7 = relay.acos %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.atan
  %8 = relay.atan %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.sinh
  %9 = relay.sinh %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.cosh
  %10 = relay.cosh %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.erf
  %11 = relay.erf %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.fast_exp
  %12 = relay.fast_exp %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.fast_tanh
  %13 = relay.fast_tanh %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.fast_erf %{{.*}} : (tensor<3xf16>) -> tensor<3xf16>
  %14 = relay.fast_erf %h : (tensor<3xf16>) -> tensor<3xf16>
  // CHECK: relay.isnan %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xi1>
  %15 = relay.isnan %x : (tensor<2x?xf32>) -> tensor<2x?xi1>
  // CHECK: relay.isinf %{{.*}} : (tensor<3xf16>) -> tensor<3xi1>
  %16 = relay.isinf %h : (tensor<3xf16>) -> tensor<3xi1>
  // CHECK: relay.isfinite
  %17 = relay.isfinite %x : (tensor<2x?xf32>) -> tensor<2x?xi1>
  // CHECK: relay.acosh %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %18 = relay.acosh %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.asinh %{{.*}} : (tensor<3xf16>) -> tensor<3xf16>
  %19 = relay.asinh %h : (tensor<3xf16>) -> tensor<3xf16>
  // CHECK: relay.atanh
  %20 = relay.atanh %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}

// CHECK-LABEL: func.func @unary_numeric
func.func @unary_numeric(%x: tensor<4xf32>, %i: tensor<?xi32>, %u: tensor<4xui8>) {
  // CHECK: relay.abs %{{.*}} : (tensor<?xi32>) -> tensor<?xi32>
  %0 = relay.abs %i : (tensor<?xi32>) -> tensor<?xi32>
  // CHECK: relay.sign
  %1 = relay.sign %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: relay.ceil
  %2 = relay.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: relay.floor %{{.*}} : (tensor<4xui8>) -> tensor<4xui8>
  %3 = relay.floor %u : (tensor<4xui8>) -> tensor<4xui8>
  // CHECK: relay.round
  %4 = relay.round %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: relay.trunc
  %5 = relay.trunc %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: relay.clip %{{.*}} {a_max = 6.000000e+00 : f64, a_min = 0.000000e+00 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %6 = relay.clip %x {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: relay.negative %{{.*}} : (tensor<?xi32>) -> tensor<?xi32>
  %7 = relay.negative %i : (tensor<?xi32>) -> tensor<?xi32>
  // CHECK: relay.copy %{{.*}} : (tensor<4xui8>) -> tensor<4xui8>
  %8 = relay.copy %u : (tensor<4xui8>) -> tensor<4xui8>
  return
}

// CHECK-LABEL: func.func @unary_bits
func.func @unary_bits(%b: tensor<2x3xi1>, %i: tensor<3xi8>) {
  // CHECK: relay.logical_not %{{.*}} : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %0 = relay.logical_not %b : (tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: relay.bitwise_not %{{.*}} : (tensor<3xi8>) -> tensor<3xi8>
  %1 = relay.bitwise_not %i : (tensor<3xi8>) -> tensor<3xi8>
  // CHECK: relay.bitwise_not %{{.*}} : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %2 = relay.bitwise_not %b : (tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @casts
func.func @casts(%x: tensor<?x4xf32>, %i: tensor<2xi8>) {
  // CHECK: relay.cast %{{.*}} {dtype = i32} : (tensor<?x4xf32>) -> tensor<?x4xi32>
  %0 = relay.cast %x {dtype = i32} : (tensor<?x4xf32>) -> tensor<?x4xi32>
  // CHECK: relay.cast %{{.*}} {dtype = i1} : (tensor<2xi8>) -> tensor<2xi1>
  %1 = relay.cast %i {dtype = i1} : (tensor<2xi8>) -> tensor<2xi1>
  // The shape of `dtype_like` does not matter, only its dtype.
  // CHECK: relay.cast_like %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<2xi8>) -> tensor<?x4xi8>
  %2 = relay.cast_like %x, %i : (tensor<?x4xf32>, tensor<2xi8>) -> tensor<?x4xi8>
  return
}

// CHECK-LABEL: func.func @binary_more
func.func @binary_more(%a: tensor<4x1xi32>, %b: tensor<3xi32>, %f: tensor<?x3xf32>, %g: tensor<f32>) {
  // CHECK: relay.floor_divide %{{.*}}, %{{.*}} : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  %0 = relay.floor_divide %a, %b : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  // CHECK: relay.mod
  %1 = relay.mod %a, %b : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  // CHECK: relay.floor_mod %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  %2 = relay.floor_mod %f, %g : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  // CHECK: relay.trunc_divide %{{.*}}, %{{.*}} : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  %t0 = relay.trunc_divide %a, %b : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  // CHECK: relay.trunc_mod %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  %t1 = relay.trunc_mod %f, %g : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  // CHECK: relay.power
  %3 = relay.power %f, %g : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  // CHECK: relay.bitwise_and
  %4 = relay.bitwise_and %a, %b : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  // CHECK: relay.bitwise_or
  %5 = relay.bitwise_or %a, %b : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  // CHECK: relay.bitwise_xor
  %6 = relay.bitwise_xor %a, %b : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  // CHECK: relay.left_shift
  %7 = relay.left_shift %a, %b : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  // CHECK: relay.right_shift
  %8 = relay.right_shift %a, %b : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  return
}

// CHECK-LABEL: func.func @compare
func.func @compare(%a: tensor<4x1xf32>, %b: tensor<?xf32>, %p: tensor<4x1xi1>, %q: tensor<3xi1>) {
  // CHECK: relay.equal %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<?xf32>) -> tensor<4x?xi1>
  %0 = relay.equal %a, %b : (tensor<4x1xf32>, tensor<?xf32>) -> tensor<4x?xi1>
  // CHECK: relay.not_equal
  %1 = relay.not_equal %a, %b : (tensor<4x1xf32>, tensor<?xf32>) -> tensor<4x?xi1>
  // CHECK: relay.less
  %2 = relay.less %a, %b : (tensor<4x1xf32>, tensor<?xf32>) -> tensor<4x?xi1>
  // CHECK: relay.less_equal
  %3 = relay.less_equal %a, %b : (tensor<4x1xf32>, tensor<?xf32>) -> tensor<4x?xi1>
  // CHECK: relay.greater
  %4 = relay.greater %a, %b : (tensor<4x1xf32>, tensor<?xf32>) -> tensor<4x?xi1>
  // CHECK: relay.greater_equal %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  %5 = relay.greater_equal %p, %q : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: relay.logical_and %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  %6 = relay.logical_and %p, %q : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: relay.logical_or
  %7 = relay.logical_or %p, %q : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: relay.logical_xor
  %8 = relay.logical_xor %p, %q : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  return
}

// CHECK-LABEL: func.func @where
func.func @where(%c: tensor<4x1xi1>, %x: tensor<3xf32>, %y: tensor<f32>, %d: tensor<?x1xi32>) {
  // Three-way broadcast.
  // CHECK: relay.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %0 = relay.where %c, %x, %y : (tensor<4x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  // Any condition dtype (non-zero is true); `?` against 1 stays `?`.
  // CHECK: relay.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x1xi32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %1 = relay.where %d, %x, %x : (tensor<?x1xi32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return
}

// CHECK-LABEL: func.func @reinterpret
func.func @reinterpret(%x: tensor<2x?xf32>, %h: tensor<3xf16>, %u: tensor<2xui8>) {
  // CHECK: relay.reinterpret %{{.*}} {dtype = i32} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  %0 = relay.reinterpret %x {dtype = i32} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  // CHECK: relay.reinterpret %{{.*}} {dtype = i16} : (tensor<3xf16>) -> tensor<3xi16>
  %1 = relay.reinterpret %h {dtype = i16} : (tensor<3xf16>) -> tensor<3xi16>
  // CHECK: relay.reinterpret %{{.*}} {dtype = i8} : (tensor<2xui8>) -> tensor<2xi8>
  %2 = relay.reinterpret %u {dtype = i8} : (tensor<2xui8>) -> tensor<2xi8>
  return
}
