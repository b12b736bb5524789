// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[X:.+]]: tensor<4x1xf32>, %[[Y:.+]]: tensor<3xf32>)
func.func @add_broadcast(%x: tensor<4x1xf32>, %y: tensor<3xf32>) -> tensor<4x3xf32> {
  // A broadcast operand's size-1 dims are collapsed away: every map is a
  // projected permutation (a map reading index 0 fuses worse in IREE).
  // CHECK: %[[XC:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<4x3xf32>
  // CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
  // CHECK-SAME: ins(%[[XC]], %[[Y]] : tensor<4xf32>, tensor<3xf32>) outs(%[[E]] : tensor<4x3xf32>)
  // CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
  // CHECK:   %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
  // CHECK:   linalg.yield %[[S]] : f32
  %z = relay.add %x, %y : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: return %[[R]]
  return %z : tensor<4x3xf32>
}

// A bias folded to 1x1x1xC (CanonicalizeOps' expand_dims + FoldConstant) reads
// as the plain bias_add's (C) operand; a size-1 result dim does not keep it.
// CHECK-LABEL: func.func @add_bias_nhwc
func.func @add_bias_nhwc(%x: tensor<1x5x5x8xf32>, %b: tensor<1x1x1x8xf32>) -> tensor<1x5x5x8xf32> {
  // CHECK: %[[BC:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1, 2, 3]] : tensor<1x1x1x8xf32> into tensor<8xf32>
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%{{.+}}, %[[BC]] : tensor<1x5x5x8xf32>, tensor<8xf32>)
  %z = relay.add %x, %b : (tensor<1x5x5x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x5x5x8xf32>
  return %z : tensor<1x5x5x8xf32>
}

// Every dim broadcasts: a rank-0 operand.
// CHECK-LABEL: func.func @add_unit_tensor
func.func @add_unit_tensor(%x: tensor<2x3xf32>, %s: tensor<1x1xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[SC:.+]] = tensor.collapse_shape %{{.+}} [] : tensor<1x1xf32> into tensor<f32>
  // CHECK: linalg.generic {{.+}} ins(%{{.+}}, %[[SC]] : tensor<2x3xf32>, tensor<f32>)
  %z = relay.add %x, %s : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  return %z : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @binary_float
func.func @binary_float(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: arith.subf
  %0 = relay.subtract %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.mulf
  %1 = relay.multiply %0, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.divf
  %2 = relay.divide %1, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.maximumf
  %3 = relay.maximum %2, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.minimumf
  %4 = relay.minimum %3, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

// Integer division truncates, as in Relay.
// CHECK-LABEL: func.func @binary_int
func.func @binary_int(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: arith.addi
  %0 = relay.add %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.subi
  %1 = relay.subtract %0, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.muli
  %2 = relay.multiply %1, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.divsi
  %3 = relay.divide %2, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.maxsi
  %4 = relay.maximum %3, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.minsi
  %5 = relay.minimum %4, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %[[Z:.+]] = arith.constant 0 : i32
  // CHECK: arith.subi %[[Z]], %{{.+}} : i32
  %6 = relay.negative %5 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.maxsi %{{.+}}, %{{.+}} : i32
  %7 = relay.nn.relu %6 : (tensor<4xi32>) -> tensor<4xi32>
  return %7 : tensor<4xi32>
}

// Unsigned tensors become signless; the ops pick the unsigned form.
// CHECK-LABEL: func.func @binary_uint
// CHECK-SAME: (%{{.+}}: tensor<4xi8>, %{{.+}}: tensor<4xi8>) -> tensor<4xi8>
func.func @binary_uint(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  // CHECK: arith.divui
  %0 = relay.divide %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: arith.maxui
  %1 = relay.maximum %0, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %1 : tensor<4xui8>
}

// CHECK-LABEL: func.func @unary_float
func.func @unary_float(%x: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: arith.negf
  %0 = relay.negative %x : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.exp
  %1 = relay.exp %0 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.log
  %2 = relay.log %1 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.sqrt
  %3 = relay.sqrt %2 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.tanh
  %4 = relay.tanh %3 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: linalg.generic
  // CHECK: ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
  // CHECK:   %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
  // CHECK:   %[[N:.+]] = arith.negf %[[A]] : f32
  // CHECK:   %[[E:.+]] = math.exp %[[N]] : f32
  // CHECK:   %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
  // CHECK:   %[[S:.+]] = arith.divf %[[ONE]], %[[D]] : f32
  // CHECK:   linalg.yield %[[S]]
  %5 = relay.sigmoid %4 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: ^bb0(%[[B:.+]]: f32, %{{.+}}: f32):
  // CHECK:   %[[Z:.+]] = arith.constant 0.000000e+00 : f32
  // CHECK:   %[[M:.+]] = arith.maximumf %[[B]], %[[Z]] : f32
  %6 = relay.nn.relu %5 : (tensor<8xf32>) -> tensor<8xf32>
  return %6 : tensor<8xf32>
}

// `?` dims of one origin (%x and a value computed from it) are equal at
// run time (SymbolicSizes.h): plain indexing maps, no checks.
// CHECK-LABEL: func.func @dynamic_same_origin
// CHECK-NOT: cf.assert
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]], #[[ID2]]]
// CHECK: arith.mulf
func.func @dynamic_same_origin(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %t = relay.tanh %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %z = relay.multiply %x, %t : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %z : tensor<?x4xf32>
}

// `?` dims of different origins may be 1 at run time and broadcast (numpy
// and Relay): the result size is computed, each size checked to be 1 or
// the result's, and both operands read at select(size == 1, 0, i).
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x4xf32>, %[[Y:.+]]: tensor<?x1xf32>)
func.func @dynamic(%x: tensor<?x4xf32>, %y: tensor<?x1xf32>) -> tensor<?x4xf32> {
  // CHECK-DAG: %[[DX:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4xf32>
  // CHECK-DAG: %[[DY:.+]] = tensor.dim %[[Y]], %{{.+}} : tensor<?x1xf32>
  // CHECK: %[[X1:.+]] = arith.cmpi eq, %[[DX]], %{{.+}} : index
  // CHECK: %[[N:.+]] = arith.select %[[X1]], %[[DY]], %[[DX]] : index
  // CHECK: cf.assert %{{.+}}, "relay.multiply: the sizes of axis 0 do not broadcast (each must be 1 or the same)
  // CHECK: cf.assert %{{.+}}, "relay.multiply: the sizes of axis 0 do not broadcast
  // CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
  // CHECK: linalg.generic
  // CHECK-SAME: outs(%[[E]] : tensor<?x4xf32>)
  // CHECK: arith.select
  // CHECK: tensor.extract %[[X]]
  // CHECK: arith.select
  // CHECK: tensor.extract %[[Y]]
  // CHECK: arith.mulf
  %z = relay.multiply %x, %y : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  return %z : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @dynamic_unary
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>)
func.func @dynamic_unary(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // CHECK-DAG: %[[D0:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?xf32>
  // CHECK-DAG: %[[D1:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?xf32>
  // CHECK: tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
  // CHECK: math.tanh
  %y = relay.tanh %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// Scalars broadcast against tensors; rank-0 operands read with an empty map.
// CHECK-LABEL: func.func @scalar_operand
func.func @scalar_operand(%x: tensor<2x2xf32>, %s: tensor<f32>) -> tensor<2x2xf32> {
  // CHECK: linalg.generic {indexing_maps = [#[[ID2]], #{{.+}}, #[[ID2]]]
  // CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<2x2xf32>, tensor<f32>)
  %z = relay.subtract %x, %s : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %z : tensor<2x2xf32>
}

// Math functions on floats: one math op per row.
// CHECK-LABEL: func.func @unary_math
func.func @unary_math(%x: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: math.log2
  %0 = relay.log2 %x : (tensor<8xf32>) -> tensor<8xf32>
  // log10 is ln(x) * (1 / ln 10) (no libm call).
  // CHECK: %[[LN:.+]] = math.log
  // CHECK: arith.mulf %[[LN]], %{{.+}} : f32
  %1 = relay.log10 %0 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.rsqrt
  %2 = relay.rsqrt %1 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.sin
  %3 = relay.sin %2 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.cos
  %4 = relay.cos %3 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.tan
  %5 = relay.tan %4 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.asin
  %6 = relay.asin %5 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.acos
  %7 = relay.acos %6 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.atan
  %8 = relay.atan %7 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.sinh
  %9 = relay.sinh %8 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.cosh
  %10 = relay.cosh %9 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.erf
  %11 = relay.erf %10 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.exp
  %12 = relay.fast_exp %11 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.tanh
  %13 = relay.fast_tanh %12 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.erf
  %14 = relay.fast_erf %13 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.ceil
  %15 = relay.ceil %14 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.floor
  %16 = relay.floor %15 : (tensor<8xf32>) -> tensor<8xf32>
  // Relay's round is TVM's: halves away from zero (math.round, not math.roundeven).
  // CHECK-NOT: math.roundeven
  // CHECK: math.round %
  %17 = relay.round %16 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.trunc
  %18 = relay.trunc %17 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.absf
  %19 = relay.abs %18 : (tensor<8xf32>) -> tensor<8xf32>
  return %19 : tensor<8xf32>
}

// On f64 these math ops would not compile in IREE's llvm-cpu (libm calls,
// no math.erf lowering): they are expanded into arith and math ops it does
// compile (exp, log, sqrt, absf, copysign).
// CHECK-LABEL: func.func @unary_math_f64
// CHECK-NOT: math.{{tanh|sin|cos|tan|asin|acos|atan|log2|erf}}
// CHECK: return
func.func @unary_math_f64(%x: tensor<8xf64>) -> tensor<8xf64> {
  %0 = relay.tanh %x : (tensor<8xf64>) -> tensor<8xf64>
  %1 = relay.fast_tanh %0 : (tensor<8xf64>) -> tensor<8xf64>
  %2 = relay.sin %1 : (tensor<8xf64>) -> tensor<8xf64>
  %3 = relay.cos %2 : (tensor<8xf64>) -> tensor<8xf64>
  %4 = relay.tan %3 : (tensor<8xf64>) -> tensor<8xf64>
  %5 = relay.asin %4 : (tensor<8xf64>) -> tensor<8xf64>
  %6 = relay.acos %5 : (tensor<8xf64>) -> tensor<8xf64>
  %7 = relay.atan %6 : (tensor<8xf64>) -> tensor<8xf64>
  %8 = relay.log2 %7 : (tensor<8xf64>) -> tensor<8xf64>
  %9 = relay.erf %8 : (tensor<8xf64>) -> tensor<8xf64>
  %10 = relay.fast_erf %9 : (tensor<8xf64>) -> tensor<8xf64>
  return %10 : tensor<8xf64>
}

// f64 tanh: polynomial below |x| = 0.3, else (1 - t) / (1 + t) with
// t = exp(-2|x|) and the sign of x.
// CHECK-LABEL: func.func @tanh_f64
// CHECK: ^bb0(%[[A:.+]]: f64, %{{.+}}: f64):
// CHECK-DAG: %[[ABS:.+]] = math.absf %[[A]] : f64
// CHECK-DAG: math.exp %{{.+}} : f64
// CHECK-DAG: math.copysign %{{.+}}, %[[A]] : f64
// CHECK-DAG: arith.cmpf olt, %[[ABS]], %{{.+}} : f64
// CHECK-NOT: math.tanh
// CHECK: linalg.yield
func.func @tanh_f64(%x: tensor<8xf64>) -> tensor<8xf64> {
  %0 = relay.tanh %x : (tensor<8xf64>) -> tensor<8xf64>
  return %0 : tensor<8xf64>
}

// sign keeps +-0 and NaN: select(x > 0, 1, select(x < 0, -1, x)).
// CHECK-LABEL: func.func @sign_f16
func.func @sign_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  // CHECK: ^bb0(%[[A:.+]]: f16, %{{.+}}: f16):
  // CHECK-DAG: %[[GT:.+]] = arith.cmpf ogt, %[[A]]
  // CHECK-DAG: %[[LT:.+]] = arith.cmpf olt, %[[A]]
  // CHECK: %[[N:.+]] = arith.select %[[LT]], %{{.+}}, %[[A]] : f16
  // CHECK: %[[S:.+]] = arith.select %[[GT]], %{{.+}}, %[[N]] : f16
  // CHECK: linalg.yield %[[S]]
  %0 = relay.sign %x : (tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// Integer forms: rounding is the identity, abs is math.absi.
// CHECK-LABEL: func.func @unary_int
func.func @unary_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: linalg.generic
  // CHECK: ^bb0(%[[A:.+]]: i32, %{{.+}}: i32):
  // CHECK-NEXT: linalg.yield %[[A]] : i32
  %0 = relay.floor %x : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: math.absi
  %1 = relay.abs %0 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.cmpi sgt
  // CHECK: arith.cmpi slt
  %2 = relay.sign %1 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %[[ONES:.+]] = arith.constant -1 : i32
  // CHECK: arith.xori %{{.+}}, %[[ONES]] : i32
  %3 = relay.bitwise_not %2 : (tensor<4xi32>) -> tensor<4xi32>
  return %3 : tensor<4xi32>
}

// Float tests give i1 tensors.
// CHECK-LABEL: func.func @float_tests
func.func @float_tests(%x: tensor<?xf32>) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  // CHECK: tensor.empty(%{{.+}}) : tensor<?xi1>
  // CHECK: ^bb0(%[[A:.+]]: f32, %{{.+}}: i1):
  // CHECK: arith.cmpf uno, %[[A]], %[[A]] : f32
  %0 = relay.isnan %x : (tensor<?xf32>) -> tensor<?xi1>
  // CHECK: math.absf
  // CHECK: arith.cmpf oeq
  %1 = relay.isinf %x : (tensor<?xf32>) -> tensor<?xi1>
  // CHECK: math.absf
  // CHECK: arith.cmpf olt
  %2 = relay.isfinite %x : (tensor<?xf32>) -> tensor<?xi1>
  // CHECK: %[[NOT:.+]] = linalg.generic
  // CHECK: %[[T:.+]] = arith.constant true
  // CHECK: arith.xori %{{.+}}, %[[T]] : i1
  %3 = relay.logical_not %2 : (tensor<?xi1>) -> tensor<?xi1>
  return %0, %1, %3 : tensor<?xi1>, tensor<?xi1>, tensor<?xi1>
}

// Comparisons broadcast like the arithmetic ops and yield i1; the
// predicate follows the operands' dtype (signed, unsigned, float).
// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[X:.+]]: tensor<4x1xf32>, %[[Y:.+]]: tensor<3xf32>
func.func @compare(%x: tensor<4x1xf32>, %y: tensor<3xf32>, %i: tensor<3xi32>, %u: tensor<3xui8>) -> (tensor<4x3xi1>, tensor<3xi1>, tensor<3xi1>) {
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<4x3xi1>
  // CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
  // CHECK-SAME: ins(%{{.+}}, %[[Y]] : tensor<4xf32>, tensor<3xf32>) outs(%[[E]] : tensor<4x3xi1>)
  // CHECK: arith.cmpf olt
  %0 = relay.less %x, %y : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: arith.cmpi sge
  %1 = relay.greater_equal %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  // CHECK: arith.cmpi ugt
  %2 = relay.greater %u, %u : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  return %0, %1, %2 : tensor<4x3xi1>, tensor<3xi1>, tensor<3xi1>
}

// CHECK-LABEL: func.func @compare_float_predicates
func.func @compare_float_predicates(%x: tensor<2xf32>) -> tensor<2xi1> {
  // CHECK: arith.cmpf oeq
  %0 = relay.equal %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  // CHECK: arith.cmpf une
  %1 = relay.not_equal %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  // CHECK: arith.cmpf ole
  %2 = relay.less_equal %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  // CHECK: arith.cmpf ogt
  %3 = relay.greater %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  // CHECK: arith.andi
  %4 = relay.logical_and %0, %1 : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  // CHECK: arith.ori
  %5 = relay.logical_or %4, %2 : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  // CHECK: arith.xori
  %6 = relay.logical_xor %5, %3 : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %6 : tensor<2xi1>
}

// Integer division family and bits.
// CHECK-LABEL: func.func @binary_int_more
func.func @binary_int_more(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: arith.floordivsi
  %0 = relay.floor_divide %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.remsi
  %1 = relay.mod %0, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // floor_mod: r = x rem y, plus y when r != 0 and r, y differ in sign.
  // CHECK: ^bb0(%[[A:.+]]: i32, %[[B:.+]]: i32, %{{.+}}: i32):
  // CHECK: %[[R:.+]] = arith.remsi %[[A]], %[[B]] : i32
  // CHECK: %[[NZ:.+]] = arith.cmpi ne, %[[R]]
  // CHECK: %[[XOR:.+]] = arith.xori %[[R]], %[[B]] : i32
  // CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[XOR]]
  // CHECK: %[[FIX:.+]] = arith.andi %[[NZ]], %[[NEG]] : i1
  // CHECK: %[[SUM:.+]] = arith.addi %[[R]], %[[B]] : i32
  // CHECK: arith.select %[[FIX]], %[[SUM]], %[[R]] : i32
  %2 = relay.floor_mod %1, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.andi
  %3 = relay.bitwise_and %2, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.ori
  %4 = relay.bitwise_or %3, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.xori
  %5 = relay.bitwise_xor %4, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.shli
  %6 = relay.left_shift %5, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.shrsi
  %7 = relay.right_shift %6, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %7 : tensor<4xi32>
}

// CHECK-LABEL: func.func @binary_uint_more
func.func @binary_uint_more(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  // CHECK: arith.divui
  %0 = relay.floor_divide %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: arith.remui
  %1 = relay.floor_mod %0, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: arith.shrui
  %2 = relay.right_shift %1, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %2 : tensor<4xui8>
}

// CHECK-LABEL: func.func @binary_float_more
func.func @binary_float_more(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[Q:.+]] = arith.divf
  // CHECK: math.floor %[[Q]]
  %0 = relay.floor_divide %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: arith.remf
  %1 = relay.mod %0, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // floor_mod: x - floor(x / y) * y
  // CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
  // CHECK: %[[D:.+]] = arith.divf %[[A]], %[[B]]
  // CHECK: %[[F:.+]] = math.floor %[[D]]
  // CHECK: %[[M:.+]] = arith.mulf %[[F]], %[[B]]
  // CHECK: arith.subf %[[A]], %[[M]]
  %2 = relay.floor_mod %1, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: math.powf
  %3 = relay.power %2, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// TVM's trunc_divide / trunc_mod: C's division and remainder on integers,
// trunc(x / y) and fmod on floats.
// CHECK-LABEL: func.func @trunc_div_mod
func.func @trunc_div_mod(%x: tensor<4xi32>, %y: tensor<4xi32>, %u: tensor<4xui8>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xui8>, tensor<4xf32>) {
  // CHECK: arith.divsi
  %0 = relay.trunc_divide %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.remsi
  %1 = relay.trunc_mod %0, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.divui
  %2 = relay.trunc_divide %u, %u : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: arith.remui
  %3 = relay.trunc_mod %2, %u : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
  // CHECK: %[[Q:.+]] = arith.divf %[[A]], %[[B]]
  // CHECK: math.trunc %[[Q]]
  %4 = relay.trunc_divide %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: arith.remf
  %5 = relay.trunc_mod %4, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1, %3, %5 : tensor<4xi32>, tensor<4xui8>, tensor<4xf32>
}

// acosh, asinh, atanh: log/sqrt expansions through an accurate log1p (no
// math.acosh/asinh/atanh, which IREE's llvm-cpu cannot lower).
// CHECK-LABEL: func.func @inverse_hyperbolic
func.func @inverse_hyperbolic(%x: tensor<4xf64>) -> tensor<4xf64> {
  // CHECK-NOT: math.{{acosh|asinh|atanh}}
  // CHECK: math.sqrt
  // CHECK: math.log
  %0 = relay.acosh %x : (tensor<4xf64>) -> tensor<4xf64>
  // CHECK: math.copysign
  %1 = relay.asinh %0 : (tensor<4xf64>) -> tensor<4xf64>
  // atanh(x) = sign(x) * 0.5 * log1p(2a / (1 - a)), a = |x|
  // CHECK: ^bb0(%[[X:.+]]: f64, %{{.+}}: f64):
  // CHECK: %[[A:.+]] = math.absf %[[X]] : f64
  // CHECK: %[[OM:.+]] = arith.subf %{{.+}}, %[[A]] : f64
  // CHECK: %[[TWO:.+]] = arith.addf %[[A]], %[[A]] : f64
  // CHECK: arith.divf %[[TWO]], %[[OM]] : f64
  // CHECK: math.log
  // CHECK: math.copysign %{{.+}}, %[[X]] : f64
  // CHECK-NOT: math.{{acosh|asinh|atanh}}
  %2 = relay.atanh %1 : (tensor<4xf64>) -> tensor<4xf64>
  return %2 : tensor<4xf64>
}

// clip: max(min(x, a_max), a_min); integer bounds truncate towards zero.
// CHECK-LABEL: func.func @clip
func.func @clip(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  // CHECK: %[[HI:.+]] = arith.constant 6.000000e+00 : f32
  // CHECK: %[[MIN:.+]] = arith.minimumf %{{.+}}, %[[HI]] : f32
  // CHECK: %[[LO:.+]] = arith.constant 0.000000e+00 : f32
  // CHECK: arith.maximumf %[[MIN]], %[[LO]] : f32
  %0 = relay.clip %x {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  // Saturated to i8: [-1000, 2.9] acts as [-128, 2].
  // CHECK-DAG: %[[IHI:.+]] = arith.constant 2 : i8
  // CHECK-DAG: %[[ILO:.+]] = arith.constant -128 : i8
  // CHECK: %[[IMIN:.+]] = arith.minsi %{{.+}}, %[[IHI]] : i8
  // CHECK: arith.maxsi %[[IMIN]], %[[ILO]] : i8
  %1 = relay.clip %i {a_min = -1000.0 : f64, a_max = 2.9 : f64} : (tensor<4xi8>) -> tensor<4xi8>
  return %0, %1 : tensor<4xf32>, tensor<4xi8>
}

// cast picks the arith conversion from the two dtypes.
// CHECK-LABEL: func.func @cast
func.func @cast(%x: tensor<?x4xf32>, %i: tensor<4xi8>, %u: tensor<4xui8>, %b: tensor<4xi1>) -> (tensor<?x4xi32>, tensor<?x4xf16>, tensor<?x4xi1>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  // CHECK: tensor.empty(%{{.+}}) : tensor<?x4xi32>
  // CHECK: arith.fptosi %{{.+}} : f32 to i32
  %0 = relay.cast %x {dtype = i32} : (tensor<?x4xf32>) -> tensor<?x4xi32>
  // CHECK: arith.truncf %{{.+}} : f32 to f16
  %1 = relay.cast %x {dtype = f16} : (tensor<?x4xf32>) -> tensor<?x4xf16>
  // CHECK: arith.cmpf une
  %2 = relay.cast %x {dtype = i1} : (tensor<?x4xf32>) -> tensor<?x4xi1>
  // CHECK: arith.extsi %{{.+}} : i8 to i32
  %3 = relay.cast %i {dtype = i32} : (tensor<4xi8>) -> tensor<4xi32>
  // CHECK: arith.uitofp %{{.+}} : i8 to f32
  %4 = relay.cast %u {dtype = f32} : (tensor<4xui8>) -> tensor<4xf32>
  // CHECK: arith.extui %{{.+}} : i1 to i32
  %5 = relay.cast %b {dtype = i32} : (tensor<4xi1>) -> tensor<4xi32>
  // cast_like reads only `data`.
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%{{.+}} : tensor<4xi8>)
  // CHECK: arith.sitofp %{{.+}} : i8 to f32
  %6 = relay.cast_like %i, %x : (tensor<4xi8>, tensor<?x4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<?x4xi32>, tensor<?x4xf16>, tensor<?x4xi1>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}

// where: one linalg.generic over the three-way broadcast, no materialised
// broadcast; non-bool conditions compare with 0.
// CHECK-LABEL: func.func @where
// CHECK-SAME: (%[[C:.+]]: tensor<4x1xi1>, %[[X:.+]]: tensor<3xf32>, %[[Y:.+]]: tensor<f32>, %[[D:.+]]: tensor<?x1xi32>)
func.func @where(%c: tensor<4x1xi1>, %x: tensor<3xf32>, %y: tensor<f32>, %d: tensor<?x1xi32>) -> (tensor<4x3xf32>, tensor<?x3xf32>) {
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<4x3xf32>
  // CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #{{.+}}, #[[ID2]]]
  // CHECK-SAME: ins(%{{.+}}, %[[X]], %[[Y]] : tensor<4xi1>, tensor<3xf32>, tensor<f32>) outs(%[[E]] : tensor<4x3xf32>)
  // CHECK: ^bb0(%[[P:.+]]: i1, %[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
  // CHECK: arith.select %[[P]], %[[A]], %[[B]] : f32
  %0 = relay.where %c, %x, %y : (tensor<4x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  // CHECK: tensor.dim %[[D]]
  // CHECK: arith.cmpi ne
  // CHECK: arith.select
  %1 = relay.where %d, %x, %x : (tensor<?x1xi32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1 : tensor<4x3xf32>, tensor<?x3xf32>
}

// relay.copy is an identity generic writing a fresh tensor.
// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[CP_X:[a-z0-9_]+]]: tensor<?x4xf32>)
// CHECK: %[[CP_D:.+]] = tensor.dim %[[CP_X]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[CP_E:.+]] = tensor.empty(%[[CP_D]]) : tensor<?x4xf32>
// CHECK: %[[CP_G:.+]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[CP_X]] : tensor<?x4xf32>) outs(%[[CP_E]] : tensor<?x4xf32>)
// CHECK-NEXT: ^bb0(%[[CP_IN:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT: linalg.yield %[[CP_IN]] : f32
// CHECK: return %[[CP_G]] : tensor<?x4xf32>
func.func @copy(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = relay.copy %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @reinterpret
func.func @reinterpret(%x: tensor<4xf32>) -> tensor<4xi32> {
  // CHECK: linalg.generic
  // CHECK:   arith.bitcast %in : f32 to i32
  %0 = relay.reinterpret %x {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
