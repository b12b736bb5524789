//===- Window.cpp - padding and windows of convolutions and pools ---------===//
#include "Window.h"
#include "DynamicUtils.h"
#include "IREEOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

Value lowering::padDims(OpBuilder &b, Location loc, Value input,
                        ArrayRef<int64_t> dims, ArrayRef<int64_t> low,
                        ArrayRef<int64_t> high, Value value) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<OpFoldResult> lo(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> hi(type.getRank(), b.getIndexAttr(0));
  for (auto [i, d] : llvm::enumerate(dims)) {
    lo[d] = b.getIndexAttr(low[i]);
    hi[d] = b.getIndexAttr(high[i]);
  }
  return tensor::PadOp::create(b, loc, Type(), input, lo, hi, value);
}

Value lowering::cropToWindows(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> dims, ArrayRef<int64_t> kernel,
                              ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dilation) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  bool crop = false;
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (kernel[i] < 0)
      continue;
    int64_t used =
        windowInputExtent(shape[d], kernel[i], strides[i], dilation[i]);
    crop |= used != shape[d];
    shape[d] = used;
  }
  if (!crop)
    return input;
  SmallVector<OpFoldResult> offsets(shape.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = dimSizes(b, loc, input);
  SmallVector<OpFoldResult> unit(shape.size(), b.getIndexAttr(1));
  for (int64_t d : dims)
    if (!ShapedType::isDynamic(shape[d]))
      sizes[d] = b.getIndexAttr(shape[d]);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), input,
      offsets, sizes, unit);
}

Value lowering::cropToOutputWindows(OpBuilder &b, Location loc, Value input,
                                    ArrayRef<int64_t> dims,
                                    ArrayRef<OpFoldResult> outSizes,
                                    ArrayRef<int64_t> kernel,
                                    ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> dilation) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<OpFoldResult> sizes = dimSizes(b, loc, input);
  AffineExpr out = getAffineSymbolExpr(0, b.getContext());
  bool crop = false;
  for (auto [i, d] : llvm::enumerate(dims)) {
    AffineExpr used =
        (out - 1) * strides[i] + (kernel[i] - 1) * dilation[i] + 1;
    OpFoldResult extent = affine::makeComposedFoldedAffineMax(
        b, loc,
        AffineMap::get(0, 1, {used, getAffineConstantExpr(0, b.getContext())},
                       b.getContext()),
        {outSizes[i]});
    if (isEqualConstantIntOrValue(extent, sizes[d]))
      continue;
    sizes[d] = extent;
    crop = true;
  }
  if (!crop)
    return input;
  SmallVector<OpFoldResult> offsets(sizes.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> unit(sizes.size(), b.getIndexAttr(1));
  auto cropped = RankedTensorType::get(
      llvm::map_to_vector(sizes,
                          [](OpFoldResult s) {
                            return getConstantIntValue(s).value_or(
                                ShapedType::kDynamic);
                          }),
      type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, cropped, input, offsets, sizes,
                                        unit);
}

Value lowering::padAndCropToWindows(OpBuilder &b, Location loc, Value input,
                                    ArrayRef<int64_t> dims,
                                    const SpatialPadding &padding,
                                    ArrayRef<int64_t> extraAfter,
                                    ArrayRef<int64_t> kernel,
                                    ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> dilation, Value value) {
  SmallVector<int64_t, 3> after(padding.after);
  for (auto [i, extra] : llvm::enumerate(extraAfter))
    after[i] += extra;
  // Padding no window reads is not added (a crop after the pad would keep
  // IREE from fusing the pad into the window op: MobileNetV2's stride-2
  // depthwise convolutions); what is left to crop is input rows.
  auto type = cast<RankedTensorType>(input.getType());
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (kernel[i] < 0 || type.isDynamicDim(d))
      continue;
    int64_t padded = type.getDimSize(d) + padding.before[i] + after[i];
    int64_t unused =
        padded - windowInputExtent(padded, kernel[i], strides[i], dilation[i]);
    after[i] -= std::clamp<int64_t>(unused, 0, after[i]);
  }
  return cropToWindows(
      b, loc, padDims(b, loc, input, dims, padding.before, after, value), dims,
      kernel, strides, dilation);
}

OpFoldResult lowering::windowExtent(OpBuilder &b, Location loc, OpFoldResult in,
                                    OpFoldResult k, int64_t stride,
                                    int64_t dilation, StringRef opName) {
  AffineExpr s0, s1;
  bindSymbols(b.getContext(), s0, s1);
  AffineExpr span = (s1 - 1) * dilation + 1;
  if (!getConstantIntValue(in) || !getConstantIntValue(k)) {
    Value spanV = affine::makeComposedAffineApply(b, loc, span, {in, k});
    runtimeCheck(b, loc,
                 arith::CmpIOp::create(
                     b, loc, arith::CmpIPredicate::sge,
                     getValueOrCreateConstantIndexOp(b, loc, in), spanV),
                 opName,
                 "the input (with its padding) is smaller than the "
                 "window");
  }
  return affine::makeComposedFoldedAffineApply(
      b, loc, (s0 - span).floorDiv(stride) + 1, {in, k});
}

Value lowering::windowCount(OpBuilder &b, Location loc, Value outIndex,
                            int64_t k, int64_t stride, int64_t dilation,
                            int64_t padBefore, Value last, bool countPad) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value start = arith::SubIOp::create(
      b, loc, arith::MulIOp::create(b, loc, outIndex, cst(stride)),
      cst(padBefore));
  Value end = arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, start, cst((k - 1) * dilation)),
      last);
  Value first = start;
  if (!countPad) {
    // Skip the padded positions before the data: ceil(-start / d) windows.
    Value jumps = arith::MaxSIOp::create(
        b, loc,
        arith::DivSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, cst(dilation - 1), start),
            cst(dilation)),
        cst(0));
    first = arith::AddIOp::create(
        b, loc, start, arith::MulIOp::create(b, loc, jumps, cst(dilation)));
  }
  return arith::AddIOp::create(
      b, loc,
      arith::DivSIOp::create(b, loc, arith::SubIOp::create(b, loc, end, first),
                             cst(dilation)),
      cst(1));
}

SmallVector<NamedAttribute> lowering::windowAttrs(OpBuilder &b,
                                                  ArrayRef<int64_t> strides,
                                                  ArrayRef<int64_t> dilation) {
  return {b.getNamedAttr("strides", b.getI64TensorAttr(strides)),
          b.getNamedAttr("dilations", b.getI64TensorAttr(dilation))};
}

tensor::PadOp lowering::padUnder(Value padded) {
  Value in = padded;
  if (auto slice = in.getDefiningOp<tensor::ExtractSliceOp>())
    in = slice.getSource();
  return in.getDefiningOp<tensor::PadOp>();
}

Value lowering::paddedBehindBarrier(OpBuilder &b, Location loc, Value padded) {
  if (!padUnder(padded) ||
      !cast<RankedTensorType>(padded.getType()).hasStaticShape() ||
      !b.getContext()->allowsUnregisteredDialects())
    return padded;
  return iree::optimizationBarrier(b, loc, padded);
}
