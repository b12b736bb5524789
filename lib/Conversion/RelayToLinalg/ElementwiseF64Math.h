//===- ElementwiseF64Math.h - float64 expansions of math fns ----*- C++ -*-===//
//
// IREE's llvm-cpu backend has no float64 tanh, sin, cos, tan, asin, acos,
// atan, log2 or erf: math.erf does not legalize and the others become libm
// calls the executable cannot link. These build the scalar body from ops it
// does compile for f64 (arith, math.exp, math.log, math.sqrt, math.absf,
// math.copysign); each takes and returns an f64 value.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_ELEMENTWISEF64MATH_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_ELEMENTWISEF64MATH_H

#include "mlir/IR/Builders.h"

namespace mlir::relay::lowering {

Value tanhF64(OpBuilder &b, Location loc, Value x);
Value sinF64(OpBuilder &b, Location loc, Value x);
Value cosF64(OpBuilder &b, Location loc, Value x);
Value tanF64(OpBuilder &b, Location loc, Value x);
Value atanF64(OpBuilder &b, Location loc, Value x);
Value asinF64(OpBuilder &b, Location loc, Value x);
Value acosF64(OpBuilder &b, Location loc, Value x);
Value log2F64(OpBuilder &b, Location loc, Value x);
Value erfF64(OpBuilder &b, Location loc, Value x);

} // namespace mlir::relay::lowering

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_ELEMENTWISEF64MATH_H
