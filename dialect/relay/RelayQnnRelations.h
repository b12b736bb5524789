//===- RelayQnnRelations.h - typing rules of the qnn.* operators ----------===//
//
// Defined in lib/Relations/Qnn.cpp; included by RelayRelations.h. The rules
// take the quantization parameters as values (not only types): a constant
// scale or zero point is checked (scale > 0 and finite, zero point inside
// the quantized dtype) where the op is written.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYQNNRELATIONS_H
#define RELAY_RELAYQNNRELATIONS_H

namespace mlir::relay {

/// qnn.quantize: float32 `data` to `outDtype` (int8 by default); `scale`
/// (float32) and `zeroPoint` (int32) are 0-d or 1-D along `axis`.
FailureOr<Type> inferQnnQuantize(ErrorSite site, Value data, Value scale,
                                 Value zeroPoint, int64_t axis,
                                 std::optional<Type> outDtype);
/// qnn.dequantize: integer `data` to `outDtype` (float32 by default).
FailureOr<Type> inferQnnDequantize(ErrorSite site, Value data, Value scale,
                                   Value zeroPoint, int64_t axis,
                                   std::optional<Type> outDtype);
/// qnn.requantize: integer `data` to `outDtype` (int8 by default); the
/// input parameters may be per channel along `axis`, the output's are 0-d.
FailureOr<Type> inferQnnRequantize(ErrorSite site, Value data, Value inScale,
                                   Value inZeroPoint, Value outScale,
                                   Value outZeroPoint, int64_t axis,
                                   std::optional<Type> outDtype);

/// qnn.dense: `data` [d..., k] (int8, uint8, int16, uint16) and `weight`
/// [units, k] (int8, uint8) to [d..., units] of `outDtype` (int32 default,
/// int64); `kernelZeroPoint` and `kernelScale` 0-d or per unit.
FailureOr<Type> inferQnnDense(ErrorSite site, Value data, Value weight,
                              Value inputZeroPoint, Value kernelZeroPoint,
                              Value inputScale, Value kernelScale,
                              std::optional<int64_t> units,
                              std::optional<Type> outDtype);
/// qnn.conv2d: nn.conv2d's shapes (inferConv); `data`/`weight` int8, uint8
/// or int16; `outDtype` int32 (default) or int64; the kernel's parameters
/// 0-d or per output channel.
FailureOr<Type> inferQnnConv2D(
    ErrorSite site, Value data, Value weight, Value inputZeroPoint,
    Value kernelZeroPoint, Value inputScale, Value kernelScale,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilation, int64_t groups, std::optional<int64_t> channels,
    std::optional<ArrayRef<int64_t>> kernelSize, StringRef dataLayout,
    StringRef kernelLayout, StringRef outLayout, std::optional<Type> outDtype);
/// qnn.add, qnn.subtract, qnn.mul: `lhs` and `rhs` of one integer dtype,
/// broadcast; their parameters 0-d or per channel along `lhsAxis` /
/// `rhsAxis`, the output's 0-d.
FailureOr<Type> inferQnnBinary(ErrorSite site, Value lhs, Value rhs,
                               Value lhsScale, Value lhsZeroPoint,
                               Value rhsScale, Value rhsZeroPoint,
                               Value outScale, Value outZeroPoint,
                               int64_t lhsAxis, int64_t rhsAxis);

/// qnn.batch_matmul: `x` [b, m, k] and `y` [b, n, k] (int8, uint8) to
/// [b, m, n] of `outDtype` (int32 default, int64); parameters 0-d.
FailureOr<Type> inferQnnBatchMatmul(ErrorSite site, Value x, Value y,
                                    Value xZeroPoint, Value yZeroPoint,
                                    Value xScale, Value yScale,
                                    std::optional<Type> outDtype);

/// qnn.concatenate: `operands` are n tensors (one dtype: int8, uint8,
/// int32), their n scales, n zero points, the output scale and zero point
/// (all 0-d); concatenate's shape rule along `axis`.
FailureOr<Type> inferQnnConcatenate(ErrorSite site, ValueRange operands,
                                    int64_t axis);
/// qnn.avg_pool2d: int8/uint8 `data`, 0-d parameters; nn.avg_pool2d's shape.
FailureOr<Type>
inferQnnAvgPool2D(ErrorSite site, Value data, Value inScale, Value inZeroPoint,
                  Value outScale, Value outZeroPoint,
                  ArrayRef<int64_t> poolSize, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> dilation, ArrayRef<int64_t> padding,
                  StringRef layout, StringRef outLayout, bool ceilMode);
/// qnn.conv2d_transpose: nn.conv2d_transpose's shapes; int8/uint8 operands;
/// `outDtype` int32 (default) or int16; zero points 0-d, `kernelScale` 0-d
/// or per output channel.
FailureOr<Type> inferQnnConv2DTranspose(
    ErrorSite site, Value data, Value weight, Value inputZeroPoint,
    Value kernelZeroPoint, Value inputScale, Value kernelScale,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilation, int64_t groups, std::optional<int64_t> channels,
    std::optional<ArrayRef<int64_t>> kernelSize, StringRef dataLayout,
    StringRef kernelLayout, StringRef outLayout,
    ArrayRef<int64_t> outputPadding, std::optional<Type> outDtype);
/// The unary qnn ops, qnn.leaky_relu, qnn.softmax: `x` of one of `allowed`
/// dtypes, four 0-d parameters; the result has x's type.
FailureOr<Type> inferQnnUnary(ErrorSite site, Value x, Value scale,
                              Value zeroPoint, Value outScale,
                              Value outZeroPoint, ArrayRef<StringRef> allowed,
                              StringRef expected);

/// fixed_point_multiply: int32 or int64 `data`; `multiplier` an int32 value,
/// `shift` in [-32, 31]; the result has data's type.
FailureOr<Type> inferFixedPointMultiply(ErrorSite site, Value data,
                                        int64_t multiplier, int64_t shift);
/// fixed_point_multiply_per_axis: int32 or int64 `data`; the three int32
/// parameters have data's dims along `axes`; the result has data's type.
FailureOr<Type> inferFixedPointMultiplyPerAxis(ErrorSite site, Value data,
                                               Value multiplier,
                                               Value leftShift,
                                               Value rightShift,
                                               ArrayRef<int64_t> axes);
/// qnn.simulated_quantize / qnn.simulated_dequantize: float32/float64
/// `data`, a 0-d integer dtype code, `<prefix>_scale` (float32) and
/// `<prefix>_zero_point` (int32) 0-d or 1-D of 1 or one entry per channel
/// along `axis`; the result has data's type.
FailureOr<Type> inferQnnSimulated(ErrorSite site, Value data, Value dtypeCode,
                                  Value scale, Value zeroPoint, int64_t axis,
                                  StringRef prefix);

} // namespace mlir::relay

#endif // RELAY_RELAYQNNRELATIONS_H
