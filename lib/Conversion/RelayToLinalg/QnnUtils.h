//===- QnnUtils.h - helpers shared by the qnn lowerings ---------*- C++ -*-===//
//
// Defined in Qnn.cpp; used by Qnn.cpp (quantize, requantize, contractions,
// add/mul), QnnComposite.cpp (concatenate, avg_pool2d, conv2d_transpose,
// leaky_relu, softmax), QnnLookup.cpp (the unary ops' tables) and
// QnnSimulated.cpp (fixed_point_multiply*, qnn.simulated_*).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_QNNUTILS_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_QNNUTILS_H

#include "Utils.h"

#include <optional>

namespace mlir::relay::qnn_lowering {

/// The values a (relay) integer element type holds.
std::pair<int64_t, int64_t> rangeOf(Type relayElement);
/// An integer `x` of relay element type `from` resized to the signless `to`.
Value resizeInt(OpBuilder &b, Location loc, Value x, Type from, IntegerType to);

/// TVM's fixed-point form of a multiplier: a Q31 mantissa and a shift.
struct FixedPoint {
  int64_t mantissa;
  int64_t shift;
};
FixedPoint fixedPointOf(double multiplier);
/// The float32 values of a constant 0-d or 1-D scale, or nothing.
std::optional<SmallVector<float>> constantScales(Value scale);
/// ((x << left) * mantissa + rounding) >> right in int64, truncated to
/// int32 (i64 `mantissa`, `left`, `right`); UPWARD or TONEAREST.
Value fixedPointMultiply(OpBuilder &b, Location l, Value x32, Value mantissa,
                         Value left, Value right, bool upward);

/// int32 `v` clipped to relay integer type `out`'s range and narrowed to it
/// (int32 is not clipped: TVM does not).
Value clipToDtype(OpBuilder &b, Location l, Value v, Type out);

/// A 0-d relay.constant.
Value relayScalar(OpBuilder &b, Location loc, Type element, Attribute value);
/// `element`(x) - zp (zp 0-d or along `axis`), as relay ops.
Value shifted(OpBuilder &b, Location loc, Value x, Value zp, int64_t axis,
              Type element);
/// An int32 `v` clipped to relay integer dtype `out` (not int32) and cast.
Value clipCast(OpBuilder &b, Location loc, Value v, Type out);

} // namespace mlir::relay::qnn_lowering

namespace mlir::relay {
void populateQnnCompositePatterns(const TypeConverter &typeConverter,
                                  RewritePatternSet &patterns);
void populateQnnLookupPatterns(const TypeConverter &typeConverter,
                               RewritePatternSet &patterns);
void populateQnnSimulatedPatterns(const TypeConverter &typeConverter,
                                  RewritePatternSet &patterns);
} // namespace mlir::relay

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_QNNUTILS_H
