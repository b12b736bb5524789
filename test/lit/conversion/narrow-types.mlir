// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// The narrow dtypes beyond TVM (docs/quantization.md "Narrow element types"):
// int4/uint4/int2/uint2 live in i8 storage, the float8 types are themselves.

// CHECK-LABEL: func.func @float_to_int4
// CHECK-SAME: (%{{.+}}: tensor<4xf32>) -> tensor<4xi8>
func.func @float_to_int4(%x: tensor<4xf32>) -> tensor<4xi4> {
  // truncated towards zero, 0 outside [-8, 7] (NaN too): -9 < x < 8
  // CHECK: ^bb0(%[[A:.+]]: f32, %{{.+}}: i8):
  // CHECK: %[[LO:.+]] = arith.constant -9.000000e+00 : f32
  // CHECK: %[[GT:.+]] = arith.cmpf ogt, %[[A]], %[[LO]] : f32
  // CHECK: %[[HI:.+]] = arith.constant 8.000000e+00 : f32
  // CHECK: %[[LT:.+]] = arith.cmpf olt, %[[A]], %[[HI]] : f32
  // CHECK: %[[IN:.+]] = arith.andi %[[GT]], %[[LT]] : i1
  // CHECK: %[[S:.+]] = arith.select %[[IN]], %[[A]], %{{.+}} : f32
  // CHECK: %[[Q:.+]] = arith.fptosi %[[S]] : f32 to i8
  // CHECK: linalg.yield %[[Q]] : i8
  %y = relay.cast %x {dtype = i4} : (tensor<4xf32>) -> tensor<4xi4>
  return %y : tensor<4xi4>
}

// CHECK-LABEL: func.func @int_to_uint2
func.func @int_to_uint2(%x: tensor<4xi32>) -> tensor<4xui2> {
  // an integer wraps to the low 2 bits, zero-extended in the i8
  // CHECK: %[[T:.+]] = arith.trunci %{{.+}} : i32 to i8
  // CHECK: %[[SIX:.+]] = arith.constant 6 : i8
  // CHECK: %[[H:.+]] = arith.shli %[[T]], %[[SIX]] : i8
  // CHECK: %[[R:.+]] = arith.shrui %[[H]], %[[SIX]] : i8
  // CHECK: linalg.yield %[[R]] : i8
  %y = relay.cast %x {dtype = ui2} : (tensor<4xi32>) -> tensor<4xui2>
  return %y : tensor<4xui2>
}

// CHECK-LABEL: func.func @uint4_to_float
func.func @uint4_to_float(%x: tensor<4xui4>) -> tensor<4xf32> {
  // CHECK: arith.uitofp %{{.+}} : i8 to f32
  %y = relay.cast %x {dtype = f32} : (tensor<4xui4>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @int4_constant
func.func @int4_constant() -> (tensor<3xi4>, tensor<2xui4>) {
  // sign- and zero-extended into their i8 storage
  // CHECK-DAG: arith.constant dense<[-8, 7, -1]> : tensor<3xi8>
  // CHECK-DAG: arith.constant dense<[15, 1]> : tensor<2xi8>
  %a = relay.constant dense<[-8, 7, -1]> : tensor<3xi4>
  %b = relay.constant dense<[15, 1]> : tensor<2xui4>
  return %a, %b : tensor<3xi4>, tensor<2xui4>
}

// CHECK-LABEL: func.func @float8_casts
func.func @float8_casts(%x: tensor<4xf16>, %i: tensor<4xi32>) -> (tensor<4xf8E4M3FN>, tensor<4xf8E5M2FNUZ>, tensor<4xi8>, tensor<4xf8E5M2>) {
  // float -> float8: arith.truncf from f32 (round to nearest even, no
  // saturation; f16 -> f32 is exact)
  // (math.copysign(w, w) == w keeps canonicalization from folding the pair)
  // CHECK: %[[H:.+]] = arith.extf %{{.+}} : f16 to f32
  // CHECK: %[[K:.+]] = math.copysign %[[H]], %[[H]] : f32
  // CHECK: arith.truncf %[[K]] : f32 to f8E4M3FN
  %a = relay.cast %x {dtype = f8E4M3FN} : (tensor<4xf16>) -> tensor<4xf8E4M3FN>
  // float8 -> float8 of another format: through f32
  // CHECK: %[[W:.+]] = arith.extf %{{.+}} : f8E4M3FN to f32
  // CHECK: arith.truncf %[[W]] : f32 to f8E5M2FNUZ
  %b = relay.cast %a {dtype = f8E5M2FNUZ} : (tensor<4xf8E4M3FN>) -> tensor<4xf8E5M2FNUZ>
  // float8 -> integer: extended to f32 first
  // CHECK: %[[W2:.+]] = arith.extf %{{.+}} : f8E5M2FNUZ to f32
  // CHECK: arith.fptosi %[[W2]] : f32 to i8
  %c = relay.cast %b {dtype = i8} : (tensor<4xf8E5M2FNUZ>) -> tensor<4xi8>
  // integer -> float8: through f32
  // CHECK: %[[F:.+]] = arith.sitofp %{{.+}} : i32 to f32
  // CHECK: %[[G:.+]] = math.copysign %[[F]], %[[F]] : f32
  // CHECK: arith.truncf %[[G]] : f32 to f8E5M2
  %d = relay.cast %i {dtype = f8E5M2} : (tensor<4xi32>) -> tensor<4xf8E5M2>
  return %a, %b, %c, %d : tensor<4xf8E4M3FN>, tensor<4xf8E5M2FNUZ>, tensor<4xi8>, tensor<4xf8E5M2>
}

// CHECK-LABEL: func.func @narrow_data_movement
// CHECK-SAME: tensor<2x3xi8>
func.func @narrow_data_movement(%x: tensor<2x3xi4>) -> tensor<3x2xi4> {
  // CHECK: linalg.transpose
  %y = relay.transpose %x {axes = array<i64: 1, 0>} : (tensor<2x3xi4>) -> tensor<3x2xi4>
  return %y : tensor<3x2xi4>
}

// CHECK-LABEL: func.func @float8_e8m0
func.func @float8_e8m0(%x: tensor<4xf32>, %y: tensor<4xf8E8M0FNU>) -> (tensor<4xf8E8M0FNU>, tensor<4xf32>) {
  // to e8m0: arith.truncf (IREE takes the exponent of |x|: rounds down)
  // CHECK: arith.truncf %{{.+}} : f32 to f8E8M0FNU
  %a = relay.cast %x {dtype = f8E8M0FNU} : (tensor<4xf32>) -> tensor<4xf8E8M0FNU>
  // from e8m0: the byte 0 is 2^-127 (IREE's extf gives 0)
  // CHECK: ^bb0(%[[E:.+]]: f8E8M0FNU, %{{.+}}: f32):
  // CHECK: %[[W:.+]] = arith.extf %[[E]] : f8E8M0FNU to f32
  // CHECK: %[[B:.+]] = arith.bitcast %[[E]] : f8E8M0FNU to i8
  // CHECK: %[[Z:.+]] = arith.cmpi eq, %[[B]], %{{.+}} : i8
  // CHECK: %[[T:.+]] = arith.constant 5.87747175E-39 : f32
  // CHECK: arith.select %[[Z]], %[[T]], %[[W]] : f32
  %b = relay.cast %y {dtype = f32} : (tensor<4xf8E8M0FNU>) -> tensor<4xf32>
  return %a, %b : tensor<4xf8E8M0FNU>, tensor<4xf32>
}
