//===- Qnn.cpp - typing rules of the qnn.* operators ----------------------===//
//
// TVM 0.19's qnn relations (src/relay/qnn/op/*.cc): the dtypes each op
// accepts, a result of the data's shape, and quantization parameters that
// are a 0-d tensor (per tensor) or a 1-D tensor with one entry per channel
// along `axis` (scales float32, zero points int32). Beyond TVM, a constant
// parameter is checked where it is written: a scale must be positive and
// finite, a zero point must lie in the range of the quantized dtype.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

namespace {
/// A quantization parameter operand: its value, its name in diagnostics,
/// whether it is a scale (float32) or a zero point (int32), and the
/// quantized dtype a zero point must fit in.
struct QnnParam {
  Value value;
  StringRef name;
  bool isScale;
  Type quantized;
};
} // namespace

static std::string dtypeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// True if `t` is one of the relay integer dtypes `allowed` names
/// ("i8", "ui8", ...).
static bool isOneOf(Type t, ArrayRef<StringRef> allowed) {
  return llvm::is_contained(allowed, dtypeName(t));
}

/// The values an integer dtype holds.
static std::pair<int64_t, int64_t> dtypeRange(IntegerType t) {
  unsigned w = t.getWidth();
  if (t.isUnsigned())
    return {0, w >= 64 ? INT64_MAX : (int64_t(1) << w) - 1};
  if (w >= 64)
    return {INT64_MIN, INT64_MAX};
  return {-(int64_t(1) << (w - 1)), (int64_t(1) << (w - 1)) - 1};
}

/// Checks the values of a constant parameter (nothing to check otherwise).
static LogicalResult checkConstantParam(ErrorSite site, const QnnParam &p) {
  auto cst = p.value.getDefiningOp<ConstantOp>();
  auto dense =
      cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : DenseElementsAttr();
  if (!dense)
    return success();
  int64_t i = 0;
  if (p.isScale) {
    for (const APFloat &v : dense.getValues<APFloat>()) {
      double d = v.convertToDouble();
      if (!std::isfinite(d) || d <= 0) {
        char text[32];
        std::snprintf(text, sizeof(text), "%g", d);
        return site.emitError()
               << "operand '" << p.name << "' must be positive and finite, got "
               << text << " at index " << i;
      }
      ++i;
    }
    return success();
  }
  auto [lo, hi] = dtypeRange(cast<IntegerType>(p.quantized));
  for (const APInt &v : dense.getValues<APInt>()) {
    int64_t z = v.getSExtValue();
    if (z < lo || z > hi)
      return site.emitError()
             << "operand '" << p.name << "' must be in [" << lo << ", " << hi
             << "] (the range of " << dtypeName(p.quantized) << "), got " << z
             << " at index " << i;
    ++i;
  }
  return success();
}

/// Checks a parameter's type: float32 (scale) or int32 (zero point), 0-d,
/// or 1-D of `channels` entries when `channels` is set (per channel).
static LogicalResult checkParam(ErrorSite site, const QnnParam &p,
                                std::optional<int64_t> channels) {
  FailureOr<RankedTensorType> t = tensorType(site, p.value.getType(), p.name);
  if (failed(t))
    return failure();
  Type elt = t->getElementType();
  bool dtypeOk = p.isScale ? elt.isF32() : elt.isSignlessInteger(32);
  if (!dtypeOk)
    return site.emitError()
           << "operand '" << p.name << "' must be "
           << (p.isScale ? "float32" : "int32") << ", got " << elt;
  if (t->getRank() == 0)
    return checkConstantParam(site, p);
  if (!channels)
    return site.emitError() << "operand '" << p.name
                            << "' must be a 0-d tensor (one value for the "
                               "tensor), got "
                            << *t;
  if (t->getRank() != 1 || failed(unifyDim(t->getDimSize(0), *channels)))
    return site.emitError()
           << "operand '" << p.name
           << "' must be 0-d or 1-D with one entry per channel ("
           << dimStr(*channels) << " along the axis), got " << *t;
  return checkConstantParam(site, p);
}

/// `data`'s type, whose element type must be one of `allowed`.
static FailureOr<RankedTensorType> dataOfDtype(ErrorSite site, Value data,
                                               ArrayRef<StringRef> allowed,
                                               StringRef expected) {
  FailureOr<RankedTensorType> t = tensorType(site, data.getType(), "data");
  if (failed(t))
    return failure();
  if (!isOneOf(t->getElementType(), allowed))
    return site.emitError() << "operand 'data' must be " << expected << ", got "
                            << t->getElementType();
  return t;
}

/// The `out_dtype` attribute or `fallback`, which must be one of `allowed`.
static FailureOr<Type> outDtypeOf(ErrorSite site, std::optional<Type> outDtype,
                                  Type fallback, ArrayRef<StringRef> allowed,
                                  StringRef expected) {
  Type t = outDtype ? *outDtype : fallback;
  if (!isOneOf(t, allowed))
    return site.emitError()
           << "out_dtype must be " << expected << ", got " << t;
  return t;
}

/// The channel count along `axis` of `data` (nothing for a 0-d tensor,
/// whose parameters must be 0-d).
static FailureOr<std::optional<int64_t>>
channelsAlong(ErrorSite site, RankedTensorType data, int64_t axis) {
  if (data.getRank() == 0)
    return std::optional<int64_t>();
  FailureOr<int64_t> a = normalizeAxis(site, axis, data.getRank());
  if (failed(a))
    return failure();
  return std::optional<int64_t>(data.getDimSize(*a));
}

static const StringRef kQuantizedOut[] = {"i8", "ui8", "i16", "ui16", "i32"};

FailureOr<Type> relay::inferQnnQuantize(ErrorSite site, Value data, Value scale,
                                        Value zeroPoint, int64_t axis,
                                        std::optional<Type> outDtype) {
  FailureOr<RankedTensorType> t = dataOfDtype(site, data, {"f32"}, "float32");
  if (failed(t))
    return failure();
  MLIRContext *ctx = data.getContext();
  FailureOr<Type> out =
      outDtypeOf(site, outDtype, IntegerType::get(ctx, 8), kQuantizedOut,
                 "int8, uint8, int16, uint16 or int32");
  FailureOr<std::optional<int64_t>> channels = channelsAlong(site, *t, axis);
  if (failed(out) || failed(channels) ||
      failed(
          checkParam(site, {scale, "output_scale", true, *out}, *channels)) ||
      failed(checkParam(site, {zeroPoint, "output_zero_point", false, *out},
                        *channels)))
    return failure();
  return Type(t->clone(*out));
}

FailureOr<Type> relay::inferQnnDequantize(ErrorSite site, Value data,
                                          Value scale, Value zeroPoint,
                                          int64_t axis,
                                          std::optional<Type> outDtype) {
  FailureOr<RankedTensorType> t = dataOfDtype(
      site, data, kQuantizedOut, "int8, uint8, int16, uint16 or int32");
  if (failed(t))
    return failure();
  FailureOr<Type> out =
      outDtypeOf(site, outDtype, Float32Type::get(data.getContext()),
                 {"f32", "f16"}, "float32 or float16");
  FailureOr<std::optional<int64_t>> channels = channelsAlong(site, *t, axis);
  Type quantized = t->getElementType();
  if (failed(out) || failed(channels) ||
      failed(checkParam(site, {scale, "input_scale", true, quantized},
                        *channels)) ||
      failed(checkParam(site, {zeroPoint, "input_zero_point", false, quantized},
                        *channels)))
    return failure();
  return Type(t->clone(*out));
}

FailureOr<Type> relay::inferQnnRequantize(ErrorSite site, Value data,
                                          Value inScale, Value inZeroPoint,
                                          Value outScale, Value outZeroPoint,
                                          int64_t axis,
                                          std::optional<Type> outDtype) {
  FailureOr<RankedTensorType> t =
      dataOfDtype(site, data, {"i8", "ui8", "i16", "i32", "i64"},
                  "int8, uint8, int16, int32 or int64");
  if (failed(t))
    return failure();
  FailureOr<Type> out =
      outDtypeOf(site, outDtype, IntegerType::get(data.getContext(), 8),
                 {"i8", "ui8", "i16", "i32"}, "int8, uint8, int16 or int32");
  FailureOr<std::optional<int64_t>> channels = channelsAlong(site, *t, axis);
  Type quantized = t->getElementType();
  if (failed(out) || failed(channels) ||
      failed(checkParam(site, {inScale, "input_scale", true, quantized},
                        *channels)) ||
      failed(checkParam(site,
                        {inZeroPoint, "input_zero_point", false, quantized},
                        *channels)) ||
      failed(checkParam(site, {outScale, "output_scale", true, *out},
                        std::nullopt)) ||
      failed(checkParam(site, {outZeroPoint, "output_zero_point", false, *out},
                        std::nullopt)))
    return failure();
  return Type(t->clone(*out));
}

//===----------------------------------------------------------------------===//
// qnn.dense, qnn.batch_matmul, qnn.conv2d: integer contractions
//===----------------------------------------------------------------------===//

static const StringRef kAccumulators[] = {"i32", "i64"};

/// The operand `what` of one of the `allowed` dtypes.
static LogicalResult checkDtype(ErrorSite site, Value v, StringRef what,
                                ArrayRef<StringRef> allowed,
                                StringRef expected) {
  FailureOr<RankedTensorType> t = tensorType(site, v.getType(), what);
  if (failed(t))
    return failure();
  if (!isOneOf(t->getElementType(), allowed))
    return site.emitError() << "operand '" << what << "' must be " << expected
                            << ", got " << t->getElementType();
  return success();
}

static Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// The accumulator dtype: `outDtype` or int32, which must be int32 or int64.
static FailureOr<Type> accumulatorOf(ErrorSite site, Value data,
                                     std::optional<Type> outDtype) {
  return outDtypeOf(site, outDtype, IntegerType::get(data.getContext(), 32),
                    kAccumulators, "int32 or int64");
}

FailureOr<Type> relay::inferQnnDense(ErrorSite site, Value data, Value weight,
                                     Value inputZeroPoint,
                                     Value kernelZeroPoint, Value inputScale,
                                     Value kernelScale,
                                     std::optional<int64_t> units,
                                     std::optional<Type> outDtype) {
  if (failed(checkDtype(site, data, "data", {"i8", "ui8", "i16", "ui16"},
                        "int8, uint8, int16 or uint16")) ||
      failed(
          checkDtype(site, weight, "weight", {"i8", "ui8"}, "int8 or uint8")))
    return failure();
  FailureOr<Type> acc = accumulatorOf(site, data, outDtype);
  if (failed(acc))
    return failure();
  FailureOr<Type> result =
      inferDense(site, data.getType(), weight.getType(), units, *acc);
  if (failed(result))
    return failure();
  int64_t unitsDim = cast<RankedTensorType>(weight.getType()).getDimSize(0);
  Type x = elementOf(data), w = elementOf(weight);
  if (failed(checkParam(site, {inputZeroPoint, "input_zero_point", false, x},
                        std::nullopt)) ||
      failed(checkParam(site, {kernelZeroPoint, "kernel_zero_point", false, w},
                        unitsDim)) ||
      failed(checkParam(site, {inputScale, "input_scale", true, x},
                        std::nullopt)) ||
      failed(
          checkParam(site, {kernelScale, "kernel_scale", true, w}, unitsDim)))
    return failure();
  return result;
}

FailureOr<Type> relay::inferQnnBatchMatmul(ErrorSite site, Value x, Value y,
                                           Value xZeroPoint, Value yZeroPoint,
                                           Value xScale, Value yScale,
                                           std::optional<Type> outDtype) {
  if (failed(checkDtype(site, x, "x", {"i8", "ui8"}, "int8 or uint8")) ||
      failed(checkDtype(site, y, "y", {"i8", "ui8"}, "int8 or uint8")))
    return failure();
  FailureOr<Type> acc = accumulatorOf(site, x, outDtype);
  if (failed(acc))
    return failure();
  FailureOr<Type> result =
      inferBatchMatmul(site, x.getType(), y.getType(), *acc,
                       /*transposeA=*/false, /*transposeB=*/true);
  Type xe = elementOf(x), ye = elementOf(y);
  if (failed(result) ||
      failed(checkParam(site, {xZeroPoint, "x_zero_point", false, xe},
                        std::nullopt)) ||
      failed(checkParam(site, {yZeroPoint, "y_zero_point", false, ye},
                        std::nullopt)) ||
      failed(checkParam(site, {xScale, "x_scale", true, xe}, std::nullopt)) ||
      failed(checkParam(site, {yScale, "y_scale", true, ye}, std::nullopt)))
    return failure();
  return result;
}

/// The parameters of a quantized convolution whose result type is `result`:
/// the input's 0-d, the kernel's scale 0-d or one per output channel, its
/// zero point too when `perChannelZeroPoint` (else 0-d).
static LogicalResult
checkConvParams(ErrorSite site, Type result, StringRef dataLayout,
                StringRef outLayout, Value data, Value weight,
                Value inputZeroPoint, Value kernelZeroPoint, Value inputScale,
                Value kernelScale, bool perChannelZeroPoint) {
  StringRef layout = outLayout.empty() ? dataLayout : outLayout;
  int64_t channels =
      cast<RankedTensorType>(result).getDimSize(layout.find('C'));
  std::optional<int64_t> zpChannels;
  if (perChannelZeroPoint)
    zpChannels = channels;
  Type x = elementOf(data), w = elementOf(weight);
  return success(
      succeeded(checkParam(site, {inputZeroPoint, "input_zero_point", false, x},
                           std::nullopt)) &&
      succeeded(checkParam(site,
                           {kernelZeroPoint, "kernel_zero_point", false, w},
                           zpChannels)) &&
      succeeded(checkParam(site, {inputScale, "input_scale", true, x},
                           std::nullopt)) &&
      succeeded(
          checkParam(site, {kernelScale, "kernel_scale", true, w}, channels)));
}

FailureOr<Type> relay::inferQnnConv2D(
    ErrorSite site, Value data, Value weight, Value inputZeroPoint,
    Value kernelZeroPoint, Value inputScale, Value kernelScale,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilation, int64_t groups, std::optional<int64_t> channels,
    std::optional<ArrayRef<int64_t>> kernelSize, StringRef dataLayout,
    StringRef kernelLayout, StringRef outLayout, std::optional<Type> outDtype) {
  if (failed(checkDtype(site, data, "data", {"i8", "ui8", "i16"},
                        "int8, uint8 or int16")) ||
      failed(checkDtype(site, weight, "weight", {"i8", "ui8", "i16"},
                        "int8, uint8 or int16")))
    return failure();
  FailureOr<Type> acc = accumulatorOf(site, data, outDtype);
  if (failed(acc))
    return failure();
  FailureOr<Type> result =
      inferConv(site, data.getType(), weight.getType(), 2, /*depthwise=*/true,
                strides, padding, dilation, groups, channels, kernelSize,
                dataLayout, kernelLayout, outLayout, *acc);
  if (failed(result))
    return failure();
  if (failed(checkConvParams(site, *result, dataLayout, outLayout, data, weight,
                             inputZeroPoint, kernelZeroPoint, inputScale,
                             kernelScale,
                             /*perChannelZeroPoint=*/true)))
    return failure();
  return result;
}

//===----------------------------------------------------------------------===//
// qnn.add, qnn.subtract, qnn.mul
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferQnnBinary(ErrorSite site, Value lhs, Value rhs,
                                      Value lhsScale, Value lhsZeroPoint,
                                      Value rhsScale, Value rhsZeroPoint,
                                      Value outScale, Value outZeroPoint,
                                      int64_t lhsAxis, int64_t rhsAxis) {
  static const StringRef allowed[] = {"i8", "ui8", "i16", "i32"};
  StringRef expected = "int8, uint8, int16 or int32";
  if (failed(checkDtype(site, lhs, "lhs", allowed, expected)) ||
      failed(checkDtype(site, rhs, "rhs", allowed, expected)))
    return failure();
  Type dtype = elementOf(lhs);
  if (elementOf(rhs) != dtype)
    return site.emitError() << "operands 'lhs' and 'rhs' must have one dtype, "
                               "got "
                            << dtype << " and " << elementOf(rhs);
  FailureOr<Type> result = inferBroadcast(site, lhs.getType(), rhs.getType());
  if (failed(result))
    return failure();
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
  FailureOr<std::optional<int64_t>> lc = channelsAlong(site, lt, lhsAxis);
  FailureOr<std::optional<int64_t>> rc = channelsAlong(site, rt, rhsAxis);
  if (failed(lc) || failed(rc) ||
      failed(checkParam(site, {lhsScale, "lhs_scale", true, dtype}, *lc)) ||
      failed(checkParam(site, {lhsZeroPoint, "lhs_zero_point", false, dtype},
                        *lc)) ||
      failed(checkParam(site, {rhsScale, "rhs_scale", true, dtype}, *rc)) ||
      failed(checkParam(site, {rhsZeroPoint, "rhs_zero_point", false, dtype},
                        *rc)) ||
      failed(checkParam(site, {outScale, "output_scale", true, dtype},
                        std::nullopt)) ||
      failed(checkParam(site, {outZeroPoint, "output_zero_point", false, dtype},
                        std::nullopt)))
    return failure();
  return result;
}

//===----------------------------------------------------------------------===//
// qnn.concatenate, qnn.avg_pool2d, qnn.conv2d_transpose, the unary ops
//===----------------------------------------------------------------------===//

/// Four 0-d parameters: an input's scale and zero point (of `quantized`)
/// and the output's.
static LogicalResult checkScalarParams(ErrorSite site, Type quantized,
                                       Value scale, Value zeroPoint,
                                       Value outScale, Value outZeroPoint,
                                       StringRef scaleName,
                                       StringRef zeroPointName) {
  return success(
      succeeded(checkParam(site, {scale, scaleName, true, quantized},
                           std::nullopt)) &&
      succeeded(checkParam(site, {zeroPoint, zeroPointName, false, quantized},
                           std::nullopt)) &&
      succeeded(checkParam(site, {outScale, "output_scale", true, quantized},
                           std::nullopt)) &&
      succeeded(checkParam(
          site, {outZeroPoint, "output_zero_point", false, quantized},
          std::nullopt)));
}

FailureOr<Type> relay::inferQnnConcatenate(ErrorSite site, ValueRange operands,
                                           int64_t axis) {
  size_t total = operands.size();
  if (total < 5 || (total - 2) % 3 != 0)
    return site.emitError()
           << "takes n tensors, their n scales, their n zero points, the "
              "output scale and zero point (3n + 2 operands, n >= 1), got "
           << total << " operands";
  size_t n = (total - 2) / 3;
  static const StringRef allowed[] = {"i8", "ui8", "i32"};
  SmallVector<Type> types;
  for (size_t i = 0; i < n; ++i) {
    std::string name = "data[" + std::to_string(i) + "]";
    if (failed(checkDtype(site, operands[i], name, allowed,
                          "int8, uint8 or int32")))
      return failure();
    types.push_back(operands[i].getType());
  }
  Type dtype = elementOf(operands[0]);
  for (size_t i = 1; i < n; ++i)
    if (elementOf(operands[i]) != dtype)
      return site.emitError() << "operands 'data[0]' and 'data[" << i
                              << "]' must have one dtype, got " << dtype
                              << " and " << elementOf(operands[i]);
  for (size_t i = 0; i < n; ++i) {
    std::string s = "input_scales[" + std::to_string(i) + "]";
    std::string z = "input_zero_points[" + std::to_string(i) + "]";
    if (failed(checkParam(site, {operands[n + i], s, true, dtype},
                          std::nullopt)) ||
        failed(checkParam(site, {operands[2 * n + i], z, false, dtype},
                          std::nullopt)))
      return failure();
  }
  if (failed(checkParam(site, {operands[3 * n], "output_scale", true, dtype},
                        std::nullopt)) ||
      failed(checkParam(
          site, {operands[3 * n + 1], "output_zero_point", false, dtype},
          std::nullopt)))
    return failure();
  return inferConcatenate(site, types, axis);
}

FailureOr<Type>
relay::inferQnnAvgPool2D(ErrorSite site, Value data, Value inScale,
                         Value inZeroPoint, Value outScale, Value outZeroPoint,
                         ArrayRef<int64_t> poolSize, ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> dilation, ArrayRef<int64_t> padding,
                         StringRef layout, StringRef outLayout, bool ceilMode) {
  if (failed(checkDtype(site, data, "data", {"i8", "ui8"}, "int8 or uint8")) ||
      failed(checkScalarParams(site, elementOf(data), inScale, inZeroPoint,
                               outScale, outZeroPoint, "input_scale",
                               "input_zero_point")))
    return failure();
  return inferPool(site, data.getType(), 2, poolSize, strides, dilation,
                   padding, layout, outLayout, ceilMode);
}

FailureOr<Type> relay::inferQnnConv2DTranspose(
    ErrorSite site, Value data, Value weight, Value inputZeroPoint,
    Value kernelZeroPoint, Value inputScale, Value kernelScale,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilation, int64_t groups, std::optional<int64_t> channels,
    std::optional<ArrayRef<int64_t>> kernelSize, StringRef dataLayout,
    StringRef kernelLayout, StringRef outLayout,
    ArrayRef<int64_t> outputPadding, std::optional<Type> outDtype) {
  if (failed(checkDtype(site, data, "data", {"i8", "ui8"}, "int8 or uint8")) ||
      failed(
          checkDtype(site, weight, "weight", {"i8", "ui8"}, "int8 or uint8")))
    return failure();
  FailureOr<Type> acc =
      outDtypeOf(site, outDtype, IntegerType::get(data.getContext(), 32),
                 {"i32", "i16"}, "int32 or int16");
  if (failed(acc))
    return failure();
  FailureOr<Type> result = inferConvTranspose(
      site, 2, data.getType(), weight.getType(), strides, padding, dilation,
      groups, channels, kernelSize, dataLayout, kernelLayout, outLayout,
      outputPadding, *acc);
  if (failed(result))
    return failure();
  // TVM 0.19: the kernel zero point is 0-d, its scale 0-d or per channel.
  if (failed(checkConvParams(site, *result, dataLayout, outLayout, data, weight,
                             inputZeroPoint, kernelZeroPoint, inputScale,
                             kernelScale,
                             /*perChannelZeroPoint=*/false)))
    return failure();
  return result;
}

FailureOr<Type> relay::inferQnnUnary(ErrorSite site, Value x, Value scale,
                                     Value zeroPoint, Value outScale,
                                     Value outZeroPoint,
                                     ArrayRef<StringRef> allowed,
                                     StringRef expected) {
  if (failed(checkDtype(site, x, "x", allowed, expected)) ||
      failed(checkScalarParams(site, elementOf(x), scale, zeroPoint, outScale,
                               outZeroPoint, "scale", "zero_point")))
    return failure();
  return x.getType();
}
