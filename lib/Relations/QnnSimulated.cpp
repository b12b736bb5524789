//===- QnnSimulated.cpp - fixed_point_multiply*, qnn.simulated_* ----------===//
//
// Typing rules of TVM 0.19's fixed-point multiplies (relay.quantize's
// realize) and of its simulated quantize/dequantize (float in, float out,
// the dtype a run-time code). TVM's own relations accept more than its
// compiled code runs (fixed_point_multiply of int8 data type-checks, then
// fails: "compute.dtype is expected to be int32"; a per-axis multiplier
// shorter than its axis reads out of bounds): these rules refuse it here,
// where the op is written.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// `data` as a ranked tensor of int32 or int64 (what TVM 0.19's
/// q_multiply_shift runs on: int32, or the int64 that relay.quantize's
/// realize casts to before it; other dtypes type-check in TVM, then fail).
static FailureOr<RankedTensorType> fixedPointData(ErrorSite site, Value data) {
  FailureOr<RankedTensorType> t = tensorType(site, data.getType(), "data");
  if (failed(t))
    return failure();
  Type e = t->getElementType();
  if (!e.isSignlessInteger(32) && !e.isSignlessInteger(64))
    return site.emitError()
           << "operand 'data' must be int32 or int64 (TVM 0.19's fixed-point "
              "multiply runs on no other dtype), got "
           << e;
  return t;
}

FailureOr<Type> relay::inferFixedPointMultiply(ErrorSite site, Value data,
                                               int64_t multiplier,
                                               int64_t shift) {
  FailureOr<RankedTensorType> t = fixedPointData(site, data);
  if (failed(t))
    return failure();
  if (multiplier < INT32_MIN || multiplier > INT32_MAX)
    return site.emitError()
           << "multiplier must be an int32 value, got " << multiplier;
  if (shift < -32 || shift > 31)
    return site.emitError()
           << "shift must be in [-32, 31] (the int64 shifts of TVM's "
              "q_multiply_shift are undefined beyond), got "
           << shift;
  return Type(*t);
}

FailureOr<Type> relay::inferFixedPointMultiplyPerAxis(
    ErrorSite site, Value data, Value multiplier, Value leftShift,
    Value rightShift, ArrayRef<int64_t> axes) {
  FailureOr<RankedTensorType> t = fixedPointData(site, data);
  if (failed(t))
    return failure();
  SmallVector<int64_t> paramShape, seen;
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(site, axis, t->getRank(), "axes");
    if (failed(a))
      return failure();
    if (llvm::is_contained(seen, *a))
      return site.emitError()
             << "axes must not repeat an axis, got " << shapeStr(axes);
    seen.push_back(*a);
    paramShape.push_back(t->getDimSize(*a));
  }
  Value params[] = {multiplier, leftShift, rightShift};
  StringRef names[] = {"fp_multiplier", "left_shift", "right_shift"};
  for (auto [v, name] : llvm::zip(params, names)) {
    FailureOr<RankedTensorType> p = tensorType(site, v.getType(), name);
    if (failed(p))
      return failure();
    if (!p->getElementType().isSignlessInteger(32))
      return site.emitError() << "operand '" << name << "' must be int32, got "
                              << p->getElementType();
    bool shapeOk = p->getRank() == int64_t(paramShape.size());
    for (int64_t i = 0; shapeOk && i < p->getRank(); ++i)
      shapeOk = succeeded(unifyDim(p->getDimSize(i), paramShape[i]));
    if (!shapeOk)
      return site.emitError()
             << "operand '" << name << "' must have data's dims along axes "
             << shapeStr(axes) << " (shape " << shapeStr(paramShape)
             << "), got " << *p;
  }
  return Type(*t);
}

/// A scale (float32) or zero point (int32) of qnn.simulated_*: 0-d, or 1-D
/// of one entry or of `channels` entries.
static LogicalResult checkSimulatedParam(ErrorSite site, Value v,
                                         StringRef name, bool isScale,
                                         std::optional<int64_t> channels) {
  FailureOr<RankedTensorType> t = tensorType(site, v.getType(), name);
  if (failed(t))
    return failure();
  Type elt = t->getElementType();
  if (isScale ? !elt.isF32() : !elt.isSignlessInteger(32))
    return site.emitError()
           << "operand '" << name << "' must be "
           << (isScale ? "float32" : "int32") << ", got " << elt;
  if (t->getRank() == 0)
    return success();
  int64_t n = t->getRank() == 1 ? t->getDimSize(0) : -2;
  if (n == 1 || isAny(n) || (channels && n >= 0 && isAny(*channels)) ||
      (channels && n == *channels))
    return success();
  return site.emitError() << "operand '" << name
                          << "' must be 0-d or 1-D with 1 entry or one per "
                             "channel ("
                          << (channels ? dimStr(*channels) : std::string("1"))
                          << " along the axis), got " << *t;
}

FailureOr<Type> relay::inferQnnSimulated(ErrorSite site, Value data,
                                         Value dtypeCode, Value scale,
                                         Value zeroPoint, int64_t axis,
                                         StringRef prefix) {
  FailureOr<RankedTensorType> t = tensorType(site, data.getType(), "data");
  if (failed(t))
    return failure();
  if (!t->getElementType().isF32() && !t->getElementType().isF64())
    return site.emitError() << "operand 'data' must be float32 or float64, got "
                            << t->getElementType();
  std::string codeName = prefix == "output" ? "out_dtype" : "in_dtype";
  FailureOr<RankedTensorType> code =
      scalarTensor(site, dtypeCode.getType(), codeName);
  if (failed(code))
    return failure();
  if (!code->getElementType().isSignlessInteger(32) &&
      !code->getElementType().isSignlessInteger(64))
    return site.emitError()
           << "operand '" << codeName
           << "' must be an int32 dtype code (1 int8, 2 uint8, 3 int32), got "
           << code->getElementType();
  std::optional<int64_t> channels;
  if (t->getRank() > 0) {
    FailureOr<int64_t> a = normalizeAxis(site, axis, t->getRank());
    if (failed(a))
      return failure();
    channels = t->getDimSize(*a);
  }
  std::string scaleName = (prefix + "_scale").str();
  std::string zpName = (prefix + "_zero_point").str();
  if (failed(checkSimulatedParam(site, scale, scaleName, true, channels)) ||
      failed(checkSimulatedParam(site, zeroPoint, zpName, false, channels)))
    return failure();
  return Type(*t);
}
